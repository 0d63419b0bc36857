//! The settings file: what it asks, and every way of writing it wrong failing closed with the
//! line and what was expected.

use super::*;

#[test]
fn read_only_per_context_or_everywhere() {
    let (settings, warnings) = Settings::parse(
        "theme: light\ncontexts:\n  prod-hub:\n    readonly: true\n  lab:\n    readonly: false\nclipboard: osc52\n",
    );
    assert!(settings.read_only("prod-hub"));
    assert!(!settings.read_only("lab"));
    assert!(!settings.read_only("other"));
    assert_eq!(settings.clipboard, Clipboard::Osc52);
    assert!(warnings.is_empty(), "{warnings:?}");
    let (settings, _) = Settings::parse("readonly: true\n");
    assert!(settings.read_only("anything"));
    let (settings, _) = Settings::parse("readonly: false\n");
    assert!(!settings.read_only("anything"));
    let (settings, warnings) = Settings::parse("clipboard: fax\n");
    assert!(
        !settings.read_only("anything"),
        "a word, not a kind: a warning"
    );
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let (settings, warnings) = Settings::parse("");
    assert!(!settings.read_only("anything") && warnings.is_empty());
    let (settings, warnings) = Settings::parse("# nothing set\n");
    assert!(!settings.read_only("anything") && warnings.is_empty());
}

/// `favourites:` lists the namespaces `1`-`9` watch; a name the API server would refuse or a
/// tenth is said and ignored, never fatal.
#[test]
fn favourite_namespaces() {
    let (settings, warnings) = Settings::parse("favourites: [ml-research, retail-edge]\n");
    assert_eq!(settings.favourites, ["ml-research", "retail-edge"]);
    assert!(warnings.is_empty(), "{warnings:?}");
    let (settings, _) = Settings::parse("favorites:\n  - lab\n");
    assert_eq!(settings.favourites, ["lab"], "the American spelling too");
    let (settings, warnings) =
        Settings::parse("favourites: [Bad_NS, ok, a, b, c, d, e, f, g, h, i]\n");
    assert_eq!(
        settings.favourites,
        ["ok", "a", "b", "c", "d", "e", "f", "g", "h"]
    );
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(!settings.read_only("any"), "not a reason for read-only");
    // Listed twice, or under both spellings: said, the first counts.
    let (settings, warnings) = Settings::parse("favourites: [a, b, a]\nfavorites: [c]\n");
    assert_eq!(settings.favourites, ["a", "b"]);
    assert_eq!(warnings.len(), 2, "{warnings:?}");
}

/// A mis-indented file: `readonly: true` one level too far out under a context reads as an
/// empty context and a context named `readonly`. It makes every context read-only, saying
/// the file's line and what was expected, on the header's reason.
#[test]
fn a_mis_indented_readonly_is_read_only_with_its_line() {
    let (settings, warnings) = Settings::parse("contexts:\n  pooldeck-demo:\n  readonly: true\n");
    let why = settings.why_read_only("pooldeck-demo").expect("read-only");
    assert!(
        why.contains("line 2: contexts.pooldeck-demo: empty"),
        "{why}"
    );
    assert!(why.contains("indented under it"), "{why}");
    assert!(why.contains("(and 1 more)"), "{why}");
    assert!(settings.read_only("any-other-context"), "every context");
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("line 3: contexts.readonly: true where")),
        "{warnings:?}"
    );
}

/// Every way found of writing the file wrong makes every context read-only and says why;
/// a schema's departure names its line.
#[test]
fn settings_that_cannot_be_read_fail_closed() {
    // (text, the line the reason names, where one does)
    let broken: &[(&str, Option<u32>)] = &[
        ("readonly: true\nreadonly: true\n", None),
        ("readonly: ture\n", Some(1)),
        ("readonly: \"true\"\n", Some(1)),
        ("readonly: 'false'\n", Some(1)),
        ("readonly: 1\n", Some(1)),
        ("readonly: 0\n", Some(1)),
        ("readonly: 1.0\n", Some(1)),
        ("readonly: [\n", None),
        ("readonly: [true]\n", Some(1)),
        ("readonly: {on: true}\n", Some(1)),
        ("readonly: ~\n", Some(1)),
        ("readonly:\n", Some(1)),
        ("readonly: null\n", Some(1)),
        ("- readonly\n", Some(1)),
        ("just words\n", Some(1)),
        ("true\n", Some(1)),
        ("contexts: [prod]\n", Some(1)),
        ("contexts: prod\n", Some(1)),
        ("contexts: ~\n", Some(1)),
        ("contexts:\n", Some(1)),
        ("contexts: true\n", Some(1)),
        ("contexts:\n  prod:\n", Some(2)),
        ("contexts:\n  prod: ~\n", Some(2)),
        ("contexts:\n  prod: true\n", Some(2)),
        ("contexts:\n  prod: yes-please\n", Some(2)),
        ("contexts:\n  prod: [readonly]\n", Some(2)),
        ("contexts:\n  prod:\n    readonly: 'yes'\n", Some(3)),
        ("contexts:\n  prod:\n    readonly: ~\n", Some(3)),
        ("contexts:\n  prod:\n    readonly:\n", Some(3)),
        ("contexts:\n  prod:\n    readOnly: true\n", Some(3)),
        ("contexts:\n  prod:\n    read-only: true\n", Some(3)),
        (
            "contexts:\n  prod:\n    colour: blue\n    readonly: true\n",
            Some(3),
        ),
        (
            "contexts:\n  prod:\n    readonly: true\n    readonly: false\n",
            None,
        ),
        ("contexts:\n  prod:\n  readonly: true\n", Some(2)),
        (
            "contexts:\n  prod:\n    readonly: true\n  lab: ~\n",
            Some(4),
        ),
        ("readOnly: true\n", Some(1)),
        ("read-only: false\n", Some(1)),
        ("read_only: yes\n", Some(1)),
        ("Readonly: true\n", Some(1)),
        ("colour: blue\n", Some(1)),
        ("context:\n  prod:\n    readonly: true\n", Some(1)),
        ("readonly: false\n---\nreadonly: true\n", None),
        ("readonly: false\n...\nreadonly: true\n", None),
        ("theme: 3\n", Some(1)),
        ("theme: ~\n", Some(1)),
        ("theme: [light]\n", Some(1)),
        ("clipboard: 52\n", Some(1)),
        ("clipboard: ~\n", Some(1)),
        ("audit-log: false\n", Some(1)),
        ("audit-log: [a]\n", Some(1)),
        ("audit-log: ~\n", Some(1)),
        ("favourites: ml-research\n", Some(1)),
        ("favourites: ~\n", Some(1)),
        ("favourites: [ok, 7]\n", Some(1)),
        ("favourites: [ok, ~]\n", Some(1)),
        ("favourites: {a: b}\n", Some(1)),
        ("favorites: [[a]]\n", Some(1)),
        ("readonly: false\nextra: 1\n", Some(2)),
        ("contexts:\n  - prod\n", Some(2)),
        ("readonly: &a true\nreadonly2: *a\n", Some(2)),
    ];
    assert!(broken.len() >= 55, "{}", broken.len());
    for (text, line) in broken {
        let (settings, warnings) = Settings::parse(text);
        let why = settings.why_read_only("prod-hub");
        assert!(why.is_some(), "{text:?} must make every context read-only");
        let why = why.unwrap_or_default();
        assert!(
            why.contains("read-only until it is fixed"),
            "{text:?}: {why:?}"
        );
        if let Some(line) = line {
            assert!(why.contains(&format!("line {line}:")), "{text:?}: {why}");
            assert!(
                why.contains("expected") || why.contains("not a setting"),
                "{text:?}: {why}"
            );
        }
        assert!(!warnings.is_empty(), "{text:?} must be said");
    }
    // A relative audit log is of the right kind and unusable: actions are held back.
    let (settings, warnings) = Settings::parse("audit-log: relative/audit.log\n");
    assert!(matches!(settings.audit_log, Some(AuditLog::NotAbsolute(_))));
    assert!(!warnings.is_empty());
    let closed = Settings::fail_closed("the settings file x cannot be read (a FIFO)".into());
    assert!(closed.read_only("any"));
}

/// A context key matched once spaces and case are set aside applies (read-only is the safe
/// reading), and is said; one that names no context of this kubeconfig is said, not fatal
/// (the file serves every kubeconfig, the demo's included).
#[test]
fn context_keys_are_matched_and_said() {
    let (settings, warnings) = Settings::parse(
        "contexts:\n  \"Pooldeck-Demo \":\n    readonly: true\n  elsewhere:\n    readonly: true\n",
    );
    assert!(warnings.is_empty(), "{warnings:?}");
    assert!(settings.read_only("pooldeck-demo"), "spaces and case aside");
    assert!(!settings.read_only("pooldeck-demo-2"));
    let known = vec!["pooldeck-demo".to_owned()];
    let said = settings.about_contexts(&known);
    assert_eq!(said.len(), 2, "{said:?}");
    assert!(
        said[0].contains("taken as context pooldeck-demo"),
        "{said:?}"
    );
    assert!(
        said[1].contains("names no context of this kubeconfig"),
        "{said:?}"
    );
    let (exact, _) = Settings::parse("contexts:\n  pooldeck-demo:\n    readonly: false\n");
    assert!(exact.about_contexts(&known).is_empty());
}

/// A settings file (or its directory) that is a link to nothing was meant to be there: it is
/// not taken for no file at all.
#[test]
fn a_link_to_nothing_is_not_no_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("config.yaml");
    assert!(!dangling(&file), "no file at all is no settings");
    std::os::unix::fs::symlink(dir.path().join("gone.yaml"), &file).expect("link");
    assert!(dangling(&file));
    let linked_dir = dir.path().join("pooldeck");
    std::os::unix::fs::symlink(dir.path().join("nowhere"), &linked_dir).expect("link");
    assert!(dangling(&linked_dir.join("config.yaml")));
}
