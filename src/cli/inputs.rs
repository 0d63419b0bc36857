//! Reading the files a command is given: `-` for standard input, files, and directories
//! (searched recursively for `.yaml`, `.yml` and `.json`, in name order).

use std::io::Read;
use std::path::{Path, PathBuf};

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
pub fn read_all(arguments: &[String]) -> (Vec<Input>, Vec<InputError>) {
    let mut inputs = Vec::new();
    let mut errors = Vec::new();
    for argument in arguments {
        if argument == "-" {
            let mut bytes = Vec::new();
            match std::io::stdin()
                .take(MAX_INPUT_BYTES as u64 + 1)
                .read_to_end(&mut bytes)
            {
                Ok(_) => inputs.push(Input {
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
                let mut files = Vec::new();
                if let Err(e) = collect_dir(path, &mut files, 0) {
                    errors.push(InputError {
                        name: argument.clone(),
                        message: format!("cannot list directory: {e}"),
                    });
                }
                if files.is_empty() {
                    errors.push(InputError {
                        name: argument.clone(),
                        message: "no .yaml, .yml or .json files in this directory".into(),
                    });
                }
                files.sort();
                for file in files {
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
    let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    if size > MAX_INPUT_BYTES as u64 {
        errors.push(InputError {
            name,
            message: format!(
                "the file is {:.1} MiB; pooldeck reads at most {} MiB per file: split it",
                size as f64 / (1024.0 * 1024.0),
                MAX_INPUT_BYTES / (1024 * 1024)
            ),
        });
        return;
    }
    match std::fs::read(path) {
        Ok(bytes) => inputs.push(Input {
            identity: std::fs::canonicalize(path).ok(),
            name,
            bytes,
        }),
        Err(e) => errors.push(InputError {
            name,
            message: format!("cannot read: {e}"),
        }),
    }
}

fn collect_dir(dir: &Path, files: &mut Vec<PathBuf>, depth: usize) -> std::io::Result<()> {
    if depth > 32 {
        return Ok(());
    }
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        let file_type = entry.file_type()?;
        if file_type.is_dir() {
            collect_dir(&path, files, depth + 1)?;
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| matches!(e, "yaml" | "yml" | "json"))
        {
            files.push(path);
        }
    }
    Ok(())
}
