//! How a cell reads: the one place a row's values become text, for the console and for
//! `pooldeck get` and `describe`, and plain tables as kubectl prints them. Times are formatted
//! against the `now` passed in, so a tick re-formats only what is drawn.

use chrono::{DateTime, Utc};

use super::{Cell, Deadline, GpuUse, Load};
use super::{cell_model_word, cell_scaling_word};
use crate::domain::duration;
use crate::domain::model::vocabulary::ScalingStateKind;

/// Where the text goes: the console (compact GPU names, bars and sparklines) or plain text
/// for `pooldeck get` (full variant names, nothing drawn).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    Console,
    /// The console on a narrow screen: no bars, no sparklines.
    Compact,
    Plain,
}

fn ago(out: &mut String, t: DateTime<Utc>, now: DateTime<Utc>) {
    duration::write_age(out, (now - t).to_std().unwrap_or_default());
}

fn left(out: &mut String, t: DateTime<Utc>, now: DateTime<Utc>) {
    duration::write_short(out, (t - now).to_std().unwrap_or_default());
}

/// A bar of `cells` cells for a share of a whole, written into `out`.
pub fn share_bar(out: &mut String, part: f64, whole: f64, cells: usize) {
    let filled = if whole > 0.0 && part.is_finite() {
        (((part / whole).clamp(0.0, 1.0) * cells as f64).round() as usize).min(cells)
    } else {
        0
    };
    out.extend(std::iter::repeat_n('█', filled));
    out.extend(std::iter::repeat_n('░', cells - filled));
}

/// Writes an integer without the formatting machinery (the console writes hundreds per
/// frame).
fn push_int(out: &mut String, n: i128) {
    let mut digits = [0u8; 40];
    let mut at = digits.len();
    let mut rest = n.unsigned_abs();
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    if n < 0 {
        out.push('-');
    }
    out.extend(digits[at..].iter().map(|d| char::from(*d)));
}

/// A percentage rounded to a whole number, as `{:.0}%` writes it.
fn push_percent(out: &mut String, value: f64) {
    use std::fmt::Write;
    let rounded = value.round();
    if !value.is_finite() {
        out.push_str("?%");
        return;
    } else if rounded.abs() < 1e15 && !(rounded == 0.0 && value.is_sign_negative()) {
        push_int(out, rounded as i128);
    } else {
        let _ = write!(out, "{value:.0}");
    }
    out.push('%');
}

pub fn text(cell: &Cell, now: DateTime<Utc>, form: Form) -> String {
    use std::fmt::Write;
    // One buffer per cell: the console formats every visible cell on every frame.
    let mut out = String::new();
    match cell {
        Cell::Empty => out.push('-'),
        Cell::Text(text) => out.push_str(text),
        Cell::Status(status) => out.push_str(status.word()),
        Cell::Statuses(all) if all.is_empty() => out.push('-'),
        Cell::Statuses(all) => {
            for (i, status) in all.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(if form == Form::Compact {
                    status.compact_word()
                } else {
                    status.word()
                });
            }
        }
        Cell::Gpus(all) if all.is_empty() => out.push('-'),
        Cell::Gpus(all) => push_gpus(&mut out, all, form),
        Cell::Count(n) => push_int(&mut out, (*n).into()),
        Cell::Ratio { part, whole } => {
            push_int(&mut out, (*part).into());
            out.push('/');
            push_int(&mut out, (*whole).into());
        }
        Cell::Gigabytes(gb) => {
            let _ = write!(out, "{gb} GB");
        }
        Cell::Flag(true) => out.push_str("yes"),
        Cell::Flag(false) | Cell::Since(None) => out.push('-'),
        Cell::Since(Some(t)) => ago(&mut out, *t, now),
        Cell::Scaling { state, deadline } => push_scaling(&mut out, state, deadline.as_ref(), now),
        Cell::Utilization { current, history } => {
            push_utilization(&mut out, current, history, form)
        }
        Cell::Loads(all) if all.is_empty() => out.push('-'),
        Cell::Loads(all) => push_loads(&mut out, all),
    }
    // Words in a cell may be the cluster's (a name, an unknown status, a message): inert.
    match crate::domain::inert::line(&out) {
        std::borrow::Cow::Borrowed(_) => out,
        std::borrow::Cow::Owned(inert) => inert,
    }
}

/// A sparkline of the last samples.
pub fn sparkline(values: &[f64]) -> String {
    values.iter().map(|v| spark(*v)).collect()
}

/// One sparkline cell for a percentage.
pub fn spark(value: f64) -> char {
    const LEVELS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    LEVELS[((value.clamp(0.0, 100.0) / 100.0) * 7.0).round() as usize]
}

/// Plain text columns padded like kubectl's: three spaces between columns, the last column
/// unpadded. `widths` keeps the columns of an earlier table (`get --watch` prints changed
/// rows under the first table's columns); a wider cell still prints whole.
pub fn plain_table(headers: &[&str], rows: &[Vec<String>], widths: Option<&[usize]>) -> String {
    let widths = match widths {
        Some(widths) => widths.to_vec(),
        None => plain_widths(headers, rows),
    };
    let line = |cells: &mut dyn Iterator<Item = &str>, count: usize| -> String {
        let mut out = String::new();
        for (i, cell) in cells.enumerate() {
            // Every column but the last is cut at its most, with a marker (`-o yaml` has the
            // value whole).
            let cell = if i + 1 < count {
                crate::domain::inert::cut(cell, PLAIN_COLUMN_AT_MOST)
            } else {
                crate::domain::inert::cut(cell, PLAIN_LAST_COLUMN_AT_MOST)
            };
            let cell = cell.as_ref();
            out.push_str(cell);
            if i + 1 < count {
                let width = widths.get(i).copied().unwrap_or(0);
                out.push_str(&" ".repeat(width.saturating_sub(cell.chars().count()) + 3));
            }
        }
        out.trim_end().to_owned()
    };
    let mut out = String::new();
    if !headers.is_empty() {
        out.push_str(&line(&mut headers.iter().copied(), headers.len()));
        out.push('\n');
    }
    for row in rows {
        out.push_str(&line(&mut row.iter().map(String::as_str), row.len()));
        out.push('\n');
    }
    out
}

/// The widest text of each column, headers included.
pub fn plain_widths(headers: &[&str], rows: &[Vec<String>]) -> Vec<usize> {
    let columns = rows
        .iter()
        .map(Vec::len)
        .chain([headers.len()])
        .max()
        .unwrap_or(0);
    let mut widths = vec![0; columns];
    for (i, header) in headers.iter().enumerate() {
        widths[i] = header.chars().count();
    }
    for row in rows {
        for (i, cell) in row.iter().enumerate() {
            widths[i] = widths[i].max(cell.chars().count().min(PLAIN_COLUMN_AT_MOST));
        }
    }
    widths
}

/// The widest a column but the last prints in a plain table; a longer value is cut with a
/// marker.
pub const PLAIN_COLUMN_AT_MOST: usize = 64;

/// The widest the last column prints (a message, say): longer is cut with a marker, so one
/// 5,000-character event is not a screenful (`-o yaml` has it whole).
pub const PLAIN_LAST_COLUMN_AT_MOST: usize = 512;

/// GPUs in use of capacity, per model; on the console a bar of the whole share after them.
fn push_gpus(out: &mut String, all: &[GpuUse], form: Form) {
    let (mut used, mut capacity) = (0f64, 0f64);
    for (i, g) in all.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let model = match form {
            Form::Console | Form::Compact => cell_model_word(&g.model),
            Form::Plain => &g.model,
        };
        out.push_str(model);
        out.push(' ');
        push_int(out, g.used.into());
        out.push('/');
        push_int(out, g.capacity.into());
        used += g.used as f64;
        capacity += g.capacity as f64;
    }
    if form == Form::Console && capacity > 0.0 {
        out.push(' ');
        share_bar(out, used, capacity, crate::app::rows::GPU_BAR_CELLS);
    }
}

/// The scaling state, with the time left to its deadline.
fn push_scaling(
    out: &mut String,
    state: &ScalingStateKind,
    deadline: Option<&Deadline>,
    now: DateTime<Utc>,
) {
    out.push_str(cell_scaling_word(state));
    match deadline {
        Some(Deadline::CooldownEnds(t)) => {
            out.push(' ');
            left(out, *t, now);
        }
        Some(Deadline::AbortAt(t)) => {
            out.push_str(" (abort in ");
            left(out, *t, now);
            out.push(')');
        }
        None => {}
    }
}

/// Utilization now, per resource; on the console its recent history as a sparkline.
fn push_utilization(out: &mut String, current: &[f64], history: &[f64], form: Form) {
    if current.is_empty() {
        out.push('-');
    }
    for (i, value) in current.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_percent(out, *value);
    }
    if form == Form::Console && history.len() > 1 {
        // The latest samples, as many as the column was laid out for.
        let recent = &history[history.len().saturating_sub(crate::app::rows::SPARK_CELLS)..];
        out.push(' ');
        out.extend(recent.iter().map(|v| spark(*v)));
    }
}

/// Each worker pool's load: its utilization, then its node count and target.
fn push_loads(out: &mut String, all: &[Load]) {
    for (i, l) in all.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        if let Some(variant) = &l.variant {
            out.push_str(variant);
            out.push(' ');
        }
        push_percent(out, l.utilization);
        out.push(' ');
        push_int(out, l.count.into());
        out.push_str("->");
        push_int(out, l.target.into());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_aligned_columns_with_or_without_headers() {
        let rows = vec![
            vec!["a".to_owned(), "long-name".to_owned(), "x".to_owned()],
            vec!["bbb".to_owned(), "n".to_owned(), "y".to_owned()],
        ];
        let text = plain_table(&["A", "NAME", "X"], &rows, None);
        assert_eq!(
            text,
            "A     NAME        X\na     long-name   x\nbbb   n           y\n"
        );
        assert_eq!(plain_table(&[], &rows, None).lines().count(), 2);
        assert_eq!(plain_table(&["A"], &[], None), "A\n");
        // Columns kept from an earlier table.
        let kept = plain_table(&[], &rows[1..], Some(&[3, 9, 1]));
        assert_eq!(kept, "bbb   n           y\n");
    }
}
