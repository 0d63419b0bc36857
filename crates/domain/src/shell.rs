//! Quoting for the command lines pooldeck prints or copies (the kubectl equivalent of a
//! dialog, a finding's next steps, the audit log's `kubectl` field): every value that comes
//! from a cluster or a person goes through [`quote`], so an operator who pastes a line runs
//! exactly the command shown, with a name such as `x; touch /tmp/p; #` as one argument and
//! never as shell syntax. The shell syntax a line means to have (a pipe to grep, a jsonpath
//! in quotes) is written by pooldeck around the quoted values, never taken from data.

use std::borrow::Cow;

/// Whether a word is read by a shell as itself: letters, digits and punctuation that no
/// shell gives a meaning to. A tilde is never plain (bash expands `a=~root` and `x:~root`),
/// nor a word starting with `=` (zsh expands `=cmd`).
fn plain(word: &str) -> bool {
    !word.is_empty()
        && !word.starts_with('=')
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./:=@,+%".contains(&b))
}

/// One argument for a POSIX shell: as it is when it is plain, otherwise in single quotes
/// (a single quote inside written as `'\''`). An empty value is `''`.
pub fn quote(word: &str) -> Cow<'_, str> {
    if plain(word) {
        Cow::Borrowed(word)
    } else {
        Cow::Owned(format!("'{}'", word.replace('\'', r"'\''")))
    }
}

/// Whether a command naming this hub reads back as it is shown: its context and kubeconfig
/// file hold nothing a terminal acts on (shown escaped, a control character would be pasted
/// as the letters of its escape, and reach another context or none).
pub fn shown_faithfully(hub: &crate::Hub) -> bool {
    let faithful = |text: &str| !text.chars().any(crate::inert::foreign_to_a_cell);
    faithful(&hub.context) && hub.kubeconfig.as_deref().is_none_or(faithful)
}

/// What is said instead of a command naming a hub that cannot be shown faithfully.
pub const NOT_SHOWN_FAITHFULLY: &str = "none that reads back as shown: the hub's context or \
     kubeconfig name holds control characters (rename the context in the kubeconfig)";

/// `line` (a kubectl command) bound to a hub: its kubeconfig file when one was named, and its
/// context, both quoted for a POSIX shell.
pub fn on_hub(line: &str, hub: &crate::Hub) -> String {
    let line = on_context(line, &hub.context);
    match (line.strip_prefix("kubectl "), &hub.kubeconfig) {
        (Some(rest), Some(file)) => format!("kubectl --kubeconfig {} {rest}", quote(file)),
        _ => line,
    }
}

/// A kubectl command line bound to the kubeconfig context it was previewed on: pasted, it
/// reaches that hub whatever kubectl's current context is. Other lines are left as they are.
pub fn on_context(line: &str, context: &str) -> String {
    match line.strip_prefix("kubectl ") {
        Some(rest) if !context.is_empty() => {
            format!("kubectl --context {} {rest}", quote(context))
        }
        _ => line.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_handed_on_names_the_kubeconfig_file_it_was_told() {
        let mut hub = crate::Hub {
            context: "prod hub".into(),
            server: String::new(),
            user: String::new(),
            kubeconfig: Some("/home/ops/my configs/hub.yaml".into()),
        };
        assert_eq!(
            on_hub("kubectl delete computepools p -n ns", &hub),
            "kubectl --kubeconfig '/home/ops/my configs/hub.yaml' --context 'prod hub' delete computepools p -n ns"
        );
        hub.kubeconfig = None;
        assert_eq!(
            on_hub("kubectl delete computepools p -n ns", &hub),
            on_context("kubectl delete computepools p -n ns", "prod hub")
        );
    }
    use proptest::prelude::*;

    /// A context named with an escape byte and one named with its escaped letters look alike
    /// once made inert: a command naming the first is not handed on as if it were shown.
    #[test]
    fn a_hub_named_with_control_characters_is_not_shown_as_a_command() {
        let hub = |context: &str, kubeconfig: Option<&str>| crate::Hub {
            context: context.into(),
            server: String::new(),
            user: String::new(),
            kubeconfig: kubeconfig.map(str::to_owned),
        };
        assert!(shown_faithfully(&hub("prod", Some("/home/ops/hubs.yaml"))));
        assert!(shown_faithfully(&hub(r"prod\x1b[0m", None)), "letters only");
        assert!(!shown_faithfully(&hub("prod\u{1b}[0m", None)));
        assert!(!shown_faithfully(&hub("prod\u{202e}", None)));
        assert!(!shown_faithfully(&hub("prod\nhub", None)));
        assert!(!shown_faithfully(&hub(
            "prod",
            Some("/tmp/a\u{1b}]0;x\u{7}")
        )));
    }

    #[test]
    fn names_stay_plain_and_shell_syntax_is_quoted() {
        assert_eq!(quote("store-042"), "store-042");
        assert_eq!(
            quote("controller.spectrocloud.com/pause=true"),
            "controller.spectrocloud.com/pause=true"
        );
        assert_eq!(quote("x; touch /tmp/p; #"), "'x; touch /tmp/p; #'");
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote(""), "''");
        assert_eq!(quote("$(id)"), "'$(id)'");
        assert_eq!(quote("~root"), "'~root'");
        assert_eq!(quote("a=~root"), "'a=~root'");
        assert_eq!(quote("=ls"), "'=ls'");
        assert_eq!(
            on_context("kubectl get cp -A | grep x", "hub b"),
            "kubectl --context 'hub b' get cp -A | grep x"
        );
        assert_eq!(
            on_context("on edge-1: crictl images", "hub"),
            "on edge-1: crictl images"
        );
    }

    /// What `printf` prints, one word per NUL, when `shell` runs it on the quoted words.
    fn echoed(shell: &str, words: &[String]) -> Vec<String> {
        let script = std::iter::once("printf '%s\\0'".to_owned())
            .chain(words.iter().map(|w| quote(w).into_owned()))
            .collect::<Vec<_>>()
            .join(" ");
        let output = std::process::Command::new(shell)
            .arg("-c")
            .arg(&script)
            .output()
            .expect("sh runs");
        assert!(output.status.success(), "{shell}: {script}");
        let text = String::from_utf8(output.stdout).expect("UTF-8 back");
        let mut back: Vec<String> = text.split('\0').map(str::to_owned).collect();
        // printf ends every word with a NUL: the last piece is the empty rest.
        back.pop();
        back
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// `sh -c` gets back each quoted value unchanged, whatever it holds (a NUL cannot be
        /// an argument at all, so it is left out).
        #[test]
        fn the_shell_reads_each_quoted_value_back_unchanged(
            words in prop::collection::vec("[^\u{0}]{0,24}", 1..5),
        ) {
            prop_assert_eq!(echoed("sh", &words), words.clone());
            prop_assert_eq!(echoed("bash", &words), words);
        }

        /// The characters that mean something to a shell, in every mix.
        #[test]
        fn shell_syntax_reads_back_unchanged(
            words in prop::collection::vec(r#"[a-z;&|`$()<>'"\\ *?#!~{}\[\]\n\t=%-]{0,16}"#, 1..4),
        ) {
            prop_assert_eq!(echoed("sh", &words), words.clone());
            prop_assert_eq!(echoed("bash", &words), words);
        }
    }
}
