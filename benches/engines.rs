//! Every engine strategy replayed and scored on a 60 s run, to set beside the full re-simulation
//! (`run_60s_60fps` + `metrics_60s_60fps` in benches/sim.rs; the goal: at most 50 % more): compare
//! `engines_all_60s_scored` with their sum.

use criterion::{criterion_group, criterion_main, Criterion};
use netcode_lab::compare::league::{league, setup, Network};
use netcode_lab::compare::own::{score_all, OwnRun};
use netcode_lab::compare::PlaygroundParams;
use netcode_lab::engines::score::{run as run_strategy, Keep};
use netcode_lab::engines::{EngineParams, StrategyKind};
use netcode_lab::sim::params::SimParams;
use netcode_lab::sim::run;
use std::hint::black_box;

fn window(duration: f64) -> SimParams {
    SimParams { duration, ..SimParams::default() }
}

/// Every strategy replays the run's client inputs and is scored (one network's column of the league table; the
/// `playground` strategy is the run's own pipeline, its track read from the run's metrics — or, as the binding
/// still does, scored from its frames),
/// the four engines the page draws by default replayed for their rows only (what the main thread adds per change),
/// and the whole league table on the five networks of a 20 s page run (the Worker's job).
fn engines(c: &mut Criterion) {
    let long = window(60.0);
    let sim = run(&long).unwrap();
    let s = setup(sim.params(), &EngineParams::default(), None);
    let (_, inputs) = sim.client_inputs();
    let all = |keep: Keep, kinds: &[StrategyKind]| {
        kinds.iter().map(|&k| run_strategy(&s, k, inputs, sim.truth(), keep).unwrap().rows.len()).sum::<usize>()
    };
    let frames = Some(OwnRun { frames: &sim.recording().frames, metrics: None });
    // The run's metrics are part of the full re-simulation (`metrics_60s_60fps`): `playground`'s track is read
    // from them.
    let run_metrics = sim.metrics().remote;
    let own = Some(OwnRun { frames: &sim.recording().frames, metrics: Some(&run_metrics) });
    c.bench_function("engines_all_60s_scored", |b| {
        b.iter(|| score_all(&s, &StrategyKind::ALL, inputs, sim.truth(), own).unwrap().len())
    });
    c.bench_function("engines_all_60s_scored_from_frames", |b| {
        b.iter(|| score_all(&s, &StrategyKind::ALL, inputs, sim.truth(), frames).unwrap().len())
    });
    c.bench_function("engines_all_60s_replayed", |b| b.iter(|| all(Keep::ROWS, &StrategyKind::ALL)));
    let drawn = [StrategyKind::Mirror, StrategyKind::Ngo, StrategyKind::Source, StrategyKind::Geckos];
    c.bench_function("engines_4_drawn_60s", |b| b.iter(|| all(Keep::ROWS, &drawn)));
    let page = PlaygroundParams { sim: window(20.0), engines: EngineParams::default() };
    c.bench_function("league_5_networks_20s", |b| {
        b.iter(|| league(black_box(&page), &Network::all(), &StrategyKind::ALL).unwrap().cells.len())
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = engines
}
criterion_main!(benches);
