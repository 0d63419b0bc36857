//! Themes: colours keyed by meaning (ok, warn, error, info, muted, accent), loaded from
//! `themes/*.yaml` and compiled in. Views ask for a meaning, never a colour. Must not import
//! the app or the terminal.

use ratatui::style::{Color, Modifier, Style};
use serde_json::Value;

pub use self::depth::{Depth, degrade};

mod depth;

/// The built-in themes.
pub const BUILTIN: &[(&str, &str)] = &[
    (
        "default-dark",
        include_str!("../../../../themes/default-dark.yaml"),
    ),
    ("light", include_str!("../../../../themes/light.yaml")),
    (
        "high-contrast",
        include_str!("../../../../themes/high-contrast.yaml"),
    ),
    (
        "monochrome",
        include_str!("../../../../themes/monochrome.yaml"),
    ),
];

/// What a piece of text means, which decides how it looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Meaning {
    Ok,
    Warn,
    Error,
    Info,
    Muted,
    Accent,
    Text,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Theme {
    pub name: String,
    pub ok: Color,
    pub warn: Color,
    pub error: Color,
    pub info: Color,
    pub muted: Color,
    pub accent: Color,
    pub text: Color,
    /// No colours: meaning is carried by bold, dim and reverse instead.
    pub monochrome: bool,
    /// Draw with ASCII only: the locale is not UTF-8, so box and block characters would come
    /// out as garbage.
    pub ascii: bool,
}

impl Theme {
    /// `text` as this terminal draws it: where only ASCII is drawn, the arrows are written
    /// `->` and `<-` (drawn cell by cell they would become `>` and `<`, "12 > 16").
    pub fn arrows<'a>(&self, text: &'a str) -> std::borrow::Cow<'a, str> {
        if self.ascii && text.contains(['→', '←']) {
            std::borrow::Cow::Owned(text.replace('→', "->").replace('←', "<-"))
        } else {
            std::borrow::Cow::Borrowed(text)
        }
    }
}

/// Why a theme file, or a colour in it, cannot be used.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum ThemeError {
    #[error("{0}")]
    Text(crate::manifest::ParseError),
    #[error("the theme file is empty")]
    Empty,
    #[error("\"#{0}\" is not a #rrggbb colour")]
    NotHex(String),
    #[error("\"{0}\" is not a colour pooldeck knows")]
    Unknown(String),
    #[error("colors.{meaning}: {why}")]
    Color {
        meaning: String,
        why: Box<ThemeError>,
    },
    #[error("colors.{0} is not a colour")]
    NotAColor(String),
    #[error(transparent)]
    Unreadable(#[from] crate::files::ReadError),
}

/// Reads a colour as theme files write it.
pub fn parse_color(text: &str) -> Result<Color, ThemeError> {
    let text = text.trim().to_ascii_lowercase();
    if let Some(hex) = text.strip_prefix('#') {
        if hex.len() == 6
            && let Ok(rgb) = u32::from_str_radix(hex, 16)
        {
            return Ok(Color::Rgb((rgb >> 16) as u8, (rgb >> 8) as u8, rgb as u8));
        }
        return Err(ThemeError::NotHex(hex.to_owned()));
    }
    if let Ok(index) = text.parse::<u8>() {
        return Ok(Color::Indexed(index));
    }
    let color = match text.as_str() {
        "reset" | "default" => Color::Reset,
        "black" => Color::Black,
        "red" => Color::Red,
        "green" => Color::Green,
        "yellow" => Color::Yellow,
        "blue" => Color::Blue,
        "magenta" => Color::Magenta,
        "cyan" => Color::Cyan,
        "gray" | "grey" => Color::Gray,
        "dark-gray" | "dark-grey" => Color::DarkGray,
        "white" => Color::White,
        "light-red" => Color::LightRed,
        "light-green" => Color::LightGreen,
        "light-yellow" => Color::LightYellow,
        "light-blue" => Color::LightBlue,
        "light-magenta" => Color::LightMagenta,
        "light-cyan" => Color::LightCyan,
        other => return Err(ThemeError::Unknown(other.to_owned())),
    };
    Ok(color)
}

impl Theme {
    /// Reads a theme file.
    pub fn parse(text: &str) -> Result<Theme, ThemeError> {
        let documents = crate::manifest::parse(text).map_err(ThemeError::Text)?;
        let root = documents
            .first()
            .map(|d| d.root.to_json())
            .ok_or(ThemeError::Empty)?;
        let name = root
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("custom")
            .to_owned();
        let color = |meaning: &str| -> Result<Color, ThemeError> {
            let about = |why| ThemeError::Color {
                meaning: meaning.to_owned(),
                why: Box::new(why),
            };
            match root.pointer(&format!("/colors/{meaning}")) {
                Some(Value::String(s)) => parse_color(s).map_err(about),
                Some(Value::Number(n)) => parse_color(&n.to_string()).map_err(about),
                Some(_) => Err(ThemeError::NotAColor(meaning.to_owned())),
                None => Ok(Color::Reset),
            }
        };
        Ok(Theme {
            monochrome: name == "monochrome",
            ascii: false,
            name,
            ok: color("ok")?,
            warn: color("warn")?,
            error: color("error")?,
            info: color("info")?,
            muted: color("muted")?,
            accent: color("accent")?,
            text: color("text")?,
        })
    }

    /// A built-in theme by name.
    pub fn builtin(name: &str) -> Option<Theme> {
        BUILTIN
            .iter()
            .find(|(n, _)| *n == name)
            .and_then(|(_, text)| Theme::parse(text).ok())
    }

    /// The default theme; monochrome when `no_color` (the NO_COLOR convention).
    pub fn choose(name: Option<&str>, no_color: bool) -> (Theme, Option<String>) {
        let fallback = || Theme::builtin("default-dark").unwrap_or_else(Theme::plain);
        if no_color {
            return (
                Theme::builtin("monochrome").unwrap_or_else(Theme::plain),
                None,
            );
        }
        match name {
            None => (fallback(), None),
            Some(name) => match Theme::builtin(name) {
                Some(theme) => (theme, None),
                None => {
                    let names: Vec<&str> = BUILTIN.iter().map(|(n, _)| *n).collect();
                    (
                        fallback(),
                        Some(format!(
                            "no theme named \"{name}\" (built in: {}); using default-dark",
                            names.join(", ")
                        )),
                    )
                }
            },
        }
    }

    /// A theme with no colours, when even the built-in files fail to read.
    pub fn plain() -> Theme {
        Theme {
            name: "plain".into(),
            ok: Color::Reset,
            warn: Color::Reset,
            error: Color::Reset,
            info: Color::Reset,
            muted: Color::Reset,
            accent: Color::Reset,
            text: Color::Reset,
            monochrome: true,
            ascii: false,
        }
    }

    /// The style for a meaning.
    pub fn style(&self, meaning: Meaning) -> Style {
        if self.monochrome {
            return match meaning {
                Meaning::Error => Style::new().add_modifier(Modifier::BOLD | Modifier::REVERSED),
                Meaning::Warn | Meaning::Accent => Style::new().add_modifier(Modifier::BOLD),
                Meaning::Muted => Style::new().add_modifier(Modifier::DIM),
                _ => Style::new(),
            };
        }
        let color = match meaning {
            Meaning::Ok => self.ok,
            Meaning::Warn => self.warn,
            Meaning::Error => self.error,
            Meaning::Info => self.info,
            Meaning::Muted => self.muted,
            Meaning::Accent => self.accent,
            Meaning::Text => self.text,
        };
        // The terminal's own colour sets none: ordinary text is the terminal's foreground,
        // readable on a light background and a dark one, and a row's own colour shows through.
        let style = if color == Color::Reset {
            Style::new()
        } else {
            Style::new().fg(color)
        };
        if meaning == Meaning::Error {
            style.add_modifier(Modifier::BOLD)
        } else {
            style
        }
    }
}

impl Theme {
    /// Whether the locale can show UTF-8: from LC_ALL, LC_CTYPE, then LANG (the first one
    /// set), as the C library decides.
    pub fn utf8_locale(lc_all: Option<&str>, lc_ctype: Option<&str>, lang: Option<&str>) -> bool {
        [lc_all, lc_ctype, lang]
            .into_iter()
            .flatten()
            .find(|v| !v.is_empty())
            .is_some_and(|v| {
                let v = v.to_ascii_lowercase();
                v.contains("utf-8") || v.contains("utf8")
            })
    }
}

/// The user's settings file: `$XDG_CONFIG_HOME/pooldeck/config.yaml` (or `~/.config/...`),
/// holding `theme: NAME` or `theme: /path/to/theme.yaml`.
pub fn config_path() -> Option<std::path::PathBuf> {
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".config"))
        })?;
    Some(base.join("pooldeck").join("config.yaml"))
}

/// The theme named in a settings file's text: a built-in name, or a path to a theme file
/// (read with `read`). A broken file falls back to the default with a warning to show.
pub fn from_config(
    text: &str,
    read: &dyn Fn(&str) -> Result<String, crate::files::ReadError>,
) -> (Option<Theme>, Option<String>) {
    let documents = match crate::manifest::parse(text) {
        Ok(d) => d,
        Err(e) => {
            return (
                None,
                Some(format!(
                    "the settings file cannot be read ({e}); using the default theme"
                )),
            );
        }
    };
    let Some(name) = documents.first().and_then(|d| {
        d.root
            .to_json()
            .get("theme")
            .and_then(Value::as_str)
            .map(str::to_owned)
    }) else {
        return (None, None);
    };
    if let Some(theme) = Theme::builtin(&name) {
        return (Some(theme), None);
    }
    match read(&name)
        .map_err(ThemeError::from)
        .and_then(|text| Theme::parse(&text))
    {
        Ok(theme) => (Some(theme), None),
        Err(e) => (
            None,
            Some(format!(
                "theme \"{name}\" cannot be used ({e}); using the default theme"
            )),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_theme_reads() {
        for (name, text) in BUILTIN {
            let theme = Theme::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(theme.name, *name);
        }
        assert!(Theme::builtin("monochrome").expect("monochrome").monochrome);
    }

    #[test]
    fn colours_read_as_theme_files_write_them() {
        assert_eq!(parse_color("light-red"), Ok(Color::LightRed));
        assert_eq!(parse_color("#a06000"), Ok(Color::Rgb(0xa0, 0x60, 0x00)));
        assert_eq!(parse_color("208"), Ok(Color::Indexed(208)));
        assert!(parse_color("chartreuse-ish").is_err());
        assert!(Theme::parse("name: x\ncolors: {ok: nope}\n").is_err());
    }

    #[test]
    fn a_settings_file_picks_a_theme_and_a_broken_one_warns() {
        let no_files = |_: &str| Err(crate::files::ReadError::NotFound);
        assert_eq!(
            from_config("theme: light\n", &no_files).0.map(|t| t.name),
            Some("light".into())
        );
        let custom = |_: &str| Ok("name: mine\ncolors: {ok: '#00ff00'}\n".to_owned());
        assert_eq!(
            from_config("theme: /home/me/mine.yaml\n", &custom)
                .0
                .map(|t| t.name),
            Some("mine".into())
        );
        let (theme, warning) = from_config("theme: /nope.yaml\n", &no_files);
        assert!(theme.is_none() && warning.is_some_and(|w| w.contains("/nope.yaml")));
        let (theme, warning) = from_config("theme: [unclosed\n", &no_files);
        assert!(theme.is_none() && warning.is_some());
        assert_eq!(from_config("other: 1\n", &no_files).0, None);
    }

    #[test]
    fn no_color_wins_and_unknown_names_warn() {
        let (theme, warning) = Theme::choose(Some("light"), true);
        assert!(theme.monochrome && warning.is_none());
        let (theme, warning) = Theme::choose(Some("neon"), false);
        assert_eq!(theme.name, "default-dark");
        assert!(warning.expect("a warning").contains("neon"));
    }
}
