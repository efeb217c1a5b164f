//! The JSON layout of traces and replay results: one key per line, one array element per line.
//!
//! ```text
//! {
//!   "format": "netcode-lab/trace@1",
//!   "snapshots": [
//!     {"tick":100,"serverTime":10.0,…},
//!     {"tick":101,"serverTime":10.1,…}
//!   ],
//!   "sampleAt": [10.0,10.01,…]
//! }
//! ```
//! The layout is fixed, keys come in the order of the struct fields and numbers are printed by serde_json
//! (shortest round-trip form), so the same value always gives the same bytes: golden files compare byte for
//! byte, and a diff between two runs shows the samples that changed.

use super::replay::{Replay, ReplayMetrics, ReplaySamples, StrategyReplay};
use super::{Trace, TraceData, FORMAT};
use serde::Serialize;

/// A top-level JSON object written key by key.
struct Doc {
    out: String,
    empty: bool,
}

impl Doc {
    fn new() -> Self {
        Doc { out: String::from("{"), empty: true }
    }

    fn key(&mut self, key: &str) {
        self.out.push_str(if self.empty { "\n  \"" } else { ",\n  \"" });
        self.out.push_str(key);
        self.out.push_str("\": ");
        self.empty = false;
    }

    /// `"key": value` on one line.
    fn value<T: Serialize + ?Sized>(mut self, key: &str, value: &T) -> Self {
        self.key(key);
        self.out.push_str(&compact(value));
        self
    }

    /// `"key": [` then one element per line.
    fn lines<T: Serialize>(mut self, key: &str, items: &[T]) -> Self {
        self.key(key);
        if items.is_empty() {
            self.out.push_str("[]");
            return self;
        }
        self.out.push('[');
        for (i, item) in items.iter().enumerate() {
            self.out.push_str(if i == 0 { "\n    " } else { ",\n    " });
            self.out.push_str(&compact(item));
        }
        self.out.push_str("\n  ]");
        self
    }

    /// `"key": {` then one nested key per line (serde_json's pretty layout, indented).
    fn pretty<T: Serialize>(mut self, key: &str, value: &T) -> Self {
        self.key(key);
        let text = serde_json::to_string_pretty(value).expect("trace types serialize: string keys only");
        self.out.push_str(&text.replace('\n', "\n  "));
        self
    }

    fn finish(mut self) -> String {
        self.out.push_str("\n}\n");
        self.out
    }
}

fn compact<T: Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).expect("trace types serialize: string keys only")
}

pub(super) fn trace_json(trace: &Trace) -> String {
    let mut doc = Doc::new().value("format", FORMAT).value("kind", &trace.kind());
    if let Some(note) = &trace.note {
        doc = doc.value("note", note);
    }
    doc = doc.value("params", &trace.params);
    doc = match &trace.data {
        TraceData::Snapshots { snapshots, rtt } if rtt.is_empty() => doc.lines("snapshots", snapshots),
        TraceData::Snapshots { snapshots, rtt } => doc.lines("snapshots", snapshots).lines("rtt", rtt),
        TraceData::Paths { paths } => doc.lines("paths", paths),
    };
    doc.value("sampleAt", &trace.sample_at).finish()
}

impl Replay {
    /// `{"samples": [...], "metrics": {...}}`, one sample per line.
    pub fn to_json(&self) -> String {
        let doc = match &self.samples {
            ReplaySamples::Snapshots(samples) => Doc::new().lines("samples", samples),
            ReplaySamples::Paths(samples) => Doc::new().lines("samples", samples),
        };
        match &self.metrics {
            ReplayMetrics::Snapshots(metrics) => doc.pretty("metrics", metrics),
            ReplayMetrics::Paths(metrics) => doc.pretty("metrics", metrics),
        }
        .finish()
    }
}

impl StrategyReplay {
    /// `{"strategy", "samples": [...], "metrics": {...}}`, one sample per line.
    pub fn to_json(&self) -> String {
        Doc::new()
            .value("strategy", &self.strategy)
            .lines("samples", &self.samples)
            .pretty("metrics", &self.metrics)
            .finish()
    }
}
