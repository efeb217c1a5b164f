//! `cargo xtask dist`: the page as a self-contained static folder any static host can serve.

use crate::run::say;
use std::path::Path;

/// Copies www/ (with the freshly built, optimised pkg/) into `out`, replacing what was there.
pub fn make(root: &Path, out: &Path) -> Result<(), String> {
    if out.exists() {
        std::fs::remove_dir_all(out).map_err(|e| format!("cannot clear {}: {e}", out.display()))?;
    }
    let (files, bytes) = copy_tree(&root.join("www"), out)?;
    say("dist", format!("{} files, {} KiB in {} — serve it from any static host", files, bytes / 1024, out.display()));
    Ok(())
}

fn copy_tree(from: &Path, to: &Path) -> Result<(usize, u64), String> {
    std::fs::create_dir_all(to).map_err(|e| format!("cannot create {}: {e}", to.display()))?;
    let mut totals = (0, 0);
    let entries = std::fs::read_dir(from).map_err(|e| format!("cannot read {}: {e}", from.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| e.to_string())?;
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        if src.is_dir() {
            let (f, b) = copy_tree(&src, &dst)?;
            totals = (totals.0 + f, totals.1 + b);
        } else if src.extension().is_none_or(|e| e != "ts") {
            let bytes = std::fs::copy(&src, &dst).map_err(|e| format!("cannot copy {}: {e}", src.display()))?;
            totals = (totals.0 + 1, totals.1 + bytes);
        }
    }
    Ok(totals)
}
