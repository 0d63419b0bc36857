//! The command line: clap definitions and dispatch. Each subcommand lives in its own module
//! and returns an exit status; nothing here panics on user input.

pub mod act;
mod args;
pub mod bundle;
mod complete;
pub mod demo;
mod describe;
pub mod doctor;
mod ecosystem;
mod edit;
pub mod get;
mod inherit;
mod reach;
mod values;
pub(crate) use values::{BadValue, parse_duration, parse_speed, possible, possible_as};
pub mod inputs;
pub mod new;
pub mod record;
mod settle;
mod stream;
pub mod timeline;
pub mod validate;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use self::reach::audit_log;
pub(crate) use self::reach::{
    acting, block_on, check_namespaces, connect_or_exit, connect_to_read, hub_list, hubs_named,
    reach_named, selector_arg, several_hubs,
};

#[derive(Debug, Parser)]
#[command(
    name = "pooldeck",
    version,
    about = "A terminal console for operators of PaletteAI Compute Pools",
    long_about = "pooldeck knows what a PaletteAI Compute Pool is. Without a subcommand it \
                  opens the live console on the current kubeconfig context (--demo: on the \
                  embedded demo cluster): pools, evaluations, hosts, events and projects, \
                  streamed through watches, with each pool's detail in eight tabs, and fixes \
                  behind confirmations (pause, resume, safe delete, unblocking a stuck \
                  deletion). The subcommands validate manifests against the configuration \
                  reference's rules, diagnose pools as the troubleshooting guide does (doctor), \
                  list the same rows headless (get), write a pool in the wizard (new), pause, \
                  resume or delete pools from scripts, serve the demo cluster and record a hub."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Open the console on the embedded demo cluster, playing SCENARIO (default: fleet).
    #[arg(long, value_name = "SCENARIO", num_args = 0..=1, default_missing_value = "fleet")]
    pub demo: Option<String>,
    /// Open the console on a support bundle (`pooldeck bundle`), served read-only as it was
    /// taken; of a bundle of several hubs, the one --context names (default: the first).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["demo", "tour", "all_contexts"])]
    pub bundle: Option<std::path::PathBuf>,
    /// The guided tour on the demo cluster: the troubleshooting guide's sections as chapters,
    /// each on its scenario, with a caption saying what to look at and which keys to press.
    #[arg(long)]
    pub tour: bool,
    /// The tour's chapter to start on (1-8; default: where the last tour stopped).
    #[arg(long, value_name = "N", requires = "tour")]
    pub chapter: Option<usize>,
    /// Scenario speed for --demo (2 plays twice as fast).
    #[arg(long, default_value_t = 1.0, allow_negative_numbers = true, value_parser = parse_speed)]
    pub speed: f64,
    /// Colour theme: default-dark, light, high-contrast, monochrome (NO_COLOR forces monochrome).
    #[arg(long, value_name = "NAME")]
    pub theme: Option<String>,
    /// The kubeconfig context (default: the current one). Repeated, the console watches
    /// each of these hubs at once (the fleet view: a HUB column names each row's hub).
    #[arg(long, value_name = "NAME", conflicts_with = "all_contexts")]
    pub context: Vec<String>,
    /// The console watches every context of the kubeconfig at once (the fleet view).
    #[arg(long)]
    pub all_contexts: bool,
    /// The kubeconfig (default: KUBECONFIG, then ~/.kube/config, then in-cluster).
    #[arg(long, value_name = "PATH")]
    pub kubeconfig: Option<std::path::PathBuf>,
    /// Namespace to show (repeatable); default: the context's namespace.
    #[arg(long, short, value_name = "NS", conflicts_with = "all_namespaces")]
    pub namespace: Vec<String>,
    /// Show every namespace.
    #[arg(long, short = 'A')]
    pub all_namespaces: bool,
    /// Send no request that changes anything, not even a dry run (the console and every
    /// command; `readonly: true` in the settings file does the same, per context or for all).
    #[arg(long, global = true)]
    pub readonly: bool,
    /// Where to append the audit log (default: $XDG_STATE_HOME/pooldeck/audit.log, else
    /// ~/.local/state/pooldeck/audit.log).
    #[arg(long, global = true, value_name = "PATH")]
    pub audit_log: Option<std::path::PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check ComputePool manifests against the configuration reference's rules.
    Validate(validate::ValidateArgs),
    /// List pools, evaluations, hosts, events, projects, tenants, scaling policies,
    /// AIWorkloads, profile bundles or computes from a cluster, live.
    Get(get::GetArgs),
    /// Diagnose pools as the troubleshooting guide does: what is wrong, the evidence, the
    /// likely cause, the next step. Exit 0 nothing wrong, 1 an error-level finding, 2 the
    /// cluster could not be read.
    Doctor(doctor::DoctorArgs),
    /// The embedded demo cluster: a Kubernetes-compatible API on 127.0.0.1 with scenarios.
    Demo(demo::DemoArgs),
    /// Record a cluster's Compute Pool resources to a file the demo cluster can replay.
    Record(record::RecordArgs),
    /// Write a support bundle: the pools and what surrounds them, the controller's log, the
    /// timelines and the doctor's findings in one file (secrets redacted), for someone who
    /// cannot reach the hub; `demo serve --bundle` serves it back.
    Bundle(bundle::BundleArgs),
    /// Pause reconciliation of Compute Pools (the controller.spectrocloud.com/pause label).
    Pause(act::ActArgs),
    /// Resume reconciliation of paused Compute Pools (removes the pause label).
    Resume(act::ActArgs),
    /// Delete a Compute Pool safely: impact shown, dry run first, the name typed to confirm.
    Delete(act::DeleteArgs),
    /// Unblock a deletion that does not complete, as the troubleshooting guide does: the
    /// AIWorkloads that still reference the pool first, then (once they have stayed gone,
    /// watched meanwhile) its finalizer; each with its plan, dry run and the name typed.
    Unblock(act::UnblockArgs),
    /// Write a Compute Pool in the wizard (from a manifest with --from); apply it, or write it
    /// out with -o FILE. Works without a cluster (no dry run or apply then).
    New(new::NewArgs),
    /// Describe a Compute Pool as a page to read: spec, status with each condition
    /// explained, hosts, evaluation, the doctor's findings, recent events (or an object a
    /// pool refers to: what the guide reads of it first).
    Describe(describe::DescribeArgs),
    /// What happened to a pool and what pooldeck did, on one time axis: conditions, scaling,
    /// events, hosts, spec changes, the controller's log and the audit log (also of a pool
    /// already gone, from what pooldeck kept).
    Timeline(timeline::TimelineArgs),
    /// Edit a Compute Pool as YAML in your editor (KUBE_EDITOR, VISUAL, EDITOR, vi): checked
    /// with the reference's rules, reopened with the findings until valid, then its changes,
    /// a dry run, a confirmation and a replace of the version read.
    Edit(edit::EditArgs),
    /// Print the shell completion script: `source <(pooldeck completion bash)`.
    Completion(ecosystem::CompletionArgs),
    /// Write the manual pages, one per command, into DIR (without DIR: pooldeck(1) on
    /// standard output).
    Man(ecosystem::ManArgs),
}

/// Runs the program with the process's arguments.
pub fn main() -> ExitCode {
    // The shell asking what completes the words typed (`COMPLETE=bash`): answered, then out.
    clap_complete::CompleteEnv::with_factory(complete::completable).complete();
    let mut cli = match parse() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    if let Some(why) = inherit::flags_refused(&cli) {
        crate::say::complain!("pooldeck: {why}");
        return ExitCode::from(2);
    }
    if let Err(why) = inherit::inherit(&mut cli) {
        crate::say::complain!("pooldeck: {why}");
        return ExitCode::from(2);
    }
    let global = act::Global {
        read_only: cli.readonly,
        audit_log: cli.audit_log.clone(),
    };
    match &cli.command {
        Some(Command::Pause(args)) => act::pause_or_resume(act::Verb::Pause, args, &global),
        Some(Command::Resume(args)) => act::pause_or_resume(act::Verb::Resume, args, &global),
        Some(Command::Delete(args)) => act::delete(args, &global),
        Some(Command::Unblock(args)) => act::unblock(args, &global),
        Some(Command::Validate(args)) => validate::run(args),
        Some(Command::Get(args)) => get::run(args),
        Some(Command::Doctor(args)) => doctor::run(args),
        Some(Command::Demo(args)) => demo::run(args),
        Some(Command::Record(args)) => record::run(args),
        Some(Command::Bundle(args)) => bundle::run(args),
        Some(Command::Describe(args)) => describe::run(args),
        Some(Command::Timeline(args)) => timeline::run(args),
        Some(Command::Edit(args)) => edit::run(args, &global),
        Some(Command::Completion(args)) => ecosystem::completion(args),
        Some(Command::Man(args)) => ecosystem::man(args),
        // The console's flags given before `new` count as if given after it.
        Some(Command::New(args)) if args.drafts => new::list_drafts(),
        Some(Command::New(args)) if args.discard.is_some() => {
            new::discard_draft(args.discard.as_deref().unwrap_or_default())
        }
        Some(Command::New(args)) => {
            let namespace = args
                .namespace
                .as_deref()
                .or(cli.namespace.first().map(String::as_str));
            match new::start(args, namespace) {
                Ok(start) => {
                    let target = crate::sources::connection::Target {
                        kubeconfig: args.kubeconfig.clone().or_else(|| cli.kubeconfig.clone()),
                        context: args
                            .context
                            .clone()
                            .or_else(|| cli.context.first().cloned()),
                        inline: None,
                    };
                    console(&cli, target, Some(start), Vec::new(), None)
                }
                Err(code) => code,
            }
        }
        None if cli.bundle.is_some() => bundle::console::open(&cli),
        None => {
            // Several hubs: each named once and known to the kubeconfig, before any is asked.
            let hubs = match hubs_named(&cli.kubeconfig, &cli.context, cli.all_contexts, 2) {
                Ok(hubs) => hubs,
                Err(code) => return code,
            };
            let target = crate::sources::connection::Target {
                kubeconfig: cli.kubeconfig.clone(),
                context: hubs.first().cloned(),
                inline: None,
            };
            console(&cli, target, None, hubs, None)
        }
    }
}

/// The command line as clap reads it (named `kubectl pooldeck` when run as kubectl's
/// plugin); help and version printed, a usage error said (the exit status then).
fn parse() -> Result<Cli, ExitCode> {
    // Run as kubectl's plugin, the usage lines name it as it is typed.
    let plugin = std::env::args_os()
        .next()
        .and_then(|first| {
            std::path::Path::new(&first)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
        })
        .is_some_and(|name| name.starts_with("kubectl-pooldeck"));
    // Plain styles: a usage error then holds what was typed as it was (escaped below), not
    // stripped along with clap's own colours.
    let command = <Cli as clap::CommandFactory>::command().styles(clap::builder::Styles::plain());
    let command = if plugin {
        command.bin_name("kubectl pooldeck")
    } else {
        command
    };
    let parsed = command
        .try_get_matches_from(args::unswallowed(std::env::args_os()))
        .and_then(|matches| <Cli as clap::FromArgMatches>::from_arg_matches(&matches));
    match parsed {
        Ok(cli) => Ok(cli),
        Err(error) => {
            // Help and version are clap's to print; a usage error echoes what was typed, so
            // it is said through the sanitiser (an argument holding an escape sequence would
            // set the terminal's title) and exits 2.
            if !error.use_stderr() {
                let _ = error.print();
                return Err(ExitCode::SUCCESS);
            }
            crate::say::complain!("{}", error.render().ansi().to_string().trim_end());
            Err(ExitCode::from(2))
        }
    }
}

/// The theme --theme names, else the settings file's, else the default (NO_COLOR:
/// monochrome); what could not be read added to `warnings`.
fn theme_of(cli: &Cli, warnings: &mut Vec<String>) -> crate::theme::Theme {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let (mut theme, warning) = crate::theme::Theme::choose(cli.theme.as_deref(), no_color);
    warnings.extend(warning);
    // Without --theme, the user's settings file may name one.
    if cli.theme.is_none() && !no_color {
        let settings = crate::theme::config_path().map(|path| {
            let text = crate::files::read_text(&path, crate::files::SMALL_FILE_BYTES);
            (path, text)
        });
        match settings {
            Some((_, Ok(text))) => {
                let read = |path: &str| {
                    crate::files::read_text(
                        std::path::Path::new(path),
                        crate::files::SMALL_FILE_BYTES,
                    )
                };
                let (chosen, warning) = crate::theme::from_config(&text, &read);
                if let Some(chosen) = chosen {
                    theme = chosen;
                }
                warnings.extend(warning);
            }
            Some((_, Err(crate::files::ReadError::NotFound))) | None => {}
            Some((path, Err(e))) => warnings.push(format!(
                "the settings file {} cannot be read ({e}); using the default theme",
                path.display()
            )),
        }
    }
    theme
}

/// The console, on the cluster (or the demo, or a bundle), or on the wizard alone (`pooldeck
/// new`).
fn console(
    cli: &Cli,
    target: crate::sources::connection::Target,
    wizard: Option<crate::runtime::WizardStart>,
    hubs: Vec<String>,
    bundle: Option<(crate::demo::scenario::Scenario, String)>,
) -> ExitCode {
    if let Err(code) = check_namespaces(&cli.namespace, 2) {
        return code;
    }
    // Warnings are said inside the console, where they are seen, not printed before
    // the alternate screen hides them.
    let mut warnings = Vec::new();
    let theme = theme_of(cli, &mut warnings);
    let (settings, settings_warnings) = crate::settings::Settings::load();
    // Said on standard error too: a settings file that makes the console read-only is
    // still said once the console has closed its screen.
    for warning in &settings_warnings {
        crate::say::complain!("pooldeck: {warning}");
    }
    warnings.extend(settings_warnings);
    let audit = audit_log(cli.audit_log.clone(), &settings);
    if let Err(e) = &audit {
        warnings.push(format!(
            "the audit log cannot be placed ({e}): nothing that changes the hub will be sent; \
             name one with --audit-log PATH"
        ));
    }
    let depth = crate::theme::Depth::detect(
        std::env::var("COLORTERM").ok().as_deref(),
        std::env::var("TERM").ok().as_deref(),
    );
    let mut theme = theme.for_depth(depth);
    let env = |name: &str| std::env::var(name).ok();
    theme.ascii = !crate::theme::Theme::utf8_locale(
        env("LC_ALL").as_deref(),
        env("LC_CTYPE").as_deref(),
        env("LANG").as_deref(),
    );
    let namespaces = if cli.all_namespaces {
        Some(crate::app::ports::Namespaces::All)
    } else if cli.namespace.is_empty() {
        None
    } else {
        Some(crate::app::ports::Namespaces::Only(cli.namespace.clone()))
    };
    crate::runtime::run(crate::runtime::ConsoleOptions {
        target,
        namespaces,
        demo: cli.demo.clone(),
        speed: cli.speed,
        theme,
        warnings,
        basic_colours: depth == crate::theme::Depth::Ansi16,
        acting: crate::runtime::port::Acting {
            read_only: cli.readonly,
            audit,
            settings,
            frozen: bundle.as_ref().map(|(_, why)| why.clone()),
        },
        bundle: bundle.map(|(scenario, _)| scenario),
        wizard,
        tour: cli.tour.then_some(cli.chapter),
        hubs: if hubs.len() > 1 { hubs } else { Vec::new() },
    })
}
