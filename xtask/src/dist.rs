//! `cargo xtask dist`: the page as a self-contained static folder any static host can serve.
//!
//! ```text
//!  www/ ──copy──► dist/                     (minus the TypeScript declarations and the sources in www/js/)
//!  www/js/ ──esbuild──► dist/js/            every page's entry module and every worker, bundled and minified one
//!            entry at a time (ES modules, code splitting): each entry keeps its name (js/main.js, js/sim-worker.js
//!            …), what the entry imports statically is in it or in a shared `js/chunk-HASH.js`, and each dynamic
//!            `import()` stays a chunk of its own (`js/strings-zh-HASH.js`, `js/stepper-HASH.js`, `js/plots-HASH.js`
//!            …), fetched only when the page asks for it
//!  pkg/*.js ──esbuild──► minified in place: the wasm-bindgen glue (its exports keep their names)
//!  *.css ──esbuild──► minified in place; a page's sheets ──► one PAGE.bundle.css (one request, not three)
//!        ──► every page: <link rel="modulepreload"> for its entry's static chunk graph (esbuild's metafile) and for
//!            the wasm-bindgen glue its first frame imports, and a preload of that glue's wasm (unless the page
//!            fetches it from its head itself, as index.html does), injected before </head>: the browser fetches
//!            them at once instead of one import level per round trip
//!        ──► beside each text file and the wasm: NAME.br (brotli 11) and NAME.gz (gzip 9), when smaller
//! ```
//! Development needs none of this: www/ is served as it is (plain ES modules, no bundler); only what users
//! download is tuned. Which glue a page's first frame needs is read from the sources (`module_graph`: a literal
//! `import('../pkg/….js')` not marked `not preloaded`), since minifying drops the comment that marks it.

use crate::run::{say, Cmd};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The wasm-bindgen glue in pkg/ (wasm-pack.toml's out-names all begin so): kept out of the bundles, a module of
/// its own beside its wasm. What else the build writes there (`params-schema.js`, the parameters' schema) is
/// bundled into the chunk that imports it, like any module.
const GLUE_PREFIX: &str = "netcode_lab";

/// Extensions worth compressing (images would not shrink).
const COMPRESSIBLE: [&str; 8] = ["html", "js", "mjs", "css", "wasm", "json", "svg", "txt"];

/// What `make` wrote, for the closing numbers.
#[derive(Debug, Default)]
pub struct DistReport {
    pub files: usize,
    pub bytes: u64,
    pub brotli_bytes: u64,
}

/// Copies www/ (with the freshly built, optimised pkg/) into `out`, replacing what was there; bundles the modules,
/// adds the preloads and the precompressed files.
/// `make`, unless `out` already holds the build of these very inputs (every file of www/, www/pkg included, this
/// module's source and the bundler's pinned version): `play` starts in seconds when nothing changed. `Ok(false)`
/// when it was up to date.
pub fn make_if_changed(root: &Path, out: &Path) -> Result<bool, String> {
    let inputs = inputs_hash(root)?;
    let name = out.file_name().map_or_else(|| "dist".into(), |n| n.to_string_lossy().to_string());
    let stamp = root.join("target/xtask/dist-stamps").join(format!("{name}.txt"));
    if out.join("index.html").is_file() && std::fs::read_to_string(&stamp).is_ok_and(|s| s == inputs) {
        say("dist", format!("{}: up to date (www/ has not changed) — kept", out.display()));
        return Ok(false);
    }
    let _ = std::fs::remove_file(&stamp);
    make(root, out)?;
    if let Some(dir) = stamp.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    std::fs::write(&stamp, inputs).map_err(|e| format!("cannot write {}: {e}", stamp.display()))?;
    Ok(true)
}

/// What a dist folder is made from, hashed (hex): every file of www/ by path and bytes, this module and the lock
/// file that pins the bundler.
fn inputs_hash(root: &Path) -> Result<String, String> {
    use std::hash::{Hash, Hasher};
    let mut files = Vec::new();
    crate::wasm::walk(&root.join("www"), &mut files)?;
    files.extend([root.join("xtask/src/dist.rs"), root.join("package-lock.json")]);
    files.sort();
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for file in files {
        let bytes = std::fs::read(&file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        (file.strip_prefix(root).unwrap_or(&file), bytes).hash(&mut hasher);
    }
    Ok(format!("{:016x}", hasher.finish()))
}

pub fn make(root: &Path, out: &Path) -> Result<DistReport, String> {
    if out.exists() {
        std::fs::remove_dir_all(out).map_err(|e| format!("cannot clear {}: {e}", out.display()))?;
    }
    let www = root.join("www");
    let mut files = Vec::new();
    copy_tree(&www, out, &www.join("js"), &mut files)?;
    let bundle = bundle(root, &www, out)?;
    minify_glue(root, &files)?;
    minify_css(root, &files)?;
    let pages: Vec<PathBuf> = files.iter().filter(|f| f.extension().is_some_and(|e| e == "html")).cloned().collect();
    for page in &pages {
        if let Some(sheet) = merge_stylesheets(page)? {
            files.push(sheet);
        }
        add_preloads(&www, out, page, &bundle)?;
    }
    files.extend(bundle.outputs.iter().cloned());
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

/// Copies `from` into `to`, except TypeScript declarations, old precompressed copies and the JavaScript sources
/// under `sources` (the bundle replaces them).
fn copy_tree(from: &Path, to: &Path, sources: &Path, files: &mut Vec<PathBuf>) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| format!("cannot create {}: {e}", to.display()))?;
    let entries = std::fs::read_dir(from).map_err(|e| format!("cannot read {}: {e}", from.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| e.to_string())?;
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        let name = src.to_string_lossy();
        if src.is_dir() {
            copy_tree(&src, &dst, sources, files)?;
        } else if src.starts_with(sources) && name.ends_with(".js") {
            continue;
        } else if !name.ends_with(".ts") && !name.ends_with(".br") && !name.ends_with(".gz") {
            std::fs::copy(&src, &dst).map_err(|e| format!("cannot copy {}: {e}", src.display()))?;
            files.push(dst);
        }
    }
    Ok(())
}

/// Minifies the wasm-bindgen glue in pkg/ in place (what it exports keeps its name). wasm-bindgen writes it for
/// reading, with a doc comment per export and long local names: minified, the first frame's glue is less than
/// half its size (~9 KB, ~2.9 KB as brotli).
fn minify_glue(root: &Path, files: &[PathBuf]) -> Result<(), String> {
    let esbuild = esbuild(root)?;
    let glue = files.iter().filter(|f| {
        f.extension().is_some_and(|e| e == "js")
            && f.parent().is_some_and(|d| d.file_name().is_some_and(|n| n == "pkg"))
    });
    for file in glue {
        Cmd::new(&esbuild)
            .arg(file)
            .args(["--minify", "--format=esm", "--charset=utf8", "--log-level=warning", "--allow-overwrite"])
            .arg(format!("--outfile={}", file.display()))
            .dir(root)
            .run()?;
    }
    Ok(())
}

/// What esbuild wrote: every output file, and per entry (its path in www/) the outputs its first evaluation
/// needs — the entry and, transitively, the chunks it imports statically.
#[derive(Debug, Default)]
struct Bundle {
    outputs: Vec<PathBuf>,
    static_graph: BTreeMap<PathBuf, Vec<PathBuf>>,
}

/// The esbuild the npm pin installed (`node_modules/.bin/esbuild`).
fn esbuild(root: &Path) -> Result<PathBuf, String> {
    let bin = root.join("node_modules/.bin/esbuild");
    if bin.exists() {
        Ok(bin)
    } else {
        Err(format!("{} is missing: `npm ci` installs the pinned esbuild (wasm-pack.toml [tools])", bin.display()))
    }
}

/// Bundles every entry (each page's module script, each worker) into `out/js/`, one esbuild run per entry so a
/// page's first frame loads its own few chunks, not the pieces it shares with other pages.
fn bundle(root: &Path, www: &Path, out: &Path) -> Result<Bundle, String> {
    let esbuild = esbuild(root)?;
    let mut entries = BTreeSet::new();
    for page in std::fs::read_dir(www).map_err(|e| format!("cannot read {}: {e}", www.display()))? {
        let page = page.map_err(|e| e.to_string())?.path();
        if page.extension().is_some_and(|e| e == "html") {
            let html = std::fs::read_to_string(&page).map_err(|e| format!("cannot read {}: {e}", page.display()))?;
            entries.extend(module_scripts(&html).iter().map(|src| www.join(src)));
        }
    }
    entries.extend(workers(&www.join("js"))?);
    let meta_file = out.join(".esbuild-meta.json");
    let mut bundle = Bundle::default();
    for entry in &entries {
        Cmd::new(&esbuild)
            .arg(entry)
            .args(["--bundle", "--splitting", "--format=esm", "--minify", "--charset=utf8", "--log-level=warning"])
            .arg(format!("--outdir={}", out.display()))
            .arg(format!("--outbase={}", www.display()))
            .args(["--entry-names=[dir]/[name]", "--chunk-names=js/[name]-[hash]"])
            .arg(format!("--external:../pkg/{GLUE_PREFIX}*"))
            .arg(format!("--metafile={}", meta_file.display()))
            .dir(root)
            .run()?;
        let meta = std::fs::read_to_string(&meta_file).map_err(|e| format!("cannot read esbuild's metafile: {e}"))?;
        let meta: serde_json::Value = serde_json::from_str(&meta).map_err(|e| format!("esbuild's metafile: {e}"))?;
        let (outputs, graph) = static_chunks(root, entry, &meta)?;
        for output in outputs {
            if !bundle.outputs.contains(&output) {
                bundle.outputs.push(output);
            }
        }
        bundle.static_graph.insert(entry.clone(), graph);
    }
    std::fs::remove_file(&meta_file).map_err(|e| e.to_string())?;
    Ok(bundle)
}

/// From one esbuild run's metafile: every output, and the entry's output followed by the chunks it imports
/// statically (breadth first).
fn static_chunks(root: &Path, entry: &Path, meta: &serde_json::Value) -> Result<(Vec<PathBuf>, Vec<PathBuf>), String> {
    let outputs = meta["outputs"].as_object().ok_or("esbuild's metafile has no outputs")?;
    let path = |key: &str| root.join(key).canonicalize().map_err(|e| format!("esbuild output {key}: {e}"));
    let mut all = Vec::new();
    let mut start = None;
    for (key, output) in outputs {
        let file = path(key)?;
        let is_entry =
            output["entryPoint"].as_str().and_then(|e| root.join(e).canonicalize().ok()) == entry.canonicalize().ok();
        if is_entry {
            start = Some(key.clone());
        }
        all.push(file);
    }
    let start = start.ok_or_else(|| format!("esbuild wrote no output for {}", entry.display()))?;
    let mut graph: Vec<String> = vec![start];
    let mut at = 0;
    while at < graph.len() {
        for import in outputs[&graph[at]]["imports"].as_array().into_iter().flatten() {
            let internal = import["external"].as_bool() != Some(true);
            let target = import["path"].as_str().unwrap_or_default().to_string();
            if internal && import["kind"] == "import-statement" && !graph.contains(&target) {
                graph.push(target);
            }
        }
        at += 1;
    }
    Ok((all, graph.iter().map(|k| path(k)).collect::<Result<_, _>>()?))
}

/// The modules started as workers: `new URL('./NAME.js', import.meta.url)` in any module under `js`.
fn workers(js: &Path) -> Result<BTreeSet<PathBuf>, String> {
    let mut found = BTreeSet::new();
    let mut dirs = vec![js.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))? {
            let path = entry.map_err(|e| e.to_string())?.path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "js") {
                continue;
            }
            let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            for spec in worker_urls(&text) {
                found.insert(dir.join(spec));
            }
        }
    }
    Ok(found)
}

/// The `./NAME.js` of every `new URL('./NAME.js', import.meta.url)` in `text`.
fn worker_urls(text: &str) -> Vec<String> {
    text.split("new URL(")
        .skip(1)
        .filter_map(|rest| {
            let quote = rest.chars().next().filter(|c| *c == '\'' || *c == '"')?;
            let spec = rest[1..].split(quote).next()?;
            let after = rest[1 + spec.len() + 1..].trim_start();
            let relative = after.starts_with(',') && after[1..].trim_start().starts_with("import.meta.url");
            (relative && spec.starts_with("./") && spec.ends_with(".js")).then(|| spec.to_string())
        })
        .collect()
}

/// Minifies every stylesheet in place.
fn minify_css(root: &Path, files: &[PathBuf]) -> Result<(), String> {
    let sheets: Vec<&PathBuf> = files.iter().filter(|f| f.extension().is_some_and(|e| e == "css")).collect();
    if sheets.is_empty() {
        return Ok(());
    }
    let esbuild = esbuild(root)?;
    for sheet in sheets {
        Cmd::new(&esbuild)
            .arg(sheet)
            .args(["--minify", "--charset=utf8", "--log-level=warning", "--allow-overwrite"])
            .arg(format!("--outfile={}", sheet.display()))
            .dir(root)
            .run()?;
    }
    Ok(())
}

/// A page's stylesheets (`<link rel="stylesheet" href="…">` beside it, in order) as one file, `PAGE.bundle.css`:
/// one request instead of three before the first frame (over HTTP/1.1 a browser opens six connections to a host,
/// and what does not fit waits a round trip). The link that replaces them names what it holds
/// (`data-holds="style.css playground.css plots.css"`), for code that adds a sheet when it is missing
/// (plots/figure.js `ensureStylesheet`). Concatenating is what the separate links meant: the sheets hold no
/// `@import`/`@charset`. Returns the new file, or `None` for a page with fewer than two sheets.
fn merge_stylesheets(page: &Path) -> Result<Option<PathBuf>, String> {
    let html = std::fs::read_to_string(page).map_err(|e| format!("cannot read {}: {e}", page.display()))?;
    let dir = page.parent().ok_or("a page lives in a folder")?;
    let links = stylesheet_links(&html);
    if links.len() < 2 {
        return Ok(None);
    }
    let mut css = String::new();
    for (_, href) in &links {
        let sheet = std::fs::read_to_string(dir.join(href)).map_err(|e| format!("{}: {href}: {e}", page.display()))?;
        if sheet.contains("@import") || sheet.contains("@charset") {
            return Err(format!("{href} holds @import or @charset: it cannot be merged by concatenation"));
        }
        css.push_str(sheet.trim_end());
        css.push('\n');
    }
    let stem = page.file_stem().and_then(|s| s.to_str()).ok_or("a page has a name")?;
    let merged = dir.join(format!("{stem}.bundle.css"));
    std::fs::write(&merged, css).map_err(|e| format!("cannot write {}: {e}", merged.display()))?;
    let holds: Vec<&str> = links.iter().map(|(_, href)| href.as_str()).collect();
    let mut out = html.clone();
    for (i, (tag, _)) in links.iter().enumerate().rev() {
        let at = out.find(tag.as_str()).ok_or("a link read from the page is in it")?;
        let replacement = if i == 0 {
            format!("<link rel=\"stylesheet\" href=\"{stem}.bundle.css\" data-holds=\"{}\">", holds.join(" "))
        } else {
            String::new()
        };
        // Drop the line a removed link stood on, not only the tag.
        let end = at + tag.len();
        let (start, end) = if replacement.is_empty() {
            let start = out[..at].rfind('\n').map_or(at, |n| if out[n + 1..at].trim().is_empty() { n } else { at });
            (start, end)
        } else {
            (at, end)
        };
        out.replace_range(start..end, &replacement);
    }
    std::fs::write(page, out).map_err(|e| format!("cannot write {}: {e}", page.display()))?;
    Ok(Some(merged))
}

/// Every `<link rel="stylesheet" href="…">` of a page with a relative href: (the whole tag, the href).
fn stylesheet_links(html: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find("<link ") {
        let Some(len) = rest[at..].find('>') else { break };
        let tag = &rest[at..at + len + 1];
        if tag.contains("rel=\"stylesheet\"") {
            if let Some(href) = attribute(tag, "href").filter(|h| !h.contains(':') && !h.starts_with('/')) {
                found.push((tag.to_string(), href));
            }
        }
        rest = &rest[at + len + 1..];
    }
    found
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

/// Injects the preloads of `page` (an HTML file in `site`, copied from `www`) before its `</head>`: its entries'
/// static chunk graphs, the wasm-bindgen glue its sources import for the first frame, and that glue's wasm.
fn add_preloads(www: &Path, site: &Path, page: &Path, bundle: &Bundle) -> Result<(), String> {
    let html = std::fs::read_to_string(page).map_err(|e| format!("cannot read {}: {e}", page.display()))?;
    let page_dir = page.parent().unwrap_or(site);
    let entries: Vec<PathBuf> = module_scripts(&html).iter().map(|src| www.join(src)).collect();
    if entries.is_empty() {
        return Ok(());
    }
    let mut modules: Vec<PathBuf> = Vec::new();
    for entry in &entries {
        let chunks = bundle.static_graph.get(entry).ok_or_else(|| format!("{} was not bundled", entry.display()))?;
        modules.extend(chunks.iter().cloned());
    }
    let www_pkg = www.join("pkg").canonicalize().unwrap_or_default();
    for source in module_graph(&entries)? {
        let glue = source.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with(GLUE_PREFIX));
        if let (Ok(rel), true) = (source.strip_prefix(&www_pkg), glue) {
            modules.push(site.join("pkg").join(rel));
        }
    }
    let mut links = String::new();
    let mut wasm = BTreeSet::new();
    let mut seen = BTreeSet::new();
    for module in &modules {
        let href = relative_href(page_dir, module)?;
        if !seen.insert(href.clone()) {
            continue;
        }
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
    // A page that fetches its wasm itself from the head (index.html: fetched and compiled while the JavaScript
    // loads) needs no preload of it: a preload parsed after that fetch would be a second download.
    for href in wasm.into_iter().filter(|href| !html.contains(href.as_str())) {
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
        assert_eq!(static_imports(&core), ["./banner.js", "./strings/i18n.js", "../pkg/netcode_lab_page.js"]);
    }

    #[test]
    fn the_playground_graph_holds_every_module_main_imports() {
        let www = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().join("www");
        let graph = module_graph(&[www.join("js/main.js")]).unwrap();
        let names: Vec<String> =
            graph.iter().map(|p| p.strip_prefix(www.canonicalize().unwrap()).unwrap().display().to_string()).collect();
        assert_eq!(names[0], "js/main.js");
        for needed in
            ["js/banner.js", "js/core.js", "js/strings/i18n.js", "js/strings/strings-en.js", "js/views/views.js"]
        {
            assert!(names.iter().any(|n| n == needed), "{needed} missing from {names:?}");
        }
        // Loaded after the first frame (dynamic imports in main.js): not preloaded.
        for later in ["js/plots.js", "js/comparison.js", "js/plots/sweep.js"] {
            assert!(!names.iter().any(|n| n == later), "{later} should not be preloaded");
        }
    }

    #[test]
    fn workers_are_found_by_their_url_beside_the_module() {
        let text = "new Worker(new URL('./trace-worker.js', import.meta.url), { type: 'module' });\n\
                    constructor(url = new URL(\"./sim-worker.js\", import.meta.url)) {}\n\
                    link.href = new URL('../../plots.css', import.meta.url).href;\n\
                    new URL('./not-a-worker.js', document.baseURI); new URL(page, location.href);";
        assert_eq!(worker_urls(text), ["./trace-worker.js", "./sim-worker.js"]);
        let js = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().join("www/js");
        let names: Vec<String> =
            workers(&js).unwrap().iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
        assert_eq!(names, ["record-worker.js", "sim-worker.js", "trace-worker.js"]);
    }

    #[test]
    fn an_entry_needs_its_static_chunks_only() {
        // esbuild's metafile, trimmed: main imports a shared chunk statically and the Chinese strings dynamically;
        // the shared chunk imports another; the glue is external.
        let dir = std::env::temp_dir().join(format!("netcode-lab-dist-test-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("out/js")).unwrap();
        std::fs::create_dir_all(dir.join("www/js")).unwrap();
        for f in
            ["out/js/main.js", "out/js/chunk-A.js", "out/js/chunk-B.js", "out/js/strings-zh-C.js", "www/js/main.js"]
        {
            std::fs::write(dir.join(f), "").unwrap();
        }
        let meta = serde_json::json!({ "outputs": {
            "out/js/main.js": { "entryPoint": "www/js/main.js", "imports": [
                { "path": "out/js/chunk-A.js", "kind": "import-statement" },
                { "path": "out/js/strings-zh-C.js", "kind": "dynamic-import" },
                { "path": "../pkg/netcode_lab_page.js", "kind": "dynamic-import", "external": true } ] },
            "out/js/chunk-A.js": { "imports": [ { "path": "out/js/chunk-B.js", "kind": "import-statement" } ] },
            "out/js/chunk-B.js": { "imports": [] },
            "out/js/strings-zh-C.js": { "imports": [ { "path": "out/js/chunk-A.js", "kind": "import-statement" } ] },
        }});
        let (all, graph) = static_chunks(&dir, &dir.join("www/js/main.js"), &meta).unwrap();
        let name = |p: &PathBuf| p.file_name().unwrap().to_string_lossy().into_owned();
        assert_eq!(all.len(), 4);
        assert_eq!(graph.iter().map(name).collect::<Vec<_>>(), ["main.js", "chunk-A.js", "chunk-B.js"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_page_s_stylesheets_become_one_that_names_what_it_holds() {
        let dir = std::env::temp_dir().join(format!("netcode-lab-css-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("a.css"), "a{color:red}\n").unwrap();
        std::fs::write(dir.join("b.css"), ".b{color:blue}").unwrap();
        let page = dir.join("index.html");
        std::fs::write(
            &page,
            "<head>\n  <link rel=\"icon\" href=\"data:,\">\n  <link rel=\"stylesheet\" href=\"a.css\">\n  \
             <link rel=\"stylesheet\" href=\"b.css\">\n  <link rel=\"stylesheet\" href=\"https://x/c.css\">\n</head>",
        )
        .unwrap();
        let merged = merge_stylesheets(&page).unwrap().unwrap();
        assert_eq!(std::fs::read_to_string(&merged).unwrap(), "a{color:red}\n.b{color:blue}\n");
        let html = std::fs::read_to_string(&page).unwrap();
        assert_eq!(
            html,
            "<head>\n  <link rel=\"icon\" href=\"data:,\">\n  \
             <link rel=\"stylesheet\" href=\"index.bundle.css\" data-holds=\"a.css b.css\">\n  \
             <link rel=\"stylesheet\" href=\"https://x/c.css\">\n</head>"
        );
        // One sheet left: nothing to merge.
        assert_eq!(merge_stylesheets(&page).unwrap(), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn module_scripts_are_read_from_the_page() {
        let html = "<script src=\"old.js\"></script><script type=\"module\" src=\"js/main.js\"></script>";
        assert_eq!(module_scripts(html), ["js/main.js"]);
    }
}
