//! One cell of a row, as a value. How a cell compares (for sorting), what text a filter
//! searches in it, and how wide it can be drawn are decided here from the value; how it
//! reads is decided by `ui::cells`.

use crate::domain::field::Text;
use std::cmp::Ordering;

use chrono::{DateTime, Utc};

pub use super::status::{Deadline, Status, scaling_rank, scaling_word};
use crate::domain::model::vocabulary::ScalingStateKind;

/// GPUs of one variant: allocated of capacity.
#[derive(Clone, Debug, PartialEq)]
pub struct GpuUse {
    /// The variant's short name (`H100 PCIe`).
    pub model: Text,
    pub used: i64,
    pub capacity: i64,
}

/// One resource of an evaluation: utilization, count and the target it implies.
#[derive(Clone, Debug, PartialEq)]
pub struct Load {
    /// `None` for CPU; the GPU variant's short name otherwise.
    pub variant: Option<String>,
    pub utilization: f64,
    pub count: i64,
    pub target: i64,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    /// Nothing to show (`-`).
    Empty,
    Text(Text),
    Status(Status),
    /// One status per cluster (a pool's health).
    Statuses(Vec<Status>),
    /// GPUs used/capacity per variant.
    Gpus(Vec<GpuUse>),
    Count(i64),
    /// Part of a whole: healthy hosts of all hosts.
    Ratio {
        part: u64,
        whole: u64,
    },
    /// A size in gigabytes.
    Gigabytes(f64),
    /// Yes or no (a pool paused).
    Flag(bool),
    /// How long ago something happened (ages, last seen). `None`: not known.
    Since(Option<DateTime<Utc>>),
    /// A scaling state and, when it ends by itself, when.
    Scaling {
        state: ScalingStateKind,
        deadline: Option<Deadline>,
    },
    /// GPU utilization now (one per variant and worker pool), with recent history.
    Utilization {
        current: Vec<f64>,
        history: Vec<f64>,
    },
    /// An evaluation's numbers per resource.
    Loads(Vec<Load>),
}

/// The widest form a time cell takes (`7d23h`, `9m59s`).
pub const TIME_WIDTH: usize = 5;
/// The sparkline's length in the pools list.
pub const SPARK_SAMPLES: usize = 8;
/// The bar after the GPU counts in the pools list.
pub const GPU_BAR: usize = 5;

/// Digits of a number as written (with its sign).
fn digits(n: i64) -> usize {
    usize::from(n < 0) + unsigned_digits(n.unsigned_abs())
}

fn unsigned_digits(n: u64) -> usize {
    n.checked_ilog10().map_or(1, |d| d as usize + 1)
}

/// The first word of a GPU model, as the console's narrow columns name it (A100, H100, L40S).
pub fn model_word(model: &str) -> &str {
    model.split(['-', ' ']).next().unwrap_or(model)
}

/// The width of `{value:.0}%`, or of `?%` for a value that is not a number.
fn percent_width(value: f64) -> usize {
    if !value.is_finite() {
        return 2;
    }
    let rounded = value.round();
    if rounded.abs() < 1e15 {
        // The float is whole and small enough to be exact as an integer.
        digits(rounded as i64) + usize::from(rounded == 0.0 && value.is_sign_negative()) + 1
    } else {
        format!("{value:.0}").len() + 1
    }
}

impl Cell {
    pub fn text(text: impl Into<String>) -> Cell {
        let text = text.into();
        if text.is_empty() {
            Cell::Empty
        } else {
            Cell::Text(text.into())
        }
    }

    /// An order of the kinds of cell, for the rare column that mixes them (`-` last).
    fn variant_order(&self) -> u8 {
        match self {
            Cell::Empty => u8::MAX,
            Cell::Text(_) => 0,
            Cell::Status(_) => 1,
            Cell::Statuses(_) => 2,
            Cell::Gpus(_) => 3,
            Cell::Count(_) => 4,
            Cell::Ratio { .. } => 5,
            Cell::Gigabytes(_) => 6,
            Cell::Flag(_) => 7,
            Cell::Since(_) => 8,
            Cell::Scaling { .. } => 9,
            Cell::Utilization { .. } => 10,
            Cell::Loads(_) => 11,
        }
    }

    /// Whether the cell shows no value (`-`, an unknown time, nothing measured): such rows go
    /// last whichever way a column is sorted.
    pub fn is_blank(&self) -> bool {
        match self {
            Cell::Empty | Cell::Since(None) => true,
            Cell::Text(text) => text.is_empty(),
            Cell::Statuses(list) => list.is_empty(),
            Cell::Gpus(list) => list.is_empty(),
            Cell::Utilization { current, .. } => current.is_empty(),
            Cell::Loads(list) => list.is_empty(),
            _ => false,
        }
    }

    /// Orders two cells of a column as people expect: numbers by value, ages by time, GPU
    /// counts by GPUs, statuses worst first, text with numbers in it naturally (pool-2 before
    /// pool-10). Empty cells go last.
    pub fn compare(&self, other: &Cell) -> Ordering {
        let float = |a: f64, b: f64| a.partial_cmp(&b).unwrap_or(Ordering::Equal);
        match (self, other) {
            (Cell::Text(a), Cell::Text(b)) => natural(a, b),
            (Cell::Status(a), Cell::Status(b)) => a
                .rank()
                .cmp(&b.rank())
                .then_with(|| natural(a.word(), b.word())),
            (Cell::Statuses(a), Cell::Statuses(b)) => {
                let worst = |s: &[Status]| s.iter().map(Status::rank).min().unwrap_or(u8::MAX);
                worst(a).cmp(&worst(b))
            }
            (Cell::Gpus(a), Cell::Gpus(b)) => {
                let total = |g: &[GpuUse]| {
                    g.iter().fold((0i64, 0i64), |(u, c), x| {
                        (u.saturating_add(x.used), c.saturating_add(x.capacity))
                    })
                };
                total(a).cmp(&total(b))
            }
            (Cell::Count(a), Cell::Count(b)) => a.cmp(b),
            (Cell::Ratio { part: p, whole: w }, Cell::Ratio { part: q, whole: v }) => {
                // p/w against q/v without dividing: p·v against q·w.
                (u128::from(*p) * u128::from(*v))
                    .cmp(&(u128::from(*q) * u128::from(*w)))
                    .then(w.cmp(v))
            }
            (Cell::Gigabytes(a), Cell::Gigabytes(b)) => float(*a, *b),
            (Cell::Flag(a), Cell::Flag(b)) => b.cmp(a),
            // Ascending age: the newest first. Unknown times last.
            (Cell::Since(a), Cell::Since(b)) => match (a, b) {
                (Some(x), Some(y)) => y.cmp(x),
                (x, y) => y.is_some().cmp(&x.is_some()).reverse(),
            },
            (
                Cell::Scaling {
                    state: a,
                    deadline: x,
                },
                Cell::Scaling {
                    state: b,
                    deadline: y,
                },
            ) => scaling_rank(a)
                .cmp(&scaling_rank(b))
                .then_with(|| x.map(|d| d.at()).cmp(&y.map(|d| d.at()))),
            (Cell::Utilization { current: a, .. }, Cell::Utilization { current: b, .. }) => {
                let most = |v: &[f64]| v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                float(most(a), most(b))
            }
            (Cell::Loads(a), Cell::Loads(b)) => {
                let first = |v: &[Load]| v.first().map_or(f64::NEG_INFINITY, |l| l.utilization);
                float(first(a), first(b))
            }
            _ => self.variant_order().cmp(&other.variant_order()),
        }
    }

    /// The words a filter looks for in the cell: names, status words, variants, numbers that
    /// do not change with the clock.
    pub fn search_text(&self, out: &mut String) {
        use std::fmt::Write;
        match self {
            Cell::Empty => {}
            Cell::Text(text) => out.push_str(text),
            Cell::Status(status) => out.push_str(status.word()),
            Cell::Statuses(list) => {
                for status in list {
                    out.push_str(status.word());
                    out.push(' ');
                }
            }
            Cell::Gpus(list) => {
                for gpu in list {
                    let _ = write!(out, "{} {}/{} ", gpu.model, gpu.used, gpu.capacity);
                }
            }
            Cell::Count(n) => {
                let _ = write!(out, "{n}");
            }
            Cell::Ratio { part, whole } => {
                let _ = write!(out, "{part}/{whole}");
            }
            Cell::Gigabytes(gb) => {
                let _ = write!(out, "{gb} GB");
            }
            Cell::Flag(true) => out.push_str("yes"),
            Cell::Flag(false) | Cell::Since(_) | Cell::Utilization { .. } => {}
            Cell::Scaling { state, .. } => out.push_str(scaling_word(state)),
            Cell::Loads(list) => {
                for load in list {
                    if let Some(variant) = &load.variant {
                        out.push_str(variant);
                        out.push(' ');
                    }
                }
            }
        }
    }

    /// Whether the console has a shorter form of this kind of cell for a narrow screen.
    pub fn has_compact_form(&self) -> bool {
        match self {
            Cell::Gpus(_) | Cell::Utilization { .. } => true,
            Cell::Statuses(all) => all.iter().any(|s| s.compact_word() != s.word()),
            _ => false,
        }
    }

    /// The most columns the console's compact form takes (no bar, no sparkline).
    pub fn compact_width(&self) -> usize {
        match self {
            Cell::Gpus(all) if !all.is_empty() => self.width().saturating_sub(1 + GPU_BAR),
            Cell::Statuses(all) if !all.is_empty() => {
                all.iter()
                    .map(|s| crate::domain::inert::line(s.compact_word()).chars().count() + 1)
                    .sum::<usize>()
                    - 1
            }
            Cell::Utilization { history, .. } if history.len() > 1 => self
                .width()
                .saturating_sub(1 + history.len().min(SPARK_SAMPLES)),
            _ => self.width(),
        }
    }

    /// The most columns the console's form of the cell takes, from the value alone, so the
    /// columns can be laid out when rows change, not on every frame (time cells take their
    /// widest form, so they never push a column wider as the clock moves).
    pub fn width(&self) -> usize {
        let list = |widths: &mut dyn Iterator<Item = usize>| {
            let (sum, n) = widths.fold((0usize, 0usize), |(s, n), w| (s.saturating_add(w), n + 1));
            sum.saturating_add(2 * n.saturating_sub(1))
        };
        match self {
            Cell::Empty => 1,
            Cell::Text(text) => shown_width(text),
            // A status word may be the cluster's own (an unknown phase): counted as shown.
            Cell::Status(status) => shown_width(status.word()),
            Cell::Statuses(all) if all.is_empty() => 1,
            Cell::Statuses(all) => {
                all.iter()
                    .map(|s| crate::domain::inert::line(s.word()).chars().count() + 1)
                    .sum::<usize>()
                    - 1
            }
            Cell::Gpus(all) if all.is_empty() => 1,
            Cell::Gpus(all) => {
                list(&mut all.iter().map(|g| {
                    model_word(&g.model).chars().count() + 2 + digits(g.used) + digits(g.capacity)
                })) + 1
                    + GPU_BAR
            }
            Cell::Count(n) => digits(*n),
            Cell::Ratio { part, whole } => unsigned_digits(*part) + unsigned_digits(*whole) + 1,
            Cell::Gigabytes(gb) => format!("{gb}").len() + 3,
            Cell::Flag(_) => 3,
            Cell::Since(_) => TIME_WIDTH,
            Cell::Scaling { state, deadline } => {
                let word = scaling_word(state).chars().count();
                match deadline {
                    None => word,
                    Some(Deadline::CooldownEnds(_)) => word + 1 + TIME_WIDTH + 1,
                    Some(Deadline::AbortAt(_)) => word + " (abort in )".len() + TIME_WIDTH + 1,
                }
            }
            Cell::Utilization { current, history } => {
                let now = if current.is_empty() {
                    1
                } else {
                    current.iter().map(|v| percent_width(*v)).sum::<usize>() + current.len() - 1
                };
                let spark = history.len().min(SPARK_SAMPLES);
                if spark > 1 { now + 1 + spark } else { now }
            }
            Cell::Loads(all) if all.is_empty() => 1,
            Cell::Loads(all) => list(&mut all.iter().map(|l| {
                l.variant.as_ref().map_or(0, |v| v.chars().count() + 1)
                    + percent_width(l.utilization)
                    + 1
                    + digits(l.count)
                    + "->".len()
                    + digits(l.target)
            })),
        }
    }
}

/// Text with the numbers in it compared by value: `pool-2` before `pool-10`, letters without
/// regard to case.
pub fn natural(a: &str, b: &str) -> Ordering {
    let mut x = a.chars().peekable();
    let mut y = b.chars().peekable();
    loop {
        match (x.peek().copied(), y.peek().copied()) {
            (None, None) => return a.cmp(b),
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(c), Some(d)) if c.is_ascii_digit() && d.is_ascii_digit() => {
                let run = |it: &mut std::iter::Peekable<std::str::Chars>| {
                    let mut digits = String::new();
                    while let Some(c) = it.peek().copied().filter(char::is_ascii_digit) {
                        digits.push(c);
                        it.next();
                    }
                    digits
                };
                let (m, n) = (run(&mut x), run(&mut y));
                let (m, n) = (m.trim_start_matches('0'), n.trim_start_matches('0'));
                let order = m.len().cmp(&n.len()).then_with(|| m.cmp(n));
                if order != Ordering::Equal {
                    return order;
                }
            }
            (Some(c), Some(d)) => {
                let order = c.to_lowercase().cmp(d.to_lowercase());
                if order != Ordering::Equal {
                    return order;
                }
                x.next();
                y.next();
            }
        }
    }
}

/// How many characters a cluster's text takes on screen, made inert (ASCII: its length).
fn shown_width(text: &str) -> usize {
    let shown = crate::domain::inert::line(text);
    if shown.is_ascii() {
        shown.len()
    } else {
        shown.chars().count()
    }
}
