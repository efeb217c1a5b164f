//! The league table: every strategy on every network — the four seed 004 §5.3 presets and the
//! current (custom) one — scored with the same metrics, the best of each column marked.
//!
//! ```text
//!  for each network:   params with the preset's send rate and links (the strategies keep their own settings)
//!                      └► the remote pipeline once ─► its client inputs (same seed: same losses, same jitter)
//!                            │  and, frame by frame, what it shows: that pipeline *is* `playground`, scored as it runs
//!                            ├► every other strategy replays them (engines::score) ─► StrategyMetrics
//!                            └► a seeds' reference with the pipeline's own buffer and clock (seed 004's at the
//!                               network's own delay) follows what the pipeline played (engines::reference::Following)
//!  per network and column (rmsError, addedLatency, stalls, snaps, jerk, underrunShare): the lowest is best
//! ```
//! The page runs this off the main thread (a Web Worker) and again on every slider change; the CLI prints it
//! (`netcode-lab compare`). Deterministic: scenario + parameters + seed give the same table.
//!
//! A recorded or imported trace is one more network ([`trace_league`], `netcode-lab compare --trace FILE`): its
//! delivery log and its truth (`crate::trace::TraceRun`) take the simulator's place, every strategy replays the
//! log (`playground` with the trace's own settings, seed 004 at its `renderDelay`), and the columns are the same.

use super::own::{played_row, FrameModes};
use super::params::PlaygroundParams;
use crate::engines::reference::Played;
use crate::engines::score::{Scorer, Scoring, StrategyMetrics};
use crate::engines::{EngineParams, Setup, StrategyKind};
use crate::param::ParamError;
use crate::run::{ClientInput, TruthTrack};
use crate::sim::params::SimParams;
use crate::sim::presets::NetworkPreset;
use crate::sim::record::frame;
use crate::trace::{Trace, TraceError, TraceRun};
use serde::Serialize;

/// A network the table has a column group for: a preset, or the parameters as given (`label` names it).
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    pub preset: Option<NetworkPreset>,
    pub label: String,
}

impl Network {
    pub fn preset(preset: NetworkPreset) -> Self {
        Network { preset: Some(preset), label: preset.name().to_string() }
    }

    pub fn custom(label: &str) -> Self {
        Network { preset: None, label: label.to_string() }
    }

    /// `custom` or a preset's name.
    pub fn parse(name: &str) -> Option<Network> {
        match name {
            "custom" => Some(Network::custom("custom")),
            _ => NetworkPreset::from_name(name).map(Network::preset),
        }
    }

    /// The four presets, then the custom network: the page's table.
    pub fn all() -> Vec<Network> {
        NetworkPreset::ALL.into_iter().map(Network::preset).chain([Network::custom("custom")]).collect()
    }
}

/// Reads one column of a cell (`None`: not applicable).
pub type Column = fn(&StrategyMetrics) -> Option<f64>;

/// The metric columns, in table order: name and how to read it.
pub const COLUMNS: [(&str, Column); 6] = [
    ("rmsError", |m| Some(m.track.rms_error)),
    ("addedLatency", |m| Some(m.track.added_latency)),
    ("stalls", |m| Some(m.track.stalls as f64)),
    ("snaps", |m| Some(m.track.snaps as f64)),
    ("jerk", |m| Some(m.track.jerk)),
    ("underrunShare", |m| m.underrun_share),
];

/// One strategy on one network.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Cell {
    pub network: String,
    pub strategy: StrategyKind,
    pub metrics: StrategyMetrics,
    /// The columns in which this cell is the lowest of its network (ties: all of them).
    pub best: Vec<&'static str>,
}

/// The whole table.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct League {
    /// The simulator's seed (`None` for a trace: nothing was drawn).
    pub seed: Option<u64>,
    /// Seconds per network (a trace: from its first frame to its last).
    pub duration: f64,
    pub networks: Vec<String>,
    pub strategies: Vec<StrategyKind>,
    pub columns: Vec<&'static str>,
    pub cells: Vec<Cell>,
}

/// What the strategies are built from on `params` with `engines`' settings (a preset network uses the preset's
/// seed 004 delay).
pub fn setup(params: &SimParams, engines: &EngineParams, preset: Option<NetworkPreset>) -> Setup {
    Setup {
        stream: params.stream(),
        engines: engines.clone(),
        playback: params.remote.clone(),
        article_delay: preset.map_or(params.remote.clock.render_delay, |p| p.article_values().1),
    }
}

/// `params` on `network`: the preset's send rate and links, everything else as given.
pub fn on_network(params: &SimParams, network: &Network) -> SimParams {
    let mut p = params.clone();
    if let Some(preset) = network.preset {
        preset.apply_network(&mut p);
    }
    p
}

/// Every strategy of `strategies` on every network of `networks`.
pub fn league(
    params: &PlaygroundParams,
    networks: &[Network],
    strategies: &[StrategyKind],
) -> Result<League, ParamError> {
    params.validate()?;
    let mut cells = Vec::with_capacity(networks.len() * strategies.len());
    for network in networks {
        let p = on_network(&params.sim, network);
        p.validate().map_err(|e| ParamError::new(e.field, format!("on {}: {}", network.label, e.message)))?;
        let truth = p.truth();
        // The pipeline that logs the inputs is the `playground` strategy itself: score it as it runs.
        let modes = FrameModes::default();
        let frames = (p.duration * p.fps).ceil() as usize + 2;
        let mut own =
            strategies.contains(&StrategyKind::Playground).then(|| Scorer::new(StrategyKind::Playground, frames));
        let setup = setup(&p, &params.engines, network.preset);
        // A reference whose buffer and clock are the pipeline's follows what it played (`engines::reference`).
        let mut played = strategies.iter().any(|&k| setup.follows_run(k)).then(|| Vec::with_capacity(frames));
        let inputs = crate::sim::deliveries_with(&p, |tick, row| {
            if let Some(scorer) = &mut own {
                scorer.push(tick.dt, row[frame::SERVER_NOW], &modes.shown(row));
            }
            if let Some(played) = &mut played {
                played.push(played_row(row));
            }
        })?;
        let own = own.map(|scorer| scorer.finish(&truth));
        let log = Log { label: &network.label, inputs: &inputs, truth: &truth, setup: &setup };
        cells.extend(cells_of(&log, strategies, own, played.as_deref())?);
    }
    Ok(League {
        seed: Some(params.sim.seed),
        duration: params.sim.duration,
        networks: networks.iter().map(|n| n.label.clone()).collect(),
        strategies: strategies.to_vec(),
        columns: COLUMNS.iter().map(|(name, _)| *name).collect(),
        cells,
    })
}

/// One network's log: its client inputs, the truth, what the strategies are built from.
struct Log<'a> {
    label: &'a str,
    inputs: &'a [ClientInput],
    truth: &'a TruthTrack,
    setup: &'a Setup,
}

/// Every strategy of `strategies` scored on `log`, the best of each column marked: `own`, when given, is the
/// `playground` cell already scored as it ran; `played`, when given, what that pipeline played, which a seeds'
/// reference with its buffer and clock follows.
fn cells_of(
    log: &Log,
    strategies: &[StrategyKind],
    mut own: Option<StrategyMetrics>,
    played: Option<&[Played]>,
) -> Result<Vec<Cell>, ParamError> {
    let mut cells = Vec::with_capacity(strategies.len());
    let mut scoring = Scoring::new(log.inputs, log.truth);
    for &kind in strategies {
        let scored = if kind == StrategyKind::Playground { own.take() } else { None };
        let metrics = match (scored, played) {
            (Some(metrics), _) => metrics,
            (None, Some(played)) if log.setup.follows_run(kind) => scoring.score_following(log.setup, kind, played)?,
            (None, _) => scoring.score(log.setup, kind)?,
        };
        cells.push(Cell { network: log.label.to_string(), strategy: kind, metrics, best: Vec::new() });
    }
    mark_best(&mut cells);
    Ok(cells)
}

/// Every strategy of `strategies` on the snapshot trace `trace`, its one network named `label`, the engines built
/// with `params.engines` (the simulator's part of `params` is not used: the trace is the network).
pub fn trace_league(
    trace: &Trace,
    label: &str,
    params: &PlaygroundParams,
    strategies: &[StrategyKind],
) -> Result<League, TraceError> {
    params.engines.validate().map_err(|e| TraceError::new(format!("engines.{}", e.field), e.message))?;
    let run = TraceRun::of(trace, &params.engines, "compare --trace")?;
    let log = Log { label, inputs: &run.inputs, truth: &run.truth, setup: &run.setup };
    let cells = cells_of(&log, strategies, None, None).map_err(TraceError::param)?;
    let duration = match (trace.sample_at.first(), trace.sample_at.last()) {
        (Some(first), Some(last)) => last - first,
        _ => 0.0,
    };
    Ok(League {
        seed: None,
        duration,
        networks: vec![label.to_string()],
        strategies: strategies.to_vec(),
        columns: COLUMNS.iter().map(|(name, _)| *name).collect(),
        cells,
    })
}

/// Marks, per column, every cell whose value is the lowest (within a relative 1e-9) among those that have one. A
/// strategy that showed nothing at all (a seeds' clock without RTT samples, on a trace that has none) has no
/// value in any column: its zeros measure nothing.
fn mark_best(cells: &mut [Cell]) {
    for (name, read) in COLUMNS {
        let values: Vec<Option<f64>> =
            cells.iter().map(|c| read(&c.metrics).filter(|v| v.is_finite() && c.metrics.track.shown > 0.0)).collect();
        let Some(min) = values.iter().flatten().copied().reduce(f64::min) else { continue };
        for (cell, value) in cells.iter_mut().zip(&values) {
            if value.is_some_and(|v| v <= min + 1e-9 * min.abs().max(1.0)) {
                cell.best.push(name);
            }
        }
    }
}

impl League {
    /// The cell of `strategy` on `network`.
    pub fn cell(&self, network: &str, strategy: StrategyKind) -> Option<&Cell> {
        self.cells.iter().find(|c| c.network == network && c.strategy == strategy)
    }

    /// A plain-text table per network; `*` marks the best of a column.
    pub fn to_table(&self) -> String {
        let mut out = match self.seed {
            Some(seed) => {
                format!("seed {seed}, {} s per network; lower is better, * = best of the column\n", self.duration)
            }
            None => {
                format!("a trace, {} s; lower is better, * = best of the column\n", (self.duration * 1e3).round() / 1e3)
            }
        };
        let heads = ["strategy", "RMS err", "latency ms", "stalls", "snaps", "jerk u/s³", "underrun"];
        for network in &self.networks {
            out.push_str(&format!("\n{network}\n"));
            out.push_str(&format!(
                "{:<11}{:>10}{:>12}{:>8}{:>7}{:>12}{:>10}\n",
                heads[0], heads[1], heads[2], heads[3], heads[4], heads[5], heads[6]
            ));
            for cell in self.cells.iter().filter(|c| &c.network == network) {
                let m = &cell.metrics;
                let star = |name: &str| if cell.best.contains(&name) { "*" } else { " " };
                let underrun = m.underrun_share.map_or("—".to_string(), |u| format!("{:.1}%", u * 100.0));
                out.push_str(&format!(
                    "{:<11}{:>9.2}{}{:>11.0}{}{:>7}{}{:>6}{}{:>11.0}{}{:>9}{}\n",
                    cell.strategy.name(),
                    m.track.rms_error,
                    star("rmsError"),
                    m.track.added_latency * 1000.0,
                    star("addedLatency"),
                    m.track.stalls,
                    star("stalls"),
                    m.track.snaps,
                    star("snaps"),
                    m.track.jerk,
                    star("jerk"),
                    underrun,
                    star("underrunShare"),
                ));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn networks_parse_by_name() {
        assert_eq!(Network::parse("mobile").unwrap().preset, Some(NetworkPreset::Mobile));
        assert_eq!(Network::parse("custom").unwrap().preset, None);
        assert!(Network::parse("wifi").is_none());
        let labels: Vec<String> = Network::all().into_iter().map(|n| n.label).collect();
        assert_eq!(labels, ["lan", "sameRegion", "crossRegion", "mobile", "custom"]);
    }

    #[test]
    fn the_seed004_reference_takes_the_presets_delay_and_the_page_delay_elsewhere() {
        let mut p = SimParams::default();
        p.remote.clock.render_delay = 0.2;
        let engines = EngineParams::default();
        assert_eq!(setup(&p, &engines, Some(NetworkPreset::Mobile)).article_delay, 0.15);
        assert_eq!(setup(&p, &engines, None).article_delay, 0.2);
        let mobile = on_network(&p, &Network::preset(NetworkPreset::Mobile));
        assert_eq!((mobile.scenario.send_rate, mobile.remote.clock.render_delay), (15.0, 0.2));
    }
}
