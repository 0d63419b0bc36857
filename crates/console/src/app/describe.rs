//! A pool described, as `kubectl describe` shows an object: who it is, its spec in words, its
//! status with each failing condition explained in the troubleshooting guide's words, its
//! hosts, its scaling evaluation, what the doctor finds, and its recent events. One page for
//! `pooldeck describe pool NAME` and the console's `d` (an overlay kept up to date while it is
//! open; Esc goes back). Part of `update`.

use chrono::{DateTime, Utc};

use super::commands::{Command, Scope};
use super::component::{After, Ask, Component, Ctx};
use super::rows;
use super::rows::text::{self as cells, Form};
use super::{Detail, Effect, Tab};
use crate::domain::inert;
use crate::inventory::{Inventory, Object};

/// The describe page open in the console: which pool, how far scrolled (its lines are worked
/// out in `Shown::describe` when the pool or the second changes, not per frame).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DescribeView {
    pub namespace: String,
    pub name: String,
    pub scroll: u16,
}

impl Component for DescribeView {
    fn scopes(&self) -> Vec<Scope> {
        vec![Scope::Describe]
    }

    fn handle(&mut self, command: Command, ctx: &mut Ctx) -> After {
        // The furthest it scrolls: the last page whole (the screen less the header, the
        // footer's line and the borders), in the rows the overlay shows.
        let page = ctx
            .size
            .map_or(0, |(_, height)| usize::from(height.saturating_sub(5)));
        let last = u16::try_from(ctx.shown.describe_rows.len().saturating_sub(page.max(1)))
            .unwrap_or(u16::MAX);
        match command {
            Command::Close => return After::Close,
            Command::Down => self.scroll = self.scroll.saturating_add(1).min(last),
            Command::Up => self.scroll = self.scroll.saturating_sub(1),
            Command::PageDown => {
                self.scroll = self.scroll.saturating_add(ctx.page_lines()).min(last);
            }
            Command::PageUp => self.scroll = self.scroll.saturating_sub(ctx.page_lines()),
            Command::First => self.scroll = 0,
            Command::Last => self.scroll = last,
            Command::Copy => ctx.effect(Effect::Copy {
                text: ctx.shown.describe.join("\n") + "\n",
                what: format!("the description of {}", self.name),
            }),
            // Enter: the pool's detail, where its fixes are.
            Command::Activate => {
                ctx.ask(Ask::Detail(Detail {
                    namespace: self.namespace.clone(),
                    name: self.name.clone(),
                    tab: Tab::Overview,
                    scroll: 0,
                }));
                return After::Close;
            }
            _ => {}
        }
        After::Stay
    }
}

/// A line of the page as rows of at most `width` characters: broken at a space where one
/// falls in the row, the rows after the first indented as the line is, and two more.
/// `width` 0: the line as it is.
pub fn wrap(line: &str, width: usize) -> Vec<String> {
    let chars: Vec<char> = line.chars().collect();
    if width == 0 || chars.len() <= width {
        return vec![line.to_owned()];
    }
    let indent = chars.iter().take_while(|c| **c == ' ').count();
    let hang = " ".repeat((indent + 2).min(width / 2));
    let mut rows: Vec<String> = Vec::new();
    let mut rest: &[char] = &chars;
    let mut room = width;
    while rest.len() > room {
        // The last space in the row that leaves something before it; else a hard cut.
        let cut = rest[..=room]
            .iter()
            .rposition(|c| *c == ' ')
            .filter(|at| *at > 0)
            .unwrap_or(room);
        let row: String = rest[..cut].iter().collect();
        rows.push(if rows.is_empty() {
            row
        } else {
            format!("{hang}{row}")
        });
        rest = &rest[cut..];
        while rest.first() == Some(&' ') {
            rest = &rest[1..];
        }
        room = width - hang.chars().count();
    }
    if !rest.is_empty() {
        let row: String = rest.iter().collect();
        rows.push(if rows.is_empty() {
            row
        } else {
            format!("{hang}{row}")
        });
    }
    rows
}

impl DescribeView {
    /// `d`: the pool described, over the list or its detail.
    pub fn new(namespace: &str, name: &str) -> DescribeView {
        DescribeView {
            namespace: namespace.to_owned(),
            name: name.to_owned(),
            scroll: 0,
        }
    }
}

/// A label and its value, aligned as kubectl describe aligns them.
fn field(out: &mut String, indent: usize, label: &str, value: &str) {
    let pad = 18usize.saturating_sub(label.len().saturating_add(1));
    out.push_str(&format!(
        "{:indent$}{}:{:pad$} {}\n",
        "",
        inert::line(label),
        "",
        inert::line(value)
    ));
}

fn ago(now: DateTime<Utc>, then: Option<DateTime<Utc>>) -> String {
    then.map_or_else(
        || "-".to_owned(),
        |t| crate::domain::words::age(now.signed_duration_since(t)),
    )
}

/// A table under a section, in kubectl's plain form, indented.
fn table(out: &mut String, table: &rows::Table, now: DateTime<Utc>) {
    if table.rows.is_empty() {
        out.push_str("  <none>\n");
        return;
    }
    let texts: Vec<Vec<String>> = table
        .rows
        .iter()
        .map(|row| {
            row.cells
                .iter()
                .map(|c| cells::text(c, now, Form::Plain))
                .collect()
        })
        .collect();
    let headers = table.headers();
    for line in cells::plain_table(&headers, &texts, None).lines() {
        out.push_str("  ");
        out.push_str(line);
        out.push('\n');
    }
}

/// The page for one pool.
#[expect(clippy::too_many_lines, reason = "to be split: issue 48")]
pub fn page(inventory: &Inventory, object: &std::sync::Arc<Object>, now: DateTime<Utc>) -> String {
    let mut out = String::new();
    field(&mut out, 0, "Name", object.name());
    field(&mut out, 0, "Namespace", object.namespace());
    let Some(pool) = object.pool() else {
        field(
            &mut out,
            0,
            "Problem",
            &object.problem().unwrap_or_default(),
        );
        return out;
    };
    let meta = pool.meta();
    let pairs = |map: Option<&crate::domain::model::meta::StringMap>| -> String {
        let listed: Vec<String> = map
            .into_iter()
            .flat_map(|m| m.iter())
            .map(|(k, v)| format!("{k}={}", v.as_deref().unwrap_or("?")))
            .collect();
        if listed.is_empty() {
            "<none>".to_owned()
        } else {
            listed.join(", ")
        }
    };
    field(
        &mut out,
        0,
        "Labels",
        &pairs(meta.and_then(|m| m.labels.get())),
    );
    field(
        &mut out,
        0,
        "Description",
        pool.description().unwrap_or("<none>"),
    );
    let created = meta
        .and_then(|m| m.creation_timestamp.as_deref())
        .and_then(crate::domain::time::parse);
    field(
        &mut out,
        0,
        "Created",
        &format!(
            "{} ({} ago)",
            created.map_or_else(|| "-".to_owned(), |t| t.to_rfc3339()),
            ago(now, created)
        ),
    );
    if let Some(since) = meta
        .filter(|m| m.is_deleting())
        .and_then(|m| m.deletion_timestamp.as_deref())
    {
        field(&mut out, 0, "Deleting since", since);
    }
    field(
        &mut out,
        0,
        "Paused",
        if pool.is_paused() {
            "yes (controller.spectrocloud.com/pause: the controller skips it)"
        } else {
            "no"
        },
    );
    out.push_str("Spec:\n");
    let mode = if pool.dedicated().is_some() {
        "dedicated"
    } else {
        "shared"
    };
    field(&mut out, 2, "Mode", mode);
    field(&mut out, 2, "Deletion policy", pool.deletion_policy());
    field(
        &mut out,
        2,
        "Profile bundle",
        pool.spec()
            .and_then(|s| s.profile_bundle_ref.get())
            .and_then(|r| r.name.as_deref())
            .unwrap_or("<none>"),
    );
    field(
        &mut out,
        2,
        "Scaling policy",
        pool.scaling_policy_name()
            .unwrap_or("<none: not autoscaled>"),
    );
    if let Some(vip) = pool.vip() {
        field(&mut out, 2, "VIP", vip);
    }
    if let Some(cp) = pool.control_plane() {
        field(
            &mut out,
            2,
            "Control plane",
            &format!(
                "{} node(s){}, {}",
                cp.node_count.get().copied().unwrap_or(1),
                if pool.is_single_node() {
                    " (single-node)"
                } else {
                    ""
                },
                cp.architecture.as_deref().unwrap_or("AMD64")
            ),
        );
    }
    for (_, worker) in pool.worker_pools() {
        let gpu = worker
            .gpu
            .get()
            .map(|g| {
                format!(
                    ", {} GPU(s) {}",
                    g.gpu_count.get().copied().unwrap_or(0),
                    g.variant.as_deref().unwrap_or("?")
                )
            })
            .unwrap_or_default();
        field(
            &mut out,
            2,
            &format!("Worker pool {}", worker.name().unwrap_or("(unnamed)")),
            &format!(
                "at least {} node(s){gpu}",
                worker.min_worker_nodes.get().copied().unwrap_or(1)
            ),
        );
    }
    out.push_str("Status:\n");
    let status = pool.status.get();
    field(
        &mut out,
        2,
        "Phase",
        status.and_then(|s| s.status.as_deref()).unwrap_or("<none>"),
    );
    for cluster in status.into_iter().flat_map(|s| s.clusters()) {
        field(
            &mut out,
            2,
            &format!("Cluster {}", cluster.name.as_deref().unwrap_or("?")),
            &format!(
                "{}, health {}",
                cluster.status.as_deref().unwrap_or("?"),
                cluster.health.as_deref().unwrap_or("?")
            ),
        );
    }
    out.push_str("Conditions:\n");
    let conditions: Vec<_> = status.into_iter().flat_map(|s| s.conditions()).collect();
    if conditions.is_empty() {
        out.push_str("  <none>\n");
    }
    for condition in conditions {
        let when = condition
            .last_transition_time
            .as_deref()
            .and_then(crate::domain::time::parse);
        out.push_str(&format!(
            "  {:<28} {:<7} {:<26} {}\n",
            inert::line(condition.kind()),
            inert::line(condition.status.as_deref().unwrap_or("?")),
            inert::line(condition.reason.as_deref().unwrap_or("")),
            ago(now, when)
        ));
        if let Some(message) = condition.message.as_deref().filter(|m| !m.is_empty()) {
            out.push_str(&format!("    {}\n", inert::line(message)));
        }
        if condition.is_false() {
            out.push_str(&format!(
                "    means: {}\n",
                crate::domain::diagnosis::condition_meaning_of(condition.kind())
            ));
        }
    }
    out.push_str("Hosts:\n");
    let hosts = rows::Table {
        columns: rows::host_headers(false),
        rows: rows::pool_host_rows(inventory, object, false),
    };
    table(&mut out, &hosts, now);
    out.push_str("Evaluation:\n");
    let mut evaluation = rows::evaluations(inventory, Some(object.name()), false);
    evaluation
        .rows
        .retain(|row| row.id.namespace.as_str() == object.namespace());
    table(&mut out, &evaluation, now);
    out.push_str("Findings:\n");
    let findings = inventory.diagnose(object, now);
    if findings.is_empty() {
        out.push_str("  nothing wrong\n");
    }
    for finding in findings {
        out.push_str(&format!(
            "  {:?}: {} [{}]\n",
            finding.severity,
            inert::line(&finding.summary),
            finding.id
        ));
    }
    out.push_str("Events:\n");
    let events = inventory.events_for("ComputePool", object.namespace(), object.name());
    if events.is_empty() {
        out.push_str("  <none>\n");
    }
    for event in events.iter().rev().take(10) {
        let Some(e) = event.event() else { continue };
        out.push_str(&format!(
            "  {:<8} {:<24} {:<6} {}\n",
            inert::line(e.event_type().unwrap_or("")),
            inert::line(e.reason().unwrap_or("")),
            ago(now, event.happened()),
            inert::line(e.message().unwrap_or(""))
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::wrap;
    use proptest::prelude::*;

    proptest! {
        /// Every row fits the width, and the rows hold the line's words in order, none lost.
        #[test]
        fn rows_fit_and_keep_every_word(line in "( {0,3}[a-z]{1,12}){0,30}", width in 1usize..90) {
            let rows = wrap(&line, width);
            for row in &rows {
                prop_assert!(row.chars().count() <= width.max(line.chars().count().min(width)), "{row:?} wider than {width}");
            }
            let words = |text: &str| text.split(' ').filter(|w| !w.is_empty()).map(str::to_owned).collect::<Vec<_>>();
            let joined: Vec<String> = rows.iter().flat_map(|r| words(r)).collect();
            // A word longer than a row is cut in pieces: compare the letters.
            prop_assert_eq!(joined.concat(), words(&line).concat());
        }
    }

    #[test]
    fn a_long_line_breaks_at_spaces_and_hangs() {
        let rows = wrap("  Error: one two three four five six", 16);
        assert_eq!(rows[0], "  Error: one two");
        assert!(rows[1..].iter().all(|r| r.starts_with("    ")), "{rows:?}");
        assert_eq!(wrap("short", 80), ["short"]);
        assert_eq!(wrap("x".repeat(5).as_str(), 0), ["xxxxx"]);
    }
}
