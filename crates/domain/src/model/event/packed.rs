//! An event's times and numbers held small, each kept only when writing it back gives the
//! text it was read from.

use std::num::{NonZeroI64, NonZeroU64};

use chrono::{DateTime, SecondsFormat, Utc};
use serde_json::Value;

/// A time as an event writes it: seconds (`Time`) or microseconds (`MicroTime`) since the
/// epoch, or written as `null`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stamp {
    Absent,
    Null,
    At(i64),
}

/// A [`Stamp`] in eight bytes (the enum takes sixteen): the two smallest numbers stand for
/// absent and null, which no time can reach (chrono's range ends far above them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Packed(i64);

impl Packed {
    pub(super) const ABSENT: Packed = Packed(i64::MIN);
    pub(super) const NULL: Packed = Packed(i64::MIN + 1);

    /// The stamp packed, if it can be (a time at one of the two marks cannot).
    pub(super) fn new(stamp: Stamp) -> Option<Packed> {
        match stamp {
            Stamp::Absent => Some(Packed::ABSENT),
            Stamp::Null => Some(Packed::NULL),
            Stamp::At(n) => (n > Packed::NULL.0).then_some(Packed(n)),
        }
    }

    pub(super) fn get(self) -> Stamp {
        match self {
            Packed::ABSENT => Stamp::Absent,
            Packed::NULL => Stamp::Null,
            Packed(n) => Stamp::At(n),
        }
    }
}

/// How a time field is written: `Time` in whole seconds, `MicroTime` with six decimals.
#[derive(Clone, Copy)]
pub(super) enum Precision {
    Seconds,
    Micros,
}

/// The times, in the order [`Event::to_value`] writes them (creation is metadata's).
pub(super) const CREATED: usize = 0;
pub(super) const FIRST: usize = 1;
pub(super) const LAST: usize = 2;
pub(super) const EVENT_TIME: usize = 3;
pub(super) const TIMES: [(&str, Precision); 4] = [
    ("creationTimestamp", Precision::Seconds),
    ("firstTimestamp", Precision::Seconds),
    ("lastTimestamp", Precision::Seconds),
    ("eventTime", Precision::Micros),
];

/// A time read only when writing it back gives the same text.
pub(super) fn stamp(value: &Value, precision: Precision) -> Option<Stamp> {
    let text = match value {
        Value::Null => return Some(Stamp::Null),
        Value::String(text) => text,
        _ => return None,
    };
    let at = crate::time::parse(text)?;
    let stamp = match precision {
        Precision::Seconds => Stamp::At(at.timestamp()),
        Precision::Micros => Stamp::At(at.timestamp_micros()),
    };
    (stamp_value(stamp, precision).as_ref() == Some(value)).then_some(stamp)
}

pub(super) fn instant(stamp: Stamp, precision: Precision) -> Option<DateTime<Utc>> {
    let Stamp::At(n) = stamp else { return None };
    match precision {
        Precision::Seconds => DateTime::from_timestamp(n, 0),
        Precision::Micros => DateTime::from_timestamp_micros(n),
    }
}

pub(super) fn stamp_value(stamp: Stamp, precision: Precision) -> Option<Value> {
    match stamp {
        Stamp::Absent => None,
        Stamp::Null => Some(Value::Null),
        Stamp::At(_) => {
            let format = match precision {
                Precision::Seconds => SecondsFormat::Secs,
                Precision::Micros => SecondsFormat::Micros,
            };
            instant(stamp, precision).map(|at| Value::String(at.to_rfc3339_opts(format, true)))
        }
    }
}

/// A uid as servers write it (lower-case hexadecimal, 8-4-4-4-12), as 16 bytes.
pub(super) fn uuid(text: &str) -> Option<[u8; 16]> {
    let bytes = text.as_bytes();
    let dashes = [8, 13, 18, 23];
    let well_formed = bytes.len() == 36
        && bytes.iter().enumerate().all(|(i, b)| {
            if dashes.contains(&i) {
                *b == b'-'
            } else {
                b.is_ascii_digit() || (b'a'..=b'f').contains(b)
            }
        });
    if !well_formed {
        return None;
    }
    let digits: String = text.chars().filter(|c| *c != '-').collect();
    u128::from_str_radix(&digits, 16)
        .ok()
        .map(u128::to_be_bytes)
}

pub(super) fn uuid_text(uid: [u8; 16]) -> String {
    let digits = format!("{:032x}", u128::from_be_bytes(uid));
    format!(
        "{}-{}-{}-{}-{}",
        &digits[..8],
        &digits[8..12],
        &digits[12..16],
        &digits[16..20],
        &digits[20..]
    )
}

/// A resourceVersion that is a number written without leading zeros (zero is kept as
/// written).
pub(super) fn version(text: &str) -> Option<NonZeroU64> {
    let n: NonZeroU64 = text.parse().ok()?;
    (n.to_string() == text).then_some(n)
}

/// A generation written as a whole number that reads back the same (zero is kept as
/// written).
pub(super) fn generation(n: &serde_json::Number) -> Option<NonZeroI64> {
    let g = NonZeroI64::new(n.as_i64()?)?;
    (serde_json::Number::from(g.get()) == *n).then_some(g)
}

/// A count the API's int32 holds, written as a whole number.
pub(super) fn count(n: &serde_json::Number) -> Option<i32> {
    let c = i32::try_from(n.as_i64()?).ok()?;
    (serde_json::Number::from(c) == *n).then_some(c)
}
