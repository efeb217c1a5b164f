//! What a slider drag costs: the page re-simulates the whole window (and its metrics and the delay sweep)
//! whenever a parameter changes. Targets (issue 6): 60 s at 60 fps ≤ 2 ms in wasm; 64-point sweep ≤ 50 ms.
//! Issue 13: every engine strategy replayed and scored on a 60 s run adds at most 50 % to the full
//! re-simulation (`run_60s_60fps` + `metrics_60s_60fps`): compare `engines_all_60s` with their sum.

use criterion::{criterion_group, criterion_main, Criterion};
use netcode_lab::engines::run::{run as run_strategy, score_all, Keep};
use netcode_lab::engines::StrategyKind;
use netcode_lab::sim::league::{league, setup, Network};
use netcode_lab::sim::params::SimParams;
use netcode_lab::sim::run;
use netcode_lab::sim::sweep::sweep;
use std::hint::black_box;

fn window(duration: f64) -> SimParams {
    SimParams { duration, ..SimParams::default() }
}

fn whole_runs(c: &mut Criterion) {
    let long = window(60.0);
    c.bench_function("run_60s_60fps", |b| b.iter(|| run(black_box(&long)).unwrap().recording().frames.len()));
    let sim = run(&long).unwrap();
    c.bench_function("metrics_60s_60fps", |b| b.iter(|| black_box(sim.metrics()).frames));
    let page = window(20.0);
    let delays: Vec<f64> = (0..64).map(|i| i as f64 * 0.005).collect();
    c.bench_function("sweep_64_points_20s", |b| b.iter(|| sweep(black_box(&page), &delays).unwrap().len()));
}

/// Every strategy replays the run's client inputs and is scored (one network's column of the league table; the
/// `playground` strategy is the run's own pipeline, scored from its frames),
/// the four engines the page draws by default replayed for their rows only (what the main thread adds per change),
/// and the whole league table on the five networks of a 20 s page run (the Worker's job).
fn engines(c: &mut Criterion) {
    let long = window(60.0);
    let sim = run(&long).unwrap();
    let s = setup(sim.params(), None);
    let (_, inputs) = sim.client_inputs();
    let all = |keep: Keep, kinds: &[StrategyKind]| {
        kinds
            .iter()
            .map(|&k| run_strategy(&s, k, inputs, sim.time_map(), sim.truth(), keep).unwrap().rows.len())
            .sum::<usize>()
    };
    let frames = Some(&sim.recording().frames);
    c.bench_function("engines_all_60s_scored", |b| {
        b.iter(|| score_all(&s, &StrategyKind::ALL, inputs, sim.time_map(), sim.truth(), frames).unwrap().len())
    });
    c.bench_function("engines_all_60s_replayed", |b| b.iter(|| all(Keep::ROWS, &StrategyKind::ALL)));
    let drawn = [StrategyKind::Mirror, StrategyKind::Ngo, StrategyKind::Source, StrategyKind::Geckos];
    c.bench_function("engines_4_drawn_60s", |b| b.iter(|| all(Keep::ROWS, &drawn)));
    let page = window(20.0);
    c.bench_function("league_5_networks_20s", |b| {
        b.iter(|| league(black_box(&page), &Network::all(), &StrategyKind::ALL).unwrap().cells.len())
    });
}

/// Sets one parameter to one of two values (`odd` picks which).
type Change = fn(&mut SimParams, bool);

/// Where a full re-run's time goes: a change that touches one pipeline re-simulates only that one and copies
/// the other columns from the previous run (`sim::rerun`). Each iteration alternates between two values.
fn partial_reruns(c: &mut Criterion) {
    let base = window(60.0);
    let mut sim = run(&base).unwrap();
    let changes: [(&str, Change); 4] = [
        ("rerun_60s_remote_only", |p, odd| p.remote.clock.render_delay = if odd { 0.12 } else { 0.1 }),
        ("rerun_60s_paths_only", |p, odd| p.paths.lerp.lerp_factor = if odd { 0.2 } else { 0.1 }),
        ("rerun_60s_local_only", |p, odd| p.local.max_pending_inputs = if odd { 30 } else { 31 }),
        ("rerun_60s_everything", |p, odd| p.seed = if odd { 2 } else { 1 }),
    ];
    for (name, change) in changes {
        let mut params = base.clone();
        let mut odd = false;
        c.bench_function(name, |b| {
            b.iter(|| {
                odd = !odd;
                change(&mut params, odd);
                sim.rerun(black_box(&params)).unwrap();
            })
        });
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = whole_runs, engines, partial_reruns
}
criterion_main!(benches);
