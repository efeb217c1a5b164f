//! The fit (`netcode_lab::fit`) on traces the simulator made with known parameters (60 s at 60 Hz), the round
//! trip fit → simulate the fitted network → fit again, a property test over arbitrary traces, and the
//! `netcode-lab fit` command through the real binary.
//!
//! The expected numbers come from the parameters, not from a fit: uniform jitter `latency ± jitter` has its floor
//! at `latency − jitter` and its p95 at `latency − jitter + 0.95 · 2 · jitter`; the log-normal model's floor is
//! `latency`, its p95 `latency + jitter · exp(1.6449 · jitterSigma)`; the burst chain's mean burst is
//! `burstLength`, independent loss at rate p has mean burst `1 / (1 − p)`; a duplicate probability d is a share
//! `d / (1 + d)` of the arrivals; a clock running `1 + s` as fast adds `s · 1e6` ppm.
#![cfg(not(target_arch = "wasm32"))]

use netcode_lab::compare::PlaygroundParams;
use netcode_lab::fit::{self, Fit, Jitter, Observation};
use netcode_lab::link::{JitterModel, LinkParams, LossModel};
use netcode_lab::sim;
use netcode_lab::trace::export;
use proptest::prelude::*;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_netcode-lab");

/// 60 s at 60 Hz, one snapshot a tick, through `downlink` with a clock skew `skew`.
fn recorded(downlink: LinkParams, skew: f64, seed: u64) -> (Vec<Observation>, Vec<f64>) {
    let mut params = PlaygroundParams::default();
    params.sim.seed = seed;
    params.sim.duration = 60.0;
    params.sim.scenario.tick_rate = 60.0;
    params.sim.scenario.send_rate = 60.0;
    params.sim.network.downlink = downlink;
    params.sim.network.clock_skew = skew;
    simulate(&params)
}

fn simulate(params: &PlaygroundParams) -> (Vec<Observation>, Vec<f64>) {
    let run = sim::run(&params.sim).expect("valid parameters");
    export::snapshot_trace(&run).fit_input().expect("a snapshot trace")
}

fn fitted(downlink: LinkParams, skew: f64) -> Fit {
    let (observations, rtt) = recorded(downlink, skew, 11);
    fit::fit(&observations, &rtt).expect("a fit")
}

fn within(what: &str, got: f64, want: f64, relative: f64) {
    assert!((got - want).abs() <= relative * want.abs(), "{what}: {got}, want {want} ± {}%", relative * 100.0);
}

fn near(what: &str, got: f64, want: f64, absolute: f64) {
    assert!((got - want).abs() <= absolute, "{what}: {got}, want {want} ± {absolute}");
}

fn uniform(latency: f64, jitter: f64) -> LinkParams {
    LinkParams { latency, jitter, ..LinkParams::default() }
}

#[test]
fn uniform_loss_and_uniform_jitter() {
    let f = fitted(LinkParams { loss: 0.05, ..uniform(0.05, 0.01) }, 0.0);
    near("base", f.latency.base, 0.04, 0.001);
    within("p95", f.latency.p95, 0.04 + 0.95 * 0.02, 0.10);
    within("loss", f.loss.rate, 0.05, 0.20);
    within("mean burst", f.loss.mean_burst.unwrap(), 1.0 / 0.95, 0.25);
    near("send interval", f.send_interval.unwrap(), 1.0 / 60.0, 1e-9);
    assert_eq!(f.duplicate.rate, 0.0);
    // Jitter alone reorders: a packet overtakes the one sent 16.7 ms before it when their delays, each uniform in
    // ±10 ms, differ by more than 16.7 ms — the triangular tail (20 − 16.67)² / (2 · 20²) = 1.39 %.
    near("reorder", f.reorder.rate, 0.0139, 0.005);
}

#[test]
fn burst_loss() {
    let f =
        fitted(LinkParams { loss: 0.1, loss_model: LossModel::Burst, burst_length: 4.0, ..uniform(0.08, 0.02) }, 0.0);
    near("base", f.latency.base, 0.06, 0.001);
    within("p95", f.latency.p95, 0.06 + 0.95 * 0.04, 0.10);
    within("loss", f.loss.rate, 0.1, 0.20);
    within("mean burst", f.loss.mean_burst.unwrap(), 4.0, 0.25);
}

/// The log-normal model of the simulator: latency 30 ms, median excess 10 ms, sigma 0.8.
fn log_normal() -> LinkParams {
    LinkParams {
        latency: 0.03,
        jitter: 0.01,
        jitter_model: JitterModel::LogNormal,
        jitter_sigma: 0.8,
        loss: 0.03,
        loss_model: LossModel::Burst,
        burst_length: 3.0,
        ..LinkParams::default()
    }
}

#[test]
fn log_normal_jitter() {
    let f = fitted(log_normal(), 0.0);
    // The smallest of ~3500 draws of 10 ms · exp(0.8 z) is about 10 ms · exp(−0.8 · 3.4) = 0.7 ms above 30 ms.
    near("base", f.latency.base, 0.03, 0.001);
    within("p50", f.latency.p50, 0.03 + 0.01, 0.10);
    within("p95", f.latency.p95, 0.03 + 0.01 * (0.8f64 * 1.6448536).exp(), 0.10);
    within("loss", f.loss.rate, 0.03, 0.20);
    within("mean burst", f.loss.mean_burst.unwrap(), 3.0, 0.25);
    let Jitter::LogNormal { median, sigma } = f.jitter;
    // Measured from the floor, the median excess and sigma come back near 10 ms and 0.8.
    within("median", median + (f.latency.base - 0.03), 0.01, 0.10);
    within("sigma", sigma, 0.8, 0.15);
}

#[test]
fn reordering() {
    // A tenth of the packets held back 25–50 ms; uniform jitter ±5 ms cannot reorder packets 16.7 ms apart, and
    // a held-back packet arrives at least 60 ms after its send, after the next one (at most 61.7 ms after it,
    // only when that one is held too): about a tenth of the first copies arrive after a later one.
    let f = fitted(LinkParams { reorder: 0.1, reorder_delay: 0.05, ..uniform(0.04, 0.005) }, 0.0);
    near("base", f.latency.base, 0.035, 0.001);
    within("reorder", f.reorder.rate, 0.1, 0.20);
    assert_eq!(f.duplicate.rate, 0.0);
    let none = fitted(uniform(0.04, 0.005), 0.0);
    assert_eq!(none.reorder.rate, 0.0);
}

#[test]
fn duplication() {
    let f = fitted(LinkParams { duplicate: 0.2, ..uniform(0.05, 0.01) }, 0.0);
    within("duplicate share", f.duplicate.rate, 0.2 / 1.2, 0.10);
    near("base", f.latency.base, 0.04, 0.001);
    within("duplicates per packet", f.network(None).unwrap().downlink.duplicate, 0.2, 0.12);
}

#[test]
fn clock_skew() {
    // The client clock runs 300 ppm fast: delays grow by 18 ms over the minute; removed, the floor and p95 are
    // those of 50 ± 10 ms (times 1.0003, the skew of the delay itself).
    let f = fitted(LinkParams { loss: 0.02, ..uniform(0.05, 0.01) }, 300e-6);
    within("skew", f.clock_skew_ppm.unwrap(), 300.0, 0.10);
    near("base", f.latency.base, 0.04, 0.001);
    within("p95", f.latency.p95, 0.059, 0.10);
    let unskewed = fitted(LinkParams { loss: 0.02, ..uniform(0.05, 0.01) }, 0.0);
    near("no skew", unskewed.clock_skew_ppm.unwrap(), 0.0, 30.0);
}

#[test]
fn round_trip_fit_simulate_fit() {
    for (name, downlink, skew) in [
        ("log-normal, bursts", LinkParams { loss: 0.08, ..log_normal() }, 0.0),
        ("uniform, loss, skew", LinkParams { loss: 0.08, ..uniform(0.06, 0.015) }, 200e-6),
    ] {
        let first = fitted(downlink, skew);
        // The longest run the simulator makes, for as many loss bursts as it can give.
        let network = first.network(Some(120.0)).unwrap();
        let mut params = network.playground().unwrap();
        params.sim.seed = 99;
        let (observations, rtt) = simulate(&params);
        let again = fit::fit(&observations, &rtt).unwrap();
        // The fitted log-normal starts at the recording's floor, and its own smallest of ~7000 draws lies above
        // it, by about median · exp(−3.6 sigma) (z = −3.6 is the smallest of 7000 standard normals, typically): the
        // floor comes back no more than 1 ms below the first and no more than that lift and 1 ms above.
        let Jitter::LogNormal { median, sigma } = first.jitter;
        let lift = median * (-3.6 * sigma).exp();
        let base = again.latency.base;
        assert!(
            (first.latency.base - 0.001..=first.latency.base + lift + 0.001).contains(&base),
            "{name}: base {base}, first {}, lift {lift}",
            first.latency.base
        );
        within(&format!("{name}: p50"), again.latency.p50, first.latency.p50, 0.10);
        within(&format!("{name}: p95"), again.latency.p95, first.latency.p95, 0.10);
        within(&format!("{name}: loss"), again.loss.rate, first.loss.rate, 0.25);
        within(&format!("{name}: mean burst"), again.loss.mean_burst.unwrap(), first.loss.mean_burst.unwrap(), 0.25);
        near(&format!("{name}: send interval"), again.send_interval.unwrap(), first.send_interval.unwrap(), 1e-9);
        near(&format!("{name}: skew"), again.clock_skew_ppm.unwrap(), first.clock_skew_ppm.unwrap(), 30.0);
    }
}

/// Every number of a fit's JSON, in order.
fn numbers(value: &serde_json::Value, out: &mut Vec<f64>) {
    match value {
        serde_json::Value::Number(n) => out.push(n.as_f64().unwrap()),
        serde_json::Value::Array(a) => a.iter().for_each(|v| numbers(v, out)),
        serde_json::Value::Object(o) => o.values().for_each(|v| numbers(v, out)),
        _ => {}
    }
}

proptest! {
    #[test]
    fn a_fit_never_panics_and_writes_only_finite_numbers(
        copies in prop::collection::vec((0u64..400, -1e12f64..1e12, -1e12f64..1e12), 0..80),
        near_copies in prop::collection::vec((0u64..50, 0.0f64..3.0, 0.0f64..0.5), 0..80),
        rtt in prop::collection::vec(0.0f64..10.0, 0..3),
        huge_tick in any::<u64>(),
    ) {
        let mut observations: Vec<Observation> =
            copies.iter().map(|&(tick, server_time, arrival)| Observation { tick, server_time, arrival }).collect();
        observations.extend(near_copies.iter().map(|&(tick, s, d)| Observation {
            tick, server_time: s, arrival: s + d,
        }));
        if huge_tick % 3 == 0 {
            observations.push(Observation { tick: huge_tick, server_time: 1.0, arrival: 1.1 });
        }
        match fit::fit(&observations, &rtt) {
            Err(e) => prop_assert!(e.field == "snapshots", "{e}"),
            Ok(f) => {
                let json = serde_json::to_value(&f).unwrap();
                let mut all = Vec::new();
                numbers(&json, &mut all);
                prop_assert!(all.iter().all(|n| n.is_finite()), "{json}");
                prop_assert!((0.0..=1.0).contains(&f.loss.rate));
                prop_assert!(f.latency.base <= f.latency.p50 && f.latency.p50 <= f.latency.p95);
                prop_assert!(f.latency.p95 <= f.latency.p99);
                if let Ok(network) = f.network(None) {
                    prop_assert!(network.playground().is_ok(), "{:?}", network);
                }
                prop_assert!(fit::model::figure(&observations, &rtt, 1).is_ok());
            }
        }
    }
}

fn cli(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(BIN).args(args).output().expect("the binary runs");
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn the_cli_fits_a_trace_and_its_params_file_drives_export_and_compare() {
    let dir = std::env::temp_dir().join(format!("netcode-lab-fit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (trace, params) = (dir.join("trace.json"), dir.join("params.json"));
    let (code, text, _) = cli(&["export", "--scenario", "mobile", "--seed", "3"]);
    assert_eq!(code, 0);
    std::fs::write(&trace, text).unwrap();
    let trace = trace.to_str().unwrap();

    let (code, text, err) = cli(&["fit", trace]);
    assert_eq!((code, err.as_str()), (0, ""));
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let keys: Vec<&str> = json.as_object().unwrap().keys().map(String::as_str).collect();
    let mut want = ["latency", "jitter", "loss", "reorder", "duplicate", "sendInterval", "clockSkewPpm"];
    want.sort();
    assert_eq!(keys, want);
    assert_eq!(json["jitter"]["model"], "logNormal");
    // mobile: 15 Hz, 60 ms + an exponential tail of mean 40 ms (its floor 60 ms), 3 % lost in bursts of 4.
    near("sendInterval", json["sendInterval"].as_f64().unwrap(), 1.0 / 15.0, 1e-3);
    near("base", json["latency"]["base"].as_f64().unwrap(), 0.06, 0.002);
    assert_eq!(cli(&["fit", trace]).1, text, "the same output twice");

    let (code, file, err) = cli(&["fit", trace, "--params", "--duration", "30"]);
    assert_eq!((code, err.as_str()), (0, ""));
    std::fs::write(&params, &file).unwrap();
    let read = PlaygroundParams::from_json(&file).unwrap();
    assert_eq!(read.sim.duration, 30.0);
    assert_eq!(read.sim.network.downlink.jitter_model, JitterModel::LogNormal);
    let params = params.to_str().unwrap();
    let (code, _, err) = cli(&["export", "--scenario", "default", "--params", params]);
    assert_eq!((code, err.as_str()), (0, ""));
    let (code, _, err) = cli(&["compare", "--scenario", "default", "--params", params, "--strategies", "latest"]);
    assert_eq!((code, err.as_str()), (0, ""));

    for (args, error) in [
        (vec!["fit"], "fit: expected one trace file (`-` for stdin)\n"),
        (vec!["fit", trace, "--duration", "5"], "fit: --duration goes with --params\n"),
        (vec!["fit", trace, "--params", "--duration", "0"], "params: duration: 0 s is outside 1..=120 s\n"),
    ] {
        let (code, out, err) = cli(&args);
        assert_eq!((code, out.as_str(), err.as_str()), (2, "", error), "{args:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
