//! `cargo xtask bench-page`: every performance figure of the page and the core, measured in one run, for the
//! current tree ("after") and, with `--baseline REF`, for a git commit or branch ("before"), side by side.
//!
//! ```text
//!  after   cargo xtask build + dist            ─► target/bench/after          served compressed (.br/.gz)
//!  before  git archive REF ─► its own `cargo xtask dist` ─► target/bench/baseline/<sha>/site
//!                                                          served as REF's dist is (uncompressed if it has no .br)
//!  each side:  criterion (this tree's benches/sim.rs + benches/buffer.rs, copied into the baseline)
//!              benches/wasm-buffer for wasm32 + wasm-bindgen --target nodejs ─► peerbench's WASM_IMPL slot
//!              (../shared/peerbench, copied and `npm ci`ed under target/bench/)
//!  then:       node benches/page/run.mjs: cold loads under network + CPU emulation, bytes, slider drags,
//!              the in-browser core bench, Lighthouse — and the table with every figure, before → after
//! ```
//! Nothing here is a test: timings on a shared 2-core machine are noisy, so they are reported, never asserted.

use crate::config::ReleaseSettings;
use crate::dist;
use crate::run::{say, Cmd};
use crate::serve::{serve_in_background, Encoding};
use crate::toolchain::{browser, Tools, WASM_TARGET};
use crate::wasm;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// What to measure; `--only` picks a subset (names as below).
const PARTS: [&str; 6] = ["load", "drag", "core", "lighthouse", "native", "peer"];

/// One side of the comparison.
struct Side {
    name: &'static str,
    /// The source tree (the repository itself, or the baseline's extracted copy).
    tree: PathBuf,
    /// The built site.
    site: PathBuf,
    encoding: Encoding,
}

pub fn run(root: &Path, baseline: Option<&str>, runs: Option<usize>, only: Option<&str>) -> Result<(), String> {
    let only: BTreeSet<&str> = only.map_or(PARTS.iter().copied().collect(), |o| o.split(',').collect());
    if let Some(bad) = only.iter().find(|p| !PARTS.contains(p)) {
        return Err(format!("--only: unknown part `{bad}` (one of {})", PARTS.join(", ")));
    }
    let tools = Tools::for_build(root)?;
    let chromium = browser()?.chromium;
    let bench_dir = root.join("target/bench");

    wasm::build(root, &tools)?;
    let after_site = bench_dir.join("after");
    dist::make(root, &after_site)?;
    let mut sides =
        vec![Side { name: "after", tree: root.to_path_buf(), site: after_site, encoding: Encoding::Compressed }];
    if let Some(reference) = baseline {
        sides.insert(0, baseline_side(root, &bench_dir, reference)?);
    }

    let mut figures = serde_json::Map::new();
    for side in &sides {
        let mut f = serde_json::Map::new();
        f.insert("wasmBytes".into(), file_size(&side.site.join("pkg/netcode_lab_bg.wasm")).into());
        // The first-frame build; older trees have one build, which is also the first frame's.
        let page = side.site.join("pkg/netcode_lab_page_bg.wasm");
        if page.is_file() {
            f.insert("pageWasmBytes".into(), file_size(&page).into());
        }
        f.insert("url".into(), serve_in_background(&side.site, side.encoding)?.into());
        f.insert("compressed".into(), (side.encoding == Encoding::Compressed).into());
        if only.contains("native") {
            f.insert("native".into(), native_figures(root, side)?);
        }
        if only.contains("peer") {
            match peer_figures(root, &tools, side) {
                Ok(v) => f.insert("peer".into(), v),
                Err(e) => f.insert("peer".into(), serde_json::json!({ "error": e })),
            };
        }
        figures.insert(side.name.into(), f.into());
    }
    let figures_file = bench_dir.join("figures.json");
    std::fs::write(&figures_file, serde_json::to_string_pretty(&figures).map_err(|e| e.to_string())?)
        .map_err(|e| e.to_string())?;

    let parts: Vec<&str> =
        only.iter().copied().filter(|p| ["load", "drag", "core", "lighthouse"].contains(p)).collect();
    Cmd::new("node")
        .arg(root.join("benches/page/run.mjs"))
        .arg(&figures_file)
        .dir(root)
        .env("CHROMIUM", &chromium)
        .env("CHROME_PATH", &chromium)
        .env("BENCH_RUNS", runs.unwrap_or(5).to_string())
        .env("BENCH_PARTS", parts.join(","))
        .env("BENCH_OUT", root.join("artifacts/bench"))
        .run()
}

fn file_size(path: &Path) -> u64 {
    path.metadata().map(|m| m.len()).unwrap_or(0)
}

/// Extracts `reference` (once per commit) and builds its site with its own `cargo xtask dist`.
fn baseline_side(root: &Path, bench_dir: &Path, reference: &str) -> Result<Side, String> {
    let sha = Cmd::new("git")
        .args(["rev-parse", "--verify", &format!("{reference}^{{commit}}")])
        .dir(root)
        .read()
        .ok_or_else(|| format!("--baseline: `{reference}` is not a commit of this repository"))?;
    let home = bench_dir.join("baseline").join(&sha[..12]);
    let (tree, site) = (home.join("tree"), home.join("site"));
    let done = home.join("built");
    if !done.exists() {
        say("bench", format!("baseline {reference} ({}): extracting and building with its own xtask", &sha[..12]));
        let _ = std::fs::remove_dir_all(&home);
        std::fs::create_dir_all(&tree).map_err(|e| e.to_string())?;
        let archive = home.join("tree.tar");
        Cmd::new("git").args(["archive", "--format=tar", "-o"]).arg(&archive).arg(&sha).dir(root).run()?;
        Cmd::new("tar").arg("-xf").arg(&archive).arg("-C").arg(&tree).run()?;
        Cmd::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args(["xtask", "dist", "--out"])
            .arg(&site)
            .dir(&tree)
            .run_logged(&home.join("build.log"))?;
        std::fs::write(&done, &sha).map_err(|e| e.to_string())?;
    }
    let precompressed = walk(&site).iter().any(|p| p.extension().is_some_and(|e| e == "br"));
    let encoding = if precompressed { Encoding::Compressed } else { Encoding::Identity };
    say("bench", format!("baseline {reference}: {} ({encoding:?})", site.display()));
    Ok(Side { name: "before", tree, site, encoding })
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// What this tree's benches call that an older core may lack: (bench, file of the side's tree, text it must hold).
const BENCH_NEEDS: [(&str, &str, &str); 3] = [
    ("buffer.rs", "src/buffer/sample.rs", "fn sample_drawn"),
    ("wasm-buffer", "src/buffer/sample.rs", "fn sample_drawn"),
    ("sim.rs", "src/compare/sweep.rs", "pub fn sweep"),
];

/// This tree's `benches/NAME.rs` into `side`'s tree (the same bench source measures both cores) — unless the
/// bench calls what that side's core lacks (`BENCH_NEEDS`: the buffer's lean sample, the sweep's module): then
/// the side's own copy measures it, as it was written for that core.
fn same_bench_source(root: &Path, side: &Side, name: &str) -> Result<(), String> {
    for (bench, file, needs) in BENCH_NEEDS {
        let has = std::fs::read_to_string(side.tree.join(file)).is_ok_and(|text| text.contains(needs));
        if bench == name && !has && side.tree.join("benches").join(name).exists() {
            say("bench", format!("{}: its own benches/{name} (its {file} has no `{needs}`)", side.name));
            return Ok(());
        }
    }
    if side.tree != root {
        let (from, to) = (root.join("benches").join(name), side.tree.join("benches").join(name));
        copy_all(&from, &to)?;
    }
    Ok(())
}

fn copy_all(from: &Path, to: &Path) -> Result<(), String> {
    if from.is_dir() {
        std::fs::create_dir_all(to).map_err(|e| e.to_string())?;
        for entry in std::fs::read_dir(from).map_err(|e| e.to_string())?.flatten() {
            copy_all(&entry.path(), &to.join(entry.file_name()))?;
        }
        Ok(())
    } else {
        std::fs::copy(from, to).map(|_| ()).map_err(|e| format!("cannot copy {}: {e}", from.display()))
    }
}

/// criterion's median (ns) for each benchmark id, from `target/criterion/<id>/new/estimates.json`.
fn criterion_medians(tree: &Path, ids: &[&str]) -> serde_json::Value {
    let mut out = serde_json::Map::new();
    for id in ids {
        let file = tree.join("target/criterion").join(id).join("new/estimates.json");
        let value = std::fs::read_to_string(&file)
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .and_then(|v| v["median"]["point_estimate"].as_f64());
        out.insert(id.to_string(), value.map_or(serde_json::Value::Null, Into::into));
    }
    out.into()
}

/// The native figures: a full 60 s re-simulation, and insert + sample of the core's buffer against peerbench's
/// JavaScript ring buffer written in Rust (`GoodRing`), by criterion: one insert + one full sample
/// (`insert_sample`, `ring_insert_sample`) and one tick of peerbench's workload (a) through the same code as the
/// wasm build (`book_tick`, `goodjs_tick`).
fn native_figures(root: &Path, side: &Side) -> Result<serde_json::Value, String> {
    for bench in ["sim.rs", "buffer.rs"] {
        same_bench_source(root, side, bench)?;
    }
    let log = root.join(format!("target/bench/native-{}.log", side.name));
    say("bench", format!("{}: criterion (sim, buffer) — log in {}", side.name, log.display()));
    Cmd::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["bench", "--bench", "sim", "--bench", "buffer", "--", "--noplot"])
        .arg("rerun_60s_everything|insert_sample/128|_tick/128")
        .dir(&side.tree)
        .run_logged(&log)?;
    // `rerun_60s_everything` also matches `rerun_60s_everything_metrics` (the page's re-run with its metrics),
    // where the tree's benches/sim.rs has it (this tree's is copied into the baseline).
    let mut ids = vec![
        "rerun_60s_everything",
        "rerun_60s_everything_metrics",
        "insert_sample/128",
        "ring_insert_sample/128",
        "book_tick/128",
        "goodjs_tick/128",
    ];
    // The engines' budget: the engines against a full re-simulation (run + metrics), where the tree has them.
    if side.tree.join("benches/engines.rs").is_file() {
        say("bench", format!("{}: criterion (engines against run + metrics)", side.name));
        Cmd::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args(["bench", "--bench", "engines", "--bench", "sim", "--", "--noplot"])
            .arg("^(engines_all_60s_scored|engines_4_drawn_60s|run_60s_60fps|metrics_60s_60fps)$")
            .dir(&side.tree)
            .run_logged(&root.join(format!("target/bench/native-engines-{}.log", side.name)))?;
        ids.extend(["engines_all_60s_scored", "engines_4_drawn_60s", "run_60s_60fps", "metrics_60s_60fps"]);
    }
    Ok(criterion_medians(&side.tree, &ids))
}

/// peerbench (workloads a and a', goodjs against this side's core in wasm): its results JSON.
fn peer_figures(root: &Path, tools: &Tools, side: &Side) -> Result<serde_json::Value, String> {
    let peerbench = root.join("../shared/peerbench");
    if !peerbench.join("bench.mjs").is_file() {
        return Err(format!("{} not found (peerbench ships beside the repository)", peerbench.display()));
    }
    let harness = root.join("target/bench/peerbench");
    if !harness.join("node_modules").is_dir() {
        copy_all(&peerbench, &harness)?;
        Cmd::new("npm").args(["ci", "--no-audit", "--no-fund", "--loglevel=error"]).dir(&harness).run()?;
    }
    same_bench_source(root, side, "wasm-buffer")?;
    let out = root.join(format!("target/bench/wasm-buffer-{}", side.name));
    let crate_dir = side.tree.join("benches/wasm-buffer");
    // The page's release settings of that side (its wasm-pack.toml), for this crate too.
    let cfg = ReleaseSettings::load(&side.tree)?;
    // A target directory per side: the two sides' wasm-bindgen builds, one shared directory, left two rlibs that
    // rustc refused as "colliding StableCrateId values" (the before side failed to build).
    let target_dir = root.join(format!("target/bench/wasm-buffer-target-{}", side.name));
    let mut cargo = tools
        .wasm_cargo
        .cmd(&crate_dir)
        .args(["build", "--release", "--target", WASM_TARGET])
        .env("CARGO_TARGET_DIR", &target_dir);
    for (key, value) in cfg.profile.get("release").and_then(|v| v.as_table()).into_iter().flatten() {
        let env = format!("CARGO_PROFILE_RELEASE_{}", key.to_uppercase().replace('-', "_"));
        cargo = cargo.env(env, value.to_string().trim_matches('"'));
    }
    say("bench", format!("{}: the core's buffer for peerbench (wasm32, --target nodejs)", side.name));
    cargo.run_logged(&root.join(format!("target/bench/wasm-buffer-{}.log", side.name)))?;
    let raw = target_dir.join(WASM_TARGET).join("release/netcode_lab_buffer_bench.wasm");
    Cmd::new(tools.wasm_bindgen()).args(["--target", "nodejs", "--out-dir"]).arg(&out).arg(&raw).run()?;
    let bg = out.join("netcode_lab_buffer_bench_bg.wasm");
    Cmd::new(&tools.wasm_opt).args(&cfg.wasm_opt.flags).arg(&bg).arg("-o").arg(&bg).run()?;
    for adapter in ["adapter.cjs", "adapter-ring.cjs"] {
        if crate_dir.join(adapter).is_file() {
            std::fs::copy(crate_dir.join(adapter), out.join(adapter)).map_err(|e| e.to_string())?;
        }
    }
    // wasm-bindgen's nodejs glue is CommonJS; the repository's package.json says "type": "module".
    std::fs::write(out.join("package.json"), "{\"type\": \"commonjs\"}\n").map_err(|e| e.to_string())?;
    say("bench", format!("{}: peerbench goodjs vs wasm (workloads a, a')", side.name));
    let all = run_peerbench(root, &harness, &out.join("adapter.cjs"), "v,a,r", &format!("peer-{}", side.name))?;
    let pick = |w: &str, imp: &str, k: &str| all["workloads"][w]["res"][imp][k]["median"].clone();
    let mut out = serde_json::Map::new();
    for (w, label) in [("a", "steady"), ("reorder", "reorder")] {
        for imp in ["goodjs", "wasm"] {
            out.insert(format!("{label}.{imp}.simSecond"), pick(w, imp, "nsPerSimSecond"));
            out.insert(format!("{label}.{imp}.sample"), pick(w, imp, "nsPerSampleSubtract"));
            out.insert(format!("{label}.{imp}.push"), pick(w, imp, "nsPerPushOnlyRun"));
        }
    }
    out.insert("verify".into(), all["workloads"]["verifyA"]["wasmVsGood"].clone());
    // The floor: peerbench's own algorithm compiled to wasm behind the same binding (wasm + the boundary alone).
    let ring_adapter = root.join(format!("target/bench/wasm-buffer-{}/adapter-ring.cjs", side.name));
    if ring_adapter.is_file() {
        say("bench", format!("{}: peerbench goodjs vs its own algorithm in wasm (the floor)", side.name));
        let ring = run_peerbench(root, &harness, &ring_adapter, "a,r", &format!("peer-ring-{}", side.name))?;
        for (w, label) in [("a", "steady"), ("reorder", "reorder")] {
            for (imp, key) in [("goodjs", "ringgoodjs"), ("wasm", "ringwasm")] {
                out.insert(
                    format!("{label}.{key}.simSecond"),
                    ring["workloads"][w]["res"][imp]["nsPerSimSecond"]["median"].clone(),
                );
            }
        }
    }
    Ok(out.into())
}

/// One peerbench run of goodjs against the wasm behind `adapter` on the workloads `only`; its results JSON
/// (target/bench/NAME.json, the log beside it as NAME.log).
fn run_peerbench(
    root: &Path,
    harness: &Path,
    adapter: &Path,
    only: &str,
    name: &str,
) -> Result<serde_json::Value, String> {
    let results = root.join(format!("target/bench/{name}.json"));
    Cmd::new("node")
        .args(["--expose-gc", "bench.mjs"])
        .dir(harness)
        .env("WASM_IMPL", adapter)
        .env("IMPLS", "goodjs,wasm")
        .env("ONLY", only)
        .env("RESULTS_JSON", &results)
        .run_logged(&root.join(format!("target/bench/{name}.log")))?;
    let text = std::fs::read_to_string(&results).map_err(|e| e.to_string())?;
    serde_json::from_str(&text).map_err(|e| e.to_string())
}
