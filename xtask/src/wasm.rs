//! The wasm build: cargo (release, wasm32) → wasm-bindgen (`--target web`) → wasm-opt, into www/pkg.

use crate::run::{say, Cmd};
use crate::toolchain::{Tools, WASM_TARGET};
use std::path::{Path, PathBuf};

/// Sizes in bytes at each step, for the closing numbers.
pub struct BuildReport {
    pub cargo_wasm: u64,
    pub bindgen_wasm: u64,
    pub optimised_wasm: u64,
    pub js_glue: u64,
}

fn size(path: &Path) -> u64 {
    path.metadata().map(|m| m.len()).unwrap_or(0)
}

/// Builds the page's wasm module into `<out-dir>` (www/pkg) and optimises it.
pub fn build(root: &Path, tools: &Tools) -> Result<BuildReport, String> {
    let log_dir = root.join("target/xtask/logs");
    let build = &tools.cfg.build;
    say("build", format!("cargo build --release --target {WASM_TARGET} --lib ({:?} route)", tools.wasm_cargo.route));
    tools
        .wasm_cargo
        .cmd(root)
        .args(["build", "--release", "--target", WASM_TARGET, "--lib", "-p", "netcode-lab"])
        .run_logged(&log_dir.join("wasm-build.log"))?;
    let raw: PathBuf =
        tools.wasm_cargo.target_dir.join(WASM_TARGET).join("release").join(format!("{}.wasm", build.out_name));

    let out_dir = root.join(&build.out_dir);
    say("build", format!("wasm-bindgen --target {} --out-dir {}", build.target, build.out_dir));
    Cmd::new(tools.wasm_bindgen())
        .args(["--target", &build.target, "--out-name", &build.out_name, "--out-dir"])
        .arg(&out_dir)
        .arg(&raw)
        .run_logged(&log_dir.join("wasm-bindgen.log"))?;

    let bg = out_dir.join(format!("{}_bg.wasm", build.out_name));
    let bindgen_size = size(&bg);
    let tmp = bg.with_extension("opt.wasm");
    say("build", format!("wasm-opt {}", tools.cfg.wasm_opt.flags.join(" ")));
    Cmd::new(&tools.wasm_opt)
        .args(&tools.cfg.wasm_opt.flags)
        .arg(&bg)
        .arg("-o")
        .arg(&tmp)
        .run_logged(&log_dir.join("wasm-opt.log"))?;
    std::fs::rename(&tmp, &bg).map_err(|e| format!("cannot replace {}: {e}", bg.display()))?;

    let report = BuildReport {
        cargo_wasm: size(&raw),
        bindgen_wasm: bindgen_size,
        optimised_wasm: size(&bg),
        js_glue: size(&out_dir.join(format!("{}.js", build.out_name))),
    };
    say(
        "build",
        format!(
            "wasm sizes: cargo {} B → wasm-bindgen {} B → wasm-opt {} B (js glue {} B)",
            report.cargo_wasm, report.bindgen_wasm, report.optimised_wasm, report.js_glue
        ),
    );
    Ok(report)
}
