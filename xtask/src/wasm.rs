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
    Ok(BuildReport { page, full, example })
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
