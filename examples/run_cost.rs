//! Instruction counts of one full 60 s re-simulation (the goal: ≤ 2 ms in wasm), for callgrind — stable on a
//! busy machine, unlike wall time:
//!
//! ```text
//! cargo build --release --example run_cost
//! valgrind --tool=callgrind --collect-atstart=no --toggle-collect='run_cost::measured' \
//!     target/release/examples/run_cost WHAT
//! callgrind_annotate --inclusive=yes callgrind.out.PID
//! ```
//! `WHAT` is `rerun` (what the page's `setParams` does on a new seed: the whole window re-run, no metrics —
//! bench.html's first row, criterion's `rerun_60s_everything`), `run` (a fresh `sim::run`, criterion's
//! `run_60s_60fps`), `remote`, `paths` or `local` (a change that re-runs only that pipeline and copies the
//! others' columns: criterion's `rerun_60s_*_only`), or `metrics` (the metrics of a finished run). Only the
//! call of `measured` is counted. For a split by source file, build with line tables
//! (`CARGO_PROFILE_RELEASE_DEBUG=line-tables-only`, own `CARGO_TARGET_DIR`) and annotate with `--inclusive=no`:
//! code inlined from `src/buffer/` is then counted under that file.
//!
//! `fingerprint` is not for callgrind: it prints one hash of every timeline's bits and of the metrics of a few
//! dozen runs (presets, clocks, motions, events — a stall's uneven frames —, lossy links) and of a re-run on
//! each: a quick check that a speed-up changed no number, before the full tests and the league table.

use netcode_lab::clock::ClockKind;
use netcode_lab::link::{JitterModel, LossModel};
use netcode_lab::motion::MotionScript;
use netcode_lab::sim::params::SimParams;
use netcode_lab::sim::presets::NetworkPreset;
use netcode_lab::sim::{run, Simulation};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::hint::black_box;

#[inline(never)]
fn measured(what: &str, params: &SimParams, sim: &mut Simulation) -> usize {
    let mut next = params.clone();
    match what {
        "rerun" => next.seed += 1,
        "run" => return run(black_box(params)).unwrap().recording().frames.len(),
        "remote" => next.remote.clock.render_delay += 0.02,
        "paths" => next.paths.lerp.lerp_factor = 0.2,
        "local" => next.local.max_pending_inputs -= 1,
        "metrics" => return black_box(sim.metrics()).frames,
        other => panic!("unknown `{other}` (rerun, run, remote, paths, local, metrics)"),
    }
    sim.rerun(black_box(&next)).unwrap();
    sim.recording().frames.len()
}

/// Settings that reach every pipeline's rarer branches.
fn variants() -> Vec<SimParams> {
    let base = SimParams { duration: 20.0, ..SimParams::default() };
    let mut all = vec![base.clone()];
    for preset in NetworkPreset::ALL {
        let mut p = base.clone();
        preset.apply(&mut p);
        all.push(p);
    }
    for clock in [ClockKind::Known, ClockKind::Reanchor, ClockKind::Timescale] {
        let mut p = base.clone();
        p.remote.clock.clock = clock;
        all.push(p);
    }
    for motion in MotionScript::ALL {
        let mut p = base.clone();
        p.scenario.motion = motion;
        all.push(p);
    }
    let mut p = base.clone();
    for link in [&mut p.network.downlink, &mut p.network.uplink] {
        (link.loss, link.loss_model, link.reorder, link.duplicate) = (0.1, LossModel::Burst, 0.2, 0.1);
        (link.jitter, link.jitter_model) = (0.03, JitterModel::Normal);
    }
    all.push(p.clone());
    p.remote.clock.adaptive_delay.enabled = true;
    p.local.mismatch = true;
    p.local.smoothing.half_life = 0.2;
    (p.events.stall_at, p.events.stall_duration, p.events.kick_at, p.events.kick) = (Some(5.0), 1.0, Some(8.0), 0.3);
    (p.events.link_step_at, p.events.link_step_latency) = (Some(12.0), 0.2);
    all.push(p);
    let mut p = base.clone();
    p.fps = 144.0;
    p.local.input_redundancy = 0;
    p.local.max_pending_inputs = 8;
    p.remote.clock.adaptive_delay.enabled = true;
    p.remote.clock.adaptive_delay.mode = netcode_lab::clock::AdaptiveMode::Seed004;
    all.push(p);
    let seeds: Vec<SimParams> = all.iter().map(|p| SimParams { seed: p.seed + 7, ..p.clone() }).collect();
    all.extend(seeds);
    all
}

/// One hash of every number `params` gives: each timeline's bits and the metrics (Debug prints every digit).
fn fingerprint(params: &SimParams) -> u64 {
    let mut sim = run(params).unwrap();
    let mut h = DefaultHasher::new();
    format!("{:?}", sim.metrics()).hash(&mut h);
    for kind in netcode_lab::sim::record::KINDS {
        let timeline = sim.recording_mut().get_mut(kind).unwrap();
        timeline.rows().iter().for_each(|v| v.to_bits().hash(&mut h));
    }
    // A re-run on top (another seed, another delay).
    let mut next = SimParams { seed: params.seed + 1, ..params.clone() };
    next.remote.clock.render_delay += 0.01;
    sim.rerun(&next).unwrap();
    format!("{:?}", sim.metrics()).hash(&mut h);
    h.finish()
}

fn main() {
    let what = std::env::args().nth(1).unwrap_or_else(|| "rerun".to_string());
    if what == "fingerprint" {
        for (i, p) in variants().iter().enumerate() {
            println!("{i:2} {:016x}", fingerprint(p));
        }
        return;
    }
    let params = SimParams { duration: 60.0, ..SimParams::default() };
    let mut sim = run(&params).unwrap();
    println!("{what}: {}", black_box(measured(&what, &params, &mut sim)));
}
