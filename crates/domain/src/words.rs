//! Counts in words, as a person writes them: "1 host", "3 hosts", "0 errors" (never
//! "host(s)"). Every noun pooldeck counts takes a plain `s`.

use std::fmt::Display;

/// `count` followed by `one`, made plural unless the count is exactly one.
pub fn counted(count: impl Display, one: &str) -> String {
    let count = count.to_string();
    if count == "1" {
        format!("1 {one}")
    } else {
        format!("{count} {one}s")
    }
}

/// The verb that agrees with a count: `singular` for exactly one, `plural` otherwise
/// ("1 AIWorkload still references", "2 AIWorkloads still reference").
pub fn agrees<'w>(count: impl Display, singular: &'w str, plural: &'w str) -> &'w str {
    if count.to_string() == "1" {
        singular
    } else {
        plural
    }
}

/// A time span to the minute, as a person says an age: `2d3h`, `4h10m`, `7m`, "under a
/// minute" (a negative span is under a minute).
pub fn age(elapsed: chrono::TimeDelta) -> String {
    let minutes = elapsed.num_minutes().max(0);
    let (days, hours, minutes) = (minutes / 1440, minutes / 60 % 24, minutes % 60);
    if days > 0 {
        format!("{days}d{hours}h")
    } else if hours > 0 {
        format!("{hours}h{minutes}m")
    } else if minutes > 0 {
        format!("{minutes}m")
    } else {
        "under a minute".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(counted(1usize, "host"), "1 host");
        assert_eq!(counted(0usize, "error"), "0 errors");
        assert_eq!(counted(2i64, "AIWorkload"), "2 AIWorkloads");
        assert_eq!(counted(11u32, "node"), "11 nodes");
        assert_eq!(counted("?", "node"), "? nodes");
        assert_eq!(agrees(1usize, "stands", "stand"), "stands");
        assert_eq!(agrees(21usize, "stands", "stand"), "stand");
    }
}
