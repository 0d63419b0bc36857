//! The wizard's editing keys: moving between fields and steps, typing into a field, cycling a
//! choice, adding and removing worker pools, and leaving.

use serde_json::Value;

use crossterm::event::KeyEvent;

use super::check::changed_in;
use super::editor::Editor;
use super::state::{Line, Wizard};
use crate::app::component::{After, Ask, Ctx};
use crate::domain::Kind;
use crate::domain::draft::Step;
use crate::domain::draft::{self, Entry, Group};
use crate::domain::entry;

impl Wizard {
    /// ↑↓: the field under the cursor.
    pub fn move_cursor(&mut self, down: bool) {
        // On Review the cursor scrolls the findings and the manifest.
        let last = if self.step == Step::Review {
            usize::from(u16::MAX)
        } else {
            self.lines().len().saturating_sub(1)
        };
        self.cursor = if down {
            (self.cursor + 1).min(last)
        } else {
            self.cursor.saturating_sub(1)
        };
    }

    /// Tab / Shift-Tab: the next or previous step.
    pub fn step(&mut self, forward: bool) {
        let at = Step::ALL.iter().position(|s| *s == self.step).unwrap_or(0);
        let next = if forward {
            (at + 1).min(Step::ALL.len() - 1)
        } else {
            at.saturating_sub(1)
        };
        self.step = Step::ALL[next];
        self.cursor = 0;
    }

    /// Enter: start typing into the field, or keep what was typed; Space on a choice or toggle
    /// moves it on.
    pub fn activate(&mut self, ctx: &mut Ctx) {
        let w = self;
        if w.step == Step::Review {
            return;
        }
        let Some(line) = w.lines().get(w.cursor).copied() else {
            return;
        };
        if let Some(why) = w.locked(&line) {
            ctx.say(why.to_owned());
            return;
        }
        match (w.editing.take(), line.spec.entry) {
            (Some(editor), entry) => {
                let path = line.path();
                match entry::read(entry, &editor.text(), w.draft.get(&path)) {
                    Ok(Some(Value::String(namespace))) if entry == Entry::Namespace => {
                        w.before = None;
                        w.unreadable = None;
                        w.draft.move_to(&namespace);
                        changed_in(w, ctx);
                    }
                    Ok(value) => {
                        w.before = None;
                        w.unreadable = None;
                        put(w, &line, value);
                        changed_in(w, ctx);
                    }
                    Err(problem) => {
                        // Kept open with the text as typed, to be fixed.
                        w.editing = Some(editor);
                        ctx.say(format!("{}: {problem}", line.spec.label));
                    }
                }
            }
            (None, Entry::Choice(_) | Entry::Toggle) => w.cycle(ctx),
            (None, entry) => {
                let value = w.draft.get(&line.path()).cloned();
                let text = entry::text_of(entry, value.as_ref());
                w.editing = Some(Editor::new(&text, entry.multi_line()));
                w.before = Some(value);
            }
        }
    }

    /// After a keystroke or a paste into a field: what is typed goes into the draft at once
    /// (the namespace only once kept, as it moves the whole draft), and every check runs on it;
    /// text that cannot be read as the field's value is said on the field as an error, the
    /// draft keeping its last readable value.
    pub(super) fn retyped(&mut self, ctx: &mut Ctx) {
        let w = self;
        let (Some(editor), Some(line)) = (&w.editing, w.lines().get(w.cursor).copied()) else {
            return;
        };
        let path = line.path();
        match entry::read(line.spec.entry, &editor.text(), w.draft.get(&path)) {
            Ok(_) if line.spec.entry == Entry::Namespace => w.unreadable = None,
            Ok(value) => {
                w.unreadable = None;
                put(w, &line, value);
            }
            Err(problem) => w.unreadable = Some((path, problem.to_string())),
        }
        changed_in(w, ctx);
    }

    /// A key the bindings left to the field being edited (characters, cursor keys, deletion,
    /// undo). Whether it was taken.
    pub fn edit_key(&mut self, key: KeyEvent, ctx: &mut Ctx) -> bool {
        match self.editing.as_mut() {
            Some(editor) => {
                let before = editor.text();
                editor.key(key);
                // A cursor move changes nothing to check.
                if editor.text() != before {
                    self.retyped(ctx);
                }
                true
            }
            None => false,
        }
    }

    /// Pasted text into the field being edited. Whether it was taken.
    pub fn paste(&mut self, text: &str, ctx: &mut Ctx) -> bool {
        match self.editing.as_mut() {
            Some(editor) => {
                editor.paste(text);
                self.retyped(ctx);
                true
            }
            None => false,
        }
    }

    /// Esc: leave the field (what was typed is dropped), or close the wizard (the draft stays
    /// saved, and `n` offers it again).
    pub fn escape(&mut self, ctx: &mut Ctx) -> After {
        let w = self;
        if w.editing.take().is_some() {
            // What was typed is dropped: the field's value as it was before goes back.
            if let (Some(before), Some(line)) = (w.before.take(), w.lines().get(w.cursor).copied())
                && line.spec.entry != Entry::Namespace
            {
                w.draft.set(&line.path(), before);
            }
            w.unreadable = None;
            changed_in(w, ctx);
            return After::Stay;
        }
        {
            let said = match (&w.unsaved, w.blank(), &w.saved_as) {
                // Nothing written that a draft would keep: none is left behind.
                (_, true, saved) => {
                    if let Some(file) = saved {
                        ctx.ask(Ask::Forget(file.clone()));
                    }
                    "the wizard is closed; nothing was changed, so no draft is kept".to_owned()
                }
                (Some(why), false, _) => {
                    format!("the wizard is closed; its draft could not be kept on disk ({why})")
                }
                (None, false, _) => "the wizard is closed; its draft is kept".to_owned(),
            };
            ctx.say(said);
            // `pooldeck new` is the wizard alone: closing it ends the program.
            if ctx.wizard_only {
                ctx.ask(Ask::Quit);
            }
        }
        After::Close
    }

    /// `a`: a worker pool more (Node Config), or a GPU entry more in the policy written here
    /// (Autoscaling; its variant the first the worker pools ask for that has none yet).
    pub fn add_entry(&mut self, ctx: &mut Ctx) {
        let w = self;
        let added = match w.step {
            Step::NodeConfig => {
                let n = w.draft.worker_pools();
                (
                    Group::WorkerPool,
                    w.draft.add_worker_pool(&format!("worker-pool-{}", n + 1)),
                )
            }
            Step::Autoscaling if w.draft.policy.is_some() => {
                let listed: Vec<String> = (0..w.draft.policy_gpus())
                    .filter_map(|i| {
                        w.draft
                            .get(&draft::policy_gpu_path().index(i).key("variant"))
                            .and_then(Value::as_str)
                            .map(str::to_owned)
                    })
                    .collect();
                let variant = (0..w.draft.worker_pools())
                    .filter_map(|i| {
                        w.draft
                            .get(&draft::worker_pools_path().index(i).join("gpu.variant"))
                            .and_then(Value::as_str)
                            .map(str::to_owned)
                    })
                    .find(|v| !listed.contains(v))
                    .unwrap_or_default();
                (Group::PolicyGpu, w.draft.add_policy_gpu(&variant))
            }
            Step::Autoscaling => {
                ctx.say("a adds a GPU entry to a policy written here: turn on \"Write a new policy\" first");
                return;
            }
            _ => return,
        };
        // The cursor goes to the new entry's first field.
        if let Some(at) = w
            .lines()
            .iter()
            .position(|l| (l.spec.group, l.worker) == added)
        {
            w.cursor = at;
        }
        changed_in(w, ctx);
    }

    /// `x`: removes the worker pool or policy GPU entry under the cursor.
    pub fn remove_entry(&mut self, ctx: &mut Ctx) {
        let w = self;
        let Some(line) = w.lines().get(w.cursor).copied() else {
            return;
        };
        match line.spec.group {
            Group::Once => return,
            Group::WorkerPool => w
                .draft
                .set(&draft::worker_pools_path().index(line.worker), None),
            Group::PolicyGpu => w.draft.remove_policy_gpu(line.worker),
        }
        w.cursor = w.cursor.min(w.lines().len().saturating_sub(1));
        changed_in(w, ctx);
    }
}

/// A field's value into the draft. A Settings or ScalingPolicy reference emptied goes
/// whole: a reference naming nothing is not the same as none.
fn put(w: &mut Wizard, line: &Line, value: Option<Value>) {
    let path = line.path();
    let reference = matches!(
        line.spec.entry,
        Entry::Named(Kind::Settings | Kind::ScalingPolicy)
    );
    if value.is_none() && reference {
        w.draft.set(&path.parent(), None);
    } else {
        w.draft.set(&path, value);
    }
}
