//! A pool described, as `kubectl describe` shows an object: who it is, its spec in words, its
//! status with each failing condition explained in the troubleshooting guide's words, its
//! hosts, its scaling evaluation, what the doctor finds, and its recent events. One page for
//! `pooldeck describe pool NAME` and the console's `d` (an overlay kept up to date while it is
//! open; Esc goes back). Part of `update`; the page itself is made in `page.rs`.

mod links;
mod object;
mod page;
pub use links::{of_row, related};
pub use object::object_page;
pub use page::page;

use super::commands::{Command, Scope};
use super::component::{After, Ask, Component, Ctx};
use super::{Detail, Effect, Tab};

/// The describe page open in the console: which pool, how far scrolled (its lines are worked
/// out in `Shown::describe` when the pool or the second changes, not per frame).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DescribeView {
    /// What is described: a pool, or an object a pool refers to.
    pub kind: crate::inventory::Kind,
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
            // Enter: the pool's detail, where its fixes are (an AIWorkload's: its pool's).
            Command::Activate => {
                if let Some(detail) = self.pool_detail(ctx) {
                    ctx.ask(Ask::Detail(detail));
                    return After::Close;
                }
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
    /// `d` (Enter on a list of objects a pool refers to): the object described, over the
    /// list or its pool's detail.
    pub fn new(kind: crate::inventory::Kind, namespace: &str, name: &str) -> DescribeView {
        DescribeView {
            kind,
            namespace: namespace.to_owned(),
            name: name.to_owned(),
            scroll: 0,
        }
    }

    /// The pool's detail Enter opens: the pool described, or the pool an AIWorkload names.
    fn pool_detail(&self, ctx: &Ctx) -> Option<Detail> {
        use crate::inventory::Kind;
        let (namespace, name) = match self.kind {
            Kind::Pool => (self.namespace.clone(), self.name.clone()),
            Kind::AIWorkload => {
                let workload =
                    ctx.hub
                        .inventory
                        .get(Kind::AIWorkload, &self.namespace, &self.name)?;
                let (ns, name) = super::rows::aiworkloads::pool_named(workload)?;
                (ns.to_owned(), name.to_owned())
            }
            _ => return None,
        };
        Some(Detail {
            namespace,
            name,
            tab: Tab::Overview,
            scroll: 0,
            timeline: Default::default(),
        })
    }
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
