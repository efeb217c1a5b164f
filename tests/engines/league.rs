//! Whole runs: every strategy replays the run's own client inputs; the page's cache re-runs only what a change
//! touches; the league table ranks them on every network.

use netcode_lab::compare::league::{league, setup, League, Network, COLUMNS};
use netcode_lab::compare::own::{rows_from_frames, score_all, score_frames, OwnRun};
use netcode_lab::compare::PlaygroundParams;
use netcode_lab::engines::bank::Bank;
use netcode_lab::engines::score::{run as run_strategy, Keep};
use netcode_lab::engines::{EngineParams, StrategyKind};
use netcode_lab::extrapolate::UnderrunPolicy;
use netcode_lab::sim::params::SimParams;
use netcode_lab::sim::presets::NetworkPreset;
use netcode_lab::sim::record::frame;
use netcode_lab::sim::rerun::{reusable, Reuse};
use netcode_lab::sim::{run, Simulation};

fn params() -> SimParams {
    SimParams { duration: 8.0, ..SimParams::default() }
}

/// The simulation's parameters with the engines' defaults, as the league takes them.
fn both(sim: &SimParams) -> PlaygroundParams {
    PlaygroundParams { sim: sim.clone(), engines: EngineParams::default() }
}

/// The rows of `kind` from the page's cache with `engines`' settings, as bits (NaN marks "nothing shown" and must
/// compare equal).
fn bank_run_with(sim: &Simulation, engines: &EngineParams, bank: &mut Bank, kind: StrategyKind) -> Vec<u64> {
    let (id, inputs) = sim.client_inputs();
    let s = setup(sim.params(), engines, None);
    bank.get(&s, kind, id, inputs, sim.truth()).expect("valid").rows.iter().map(|v| v.to_bits()).collect()
}

fn bank_run(sim: &Simulation, bank: &mut Bank, kind: StrategyKind) -> Vec<u64> {
    bank_run_with(sim, &EngineParams::default(), bank, kind)
}

/// The `playground` strategy is the page's own pipeline replayed on its logged inputs: the same positions, bit
/// for bit, on a mobile network with losses, reordering and a clock kick — so the page reads its rows from the
/// frames (`rows_from_frames`), modes included, whatever the underrun policy, and its metrics are the page's.
#[test]
fn the_playground_strategy_is_the_pages_pipeline_bit_for_bit() {
    for policy in UnderrunPolicy::ALL {
        let mut p = params();
        NetworkPreset::Mobile.apply(&mut p);
        p.network.downlink.reorder = 0.05;
        p.events.kick_at = Some(3.0);
        p.remote.underrun.underrun_policy = policy;
        let sim = run(&p).unwrap();
        let rows = bank_run(&sim, &mut Bank::default(), StrategyKind::Playground);
        let frames = &sim.recording().frames;
        assert_eq!(rows.len(), frames.len() * 4);
        for i in 0..frames.len() {
            let f = frames.row(i).unwrap();
            let same = |a: u64, b: f64| a == b.to_bits();
            assert!(same(rows[i * 4 + 1], f[frame::X]) && same(rows[i * 4 + 2], f[frame::Y]), "{policy:?} frame {i}");
            assert!(same(rows[i * 4], f[frame::RENDER_TIME]), "{policy:?} frame {i}");
        }
        let read: Vec<u64> = rows_from_frames(frames).iter().map(|v| v.to_bits()).collect();
        assert_eq!(read, rows, "{policy:?}: modes read from the frames");
        let (_, inputs) = sim.client_inputs();
        let scored = run_strategy(
            &setup(&p, &EngineParams::default(), None),
            StrategyKind::Playground,
            inputs,
            sim.truth(),
            Keep::METRICS,
        )
        .unwrap()
        .metrics
        .unwrap();
        assert_eq!(score_frames(frames, sim.truth()), scored, "{policy:?}: scored from the frames, no replay");
        let league_cell = league(&both(&p), &[Network::custom("custom")], &[StrategyKind::Playground]).unwrap().cells;
        assert_eq!(league_cell[0].metrics, scored, "{policy:?}: the league scores the pipeline as it logs");
        let page = sim.metrics().remote;
        assert_eq!(scored.track, page.shown, "{policy:?}");
        assert_eq!(scored.underrun_share, Some(page.underrun_share), "{policy:?}");
        assert_eq!(
            (scored.extrapolation_share, scored.mean_lag),
            (page.extrapolation_share, page.mean_lag),
            "{policy:?}"
        );
    }
}

/// An engine's parameter is not the simulation's: the run stays as it is, inputs and all, and in the page's cache
/// that engine alone re-runs; a change of the network re-runs the simulation and every strategy.
#[test]
fn an_engine_parameter_re_runs_that_engine_only() {
    let p = params();
    let mut sim = run(&p).unwrap();
    let mut bank = Bank::default();
    for kind in StrategyKind::ALL {
        bank_run(&sim, &mut bank, kind);
    }
    let all = StrategyKind::ALL.len() as u64;
    assert_eq!(bank.runs_made, all);
    let before = bank_run(&sim, &mut bank, StrategyKind::Mirror);
    let source_before = bank_run(&sim, &mut bank, StrategyKind::Source);
    assert_eq!(bank.runs_made, all, "nothing changed, nothing re-run");

    let mut engines = EngineParams::default();
    engines.mirror.buffer_time_multiplier = 4.0;
    engines.mirror.dynamic_adjustment = false;
    let id = sim.client_inputs().0;
    for kind in StrategyKind::ALL {
        bank_run_with(&sim, &engines, &mut bank, kind);
    }
    assert_eq!(bank.runs_made, all + 1, "only Mirror re-ran");
    assert_ne!(bank_run_with(&sim, &engines, &mut bank, StrategyKind::Mirror), before);
    assert_eq!(bank_run_with(&sim, &engines, &mut bank, StrategyKind::Source), source_before);

    let mut r = p.clone();
    r.network.downlink.jitter = 0.03;
    assert_eq!(reusable(&p, &r), Reuse { remote: false, paths: false, local: false });
    sim.rerun(&r).unwrap();
    assert_ne!(sim.client_inputs().0, id);
    for kind in StrategyKind::ALL {
        bank_run_with(&sim, &engines, &mut bank, kind);
    }
    assert_eq!(bank.runs_made, 2 * all + 1, "new packets: every strategy re-ran");
}

/// Every strategy on every network gives finite numbers and shows the entity nearly all the time; per network
/// and column the cells marked best are exactly those with the lowest value; `latest` has no underrun share.
#[test]
fn the_league_ranks_every_strategy_on_every_network() {
    let table = league(&both(&params()), &Network::all(), &StrategyKind::ALL).unwrap();
    assert_eq!(table.cells.len(), 5 * StrategyKind::ALL.len());
    for cell in &table.cells {
        let m = &cell.metrics;
        assert!(m.track.shown > 0.9, "{} on {}: shown {}", cell.strategy.name(), cell.network, m.track.shown);
        assert!(m.track.rms_error.is_finite() && m.track.added_latency.is_finite() && m.track.jerk.is_finite());
        assert_eq!(m.underrun_share.is_none(), cell.strategy == StrategyKind::Latest);
    }
    for network in &table.networks {
        let cells: Vec<_> = table.cells.iter().filter(|c| &c.network == network).collect();
        for (name, read) in COLUMNS {
            let values: Vec<f64> = cells.iter().filter_map(|c| read(&c.metrics)).collect();
            let min = values.iter().copied().fold(f64::INFINITY, f64::min);
            for c in &cells {
                let is_min = read(&c.metrics).is_some_and(|v| v <= min + 1e-9 * min.abs().max(1.0));
                assert_eq!(c.best.contains(&name), is_min, "{network} {name} {}", c.strategy.name());
            }
            assert!(cells.iter().any(|c| c.best.contains(&name)), "{network}: someone is best in {name}");
        }
    }
    assert_eq!(league(&both(&params()), &Network::all(), &StrategyKind::ALL).unwrap(), table, "deterministic");
}

/// The table's custom column is the strategies run on the page's own run, and an engine's parameter moves only
/// that engine's row: a fixed Mirror buffer of 4 send intervals instead of ~2 adds about 100 ms of latency.
#[test]
fn the_custom_column_is_the_pages_run_and_a_parameter_moves_its_own_row() {
    let p = params();
    let sim = run(&p).unwrap();
    let table = league(&both(&p), &[Network::custom("custom")], &StrategyKind::ALL).unwrap();
    for kind in StrategyKind::ALL {
        let (_, inputs) = sim.client_inputs();
        let made =
            run_strategy(&setup(&p, &EngineParams::default(), None), kind, inputs, sim.truth(), Keep::BOTH).unwrap();
        assert_eq!(Some(&table.cell("custom", kind).unwrap().metrics), made.metrics.as_ref(), "{}", kind.name());
    }
    let mut q = both(&p);
    q.engines.mirror.dynamic_adjustment = false;
    q.engines.mirror.buffer_time_multiplier = 4.0;
    let moved = league(&q, &[Network::custom("custom")], &StrategyKind::ALL).unwrap();
    let latency = |t: &League, k| t.cell("custom", k).unwrap().metrics.track.added_latency;
    let added = latency(&moved, StrategyKind::Mirror) - latency(&table, StrategyKind::Mirror);
    assert!((0.07..0.13).contains(&added), "Mirror's latency moved by {added}");
    for kind in StrategyKind::ALL.into_iter().filter(|k| *k != StrategyKind::Mirror) {
        assert_eq!(moved.cell("custom", kind), table.cell("custom", kind), "{}", kind.name());
    }
}

/// One league column scored at once (`score_all`): with the run's own frames `playground` is read from them, and
/// every cell is what a replay of each strategy gives; frames of another run (fewer frames) are not taken for it.
#[test]
fn a_column_scored_with_the_runs_frames_is_the_column_replayed() {
    let mut p = params();
    NetworkPreset::Mobile.apply(&mut p);
    let sim = run(&p).unwrap();
    let (_, inputs) = sim.client_inputs();
    let s = setup(&p, &EngineParams::default(), None);
    let truth = sim.truth();
    let frames = |frames| Some(OwnRun { frames, metrics: None });
    let replayed = score_all(&s, &StrategyKind::ALL, inputs, truth, None).unwrap();
    let framed = score_all(&s, &StrategyKind::ALL, inputs, truth, frames(&sim.recording().frames)).unwrap();
    assert_eq!(framed, replayed);
    let shorter = run(&SimParams { duration: 4.0, ..p.clone() }).unwrap();
    let other = score_all(&s, &[StrategyKind::Playground], inputs, truth, frames(&shorter.recording().frames));
    assert_eq!(
        other.unwrap()[0],
        replayed[StrategyKind::Playground as usize],
        "the shorter run's frames are not this run's"
    );
}

/// With the run's own metrics too, `playground`'s track is the run's `shown` track, not scored
/// again — and the column is still, bit for bit, every strategy replayed, on every network. Metrics of another run
/// (another render delay: the same frames count, another mean lag) are refused by the mean-lag check and the
/// track is scored from the frames: taking them unchecked, or a run's `shown` track scored otherwise than a
/// strategy's (another guess, other points), turns this red.
#[test]
fn a_column_scored_with_the_runs_metrics_is_the_column_replayed() {
    for preset in NetworkPreset::ALL {
        let mut p = params();
        preset.apply(&mut p);
        let sim = run(&p).unwrap();
        let (_, inputs) = sim.client_inputs();
        let s = setup(&p, &EngineParams::default(), None);
        let truth = sim.truth();
        let replayed = score_all(&s, &StrategyKind::ALL, inputs, truth, None).unwrap();
        let metrics = sim.metrics().remote;
        let own = OwnRun { frames: &sim.recording().frames, metrics: Some(&metrics) };
        let scored = score_all(&s, &StrategyKind::ALL, inputs, truth, Some(own)).unwrap();
        assert_eq!(scored, replayed, "{preset:?}");
        let mut later = p.clone();
        later.remote.clock.render_delay += 0.05;
        let other = run(&later).unwrap().metrics().remote;
        assert_ne!(other.shown, metrics.shown, "{preset:?}: the other run's track differs");
        let own = OwnRun { frames: &sim.recording().frames, metrics: Some(&other) };
        let checked = score_all(&s, &[StrategyKind::Playground], inputs, truth, Some(own)).unwrap();
        assert_eq!(
            checked[0],
            replayed[StrategyKind::Playground as usize],
            "{preset:?}: another run's metrics are not taken for this one"
        );
    }
}
