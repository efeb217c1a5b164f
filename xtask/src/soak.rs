//! `cargo xtask soak`: the long runs that prove memory stays bounded and nothing drifts — not part of
//! `cargo xtask test` (they take minutes by design).
//!
//! ```text
//! native  cargo run --release --example soak -- --hours 24     examples/soak.rs: a live session of every clock and
//!                                                              policy at 20 % burst loss; resident memory per hour
//! page    build the wasm, serve www/, node tests/soak/page.mjs ten real minutes at full speed with a drag a
//!                                                              second; JS heap and wasm memory every 30 s,
//!                                                              frame p95 first vs last minute (artifacts/soak/)
//! ```

use crate::run::{say, Cmd};
use crate::serve::{serve_in_background, Encoding};
use crate::toolchain::{browser, Tools};
use crate::wasm;
use std::path::Path;

pub struct SoakOptions {
    /// Simulated hours of the native soak.
    pub hours: f64,
    /// Real minutes of the page soak.
    pub minutes: f64,
    pub native: bool,
    pub page: bool,
}

pub fn run(root: &Path, opts: &SoakOptions) -> Result<(), String> {
    let mut failed = Vec::new();
    if opts.native {
        say("soak", format!("native: {} simulated hours (examples/soak.rs, release)", opts.hours));
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let cmd = Cmd::new(cargo)
            .dir(root)
            .args(["run", "--release", "--example", "soak", "--", "--hours"])
            .arg(opts.hours.to_string());
        if let Err(e) = cmd.run() {
            failed.push(format!("native soak: {e}"));
        }
    }
    if opts.page {
        let tools = Tools::for_build(root)?;
        wasm::build(root, &tools)?;
        let browser = browser()?;
        let url = serve_in_background(&root.join("www"), Encoding::Compressed)?;
        say("soak", format!("page: {} real minutes at {url} (tests/soak/page.mjs)", opts.minutes));
        let cmd = Cmd::new("node")
            .dir(root)
            .arg("tests/soak/page.mjs")
            .env("NETCODE_LAB_URL", &url)
            .env("SOAK_MINUTES", opts.minutes.to_string())
            .env("CHROMIUM", &browser.chromium)
            .env("NETCODE_LAB_ARTIFACTS", root.join("artifacts/soak"));
        if let Err(e) = cmd.run() {
            failed.push(format!("page soak: {e}"));
        }
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(failed.join("\n"))
    }
}
