//! The bad-input catalogue (`tests/bad-inputs/catalogue.json`, described in its README): reading it and building
//! each input's bytes. Shared by the native runner (`tests/bad_inputs.rs`: the CLI) and the wasm-bindgen runner
//! (`tests/web.rs`: the binding); the page's runner (`tests/e2e/bad-inputs.test.mjs`) builds them the same way.
#![allow(dead_code)]

use serde_json::Value;

pub const TEXT: &str = include_str!("catalogue.json");

pub fn load() -> Value {
    serde_json::from_str(TEXT).expect("tests/bad-inputs/catalogue.json is JSON")
}

/// The entries of one door's list.
pub fn list<'a>(catalogue: &'a Value, door: &str) -> &'a Vec<Value> {
    catalogue[door].as_array().unwrap_or_else(|| panic!("catalogue.{door} is a list"))
}

pub fn id(case: &Value) -> &str {
    case["id"].as_str().expect("every entry has an id")
}

/// The exact message expected, or `None` when the input must be accepted.
pub fn error(case: &Value) -> Option<&str> {
    case["error"].as_str()
}

/// What the page and the binding's `importTrace` must say: the entry's line, or — for an accepted trace of kind
/// `paths`, which the views cannot show — that refusal.
pub fn error_in_the_views(case: &Value) -> Option<String> {
    if let Some(error) = error(case) {
        return Some(error.to_string());
    }
    let paths = case["text"].as_str().is_some_and(|t| t.contains(r#""kind":"paths""#));
    paths.then(|| r#"kind: only traces of kind "snapshots" can be shown in the views"#.to_string())
}

/// Whether a trace entry is run at `door` (`cli`, `page`, `binding`; every door when it has no `doors`).
pub fn at_door(case: &Value, door: &str) -> bool {
    case["doors"].as_array().is_none_or(|doors| doors.iter().any(|d| d == door))
}

/// The entry's input as bytes: `hex`, `generate`, or `text` with `@NEST@` / `@LONG@` expanded and `encoding`
/// applied.
pub fn bytes(case: &Value) -> Vec<u8> {
    if let Some(hex) = case["hex"].as_str() {
        return (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex")).collect();
    }
    if !case["generate"].is_null() {
        return generate(&case["generate"]).into_bytes();
    }
    let text = expanded(case, case["text"].as_str().expect("an input: text, hex or generate"));
    match case["encoding"].as_str() {
        None => text.into_bytes(),
        Some("utf-16le") => text.encode_utf16().flat_map(u16::to_le_bytes).collect(),
        Some("utf-16be") => text.encode_utf16().flat_map(u16::to_be_bytes).collect(),
        Some(other) => panic!("{}: unknown encoding {other}", id(case)),
    }
}

/// `text` with `@NEST@` (`nest` opening then closing brackets) and `@LONG@` (`long` nines) expanded.
pub fn expanded(case: &Value, text: &str) -> String {
    let mut text = text.to_string();
    if let Some(n) = case["nest"].as_u64() {
        let n = n as usize;
        text = text.replace("@NEST@", &format!("{}{}", "[".repeat(n), "]".repeat(n)));
    }
    if let Some(n) = case["long"].as_u64() {
        text = text.replace("@LONG@", &"9".repeat(n as usize));
    }
    text
}

/// A generated trace or arrival log (see the README): too big to commit, built the same way by every runner.
pub fn generate(spec: &Value) -> String {
    let count = spec["count"].as_u64().expect("generate.count") as usize;
    let head = r#"{"format":"netcode-lab/trace@1","kind":"snapshots","#;
    match spec["kind"].as_str().expect("generate.kind") {
        "snapshots" => {
            let mut out = String::with_capacity(count * 90 + 100);
            out.push_str(head);
            out.push_str(r#""snapshots":["#);
            for n in 0..count {
                let i = n.to_string();
                if n > 0 {
                    out.push(',');
                }
                for (key, value) in
                    [("{\"tick\":", &i), (",\"serverTime\":", &i), (",\"arrival\":", &i), (",\"x\":", &i)]
                {
                    out.push_str(key);
                    out.push_str(value);
                }
                out.push_str(r#","y":0,"vx":0,"vy":0}"#);
            }
            out.push_str(r#"],"sampleAt":[0,1,2]}"#);
            out
        }
        "sampleAt" => {
            let zeros = "0,".repeat(count);
            format!(r#"{head}"snapshots":[],"sampleAt":[{}]}}"#, zeros.trim_end_matches(','))
        }
        "note" => format!(r#"{head}"note":"{}","snapshots":[],"sampleAt":[]}}"#, "n".repeat(count)),
        "arrivals" => {
            let mut out = String::with_capacity(count * 16 + 12);
            out.push_str("seq,arrival\n");
            for i in 0..count {
                out.push_str(&format!("{i},{i}\n"));
            }
            out
        }
        other => panic!("unknown generator {other}"),
    }
}
