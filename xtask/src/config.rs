//! wasm-pack.toml: the one source of the wasm build settings, and the check that the copies agree.
//!
//! Cargo reads `[profile.release]` and wasm-pack reads `[package.metadata.wasm-pack]` from Cargo.toml only,
//! npm reads package.json, and newcomers read the README's wasm-pack line; `check` compares every copy with
//! wasm-pack.toml and names each disagreement.

use serde::Deserialize;
use std::path::Path;
use toml::Value;

#[derive(Debug, Deserialize)]
pub struct BuildConfig {
    pub build: Build,
    pub tools: ToolVersions,
    #[serde(rename = "wasm-opt")]
    pub wasm_opt: WasmOpt,
    pub profile: toml::Table,
    pub budget: Budget,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Budget {
    /// The largest optimised first-frame wasm (`netcode_lab_page`) `cargo xtask test` accepts.
    pub wasm_bytes: u64,
    /// The largest optimised full wasm (`netcode_lab`) `cargo xtask test` accepts.
    pub full_wasm_bytes: u64,
    /// The largest optimised worked-example wasm (`netcode_lab_example`) `cargo xtask test` accepts.
    pub example_wasm_bytes: u64,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Build {
    pub target: String,
    pub out_dir: String,
    pub out_name: String,
    /// The first-frame build's base name (www/pkg/<page-out-name>.js + _bg.wasm).
    pub page_out_name: String,
    /// The worked-example build's base name (seed 002's page and its embed).
    pub example_out_name: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct ToolVersions {
    pub wasm_bindgen_cli: String,
    pub binaryen: String,
    pub playwright_core: String,
    pub lighthouse: String,
    pub esbuild: String,
}

#[derive(Debug, Deserialize)]
pub struct WasmOpt {
    pub flags: Vec<String>,
}

impl BuildConfig {
    pub fn load(root: &Path) -> Result<BuildConfig, String> {
        let path = root.join("wasm-pack.toml");
        let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// What a benchmark needs to build another tree's wasm the way that tree did: its release profile and wasm-opt
/// flags. Read alone, so that an older wasm-pack.toml (one without the settings this tree added since, such as
/// `example-out-name`) still serves as the "before" side of `cargo xtask bench-page --baseline`.
#[derive(Debug, Deserialize)]
pub struct ReleaseSettings {
    #[serde(rename = "wasm-opt")]
    pub wasm_opt: WasmOpt,
    pub profile: toml::Table,
}

impl ReleaseSettings {
    pub fn load(root: &Path) -> Result<ReleaseSettings, String> {
        let path = root.join("wasm-pack.toml");
        let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
    }
}

fn read_toml(path: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    text.parse::<toml::Table>().map(Value::Table).map_err(|e| format!("{}: {e}", path.display()))
}

fn at<'a>(value: &'a Value, path: &[&str]) -> Option<&'a Value> {
    path.iter().try_fold(value, |v, key| v.get(key))
}

/// Every place that repeats a wasm-pack.toml setting must say the same; returns the list of disagreements.
pub fn check(root: &Path, cfg: &BuildConfig) -> Result<Vec<String>, String> {
    let cargo = read_toml(&root.join("Cargo.toml"))?;
    let mut problems = Vec::new();
    let mut expect = |what: String, ok: bool| {
        if !ok {
            problems.push(what);
        }
    };

    let pin = format!("={}", cfg.tools.wasm_bindgen_cli);
    let dep = at(&cargo, &["target", "cfg(target_arch = \"wasm32\")", "dependencies", "wasm-bindgen"]);
    // `"=x.y.z"`, or `{ version = "=x.y.z", optional = true }` (the binding's dependencies are optional: the core
    // has none of them).
    let version = dep.and_then(|d| d.as_str().or_else(|| d.get("version").and_then(Value::as_str)));
    expect(
        format!("Cargo.toml: wasm-bindgen must be pinned to \"{pin}\" (wasm-pack.toml [tools]), found {dep:?}"),
        version == Some(pin.as_str()),
    );

    let locked = locked_version(root, "wasm-bindgen")?;
    expect(
        format!("Cargo.lock: wasm-bindgen is {locked:?}, wasm-pack.toml wants {}", cfg.tools.wasm_bindgen_cli),
        locked.as_deref() == Some(cfg.tools.wasm_bindgen_cli.as_str()),
    );

    let cargo_profile = at(&cargo, &["profile", "release"]);
    let wanted_profile = cfg.profile.get("release");
    expect(
        format!("Cargo.toml [profile.release] {cargo_profile:?} differs from wasm-pack.toml {wanted_profile:?}"),
        cargo_profile.is_some() && cargo_profile == wanted_profile,
    );

    let flags: Vec<Value> = cfg.wasm_opt.flags.iter().cloned().map(Value::String).collect();
    let meta = at(&cargo, &["package", "metadata", "wasm-pack", "profile", "release", "wasm-opt"]);
    expect(
        format!("Cargo.toml [package.metadata.wasm-pack.profile.release] wasm-opt {meta:?} differs from {flags:?}"),
        meta.and_then(Value::as_array) == Some(&flags),
    );

    let crate_name = at(&cargo, &["package", "name"]).and_then(Value::as_str).unwrap_or_default().replace('-', "_");
    expect(
        format!(
            "wasm-pack.toml out-name `{}` must be the crate name `{crate_name}` (wasm-pack's default)",
            cfg.build.out_name
        ),
        cfg.build.out_name == crate_name,
    );

    let package: serde_json::Value = read_json(&root.join("package.json"))?;
    let npm_tools = [
        ("binaryen", &cfg.tools.binaryen),
        ("playwright-core", &cfg.tools.playwright_core),
        ("lighthouse", &cfg.tools.lighthouse),
        ("esbuild", &cfg.tools.esbuild),
    ];
    for (name, version) in npm_tools {
        let found = package["devDependencies"][name].as_str();
        expect(
            format!("package.json: devDependencies.{name} is {found:?}, wasm-pack.toml wants {version}"),
            found == Some(version.as_str()),
        );
    }

    for problem in binding_in_the_core(root)? {
        expect(problem, false);
    }

    let readme = std::fs::read_to_string(root.join("README.md")).map_err(|e| format!("README.md: {e}"))?;
    let line = format!("wasm-pack build --target {} --out-dir {}", cfg.build.target, cfg.build.out_dir);
    expect(format!("README.md must show `{line}` for wasm-pack users"), readme.contains(&line));
    Ok(problems)
}

/// The crates only the binding layer (feature `web`) may bring: a game that depends on the core with
/// `default-features = false` must find none of them in its tree.
const BINDING_CRATES: [&str; 5] =
    ["wasm-bindgen", "js-sys", "web-sys", "serde-wasm-bindgen", "console_error_panic_hook"];

/// What a game compiling the core for the web (wasm32, default features off) would find of the binding's crates in
/// its dependency tree (`cargo tree`, from Cargo.lock, offline), one problem per crate found; and a problem too if
/// the binding's build (`--features web`) does not bring them, which would mean the question was not asked right.
pub fn binding_in_the_core(root: &Path) -> Result<Vec<String>, String> {
    let tree = |features: &[&str]| -> Result<String, String> {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let cmd = crate::run::Cmd::new(cargo)
            .dir(root)
            .args(["tree", "--offline", "-p", "netcode-lab", "--target", "wasm32-unknown-unknown"])
            .args(["-e", "normal", "--prefix", "none", "--no-default-features"])
            .args(features);
        cmd.read().ok_or_else(|| format!("`{}` failed", cmd.display()))
    };
    let crates = |text: &str| -> Vec<String> {
        let names: std::collections::BTreeSet<&str> =
            text.lines().filter_map(|l| l.split_whitespace().next()).collect();
        BINDING_CRATES.iter().filter(|c| names.contains(**c)).map(|c| c.to_string()).collect()
    };
    let core = crates(&tree(&[])?);
    let binding = crates(&tree(&["--features", "web"])?);
    let mut problems: Vec<String> = core
        .iter()
        .map(|c| {
            format!(
                "Cargo.toml: `{c}` is in the core's dependency tree (default features off); only `web` may bring it"
            )
        })
        .collect();
    if binding.len() != BINDING_CRATES.len() {
        problems.push(format!(
            "cargo tree: the binding (`--features web`) brings {binding:?}, expected all of {BINDING_CRATES:?}"
        ));
    }
    Ok(problems)
}

fn read_json(path: &Path) -> Result<serde_json::Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The version of `package` recorded in Cargo.lock.
pub fn locked_version(root: &Path, package: &str) -> Result<Option<String>, String> {
    let lock = read_toml(&root.join("Cargo.lock"))?;
    let packages = lock.get("package").and_then(Value::as_array).cloned().unwrap_or_default();
    Ok(packages
        .iter()
        .find(|p| p.get("name").and_then(Value::as_str) == Some(package))
        .and_then(|p| p.get("version").and_then(Value::as_str))
        .map(str::to_string))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shape of wasm-pack.toml at 6b51250 (an older tree `bench-page --baseline` builds): no
    /// `example-out-name`, no example budget.
    const OLDER: &str = r#"
[build]
target = "web"
out-dir = "www/pkg"
out-name = "netcode_lab"
page-out-name = "netcode_lab_page"
[tools]
wasm-bindgen-cli = "0.2.130"
binaryen = "132.0.0"
playwright-core = "1.65.1"
lighthouse = "12.8.2"
esbuild = "0.28.2"
[budget]
wasm-bytes = 1
full-wasm-bytes = 2
[wasm-opt]
flags = ["-O3"]
[profile.release]
opt-level = 3
"#;

    #[test]
    fn an_older_tree_still_gives_its_release_settings() {
        assert!(toml::from_str::<BuildConfig>(OLDER).is_err(), "this tree's full reader wants the newer settings");
        let older: ReleaseSettings = toml::from_str(OLDER).expect("the release settings of the older file");
        assert_eq!(older.wasm_opt.flags, ["-O3"]);
        assert_eq!(older.profile["release"]["opt-level"].as_integer(), Some(3));
    }

    #[test]
    fn this_tree_reads_whole() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        BuildConfig::load(&root).expect("wasm-pack.toml");
        ReleaseSettings::load(&root).expect("wasm-pack.toml");
    }
}
