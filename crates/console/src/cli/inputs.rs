//! Reading the files a command is given: `-` for standard input, files, and directories
//! (searched recursively for `.yaml`, `.yml` and `.json`, in name order).

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::files;
use crate::manifest::MAX_INPUT_BYTES;

/// One input's bytes, with the name to show for it.
#[derive(Debug)]
pub struct Input {
    pub name: String,
    /// Canonical path, to recognise the same file given twice; `None` for standard input.
    pub identity: Option<PathBuf>,
    pub bytes: Vec<u8>,
}

/// An input that could not be read.
#[derive(Debug)]
pub struct InputError {
    pub name: String,
    pub message: String,
}

/// Expands and reads every argument. Unreadable ones come back as errors; the rest are read.
/// Only regular files and standard input are read, each at most [`MAX_INPUT_BYTES`].
pub fn read_all(arguments: &[String]) -> (Vec<Input>, Vec<InputError>) {
    let mut inputs = Vec::new();
    let mut errors = Vec::new();
    for argument in arguments {
        if argument == "-" {
            match files::read_limited(std::io::stdin().lock(), MAX_INPUT_BYTES as u64) {
                Ok(bytes) => inputs.push(Input {
                    name: "<stdin>".into(),
                    identity: None,
                    bytes,
                }),
                Err(e) => errors.push(InputError {
                    name: "<stdin>".into(),
                    message: format!("cannot read standard input: {e}"),
                }),
            }
            continue;
        }
        let path = Path::new(argument);
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => {
                let mut found = Vec::new();
                let mut visited = HashSet::new();
                match collect_dir(path, &mut found, &mut errors, &mut visited, 0) {
                    Err(e) => errors.push(InputError {
                        name: argument.clone(),
                        message: format!("cannot list the directory: {e}"),
                    }),
                    Ok(()) if found.is_empty() => errors.push(InputError {
                        name: argument.clone(),
                        message: "no .yaml, .yml or .json files in this directory".into(),
                    }),
                    Ok(()) => {}
                }
                found.sort();
                for file in found {
                    read_file(&file, &mut inputs, &mut errors);
                }
            }
            Ok(_) => read_file(path, &mut inputs, &mut errors),
            Err(e) => errors.push(InputError {
                name: argument.clone(),
                message: match e.kind() {
                    std::io::ErrorKind::NotFound => "no such file or directory".into(),
                    _ => format!("cannot read: {e}"),
                },
            }),
        }
    }
    (inputs, errors)
}

fn read_file(path: &Path, inputs: &mut Vec<Input>, errors: &mut Vec<InputError>) {
    let name = path.display().to_string();
    match files::read_bounded(path, MAX_INPUT_BYTES as u64) {
        Ok(bytes) => inputs.push(Input {
            identity: std::fs::canonicalize(path).ok(),
            name,
            bytes,
        }),
        Err(e @ files::ReadError::NotAFile { .. }) => errors.push(InputError {
            name,
            message: format!("cannot read: {e}; give a file, or - to read standard input"),
        }),
        Err(e) => errors.push(InputError {
            name,
            message: format!("cannot read: {e}"),
        }),
    }
}

fn manifest_name(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| matches!(e, "yaml" | "yml" | "json"))
}

/// Finds the manifests under a directory: regular files named `.yaml`, `.yml` or `.json`,
/// following links to directories once each (a link loop ends there). A FIFO, device or broken
/// link with a manifest's name is reported, never opened.
fn collect_dir(
    dir: &Path,
    found: &mut Vec<PathBuf>,
    errors: &mut Vec<InputError>,
    visited: &mut HashSet<PathBuf>,
    depth: usize,
) -> std::io::Result<()> {
    if depth > 32 || !visited.insert(std::fs::canonicalize(dir)?) {
        return Ok(());
    }
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        let followed = match entry.file_type()? {
            t if t.is_symlink() => std::fs::metadata(&path).map(|m| m.file_type()),
            t => Ok(t),
        };
        match followed {
            Ok(t) if t.is_dir() => {
                if let Err(e) = collect_dir(&path, found, errors, visited, depth + 1) {
                    errors.push(InputError {
                        name: path.display().to_string(),
                        message: format!("cannot list the directory: {e}"),
                    });
                }
            }
            Ok(t) if t.is_file() && manifest_name(&path) => found.push(path),
            _ if !manifest_name(&path) => {}
            Ok(_) => errors.push(InputError {
                name: path.display().to_string(),
                message: format!(
                    "skipped: {}",
                    files::regular_file(&path)
                        .err()
                        .map_or_else(|| "not a regular file".to_owned(), |e| e.to_string())
                ),
            }),
            Err(e) => errors.push(InputError {
                name: path.display().to_string(),
                message: format!("skipped: a link to nothing readable ({e})"),
            }),
        }
    }
    Ok(())
}
