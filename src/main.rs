//! `netcode-lab`: replay a trace, export a built-in one, rank the engines' strategies, or fit a network model to a
//! trace. Argument handling and IO only — the format, its checks and the replay are `netcode_lab::trace` (whose
//! module doc is the format's specification); the strategies are `netcode_lab::engines`, the league table
//! `netcode_lab::compare`, the fit `netcode_lab::fit`.
//!
//! Exit codes: 0 done; 2 bad arguments, an unreadable file or a bad trace, with one line on stderr that names
//! the field; 1 the output could not be written.

mod cli;

use netcode_lab::compare::league::{league, trace_league, Network};
use netcode_lab::compare::PlaygroundParams;
use netcode_lab::engines::StrategyKind;
use netcode_lab::fit;
use netcode_lab::live::protocol::{RATES, SECONDS};
use netcode_lab::sim::{self, presets::NetworkPreset};
use netcode_lab::trace::{self, examples, export, Trace};
use std::fs::File;
use std::io::{self, Read, Write};
use std::process::ExitCode;

const USAGE: &str = "\
usage: netcode-lab <command>

commands:
  replay TRACE.json [--strategy NAME]
                           replay a trace or a game's arrival log (CSV or JSON, docs/arrival-log.md;
                           `-` reads stdin) and print
                           {\"samples\": [one per sampleAt], \"metrics\": {...}}; with --strategy, a snapshot
                           trace goes through that strategy instead: mirror, mirror-core, ngo, ngo-1x, source,
                           geckos, lightyear, fishnet, gambetta, neteq, seed000, seed004, playground (the trace's
                           own settings), latest
  compare --scenario NAME[,NAME…] [--seed N] [--strategies a,b,…] [--duration S] [--params FILE.json] [--table]
                           the league table: every strategy on each network, scored against the truth, as JSON
                           (a text table with --table); NAME is default, lan, sameRegion, crossRegion, mobile
                           or presets (all four)
  compare --trace FILE [--strategies a,b,…] [--params FILE.json] [--table]
                           the same table for every strategy on a recorded trace or a game's arrival log
                           (`-` reads stdin): its network is the file's name, the truth its params.motion
                           or its snapshots' own positions; --params gives the engines' settings
  tune (--scenario NAME | --trace FILE) [--target F] [--seed N] [--strategies a,b,…] [--params FILE.json] [--table]
                           per engine, the smallest setting in its own terms that runs dry on at most F of the
                           frames (default 0.01, 0.001..=0.5): {\"target\", \"network\", \"rows\": [{\"strategy\",
                           \"setting\", \"settings\", \"met\", \"underrun\", \"latencyMs\", \"rms\", \"nextLower\",
                           \"runs\", \"params\"}], \"skipped\"}; a row's params as --params FILE make `compare` on the
                           same network and seed print its underrun share; --table: for people, by latency
  export --example NAME    print a built-in trace (the seeds' worked examples)
  export --list            list the built-in traces
  export --scenario NAME [--kind snapshots|paths] [--seed N] [--params FILE.json]
                           simulate and print the run's trace: NAME is `default` or a network preset
                           (lan, sameRegion, crossRegion, mobile); --params gives the simulator's JSON
                           parameters (every field optional), applied before the preset
  serve [--dir DIR] [--port N] [--lan] [--listen ADDR]
                           serve the page (DIR: default `dist` when it holds index.html, else `www`) and the
                           snapshot stream (WebSocket /stream/ws, WebRTC /stream/rtc; docs/stream-protocol.md) on
                           http://127.0.0.1:N/ (default 8080); --lan: every interface (a phone on the same
                           network can record), --listen: exactly ADDR (e.g. 0.0.0.0:80 on a cloud machine)
  record --server http://HOST:PORT --seconds N [--channel websocket] [--rate HZ]
                           record the network to a running `serve` (N 1..=300 s, HZ 10..=128, default 60) and
                           print the trace; cut short, it keeps what arrived (its note says partial)
  fit TRACE.json [--params [--duration S]]
                           fit a network model to a snapshot trace (`-` reads stdin) and print
                           {\"latency\": {base, p50, p95, p99}, \"jitter\": {model, median, sigma},
                           \"loss\": {rate, meanBurst}, \"reorder\": {rate}, \"duplicate\": {rate},
                           \"sendInterval\", \"clockSkewPpm\"} (seconds, fractions; estimators in src/fit/mod.rs);
                           with --params, the fitted network as a parameters file for
                           export/compare --scenario default --params FILE (--duration: seconds simulated,
                           the trace's span by default)
  schema                   every parameter of --params FILE.json and of the page: its path, Rust field, kind,
                           unit, range, the page's control, default and doc, as JSON
  help, --help, -h         print this text

A bad trace, an unreadable file or bad arguments exit with code 2 and one line on stderr naming the field
and the index, e.g. `snapshots[3].serverTime: expected a number, found the string \"x\"`.
Format: netcode-lab/trace@1, documented in src/trace/mod.rs.
";

const SHORT_USAGE: &str =
    "usage: netcode-lab replay TRACE.json [--strategy NAME] | export --example NAME | export --list \
     | export --scenario NAME | compare --scenario NAME | --help";

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
        ["replay", path, "--strategy", name] | ["replay", "--strategy", name, path] => replay_strategy(path, name),
        ["replay", ..] => Err(format!(
            "replay: expected one trace file (`-` for stdin) and optionally --strategy NAME ({SHORT_USAGE})"
        )),
        ["export", rest @ ..] => export(rest),
        ["compare", rest @ ..] => compare(rest),
        ["serve", rest @ ..] => serve(rest),
        ["record", rest @ ..] => record(rest),
        ["fit", rest @ ..] => fit(rest),
        ["tune", rest @ ..] => tune(rest),
        ["schema"] => Ok(schema()),
        ["schema", ..] => Err(format!("schema: takes no options ({SHORT_USAGE})")),
        [other, ..] => Err(format!("unknown command `{other}` ({SHORT_USAGE})")),
    }
}

/// `serve`: runs until stopped (an error to start is the one line).
fn serve(args: &[&str]) -> Result<String, String> {
    let mut dir = None;
    let (mut port, mut lan, mut listen) = (8080u16, false, None);
    let mut it = args.iter();
    while let Some(option) = it.next() {
        let mut value = || it.next().copied().ok_or_else(|| format!("serve: {option} needs a value"));
        match *option {
            "--dir" => dir = Some(std::path::PathBuf::from(value()?)),
            "--port" => {
                let v = value()?;
                port = v.parse().map_err(|_| format!("--port: `{v}` is not a port number (0..=65535)"))?;
            }
            "--lan" => lan = true,
            "--listen" => {
                let v = value()?;
                listen = Some(v.parse().map_err(|_| format!("--listen: `{v}` is not an address like 0.0.0.0:8080"))?);
            }
            other => return Err(format!("serve: unknown option `{other}` ({SHORT_USAGE})")),
        }
    }
    let dir = dir.unwrap_or_else(|| {
        let dist = std::path::PathBuf::from("dist");
        if dist.join("index.html").is_file() {
            dist
        } else {
            "www".into()
        }
    });
    let ip = if lan { std::net::Ipv4Addr::UNSPECIFIED } else { std::net::Ipv4Addr::LOCALHOST };
    let listen = listen.unwrap_or(std::net::SocketAddr::from((ip, port)));
    cli::serve::serve(&cli::serve::Options { dir, listen, lan })?;
    Ok(String::new())
}

/// `record`: the trace of a stream from a running `serve`.
fn record(args: &[&str]) -> Result<String, String> {
    let (mut server, mut seconds, mut channel, mut rate) = (None, None, "websocket".to_string(), 60u32);
    let mut it = args.iter();
    while let Some(option) = it.next() {
        let mut value = || it.next().copied().ok_or_else(|| format!("record: {option} needs a value"));
        match *option {
            "--server" => server = Some(value()?.to_string()),
            "--channel" => channel = value()?.to_string(),
            "--rate" => {
                let v = value()?;
                rate = v.parse().ok().filter(|r| RATES.contains(r)).ok_or_else(|| {
                    format!("--rate: `{v}` is not a whole number of Hz in {}..={}", RATES.start(), RATES.end())
                })?;
            }
            "--seconds" => {
                let v = value()?;
                seconds = Some(v.parse().ok().filter(|s| SECONDS.contains(s)).ok_or_else(|| {
                    format!("--seconds: `{v}` is not a whole number in {}..={}", SECONDS.start(), SECONDS.end())
                })?);
            }
            other => return Err(format!("record: unknown option `{other}` ({SHORT_USAGE})")),
        }
    }
    let server = server.ok_or_else(|| format!("record: --server http://HOST:PORT is required ({SHORT_USAGE})"))?;
    let seconds = seconds.ok_or_else(|| format!("record: --seconds N is required ({SHORT_USAGE})"))?;
    cli::record::record(&cli::record::Options { server, channel, rate, seconds })
}

/// The parameters' schema as JSON: one entry per parameter, in the parameter object's order.
fn schema() -> String {
    let mut text = serde_json::to_string_pretty(&PlaygroundParams::schema()).expect("the schema is plain data");
    text.push('\n');
    text
}

/// The trace or arrival log in `path` (`-`: stdin; which one is told by content, `trace::arrivals::read`), read
/// no further than the trace limits allow.
fn read_trace(path: &str) -> Result<Trace, String> {
    let bytes =
        read(path, trace::MAX_TRACE_BYTES).map_err(|e| e.unwrap_or_else(|| trace::limits::too_large().to_string()))?;
    trace::arrivals::read(&bytes).map_err(|e| e.to_string())
}

fn replay(path: &str) -> Result<String, String> {
    let trace = read_trace(path)?;
    let replay = trace::replay(&trace).map_err(|e| e.to_string())?;
    Ok(replay.to_json())
}

/// A snapshot trace through one strategy: `{"strategy", "samples": [...], "metrics": {...}}`.
fn replay_strategy(path: &str, name: &str) -> Result<String, String> {
    let kind = StrategyKind::from_name(name)
        .ok_or_else(|| format!("--strategy: unknown `{name}` (known: {})", StrategyKind::names()))?;
    let trace = read_trace(path)?;
    let replay = trace::replay_strategy(&trace, kind).map_err(|e| e.to_string())?;
    Ok(replay.to_json())
}

/// The league table of `--scenario` networks.
fn compare(args: &[&str]) -> Result<String, String> {
    let mut params = PlaygroundParams::default();
    let (mut scenario, mut seed, mut strategies, mut duration, mut table) = (None, None, None, None, false);
    let mut trace_path = None;
    let mut it = args.iter();
    while let Some(option) = it.next() {
        let mut value = || it.next().copied().ok_or_else(|| format!("compare: {option} needs a value"));
        match *option {
            "--scenario" => scenario = Some(value()?),
            "--trace" => trace_path = Some(value()?),
            "--seed" => seed = Some(parse_seed(value()?)?),
            "--strategies" => strategies = Some(value()?),
            "--duration" => {
                let v = value()?;
                duration = Some(v.parse::<f64>().map_err(|_| format!("--duration: `{v}` is not a number"))?);
            }
            "--params" => params = read_params(value()?)?,
            "--table" => table = true,
            other => return Err(format!("compare: unknown option `{other}` ({SHORT_USAGE})")),
        }
    }
    let strategies =
        || StrategyKind::parse_list(strategies.unwrap_or("")).map_err(|e| format!("--{}: {}", e.field, e.message));
    let table_of = match (scenario, trace_path) {
        (Some(_), Some(_)) => return Err("compare: --scenario and --trace exclude each other".into()),
        (None, None) => return Err(format!("compare: --scenario NAME or --trace FILE is required ({SHORT_USAGE})")),
        (None, Some(path)) => {
            let only_scenario = [("--seed", seed.is_some()), ("--duration", duration.is_some())];
            if let Some((option, _)) = only_scenario.iter().find(|(_, given)| *given) {
                return Err(format!("compare: {option} is for --scenario; a trace is what it is"));
            }
            let strategies = strategies()?;
            let trace = read_trace(path)?;
            trace_league(&trace, &trace_label(path), &params, &strategies).map_err(|e| e.to_string())?
        }
        (Some(scenario), None) => {
            let networks = scenario_networks(scenario)?;
            let strategies = strategies()?;
            if let Some(seed) = seed {
                params.sim.seed = seed;
            }
            if let Some(duration) = duration {
                params.sim.duration = duration;
            }
            league(&params, &networks, &strategies).map_err(|e| format!("params: {e}"))?
        }
    };
    if table {
        Ok(table_of.to_table())
    } else {
        serde_json::to_string_pretty(&table_of).map(|s| s + "\n").map_err(|e| format!("cannot write JSON ({e})"))
    }
}

/// `tune`: the smallest setting per engine that keeps the underrun share at or under the target.
fn tune(args: &[&str]) -> Result<String, String> {
    let mut params = PlaygroundParams::default();
    let (mut scenario, mut trace_path, mut seed, mut strategies, mut table) = (None, None, None, None, false);
    let mut target = netcode_lab::tune::DEFAULT_TARGET;
    let mut it = args.iter();
    while let Some(option) = it.next() {
        let mut value = || it.next().copied().ok_or_else(|| format!("tune: {option} needs a value"));
        match *option {
            "--scenario" => scenario = Some(value()?),
            "--trace" => trace_path = Some(value()?),
            "--seed" => seed = Some(parse_seed(value()?)?),
            "--strategies" => strategies = Some(value()?),
            "--target" => {
                let v = value()?;
                target = v.parse::<f64>().map_err(|_| format!("--target: `{v}` is not a number"))?;
            }
            "--params" => params = read_params(value()?)?,
            "--table" => table = true,
            other => return Err(format!("tune: unknown option `{other}` ({SHORT_USAGE})")),
        }
    }
    let strategies = match strategies {
        None => netcode_lab::tune::tunable(),
        Some(list) => StrategyKind::parse_list(list).map_err(|e| format!("--{}: {}", e.field, e.message))?,
    };
    let tuned = match (scenario, trace_path) {
        (Some(_), Some(_)) => return Err("tune: --scenario and --trace exclude each other".into()),
        (None, None) => return Err(format!("tune: --scenario NAME or --trace FILE is required ({SHORT_USAGE})")),
        (None, Some(path)) => {
            if seed.is_some() {
                return Err("tune: --seed is for --scenario; a trace is what it is".into());
            }
            let trace = read_trace(path)?;
            let label = trace_label(path);
            let subject = netcode_lab::tune::Subject::Trace { trace: &trace, label: &label, params: &params };
            netcode_lab::tune::tune(&subject, target, &strategies)
        }
        (Some(name), None) => {
            let networks = scenario_networks(name)?;
            let [network] = networks.as_slice() else {
                return Err(format!("--scenario: tune takes one network (default or a preset), not `{name}`"));
            };
            if let Some(seed) = seed {
                params.sim.seed = seed;
            }
            netcode_lab::tune::tune(
                &netcode_lab::tune::Subject::Scenario { params: &params, network },
                target,
                &strategies,
            )
        }
    }
    .map_err(|e| format!("--{e}"))?;
    if table {
        Ok(tuned.to_table())
    } else {
        serde_json::to_string_pretty(&tuned).map(|s| s + "\n").map_err(|e| format!("cannot write JSON ({e})"))
    }
}

/// A network model fitted to a snapshot trace, or (`--params`) that model as a parameters file.
fn fit(args: &[&str]) -> Result<String, String> {
    let (mut path, mut as_params, mut duration) = (None, false, None);
    let mut it = args.iter();
    while let Some(&arg) = it.next() {
        match arg {
            "--params" => as_params = true,
            "--duration" => {
                let v = it.next().ok_or("fit: --duration needs a value")?;
                duration = Some(v.parse::<f64>().map_err(|_| format!("--duration: `{v}` is not a number"))?);
            }
            option if option.starts_with("--") => {
                return Err(format!("fit: unknown option `{option}` (expected TRACE.json [--params [--duration S]])"))
            }
            file if path.is_none() => path = Some(file),
            _ => return Err("fit: expected one trace file (`-` for stdin)".to_string()),
        }
    }
    let path = path.ok_or("fit: expected one trace file (`-` for stdin)")?;
    if duration.is_some() && !as_params {
        return Err("fit: --duration goes with --params".to_string());
    }
    let (observations, rtt) = fit::input::of_trace(&read_trace(path)?).map_err(|e| e.to_string())?;
    let fitted = fit::fit(&observations, &rtt).map_err(|e| e.to_string())?;
    if as_params {
        let network = fitted.network(duration).map_err(|e| e.to_string())?;
        network.playground().map_err(|e| format!("params: {e}"))?;
        Ok(network.to_json())
    } else {
        serde_json::to_string_pretty(&fitted).map(|s| s + "\n").map_err(|e| format!("cannot write JSON ({e})"))
    }
}

/// A trace's network label: its file's name, or `trace` for stdin.
fn trace_label(path: &str) -> String {
    match path {
        "-" => "trace".into(),
        _ => std::path::Path::new(path)
            .file_name()
            .map_or_else(|| "trace".into(), |name| name.to_string_lossy().into_owned()),
    }
}

/// `default`, a preset, `presets` (all four), or a comma-separated list of those.
fn scenario_networks(list: &str) -> Result<Vec<Network>, String> {
    let mut networks = Vec::new();
    for name in list.split(',').map(str::trim) {
        match name {
            "default" => networks.push(Network::custom("default")),
            "presets" => networks.extend(NetworkPreset::ALL.into_iter().map(Network::preset)),
            _ => networks.push(NetworkPreset::from_name(name).map(Network::preset).ok_or_else(|| {
                format!("--scenario: unknown `{name}` (known: default, lan, sameRegion, crossRegion, mobile, presets)")
            })?),
        }
    }
    if networks.iter().enumerate().any(|(i, n)| networks[..i].contains(n)) {
        return Err(format!("--scenario: `{list}` names a network twice"));
    }
    Ok(networks)
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
    let mut params = PlaygroundParams::default().sim;
    let mut kind = "snapshots";
    let mut seed = None;
    let mut it = options.iter();
    while let Some(option) = it.next() {
        let mut value = || it.next().copied().ok_or_else(|| format!("export: {option} needs a value"));
        match *option {
            "--kind" => kind = value()?,
            "--seed" => seed = Some(parse_seed(value()?)?),
            "--params" => params = read_params(value()?)?.sim,
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

/// `--seed N`: a whole number ≥ 0.
fn parse_seed(v: &str) -> Result<u64, String> {
    v.parse::<u64>().map_err(|_| format!("--seed: `{v}` is not a whole number ≥ 0"))
}

/// `--params FILE.json`: the playground's parameters (the page's object), every field optional; errors name the
/// file and the field.
fn read_params(path: &str) -> Result<PlaygroundParams, String> {
    let too_large = || format!("{path}: larger than {} KiB, more than parameters ever need", MAX_PARAMS_BYTES >> 10);
    let bytes = read(path, MAX_PARAMS_BYTES).map_err(|e| e.unwrap_or_else(too_large))?;
    let text = String::from_utf8(bytes).map_err(|_| format!("{path}: not UTF-8 text"))?;
    PlaygroundParams::from_json(&text).map_err(|e| format!("{path}: {e}"))
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
