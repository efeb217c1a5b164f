//! The wasm build: cargo (release, wasm32) → wasm-bindgen (`--target web`) → wasm-opt, into www/pkg — three
//! times, from the one crate (ARCHITECTURE.md, "Three wasm builds"): the first-frame build (`--no-default-features
//! --features web`, `<page-out-name>`), the worked example's (feature `example`, `<example-out-name>`) and the full
//! build (default features, `<out-name>`).
//!
//! The three share one cargo target folder, and cargo names a wasm32 `cdylib` after the crate whatever its features,
//! so each build overwrites the others' cargo output and cargo would rebuild all three every time. Instead each
//! build leaves a stamp: a hash of everything its output depends on (the crate's and its derive macro's sources,
//! the manifests and lock file, the build settings, the features and tool versions). A build whose stamp matches
//! and whose files are in `<out-dir>` is skipped — a second `cargo xtask play` starts in seconds.

use crate::run::{say, Cmd};
use crate::toolchain::{Tools, WASM_TARGET};
use std::path::{Path, PathBuf};

/// Both builds' sizes.
pub struct BuildReport {
    /// The first-frame build (`netcode_lab_page`).
    pub page: Sizes,
    /// The full build (`netcode_lab`).
    pub full: Sizes,
    /// Seed 002's worked example alone (`netcode_lab_example`).
    pub example: Sizes,
}

/// Sizes in bytes at each step, for the closing numbers.
pub struct Sizes {
    pub cargo_wasm: u64,
    pub bindgen_wasm: u64,
    pub optimised_wasm: u64,
    pub js_glue: u64,
}

fn size(path: &Path) -> u64 {
    path.metadata().map(|m| m.len()).unwrap_or(0)
}

/// Builds the three wasm modules into `<out-dir>` (www/pkg) and optimises them.
pub fn build(root: &Path, tools: &Tools) -> Result<BuildReport, String> {
    let build = &tools.cfg.build;
    let page = build_one(root, tools, &build.page_out_name, &["--no-default-features", "--features", "web"])?;
    let example = build_one(root, tools, &build.example_out_name, &["--no-default-features", "--features", "example"])?;
    let full = build_one(root, tools, &build.out_name, &[])?;
    schema_module(root, &root.join(&build.out_dir))?;
    Ok(BuildReport { page, full, example })
}

/// The module the page's rail is built from before any wasm is in: every parameter that has a control on the
/// page (a slider's range, step, unit and scale), is a choice (its names) or a flag, as the core states it —
/// `netcode-lab schema`, run natively. The full build hands the page the same schema, with the docs
/// (`Playground.schema()`); the end-to-end tests hold the two together.
fn schema_module(root: &Path, out_dir: &Path) -> Result<(), String> {
    let cargo = || Cmd::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into())).dir(root);
    let schema_cmd = cargo().args(["run", "--quiet", "--bin", "netcode-lab", "--", "schema"]);
    let Some(text) = schema_cmd.read() else {
        // Run again with its output kept, for the error's words.
        let log = root.join("target/xtask/logs/schema.log");
        schema_cmd.run_logged(&log)?;
        return Err(format!("`{}` printed nothing", schema_cmd.display()));
    };
    let entries: Vec<serde_json::Value> =
        serde_json::from_str(&text).map_err(|e| format!("netcode-lab schema: not a JSON list ({e})"))?;
    let mut rail = serde_json::Map::new();
    for entry in &entries {
        let kind = entry["kind"].as_str().unwrap_or_default();
        if entry["control"].is_null() && kind != "choice" && kind != "flag" {
            continue;
        }
        let path = entry["path"].as_str().ok_or("netcode-lab schema: an entry without a path")?;
        let mut shown = serde_json::Map::new();
        for key in ["kind", "options", "unit", "range", "control"] {
            shown.insert(key.to_string(), entry[key].clone());
        }
        rail.insert(path.to_string(), serde_json::Value::Object(shown));
    }
    let shown = rail.len();
    let module = format!(
        "// Written by `cargo xtask build` from `netcode-lab schema`: the parameters as the core states them\n\
         // (src/, `#[param]` beside each field). Not edited by hand; not kept in git.\n\
         export const SCHEMA = {};\n",
        serde_json::Value::Object(rail)
    );
    let file = out_dir.join("params-schema.js");
    std::fs::write(&file, module).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    say(
        "build",
        format!("{}: {} of the {} parameters have a control on the page", file.display(), shown, entries.len()),
    );
    Ok(())
}

/// One build: cargo with `features`, then wasm-bindgen naming its output `out_name`, then wasm-opt — or nothing,
/// when its stamp says its output in `<out-dir>` is already of these inputs.
fn build_one(root: &Path, tools: &Tools, out_name: &str, features: &[&str]) -> Result<Sizes, String> {
    let build = &tools.cfg.build;
    let out_dir = root.join(&build.out_dir);
    let inputs = inputs_hash(root, tools, out_name, features)?;
    let stamp_file = root.join("target/xtask/wasm-stamps").join(format!("{out_name}.json"));
    if let Some(sizes) = up_to_date(&stamp_file, &inputs, &out_dir, out_name) {
        say("build", format!("{out_name}: up to date (its sources, settings and tools have not changed) — skipped"));
        return Ok(sizes);
    }
    let sizes = build_fresh(root, tools, out_name, features)?;
    write_stamp(&stamp_file, &inputs, &sizes)?;
    Ok(sizes)
}

/// The files and settings a build's output depends on, hashed (hex). Sources are read whole: a touched file whose
/// bytes did not change does not rebuild.
pub fn inputs_hash(root: &Path, tools: &Tools, out_name: &str, features: &[&str]) -> Result<String, String> {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    (out_name, features, &tools.cfg.build.target, &tools.cfg.wasm_opt.flags).hash(&mut hasher);
    (format!("{:?}", tools.wasm_cargo.route), tools.wasm_bindgen(), &tools.wasm_opt).hash(&mut hasher);
    for file in source_files(root)? {
        let bytes = std::fs::read(&file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        (file.strip_prefix(root).unwrap_or(&file), bytes).hash(&mut hasher);
    }
    Ok(format!("{:016x}", hasher.finish()))
}

/// Every file the wasm is built from, in a fixed order: the crate's `src/`, its derive macro, the manifests, the
/// lock file and the build settings.
fn source_files(root: &Path) -> Result<Vec<PathBuf>, String> {
    let mut files: Vec<PathBuf> =
        ["Cargo.toml", "Cargo.lock", "wasm-pack.toml", "rust-toolchain.toml", ".cargo/config.toml"]
            .iter()
            .map(|f| root.join(f))
            .filter(|f| f.is_file())
            .collect();
    for dir in ["src", "derive"] {
        walk(&root.join(dir), &mut files)?;
    }
    files.sort();
    Ok(files)
}

/// Every file under `dir` (none when it is missing), `target` folders left out.
pub fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    if !dir.is_dir() {
        return Ok(());
    }
    for entry in std::fs::read_dir(dir).map_err(|e| format!("cannot list {}: {e}", dir.display()))? {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n == "target") {
                continue;
            }
            walk(&path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}

/// The sizes the stamp kept, when it names these inputs and the build's two files are in `out_dir`.
fn up_to_date(stamp_file: &Path, inputs: &str, out_dir: &Path, out_name: &str) -> Option<Sizes> {
    let stamp: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(stamp_file).ok()?).ok()?;
    let (bg, glue) = (out_dir.join(format!("{out_name}_bg.wasm")), out_dir.join(format!("{out_name}.js")));
    if stamp["inputs"].as_str() != Some(inputs) || !bg.is_file() || !glue.is_file() {
        return None;
    }
    if stamp["optimisedWasm"].as_u64() != Some(size(&bg)) {
        return None; // the output was replaced since
    }
    Some(Sizes {
        cargo_wasm: stamp["cargoWasm"].as_u64()?,
        bindgen_wasm: stamp["bindgenWasm"].as_u64()?,
        optimised_wasm: size(&bg),
        js_glue: size(&glue),
    })
}

fn write_stamp(stamp_file: &Path, inputs: &str, sizes: &Sizes) -> Result<(), String> {
    let stamp = serde_json::json!({
        "inputs": inputs,
        "cargoWasm": sizes.cargo_wasm,
        "bindgenWasm": sizes.bindgen_wasm,
        "optimisedWasm": sizes.optimised_wasm,
    });
    if let Some(dir) = stamp_file.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    std::fs::write(stamp_file, stamp.to_string()).map_err(|e| format!("cannot write {}: {e}", stamp_file.display()))
}

/// The build itself: cargo, wasm-bindgen, wasm-opt.
fn build_fresh(root: &Path, tools: &Tools, out_name: &str, features: &[&str]) -> Result<Sizes, String> {
    let log_dir = root.join("target/xtask/logs");
    let build = &tools.cfg.build;
    let shown = if features.is_empty() { String::new() } else { format!(" {}", features.join(" ")) };
    say(
        "build",
        format!("cargo build --release --target {WASM_TARGET} --lib{shown} ({:?} route)", tools.wasm_cargo.route),
    );
    tools
        .wasm_cargo
        .cmd(root)
        .args(["build", "--release", "--target", WASM_TARGET, "--lib", "-p", "netcode-lab"])
        .args(features)
        .run_logged(&log_dir.join(format!("wasm-build-{out_name}.log")))?;
    // Cargo names the file after the crate whatever the features: wasm-bindgen reads it before the next build.
    let raw: PathBuf =
        tools.wasm_cargo.target_dir.join(WASM_TARGET).join("release").join(format!("{}.wasm", build.out_name));

    let out_dir = root.join(&build.out_dir);
    say("build", format!("wasm-bindgen --target {} --out-name {out_name} --out-dir {}", build.target, build.out_dir));
    Cmd::new(tools.wasm_bindgen())
        .args(["--target", &build.target, "--out-name", out_name, "--out-dir"])
        .arg(&out_dir)
        .arg(&raw)
        .run_logged(&log_dir.join(format!("wasm-bindgen-{out_name}.log")))?;

    let bg = out_dir.join(format!("{out_name}_bg.wasm"));
    let bindgen_size = size(&bg);
    let tmp = bg.with_extension("opt.wasm");
    say("build", format!("wasm-opt {}", tools.cfg.wasm_opt.flags.join(" ")));
    Cmd::new(&tools.wasm_opt)
        .args(&tools.cfg.wasm_opt.flags)
        .arg(&bg)
        .arg("-o")
        .arg(&tmp)
        .run_logged(&log_dir.join(format!("wasm-opt-{out_name}.log")))?;
    std::fs::rename(&tmp, &bg).map_err(|e| format!("cannot replace {}: {e}", bg.display()))?;

    let report = Sizes {
        cargo_wasm: size(&raw),
        bindgen_wasm: bindgen_size,
        optimised_wasm: size(&bg),
        js_glue: size(&out_dir.join(format!("{out_name}.js"))),
    };
    say(
        "build",
        format!(
            "{out_name} sizes: cargo {} B → wasm-bindgen {} B → wasm-opt {} B (js glue {} B)",
            report.cargo_wasm, report.bindgen_wasm, report.optimised_wasm, report.js_glue
        ),
    );
    Ok(report)
}
