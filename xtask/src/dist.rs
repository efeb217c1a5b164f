//! `cargo xtask dist`: the page as a self-contained static folder any static host can serve.
//!
//! ```text
//!  www/ ──copy──► dist/                     (minus the TypeScript declarations)
//!        ──► every page: <link rel="modulepreload"> for its whole static import graph, and a preload of the
//!            wasm it instantiates, injected before </head>: the browser fetches the ~40 modules at once
//!            instead of one import level per round trip
//!        ──► beside each text file and the wasm: NAME.br (brotli 11) and NAME.gz (gzip 9), when smaller
//! ```
//! Development needs none of this: www/ is served as it is (no bundler); only what users download is tuned.

use crate::run::say;
use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Extensions worth compressing (images would not shrink).
const COMPRESSIBLE: [&str; 8] = ["html", "js", "mjs", "css", "wasm", "json", "svg", "txt"];

/// What `make` wrote, for the closing numbers.
#[derive(Debug, Default)]
pub struct DistReport {
    pub files: usize,
    pub bytes: u64,
    pub brotli_bytes: u64,
}

/// Copies www/ (with the freshly built, optimised pkg/) into `out`, replacing what was there; adds the preloads
/// and the precompressed files.
pub fn make(root: &Path, out: &Path) -> Result<DistReport, String> {
    if out.exists() {
        std::fs::remove_dir_all(out).map_err(|e| format!("cannot clear {}: {e}", out.display()))?;
    }
    let mut files = Vec::new();
    copy_tree(&root.join("www"), out, &mut files)?;
    for page in files.iter().filter(|f| f.extension().is_some_and(|e| e == "html")) {
        add_preloads(out, page)?;
    }
    let mut report = DistReport::default();
    for file in &files {
        report.files += 1;
        report.bytes += size(file);
        report.brotli_bytes += precompress(file)?.unwrap_or_else(|| size(file));
    }
    say(
        "dist",
        format!(
            "{} files, {} KiB ({} KiB as brotli) in {} — serve it from any static host",
            report.files,
            report.bytes / 1024,
            report.brotli_bytes / 1024,
            out.display()
        ),
    );
    Ok(report)
}

fn size(path: &Path) -> u64 {
    path.metadata().map(|m| m.len()).unwrap_or(0)
}

fn copy_tree(from: &Path, to: &Path, files: &mut Vec<PathBuf>) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| format!("cannot create {}: {e}", to.display()))?;
    let entries = std::fs::read_dir(from).map_err(|e| format!("cannot read {}: {e}", from.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| e.to_string())?;
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        let name = src.to_string_lossy();
        if src.is_dir() {
            copy_tree(&src, &dst, files)?;
        } else if !name.ends_with(".ts") && !name.ends_with(".br") && !name.ends_with(".gz") {
            std::fs::copy(&src, &dst).map_err(|e| format!("cannot copy {}: {e}", src.display()))?;
            files.push(dst);
        }
    }
    Ok(())
}

/// Writes `file.br` and `file.gz` when they are smaller than `file`; returns the brotli size if written.
fn precompress(file: &Path) -> Result<Option<u64>, String> {
    let ext = file.extension().and_then(|e| e.to_str()).unwrap_or("");
    if !COMPRESSIBLE.contains(&ext) {
        return Ok(None);
    }
    let data = std::fs::read(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let mut br = Vec::new();
    let params = brotli::enc::BrotliEncoderParams { quality: 11, lgwin: 22, ..Default::default() };
    brotli::BrotliCompress(&mut data.as_slice(), &mut br, &params).map_err(|e| e.to_string())?;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(&data).map_err(|e| e.to_string())?;
    let gz = gz.finish().map_err(|e| e.to_string())?;
    let write = |suffix: &str, bytes: &[u8]| {
        let path = PathBuf::from(format!("{}.{suffix}", file.display()));
        std::fs::write(&path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
    };
    if gz.len() < data.len() {
        write("gz", &gz)?;
    }
    if br.len() < data.len() {
        write("br", &br)?;
        return Ok(Some(br.len() as u64));
    }
    Ok(None)
}

/// Injects the preloads of `page` (an HTML file in `site`) before its `</head>`.
fn add_preloads(site: &Path, page: &Path) -> Result<(), String> {
    let html = std::fs::read_to_string(page).map_err(|e| format!("cannot read {}: {e}", page.display()))?;
    let page_dir = page.parent().unwrap_or(site);
    let entries: Vec<PathBuf> = module_scripts(&html).iter().map(|src| page_dir.join(src)).collect();
    if entries.is_empty() {
        return Ok(());
    }
    let graph = module_graph(&entries)?;
    let mut links = String::new();
    let mut wasm = BTreeSet::new();
    for module in &graph {
        let href = relative_href(page_dir, module)?;
        links.push_str(&format!("  <link rel=\"modulepreload\" href=\"{href}\">\n"));
        let text = std::fs::read_to_string(module).unwrap_or_default();
        // wasm-bindgen's glue (`--target web`) fetches `<name>_bg.wasm` beside itself.
        if let Some(stem) = module.file_name().and_then(|n| n.to_str()).and_then(|n| n.strip_suffix(".js")) {
            let bg = module.with_file_name(format!("{stem}_bg.wasm"));
            if bg.is_file() && text.contains("_bg.wasm") {
                wasm.insert(relative_href(page_dir, &bg)?);
            }
        }
    }
    for href in wasm {
        links.push_str(&format!(
            "  <link rel=\"preload\" href=\"{href}\" as=\"fetch\" type=\"application/wasm\" crossorigin>\n"
        ));
    }
    let at = html.find("</head>").ok_or_else(|| format!("{}: no </head>", page.display()))?;
    let html = format!("{}{links}{}", &html[..at], &html[at..]);
    std::fs::write(page, html).map_err(|e| format!("cannot write {}: {e}", page.display()))
}

/// The `src` of every `<script type="module" src="…">` of a page.
fn module_scripts(html: &str) -> Vec<String> {
    html.split("<script")
        .skip(1)
        .filter(|tag| tag.split('>').next().is_some_and(|t| t.contains("type=\"module\"")))
        .filter_map(|tag| attribute(tag.split('>').next()?, "src"))
        .collect()
}

fn attribute(tag: &str, name: &str) -> Option<String> {
    let start = tag.find(&format!("{name}=\""))? + name.len() + 2;
    Some(tag[start..].split('"').next()?.to_string())
}

/// Every module reachable from `entries` through static imports (`import … from '…'`, `import '…'`,
/// `export … from '…'`), in breadth-first order; plus the wasm-bindgen glue a module loads with a literal
/// dynamic `import('…/pkg/….js')` (the core is needed for the first frame, the other dynamic imports are loaded
/// when needed and stay out).
pub fn module_graph(entries: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut seen: Vec<PathBuf> = Vec::new();
    let mut queue: std::collections::VecDeque<PathBuf> = entries.iter().cloned().collect();
    while let Some(module) = queue.pop_front() {
        // A module that is not there (www/pkg before the first wasm build) has nothing to preload.
        let Ok(module) = module.canonicalize() else { continue };
        if seen.contains(&module) {
            continue;
        }
        let text = std::fs::read_to_string(&module).map_err(|e| format!("cannot read {}: {e}", module.display()))?;
        let dir = module.parent().expect("a module lives in a folder").to_path_buf();
        for spec in static_imports(&text) {
            queue.push_back(dir.join(spec));
        }
        seen.push(module);
    }
    Ok(seen)
}

/// Relative specifiers of a module's static imports, and of its dynamic imports of wasm-bindgen glue.
fn static_imports(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in text.lines() {
        let code = line.trim_start();
        let is_static = code.starts_with("import ") || code.starts_with("import{") || code.starts_with("export ");
        let is_static = is_static || code.starts_with("} from ");
        for quote in ['\'', '"'] {
            let patterns = [format!("from {quote}"), format!("import {quote}"), format!("import({quote}")];
            for (i, pattern) in patterns.iter().enumerate() {
                let Some(at) = code.find(pattern.as_str()) else { continue };
                let rest = &code[at + pattern.len()..];
                let Some(spec) = rest.split(quote).next() else { continue };
                let dynamic = i == 2;
                // A glue import marked `not preloaded` (the full build, fetched after the first frame) stays out.
                let wanted =
                    if dynamic { spec.contains("/pkg/") && !code.contains("not preloaded") } else { is_static };
                if wanted && (spec.starts_with("./") || spec.starts_with("../")) && spec.ends_with(".js") {
                    found.push(spec.to_string());
                }
            }
        }
    }
    found
}

/// `target` relative to `from_dir`, with `/` separators (both must exist).
fn relative_href(from_dir: &Path, target: &Path) -> Result<String, String> {
    let from = from_dir.canonicalize().map_err(|e| e.to_string())?;
    let target = target.canonicalize().map_err(|e| e.to_string())?;
    let rel = target.strip_prefix(&from).map_err(|_| format!("{} is outside {}", target.display(), from.display()))?;
    Ok(rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn imports_are_found_in_their_usual_forms() {
        let text = "import { a } from './a.js';\nimport * as b from \"../b.js\";\nimport './c.js';\n\
                    export { d } from './d.js';\nimport {\n  e,\n} from './e.js';\nconst x = 'from \\'./no.js\\'';\n\
                    const lazy = () => import('./lazy.js');\nconst core = await import('../pkg/core.js');";
        assert_eq!(static_imports(text), ["./a.js", "../b.js", "./c.js", "./d.js", "./e.js", "../pkg/core.js"]);
        // The full build, fetched after the first frame, is marked and stays out (core.js).
        let split =
            "  page: () => import('../pkg/small.js'),\n  full: () => import('../pkg/big.js'), // not preloaded: later";
        assert_eq!(static_imports(split), ["../pkg/small.js"]);
    }

    #[test]
    fn the_playground_preloads_the_first_frame_core_only() {
        let www = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().join("www");
        let core = std::fs::read_to_string(www.join("js/core.js")).unwrap();
        assert_eq!(static_imports(&core), ["./banner.js", "./i18n.js", "../pkg/netcode_lab_page.js"]);
    }

    #[test]
    fn the_playground_graph_holds_every_module_main_imports() {
        let www = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().join("www");
        let graph = module_graph(&[www.join("js/main.js")]).unwrap();
        let names: Vec<String> =
            graph.iter().map(|p| p.strip_prefix(www.canonicalize().unwrap()).unwrap().display().to_string()).collect();
        assert_eq!(names[0], "js/main.js");
        for needed in ["js/banner.js", "js/core.js", "js/i18n.js", "js/strings-en.js", "js/views.js"] {
            assert!(names.iter().any(|n| n == needed), "{needed} missing from {names:?}");
        }
        // Loaded after the first frame (dynamic imports in main.js): not preloaded.
        for later in ["js/plots.js", "js/comparison.js", "js/plots/sweep.js"] {
            assert!(!names.iter().any(|n| n == later), "{later} should not be preloaded");
        }
    }

    #[test]
    fn module_scripts_are_read_from_the_page() {
        let html = "<script src=\"old.js\"></script><script type=\"module\" src=\"js/main.js\"></script>";
        assert_eq!(module_scripts(html), ["js/main.js"]);
    }
}
