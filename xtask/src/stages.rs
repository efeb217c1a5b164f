//! `cargo xtask test`: every suite, one line per stage, then a summary.
//!
//! A stage that fails does not stop the others; a stage whose prerequisite failed is skipped and says why.
//! Each stage's full output is in `target/xtask/logs/<stage>.log` (`--verbose` streams it instead); on failure
//! its last lines are printed.
//!
//! A green summary means tests ran: a stage fails when any of its suites runs zero tests (a test binary whose
//! `running 0 tests`, an end-to-end file without a test, a skipped end-to-end test) and when a stage cannot run
//! its tool (clippy for the wasm32 binding). The one suite that is empty by design is `tests/web.rs` natively: it
//! is wasm32-only and the wasm-bindgen-test stage must run it (and fails when it runs nothing).

use crate::config::{check, BuildConfig};
use crate::dist;
use crate::fuzz::{self, FuzzRoute};
use crate::run::Cmd;
use crate::toolchain::{browser, Browser, Tools, WASM_TARGET};
use crate::wasm;
use std::path::{Path, PathBuf};
use std::time::Instant;

const STAGES: usize = 11;

struct Outcome {
    name: &'static str,
    result: Result<String, String>,
    seconds: f64,
}

struct Runner {
    root: PathBuf,
    verbose: bool,
    done: Vec<Outcome>,
}

impl Runner {
    fn log(&self, name: &str) -> PathBuf {
        self.root.join("target/xtask/logs").join(format!("{}.log", name.replace(' ', "-")))
    }

    /// Runs `cmd` for stage `name`, streamed or logged; returns the log text (empty when streamed).
    fn exec(&self, name: &str, cmd: Cmd) -> Result<String, String> {
        if self.verbose {
            cmd.run().map(|_| String::new())
        } else {
            let log = self.log(name);
            cmd.run_logged(&log)?;
            Ok(std::fs::read_to_string(&log).unwrap_or_default())
        }
    }

    fn stage<T>(&mut self, name: &'static str, body: impl FnOnce(&Runner) -> Result<(T, String), String>) -> Option<T> {
        let n = self.done.len() + 1;
        println!("[{n}/{STAGES}] {name} …");
        let start = Instant::now();
        let result = body(self);
        let seconds = start.elapsed().as_secs_f64();
        let (value, result) = match result {
            Ok((v, detail)) => (Some(v), Ok(detail)),
            Err(e) => (None, Err(e)),
        };
        match &result {
            Ok(detail) => println!("[{n}/{STAGES}] {name}: ok ({seconds:.1} s) {detail}"),
            Err(e) => println!("[{n}/{STAGES}] {name}: FAILED ({seconds:.1} s)\n{e}"),
        }
        self.done.push(Outcome { name, result, seconds });
        value
    }

    fn skip(&mut self, name: &'static str, why: &str) {
        let n = self.done.len() + 1;
        println!("[{n}/{STAGES}] {name}: skipped ({why})");
        self.done.push(Outcome { name, result: Err(format!("skipped: {why}")), seconds: 0.0 });
    }
}

/// Cases per property test in `--long` runs (proptest reads `PROPTEST_CASES`; see tests/proptest_cases/).
pub const LONG_CASES: u32 = 10_000;

/// Runs every stage; `Err` when any failed or was skipped. `long`: every property test with [`LONG_CASES`].
pub fn run_all(root: &Path, verbose: bool, long: bool) -> Result<(), String> {
    let started = Instant::now();
    let mut r = Runner { root: root.to_path_buf(), verbose, done: Vec::new() };

    r.stage("config", |r| {
        let cfg = BuildConfig::load(&r.root)?;
        let problems = check(&r.root, &cfg)?;
        if problems.is_empty() {
            Ok(((), "wasm-pack.toml, Cargo.toml, Cargo.lock, package.json and README agree; the core's tree has no binding crate".into()))
        } else {
            Err(problems.join("\n"))
        }
    });
    let tools = r.stage("setup", |r| {
        let tools = Tools::for_build(&r.root)?;
        let browser = browser()?;
        let detail = format!("{:?} route", tools.wasm_cargo.route);
        Ok(((tools, browser), detail))
    });
    r.stage("fmt", |r| {
        r.exec("fmt", cargo(&r.root).args(["fmt", "--all", "--check"]))?;
        Ok(((), "cargo fmt --all --check".into()))
    });
    r.stage("clippy", |r| {
        r.exec("clippy", cargo(&r.root).args(["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"]))?;
        Ok(((), "native, all targets, -D warnings".into()))
    });
    r.stage("native tests", |r| {
        let mut cmd = cargo(&r.root).args(["test", "--workspace"]);
        if long {
            cmd = cmd.args(["--profile", "long"]).env("PROPTEST_CASES", LONG_CASES.to_string());
        }
        let log = r.exec("native tests", cmd)?;
        let cases =
            if long { format!(", every property with {LONG_CASES} cases (profile long)") } else { String::new() };
        Ok(((), format!("{}{cases}", every_rust_suite_ran(&log, &["tests/web.rs"])?)))
    });
    r.stage("fuzz", |r| {
        let outcomes = fuzz::run(&r.root, FuzzRoute::Rustup, fuzz::SMOKE_SECONDS, None, false, fuzz::Report::Logs)?;
        let executions: u64 = outcomes.iter().map(|o| o.executions).sum();
        Ok((
            (),
            format!(
                "{} targets × {} s on their saved corpora: {executions} executions, no crash",
                outcomes.len(),
                fuzz::SMOKE_SECONDS
            ),
        ))
    });

    let Some((tools, browser)) = tools else {
        for name in ["wasm build", "wasm clippy", "wasm-bindgen-test", "end-to-end", "play again"] {
            r.skip(name, "setup failed");
        }
        return summary(&r, started);
    };
    let built = r.stage("wasm build", |r| {
        let report = wasm::build(&r.root, &tools)?;
        let budget = &tools.cfg.budget;
        let builds = [
            ("first-frame", "wasm-bytes", &report.page, budget.wasm_bytes),
            ("full", "full-wasm-bytes", &report.full, budget.full_wasm_bytes),
            ("worked-example", "example-wasm-bytes", &report.example, budget.example_wasm_bytes),
        ];
        for (name, key, sizes, limit) in builds {
            if sizes.optimised_wasm > limit {
                return Err(format!(
                    "the optimised {name} wasm is {} B, over the budget of {limit} B (wasm-pack.toml [budget] {key})",
                    sizes.optimised_wasm
                ));
            }
        }
        Ok((
            (),
            format!(
                "first frame {} B optimised (budget {} B), full {} B (budget {} B), worked example {} B (budget {} B)",
                report.page.optimised_wasm,
                budget.wasm_bytes,
                report.full.optimised_wasm,
                budget.full_wasm_bytes,
                report.example.optimised_wasm,
                budget.example_wasm_bytes
            ),
        ))
    });
    r.stage("wasm clippy", |r| wasm_clippy(r, &tools));
    r.stage("wasm-bindgen-test", |r| wasm_bindgen_test(r, &tools, &browser));
    if built.is_some() {
        r.stage("end-to-end", |r| end_to_end(r, &browser));
        r.stage("play again", play_second_start);
    } else {
        r.skip("end-to-end", "the wasm build failed");
        r.skip("play again", "the wasm build failed");
    }
    summary(&r, started)
}

/// `cargo xtask play` as a user starts it a second time: after the wasm build stage built everything and the
/// end-to-end stage made the optimised page, every wasm build and the page must be kept as up to date, and what it
/// serves must be the optimised page (`dist`: bundled, with module preloads and precompressed files), through
/// `netcode-lab serve`. The seconds until the page is served are reported (a figure, not a pass mark: speed lives
/// in the benches).
fn play_second_start(r: &Runner) -> Result<((), String), String> {
    use std::io::{BufRead, Read, Write};
    use std::os::unix::process::CommandExt;
    let started = Instant::now();
    let mut child = std::process::Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["xtask", "play", "--port", "0"])
        .current_dir(&r.root)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .process_group(0)
        .spawn()
        .map_err(|e| format!("cannot start cargo xtask play: {e}"))?;
    // `play` runs `netcode-lab serve` in the foreground: stop the whole process group, server included.
    let group = child.id();
    let stop = move || {
        let _ = std::process::Command::new("kill").args(["-TERM", "--", &format!("-{group}")]).status();
    };
    let mut said = Vec::new();
    let mut url = None;
    if let Some(out) = child.stdout.take() {
        for line in std::io::BufReader::new(out).lines() {
            let Ok(line) = line else { break };
            url = line.split_whitespace().find(|w| w.starts_with("http://")).map(str::to_string);
            said.push(line);
            if url.is_some() {
                break;
            }
        }
    }
    let _ = std::fs::write(r.log("play again"), said.join("\n"));
    let page = url.as_deref().map(|url| {
        let addr = url.trim_start_matches("http://").trim_end_matches('/').to_string();
        let mut body = String::new();
        if let Ok(mut stream) = std::net::TcpStream::connect(&addr) {
            let _ = write!(stream, "GET / HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
            let _ = stream.read_to_string(&mut body);
        }
        body
    });
    let served_after = started.elapsed().as_secs_f64();
    stop();
    let _ = child.wait();
    let page = page.ok_or_else(|| format!("play never said where it serves:\n{}", said.join("\n")))?;
    let kept = |step: &str| said.iter().filter(|l| l.starts_with(step) && l.contains("up to date")).count();
    let (builds, sites) = (kept("[build]"), kept("[dist]"));
    if (builds, sites) != (3, 1) {
        return Err(format!(
            "{builds} of the 3 wasm builds and {sites} of the 1 optimised page were kept as up to date:\n{}",
            said.join("\n")
        ));
    }
    if !page.starts_with("HTTP/1.1 200") || !page.contains("modulepreload") {
        return Err(format!("play did not serve the optimised page (200 with module preloads): {:.200}", page));
    }
    let site = r.root.join(crate::PLAY_SITE);
    if !site.join("index.html.br").is_file() {
        return Err(format!("no precompressed index.html.br in {}", site.display()));
    }
    Ok(((), format!("the wasm builds and the optimised page up to date; served after {served_after:.1} s")))
}

/// The cargo that runs `cargo xtask` (rustup's, on ordinary machines): for the native stages.
fn cargo(root: &Path) -> Cmd {
    Cmd::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into())).dir(root)
}

fn wasm_clippy(r: &Runner, tools: &Tools) -> Result<((), String), String> {
    if !tools.wasm_cargo.has_clippy() {
        return Err(format!(
            "clippy is not available for the {:?} route, so the wasm32 binding layer is not linted; install it \
             (rustup component add clippy, or Debian's rust-clippy) — the test command does not pass without it",
            tools.wasm_cargo.route
        ));
    }
    let cmd = tools
        .wasm_cargo
        .cmd(&r.root)
        .args(["clippy", "--target", WASM_TARGET, "-p", "netcode-lab"])
        .args(["--lib", "--test", "web", "--", "-D", "warnings"]);
    r.exec("wasm clippy", cmd)?;
    // The first-frame build compiles the binding without the `full` feature: it must lint clean too.
    let page = tools
        .wasm_cargo
        .cmd(&r.root)
        .args(["clippy", "--target", WASM_TARGET, "-p", "netcode-lab", "--lib", "--no-default-features"])
        .args(["--features", "web", "--", "-D", "warnings"]);
    r.exec("wasm clippy", page)?;
    // The core alone, as a game compiling for the web depends on it (no binding at all).
    let core = tools
        .wasm_cargo
        .cmd(&r.root)
        .args(["clippy", "--target", WASM_TARGET, "-p", "netcode-lab", "--lib", "--no-default-features"])
        .args(["--", "-D", "warnings"]);
    r.exec("wasm clippy", core)?;
    // The worked example's build: the first-frame one with feature `example`.
    let example = tools
        .wasm_cargo
        .cmd(&r.root)
        .args(["clippy", "--target", WASM_TARGET, "-p", "netcode-lab", "--lib", "--no-default-features"])
        .args(["--features", "example", "--", "-D", "warnings"]);
    r.exec("wasm clippy", example)?;
    Ok(((), "the core alone, the binding layer (all three builds) + wasm tests, -D warnings".into()))
}

fn chrome_args() -> Vec<&'static str> {
    vec![
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
    ]
}

fn wasm_bindgen_test(r: &Runner, tools: &Tools, browser: &Browser) -> Result<((), String), String> {
    let caps = serde_json::json!({
        "goog:chromeOptions": { "binary": browser.chromium, "args": chrome_args() }
    });
    let caps_file = r.root.join("target/xtask/webdriver.json");
    std::fs::create_dir_all(caps_file.parent().expect("has parent")).map_err(|e| e.to_string())?;
    std::fs::write(&caps_file, caps.to_string()).map_err(|e| e.to_string())?;
    let cmd = tools
        .wasm_cargo
        .cmd(&r.root)
        // Feature `serve` off: it is the native CLI's server, and an integration test builds the binary too.
        .args(["test", "--target", WASM_TARGET, "-p", "netcode-lab", "--test", "web"])
        .args(["--no-default-features", "--features", "full"])
        .env("CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER", tools.test_runner())
        .env("CHROMEDRIVER", &browser.chromedriver)
        .env("WASM_BINDGEN_TEST_WEBDRIVER_JSON", &caps_file)
        .env("WASM_BINDGEN_TEST_TIMEOUT", "120");
    let log = r.exec("wasm-bindgen-test", cmd)?;
    Ok(((), format!("headless Chromium: {}", every_rust_suite_ran(&log, &[])?)))
}

fn end_to_end(r: &Runner, browser: &Browser) -> Result<((), String), String> {
    // What users get: the dist folder (module preloads, precompressed files) through the same server — the very
    // folder `cargo xtask play` serves.
    let site = r.root.join(crate::PLAY_SITE);
    dist::make_if_changed(&r.root, &site)?;
    // Through the product's own server, so the page can record its stream (tests/e2e/record.test.mjs).
    let server = crate::serve::product_in_background(&r.root, &site)?;
    let url = server.url.clone();
    let dir = r.root.join("tests/e2e");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".test.mjs"))
        .collect();
    files.sort();
    // The spec reporter for people, a JUnit file to count what ran (node counts a file without tests as one test).
    let junit = r.root.join("target/xtask/e2e-junit.xml");
    let _ = std::fs::remove_file(&junit);
    let cmd = Cmd::new("node")
        .args(["--test", "--test-concurrency=1", "--test-reporter=spec", "--test-reporter-destination=stdout"])
        .arg("--test-reporter=junit")
        .arg(format!("--test-reporter-destination={}", junit.display()))
        .args(&files)
        .dir(&r.root)
        .env("NETCODE_LAB_URL", &url)
        .env("NETCODE_LAB_SITE", "dist")
        .env("CHROMIUM", &browser.chromium)
        .env("NETCODE_LAB_ARTIFACTS", r.root.join("artifacts/e2e"));
    let log = r.exec("end-to-end", cmd)?;
    let report = std::fs::read_to_string(&junit).map_err(|e| format!("no test report {}: {e}", junit.display()))?;
    let ran = every_node_file_ran(&report, &files)?;
    let summary = count_node_tests(&log);
    Ok(((), format!("{summary} of {ran} tests in {} files (screenshots in artifacts/e2e/)", files.len())))
}

/// The suites of a cargo test log: (`Running tests/x.rs (…)` / `Running unittests src/lib.rs (…)` /
/// `Doc-tests name`, how many tests it ran).
fn rust_suites(log: &str) -> Vec<(String, usize)> {
    let mut suites: Vec<(String, usize)> = Vec::new();
    let mut current: Option<String> = None;
    for line in log.lines() {
        let l = line.trim();
        if let Some(rest) = l.strip_prefix("Running ") {
            current = Some(rest.split(" (").next().unwrap_or(rest).trim().to_string());
        } else if let Some(rest) = l.strip_prefix("Doc-tests ") {
            current = Some(format!("doc-tests {rest}"));
        } else if let Some(n) = l.strip_prefix("running ").and_then(|r| r.split_whitespace().next()?.parse().ok()) {
            if let Some(name) = current.take() {
                suites.push((name, n));
            }
        }
    }
    suites
}

/// "N passed in M suites", or an error naming every suite that ran zero tests (except the `allowed` ones).
fn every_rust_suite_ran(log: &str, allowed: &[&str]) -> Result<String, String> {
    if log.is_empty() {
        return Ok(String::new()); // --verbose: streamed, nothing to read
    }
    let suites = rust_suites(log);
    let empty: Vec<&str> = suites
        .iter()
        .filter(|(name, n)| *n == 0 && !allowed.iter().any(|a| name.ends_with(a) || name.contains(&format!("{a} "))))
        .map(|(name, _)| name.as_str())
        .collect();
    if suites.is_empty() {
        return Err("no test suite ran".into());
    }
    if !empty.is_empty() {
        return Err(format!("these suites ran zero tests: {}", empty.join(", ")));
    }
    Ok(format!("{} in {} suites", count_rust_tests(log), suites.len()))
}

/// The number of tests the JUnit report says ran, or an error for a file without tests (node reports such a file
/// as one test named after it), a skipped or to-do test, or no test at all.
fn every_node_file_ran(report: &str, files: &[PathBuf]) -> Result<usize, String> {
    let cases: Vec<&str> = report.split("<testcase ").skip(1).collect();
    let name = |case: &str| case.split("name=\"").nth(1).and_then(|r| r.split('"').next()).unwrap_or("").to_string();
    let empty: Vec<String> =
        cases.iter().map(|c| name(c)).filter(|n| files.iter().any(|f| f.to_string_lossy() == n.as_str())).collect();
    if !empty.is_empty() {
        return Err(format!("these end-to-end files ran zero tests: {}", empty.join(", ")));
    }
    let skipped: Vec<String> =
        cases.iter().filter(|c| c.contains("<skipped") || c.contains("<todo")).map(|c| name(c)).collect();
    if !skipped.is_empty() {
        return Err(format!("skipped end-to-end tests: {}", skipped.join(", ")));
    }
    if cases.is_empty() {
        return Err("the end-to-end stage ran no test".into());
    }
    Ok(cases.len())
}

/// "N passed" summed over cargo's `test result:` lines.
fn count_rust_tests(log: &str) -> String {
    let passed: usize = log
        .lines()
        .filter(|l| l.starts_with("test result:"))
        .filter_map(|l| l.split(';').next()?.split_whitespace().rev().nth(1)?.parse::<usize>().ok())
        .sum();
    if log.is_empty() {
        String::new()
    } else {
        format!("{passed} passed")
    }
}

/// "N passed" from node's test reporter summary (`ℹ pass N`).
fn count_node_tests(log: &str) -> String {
    let pass = log.lines().find_map(|l| l.trim().strip_prefix("ℹ pass ")).unwrap_or("?");
    format!("{pass} passed")
}

fn summary(r: &Runner, started: Instant) -> Result<(), String> {
    println!("\nsummary");
    for o in &r.done {
        let mark = match &o.result {
            Ok(_) => "ok     ",
            Err(e) if e.starts_with("skipped") => "skipped",
            Err(_) => "FAILED ",
        };
        println!("  {mark}  {:<18} {:>7.1} s", o.name, o.seconds);
    }
    let failed = r.done.iter().filter(|o| o.result.is_err()).count();
    println!("  total {:.1} s", started.elapsed().as_secs_f64());
    if failed == 0 {
        println!("all {} stages passed", r.done.len());
        Ok(())
    } else {
        Err(format!("{failed} of {} stages failed or were skipped", r.done.len()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rust_test_counts_are_summed_over_binaries() {
        let log = "test result: ok. 12 passed; 0 failed; 0 ignored\nfoo\ntest result: ok. 3 passed; 0 failed";
        assert_eq!(count_rust_tests(log), "15 passed");
    }

    #[test]
    fn a_suite_that_runs_zero_tests_fails_the_stage() {
        let log = "     Running unittests src/lib.rs (target/debug/deps/x-1)\nrunning 3 tests\ntest result: ok. 3 passed; 0 failed\n\
                   \x20    Running tests/web.rs (target/debug/deps/web-2)\nrunning 0 tests\ntest result: ok. 0 passed; 0 failed\n\
                   \x20    Running tests/sim.rs (target/debug/deps/sim-3)\nrunning 0 tests\n\
                   \x20  Doc-tests x\nrunning 0 tests\n";
        let err = every_rust_suite_ran(log, &["tests/web.rs"]).unwrap_err();
        assert_eq!(err, "these suites ran zero tests: tests/sim.rs, doc-tests x");
        let fine = log.replace(
            "Running tests/sim.rs (target/debug/deps/sim-3)\nrunning 0",
            "Running tests/sim.rs (x)\nrunning 2",
        );
        let fine = fine.replace("  Doc-tests x\nrunning 0 tests\n", "");
        assert_eq!(every_rust_suite_ran(&fine, &["tests/web.rs"]).unwrap(), "3 passed in 3 suites");
        assert_eq!(every_rust_suite_ran("nothing here", &[]).unwrap_err(), "no test suite ran");
    }

    #[test]
    fn an_end_to_end_file_without_tests_or_with_a_skipped_test_fails_the_stage() {
        let files = [PathBuf::from("/r/tests/e2e/a.test.mjs"), PathBuf::from("/r/tests/e2e/b.test.mjs")];
        let good = r#"<testsuites><testcase name="one" time="1"/><testcase name="two" time="1"/></testsuites>"#;
        assert_eq!(every_node_file_ran(good, &files), Ok(2));
        let empty = r#"<testsuites><testcase name="one" time="1"/><testcase name="/r/tests/e2e/b.test.mjs" time="1"/></testsuites>"#;
        assert_eq!(
            every_node_file_ran(empty, &files).unwrap_err(),
            "these end-to-end files ran zero tests: /r/tests/e2e/b.test.mjs"
        );
        let skipped = r#"<testsuites><testcase name="one" time="1"><skipped type="skipped" message="true"/></testcase></testsuites>"#;
        assert_eq!(every_node_file_ran(skipped, &files).unwrap_err(), "skipped end-to-end tests: one");
        assert_eq!(
            every_node_file_ran("<testsuites></testsuites>", &files).unwrap_err(),
            "the end-to-end stage ran no test"
        );
    }

    #[test]
    fn node_test_count_comes_from_the_summary() {
        assert_eq!(count_node_tests("ℹ tests 4\nℹ pass 4\nℹ fail 0"), "4 passed");
    }
}
