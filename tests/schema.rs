//! The parameters' schema (`PlaygroundParams::schema()`, `netcode-lab schema`, the page's controls) against what
//! the parameters do: serde's own writing of the defaults, and the checks that refuse a value.
//!
//! Each parameter's key, range and control are stated once, beside its field (`#[param]`); these tests hold the
//! schema to the behaviour it describes, so a statement that drifts from the code goes red here:
//! - a key the derive spells differently from serde, or a field left out of the schema → the path sets differ;
//! - a range stated in the schema but not checked (a group whose `validate` skips `check_ranges`), or checked
//!   under another name (a wrong `within` prefix) → a value past the range is accepted, or refused naming
//!   another field;
//! - a default outside its range, a control that offers values the range refuses, a default the slider cannot
//!   show → the bounds checks below.

use netcode_lab::compare::PlaygroundParams;
use netcode_lab::param::{Entry, Kind, Value as Default};
use serde_json::Value;
use std::collections::BTreeSet;

fn schema() -> Vec<Entry> {
    PlaygroundParams::schema()
}

/// Every leaf of a JSON object, as a dotted path (a list or `null` is a leaf: the script).
fn leaves(value: &Value, prefix: &str, out: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            for (key, value) in map {
                let path = if prefix.is_empty() { key.clone() } else { format!("{prefix}.{key}") };
                leaves(value, &path, out);
            }
        }
        _ => {
            out.insert(prefix.to_string());
        }
    }
}

fn pointer(path: &str) -> String {
    path.split('.').flat_map(|key| ["/", key]).collect()
}

#[test]
fn the_schema_lists_every_parameter_serde_writes_and_no_other() {
    let defaults = serde_json::to_value(PlaygroundParams::default()).unwrap();
    let mut written = BTreeSet::new();
    leaves(&defaults, "", &mut written);
    let listed: BTreeSet<String> = schema().into_iter().map(|e| e.path).collect();
    assert_eq!(listed.len(), schema().len(), "a path is listed twice");
    let missing: Vec<_> = written.difference(&listed).collect();
    let extra: Vec<_> = listed.difference(&written).collect();
    assert!(missing.is_empty() && extra.is_empty(), "not in the schema: {missing:?}; not written by serde: {extra:?}");
    assert!(listed.len() > 120, "{} parameters", listed.len());
    assert!(listed.contains("remote.clock.renderDelay") && listed.contains("engines.mirror.bufferTimeMultiplier"));
}

#[test]
fn each_entry_is_documented_and_its_default_is_the_parameters_own() {
    let defaults = serde_json::to_value(PlaygroundParams::default()).unwrap();
    for entry in schema() {
        assert!(entry.doc.len() > 10, "{}: no doc", entry.path);
        let written = defaults.pointer(&pointer(&entry.path)).unwrap();
        match entry.default {
            Default::Number(n) => assert_eq!(Some(n), written.as_f64(), "{}", entry.path),
            Default::Flag(b) => assert_eq!(Some(b), written.as_bool(), "{}", entry.path),
            Default::Name(name) => assert_eq!(Some(name), written.as_str(), "{}", entry.path),
            Default::None => assert!(written.is_null(), "{}: {written}", entry.path),
        }
        let key = entry.path.rsplit('.').next().unwrap();
        assert!(!entry.field.is_empty() && (entry.field == key || !entry.field.contains(char::is_uppercase)));
        match entry.kind {
            Kind::Choice => {
                assert!(entry.options.len() >= 2, "{}: options {:?}", entry.path, entry.options);
                let Default::Name(name) = entry.default else { panic!("{}: default {:?}", entry.path, entry.default) };
                assert!(entry.options.contains(&name), "{}: default {name} not among {:?}", entry.path, entry.options);
            }
            Kind::Flag => assert!(matches!(entry.default, Default::Flag(_)), "{}", entry.path),
            Kind::Number | Kind::Whole => {
                assert!(matches!(entry.default, Default::Number(_) | Default::None), "{}", entry.path)
            }
            Kind::List => assert_eq!(entry.path, "script"),
            Kind::Group => panic!("{}: a group is walked into, not listed", entry.path),
        }
        if entry.kind != Kind::Choice {
            assert!(entry.options.is_empty(), "{}", entry.path);
        }
    }
}

#[test]
fn every_default_is_inside_its_range_and_every_control_inside_the_range_and_around_the_default() {
    for entry in schema() {
        let Some([min, max]) = entry.range else {
            // Unbounded (the seed: any whole number) or bounded by another field (checked by its group).
            if let Some(control) = entry.control {
                assert!(control.step > 0.0 && control.min < control.max, "{}: {control:?}", entry.path);
            }
            continue;
        };
        assert!(min.is_finite() && max.is_finite() && min <= max, "{}: {min}..{max}", entry.path);
        if let Default::Number(value) = entry.default {
            assert!((min..=max).contains(&value), "{}: default {value} outside {min}..={max}", entry.path);
        }
        if let Some(control) = entry.control {
            let (lo, hi) = (control.min / control.scale, control.max / control.scale);
            assert!(control.step > 0.0 && control.min < control.max, "{}: {control:?}", entry.path);
            // The slider offers nothing the check refuses (a rounding ulp aside).
            assert!(lo >= min - 1e-12 && hi <= max + 1e-12, "{}: control {lo}..{hi} outside {min}..{max}", entry.path);
            if let Default::Number(value) = entry.default {
                let shown = value * control.scale;
                assert!(
                    shown >= control.min - 1e-9 && shown <= control.max + 1e-9,
                    "{}: the default {shown} {} is off the slider",
                    entry.path,
                    control.unit
                );
            }
        }
    }
}

/// A value past each end of every stated range is refused, naming the parameter by its path: the range the
/// schema states is the one the checks hold.
#[test]
fn a_value_past_either_end_of_a_stated_range_is_refused_by_its_path() {
    let defaults = serde_json::to_value(PlaygroundParams::default()).unwrap();
    let mut checked = 0;
    for entry in schema() {
        let Some([min, max]) = entry.range else { continue };
        for value in [max + max.abs().max(1.0), min - min.abs().max(1.0)] {
            if entry.kind == Kind::Whole && value < 0.0 {
                continue; // an unsigned field: serde refuses the type before any range is read
            }
            let mut params = defaults.clone();
            *params.pointer_mut(&pointer(&entry.path)).unwrap() = serde_json::json!(value);
            let refused = PlaygroundParams::from_json(&params.to_string())
                .err()
                .unwrap_or_else(|| panic!("{} = {value} accepted; the schema says {min}..={max}", entry.path));
            assert_eq!(refused.field, entry.path, "{} = {value}: {}", entry.path, refused.message);
            checked += 1;
        }
    }
    assert!(checked > 150, "{checked} refusals checked");
}
