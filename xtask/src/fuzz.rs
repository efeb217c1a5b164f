//! `cargo xtask fuzz`: the coverage-guided fuzz targets of `fuzz/` (cargo-fuzz + libFuzzer), on either toolchain.
//!
//! ```text
//! cargo xtask fuzz [--seconds N] [--target NAME] [--route rustup|debian] [--merge]
//!   install cargo-fuzz (crates.io, cached per version in ~/.cache/netcode-lab/tools)
//!   cargo fuzz build -s none            libFuzzer's instrumentation without a sanitizer runtime: the core is
//!                                       safe Rust, and `-s none` needs no nightly flags, so rustup's stable and
//!                                       Debian's rustc-web (RUSTC_BOOTSTRAP=1, as for its wasm build) both work
//!   run each target N seconds           new inputs → target/fuzz-corpus/TARGET (kept between runs); the saved
//!                                       corpus fuzz/corpus/TARGET and every past crash fuzz/regressions/TARGET
//!                                       are read first; a crash is saved to target/fuzz-artifacts/TARGET/
//!   --merge                             minimise what was found into fuzz/corpus/TARGET (libFuzzer -merge=1)
//! ```
//! `cargo xtask test` runs every target for a few seconds (stage "fuzz"); a long run is this command with a
//! larger `--seconds`. Each line of the report: executions, executions per second, corpus size, crashes.

use crate::run::{say, which, Cmd};
use crate::toolchain::cache_dir;
use std::path::{Path, PathBuf};

/// The cargo-fuzz release installed from crates.io.
pub const CARGO_FUZZ: &str = "0.13.2";
/// The fuzz targets (fuzz/fuzz_targets/NAME.rs; their oracles are in fuzz/oracles.rs).
pub const TARGETS: [&str; 6] =
    ["trace_parser", "sim_params", "buffer_ops", "playback_ops", "path_ops", "prediction_ops"];
/// Seconds per target in `cargo xtask test`.
pub const SMOKE_SECONDS: u64 = 5;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FuzzRoute {
    /// The cargo that runs xtask (rustup's stable on an ordinary machine).
    Rustup,
    /// Debian's rustc-web and cargo-web at /usr/bin.
    Debian,
}

/// What one target did.
pub struct Outcome {
    pub target: &'static str,
    pub executions: u64,
    pub per_second: u64,
    /// Inputs in target/fuzz-corpus/TARGET: what this and earlier runs found beyond the saved corpus.
    pub corpus: usize,
    pub crash: Option<PathBuf>,
}

/// The folder holding the `cargo-fuzz` binary of [`CARGO_FUZZ`], installing it once.
fn cargo_fuzz() -> Result<PathBuf, String> {
    let matches = |bin: &Path| {
        Cmd::new(bin).arg("--version").read().is_some_and(|v| v.split_whitespace().nth(1) == Some(CARGO_FUZZ))
    };
    if let Some(bin) = which("cargo-fuzz").filter(|b| matches(b)) {
        return Ok(bin.parent().unwrap_or(Path::new("/")).to_path_buf());
    }
    let root = cache_dir().join("tools").join(format!("cargo-fuzz-{CARGO_FUZZ}"));
    let bin = root.join("bin");
    if !matches(&bin.join("cargo-fuzz")) {
        say("fuzz", format!("cargo install cargo-fuzz {CARGO_FUZZ} into {} (takes ~3 min once)", root.display()));
        Cmd::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args(["install", "cargo-fuzz", "--version", CARGO_FUZZ, "--root"])
            .arg(&root)
            .run()?;
    }
    Ok(bin)
}

/// `cargo fuzz …` from the repository root on `route`, building into its own target folder.
struct Fuzzer {
    route: FuzzRoute,
    cargo_fuzz: PathBuf,
    target_dir: PathBuf,
}

impl Fuzzer {
    fn new(root: &Path, route: FuzzRoute) -> Result<Fuzzer, String> {
        let cargo_fuzz = cargo_fuzz()?.join("cargo-fuzz");
        let target_dir = match route {
            FuzzRoute::Rustup => root.join("target/fuzz"),
            FuzzRoute::Debian => {
                crate::toolchain::debian_rust()?;
                root.join("target/fuzz-debian")
            }
        };
        Ok(Fuzzer { route, cargo_fuzz, target_dir })
    }

    /// `cargo-fuzz fuzz …`; cargo-fuzz runs the `cargo` it finds first on PATH.
    fn cmd(&self, root: &Path) -> Cmd {
        let cmd = Cmd::new(&self.cargo_fuzz).arg("fuzz").dir(root).env("RUSTC_BOOTSTRAP", "1");
        match self.route {
            FuzzRoute::Rustup => cmd,
            FuzzRoute::Debian => {
                let path = format!("/usr/bin:{}", std::env::var("PATH").unwrap_or_default());
                cmd.env("PATH", path)
                    .env("RUSTC", "/usr/bin/rustc")
                    .env_remove("RUSTUP_TOOLCHAIN")
                    .env_remove("CARGO")
                    .env_remove("RUSTC_WRAPPER")
            }
        }
    }

    fn build(&self, root: &Path, target: Option<&str>, log: Option<&Path>) -> Result<(), String> {
        let mut cmd = self.cmd(root).args(["build", "-s", "none", "--target-dir"]).arg(&self.target_dir);
        if let Some(target) = target {
            cmd = cmd.arg(target);
        }
        match log {
            Some(log) => cmd.run_logged(log),
            None => {
                say("fuzz", format!("{} ({:?} route)", cmd.display(), self.route));
                cmd.run()
            }
        }
    }

    fn binary(&self, target: &str) -> PathBuf {
        self.target_dir.join(host_triple()).join("release").join(target)
    }
}

fn host_triple() -> &'static str {
    if cfg!(target_arch = "aarch64") {
        "aarch64-unknown-linux-gnu"
    } else {
        "x86_64-unknown-linux-gnu"
    }
}

fn files(dir: &Path) -> usize {
    std::fs::read_dir(dir).map(|d| d.filter_map(Result::ok).filter(|e| e.path().is_file()).count()).unwrap_or(0)
}

/// Runs `target` for `seconds` and reads libFuzzer's final statistics.
fn run_target(root: &Path, fuzzer: &Fuzzer, target: &'static str, seconds: u64) -> Result<Outcome, String> {
    let scratch = root.join("target/fuzz-corpus").join(target);
    let artifacts = root.join("target/fuzz-artifacts").join(target);
    let log = root.join("target/xtask/logs").join(format!("fuzz-{target}.log"));
    for dir in [&scratch, &artifacts] {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let before: Vec<PathBuf> = crashes(&artifacts);
    let mut cmd = Cmd::new(fuzzer.binary(target))
        .dir(root)
        .arg(&scratch)
        .arg(root.join("fuzz/corpus").join(target))
        .arg(format!("-max_total_time={seconds}"))
        .arg("-print_final_stats=1")
        .arg(format!("-artifact_prefix={}/", artifacts.display()))
        .args(["-rss_limit_mb=2048", "-timeout=20"]);
    let regressions = root.join("fuzz/regressions").join(target);
    if regressions.is_dir() {
        cmd = cmd.arg(&regressions);
    }
    let dict = root.join("fuzz/dictionaries").join(format!("{target}.dict"));
    if dict.is_file() {
        cmd = cmd.arg(format!("-dict={}", dict.display()));
    }
    let result = cmd.run_logged(&log);
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    let stat = |name: &str| {
        text.lines()
            .filter_map(|l| l.strip_prefix(&format!("stat::{name}:")))
            .find_map(|v| v.trim().parse::<u64>().ok())
            .unwrap_or(0)
    };
    let crash = crashes(&artifacts).into_iter().find(|c| !before.contains(c));
    if result.is_err() && crash.is_none() {
        return Err(format!("{target}: libFuzzer failed without a crash file; see {}", log.display()));
    }
    let executions = stat("number_of_executed_units");
    let per_second = stat("average_exec_per_sec");
    Ok(Outcome { target, executions, per_second, corpus: files(&scratch), crash })
}

fn crashes(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("crash-") || n.starts_with("oom-") || n.starts_with("timeout-"))
        })
        .collect()
}

/// How a run reports: line by line on the terminal, or only in logs (the test command's stage).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Report {
    Terminal,
    Logs,
}

/// Builds and runs the targets; `Err` names the crashes.
pub fn run(
    root: &Path,
    route: FuzzRoute,
    seconds: u64,
    only: Option<&str>,
    merge: bool,
    report: Report,
) -> Result<Vec<Outcome>, String> {
    if let Some(name) = only {
        if !TARGETS.contains(&name) {
            return Err(format!("unknown fuzz target `{name}` (known: {})", TARGETS.join(", ")));
        }
    }
    let fuzzer = Fuzzer::new(root, route)?;
    let build_log = root.join("target/xtask/logs/fuzz-build.log");
    fuzzer.build(root, only, (report == Report::Logs).then_some(build_log.as_path()))?;
    let say = |line: String| {
        if report == Report::Terminal {
            say("fuzz", line);
        }
    };
    let mut outcomes = Vec::new();
    for target in TARGETS.into_iter().filter(|t| only.is_none_or(|o| o == *t)) {
        let outcome = run_target(root, &fuzzer, target, seconds)?;
        say(format!(
            "{target:<15} {:>11} executions  {:>7}/s  corpus {:>5}  {}",
            outcome.executions,
            outcome.per_second,
            outcome.corpus,
            outcome.crash.as_ref().map_or("no crash".to_string(), |c| format!("CRASH {}", c.display()))
        ));
        if merge {
            merge_into_saved(root, &fuzzer, target)?;
        }
        outcomes.push(outcome);
    }
    let total: u64 = outcomes.iter().map(|o| o.executions).sum();
    say(format!("{total} executions in all"));
    let crashed: Vec<String> =
        outcomes.iter().filter_map(|o| o.crash.as_ref().map(|c| format!("{}: {}", o.target, c.display()))).collect();
    if crashed.is_empty() {
        Ok(outcomes)
    } else {
        Err(format!(
            "the fuzzers found {} crash(es) — each becomes a regression test: copy it to fuzz/regressions/TARGET/\n{}",
            crashed.len(),
            crashed.join("\n")
        ))
    }
}

/// libFuzzer's `-merge=1`: the inputs of the scratch corpus that add coverage join the saved corpus.
fn merge_into_saved(root: &Path, fuzzer: &Fuzzer, target: &str) -> Result<(), String> {
    let saved = root.join("fuzz/corpus").join(target);
    let before = files(&saved);
    Cmd::new(fuzzer.binary(target))
        .dir(root)
        .args(["-merge=1", "-max_len=4096"])
        .arg(&saved)
        .arg(root.join("target/fuzz-corpus").join(target))
        .run_logged(&root.join("target/xtask/logs").join(format!("fuzz-merge-{target}.log")))?;
    say("fuzz", format!("{target}: saved corpus {before} → {} inputs", files(&saved)));
    Ok(())
}
