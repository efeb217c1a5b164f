//! The crate's layers have no loops: no two top-level modules of `src/` reach each other (directly or round a
//! longer loop), and neither do the files of one folder. A module reaches another when one of its files names a
//! path into it (`crate::sim::…`, `super::track::…`, in a `use` or anywhere in the code, tests included).
//!
//! Re-exports are not followed: `super::Sample` in `buffer/insert.rs` reaches `buffer` (the folder itself), not
//! the file that defines `Sample`. A folder's own `mod.rs` stands for the folder, so a child naming its parent
//! is not a loop inside the folder. Red when a file adds a path back up a layer: `crate::sim` in
//! `src/engines/`, say, or `super::track` in `src/run/track/shift.rs`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use syn::visit::Visit;

/// A module's path from the crate root (`["sim", "metrics", "shift"]`; the root is `[]`).
type ModPath = Vec<String>;

/// One path named in a file, resolved from the crate root, with where it was seen.
struct Reference {
    target: ModPath,
    text: String,
}

/// Every `.rs` file of the library under `src/` with its module path (the binary's `main.rs` and its own modules
/// in `src/cli/` are not the library's).
fn library_files(src: &Path) -> Vec<(PathBuf, ModPath)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("src/ is readable") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(src, &mut files);
    files.sort();
    files
        .into_iter()
        .filter(|p| p != &src.join("main.rs") && !p.starts_with(src.join("cli")))
        .map(|p| {
            let rel = p.strip_prefix(src).expect("under src/").with_extension("");
            let mut module: ModPath = rel.iter().map(|s| s.to_string_lossy().into_owned()).collect();
            if module.last().is_some_and(|l| l == "mod" || l == "lib") {
                module.pop();
            }
            (p, module)
        })
        .collect()
}

/// Collects the `crate::`/`super::`/`self::` paths of one file, resolved against the module they appear in.
struct Collector {
    /// The module the visitor is in now: the file's, plus any inline `mod x { … }` it entered.
    module: ModPath,
    found: Vec<Reference>,
}

impl Collector {
    fn resolve(&mut self, segments: &[String]) {
        let Some(first) = segments.first() else { return };
        let (mut base, rest): (ModPath, &[String]) = match first.as_str() {
            "crate" => (Vec::new(), &segments[1..]),
            "super" | "self" => (self.module.clone(), segments),
            _ => return,
        };
        let mut rest = rest;
        while let Some(head) = rest.first() {
            match head.as_str() {
                "super" => {
                    base.pop();
                }
                "self" => {}
                _ => break,
            }
            rest = &rest[1..];
        }
        base.extend(rest.iter().cloned());
        self.found.push(Reference { target: base, text: segments.join("::") });
    }

    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                prefix.push(n.ident.to_string());
                self.resolve(&prefix.clone());
                prefix.pop();
            }
            syn::UseTree::Rename(r) => {
                prefix.push(r.ident.to_string());
                self.resolve(&prefix.clone());
                prefix.pop();
            }
            syn::UseTree::Glob(_) => self.resolve(&prefix.clone()),
            syn::UseTree::Group(g) => g.items.iter().for_each(|t| self.use_tree(prefix, t)),
        }
    }
}

impl<'ast> Visit<'ast> for Collector {
    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        self.use_tree(&mut Vec::new(), &item.tree);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        self.resolve(&segments);
        syn::visit::visit_path(self, path);
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        if item.content.is_some() {
            self.module.push(item.ident.to_string());
            syn::visit::visit_item_mod(self, item);
            self.module.pop();
        }
    }

    fn visit_vis_restricted(&mut self, _: &'ast syn::VisRestricted) {
        // `pub(in crate::sim)` says who may see an item, not what the file uses.
    }
}

/// One directed graph per folder (the crate root is the folder `[]`): node → nodes it reaches, with an example.
type Graphs = BTreeMap<ModPath, BTreeMap<String, BTreeMap<String, String>>>;

fn graphs(src: &Path) -> Graphs {
    let files = library_files(src);
    let modules: BTreeSet<ModPath> = files.iter().map(|(_, m)| m.clone()).collect();
    let mut graphs = Graphs::new();
    for (path, module) in &files {
        let text = std::fs::read_to_string(path).expect("a readable source file");
        let syntax = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut collector = Collector { module: module.clone(), found: Vec::new() };
        collector.visit_file(&syntax);
        for reference in collector.found {
            // The edge lives in the deepest folder both paths share, between its two children they go through.
            let shared = module.iter().zip(&reference.target).take_while(|(a, b)| a == b).count();
            if shared >= module.len() || shared >= reference.target.len() {
                continue; // inside itself, or a parent named by its child
            }
            let folder: ModPath = module[..shared].to_vec();
            let (from, to) = (&module[shared], &reference.target[shared]);
            // Only modules count (a `crate::layout!` macro or an item of the root is not a layer).
            let mut to_module = folder.clone();
            to_module.push(to.clone());
            if !modules.contains(&to_module) {
                continue;
            }
            let example = format!("{}: {}", path.strip_prefix(src).unwrap_or(path).display(), reference.text);
            graphs.entry(folder).or_default().entry(from.clone()).or_default().entry(to.clone()).or_insert(example);
        }
    }
    graphs
}

/// The strongly connected components of more than one node (Tarjan), each sorted.
fn loops(graph: &BTreeMap<String, BTreeMap<String, String>>) -> Vec<Vec<String>> {
    struct State<'g> {
        graph: &'g BTreeMap<String, BTreeMap<String, String>>,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        on_stack: BTreeSet<&'g str>,
        found: Vec<Vec<String>>,
    }
    fn connect<'g>(s: &mut State<'g>, v: &'g str) {
        let i = s.index.len();
        s.index.insert(v, i);
        s.low.insert(v, i);
        s.stack.push(v);
        s.on_stack.insert(v);
        if let Some(edges) = s.graph.get(v) {
            for w in edges.keys() {
                let w = w.as_str();
                if !s.index.contains_key(w) {
                    connect(s, w);
                    let low = s.low[v].min(s.low[w]);
                    s.low.insert(v, low);
                } else if s.on_stack.contains(w) {
                    let low = s.low[v].min(s.index[w]);
                    s.low.insert(v, low);
                }
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                component.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.found.push(component);
            }
        }
    }
    let nodes: BTreeSet<&str> = graph
        .iter()
        .flat_map(|(from, to)| std::iter::once(from.as_str()).chain(to.keys().map(String::as_str)))
        .collect();
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in nodes {
        if !s.index.contains_key(v) {
            connect(&mut s, v);
        }
    }
    s.found
}

/// Every loop of `graphs`, one line each with the edges that close it.
fn describe(graphs: &Graphs) -> Vec<String> {
    let mut out = Vec::new();
    for (folder, graph) in graphs {
        for component in loops(graph) {
            let name = if folder.is_empty() { "src".to_string() } else { format!("src/{}", folder.join("/")) };
            let members: BTreeSet<&String> = component.iter().collect();
            let edges: Vec<String> = component
                .iter()
                .flat_map(|from| {
                    graph[from]
                        .iter()
                        .filter(|(to, _)| members.contains(to))
                        .map(move |(to, example)| format!("    {from} → {to} ({example})"))
                })
                .collect();
            out.push(format!("{name}: {} reach each other\n{}", component.join(" ⇄ "), edges.join("\n")));
        }
    }
    out
}

#[test]
fn no_loops_between_modules_or_between_the_files_of_a_folder() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = describe(&graphs(&src));
    assert!(found.is_empty(), "module loops:\n{}", found.join("\n"));
}

/// The check itself finds a loop of two files, a loop of three modules and a loop through `super::super`, and
/// ignores a child naming its parent and a path inside one file.
#[test]
fn the_check_sees_loops() {
    let dir = std::env::temp_dir().join(format!("netcode-lab-layers-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let write = |file: &str, text: &str| {
        let path = dir.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("lib.rs", "pub mod a; pub mod b; pub mod c; pub mod f;");
    write("a.rs", "use crate::b::X;");
    write("b.rs", "pub struct X; fn f() { crate::c::g(); }");
    write("c.rs", "pub fn g() { let _ = crate::a::Y; } pub struct Y;");
    write("f/mod.rs", "mod one; mod two; pub use one::Z;");
    write("f/one.rs", "use super::{two::W, Z}; pub struct Z; mod tests { use super::super::two; }");
    write("f/two.rs", "pub struct W; fn h() { let _ = super::one::Z; }");
    let found = describe(&graphs(&dir));
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(found[0].starts_with("src: a ⇄ b ⇄ c reach each other"), "{}", found[0]);
    assert!(found[1].starts_with("src/f: one ⇄ two reach each other"), "{}", found[1]);
}
