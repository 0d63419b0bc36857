//! The layers, checked by reading the code as the compiler does. The workspace's crates are
//! the first wall (the compiler refuses a name a crate does not depend on; `cargo tree`
//! shows the domain crate's dependencies hold no runtime, client, terminal or HTTP crate).
//! Within them, every module file reached from a crate's `src/lib.rs` through its `mod`
//! declarations (test modules left out: they may drive the code with anything) is parsed, and
//! every `use` tree and every path naming `crate::`, `super::`, one of our crates or an
//! outside crate is resolved to the module or crate it names. Each top-level module of the
//! console, and each other crate as a whole, may name only what its allow-list holds: a rename
//! (`use crate::{ui as v}`), a climb (`super::super::runtime`) or code after
//! `#[cfg(test)] mod tests;` is seen as it is. The self-test feeds the checker those forms and
//! requires each to fail. Our crates are named as the console re-exports them: `domain` and
//! `manifest` (pooldeck-domain), `files` and `say` (pooldeck-io), `demo` (pooldeck-demo).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a test may panic: that is how it fails
#![allow(clippy::too_many_lines)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// The crates outside ours that any module may name.
const ALWAYS: &[&str] = &["std", "core", "alloc", "serde", "serde_json", "chrono"];

/// Per top-level module of the console, or per crate: the modules of ours it may name, and
/// the outside crates.
struct Allowed {
    module: &'static str,
    /// The crate directory when the layer is a whole crate (every path inside it that starts
    /// from `crate`, `self` or `super` is its own).
    krate: Option<&'static str>,
    ours: &'static [&'static str],
    outside: &'static [&'static str],
}

const LAYERS: &[Allowed] = &[
    // Pure: the product's terms and rules and YAML manifests, no I/O.
    Allowed {
        module: "domain",
        krate: Some("crates/domain"),
        ours: &[],
        outside: &[
            "ipnet",
            "compact_str",
            "strsim",
            "serde_saphyr",
            "json_patch",
            "regex",
        ],
    },
    // The operating system's edges: files a person names, pooldeck's own lines.
    Allowed {
        module: "io",
        krate: Some("crates/io"),
        ours: &["domain"],
        outside: &["rustix", "getrandom", "fastrand"],
    },
    Allowed {
        module: "inventory",
        krate: None,
        ours: &["domain"],
        outside: &["compact_str"],
    },
    Allowed {
        module: "theme",
        krate: None,
        ours: &["manifest", "files"],
        outside: &["ratatui"],
    },
    Allowed {
        module: "settings",
        krate: None,
        ours: &["domain", "files", "manifest", "theme"],
        outside: &[],
    },
    Allowed {
        module: "drafts",
        krate: None,
        ours: &["domain", "files", "manifest"],
        outside: &["rustix"],
    },
    // The console's state and its changes: no terminal, no client, no tasks.
    Allowed {
        module: "app",
        krate: None,
        ours: &["domain", "inventory", "say"],
        outside: &[
            "crossterm",
            "ratatui_textarea",
            "compact_str",
            "futures",
            "hashbrown",
            "serde_saphyr",
        ],
    },
    // Drawing: reads the app.
    Allowed {
        module: "ui",
        krate: None,
        ours: &["app", "domain", "inventory", "theme"],
        outside: &["ratatui", "ratatui_textarea", "crossterm", "unicode_width"],
    },
    // What pooldeck kept of its pools' timelines: files, never the console.
    Allowed {
        module: "timeline",
        krate: None,
        ours: &["domain", "files", "inventory"],
        outside: &["thiserror"],
    },
    // Talking to a hub: never the console.
    Allowed {
        module: "sources",
        krate: None,
        ours: &["app", "domain", "files", "inventory", "say"],
        outside: &[
            "kube",
            "k8s_openapi",
            "tokio",
            "futures",
            "http",
            "rustls",
            "base64",
            "form_urlencoded",
        ],
    },
    Allowed {
        module: "cluster",
        krate: None,
        ours: &["domain", "files", "sources", "say"],
        outside: &[
            "kube",
            "k8s_openapi",
            "tokio",
            "futures",
            "http",
            "json_patch",
            "fastrand",
        ],
    },
    Allowed {
        module: "demo",
        krate: Some("crates/demo"),
        ours: &["domain", "files", "manifest", "say"],
        outside: &[
            "axum",
            "hyper",
            "hyper_util",
            "http",
            "http_body_util",
            "tokio",
            "tokio_rustls",
            "tokio_stream",
            "rustls",
            "rcgen",
            "futures",
            "base64",
            "form_urlencoded",
            "json_patch",
            "fastrand",
            "serde_saphyr",
            "kube",
            "k8s_openapi",
            "rustix",
        ],
    },
    // The only place with tasks and the terminal; never the command line.
    Allowed {
        module: "runtime",
        krate: None,
        ours: &[
            "app",
            "cluster",
            "demo",
            "domain",
            "drafts",
            "files",
            "inventory",
            "say",
            "settings",
            "sources",
            "theme",
            "timeline",
            "ui",
        ],
        outside: &[
            "tokio",
            "crossterm",
            "termina",
            "ratatui",
            "futures",
            "kube",
            "k8s_openapi",
            "arboard",
            "base64",
            "rustix",
        ],
    },
    // The command line: the top of the console; it may name every module, none names it.
    Allowed {
        module: "cli",
        krate: None,
        ours: &[
            "app",
            "cluster",
            "demo",
            "domain",
            "drafts",
            "files",
            "inventory",
            "manifest",
            "runtime",
            "say",
            "settings",
            "sources",
            "theme",
            "timeline",
            "ui",
        ],
        outside: &[
            "clap",
            "clap_complete",
            "clap_mangen",
            "crossterm",
            "flate2",
            "futures",
            "kube",
            "serde_saphyr",
            "tar",
            "tokio",
        ],
    },
];

/// The workspace's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Our crates as the code names them.
const OURS: &[&str] = &["pooldeck_domain", "pooldeck_io", "pooldeck_demo"];

/// The outside crates a name may start with (from every crate's Cargo.toml, `-` read as `_`).
fn outside_crates() -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for krate in [
        "crates/domain",
        "crates/io",
        "crates/demo",
        "crates/console",
    ] {
        let text = std::fs::read_to_string(root().join(krate).join("Cargo.toml"))
            .expect("a crate's Cargo.toml");
        let mut in_dependencies = false;
        for line in text.lines() {
            let line = line.trim();
            if line.starts_with('[') {
                in_dependencies = line.ends_with("dependencies]");
                continue;
            }
            if in_dependencies && let Some((name, _)) = line.split_once(['=', '.']) {
                let name = name.trim().replace('-', "_");
                if !name.is_empty() && !name.starts_with('#') && !OURS.contains(&name.as_str()) {
                    names.insert(name);
                }
            }
        }
    }
    names.extend(["std", "core", "alloc"].map(str::to_owned));
    names
}

/// What a path naming the crate root itself resolves to (`use crate::*`, `use crate as c`,
/// `super::super::*` up to the root): in no allow-list, so always refused.
const ROOT: &str = "the crate root (a glob or rename of it)";

/// What one file names: (the top-level module or outside crate, where).
#[derive(Default)]
struct Names {
    /// The layer of a whole crate being read: every `crate`, `self` and `super` is its own.
    own: Option<String>,
    module: Vec<String>,
    found: Vec<(String, String)>,
    outside: BTreeSet<String>,
}

impl Names {
    /// A path as written in the file at `self.module`: the module of ours or the outside
    /// crate it starts from, if it names one.
    fn resolve(&mut self, segments: &[String], line: usize) {
        let Some(first) = segments.first() else {
            return;
        };
        let second = segments.get(1).map(String::as_str);
        let named = match first.as_str() {
            "crate" | "self" | "super" if self.own.is_some() => self.own.clone(),
            // Our other crates, by the names the console gives them.
            "pooldeck_domain" if second == Some("manifest") => Some("manifest".to_owned()),
            "pooldeck_domain" => Some("domain".to_owned()),
            "pooldeck_io" => Some(second.unwrap_or("io").to_owned()),
            "pooldeck_demo" => Some("demo".to_owned()),
            // `use crate as c;` or `use crate::*;` name the whole crate: never allowed.
            "crate" => Some(segments.get(1).cloned().unwrap_or_else(|| ROOT.to_owned())),
            "super" => {
                let climbs = segments.iter().take_while(|s| *s == "super").count();
                let mut module = self.module.clone();
                for _ in 0..climbs {
                    module.pop();
                }
                module
                    .first()
                    .cloned()
                    .or_else(|| segments.get(climbs).cloned())
                    .or_else(|| Some(ROOT.to_owned()))
            }
            "self" => self.module.first().cloned(),
            other if self.outside.contains(other) => Some(format!("extern {other}")),
            _ => None,
        };
        if let Some(named) = named {
            self.found
                .push((named, format!("line {line}: {}", segments.join("::"))));
        }
    }
}

/// Every `a::b::c` path in a stream of tokens, with its line.
fn paths_in_tokens(tokens: proc_macro2::TokenStream, out: &mut Vec<(Vec<String>, usize)>) {
    use proc_macro2::TokenTree;
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let colons = |at: usize| {
        matches!((trees.get(at), trees.get(at + 1)),
            (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b))) if a.as_char() == ':' && b.as_char() == ':')
    };
    let mut i = 0;
    while i < trees.len() {
        match &trees[i] {
            TokenTree::Group(group) => {
                paths_in_tokens(group.stream(), out);
                i += 1;
            }
            TokenTree::Ident(first) => {
                let line = first.span().start().line;
                let mut segments = vec![first.to_string()];
                let mut j = i + 1;
                while colons(j) {
                    match trees.get(j + 2) {
                        Some(TokenTree::Ident(next)) => {
                            segments.push(next.to_string());
                            j += 3;
                        }
                        // `a::*` or `a::{...}`: the path so far.
                        _ => {
                            j += 2;
                            break;
                        }
                    }
                }
                if segments.len() > 1 || j > i + 1 {
                    out.push((segments, line));
                }
                i = j;
            }
            _ => i += 1,
        }
    }
}

/// Every path a `use` tree names, with its renames undone.
fn flatten(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match tree {
        syn::UseTree::Path(path) => {
            prefix.push(path.ident.to_string());
            flatten(&path.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(name) => {
            let mut full = prefix.clone();
            full.push(name.ident.to_string());
            out.push(full);
        }
        syn::UseTree::Rename(rename) => {
            let mut full = prefix.clone();
            full.push(rename.ident.to_string());
            out.push(full);
        }
        syn::UseTree::Glob(_) => out.push(prefix.clone()),
        syn::UseTree::Group(group) => {
            for item in &group.items {
                flatten(item, prefix, out);
            }
        }
    }
}

fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.parse_args::<syn::Meta>()
                .is_ok_and(|m| m.path().is_ident("test"))
    })
}

impl<'ast> Visit<'ast> for Names {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs = match item {
            syn::Item::Mod(m) => &m.attrs,
            syn::Item::Fn(f) => &f.attrs,
            syn::Item::Impl(i) => &i.attrs,
            syn::Item::Use(u) => &u.attrs,
            _ => return syn::visit::visit_item(self, item),
        };
        if is_test(attrs) {
            return;
        }
        syn::visit::visit_item(self, item);
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        // An inline module is the file's own: its paths resolve one level down.
        if let Some((_, items)) = &item.content {
            self.module.push(item.ident.to_string());
            for inner in items {
                self.visit_item(inner);
            }
            self.module.pop();
        }
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        let mut paths = Vec::new();
        flatten(&item.tree, &mut Vec::new(), &mut paths);
        let line = item.use_token.span.start().line;
        for path in paths {
            self.resolve(&path, line);
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        if segments.len() > 1 {
            let line = path
                .segments
                .first()
                .map_or(0, |s| s.ident.span().start().line);
            self.resolve(&segments, line);
        }
        syn::visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        // A macro's body is tokens: read as expressions where it parses as them, otherwise
        // (`vec![x; n]`, a pattern, a `macro_rules!` body) every `a::b` path in its tokens.
        if let Ok(expr) = mac.parse_body_with(
            syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated,
        ) {
            for e in &expr {
                self.visit_expr(e);
            }
        } else {
            let mut paths = Vec::new();
            paths_in_tokens(mac.tokens.clone(), &mut paths);
            for (segments, line) in paths {
                self.resolve(&segments, line);
            }
        }
        syn::visit::visit_macro(self, mac);
    }
}

/// What a file's code names, as (module or `extern crate`, where); `own` is the layer of a
/// whole crate being read.
fn names_in(
    own: Option<&str>,
    module: &[String],
    text: &str,
    outside: &BTreeSet<String>,
) -> Vec<(String, String)> {
    let file = syn::parse_file(text).expect("the file parses");
    let mut names = Names {
        own: own.map(str::to_owned),
        module: module.to_vec(),
        found: Vec::new(),
        outside: outside.clone(),
    };
    for item in &file.items {
        names.visit_item(item);
    }
    names.found
}

/// Every module file reached from the crates' lib.rs, with its module path (a whole-crate
/// layer's files under its name); test modules left out.
fn module_files() -> Vec<(Vec<String>, PathBuf)> {
    let mut out = Vec::new();
    let console = root().join("crates/console/src");
    walk(&console.join("lib.rs"), &console, Vec::new(), &mut out);
    for layer in LAYERS {
        if let Some(krate) = layer.krate {
            let src = root().join(krate).join("src");
            walk(
                &src.join("lib.rs"),
                &src,
                vec![layer.module.to_owned()],
                &mut out,
            );
        }
    }
    out
}

fn walk(file: &Path, dir: &Path, module: Vec<String>, out: &mut Vec<(Vec<String>, PathBuf)>) {
    let text = std::fs::read_to_string(file).expect("a module file");
    let parsed = syn::parse_file(&text).expect("parses");
    out.push((module.clone(), file.to_owned()));
    declared(&parsed.items, file, dir, &module, out);
}

/// Follows `mod name;` declarations (not `#[cfg(test)]` ones), and the modules the `views!`
/// registry declares, into their files.
fn declared(
    items: &[syn::Item],
    file: &Path,
    dir: &Path,
    module: &[String],
    out: &mut Vec<(Vec<String>, PathBuf)>,
) {
    for item in items {
        if let syn::Item::Macro(m) = item
            && m.mac.path.is_ident("views")
        {
            for name in views_declared(&m.mac) {
                let mut inner = module.to_vec();
                inner.push(name.clone());
                walk(
                    &dir.join(format!("{name}.rs")),
                    &dir.join(&name),
                    inner,
                    out,
                );
            }
            continue;
        }
        let syn::Item::Mod(m) = item else { continue };
        if is_test(&m.attrs) {
            continue;
        }
        let name = m.ident.to_string();
        let mut inner = module.to_vec();
        inner.push(name.clone());
        if let Some((_, items)) = &m.content {
            declared(items, file, &dir.join(&name), &inner, out);
            continue;
        }
        let path_attr = m.attrs.iter().find(|a| a.path().is_ident("path"));
        let target = match path_attr {
            Some(attr) => {
                let syn::Meta::NameValue(value) = &attr.meta else {
                    panic!("a path attribute")
                };
                let syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) = &value.value
                else {
                    panic!("a path string")
                };
                file.parent().expect("a directory").join(s.value())
            }
            None if dir.join(format!("{name}.rs")).exists() => dir.join(format!("{name}.rs")),
            None => dir.join(&name).join("mod.rs"),
        };
        walk(&target, &dir.join(&name), inner, out);
    }
}

/// The modules the `views!` registry of `app/rows` declares (each a file beside it),
/// `#[cfg(test)]` ones aside.
fn views_declared(mac: &syn::Macro) -> Vec<String> {
    let names = |input: syn::parse::ParseStream| {
        let mut names = Vec::new();
        while !input.is_empty() {
            let attrs = input.call(syn::Attribute::parse_outer)?;
            let name: syn::Ident = input.parse()?;
            if !is_test(&attrs) {
                names.push(name.to_string());
            }
            if !input.is_empty() {
                input.parse::<syn::Token![,]>()?;
            }
        }
        Ok(names)
    };
    syn::parse::Parser::parse2(names, mac.tokens.clone()).expect("the views registry parses")
}

/// The names a module's files use that its allow-list does not hold.
fn violations(files: &[(Vec<String>, PathBuf)], layer: &Allowed) -> Vec<String> {
    let outside = outside_crates();
    let mut found = Vec::new();
    for (module, path) in files {
        if module.first().map(String::as_str) != Some(layer.module) {
            continue;
        }
        let text = std::fs::read_to_string(path).expect("a module file");
        let own = layer.krate.map(|_| layer.module);
        for (named, place) in names_in(own, module, &text, &outside) {
            if !allowed(layer, &named) {
                found.push(format!("{}: {place} names {named}", path.display()));
            }
        }
    }
    found
}

fn allowed(layer: &Allowed, named: &str) -> bool {
    match named.strip_prefix("extern ") {
        Some(krate) => ALWAYS.contains(&krate) || layer.outside.contains(&krate),
        None => named == layer.module || layer.ours.contains(&named),
    }
}

#[test]
fn every_module_names_only_what_its_layer_allows() {
    let files = module_files();
    assert!(
        files.len() > 100,
        "the walk reaches the crate: {}",
        files.len()
    );
    // Every top-level module of the console has a layer: a new one cannot go unchecked.
    let unruled: BTreeSet<&String> = files
        .iter()
        .filter_map(|(m, _)| m.first())
        .filter(|m| !LAYERS.iter().any(|l| l.module == m.as_str()))
        .collect();
    assert!(unruled.is_empty(), "modules without a layer: {unruled:?}");
    let mut found = Vec::new();
    for layer in LAYERS {
        assert!(
            files
                .iter()
                .any(|(m, _)| m.first().map(String::as_str) == Some(layer.module)),
            "no module {}",
            layer.module
        );
        found.extend(violations(&files, layer));
    }
    assert!(
        found.is_empty(),
        "outside the layers:\n{}",
        found.join("\n")
    );
}

/// The list views are declared by the `views!` registry, not by `mod`: each is checked.
#[test]
fn the_checker_sees_the_views_the_registry_declares() {
    let files = module_files();
    for view in ["pools", "hosts", "problems"] {
        assert!(
            files
                .iter()
                .any(|(module, _)| *module == ["app", "rows", view]),
            "app/rows/{view}.rs is not among the files checked"
        );
    }
    assert!(
        !files
            .iter()
            .any(|(module, _)| *module == ["app", "rows", "sample"]),
        "the test-only sample view is checked as production"
    );
}

/// Probe forms the old line scan let through: each is seen.
#[test]
fn the_checker_sees_renames_climbs_and_code_after_a_test_module() {
    let outside = outside_crates();
    let layer = |module: &str| LAYERS.iter().find(|l| l.module == module).expect("a layer");
    let refused = |module: &[&str], text: &str| -> Vec<String> {
        let path: Vec<String> = module.iter().map(|s| (*s).to_owned()).collect();
        let own = layer(module[0]).krate.map(|_| module[0]);
        names_in(own, &path, text, &outside)
            .into_iter()
            .filter(|(named, _)| !allowed(layer(module[0]), named))
            .map(|(named, _)| named)
            .collect()
    };
    assert_eq!(refused(&["app", "x"], "use crate::{ui as v};"), ["ui"]);
    assert_eq!(
        refused(
            &["app", "wizard", "check"],
            "fn f() { super::super::super::runtime::build(); }"
        ),
        ["runtime"]
    );
    assert_eq!(
        refused(&["domain", "x"], "use pooldeck_io::files;"),
        ["files"]
    );
    assert_eq!(refused(&["io", "say"], "use pooldeck_demo as d;"), ["demo"]);
    assert_eq!(
        refused(&["app", "x"], "fn f() { pooldeck_demo::serve::run(); }"),
        ["demo"]
    );
    assert_eq!(
        refused(
            &["app", "x"],
            "#[cfg(test)]\nmod tests;\nuse crate::ui::render;"
        ),
        ["ui"]
    );
    // The crate root renamed or globbed, and a climb to the root with a glob.
    assert_eq!(
        refused(&["app", "x"], "use crate as c; fn f() { c::runtime::x(); }"),
        [ROOT]
    );
    assert_eq!(refused(&["app", "x"], "use crate::*;"), [ROOT]);
    assert_eq!(refused(&["app"], "use super::*;"), [ROOT]);
    // A macro body that is no list of expressions is read as tokens.
    assert_eq!(
        refused(&["app", "x"], "fn f() { let _ = vec![crate::ui::X; 3]; }"),
        ["ui"]
    );
    assert_eq!(
        refused(
            &["app", "x"],
            "macro_rules! m { () => { crate::runtime::go() }; }"
        ),
        ["runtime"]
    );
    // Inside a whole crate, its own paths are its own, however they climb.
    assert!(refused(&["demo", "api", "x"], "use super::super::store::Store;").is_empty());
    assert_eq!(
        refused(
            &["domain"],
            "fn f() -> tokio::task::JoinHandle<()> { loop {} }"
        ),
        ["extern tokio"]
    );
    assert_eq!(
        refused(
            &["app", "x"],
            "fn f() { let _ = format!(\"{}\", crate::runtime::x()); }"
        ),
        ["runtime"]
    );
    // What a layer allows passes; a test module is not read.
    assert!(refused(&["ui", "x"], "use crate::app::App; use ratatui::Frame;").is_empty());
    assert!(
        refused(
            &["domain", "x"],
            "#[cfg(test)]\nmod tests { use crate::ui::render; }"
        )
        .is_empty()
    );
}

/// The crates the domain may never depend on, even indirectly: an async runtime, the
/// Kubernetes client, the terminal, HTTP and the clipboard.
const NEVER_IN_THE_DOMAIN: &[&str] = &[
    "tokio",
    "kube",
    "kube-client",
    "k8s-openapi",
    "ratatui",
    "crossterm",
    "termina",
    "axum",
    "hyper",
    "http",
    "arboard",
    "rustls",
    "futures",
];

/// Every package the named one depends on as a normal dependency (not dev or build),
/// however far down, for this platform: `cargo tree` (offline, from the lock file; unlike
/// `cargo metadata` it needs no other platform's crates downloaded).
fn normal_dependencies_of(package: &str) -> BTreeSet<String> {
    let output = std::process::Command::new(env!("CARGO"))
        .args([
            "tree",
            "-p",
            package,
            "-e",
            "normal",
            "--prefix",
            "none",
            "--locked",
            "--offline",
        ])
        .current_dir(root())
        .output()
        .expect("cargo tree runs");
    assert!(
        output.status.success(),
        "cargo tree: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .skip(1)
        .filter_map(|line| line.split_whitespace().next())
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_workspace_has_the_domain_the_demo_and_the_console_as_crates() {
    let output = std::process::Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--locked",
            "--offline",
            "--no-deps",
        ])
        .current_dir(root())
        .output()
        .expect("cargo metadata runs");
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let members: BTreeSet<&str> = metadata["packages"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p["name"].as_str())
        .collect();
    for krate in [
        "pooldeck-domain",
        "pooldeck-demo",
        "pooldeck",
        "pooldeck-io",
    ] {
        assert!(members.contains(krate), "{krate} in {members:?}");
    }
}

#[test]
fn the_domain_crate_depends_on_no_runtime_client_terminal_or_http_crate() {
    let domain = normal_dependencies_of("pooldeck-domain");
    assert!(
        domain.contains("serde"),
        "the walk reads the graph: {domain:?}"
    );
    let found: Vec<_> = NEVER_IN_THE_DOMAIN
        .iter()
        .filter(|c| domain.contains(**c))
        .collect();
    assert!(found.is_empty(), "the domain depends on {found:?}");
    // The check can fail: the console's own graph holds every one of them.
    let console = normal_dependencies_of("pooldeck");
    for krate in ["tokio", "kube", "ratatui", "crossterm", "hyper", "arboard"] {
        assert!(console.contains(krate), "{krate} in the console's graph");
    }
}

/// Drawing reads what `update` derived: no file of `ui` parses a time or a duration, sorts,
/// or walks the fleet's objects or hosts (each would cost per frame, and a frame is drawn on
/// every change and every second).
#[test]
fn render_parses_no_time_sorts_nothing_and_scans_no_fleet() {
    let ui = root().join("crates/console/src/ui");
    let forbidden = [
        "time::parse",
        "duration::parse",
        ".sort(",
        ".sort_by",
        ".sort_unstable",
        ".hosts()",
        ".objects(",
    ];
    let mut found = Vec::new();
    for entry in std::fs::read_dir(&ui).expect("the ui directory") {
        let path = entry.expect("an entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if !name.ends_with(".rs") || name == "tests.rs" {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable");
        for word in forbidden {
            if text.contains(word) {
                found.push(format!("{name}: {word}"));
            }
        }
    }
    assert!(found.is_empty(), "render does work per frame: {found:?}");
}

/// A file's production lines as `shared/tools/prodlines.py` counts them: every line (blank
/// ones too), inline `#[cfg(test)]` modules aside.
fn production_lines(text: &str) -> usize {
    let parsed = syn::parse_file(text).expect("the file parses");
    let tests: usize = parsed
        .items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Mod(m) if is_test(&m.attrs) => {
                let (brace, _) = m.content.as_ref()?;
                let start = m
                    .attrs
                    .first()
                    .map_or(m.mod_token.span, |a| a.pound_token.span)
                    .start()
                    .line;
                Some(brace.span.close().end().line - start + 1)
            }
            _ => None,
        })
        .sum();
    text.split('\n').count() - tests
}

#[test]
fn no_file_has_more_than_400_production_lines() {
    let mut grown = Vec::new();
    for (_, path) in module_files() {
        let text = std::fs::read_to_string(&path).expect("a module file");
        let name = path
            .strip_prefix(root())
            .expect("under the workspace")
            .to_string_lossy()
            .into_owned();
        let lines = production_lines(&text);
        if lines > 400 {
            grown.push(format!("{name}: {lines} lines"));
        }
    }
    assert!(grown.is_empty(), "over 400 production lines: {grown:#?}");
}

/// Every `use` path of a file's top level, as segments (groups and globs spread out).
fn use_paths(items: &[syn::Item]) -> Vec<Vec<String>> {
    fn spread(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                spread(&p.tree, prefix, out);
                prefix.pop();
            }
            syn::UseTree::Name(n) => out.push([prefix.clone(), vec![n.ident.to_string()]].concat()),
            syn::UseTree::Rename(r) => {
                out.push([prefix.clone(), vec![r.ident.to_string()]].concat());
            }
            syn::UseTree::Glob(_) => out.push(prefix.clone()),
            syn::UseTree::Group(g) => {
                for tree in &g.items {
                    spread(tree, prefix, out);
                }
            }
        }
    }
    let mut out = Vec::new();
    for item in items {
        if let syn::Item::Use(u) = item
            && !is_test(&u.attrs)
        {
            spread(&u.tree, &mut Vec::new(), &mut out);
        }
    }
    out
}

/// The circles (strongly connected parts) of more than one file in each crate's graph of name
/// imports, each sorted, the largest first.
fn import_circles() -> Vec<Vec<String>> {
    let files = module_files();
    let crate_of = |module: &[String]| -> Vec<String> {
        match module.first() {
            Some(first)
                if LAYERS
                    .iter()
                    .any(|l| l.krate.is_some() && l.module == first) =>
            {
                vec![first.clone()]
            }
            _ => Vec::new(),
        }
    };
    let index: std::collections::HashMap<&[String], usize> = files
        .iter()
        .enumerate()
        .map(|(i, (module, _))| (module.as_slice(), i))
        .collect();
    let mut edges: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); files.len()];
    for (from, (module, path)) in files.iter().enumerate() {
        let text = std::fs::read_to_string(path).expect("a module file");
        let parsed = syn::parse_file(&text).expect("parses");
        let root = crate_of(module);
        for used in use_paths(&parsed.items) {
            let mut at: Vec<String> = match used.first().map(String::as_str) {
                Some("crate") => root.clone(),
                Some("self" | "super") => module.clone(),
                // A child module named without `self::`.
                Some(first)
                    if index
                        .contains_key([module.clone(), vec![first.into()]].concat().as_slice()) =>
                {
                    module.clone()
                }
                _ => continue,
            };
            for segment in used
                .iter()
                .skip(usize::from(used[0] == "crate" || used[0] == "self"))
            {
                if segment == "super" {
                    at.pop();
                } else {
                    at.push(segment.clone());
                }
            }
            // The longest prefix that is a module file.
            while !at.is_empty() && !index.contains_key(at.as_slice()) {
                at.pop();
            }
            if let Some(&to) = index.get(at.as_slice())
                && to != from
                && crate_of(&files[to].0) == root
            {
                edges[from].insert(to);
            }
        }
    }
    // Tarjan's strongly connected components.
    struct Walk<'e> {
        edges: &'e [BTreeSet<usize>],
        order: Vec<Option<usize>>,
        low: Vec<usize>,
        stack: Vec<usize>,
        on_stack: Vec<bool>,
        next: usize,
        found: Vec<Vec<usize>>,
    }
    fn visit(w: &mut Walk, v: usize) {
        w.order[v] = Some(w.next);
        w.low[v] = w.next;
        w.next += 1;
        w.stack.push(v);
        w.on_stack[v] = true;
        for &to in w.edges[v].clone().iter() {
            match w.order[to] {
                None => {
                    visit(w, to);
                    w.low[v] = w.low[v].min(w.low[to]);
                }
                Some(order) if w.on_stack[to] => w.low[v] = w.low[v].min(order),
                Some(_) => {}
            }
        }
        if Some(w.low[v]) == w.order[v] {
            let mut part = Vec::new();
            while let Some(top) = w.stack.pop() {
                w.on_stack[top] = false;
                part.push(top);
                if top == v {
                    break;
                }
            }
            w.found.push(part);
        }
    }
    let mut walk = Walk {
        edges: &edges,
        order: vec![None; files.len()],
        low: vec![0; files.len()],
        stack: Vec::new(),
        on_stack: vec![false; files.len()],
        next: 0,
        found: Vec::new(),
    };
    for v in 0..files.len() {
        if walk.order[v].is_none() {
            visit(&mut walk, v);
        }
    }
    let mut circles: Vec<Vec<String>> = walk
        .found
        .into_iter()
        .filter(|part| part.len() > 1)
        .map(|part| {
            let mut names: Vec<String> = part
                .into_iter()
                .map(|i| {
                    files[i]
                        .1
                        .strip_prefix(root())
                        .map_or_else(|_| files[i].1.clone(), Path::to_path_buf)
                        .to_string_lossy()
                        .into_owned()
                })
                .collect();
            names.sort();
            names
        })
        .collect();
    circles.sort_by_key(|c| std::cmp::Reverse(c.len()));
    circles
}

/// No circle of name imports of more than two files in any crate (a file names another with
/// `use crate::…`, `use super::…` or a child's name; `mod` declarations aside).
#[test]
fn no_circle_of_imports_has_more_than_two_files() {
    let circles = import_circles();
    let large: Vec<&Vec<String>> = circles.iter().filter(|c| c.len() > 2).collect();
    assert!(
        large.is_empty(),
        "circles of more than two files: {large:#?}"
    );
}
