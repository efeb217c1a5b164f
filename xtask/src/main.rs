//! `cargo xtask` — netcode-lab's build tool (see README.md).
//!
//! ```text
//! cargo xtask play [--port N] [--lan] [--dev]   install what is missing, build the wasm (release, wasm-opt; each
//!                                       of the three skipped when up to date), make the optimised page (`dist`,
//!                                       into target/xtask/play-site) and serve it and the snapshot stream
//!                                       (`netcode-lab serve`); --dev serves www/ as it is (unbundled modules)
//! cargo xtask test [--long]             install what is missing, run every suite, print a summary (--long:
//!                                       every property test with 10 000 cases)
//! cargo xtask fuzz [--seconds N]        the fuzz targets of fuzz/ (see xtask/src/fuzz.rs)
//! cargo xtask soak                      24 simulated hours natively, ten real minutes of the page (soak.rs)
//! cargo xtask dist [--out DIR]          a self-contained static folder of the page (default: dist/), with
//!                                       module preloads and precompressed .br/.gz files
//! cargo xtask build                     only build www/pkg
//! cargo xtask serve [--port N] [--lan] [--dir DIR]   only serve www/ (or DIR; no build)
//! cargo xtask bench-stream [--clients N]  one server streaming to N recorders: arrivals, drift, CPU
//! cargo xtask bench-page [--baseline REF] [--runs N]  the speed, size and load-time figures, before → after
//! cargo xtask golden                    rewrite tests/traces/*.expected.json from the current core (refused under CI)
//! ```
//! Every step prints one line saying what it does. Installs are idempotent and come only from the package
//! registries (apt, crates.io, npm); the wasm toolchain route (rustup or Debian's rustc-web) is picked here.

mod bench;
mod bench_stream;
mod config;
mod dist;
mod fuzz;
mod run;
mod serve;
mod soak;
mod stages;
mod toolchain;
mod wasm;

use std::path::PathBuf;
use std::process::ExitCode;

/// Where `play` makes the optimised page it serves (the `dist` build), under the ignored target folder.
const PLAY_SITE: &str = "target/xtask/play-site";

const USAGE: &str =
    "usage: cargo xtask <play|test|fuzz|soak|dist|build|serve|bench-stream|bench-page|golden|help> [options]
  play  [--port N] [--lan] [--dev]
                     install what is missing, build the wasm (a build whose inputs have not changed is skipped),
                     make the optimised page (bundled, precompressed: what `dist` makes, in target/xtask/play-site)
                     and serve it and the snapshot stream with `netcode-lab serve` on http://127.0.0.1:N/ (default
                     8080; --lan: also on this machine's local-network addresses, printed: a class's phones can
                     record the room's network); --dev: serve www/ itself, unbundled, for working on the page
  test  [--verbose] [--long]
                     install what is missing, then: config, fmt, clippy, native tests, fuzz targets (a few
                     seconds each), wasm build, wasm clippy, wasm-bindgen-test in headless Chromium, end-to-end
                     browser tests; --long runs every property test with 10 000 cases
  fuzz  [--seconds N] [--target NAME] [--route rustup|debian] [--merge]
                     build the fuzz targets (cargo-fuzz, libFuzzer) and run each N seconds (default 60);
                     --merge minimises what they found into fuzz/corpus/
  soak  [--hours H] [--minutes M] [--native] [--page]
                     24 simulated hours of every clock and policy at 20 % burst loss (memory, finiteness,
                     render time), then ten real minutes of the page at full speed (heap, wasm memory, frames)
  dist  [--out DIR] [--no-build]
                     build and copy the page into a self-contained static folder (default dist/): modules
                     bundled and minified (esbuild), preloads, .br/.gz; --no-build reuses www/pkg as it is
  build              build www/pkg only
  serve [--port N] [--lan] [--dir DIR]  `netcode-lab serve` www/ (or DIR, e.g. dist) without building
  bench-stream [--clients N] [--seconds S]
                     one `netcode-lab serve` streaming 60 Hz to N recorders (default 30) for S seconds (default
                     60) on loopback: snapshots arrived, the send clock's drift, the server's CPU
  bench-page [--baseline REF] [--runs N] [--only a,b]  page load, bytes, drag, Lighthouse, core speed:
                     every figure of the performance goals, printed beside REF's (a git commit or branch)
  golden             rewrite the golden trace files from the current core, then run their hand-derived tests
                     (refused when CI is set; check `git diff tests/traces` before committing)
environment: NETCODE_LAB_WASM_ROUTE=rustup|debian forces a toolchain route; CHROMIUM, CHROMEDRIVER pick browsers";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match dispatch(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

fn dispatch(args: &[String]) -> Result<(), String> {
    let root = repo_root();
    let (command, rest) = args.split_first().map(|(c, r)| (c.as_str(), r)).unwrap_or(("help", &[]));
    let opts = Options::parse(rest)?;
    match command {
        "play" => {
            let started = std::time::Instant::now();
            let tools = toolchain::Tools::for_build(&root)?;
            wasm::build(&root, &tools)?;
            let site = if opts.dev {
                root.join("www")
            } else {
                let site = root.join(PLAY_SITE);
                dist::make_if_changed(&root, &site)?;
                site
            };
            run::say(
                "play",
                format!("ready to serve {} after {:.1} s", site.display(), started.elapsed().as_secs_f64()),
            );
            serve::product_forever(&root, &site, opts.listen())
        }
        "test" => stages::run_all(&root, opts.verbose, opts.long),
        "fuzz" => {
            let route = opts.route.unwrap_or(fuzz::FuzzRoute::Rustup);
            let seconds = opts.seconds.unwrap_or(60);
            fuzz::run(&root, route, seconds, opts.target.as_deref(), opts.merge, fuzz::Report::Terminal).map(|_| ())
        }
        "soak" => soak::run(&root, &opts.soak()),
        "dist" => {
            let tools = toolchain::Tools::for_build(&root)?;
            if !opts.no_build {
                wasm::build(&root, &tools)?;
            }
            dist::make(&root, &opts.out.unwrap_or_else(|| root.join("dist"))).map(|_| ())
        }
        "build" => {
            let tools = toolchain::Tools::for_build(&root)?;
            wasm::build(&root, &tools).map(|_| ())
        }
        "serve" => serve::product_forever(&root, &opts.dir.clone().unwrap_or_else(|| root.join("www")), opts.listen()),
        "bench-stream" => bench_stream::run(&root, opts.clients.unwrap_or(30), opts.seconds.map_or(60, |s| s as u32)),
        "bench-page" => bench::run(&root, opts.baseline.as_deref(), opts.runs, opts.only.as_deref()),
        "golden" => golden(&root),
        "help" | "--help" | "-h" => {
            println!("{USAGE}");
            Ok(())
        }
        other => Err(format!("unknown command `{other}`\n{USAGE}")),
    }
}

/// Rewrites the golden trace files (`UPDATE_GOLDEN=1 cargo test --test trace_cli`). CI never rewrites them: a
/// wrong core would otherwise pass by regenerating its own expectations.
fn golden(root: &std::path::Path) -> Result<(), String> {
    refuse_under_ci(std::env::var_os("CI").is_some())?;
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    println!("[golden] UPDATE_GOLDEN=1 cargo test --test trace_cli (rewrites tests/traces/*.json)");
    // The traces first (`export --example`), then their replays, which read them.
    for test in ["export_writes_the_golden", "every_golden_trace_replays"] {
        run::Cmd::new(&cargo)
            .dir(root)
            .args(["test", "--test", "trace_cli", "--", test])
            .env("UPDATE_GOLDEN", "1")
            .run()?;
    }
    println!("[golden] cargo test --test trace_cli (the hand-derived golden_* tests judge the new files)");
    run::Cmd::new(&cargo).dir(root).args(["test", "--test", "trace_cli"]).run()?;
    println!("[golden] done: review `git diff tests/traces` before committing");
    Ok(())
}

fn refuse_under_ci(ci: bool) -> Result<(), String> {
    if ci {
        return Err("golden: refused because CI is set — golden files are rewritten by a person, not by CI".into());
    }
    Ok(())
}

/// Flags shared by the commands.
#[derive(Default)]
struct Options {
    port: Option<u16>,
    lan: bool,
    out: Option<PathBuf>,
    dir: Option<PathBuf>,
    verbose: bool,
    baseline: Option<String>,
    runs: Option<usize>,
    only: Option<String>,
    long: bool,
    seconds: Option<u64>,
    target: Option<String>,
    route: Option<fuzz::FuzzRoute>,
    merge: bool,
    hours: Option<f64>,
    minutes: Option<f64>,
    native: bool,
    page: bool,
    no_build: bool,
    dev: bool,
    clients: Option<usize>,
}

impl Options {
    fn parse(args: &[String]) -> Result<Options, String> {
        let mut opts = Options::default();
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            match arg.as_str() {
                "--port" | "-p" => {
                    let value = it.next().ok_or("--port needs a number")?;
                    opts.port = Some(value.parse().map_err(|_| format!("--port: `{value}` is not a port number"))?);
                }
                "--out" => opts.out = Some(PathBuf::from(it.next().ok_or("--out needs a folder")?)),
                "--dir" => opts.dir = Some(PathBuf::from(it.next().ok_or("--dir needs a folder")?)),
                "--lan" => opts.lan = true,
                "--baseline" => {
                    opts.baseline = Some(it.next().ok_or("--baseline needs a git commit or branch")?.clone())
                }
                "--runs" => {
                    let value = it.next().ok_or("--runs needs a number")?;
                    opts.runs = Some(value.parse().map_err(|_| format!("--runs: `{value}` is not a count"))?);
                }
                "--only" => opts.only = Some(it.next().ok_or("--only needs a list")?.clone()),
                "--verbose" | "-v" => opts.verbose = true,
                "--long" => opts.long = true,
                "--merge" => opts.merge = true,
                "--native" => opts.native = true,
                "--page" => opts.page = true,
                "--no-build" => opts.no_build = true,
                "--dev" => opts.dev = true,
                "--clients" => opts.clients = Some(number(&mut it, "--clients")?),
                "--seconds" => opts.seconds = Some(number(&mut it, "--seconds")?),
                "--hours" => opts.hours = Some(number(&mut it, "--hours")?),
                "--minutes" => opts.minutes = Some(number(&mut it, "--minutes")?),
                "--target" => opts.target = Some(it.next().ok_or("--target needs a fuzz target's name")?.clone()),
                "--route" => {
                    opts.route = Some(match it.next().map(String::as_str) {
                        Some("rustup") => fuzz::FuzzRoute::Rustup,
                        Some("debian") => fuzz::FuzzRoute::Debian,
                        other => return Err(format!("--route: expected rustup or debian, found {other:?}")),
                    })
                }
                other => return Err(format!("unknown option `{other}`\n{USAGE}")),
            }
        }
        Ok(opts)
    }

    fn listen(&self) -> serve::Listen {
        serve::Listen { port: self.port.unwrap_or(8080), lan: self.lan }
    }
}

/// The number after a flag.
fn number<T: std::str::FromStr>(it: &mut std::slice::Iter<String>, flag: &str) -> Result<T, String> {
    let value = it.next().ok_or_else(|| format!("{flag} needs a number"))?;
    value.parse().map_err(|_| format!("{flag}: `{value}` is not a number"))
}

impl Options {
    fn soak(&self) -> soak::SoakOptions {
        let both = !self.native && !self.page;
        soak::SoakOptions {
            hours: self.hours.unwrap_or(24.0),
            minutes: self.minutes.unwrap_or(10.0),
            native: self.native || both,
            page: self.page || both,
        }
    }
}

/// The repository root: the folder above this crate.
fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask lives inside the repository").to_path_buf()
}

#[cfg(test)]
mod tests {
    #[test]
    fn golden_is_refused_under_ci() {
        assert!(super::refuse_under_ci(true).unwrap_err().contains("refused because CI is set"));
        assert_eq!(super::refuse_under_ci(false), Ok(()));
    }
}
