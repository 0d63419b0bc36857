//! Space on a wizard's field: the next value (a toggle flipped, the next namespace, name
//! or choice), the draft then checked again.

use serde_json::{Value, json};

use super::check::changed_in;
use super::state::{Line, Wizard};
use crate::app::component::Ctx;
use crate::domain::Kind;
use crate::domain::draft::{self, Entry};
use crate::domain::path::YamlPath;

impl Wizard {
    /// Space: the next choice, or the toggle flipped.
    pub fn cycle(&mut self, ctx: &mut Ctx) {
        let w = self;
        let Some(line) = w.lines().get(w.cursor).copied() else {
            return;
        };
        if w.locked(&line).is_some() {
            return;
        }
        let path = line.path();
        match line.spec.entry {
            Entry::Toggle if line.spec.path == draft::POLICY => {
                let reference = YamlPath::keys("spec.clusterVariant.dedicated.scalingPolicyRef");
                if w.draft.policy.take().is_some() {
                    // The reference as it was before the policy was written here comes back.
                    if let Some(before) = w.ref_before_policy.take() {
                        w.draft.set(&reference, before);
                    }
                } else {
                    w.ref_before_policy = Some(w.draft.get(&reference).cloned());
                    w.draft.start_policy();
                }
            }
            Entry::Toggle => {
                let on = w.draft.get(&path).and_then(Value::as_bool).unwrap_or(false);
                if line.spec.label == "Single-node cluster" {
                    // With the reference's companions (one workload-eligible node, a worker
                    // pool to select the host).
                    w.draft.set_single_node(!on);
                } else {
                    w.draft.set(&path, Some(json!(!on)));
                }
            }
            Entry::Namespace => {
                let names: Vec<String> = w.namespaces.iter().map(|(n, _)| n.clone()).collect();
                let current = w.draft.namespace().to_owned();
                let at = names.iter().position(|n| *n == current);
                match names.get(at.map_or(0, |i| (i + 1) % names.len().max(1))) {
                    Some(next) if *next != current => {
                        let next = next.clone();
                        w.draft.move_to(&next);
                    }
                    _ => {
                        ctx.say("no other namespace that pooldeck can see: Enter types one");
                        return;
                    }
                }
            }
            Entry::Named(kind) => {
                if !w.cycle_named(&line, kind, ctx) {
                    return;
                }
            }
            Entry::Choice(choices) => w.cycle_choice(&line, choices),
            _ => return,
        }
        changed_in(w, ctx);
    }

    /// The next name of its kind for a field naming an object; whether there was one.
    fn cycle_named(&mut self, line: &Line, kind: Kind, ctx: &mut Ctx) -> bool {
        let path = line.path();
        let names: Vec<String> = self
            .choices(line)
            .unwrap_or(&[])
            .iter()
            .map(|(name, _)| name.clone())
            .collect();
        if names.is_empty() {
            ctx.say(if kind == Kind::Compute {
                "no GPU variant in this namespace's Computes that pooldeck can see: Enter types one"
                    .to_owned()
            } else {
                format!(
                    "no {} in this namespace that pooldeck can see: Enter types a name",
                    kind.api().plural
                )
            });
            return false;
        }
        let current = self.shown(line);
        let at = names.iter().position(|n| *n == current);
        let next = names[at.map_or(0, |i| (i + 1) % names.len())].clone();
        self.draft.set(&path, Some(json!(next)));
        if kind == Kind::ScalingPolicy {
            let namespace = self.draft.pool.pointer("/metadata/namespace").cloned();
            self.draft.set(
                &YamlPath::keys("spec.clusterVariant.dedicated.scalingPolicyRef.namespace"),
                namespace,
            );
        }
        true
    }

    /// The next of a field's choices (a cluster variant keeps the other's configuration
    /// aside; a count of control plane nodes brings the single-node companions).
    fn cycle_choice(&mut self, line: &Line, choices: &[&str]) {
        let path = line.path();
        let current = self.shown(line);
        let at = choices.iter().position(|c| *c == current);
        let next = choices[at.map_or(0, |i| (i + 1) % choices.len())];
        if line.spec.path == "spec.clusterVariant" {
            // Shared pools are described by the reference only as far as sharedWith;
            // switching keeps the dedicated configuration aside, not lost.
            let variant = self
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
            self.draft
                .set(&YamlPath::keys("spec.clusterVariant"), Some(variant));
        } else if line.spec.label == "Control plane nodes" {
            // One node is a single-node cluster (but in two-node mode, beside its
            // worker), and three or five are not: the reference's companions folloself.
            let count = next.parse::<u64>().unwrap_or(1);
            let single =
                YamlPath::keys(crate::domain::rules::paths::CONTROL_PLANE).key("singleNodeCluster");
            let was_single = self.draft.get(&single).and_then(Value::as_bool) == Some(true);
            let two_node = self
                .draft
                .get(&YamlPath::keys(crate::domain::rules::paths::EDGE).key("isTwoNode"))
                .and_then(Value::as_bool)
                == Some(true);
            if count == 1 && !two_node {
                self.draft.set_single_node(true);
            } else {
                if was_single {
                    self.draft.set_single_node(false);
                }
                self.draft.set(&path, Some(json!(count)));
            }
        } else {
            self.draft.set(&path, Some(json!(next)));
        }
    }
}
