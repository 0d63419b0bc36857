//! `pooldeck validate`: the configuration reference's rules over manifests, for people and CI.
//!
//! The checking ([`check`]) is separate from the printing ([`print_human`], [`print_json`]) so
//! tests and benchmarks run the same pipeline the command runs.

use std::collections::HashSet;
use std::io::IsTerminal;
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use crate::domain::model::ComputePool;
use crate::domain::rules::{self, Context, Fleet};
use crate::manifest::Position;

use super::inputs::{self, Input};

mod print;
mod read;
mod report;

use print::print_rules;
pub use print::{print_human, print_json};
use read::{excerpt, parse_inputs, pools_of};
pub use report::{
    Entry, INPUT_SYNTAX, INPUT_UNREADABLE, KIND_MISSING, KIND_NEAR_MISS, NO_OLD_MATCH,
    NOT_AN_OBJECT, Report, SKIPPED,
};

#[derive(Debug, Args)]
#[command(
    after_help = "Exit status: 0 when no finding is an error, 1 when any is, 2 when an input \
                  cannot be read or parsed.\n\nExamples:\n  pooldeck validate demo/manifests/\n  \
                  kubectl get cp -A -o yaml > fleet.yaml\n  pooldeck validate --existing fleet.yaml new-pool.yaml\n  \
                  pooldeck validate --old live.yaml --existing fleet.yaml edited.yaml\n  \
                  cat pool.yaml | pooldeck validate --format json -"
)]
pub struct ValidateArgs {
    /// Manifests to check: files, directories (searched for .yaml, .yml, .json), or - for stdin.
    #[arg(
        value_name = "FILE_OR_DIR_OR_-",
        required_unless_present = "list_rules"
    )]
    pub inputs: Vec<String>,

    /// Output format: human (located lines with excerpts) or json (one object on stdout).
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,

    /// The pool as it exists now: validate the input as an update of it (VIP immutability,
    /// existing worker pool names). Matched to inputs by namespace and name.
    #[arg(long, value_name = "FILE")]
    pub old: Option<String>,

    /// Other ComputePools that exist (files or directories, e.g. `kubectl get cp -A -o yaml`
    /// output), for the rules across pools such as unique VIPs. Repeatable.
    #[arg(long, value_name = "FILE_OR_DIR")]
    pub existing: Vec<String>,

    /// When to color human output. `auto` colors a terminal unless NO_COLOR is set.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

    /// Print every rule with its id, severity and reference section, then exit.
    #[arg(long)]
    pub list_rules: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Human,
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// Runs every rule over the inputs. `old` and `existing` are read for context only.
pub fn check(inputs: &[Input], old: &[Input], existing: &[Input]) -> Report {
    let mut report = Report::default();
    let parsed = parse_inputs(inputs, &mut report);
    let old_parsed = parse_inputs(old, &mut report);
    let existing_parsed = parse_inputs(existing, &mut report);
    report.files_read = inputs.len();

    let found = pools_of(&parsed, &mut report, true);
    let mut scratch = Report::default();
    let old_pools: Vec<ComputePool> = pools_of(&old_parsed, &mut scratch, false)
        .into_iter()
        .map(|f| f.pool)
        .collect();
    let input_identities: Vec<_> = found.iter().filter_map(|f| f.identity.clone()).collect();
    // Every pool that exists or is about to: the --existing ones (less any that are the very
    // documents being validated), then the inputs themselves, so inputs are checked against
    // each other too.
    let input_identities: HashSet<_> = input_identities.into_iter().collect();
    let mut fleet = Fleet::new(
        pools_of(&existing_parsed, &mut scratch, false)
            .into_iter()
            .filter(|f| {
                f.identity
                    .as_ref()
                    .is_none_or(|id| !input_identities.contains(id))
            })
            .map(|f| f.pool)
            .collect(),
    );
    let first_input = fleet.len();
    for f in &found {
        fleet.push(f.pool.clone());
    }

    for (i, f) in found.iter().enumerate() {
        report.pools_checked += 1;
        let old = old_pools.iter().find(|o| rules::same_object(o, &f.pool));
        let context = Context {
            old,
            fleet: &fleet,
            self_index: Some(first_input + i),
        };
        let mut findings = rules::validate(&f.pool, &f.issues, &context);
        if old.is_none() && !old_pools.is_empty() {
            findings.push(rules::Finding::new(
                &NO_OLD_MATCH,
                crate::domain::path::YamlPath::keys("metadata.name"),
                format!(
                    "--old holds no ComputePool {}; validated as a new pool",
                    f.pool.key()
                ),
            ));
        }
        let mut entries: Vec<Entry> = findings
            .into_iter()
            .map(|finding| {
                let position = f.object.locate(&finding.path);
                Entry {
                    file: f.file.to_owned(),
                    document: Some(f.object.document.index),
                    line: position.line,
                    column: position.column,
                    path: f.object.base.append(&finding.path).to_string(),
                    severity: finding.rule.severity,
                    rule: finding.rule.id,
                    message: finding.message,
                    section: finding.rule.section,
                    excerpt: excerpt(f.text, f.lines, position),
                }
            })
            .collect();
        entries.sort_by(|a, b| (a.line, a.column, b.severity).cmp(&(b.line, b.column, a.severity)));
        report.entries.extend(entries);
    }
    report
}

/// The command: read, check, print, exit.
pub fn run(args: &ValidateArgs) -> ExitCode {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if args.list_rules {
        let _ = print_rules(&mut out);
        return ExitCode::SUCCESS;
    }
    let (inputs, mut errors) = inputs::read_all(&args.inputs);
    let (old, old_errors) = inputs::read_all(args.old.as_slice());
    let (existing, existing_errors) = inputs::read_all(&args.existing);
    errors.extend(old_errors);
    errors.extend(existing_errors);

    let mut report = check(&inputs, &old, &existing);
    for error in errors {
        report.unreadable = true;
        report.problem(
            &INPUT_UNREADABLE,
            &error.name,
            Position::default(),
            error.message,
        );
    }
    let result = match args.format {
        Format::Json => print_json(&report, &mut out),
        Format::Human => {
            let color = match args.color {
                ColorChoice::Always => true,
                ColorChoice::Never => false,
                ColorChoice::Auto => {
                    std::io::stdout().is_terminal()
                        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                }
            };
            print_human(&report, color, &mut out)
        }
    };
    if let Err(e) = result
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        crate::say::complain!("pooldeck: cannot write the report: {e}");
        return ExitCode::from(2);
    }
    ExitCode::from(report.exit_status())
}
