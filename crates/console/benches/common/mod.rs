//! What every benchmark prints beside its figures: the machine it ran on, and the memory
//! a process holds; the release binary and a child's time and peak memory.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// CPU model, core count, OS and architecture.
pub fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    format!(
        "{cpu}, {cores} cores, {} {}",
        std::env::consts::OS,
        std::env::consts::ARCH
    )
}

/// The process's resident memory, from /proc (none where there is no /proc).
#[allow(dead_code)]
pub fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

/// The release binary, built if needed; `POOLDECK_BENCH_BINARY` names another build's
/// instead (an older one, to compare the two on the same machine in one session).
#[allow(dead_code)]
pub fn binary() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("POOLDECK_BENCH_BINARY") {
        return Some(PathBuf::from(path));
    }
    let status = Command::new(env!("CARGO"))
        .args(["build", "--release", "--quiet", "--bin", "pooldeck"])
        .status()
        .ok()?;
    if !status.success() {
        return None;
    }
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target"),
        PathBuf::from,
    );
    let path = target.join("release/pooldeck");
    path.exists().then_some(path)
}

/// The peak resident memory (VmHWM) of a running process, in bytes.
#[allow(dead_code)]
pub fn high_water(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// A child's wall time, peak resident memory (its high-water mark, read while it runs) and
/// bytes written.
#[allow(dead_code)]
pub fn measured(mut command: Command) -> Option<(Duration, u64, usize)> {
    let start = Instant::now();
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let mut stdout = child.stdout.take()?;
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stdout, &mut out);
        out.len()
    });
    let pid = child.id();
    let mut peak = 0;
    let status = loop {
        if let Some(hwm) = high_water(pid) {
            peak = peak.max(hwm);
        }
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(_) => return None,
        }
    };
    let took = start.elapsed();
    let out = reader.join().unwrap_or(0);
    status.success().then_some((took, peak, out))
}
