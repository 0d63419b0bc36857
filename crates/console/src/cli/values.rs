//! The values of flags clap reads through our parsers, and why one is refused (clap prints
//! it after the flag's name).

/// Why a flag's value is refused.
#[derive(Debug, thiserror::Error)]
pub enum BadValue {
    #[error("{} (a duration is written like 90s, 10m or 1h30m)", .0.why)]
    Duration(crate::domain::duration::DurationError),
    #[error(
        "the speed is a number above 0 and at most 100: 2 plays twice as fast, 0.5 half as fast"
    )]
    Speed,
    #[error("the number of events is a whole number from 0 to {most}")]
    Events { most: usize },
    #[error("the bandwidth is a number of megabytes per second above 0, such as 85")]
    Bandwidth,
    #[error("error parsing jsonpath {template}: {why}")]
    JsonPath {
        template: String,
        why: crate::domain::jsonpath::Error,
    },
    #[error(
        "unable to match a printer suitable for the output format \"{given}\", allowed formats are: {allowed}"
    )]
    Output {
        given: String,
        allowed: &'static str,
    },
}

pub(crate) fn parse_duration(text: &str) -> Result<std::time::Duration, BadValue> {
    crate::domain::duration::parse(text).map_err(BadValue::Duration)
}

/// A scenario's time scale: a finite number above zero.
pub(crate) fn parse_speed(text: &str) -> Result<f64, BadValue> {
    match text.trim().parse::<f64>() {
        // Above 100 a story's steps come faster than a console can draw them (a 40-second
        // loop every 0.4 s at 100).
        Ok(speed) if speed.is_finite() && speed > 0.0 && speed <= 100.0 => Ok(speed),
        _ => Err(BadValue::Speed),
    }
}

/// A value clap reads as one of `names` (a kind's words, [`crate::app::rows::names`]): the
/// first shown, the others accepted.
pub(crate) fn possible(names: &'static [&'static str]) -> clap::builder::PossibleValue {
    possible_as(names.first().copied().unwrap_or(""), names)
}

/// [`possible`], shown as `own` (`describe pool`: one object, named in the singular).
pub(crate) fn possible_as(
    own: &'static str,
    names: &'static [&'static str],
) -> clap::builder::PossibleValue {
    let others = names.iter().copied().filter(move |name| *name != own);
    clap::builder::PossibleValue::new(own).aliases(others)
}

#[cfg(test)]
mod tests {
    use clap::ValueEnum;

    use crate::app::View;
    use crate::cli::describe::Describable;
    use crate::cli::get::Resource;

    /// `get KIND`, `describe KIND` and the console's `:KIND` take the same words for a kind:
    /// every word of a view is one `get` reads as that view's kind.
    #[test]
    fn the_verbs_and_the_console_take_the_same_words_for_a_kind() {
        for resource in Resource::value_variants() {
            let own = resource.to_possible_value().expect("a value");
            let view = View::named(own.get_name()).expect("a view of that name");
            for word in view.aliases() {
                assert_eq!(Resource::from_str(word, false), Ok(*resource), "{word}");
            }
        }
        for word in View::POOLS.aliases() {
            assert_eq!(Describable::from_str(word, false), Ok(Describable::Pool));
        }
        let shown = Describable::Pool.to_possible_value().expect("a value");
        assert_eq!(shown.get_name(), "pool", "describe names one object");
        for word in ["computepool", "computepoolevaluation", "proj"] {
            assert!(Resource::from_str(word, false).is_ok(), "{word}");
        }
    }
}
