//! Go-style durations as the controllers write them: `15m`, `28m30s`, `1h30m`, `500ms`,
//! `1.5h`. The syntax is Go's `time.ParseDuration` (no spaces, fractions allowed), and
//! [`format`] writes durations back the same way, so countdowns read like the API's `details`.

use std::time::Duration;

/// Why a text is not a duration: `why` alone for a place that already quotes the text (a
/// command-line value), the whole sentence (Display) for one that does not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DurationError {
    pub text: String,
    pub why: String,
}

impl std::error::Error for DurationError {}

impl std::fmt::Display for DurationError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "\"{}\" is not a duration: {}", self.text, self.why)
    }
}

/// Parses a Go duration. Negative durations are refused: nothing in a Compute Pool counts back.
pub fn parse(text: &str) -> Result<Duration, DurationError> {
    let err = |why: &str| DurationError {
        text: text.to_owned(),
        why: why.to_owned(),
    };
    let mut rest = text.trim();
    if rest.is_empty() {
        return Err(err("it is empty"));
    }
    if rest == "0" {
        return Ok(Duration::ZERO);
    }
    if rest.starts_with('-') {
        return Err(err("it is negative"));
    }
    rest = rest.strip_prefix('+').unwrap_or(rest);
    let mut total = 0f64;
    while !rest.is_empty() {
        let number_len = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        if number_len == 0 {
            return Err(err("expected a number"));
        }
        let amount: f64 = rest[..number_len]
            .parse()
            .map_err(|_| err("malformed number"))?;
        rest = &rest[number_len..];
        let unit_len = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let seconds = match &rest[..unit_len] {
            "ns" => 1e-9,
            "us" | "µs" | "μs" => 1e-6,
            "ms" => 1e-3,
            "s" => 1.0,
            "m" => 60.0,
            "h" => 3600.0,
            "" => return Err(err("missing unit (use h, m, s or ms)")),
            _ => return Err(err("unknown unit (use h, m, s or ms)")),
        };
        rest = &rest[unit_len..];
        total += amount * seconds;
    }
    if !total.is_finite() || total > 1e12 {
        return Err(err("it is too long"));
    }
    Ok(Duration::from_secs_f64(total))
}

/// Writes a duration the way Go prints it, to whole seconds: `28m30s`, `1h0m0s`, `45s`, `0s`.
pub fn format(duration: Duration) -> String {
    let total = duration.as_secs();
    let (hours, minutes, seconds) = (total / 3600, (total / 60) % 60, total % 60);
    if hours > 0 {
        format!("{hours}h{minutes}m{seconds}s")
    } else if minutes > 0 {
        format!("{minutes}m{seconds}s")
    } else {
        format!("{seconds}s")
    }
}

/// A compact form for narrow columns: `28m30s`, `2h5m`, `3d4h`.
pub fn format_short(duration: Duration) -> String {
    let mut out = String::new();
    write_short(&mut out, duration);
    out
}

/// [`format_short`], written into `out` (the console formats every visible cell per frame).
pub fn write_short(out: &mut String, duration: Duration) {
    use std::fmt::Write;
    let total = duration.as_secs();
    let days = total / 86_400;
    let hours = (total / 3600) % 24;
    let minutes = (total / 60) % 60;
    let seconds = total % 60;
    let _ = if days > 0 {
        write!(out, "{days}d{hours}h")
    } else if hours > 0 {
        write!(out, "{hours}h{minutes}m")
    } else if minutes > 0 {
        write!(out, "{minutes}m{seconds}s")
    } else {
        write!(out, "{seconds}s")
    };
}

/// An age the way kubectl prints one: `12s`, `2m30s`, `45m`, `3h10m`, `9h`, `3d2h`, `20d`.
pub fn format_age(age: Duration) -> String {
    let mut out = String::new();
    write_age(&mut out, age);
    out
}

/// [`format_age`], written into `out`.
pub fn write_age(out: &mut String, age: Duration) {
    use std::fmt::Write;
    let seconds = age.as_secs();
    let (d, h, m, s) = (
        seconds / 86_400,
        seconds / 3600 % 24,
        seconds / 60 % 60,
        seconds % 60,
    );
    let _ = match () {
        // Like kubectl, two years and more read in years (so an age stays five wide).
        _ if d >= 730 => write!(out, "{}y", d / 365),
        _ if d >= 8 => write!(out, "{d}d"),
        _ if d > 0 && h > 0 => write!(out, "{d}d{h}h"),
        _ if d > 0 => write!(out, "{d}d"),
        _ if h >= 8 => write!(out, "{h}h"),
        _ if h > 0 && m > 0 => write!(out, "{h}h{m}m"),
        _ if h > 0 => write!(out, "{h}h"),
        _ if m >= 10 => write!(out, "{m}m"),
        _ if m > 0 && s > 0 => write!(out, "{m}m{s}s"),
        _ if m > 0 => write!(out, "{m}m"),
        _ => write!(out, "{s}s"),
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_controller_durations() {
        assert_eq!(parse("15m").unwrap(), Duration::from_secs(900));
        assert_eq!(parse("28m30s").unwrap(), Duration::from_secs(1710));
        assert_eq!(parse("1h30m").unwrap(), Duration::from_secs(5400));
        assert_eq!(parse("30m2s").unwrap(), Duration::from_secs(1802));
        assert_eq!(parse("500ms").unwrap(), Duration::from_millis(500));
        assert_eq!(parse("1.5h").unwrap(), Duration::from_secs(5400));
        assert_eq!(parse("0").unwrap(), Duration::ZERO);
    }

    #[test]
    fn refuses_what_go_refuses() {
        assert!(parse("").is_err());
        assert!(parse("15").is_err());
        assert!(parse("15 minutes").is_err());
        assert!(parse("m").is_err());
        assert!(parse("-5m").is_err());
        assert!(parse("1d").is_err());
    }

    #[test]
    fn ages_read_like_kubectl() {
        let age = |s: u64| format_age(Duration::from_secs(s));
        assert_eq!(age(12), "12s");
        assert_eq!(age(150), "2m30s");
        assert_eq!(age(3 * 86_400 + 2 * 3600), "3d2h");
        assert_eq!(age(20 * 86_400), "20d");
        assert_eq!(age(729 * 86_400), "729d");
        assert_eq!(age(10_000 * 86_400), "27y", "two years and more in years");
    }

    #[test]
    fn formats_like_go() {
        assert_eq!(format(Duration::from_secs(1710)), "28m30s");
        assert_eq!(format(Duration::from_secs(3600)), "1h0m0s");
        assert_eq!(format(Duration::from_secs(45)), "45s");
        assert_eq!(format_short(Duration::from_secs(3 * 86_400 + 7200)), "3d2h");
    }
}
