//! Themes: colours keyed by meaning (ok, warn, error, info, muted, accent), loaded from
//! `themes/*.yaml` and compiled in. Views ask for a meaning, never a colour. Must not import
//! the app or the terminal.

use ratatui::style::{Color, Modifier, Style};
use serde_json::Value;

/// The built-in themes.
pub const BUILTIN: &[(&str, &str)] = &[
    (
        "default-dark",
        include_str!("../../themes/default-dark.yaml"),
    ),
    ("light", include_str!("../../themes/light.yaml")),
    (
        "high-contrast",
        include_str!("../../themes/high-contrast.yaml"),
    ),
    ("monochrome", include_str!("../../themes/monochrome.yaml")),
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
}

/// Reads a colour as theme files write it.
pub fn parse_color(text: &str) -> Result<Color, String> {
    let text = text.trim().to_ascii_lowercase();
    if let Some(hex) = text.strip_prefix('#') {
        if hex.len() == 6
            && let Ok(rgb) = u32::from_str_radix(hex, 16)
        {
            return Ok(Color::Rgb((rgb >> 16) as u8, (rgb >> 8) as u8, rgb as u8));
        }
        return Err(format!("\"#{hex}\" is not a #rrggbb colour"));
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
        other => return Err(format!("\"{other}\" is not a colour pooldeck knows")),
    };
    Ok(color)
}

impl Theme {
    /// Reads a theme file.
    pub fn parse(text: &str) -> Result<Theme, String> {
        let documents = crate::manifest::parse(text).map_err(|e| e.to_string())?;
        let root = documents
            .first()
            .map(|d| d.root.to_json())
            .ok_or("the theme file is empty")?;
        let name = root
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("custom")
            .to_owned();
        let color = |meaning: &str| -> Result<Color, String> {
            match root.pointer(&format!("/colors/{meaning}")) {
                Some(Value::String(s)) => {
                    parse_color(s).map_err(|e| format!("colors.{meaning}: {e}"))
                }
                Some(Value::Number(n)) => {
                    parse_color(&n.to_string()).map_err(|e| format!("colors.{meaning}: {e}"))
                }
                Some(_) => Err(format!("colors.{meaning} is not a colour")),
                None => Ok(Color::Reset),
            }
        };
        Ok(Theme {
            monochrome: name == "monochrome",
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
        let style = Style::new().fg(color);
        if meaning == Meaning::Error {
            style.add_modifier(Modifier::BOLD)
        } else {
            style
        }
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
    fn no_color_wins_and_unknown_names_warn() {
        let (theme, warning) = Theme::choose(Some("light"), true);
        assert!(theme.monochrome && warning.is_none());
        let (theme, warning) = Theme::choose(Some("neon"), false);
        assert_eq!(theme.name, "default-dark");
        assert!(warning.expect("a warning").contains("neon"));
    }
}
