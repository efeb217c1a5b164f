//! Instruction counts of the engines' speed goal (scoring every strategy adds at most 50 % to a full
//! re-simulation), for callgrind (stable on a busy machine, unlike wall time):
//!
//! ```text
//! cargo build --release --example engines_cost
//! valgrind --tool=callgrind --collect-atstart=no --toggle-collect='engines_cost::measured' \
//!     target/release/examples/engines_cost WHAT
//! ```
//! `WHAT` is `sim` (the full re-simulation: run + metrics of a 60 s window at 60 fps), `rerun` (what the page's
//! `setParams` does on a new seed: the whole window re-run, no metrics — bench.html's first row), `rerun-metrics`
//! (the same and its metrics: what the page does on a change), `scored` (every strategy replays that run's client
//! inputs and is scored, `playground`'s track taken from the run's metrics, which the full re-simulation computed:
//! `score_all` with the run's metrics), `scored-frames` (the same, `playground` scored from the run's frames:
//! `score_all` without the run's metrics), `scored-replaying` (the same, `playground` replayed too),
//! `replayed` (every strategy, rows only) or `drawn` (the four engines the page draws by default, rows only). Only
//! the call of `measured` is counted; the goal is `scored` ≤ 1.5 × `sim`.

use netcode_lab::compare::league::setup;
use netcode_lab::compare::own::{score_all, OwnRun};
use netcode_lab::engines::score::{run as run_strategy, Keep};
use netcode_lab::engines::{EngineParams, StrategyKind};
use netcode_lab::sim::metrics::RemoteMetrics;
use netcode_lab::sim::params::SimParams;
use netcode_lab::sim::{run, Simulation};
use std::hint::black_box;

#[inline(never)]
fn measured(what: &str, params: &SimParams, sim: &mut Simulation, run_metrics: &RemoteMetrics) -> usize {
    let s = setup(sim.params(), &EngineParams::default(), None);
    let (_, inputs) = sim.client_inputs();
    let all = |keep: Keep, kinds: &[StrategyKind]| {
        kinds
            .iter()
            .map(|&k| {
                let r = run_strategy(&s, k, inputs, sim.truth(), keep).unwrap();
                r.rows.len() + usize::from(r.metrics.is_some())
            })
            .sum::<usize>()
    };
    match what {
        "sim" => {
            let fresh = run(black_box(params)).unwrap();
            fresh.metrics().frames
        }
        "rerun" => {
            // What the page's `setParams` does on a new seed (bench.html's first row; criterion's
            // `rerun_60s_everything`): the whole window again, no metrics.
            let next = SimParams { seed: params.seed + 1, ..params.clone() };
            sim.rerun(black_box(&next)).unwrap();
            sim.recording().frames.len()
        }
        "rerun-metrics" => {
            // The re-run and its metrics: what the page does on a change (criterion's
            // `rerun_60s_everything_metrics`, bench.html's second row).
            let next = SimParams { seed: params.seed + 1, ..params.clone() };
            sim.rerun(black_box(&next)).unwrap();
            sim.metrics().frames
        }
        "scored" => {
            let own = OwnRun { frames: &sim.recording().frames, metrics: Some(run_metrics) };
            score_all(&s, &StrategyKind::ALL, inputs, sim.truth(), Some(own)).unwrap().len()
        }
        "scored-frames" => {
            let own = OwnRun { frames: &sim.recording().frames, metrics: None };
            score_all(&s, &StrategyKind::ALL, inputs, sim.truth(), Some(own)).unwrap().len()
        }
        "scored-replaying" => all(Keep::METRICS, &StrategyKind::ALL),
        "replayed" => all(Keep::ROWS, &StrategyKind::ALL),
        "drawn" => {
            all(Keep::ROWS, &[StrategyKind::Mirror, StrategyKind::Ngo, StrategyKind::Source, StrategyKind::Geckos])
        }
        other => panic!(
            "unknown `{other}` (sim, rerun, rerun-metrics, scored, scored-frames, scored-replaying, replayed, drawn)"
        ),
    }
}

fn main() {
    let what = std::env::args().nth(1).unwrap_or_else(|| "scored".to_string());
    let params = SimParams { duration: 60.0, ..SimParams::default() };
    let mut sim = run(&params).unwrap();
    let run_metrics = sim.metrics().remote;
    println!("{what}: {}", black_box(measured(&what, &params, &mut sim, &run_metrics)));
}
