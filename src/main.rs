//! `netcode-lab`: replay a trace, or export a built-in one. Argument handling and IO only — the format, its
//! checks and the replay are `netcode_lab::trace` (whose module doc is the format's specification).
//!
//! Exit codes: 0 done; 2 bad arguments, an unreadable file or a bad trace, with one line on stderr that names
//! the field; 1 the output could not be written.

use netcode_lab::sim::{self, export, params::SimParams, presets::NetworkPreset};
use netcode_lab::trace::{self, examples, Trace};
use std::fs::File;
use std::io::{self, Read, Write};
use std::process::ExitCode;

const USAGE: &str = "\
usage: netcode-lab <command>

commands:
  replay TRACE.json        replay a trace (`-` reads stdin) and print
                           {\"samples\": [one per sampleAt], \"metrics\": {...}}
  export --example NAME    print a built-in trace (the seeds' worked examples)
  export --list            list the built-in traces
  export --scenario NAME [--kind snapshots|paths] [--seed N] [--params FILE.json]
                           simulate and print the run's trace: NAME is `default` or a network preset
                           (lan, sameRegion, crossRegion, mobile); --params gives the simulator's JSON
                           parameters (every field optional), applied before the preset
  help, --help, -h         print this text

A bad trace, an unreadable file or bad arguments exit with code 2 and one line on stderr naming the field
and the index, e.g. `snapshots[3].serverTime: expected a number, found the string \"x\"`.
Format: netcode-lab/trace@1, documented in src/trace/mod.rs.
";

const SHORT_USAGE: &str =
    "usage: netcode-lab replay TRACE.json | export --example NAME | export --list | export --scenario NAME | --help";

/// The largest parameter file read, bytes (parameters are a few hundred bytes; a script of key events a few KB).
const MAX_PARAMS_BYTES: usize = 1 << 20;

fn main() -> ExitCode {
    match arguments().and_then(|args| run(&args)) {
        Ok(text) => write_stdout(&text),
        Err(line) => {
            let _ = writeln!(io::stderr(), "{line}");
            ExitCode::from(2)
        }
    }
}

fn arguments() -> Result<Vec<String>, String> {
    std::env::args_os()
        .skip(1)
        .enumerate()
        .map(|(i, arg)| arg.into_string().map_err(|arg| format!("argument {}: not UTF-8 ({arg:?})", i + 1)))
        .collect()
}

/// The text for stdout, or the one line for stderr.
fn run(args: &[String]) -> Result<String, String> {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match args.as_slice() {
        [] => Err(format!("no command ({SHORT_USAGE})")),
        ["help" | "--help" | "-h", ..] => Ok(USAGE.to_string()),
        ["replay", path] => replay(path),
        ["replay", ..] => Err(format!("replay: expected exactly one trace file, `-` for stdin ({SHORT_USAGE})")),
        ["export", rest @ ..] => export(rest),
        [other, ..] => Err(format!("unknown command `{other}` ({SHORT_USAGE})")),
    }
}

fn replay(path: &str) -> Result<String, String> {
    let bytes =
        read(path, trace::MAX_TRACE_BYTES).map_err(|e| e.unwrap_or_else(|| trace::limits::too_large().to_string()))?;
    let trace = Trace::from_json_bytes(&bytes).map_err(|e| e.to_string())?;
    let replay = trace::replay(&trace).map_err(|e| e.to_string())?;
    Ok(replay.to_json())
}

/// Where a trace comes from. The simulator's `--scenario NAME …` is one more arm here.
fn export(args: &[&str]) -> Result<String, String> {
    match args {
        ["--example", name] => examples::example(name)
            .map(|trace| trace.to_json())
            .ok_or_else(|| format!("export: unknown example `{name}` (known: {})", example_names().join(", "))),
        ["--list"] => Ok(examples::EXAMPLES.iter().map(|e| format!("{:<28}{}\n", e.name, e.title)).collect()),
        ["--scenario", name, options @ ..] => export_scenario(name, options),
        _ => Err(format!("export: expected --example NAME, --list or --scenario NAME ({SHORT_USAGE})")),
    }
}

/// Simulates a scenario and prints its trace.
fn export_scenario(name: &str, options: &[&str]) -> Result<String, String> {
    let mut params = SimParams::default();
    let mut kind = "snapshots";
    let mut seed = None;
    let mut it = options.iter();
    while let Some(option) = it.next() {
        let mut value = || it.next().copied().ok_or_else(|| format!("export: {option} needs a value"));
        match *option {
            "--kind" => kind = value()?,
            "--seed" => {
                let v = value()?;
                seed = Some(v.parse::<u64>().map_err(|_| format!("--seed: `{v}` is not a whole number ≥ 0"))?);
            }
            "--params" => {
                let path = value()?;
                let too_large =
                    || format!("{path}: larger than {} KiB, more than parameters ever need", MAX_PARAMS_BYTES >> 10);
                let bytes = read(path, MAX_PARAMS_BYTES).map_err(|e| e.unwrap_or_else(too_large))?;
                let text = String::from_utf8(bytes).map_err(|_| format!("{path}: not UTF-8 text"))?;
                params = SimParams::from_json(&text).map_err(|e| format!("{path}: {e}"))?;
            }
            other => return Err(format!("export: unknown option `{other}` ({SHORT_USAGE})")),
        }
    }
    if name != "default" {
        let preset: NetworkPreset =
            serde_json::from_value(serde_json::Value::String(name.to_string())).map_err(|_| {
                format!("--scenario: unknown `{name}` (known: default, lan, sameRegion, crossRegion, mobile)")
            })?;
        preset.apply(&mut params);
    }
    if let Some(seed) = seed {
        params.seed = seed;
    }
    let sim = sim::run(&params).map_err(|e| format!("params: {e}"))?;
    match kind {
        "snapshots" => Ok(export::snapshot_trace(&sim).to_json()),
        "paths" => Ok(export::path_trace(&sim).to_json()),
        other => Err(format!("--kind: unknown `{other}` (known: snapshots, paths)")),
    }
}

fn example_names() -> Vec<&'static str> {
    examples::EXAMPLES.iter().map(|e| e.name).collect()
}

/// The bytes of `path` (`-`: stdin), never more than `limit + 1` of them: `Err(None)` when there are more,
/// `Err(Some(line))` when it cannot be read.
fn read(path: &str, limit: usize) -> Result<Vec<u8>, Option<String>> {
    let mut bytes = Vec::new();
    let most = limit as u64 + 1;
    let result = match path {
        "-" => io::stdin().lock().take(most).read_to_end(&mut bytes),
        _ => File::open(path).and_then(|file| file.take(most).read_to_end(&mut bytes)),
    };
    result.map_err(|e| Some(format!("{path}: cannot read ({e})")))?;
    if bytes.len() > limit {
        return Err(None);
    }
    Ok(bytes)
}

fn write_stdout(text: &str) -> ExitCode {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(io::stderr(), "cannot write the output ({e})");
            ExitCode::from(1)
        }
    }
}
