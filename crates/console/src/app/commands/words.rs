//! The command line's words besides the views' names (`:ns`, `:ctx`, `:hub`, `:q`…): one
//! table that running a command, Tab's completion, the prompt, the hint after an unknown
//! command and the help all read. A view's names are the view registry's.

/// What a word of the command line does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Word {
    Namespace,
    Context,
    Hub,
    Story,
    Reset,
    Help,
    Chapter,
    Quit,
}

/// Where a word means something: a word that does not apply says why when run, and is left
/// out of the hints where it cannot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Applies {
    Always,
    /// On the embedded demo cluster.
    Demo,
    /// In the guided tour.
    Tour,
}

/// What Tab offers after the word and a space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Completes {
    Nothing,
    /// The namespaces the watched objects name, and `all`.
    Namespaces,
    /// The kubeconfig's contexts (after a comma, the next of several).
    Contexts,
    /// The hubs watched, and `*`.
    Hubs,
}

/// One word of the command line.
pub struct Spec {
    pub word: Word,
    /// The names it is typed as, its own first.
    pub names: &'static [&'static str],
    /// How the prompt and the hints write it (`:ns NAME`).
    pub usage: &'static str,
    /// Whether it takes a word after it (`:ns NAME`); one that does not is only itself.
    pub takes: bool,
    pub applies: Applies,
    pub completes: Completes,
    /// What it does, for the help.
    pub help: &'static str,
}

/// Every word of the command line, in the order the prompt and the help give them.
pub const WORDS: &[Spec] = &[
    Spec {
        word: Word::Namespace,
        names: &["ns"],
        usage: ":ns NAME",
        takes: true,
        applies: Applies::Always,
        completes: Completes::Namespaces,
        help: "watch one namespace (:ns all every one; :ns NAME! one nothing here is in yet)",
    },
    Spec {
        word: Word::Context,
        names: &["ctx"],
        usage: ":ctx NAME",
        takes: true,
        applies: Applies::Always,
        completes: Completes::Contexts,
        help: "switch to another context (:ctx a,b or :ctx * watches several hubs at once)",
    },
    Spec {
        word: Word::Hub,
        names: &["hub"],
        usage: ":hub NAME",
        takes: true,
        applies: Applies::Always,
        completes: Completes::Hubs,
        help: "one hub's rows (:hub * every hub's)",
    },
    Spec {
        word: Word::Story,
        names: &["story"],
        usage: ":story",
        takes: false,
        applies: Applies::Demo,
        completes: Completes::Nothing,
        help: "the demo scenario's story",
    },
    Spec {
        word: Word::Reset,
        names: &["reset"],
        usage: ":reset",
        takes: false,
        applies: Applies::Demo,
        completes: Completes::Nothing,
        help: "start the demo's story again, or the tour's chapter",
    },
    Spec {
        word: Word::Chapter,
        names: &["chapter"],
        usage: ":chapter N",
        takes: true,
        applies: Applies::Tour,
        completes: Completes::Nothing,
        help: "jump to a chapter of the tour",
    },
    Spec {
        word: Word::Help,
        names: &["help"],
        usage: ":help",
        takes: false,
        applies: Applies::Always,
        completes: Completes::Nothing,
        help: "the keys",
    },
    Spec {
        word: Word::Quit,
        names: &["q", "quit", "q!"],
        usage: ":q",
        takes: false,
        applies: Applies::Always,
        completes: Completes::Nothing,
        help: "quit",
    },
];

/// The word a command names, and what follows it (trimmed; empty when nothing does). A word
/// that takes nothing is only itself: `:story x` is no command.
pub fn parse(command: &str) -> Option<(&'static Spec, &str)> {
    let command = command.trim();
    let (first, rest) = command.split_once(' ').unwrap_or((command, ""));
    let spec = WORDS.iter().find(|s| s.names.contains(&first))?;
    let rest = rest.trim();
    (spec.takes || rest.is_empty()).then_some((spec, rest))
}

/// The words that apply here, as the prompt and hints write them.
pub fn usages(demo: bool, tour: bool) -> impl Iterator<Item = &'static str> {
    WORDS
        .iter()
        .filter(move |s| match s.applies {
            Applies::Always => true,
            Applies::Demo => demo || tour,
            Applies::Tour => tour,
        })
        .map(|s| s.usage)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_is_read_with_what_follows_it_and_one_that_takes_nothing_is_only_itself() {
        let (ns, rest) = parse("ns  ml-research ").expect("a word");
        assert_eq!((ns.word, rest), (Word::Namespace, "ml-research"));
        assert_eq!(
            parse("ns").map(|(s, r)| (s.word, r)),
            Some((Word::Namespace, ""))
        );
        assert_eq!(parse("q!").map(|(s, _)| s.word), Some(Word::Quit));
        assert!(parse("story x").is_none());
        assert!(parse("nsx").is_none());
    }

    #[test]
    fn every_name_is_one_words_and_no_views() {
        let mut seen = std::collections::HashSet::new();
        for spec in WORDS {
            assert!(spec.usage.starts_with(&format!(":{}", spec.names[0])));
            for name in spec.names {
                assert!(seen.insert(*name), "{name} names two words");
                assert!(
                    crate::app::View::named(name).is_none(),
                    "{name} is a view's name too"
                );
            }
        }
    }
}
