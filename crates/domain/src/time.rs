//! Instants as the API writes them (RFC 3339), read once where an object is read; the console
//! and the doctor then work with the instant, never the text.

use chrono::{DateTime, Utc};

/// An RFC 3339 time as the API writes it, in UTC.
pub fn parse(text: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(text)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

/// `length` after `start`, when the calendar holds it (a start and a length from the API may
/// add up past any date).
pub fn after(start: DateTime<Utc>, length: std::time::Duration) -> Option<DateTime<Utc>> {
    start.checked_add_signed(chrono::Duration::from_std(length).ok()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_api_form_and_refuses_others() {
        let t = parse("2026-11-30T12:00:00Z").expect("a time");
        assert_eq!(t.to_rfc3339(), "2026-11-30T12:00:00+00:00");
        assert_eq!(parse("2026-11-30T14:00:00+02:00"), Some(t));
        assert_eq!(parse("yesterday"), None);
        assert_eq!(
            after(t, std::time::Duration::from_secs(60)).map(|a| a - t),
            Some(chrono::Duration::seconds(60))
        );
        assert_eq!(
            after(DateTime::<Utc>::MAX_UTC, std::time::Duration::from_secs(1)),
            None
        );
    }
}
