//! `cargo xtask bench-stream [--clients N] [--seconds S]`: one `netcode-lab serve` (release) streaming 60 Hz to N
//! headless recorders (`netcode-lab record`, default 30) at once for S seconds (default 60) on loopback.
//!
//! ```text
//!  netcode-lab serve ──WebSocket──► N × netcode-lab record --rate 60 --seconds S ─► N traces
//!     │ /proc/PID/stat: user + system CPU over the run ÷ wall time = share of one core
//!     └ every trace: snapshots arrived ÷ (60 · S);  drift = the fastest (arrival − serverTime) of the last 5 s
//!                    minus that of the first 5 s (the server's send clock against the client's, over the run)
//! ```
//! Goals (printed beside each figure): every client ≥ 99.9 % of its snapshots, drift < 1 ms, server < 25 % of
//! one core. A bench, not a test: it prints, and fails only when the run itself cannot be made.

use crate::run::say;
use serde_json::Value;
use std::io::BufRead;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

const RATE: u32 = 60;

pub fn run(root: &Path, clients: usize, seconds: u32) -> Result<(), String> {
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["build", "--release", "-q", "--bin", "netcode-lab"])
        .current_dir(root)
        .status()
        .map_err(|e| e.to_string())?;
    if !status.success() {
        return Err("cargo build --release --bin netcode-lab failed".into());
    }
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), Into::into);
    let bin = target.join("release/netcode-lab");
    let mut server = Command::new(&bin)
        .args(["serve", "--port", "0", "--dir"])
        .arg(root.join("www"))
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start the server: {e}"))?;
    let mut first = String::new();
    std::io::BufReader::new(server.stdout.take().ok_or("no stdout")?)
        .read_line(&mut first)
        .map_err(|e| e.to_string())?;
    let url =
        first.split_whitespace().find(|w| w.starts_with("http://")).ok_or("the server printed no URL")?.to_string();
    say("bench-stream", format!("{clients} recorders × {RATE} Hz × {seconds} s against {url}"));
    let cpu_before = cpu_seconds(server.id())?;
    let wall = Instant::now();
    let recorders: Vec<_> = (0..clients)
        .map(|_| {
            Command::new(&bin)
                .args(["record", "--server", &url, "--rate", &RATE.to_string(), "--seconds", &seconds.to_string()])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
        })
        .collect::<Result<_, _>>()
        .map_err(|e| format!("cannot start a recorder: {e}"))?;
    let outputs: Vec<_> =
        recorders.into_iter().map(|r| r.wait_with_output()).collect::<Result<_, _>>().map_err(|e| e.to_string())?;
    let elapsed = wall.elapsed().as_secs_f64();
    let cpu = cpu_seconds(server.id())? - cpu_before;
    let _ = server.kill();
    let _ = server.wait();
    let expected = f64::from(RATE * seconds);
    let mut shares = Vec::new();
    let mut drifts = Vec::new();
    for (i, out) in outputs.iter().enumerate() {
        if !out.status.success() {
            return Err(format!("recorder {i}: {}", String::from_utf8_lossy(&out.stderr)));
        }
        let trace: Value = serde_json::from_slice(&out.stdout).map_err(|e| format!("recorder {i}: {e}"))?;
        let snapshots = trace["snapshots"].as_array().ok_or("no snapshots")?;
        shares.push(snapshots.len() as f64 / expected);
        let delay =
            |s: &Value| s["arrival"].as_f64().unwrap_or(f64::NAN) - s["serverTime"].as_f64().unwrap_or(f64::NAN);
        let fastest = |from: f64, to: f64| {
            snapshots
                .iter()
                .filter(|s| s["serverTime"].as_f64().is_some_and(|t| t >= from && t < to))
                .map(delay)
                .fold(f64::INFINITY, f64::min)
        };
        let span = f64::from(seconds);
        drifts.push((fastest(span - 5.0, span) - fastest(0.0, 5.0)).abs());
    }
    let worst_share = shares.iter().copied().fold(f64::INFINITY, f64::min);
    let worst_drift = drifts.iter().copied().fold(0.0, f64::max);
    let core_share = cpu / elapsed;
    let verdict = |ok: bool| if ok { "ok" } else { "MISSED" };
    say(
        "bench-stream",
        format!(
            "snapshots arrived, worst client: {:.3} %  (goal ≥ 99.9 %: {})",
            worst_share * 100.0,
            verdict(worst_share >= 0.999)
        ),
    );
    say(
        "bench-stream",
        format!(
            "send-clock drift, worst client: {:.3} ms  (goal < 1 ms: {})",
            worst_drift * 1000.0,
            verdict(worst_drift < 0.001)
        ),
    );
    say(
        "bench-stream",
        format!(
            "server CPU: {:.1} % of one core over {elapsed:.1} s  (goal < 25 %: {})",
            core_share * 100.0,
            verdict(core_share < 0.25)
        ),
    );
    Ok(())
}

/// User + system CPU seconds of process `pid` so far (Linux).
fn cpu_seconds(pid: u32) -> Result<f64, String> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).map_err(|e| format!("/proc/{pid}/stat: {e}"))?;
    // Fields after the command's closing parenthesis: state is field 3, utime 14, stime 15.
    let rest = &stat[stat.rfind(')').ok_or("bad /proc stat")? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i - 3).and_then(|f| f.parse::<f64>().ok()).ok_or("bad /proc stat");
    // Clock ticks per second: 100 on every Linux this runs on (sysconf(_SC_CLK_TCK) without libc).
    Ok((ticks(14)? + ticks(15)?) / 100.0)
}
