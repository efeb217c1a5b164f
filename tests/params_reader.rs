//! The hand-written parameter reader (`netcode_lab::tree`) against the reader it replaced: serde's
//! derive over the same tree (`params_reader/derive.rs`). For every tree both must accept the same value, or
//! refuse it with the same field and the same words — which is what the page, the URL hash and the bad-input
//! catalogue show. The trees are the defaults with random damage: wrong types, special numbers (NaN, ±∞, −0,
//! 2.5 for an integer, 5e9 for a u32, 2⁵³+2), strange strings (a backtick, "expected ", " at line 1 column 2"),
//! unknown, removed and reordered keys, arrays and one-key objects where groups or names belong, events in the
//! script with missing and extra keys.
//!
//! What turns it red: a key spelt differently from serde's rename (`tickrate`), a field read into the wrong slot,
//! a group's keys listed in another order, a refusal raised with other words (`expected u64` for a u32), the
//! `-0` distinction between a refused and a visited number, `local`'s flattened part read like any group.

#[path = "cases/mod.rs"]
mod cases;
#[path = "params_reader/derive.rs"]
mod derive;

use derive::Old;
use netcode_lab::compare::PlaygroundParams;
use netcode_lab::path::params::PathParams;
use netcode_lab::predict::smoothing::SmoothingParams;
use netcode_lab::tree::{Read, Tree, TreeError};
use proptest::prelude::*;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt::Debug;

/// A JSON value as the page's walk would hand it over.
fn tree_of_json(value: &serde_json::Value) -> Tree {
    use serde_json::Value;
    match value {
        Value::Null => Tree::Null,
        Value::Bool(b) => Tree::Bool(*b),
        Value::Number(n) => Tree::Number(n.as_f64().unwrap()),
        Value::String(s) => Tree::Text(s.clone()),
        Value::Array(items) => Tree::List(items.iter().map(tree_of_json).collect()),
        Value::Object(map) => Tree::Object(map.iter().map(|(k, v)| (k.clone(), tree_of_json(v))).collect()),
    }
}

fn defaults<T: Serialize + Default>() -> Tree {
    tree_of_json(&serde_json::to_value(T::default()).unwrap())
}

/// What a reader made of a tree: the value (as `Debug`, so NaN equals NaN) or the refusal's field and words.
fn outcome<T: Debug>(read: Result<T, TreeError>) -> Result<String, (Option<String>, String)> {
    read.map(|v| format!("{v:?}")).map_err(|e| (e.field(), e.message().to_string()))
}

fn both<T: Read + Default + DeserializeOwned + Debug>(tree: &Tree) -> [Result<String, (Option<String>, String)>; 2] {
    let old = outcome(T::deserialize(Old::from(tree.clone())));
    let new = outcome(T::read(tree.clone()));
    [old, new]
}

fn same<T: Read + Default + DeserializeOwned + Debug>(tree: &Tree) {
    let [old, new] = both::<T>(tree);
    assert_eq!(new, old, "the hand reader differs from serde's derive on\n{tree:?}");
}

/// A tiny seeded generator, so a failing case is reproduced from its seed.
struct Dice(u64);

impl Dice {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const NUMBERS: [f64; 22] = [
    0.0,
    -0.0,
    1.0,
    2.0,
    -3.0,
    2.5,
    0.05,
    120.0,
    0.2,
    1e20,
    5e9,
    4_294_967_295.0,
    4_294_967_296.0,
    9_007_199_254_740_994.0,
    -9_007_199_254_740_994.0,
    1e308,
    5e-324,
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::MAX,
    -1e-7,
];

/// Every name of every enum among the parameters, and strings that trip a careless reader.
const TEXTS: [&str; 46] = [
    "turns",
    "circle",
    "stopAndGo",
    "respawn",
    "uniform",
    "normal",
    "exponential",
    "burst",
    "linear",
    "hermite",
    "gap",
    "oldest",
    "known",
    "reanchor",
    "smooth",
    "timescale",
    "packet",
    "jitter",
    "seed004",
    "hold",
    "extrapolate-seed",
    "extrapolate-decay",
    "snap",
    "hide",
    "maxExtrapolation",
    "halfSendInterval",
    "latestPoint",
    "batchStart",
    "remove",
    "keepTimedPauses",
    "perFrame",
    "timeConstant",
    "halfLife",
    "firstVersion",
    "interpolated",
    "latest",
    "",
    "1",
    "NaN",
    "a`b",
    "expected x",
    "x at line 1 column 2",
    "a, expected b",
    "tab\there\n",
    "Turns",
    "知道",
];

/// Keys put into objects: unknown ones, and known ones in the wrong group.
const KEYS: [&str; 12] =
    ["zzz", "sead", "expected x", "a`b", "", "smoothing", "halfLife", "seed", "time", "keys", "left", "renderDelay"];

fn leaf(dice: &mut Dice) -> Tree {
    match dice.below(10) {
        0 => Tree::Null,
        1 => Tree::Bool(dice.below(2) == 0),
        2..=4 => Tree::Number(*dice.pick(&NUMBERS)),
        5..=7 => Tree::Text(dice.pick(&TEXTS).to_string()),
        8 => Tree::List(if dice.below(2) == 0 { vec![] } else { vec![Tree::Number(1.0)] }),
        _ => match dice.below(5) {
            0 => Tree::Object(vec![]),
            1 => Tree::Object(vec![(dice.pick(&TEXTS).to_string(), Tree::Null)]),
            2 => Tree::Object(vec![(dice.pick(&TEXTS).to_string(), Tree::Number(1.0))]),
            3 => Tree::Object(vec![("a".into(), Tree::Null), ("b".into(), Tree::Null)]),
            _ => script(dice),
        },
    }
}

/// A `script` array: events with a time and keys, sometimes damaged.
fn script(dice: &mut Dice) -> Tree {
    let events = (0..dice.below(4))
        .map(|_| {
            let mut keys = Vec::new();
            for key in ["left", "right", "up", "down"] {
                if dice.below(2) == 0 {
                    keys.push((key.to_string(), if dice.below(6) == 0 { leaf(dice) } else { Tree::Bool(true) }));
                }
            }
            let keys = Tree::Object(keys);
            let mut entries = vec![
                (
                    "time".to_string(),
                    if dice.below(5) == 0 { leaf(dice) } else { Tree::Number(dice.below(30) as f64 * 0.5) },
                ),
                ("keys".to_string(), keys),
            ];
            match dice.below(8) {
                0 => {
                    entries.remove(0);
                }
                1 => {
                    entries.remove(1);
                }
                2 => entries.push((dice.pick(&KEYS).to_string(), Tree::Null)),
                3 => entries.reverse(),
                _ => {}
            }
            Tree::Object(entries)
        })
        .collect();
    Tree::List(events)
}

/// Every node's path in `tree` (keys of objects, indices of lists).
fn paths(tree: &Tree, at: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
    out.push(at.clone());
    let children: Vec<&Tree> = match tree {
        Tree::List(items) => items.iter().collect(),
        Tree::Object(entries) => entries.iter().map(|(_, v)| v).collect(),
        _ => return,
    };
    for (i, child) in children.into_iter().enumerate() {
        at.push(i);
        paths(child, at, out);
        at.pop();
    }
}

fn node<'a>(tree: &'a mut Tree, path: &[usize]) -> &'a mut Tree {
    path.iter().fold(tree, |t, &i| match t {
        Tree::List(items) => &mut items[i],
        Tree::Object(entries) => &mut entries[i].1,
        _ => unreachable!(),
    })
}

/// One random change somewhere in `tree`.
fn damage(tree: &mut Tree, dice: &mut Dice) {
    let mut all = Vec::new();
    paths(tree, &mut Vec::new(), &mut all);
    let path = dice.pick(&all).clone();
    let target = node(tree, &path);
    match (dice.below(8), target) {
        (0..=1, Tree::Object(entries)) => {
            let key = dice.pick(&KEYS).to_string();
            if !entries.iter().any(|(k, _)| *k == key) {
                let at = dice.below(entries.len() + 1);
                entries.insert(at, (key, leaf(dice)));
            }
        }
        (2, Tree::Object(entries)) if !entries.is_empty() => {
            let at = dice.below(entries.len());
            entries.remove(at);
        }
        (3, Tree::Object(entries)) if entries.len() > 1 => {
            let (a, b) = (dice.below(entries.len()), dice.below(entries.len()));
            entries.swap(a, b);
        }
        (4, Tree::Object(entries)) => {
            if let Some(entry) = entries.iter_mut().find(|(k, _)| k == "script") {
                entry.1 = script(dice);
            }
        }
        (_, target) => *target = leaf(dice),
    }
}

/// Fields of every group read with values other than their defaults (each number field a number of its own),
/// so a key read into the wrong slot shows.
fn distinct_values(tree: &mut Tree, counter: &mut f64) {
    match tree {
        Tree::Number(n) => {
            *counter += 1.0;
            *n = if n.fract() == 0.0 && *n >= 0.0 { *n + *counter } else { *n + *counter / 64.0 };
        }
        Tree::Bool(b) => *b = !*b,
        Tree::List(items) => items.iter_mut().for_each(|t| distinct_values(t, counter)),
        Tree::Object(entries) => entries.iter_mut().for_each(|(_, t)| distinct_values(t, counter)),
        _ => {}
    }
}

#[test]
fn the_defaults_and_an_empty_object_read_the_same() {
    same::<PlaygroundParams>(&defaults::<PlaygroundParams>());
    same::<PlaygroundParams>(&Tree::Object(vec![]));
    assert_eq!(PlaygroundParams::read(Tree::Object(vec![])).unwrap(), PlaygroundParams::default());
    assert_eq!(PlaygroundParams::read(defaults::<PlaygroundParams>()).unwrap(), PlaygroundParams::default());
    same::<PathParams>(&defaults::<PathParams>());
    same::<SmoothingParams>(&defaults::<SmoothingParams>());
}

#[test]
fn every_field_lands_in_its_own_slot() {
    let mut tree = defaults::<PlaygroundParams>();
    distinct_values(&mut tree, &mut 0.0);
    let [old, new] = both::<PlaygroundParams>(&tree);
    assert!(old.is_ok(), "{old:?}");
    assert_eq!(new, old);
    let mut tree = defaults::<PlaygroundParams>();
    if let Tree::Object(entries) = &mut tree {
        let script = tree_of_json(&serde_json::json!([
            {"time": 2.5, "keys": {"left": true}}, {"keys": {"up": true, "down": true}, "time": 0.5}
        ]));
        entries.iter_mut().find(|(k, _)| k == "script").unwrap().1 = script;
    }
    let [old, new] = both::<PlaygroundParams>(&tree);
    assert!(old.as_ref().is_ok_and(|v| v.contains("time: 0.5")), "{old:?}");
    assert_eq!(new, old);
}

/// The refusals the catalogue and the e2e tests rely on, worded by both readers, with the words written out:
/// if serde's derive ever changed its words, this says which.
#[test]
fn known_refusals_keep_their_words() {
    let cases = [
        (r#"{"sead": 3}"#, "sead", "unknown field `sead`, expected one of `seed`, `duration`, `fps`, `scenario`, `network`, `remote`, `paths`, `local`, `events`, `script`, `engines`"),
        (r#"{"network": {"downlink": {"loss": "lots"}}}"#, "network.downlink.loss", r#"invalid type: string "lots", expected f64"#),
        (r#"{"seed": 2.5}"#, "seed", "invalid type: floating point `2.5`, expected u64"),
        (r#"{"seed": -3}"#, "seed", "invalid value: integer `-3`, expected u64"),
        (r#"{"local": {"maxPendingInputs": 5000000000}}"#, "local.maxPendingInputs", "invalid value: integer `5000000000`, expected u32"),
        (r#"{"scenario": {"motion": "zigzag"}}"#, "scenario.motion", "unknown variant `zigzag`, expected one of `turns`, `circle`, `stopAndGo`, `respawn`"),
        (r#"{"scenario": [5]}"#, "scenario", "invalid type: sequence, expected struct ScenarioParams"),
        (r#"{"local": {"halfLife": "x"}}"#, "local", r#"invalid type: string "x", expected f64"#),
        (r#"{"local": {"zzz": 1}}"#, "local", "unknown field `zzz`"),
        (r#"{"local": {"smoothing": {"snap": 1}}}"#, "local", "invalid type: integer `1`, expected unit"),
        (r#"{"remote": {"clock": {"adaptiveDelay": {"enabled": 1}}}}"#, "remote.clock.adaptiveDelay.enabled", "invalid type: integer `1`, expected a boolean"),
        (r#"{"script": [{"keys": {}}]}"#, "script[0]", "missing field `time`"),
        (r#"{"script": {"time": 1}}"#, "script", "invalid type: map, expected a sequence"),
    ];
    for (json, field, message) in cases {
        let tree = tree_of_json(&serde_json::from_str(json).unwrap());
        let expected = Err((Some(field.to_string()), message.to_string()));
        assert_eq!(both::<PlaygroundParams>(&tree), [expected.clone(), expected], "{json}");
    }
    // `-0` refused outright is the integer 0; handed to a visitor (a boolean) it is the float -0.0.
    let minus_zero = |json: &str, at: &[&str]| {
        let mut tree = tree_of_json(&serde_json::from_str(json).unwrap());
        let mut t = &mut tree;
        for key in at {
            let Tree::Object(entries) = t else { unreachable!() };
            t = &mut entries.iter_mut().find(|(k, _)| k == key).unwrap().1;
        }
        *t = Tree::Number(-0.0);
        both::<PlaygroundParams>(&tree)
    };
    let refused = minus_zero(r#"{"scenario": {"motion": 0}}"#, &["scenario", "motion"]);
    assert_eq!(
        refused[1],
        Err((Some("scenario.motion".into()), "invalid type: integer `0`, expected enum MotionScript".into()))
    );
    let visited = minus_zero(r#"{"paths": {"withOffsets": 0}}"#, &["paths", "withOffsets"]);
    assert_eq!(
        visited[1],
        Err((Some("paths.withOffsets".into()), "invalid type: floating point `-0.0`, expected a boolean".into()))
    );
    assert_eq!(refused[0], refused[1]);
    assert_eq!(visited[0], visited[1]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases::cases(2000)))]

    #[test]
    fn the_hand_reader_says_what_serde_said(seed in 1u64.., damages in 1usize..4) {
        let mut dice = Dice(seed);
        let mut tree = defaults::<PlaygroundParams>();
        for _ in 0..damages {
            damage(&mut tree, &mut dice);
        }
        same::<PlaygroundParams>(&tree);
    }

    #[test]
    fn the_lessons_groups_read_alike(seed in 1u64..) {
        let mut dice = Dice(seed);
        let mut path = defaults::<PathParams>();
        damage(&mut path, &mut dice);
        same::<PathParams>(&path);
        let mut smoothing = defaults::<SmoothingParams>();
        damage(&mut smoothing, &mut dice);
        same::<SmoothingParams>(&smoothing);
    }
}
