//! Colour depth: how many colours the terminal shows (from how it announces itself), and
//! each colour made as faithful as that depth allows, meanings kept apart.

use ratatui::style::Color;

use super::Theme;

/// How many colours the terminal shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Depth {
    TrueColor,
    Ansi256,
    Ansi16,
}

impl Depth {
    /// From the environment, as terminals announce themselves: COLORTERM=truecolor|24bit,
    /// TERM=*-256color; anything else (screen, linux, vt100, tmux without 256) gets 16.
    pub fn detect(colorterm: Option<&str>, term: Option<&str>) -> Depth {
        // Inside screen or tmux announced without 256 colours, a COLORTERM inherited from the
        // outer terminal says nothing about what this one can show.
        let limited = term.is_some_and(|t| {
            (t.starts_with("screen") || t.starts_with("tmux") || t == "linux" || t == "vt100")
                && !t.contains("256color")
        });
        if limited {
            Depth::Ansi16
        } else if colorterm.is_some_and(|c| c.contains("truecolor") || c.contains("24bit")) {
            Depth::TrueColor
        } else if term.is_some_and(|t| t.contains("256color")) {
            Depth::Ansi256
        } else {
            Depth::Ansi16
        }
    }
}

/// The 16 basic colours with their usual xterm values, for the nearest match.
const BASIC: [(Color, (u8, u8, u8)); 16] = [
    (Color::Black, (0, 0, 0)),
    (Color::Red, (205, 0, 0)),
    (Color::Green, (0, 205, 0)),
    (Color::Yellow, (205, 205, 0)),
    (Color::Blue, (0, 0, 238)),
    (Color::Magenta, (205, 0, 205)),
    (Color::Cyan, (0, 205, 205)),
    (Color::Gray, (229, 229, 229)),
    (Color::DarkGray, (127, 127, 127)),
    (Color::LightRed, (255, 0, 0)),
    (Color::LightGreen, (0, 255, 0)),
    (Color::LightYellow, (255, 255, 0)),
    (Color::LightBlue, (92, 92, 255)),
    (Color::LightMagenta, (255, 0, 255)),
    (Color::LightCyan, (0, 255, 255)),
    (Color::White, (255, 255, 255)),
];

fn rgb_of_index(index: u8) -> (u8, u8, u8) {
    match index {
        0..=15 => BASIC[index as usize].1,
        16..=231 => {
            let i = index - 16;
            let level = |v: u8| if v == 0 { 0 } else { 55 + v * 40 };
            (level(i / 36), level((i / 6) % 6), level(i % 6))
        }
        _ => {
            let v = 8 + (index - 232) * 10;
            (v, v, v)
        }
    }
}

fn nearest_basic((r, g, b): (u8, u8, u8)) -> Color {
    let distance = |(x, y, z): (u8, u8, u8)| {
        let d = |a: u8, b: u8| (i32::from(a) - i32::from(b)).pow(2);
        d(r, x) + d(g, y) + d(b, z)
    };
    BASIC
        .iter()
        .min_by_key(|(_, rgb)| distance(*rgb))
        .map_or(Color::Reset, |(c, _)| *c)
}

fn nearest_256((r, g, b): (u8, u8, u8)) -> Color {
    let step = |v: u8| -> u8 {
        if v < 48 {
            0
        } else if v < 115 {
            1
        } else {
            (v - 35) / 40
        }
    };
    Color::Indexed(16 + 36 * step(r) + 6 * step(g) + step(b))
}

/// A colour as faithful as the terminal can show it.
pub fn degrade(color: Color, depth: Depth) -> Color {
    match (color, depth) {
        (_, Depth::TrueColor) => color,
        (Color::Rgb(r, g, b), Depth::Ansi256) => nearest_256((r, g, b)),
        (Color::Rgb(r, g, b), Depth::Ansi16) => nearest_basic((r, g, b)),
        (Color::Indexed(i), Depth::Ansi16) if i > 15 => nearest_basic(rgb_of_index(i)),
        (Color::Indexed(i), Depth::Ansi16) => BASIC[i as usize].0,
        _ => color,
    }
}

impl Theme {
    /// The theme with every colour made faithful to the terminal's depth.
    pub fn for_depth(mut self, depth: Depth) -> Theme {
        for color in [
            &mut self.ok,
            &mut self.warn,
            &mut self.error,
            &mut self.info,
            &mut self.muted,
            &mut self.accent,
            &mut self.text,
        ] {
            *color = degrade(*color, depth);
        }
        // Meanings must stay apart at every depth: a warning drawn in the error colour (the
        // light theme's amber is nearest to red among the basic 16) reads as an error.
        for meaning in [&mut self.warn, &mut self.ok, &mut self.info] {
            if *meaning == self.error && depth != Depth::TrueColor {
                *meaning = match *meaning {
                    Color::Red | Color::LightRed => Color::Yellow,
                    _ => Color::Magenta,
                };
            }
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_degrade_faithfully() {
        assert_eq!(
            Depth::detect(Some("truecolor"), Some("xterm")),
            Depth::TrueColor
        );
        assert_eq!(Depth::detect(None, Some("screen-256color")), Depth::Ansi256);
        assert_eq!(Depth::detect(None, Some("screen")), Depth::Ansi16);
        assert_eq!(
            degrade(Color::Rgb(0xa0, 0x60, 0x00), Depth::TrueColor),
            Color::Rgb(0xa0, 0x60, 0x00)
        );
        assert_eq!(
            degrade(Color::Rgb(255, 0, 0), Depth::Ansi256),
            Color::Indexed(196)
        );
        assert_eq!(
            degrade(Color::Rgb(250, 10, 10), Depth::Ansi16),
            Color::LightRed
        );
        assert_eq!(
            degrade(Color::Indexed(208), Depth::Ansi16),
            Color::Yellow,
            "orange reads as yellow"
        );
        assert_eq!(degrade(Color::Green, Depth::Ansi16), Color::Green);
        let light = Theme::builtin("light")
            .expect("light")
            .for_depth(Depth::Ansi16);
        assert!(!matches!(light.warn, Color::Rgb(..) | Color::Indexed(16..)));
    }
}
