//! `pooldeck new`: the console opened on the wizard alone, on a new pool or on the first
//! ComputePool (and ScalingPolicy) of `--from FILE`, kept whole (unknown fields included).
//! Review's `w` writes the manifest to `-o FILE`. With a reachable cluster the rules also see
//! its pools and Review dry-runs and applies; without one the rules still check the draft.
//! `--drafts` lists the drafts kept, `--resume` opens the wizard on one, `--discard` removes
//! one.

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
    /// List the drafts kept (namespace, name, new or edit, age), then exit.
    #[arg(long, conflicts_with_all = ["from", "resume", "discard", "namespace"])]
    pub drafts: bool,
    /// Open the wizard on a kept draft: NS/NAME as --drafts lists it (NAME alone when one
    /// draft has it). An edit's draft opens against the live pool once it is read.
    #[arg(long, value_name = "NS/NAME", conflicts_with_all = ["from", "discard", "namespace"])]
    pub resume: Option<String>,
    /// Remove a kept draft (NS/NAME as --drafts lists it), then exit.
    #[arg(long, value_name = "NS/NAME", conflicts_with_all = ["from", "namespace"])]
    pub discard: Option<String>,
}

/// `--drafts`: the drafts kept, newest first, as a table (exit 0; none is not an error).
pub fn list_drafts() -> ExitCode {
    let Some(dir) = crate::drafts::existing_dir() else {
        crate::say::say!("no drafts kept");
        return ExitCode::SUCCESS;
    };
    let listed = crate::drafts::list(&dir, usize::MAX);
    if listed.is_empty() {
        crate::say::say!("no drafts kept in {}", dir.display());
        return ExitCode::SUCCESS;
    }
    let now = std::time::SystemTime::now();
    let mut rows = vec![[
        "DRAFT".to_owned(),
        "FOR".to_owned(),
        "AGE".to_owned(),
        "FILE".to_owned(),
    ]];
    for entry in &listed {
        let age = entry
            .modified
            .and_then(|m| now.duration_since(m).ok())
            .and_then(|d| chrono::TimeDelta::from_std(d).ok())
            .map(crate::domain::words::age)
            .unwrap_or_else(|| "?".into());
        let (id, aim) = match &entry.draft {
            Ok(saved) => (saved.id(), saved.aim.word().to_owned()),
            Err(_) => ("(unreadable)".to_owned(), "?".to_owned()),
        };
        rows.push([
            crate::domain::inert::line(&id).into_owned(),
            crate::domain::inert::line(&aim).into_owned(),
            age,
            crate::domain::inert::line(&entry.file).into_owned(),
        ]);
    }
    let widths: Vec<usize> = (0..4)
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    for row in rows {
        crate::say::say!(
            "{:<w0$}  {:<w1$}  {:<w2$}  {}",
            row[0],
            row[1],
            row[2],
            row[3],
            w0 = widths[0],
            w1 = widths[1],
            w2 = widths[2]
        );
    }
    // Why a file could not be read, after the table (--discard FILE removes one).
    for entry in &listed {
        if let Err(why) = &entry.draft {
            crate::say::say!("{}", crate::domain::inert::line(&why.to_string()));
        }
    }
    ExitCode::SUCCESS
}

/// The kept draft a name given on the command line means: `NS/NAME` (or the draft's file
/// name), or a NAME only one draft has. Said on stderr when none or several.
pub fn find_draft(asked: &str) -> Result<crate::app::drafts::Kept, NoDraft> {
    let kept = crate::runtime::kept_drafts(usize::MAX);
    let matching: Vec<&crate::app::drafts::Kept> = kept
        .iter()
        .filter(|k| {
            k.saved.id() == asked
                || k.file == asked
                || (!asked.contains('/') && k.saved.name() == asked)
        })
        .collect();
    match matching.as_slice() {
        [one] => Ok((*one).clone()),
        [] => Err(crate::drafts::existing_dir()
            .into_iter()
            .flat_map(|dir| crate::drafts::list(&dir, usize::MAX))
            .find(|l| l.file == asked)
            .and_then(|l| l.draft.err())
            .map_or_else(|| NoDraft::Unknown(asked.to_owned()), NoDraft::Unloaded)),
        several => Err(NoDraft::Several {
            asked: asked.to_owned(),
            files: several.iter().map(|k| k.file.clone()).collect(),
        }),
    }
}

/// Why a draft named on the command line cannot be taken or discarded.
#[derive(Debug, thiserror::Error)]
pub enum NoDraft {
    #[error("no draft named {0}; pooldeck new --drafts lists them")]
    Unknown(String),
    #[error(transparent)]
    Unloaded(crate::drafts::Unloaded),
    #[error("{} drafts are named {asked}: name one by its file ({})", files.len(), files.join(", "))]
    Several { asked: String, files: Vec<String> },
    #[error(transparent)]
    Directory(#[from] crate::domain::error::DirError),
    #[error(transparent)]
    Unremoved(#[from] crate::domain::draft::Unremoved),
}

/// `--discard`: the draft's file removed (exit 0), or why not (exit 1).
pub fn discard_draft(asked: &str) -> ExitCode {
    // A file that cannot be read as a draft is discarded by its file name.
    let unreadable = crate::drafts::existing_dir().filter(|dir| {
        crate::drafts::list(dir, usize::MAX)
            .iter()
            .any(|l| l.file == asked && l.draft.is_err())
    });
    let found = match unreadable {
        Some(dir) => crate::drafts::discard(&dir, asked)
            .map(|()| asked.to_owned())
            .map_err(NoDraft::from),
        None => find_draft(asked).and_then(|kept| {
            let dir = crate::drafts::dir()?;
            crate::drafts::discard(&dir, &kept.file)?;
            Ok(format!("{} ({})", kept.saved.id(), kept.file))
        }),
    };
    match found {
        Ok(what) => {
            crate::say::say!("discarded the draft {}", crate::domain::inert::line(&what));
            ExitCode::SUCCESS
        }
        Err(why) => {
            crate::say::complain!("pooldeck: {}", crate::domain::inert::line(&why.to_string()));
            ExitCode::from(1)
        }
    }
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
    if let Some(asked) = &args.resume {
        let kept = find_draft(asked).map_err(|why| {
            crate::say::complain!("pooldeck: {}", crate::domain::inert::line(&why.to_string()));
            ExitCode::from(1)
        })?;
        return Ok(WizardStart {
            draft: Some(kept.saved.draft.clone()),
            namespace: None,
            output: args.output.clone(),
            resume: Some(kept),
        });
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
            // The file's namespace goes into watch paths: checked as a named one is.
            if let Some(problem) = (!draft.namespace().is_empty())
                .then(|| crate::domain::rules::names::namespace_problem(draft.namespace()))
                .flatten()
            {
                return Err(refuse(format!("{}: {problem}", path.display())));
            }
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
        resume: None,
    })
}
