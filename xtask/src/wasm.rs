//! The wasm build: cargo (release, wasm32) → wasm-bindgen (`--target web`) → wasm-opt, into www/pkg — three
//! times, from the one crate (ARCHITECTURE.md, "Three wasm builds"): the first-frame build (`--no-default-features
//! --features web`, `<page-out-name>`), the worked example's (feature `example`, `<example-out-name>`) and the full
//! build (default features, `<out-name>`).

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

/// One build: cargo with `features`, then wasm-bindgen naming its output `out_name`, then wasm-opt.
fn build_one(root: &Path, tools: &Tools, out_name: &str, features: &[&str]) -> Result<Sizes, String> {
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
