//! The repository's text says what the code is and why, not the story of its work: no tracked source, config,
//! documentation, style or page file (`.rs`, `.toml`, `.md`, `.css`, `.js`, `.mjs`, `.html`) names an issue by
//! number or a step of a work log. Such references belong in commit messages, where they stay true; in the code
//! they go stale the day the issue closes.
//!
//! Red when a line has the word `issue` (or `issues`) followed by a number, with or without spaces or a `#`
//! between them, or the word `stop` followed by a space and a number, in any letter case. The test data
//! (tests/bad-inputs, tests/traces, tests/cases, fuzz/corpus) and this file are not read. The files are the ones
//! `git ls-files` lists, so a file is held once it is tracked.

#![cfg(not(target_arch = "wasm32"))]

use std::path::Path;
use std::process::Command;

/// The extensions of the files read.
const EXTENSIONS: [&str; 7] = ["rs", "toml", "md", "css", "js", "mjs", "html"];

/// Folders whose files are test data, not text written about the code.
const SKIPPED_DIRS: [&str; 4] = ["tests/bad-inputs/", "tests/traces/", "tests/cases/", "fuzz/corpus/"];

/// This file, which has to spell what it looks for.
const THIS_FILE: &str = "tests/comments.rs";

/// The tracked files to read, as paths relative to the repository root.
fn tracked_text_files(root: &Path) -> Vec<String> {
    let out = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(root)
        .output()
        .expect("git runs (this test reads the files `git ls-files` lists)");
    assert!(out.status.success(), "git ls-files failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout)
        .split('\0')
        .filter(|p| !p.is_empty() && *p != THIS_FILE)
        .filter(|p| !SKIPPED_DIRS.iter().any(|d| p.starts_with(d)))
        .filter(|p| p.rsplit_once('.').is_some_and(|(_, ext)| EXTENSIONS.contains(&ext)))
        .map(str::to_string)
        .collect()
}

/// Whether the byte at `at` is an ASCII digit.
fn digit_at(b: &[u8], at: usize) -> bool {
    b.get(at).is_some_and(u8::is_ascii_digit)
}

/// Whether the word starting at `at` has no letter, digit or `_` just before it.
fn word_starts(b: &[u8], at: usize) -> bool {
    at == 0 || !(b[at - 1].is_ascii_alphanumeric() || b[at - 1] == b'_')
}

/// Whether a line names an issue by number (`issue`, optional `s`, any spaces and `#`, a digit) or a work-log
/// step (the word `stop`, one space, a digit). Case-insensitive.
fn flagged(line: &str) -> bool {
    let b = line.to_ascii_lowercase().into_bytes();
    (0..b.len()).any(|i| {
        let rest = &b[i..];
        if rest.starts_with(b"issue") {
            let mut j = i + "issue".len();
            if b.get(j) == Some(&b's') {
                j += 1;
            }
            while matches!(b.get(j), Some(b' ' | b'#')) {
                j += 1;
            }
            if digit_at(&b, j) {
                return true;
            }
        }
        rest.starts_with(b"stop ") && word_starts(&b, i) && digit_at(&b, i + "stop ".len())
    })
}

#[test]
fn the_matcher_finds_issue_numbers_and_work_log_steps() {
    for line in
        ["// issue 14: x", "Issue14", "(issue #13)", "issues 13 and 14", "ISSUE # 6", "stop 24's copy", "Stop 3"]
    {
        assert!(flagged(line), "{line:?} should be flagged");
    }
    for line in ["an issue with it", "issues/123", "stop at 3", "nonstop 5", "backstop 2", "stop-watch", "tissue"] {
        assert!(!flagged(line), "{line:?} should not be flagged");
    }
}

#[test]
fn no_comment_names_an_issue_number_or_a_work_log_step() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for path in tracked_text_files(root) {
        let bytes = match std::fs::read(root.join(&path)) {
            Ok(bytes) => bytes,
            // Tracked but deleted in the work tree: nothing to read.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => panic!("{path}: {e}"),
        };
        for (n, line) in String::from_utf8_lossy(&bytes).lines().enumerate() {
            if flagged(line) {
                found.push(format!("{path}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "these lines name an issue by number or a work-log step ({}); say what the code is and why instead (the \
         history belongs in the commit message):\n{}",
        found.len(),
        found.join("\n")
    );
}
