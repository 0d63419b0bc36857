//! `pooldeck new`: the console opened on the wizard alone, on a new pool or on the first
//! ComputePool (and ScalingPolicy) of `--from FILE`, kept whole (unknown fields included).
//! Review's `w` writes the manifest to `-o FILE`. With a reachable cluster the rules also see
//! its pools and Review dry-runs and applies; without one the rules still check the draft.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use serde_json::Value;

use crate::domain::draft::Draft;
use crate::runtime::WizardStart;

#[derive(Debug, Args)]
pub struct NewArgs {
    /// The pool's namespace (its Project's), for a new pool (default: default).
    #[arg(long, short, value_name = "NS")]
    pub namespace: Option<String>,
    /// Start from the first ComputePool of this manifest (and its ScalingPolicy, if any).
    #[arg(long, value_name = "FILE")]
    pub from: Option<PathBuf>,
    /// Where Review's `w` writes the manifest.
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// The kubeconfig context (default: the current one).
    #[arg(long, value_name = "NAME")]
    pub context: Option<String>,
    /// The kubeconfig (default: KUBECONFIG, then ~/.kube/config).
    #[arg(long, value_name = "PATH")]
    pub kubeconfig: Option<PathBuf>,
}

/// The wizard's start, or the exit status when the arguments cannot be used.
pub fn start(args: &NewArgs) -> Result<WizardStart, ExitCode> {
    let refuse = |why: String| {
        crate::say::complain!("pooldeck: {why}");
        ExitCode::from(2)
    };
    if let Some(problem) = args
        .namespace
        .as_deref()
        .and_then(crate::domain::rules::names::namespace_problem)
    {
        return Err(refuse(problem));
    }
    if let Some(output) = &args.output {
        crate::files::writable(output)
            .map_err(|e| refuse(format!("cannot write {}: {e}", output.display())))?;
    }
    let draft = match &args.from {
        None => Draft::new(args.namespace.as_deref().unwrap_or("default")),
        Some(path) => {
            let text = crate::files::read_text(path, crate::files::SMALL_FILE_BYTES)
                .map_err(|e| refuse(format!("cannot read {}: {e}", path.display())))?;
            let objects: Vec<Value> = crate::manifest::parse(&text)
                .map_err(|e| refuse(format!("{}: {e}", path.display())))?
                .iter()
                .flat_map(|d| d.objects().into_iter().map(|o| o.value))
                .collect();
            Draft::from_objects(&objects)
                .ok_or_else(|| refuse(format!("{} holds no ComputePool", path.display())))?
        }
    };
    Ok(WizardStart {
        draft,
        output: args.output.clone(),
    })
}
