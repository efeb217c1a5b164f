//! Finding — or installing — the tools a wasm build and the browser tests need.
//!
//! The wasm32 standard library comes by one of two routes, tried in this order:
//! 1. **rustup**: `rustup target add wasm32-unknown-unknown` (what an ordinary machine does), with a timeout;
//! 2. **debian**: Debian's `rustc-web` plus the std source (`rust-web-src`), with std rebuilt by cargo's
//!    `-Zbuild-std` (`RUSTC_BOOTSTRAP=1 CARGO_UNSTABLE_BUILD_STD=std,panic_abort`), for machines that reach only
//!    the package registries. Its artefacts go to `target/debian-wasm` so they never clash with rustup's.
//!
//! Everything else comes from a registry: wasm-bindgen-cli from crates.io (cached per version under
//! `~/.cache/netcode-lab/tools`, shared by every clone), wasm-opt and playwright-core from npm, Chromium and
//! chromedriver from apt when they are not installed already. Nothing is downloaded from anywhere else.

use crate::config::BuildConfig;
use crate::run::{is_executable, say, which, Cmd};
use std::path::{Path, PathBuf};
use std::time::Duration;

pub const WASM_TARGET: &str = "wasm32-unknown-unknown";
const RUSTUP_TIMEOUT: Duration = Duration::from_secs(120);
const DEBIAN_RUST_PACKAGES: [&str; 6] =
    ["rustc-web", "cargo-web", "rust-web-src", "rust-web-llvm", "lld-22", "rust-web-clippy"];
const DEBIAN_BROWSER_PACKAGES: [&str; 3] = ["chromium", "chromium-driver", "fonts-noto-cjk"];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Route {
    Rustup,
    Debian,
}

/// How to run cargo for the wasm32 target on this machine.
#[derive(Clone, Debug)]
pub struct WasmCargo {
    pub route: Route,
    cargo: PathBuf,
    envs: Vec<(String, String)>,
    pub target_dir: PathBuf,
}

impl WasmCargo {
    /// `cargo <args>` run from the repository root with this route's environment.
    pub fn cmd(&self, root: &Path) -> Cmd {
        let mut cmd = Cmd::new(&self.cargo).dir(root).env("CARGO_TARGET_DIR", &self.target_dir);
        if self.route == Route::Debian {
            // Never let the rustup proxies in: they would pick rustup's compiler (which has no wasm std here).
            cmd = cmd.env_remove("RUSTUP_TOOLCHAIN").env_remove("RUSTC_WRAPPER").env_remove("CARGO");
        }
        for (k, v) in &self.envs {
            cmd = cmd.env(k, v);
        }
        cmd
    }

    /// Whether `cargo clippy` can lint the wasm32 build on this route.
    pub fn has_clippy(&self) -> bool {
        match self.route {
            Route::Rustup => Cmd::new("cargo").args(["clippy", "--version"]).read().is_some(),
            Route::Debian => is_executable(Path::new("/usr/bin/cargo-clippy")),
        }
    }
}

/// The tools a wasm build needs.
pub struct Tools {
    pub cfg: BuildConfig,
    pub wasm_cargo: WasmCargo,
    /// Folder holding `wasm-bindgen` and `wasm-bindgen-test-runner` at the pinned version.
    pub wasm_bindgen_bin: PathBuf,
    pub wasm_opt: PathBuf,
}

impl Tools {
    /// Finds or installs everything `cargo xtask build` needs.
    pub fn for_build(root: &Path) -> Result<Tools, String> {
        let cfg = BuildConfig::load(root)?;
        let wasm_cargo = wasm_cargo(root)?;
        let wasm_bindgen_bin = wasm_bindgen_cli(&cfg.tools.wasm_bindgen_cli)?;
        node_modules(root, &cfg)?;
        let wasm_opt = root.join("node_modules/.bin/wasm-opt");
        if !is_executable(&wasm_opt) {
            return Err(format!("{} is missing after npm install", wasm_opt.display()));
        }
        Ok(Tools { cfg, wasm_cargo, wasm_bindgen_bin, wasm_opt })
    }

    pub fn wasm_bindgen(&self) -> PathBuf {
        self.wasm_bindgen_bin.join("wasm-bindgen")
    }

    pub fn test_runner(&self) -> PathBuf {
        self.wasm_bindgen_bin.join("wasm-bindgen-test-runner")
    }
}

/// Picks the wasm32 route (see the module doc). `NETCODE_LAB_WASM_ROUTE=rustup|debian` forces one.
pub fn wasm_cargo(root: &Path) -> Result<WasmCargo, String> {
    let forced = std::env::var("NETCODE_LAB_WASM_ROUTE").ok();
    let route = match forced.as_deref() {
        Some("rustup") => Route::Rustup,
        Some("debian") => Route::Debian,
        Some(other) => return Err(format!("NETCODE_LAB_WASM_ROUTE=`{other}`: expected `rustup` or `debian`")),
        None if rustup_has_wasm_target() => Route::Rustup,
        None => Route::Debian,
    };
    match route {
        Route::Rustup => {
            if forced.is_some() && !rustup_has_wasm_target() {
                return Err("NETCODE_LAB_WASM_ROUTE=rustup but the wasm32 target could not be added".into());
            }
            say("setup", format!("wasm32 route: rustup (target {WASM_TARGET} installed)"));
            let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
            Ok(WasmCargo { route, cargo: cargo.into(), envs: Vec::new(), target_dir: root.join("target") })
        }
        Route::Debian => debian_route(root),
    }
}

fn rustup_has_wasm_target() -> bool {
    if which("rustup").is_none() {
        say("setup", "rustup not found");
        return false;
    }
    let installed = Cmd::new("rustup").args(["target", "list", "--installed"]).read().unwrap_or_default();
    if installed.lines().any(|l| l.trim() == WASM_TARGET) {
        return true;
    }
    say("setup", format!("rustup target add {WASM_TARGET} (timeout {} s)", RUSTUP_TIMEOUT.as_secs()));
    let added = Cmd::new("rustup").args(["target", "add", WASM_TARGET]).succeeds_within(RUSTUP_TIMEOUT);
    if !added {
        say("setup", "rustup could not add the wasm32 target; falling back to Debian's rustc-web + build-std");
    }
    added
}

/// Debian's rustc-web, cargo-web, the std source and lld at /usr/bin, installed by apt when missing.
pub fn debian_rust() -> Result<(), String> {
    let ready = || {
        ["/usr/bin/cargo", "/usr/bin/rustc", "/usr/bin/rust-lld", "/usr/bin/cargo-clippy"]
            .iter()
            .all(|p| Path::new(p).exists())
            && Path::new("/usr/lib/rustlib/src/rust/library/std/Cargo.toml").exists()
    };
    if !ready() {
        apt_install(&DEBIAN_RUST_PACKAGES)?;
    }
    if !ready() {
        return Err("Debian's rustc-web route is incomplete after apt-get install".into());
    }
    Ok(())
}

fn debian_route(root: &Path) -> Result<WasmCargo, String> {
    debian_rust()?;
    let version = Cmd::new("/usr/bin/rustc").arg("--version").read().unwrap_or_default();
    say("setup", format!("wasm32 route: debian ({version}, std rebuilt from source with -Zbuild-std)"));
    let path = format!("/usr/bin:{}", std::env::var("PATH").unwrap_or_default());
    let envs = [
        ("PATH", path.as_str()),
        ("RUSTC", "/usr/bin/rustc"),
        ("RUSTDOC", "/usr/bin/rustdoc"),
        ("RUSTC_BOOTSTRAP", "1"),
        ("CARGO_UNSTABLE_BUILD_STD", "std,panic_abort"),
    ];
    Ok(WasmCargo {
        route: Route::Debian,
        cargo: "/usr/bin/cargo".into(),
        envs: envs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        target_dir: root.join("target/debian-wasm"),
    })
}

/// Installs Debian packages when this machine has apt-get and we are root; otherwise says what to install.
fn apt_install(packages: &[&str]) -> Result<(), String> {
    let is_root = Cmd::new("id").arg("-u").read().as_deref() == Some("0");
    if which("apt-get").is_none() || !is_root {
        return Err(format!("missing tools; install these packages (or their equivalents): {}", packages.join(" ")));
    }
    say("setup", format!("apt-get install {}", packages.join(" ")));
    let apt = |args: &[&str]| Cmd::new("apt-get").args(args).env("DEBIAN_FRONTEND", "noninteractive");
    apt(&["update", "-q"]).read().ok_or("apt-get update failed")?;
    let install = apt(&["install", "-y", "-q", "--no-install-recommends"]).args(packages);
    install.read().map(|_| ()).ok_or_else(|| format!("`{}` failed", install.display()))
}

/// The per-user cache shared by every clone: `$XDG_CACHE_HOME/netcode-lab` or `~/.cache/netcode-lab`.
pub fn cache_dir() -> PathBuf {
    std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir)
        .join("netcode-lab")
}

/// The folder holding wasm-bindgen-cli `version`: on PATH if it matches, else cached, else `cargo install`ed.
pub fn wasm_bindgen_cli(version: &str) -> Result<PathBuf, String> {
    let matches = |bin: &Path| {
        Cmd::new(bin).arg("--version").read().is_some_and(|v| v.split_whitespace().nth(1) == Some(version))
            && is_executable(&bin.with_file_name("wasm-bindgen-test-runner"))
    };
    if let Some(bin) = which("wasm-bindgen").filter(|b| matches(b)) {
        say("setup", format!("wasm-bindgen {version}: {}", bin.display()));
        return Ok(bin.parent().unwrap_or(Path::new("/")).to_path_buf());
    }
    let root = cache_dir().join("tools").join(format!("wasm-bindgen-cli-{version}"));
    let bin = root.join("bin");
    if !matches(&bin.join("wasm-bindgen")) {
        say("setup", format!("cargo install wasm-bindgen-cli {version} into {} (takes ~5 min once)", root.display()));
        // No --locked: its lockfile pins a crate version that registry mirrors may lack.
        Cmd::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args(["install", "wasm-bindgen-cli", "--version", version, "--root"])
            .arg(&root)
            .run()?;
    }
    say("setup", format!("wasm-bindgen {version}: {}", bin.display()));
    Ok(bin)
}

/// `npm ci` unless node_modules already holds the pinned binaryen, playwright-core, lighthouse and esbuild.
pub fn node_modules(root: &Path, cfg: &BuildConfig) -> Result<(), String> {
    let installed = |name: &str, version: &str| {
        let manifest = root.join("node_modules").join(name).join("package.json");
        let text = std::fs::read_to_string(manifest).unwrap_or_default();
        serde_json::from_str::<serde_json::Value>(&text).is_ok_and(|v| v["version"] == version)
    };
    let tools = [
        ("binaryen", &cfg.tools.binaryen),
        ("playwright-core", &cfg.tools.playwright_core),
        ("lighthouse", &cfg.tools.lighthouse),
        ("esbuild", &cfg.tools.esbuild),
    ];
    if tools.iter().all(|(name, version)| installed(name, version)) {
        say("setup", "npm packages: up to date");
        return Ok(());
    }
    let node = Cmd::new("node").arg("--version").read().ok_or("node is not installed (Node.js ≥ 20 is needed)")?;
    say(
        "setup",
        format!(
            "npm ci (node {node}): binaryen {}, playwright-core {}, lighthouse {}, esbuild {}",
            cfg.tools.binaryen, cfg.tools.playwright_core, cfg.tools.lighthouse, cfg.tools.esbuild
        ),
    );
    Cmd::new("npm").args(["ci", "--no-audit", "--no-fund", "--loglevel=error"]).dir(root).run()
}

/// A Chromium and the chromedriver that drives it.
pub struct Browser {
    pub chromium: PathBuf,
    pub chromedriver: PathBuf,
}

/// Finds Chromium (env `CHROMIUM`, else the usual names) and chromedriver (env `CHROMEDRIVER`, else PATH),
/// installing Debian's packages when they are missing and apt is available.
pub fn browser() -> Result<Browser, String> {
    let find = || {
        let chromium = std::env::var_os("CHROMIUM").map(PathBuf::from).or_else(|| {
            ["chromium", "chromium-browser", "google-chrome-stable", "google-chrome"].iter().find_map(|n| which(n))
        });
        let driver = std::env::var_os("CHROMEDRIVER").map(PathBuf::from).or_else(|| which("chromedriver"));
        chromium.zip(driver).map(|(chromium, chromedriver)| Browser { chromium, chromedriver })
    };
    let browser = match find() {
        Some(b) => b,
        None => {
            apt_install(&DEBIAN_BROWSER_PACKAGES)?;
            find().ok_or("Chromium or chromedriver still missing after apt-get install")?
        }
    };
    say("setup", format!("browser: {} + {}", browser.chromium.display(), browser.chromedriver.display()));
    Ok(browser)
}
