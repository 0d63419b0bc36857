//! The wizard's editing keys: moving between fields and steps, typing into a field, cycling a
//! choice, adding and removing worker pools, and leaving.

use serde_json::{Value, json};

use super::{Overlay, Step, changed, wizard};
use crate::app::App;
use crate::domain::Kind;
use crate::domain::draft::{self, Entry};
use crate::domain::path::YamlPath;

/// ↑↓: the field under the cursor.
pub fn move_cursor(app: &mut App, down: bool) {
    if let Some(w) = wizard(app) {
        // On Review the cursor scrolls the findings and the manifest.
        let last = if w.step == Step::Review {
            usize::from(u16::MAX)
        } else {
            w.lines().len().saturating_sub(1)
        };
        w.cursor = if down {
            (w.cursor + 1).min(last)
        } else {
            w.cursor.saturating_sub(1)
        };
    }
}

/// Tab / Shift-Tab: the next or previous step.
pub fn step(app: &mut App, forward: bool) {
    if let Some(w) = wizard(app) {
        let at = Step::ALL.iter().position(|s| *s == w.step).unwrap_or(0);
        let next = if forward {
            (at + 1).min(Step::ALL.len() - 1)
        } else {
            at.saturating_sub(1)
        };
        w.step = Step::ALL[next];
        w.cursor = 0;
    }
}

/// Enter: start typing into the field, or keep what was typed; Space on a choice or toggle
/// moves it on.
pub fn activate(app: &mut App) {
    let Some(w) = wizard(app) else {
        return;
    };
    if w.step == Step::Review {
        return;
    }
    let Some(line) = w.lines().get(w.cursor).copied() else {
        return;
    };
    if let Some(why) = w.locked(&line) {
        app.message = Some(why.to_owned());
        return;
    }
    match (w.editing.take(), line.spec.entry) {
        (Some(text), entry) => {
            let value = typed_value(&text, entry);
            w.draft.set(&line.path(), value);
            changed(app);
        }
        (None, Entry::Choice(_) | Entry::Toggle) => cycle(app),
        (None, _) => {
            let current = w.shown(&line);
            w.editing = Some(current);
        }
    }
}

/// What typed text becomes in the object: a count as a number when it is one (otherwise the
/// text, so the rules say what is wrong), empty as no value.
fn typed_value(text: &str, entry: Entry) -> Option<Value> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    Some(match entry {
        Entry::Count => text
            .parse::<u64>()
            .map(|n| json!(n))
            .unwrap_or_else(|_| json!(text)),
        Entry::Lines => json!(text.split('\n').map(str::trim).collect::<Vec<_>>()),
        _ => json!(text),
    })
}

/// Space: the next choice, or the toggle flipped.
pub fn cycle(app: &mut App) {
    let Some(w) = wizard(app) else {
        return;
    };
    let Some(line) = w.lines().get(w.cursor).copied() else {
        return;
    };
    if w.locked(&line).is_some() {
        return;
    }
    let path = line.path();
    match line.spec.entry {
        Entry::Toggle => {
            let on = w.draft.get(&path).and_then(Value::as_bool).unwrap_or(false);
            w.draft.set(&path, Some(json!(!on)));
        }
        Entry::Named(kind) => {
            let names: Vec<String> = w
                .choices(&line)
                .unwrap_or(&[])
                .iter()
                .map(|(name, _)| name.clone())
                .collect();
            if names.is_empty() {
                app.message = Some(format!(
                    "no {} in this namespace that pooldeck can see: Enter types a name",
                    kind.api().plural
                ));
                return;
            }
            let current = w.shown(&line);
            let at = names.iter().position(|n| *n == current);
            let next = names[at.map_or(0, |i| (i + 1) % names.len())].clone();
            w.draft.set(&path, Some(json!(next)));
            if kind == Kind::ScalingPolicy {
                let namespace = w.draft.pool.pointer("/metadata/namespace").cloned();
                w.draft.set(
                    &YamlPath::keys("spec.clusterVariant.dedicated.scalingPolicyRef.namespace"),
                    namespace,
                );
            }
        }
        Entry::Choice(choices) => {
            let current = w.shown(&line);
            let at = choices.iter().position(|c| *c == current);
            let next = choices[at.map_or(0, |i| (i + 1) % choices.len())];
            if line.spec.path == "spec.clusterVariant" {
                // Shared pools are described by the reference only as far as sharedWith;
                // switching keeps the dedicated configuration aside, not lost.
                let variant = w
                    .draft
                    .get(&YamlPath::keys("spec.clusterVariant"))
                    .cloned()
                    .unwrap_or(json!({}));
                let (from, to) = if next == "shared" {
                    ("dedicated", "shared")
                } else {
                    ("shared", "dedicated")
                };
                let mut variant = variant;
                if let Some(map) = variant.as_object_mut() {
                    let moved = map.shift_remove(from).unwrap_or(json!({}));
                    map.insert(to.to_owned(), moved);
                }
                w.draft
                    .set(&YamlPath::keys("spec.clusterVariant"), Some(variant));
            } else {
                let value = match line.spec.label {
                    "Control plane nodes" => json!(next.parse::<u64>().unwrap_or(1)),
                    _ => json!(next),
                };
                w.draft.set(&path, Some(value));
            }
        }
        _ => return,
    }
    changed(app);
}

/// A key typed into the field being edited.
pub fn typed(app: &mut App, c: char) {
    if let Some(w) = wizard(app)
        && let Some(text) = w.editing.as_mut()
    {
        text.push(c);
    }
}

pub fn erase(app: &mut App) {
    if let Some(w) = wizard(app)
        && let Some(text) = w.editing.as_mut()
    {
        text.pop();
    }
}

/// Esc: leave the field (what was typed is dropped), or close the wizard (the draft stays
/// saved, and `n` offers it again).
pub fn escape(app: &mut App) {
    if let Some(w) = wizard(app)
        && w.editing.take().is_some()
    {
        return;
    }
    if let Some(Overlay::Wizard(_)) = app.overlays.pop() {
        app.message = Some("the wizard is closed; its draft is kept".into());
        // `pooldeck new` is the wizard alone: closing it ends the program.
        if app.wizard_only {
            app.quit = true;
        }
    }
}

/// `a`: a worker pool more (Node Config).
pub fn add_worker_pool(app: &mut App) {
    let Some(w) = wizard(app) else {
        return;
    };
    if w.step != Step::NodeConfig {
        return;
    }
    let n = w.draft.worker_pools();
    w.draft.add_worker_pool(&format!("worker-pool-{}", n + 1));
    changed(app);
}

/// `x`: removes the worker pool under the cursor.
pub fn remove_worker_pool(app: &mut App) {
    let Some(w) = wizard(app) else {
        return;
    };
    let Some(line) = w.lines().get(w.cursor).copied() else {
        return;
    };
    if !line.spec.per_worker_pool {
        return;
    }
    w.draft
        .set(&draft::worker_pools_path().index(line.worker), None);
    w.cursor = w.cursor.min(w.lines().len().saturating_sub(1));
    changed(app);
}
