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
    /// The pool's namespace (its Project's); default: the file's, else the context's. It can
    /// be changed on General.
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

/// The wizard's start, or the exit status when the arguments cannot be used. `namespace` is
/// `-n` as given to `new`, else the console's first `-n`.
pub fn start(args: &NewArgs, namespace: Option<&str>) -> Result<WizardStart, ExitCode> {
    let refuse = |why: String| {
        crate::say::complain!("pooldeck: {why}");
        ExitCode::from(2)
    };
    if let Some(problem) = namespace.and_then(crate::domain::rules::names::namespace_problem) {
        return Err(refuse(problem));
    }
    if let Some(output) = &args.output {
        crate::files::writable(output)
            .map_err(|e| refuse(format!("cannot write {}: {e}", output.display())))?;
    }
    let draft = match &args.from {
        None => None,
        Some(path) => {
            let text = crate::files::read_text(path, crate::files::SMALL_FILE_BYTES)
                .map_err(|e| refuse(format!("cannot read {}: {e}", path.display())))?;
            let objects: Vec<Value> = crate::manifest::parse(&text)
                .map_err(|e| refuse(format!("{}: {e}", path.display())))?
                .iter()
                .flat_map(|d| d.objects().into_iter().map(|o| o.value))
                .collect();
            let draft = Draft::from_objects(&objects)
                .ok_or_else(|| refuse(format!("{} holds no ComputePool", path.display())))?;
            // As kubectl does: a namespace asked for that the file contradicts is refused,
            // not silently chosen between.
            if let Some(asked) = namespace
                && !draft.namespace().is_empty()
                && draft.namespace() != asked
            {
                return Err(refuse(format!(
                    "{} puts the pool in namespace {}, but -n asks for {asked}: pass -n {} or \
                     change the file",
                    path.display(),
                    draft.namespace(),
                    draft.namespace()
                )));
            }
            Some(draft)
        }
    };
    Ok(WizardStart {
        draft,
        namespace: namespace.map(str::to_owned),
        output: args.output.clone(),
    })
}
