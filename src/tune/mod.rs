//! Tune: for one network — a scenario or a recorded or imported trace — and for every strategy that has a setting
//! to tune, the smallest value of that setting, in the engine's own terms, that keeps the share of frames run dry
//! (`underrunShare`) at or below a target; with the latency it costs and its RMS error, and the next step down,
//! over the target, so that the minimality is visible.
//!
//! ```text
//!   a knob: one setting of one strategy, a grid of values in its own unit   v₀ < v₁ < … < vₙ
//!   probe(v): that strategy with v, a full run of the network through compare::league (or trace_league):
//!             the very numbers `netcode-lab compare --params FILE` prints for the row's parameters
//!   vₙ over the target?  ──► not met: the best reached, said so (never a made-up value)
//!   v₀ at or under it?   ──► v₀, nothing lower to show
//!   else bisect: the first vᵢ at or under the target, with vᵢ₋₁ over it (a deeper buffer runs dry less often:
//!   the search relies on it, and the next step down shows where it held); a value at which the strategy shows
//!   the entity on fewer than half the frames does not count (nothing shown is never "dry")
//! ```
//!
//! The knobs are the settings a developer of each engine turns (the engines' own names): Mirror's
//! `bufferTimeMultiplier` with `dynamicAdjustment` off, and with it on the `dynamicAdjustmentTolerance` its
//! adjustment adds to the jitter it measures (on, Mirror overwrites `bufferTimeMultiplier` after every snapshot:
//! `engines::mirror`); NGO 2.x's `InterpolationBufferTickOffset` (whole ticks) and NGO 1.x's `ServerBufferSec`;
//! lightyear's `send_interval_ratio` (its delay is the larger of that many send intervals and `min_delay`);
//! FishNet's `interpolation` (goals queued before it moves, whole ticks); NetEQ's `quantile` (its target delay
//! covers that share of the packets' relative delays); Source's `cl_interp_ratio` at the stream's update rate
//! (`cl_updaterate` = the send rate, `cl_interp` 0, so that the lerp is `cl_interp_ratio / cl_updaterate`); geckos.io's
//! `interpolationBuffer` (set explicitly: `withServerFps` off, where the README's client derives three frames from
//! the server's rate); and the page's own pipeline's render delay (seed 000 §4.3.2, seed 004 §5.3), on a
//! simulated network only: a trace replays its pipeline with the trace's own settings.
//!
//! A run too short to see the target is refused: an underrun share of `target` is judged on at least
//! `10 / target` frames (ten dry frames at the target).

use crate::compare::league::{league, trace_league, Network};
use crate::compare::PlaygroundParams;
use crate::engines::score::StrategyMetrics;
use crate::engines::StrategyKind;
use crate::param::ParamError;
use crate::trace::{Trace, TraceError};
use serde::Serialize;
use serde_json::{json, Map, Value};

/// The targets a tune accepts (fractions of frames).
pub const TARGETS: std::ops::RangeInclusive<f64> = 0.001..=0.5;
/// The default target: one frame in a hundred runs dry.
pub const DEFAULT_TARGET: f64 = 0.01;
/// The share of frames a strategy must show the entity on for a value to count.
pub const MIN_SHOWN: f64 = 0.5;
/// Dry frames at the target share a run needs at least, to judge it.
const FRAMES_PER_TARGET: f64 = 10.0;

/// Where the strategies run: a simulated network (the parameters with their seed; `network` a preset or the
/// parameters' own), or a recorded or imported snapshot trace.
pub enum Subject<'a> {
    Scenario { params: &'a PlaygroundParams, network: &'a Network },
    Trace { trace: &'a Trace, label: &'a str, params: &'a PlaygroundParams },
}

/// A tune refused: the field and why.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneError {
    pub field: String,
    pub message: String,
}

impl std::fmt::Display for TuneError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl From<ParamError> for TuneError {
    fn from(e: ParamError) -> Self {
        TuneError { field: e.field, message: e.message }
    }
}

impl From<TraceError> for TuneError {
    fn from(e: TraceError) -> Self {
        TuneError { field: e.field, message: e.message }
    }
}

/// One setting of one strategy: its grid and how a value is written into the parameters.
struct Knob {
    strategy: StrategyKind,
    /// The setting's name in the engine's own terms (its key in the parameters).
    name: &'static str,
    /// Ascending values, in the setting's own unit.
    values: fn(&Context) -> Vec<f64>,
    /// Writes `value` (and the settings it goes with) into `params`.
    set: fn(&mut PlaygroundParams, &Context, f64),
    /// The settings the row shows beside the tuned one.
    fixed: fn(&Context) -> Map<String, Value>,
    /// Only on a simulated network (a trace plays its pipeline with its own settings).
    simulated_only: bool,
    /// A whole number (written as one in the settings).
    whole: bool,
}

/// What a knob's grid depends on: the stream's send rate.
struct Context {
    send_rate: f64,
}

/// `from`, `from + step`, … up to `to` (within rounding).
fn grid(from: f64, to: f64, step: f64) -> Vec<f64> {
    let n = ((to - from) / step).round() as usize;
    (0..=n).map(|i| ((from + i as f64 * step) * 1e9).round() / 1e9).collect()
}

fn map(entries: &[(&str, Value)]) -> Map<String, Value> {
    entries.iter().map(|(k, v)| (k.to_string(), v.clone())).collect()
}

/// Source's `cl_updaterate` for a stream of `send_rate` snapshots a second (within its range 10–128).
fn updaterate(c: &Context) -> f64 {
    c.send_rate.round().clamp(10.0, 128.0)
}

const KNOBS: [Knob; 10] = [
    Knob {
        strategy: StrategyKind::Mirror,
        name: "bufferTimeMultiplier",
        values: |_| grid(0.5, 10.0, 0.25),
        set: |p, _, v| {
            p.engines.mirror.dynamic_adjustment = false;
            p.engines.mirror.buffer_time_multiplier = v;
        },
        fixed: |_| map(&[("dynamicAdjustment", json!(false))]),
        simulated_only: false,
        whole: false,
    },
    Knob {
        strategy: StrategyKind::Mirror,
        name: "dynamicAdjustmentTolerance",
        values: |_| grid(0.0, 10.0, 0.25),
        set: |p, _, v| {
            p.engines.mirror.dynamic_adjustment = true;
            p.engines.mirror.dynamic_adjustment_tolerance = v;
        },
        fixed: |_| map(&[("dynamicAdjustment", json!(true))]),
        simulated_only: false,
        whole: false,
    },
    Knob {
        strategy: StrategyKind::Ngo,
        name: "InterpolationBufferTickOffset",
        values: |_| grid(0.0, 30.0, 1.0),
        set: |p, _, v| p.engines.ngo.interpolation_buffer_tick_offset = v as usize,
        fixed: |_| Map::new(),
        simulated_only: false,
        whole: true,
    },
    Knob {
        strategy: StrategyKind::Ngo1x,
        name: "ServerBufferSec",
        values: |_| grid(0.0, 1.0, 0.01),
        set: |p, _, v| p.engines.ngo1x.server_buffer_sec = v,
        fixed: |_| Map::new(),
        simulated_only: false,
        whole: false,
    },
    Knob {
        strategy: StrategyKind::Source,
        name: "cl_interp_ratio",
        values: |_| grid(1.0, 5.0, 0.25),
        set: |p, c, v| {
            p.engines.source.cl_interp_ratio = v;
            p.engines.source.cl_updaterate = updaterate(c);
            p.engines.source.cl_interp = 0.0;
        },
        fixed: |c| map(&[("cl_updaterate", json!(updaterate(c))), ("cl_interp", json!(0.0))]),
        simulated_only: false,
        whole: false,
    },
    Knob {
        strategy: StrategyKind::Geckos,
        name: "interpolationBuffer",
        values: |_| grid(0.0, 1000.0, 5.0),
        set: |p, _, v| {
            p.engines.geckos.with_server_fps = false;
            p.engines.geckos.interpolation_buffer = v;
        },
        fixed: |_| map(&[("withServerFps", json!(false))]),
        simulated_only: false,
        whole: false,
    },
    Knob {
        strategy: StrategyKind::Lightyear,
        name: "send_interval_ratio",
        values: |_| grid(0.0, 10.0, 0.1),
        set: |p, _, v| p.engines.lightyear.send_interval_ratio = v,
        fixed: |_| Map::new(),
        simulated_only: false,
        whole: false,
    },
    Knob {
        strategy: StrategyKind::Fishnet,
        name: "interpolation",
        values: |_| grid(1.0, 30.0, 1.0),
        set: |p, _, v| p.engines.fishnet.interpolation = v as u32,
        fixed: |_| Map::new(),
        simulated_only: false,
        whole: true,
    },
    Knob {
        strategy: StrategyKind::Neteq,
        name: "quantile",
        values: |_| grid(0.5, 0.995, 0.005),
        set: |p, _, v| p.engines.neteq.quantile = v,
        fixed: |_| Map::new(),
        simulated_only: false,
        whole: false,
    },
    Knob {
        strategy: StrategyKind::Playground,
        name: "renderDelay",
        values: |_| grid(0.0, 1.0, 0.005),
        set: |p, _, v| p.sim.remote.clock.render_delay = v,
        fixed: |_| Map::new(),
        simulated_only: true,
        whole: false,
    },
];

/// The strategies a tune has a knob for, in table order.
pub fn tunable() -> Vec<StrategyKind> {
    let mut kinds: Vec<StrategyKind> = KNOBS.iter().map(|k| k.strategy).collect();
    kinds.dedup();
    kinds
}

/// One probe of a knob: the value, what the full run measured.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Step {
    pub settings: Map<String, Value>,
    pub underrun: f64,
    /// Share of frames showing the entity (under [`MIN_SHOWN`]: it shows too little to count, whatever its underrun).
    pub shown: f64,
}

/// One knob's answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Row {
    pub strategy: StrategyKind,
    /// The setting tuned (its name in the engine's own terms).
    pub setting: &'static str,
    /// The tuned setting and those it goes with, under the engine's own names.
    pub settings: Map<String, Value>,
    /// Whether the underrun share is at or under the target (`false`: no value of the grid gets there; the row
    /// is the best reached).
    pub met: bool,
    pub underrun: f64,
    pub latency_ms: f64,
    pub rms: f64,
    /// The grid's next value down, over the target (`None` when the row is the grid's lowest, or not met).
    pub next_lower: Option<Step>,
    /// Full runs made to find it.
    pub runs: usize,
    /// The parameters of the row's run: `compare` with them on the same network (and seed) reproduces its
    /// underrun share.
    pub params: PlaygroundParams,
}

/// A tune: the target, the network, a row per knob (knob order), and the knobs it could not turn here.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Tune {
    pub target: f64,
    pub network: String,
    pub rows: Vec<Row>,
    /// `{strategy, setting, reason}` of each knob left out.
    pub skipped: Vec<Value>,
}

/// Tunes every knob of `strategies` (those without one are left out) on `subject` for `target`.
pub fn tune(subject: &Subject, target: f64, strategies: &[StrategyKind]) -> Result<Tune, TuneError> {
    if !(target.is_finite() && TARGETS.contains(&target)) {
        return Err(TuneError {
            field: "target".into(),
            message: format!("{target} is outside {}–{} (a share of frames)", TARGETS.start(), TARGETS.end()),
        });
    }
    let (base, network, frames, send_rate) = match subject {
        Subject::Scenario { params, network } => {
            params.validate()?;
            let p = crate::compare::league::on_network(&params.sim, network);
            (*params, network.label.clone(), p.duration * p.fps, 1.0 / p.stream().send_interval)
        }
        Subject::Trace { trace, label, params } => {
            let interval = trace.params.send_interval.unwrap_or(f64::NAN);
            ((*params), label.to_string(), trace.sample_at.len() as f64, 1.0 / interval)
        }
    };
    let needed = (FRAMES_PER_TARGET / target).ceil();
    if frames < needed {
        let what = if matches!(subject, Subject::Trace { .. }) { "trace" } else { "duration" };
        return Err(TuneError {
            field: what.into(),
            message: format!(
                "{frames:.0} frames are too few to judge an underrun share of {}: at least {needed:.0} are needed \
                 ({FRAMES_PER_TARGET:.0} dry frames at the target; {:.1} s at 60 frames a second)",
                percent(target),
                needed / 60.0
            ),
        });
    }
    if !KNOBS.iter().any(|k| strategies.contains(&k.strategy)) {
        let names: Vec<&str> = strategies.iter().map(|k| k.name()).collect();
        let tunable: Vec<&str> = tunable().iter().map(|k| k.name()).collect();
        return Err(TuneError {
            field: "strategies".into(),
            message: format!("{} has no setting to tune (tunable: {})", names.join(", "), tunable.join(", ")),
        });
    }
    let context = Context { send_rate };
    let mut rows = Vec::new();
    let mut skipped = Vec::new();
    for knob in KNOBS.iter().filter(|k| strategies.contains(&k.strategy)) {
        if knob.simulated_only && matches!(subject, Subject::Trace { .. }) {
            skipped.push(json!({"strategy": knob.strategy, "setting": knob.name,
                "reason": "a trace replays this pipeline with the trace's own settings"}));
            continue;
        }
        rows.push(tune_knob(subject, base, knob, &context, target)?);
    }
    Ok(Tune { target, network, rows, skipped })
}

fn percent(share: f64) -> String {
    format!("{} %", (share * 10000.0).round() / 100.0)
}

/// The parameters of `knob` at `value` on top of `base`.
fn with_value(base: &PlaygroundParams, knob: &Knob, context: &Context, value: f64) -> PlaygroundParams {
    let mut p = base.clone();
    (knob.set)(&mut p, context, value);
    p
}

/// A full run of `kind` on `subject` with `params`: its cell's metrics.
fn run(subject: &Subject, params: &PlaygroundParams, kind: StrategyKind) -> Result<StrategyMetrics, TuneError> {
    let league = match subject {
        Subject::Scenario { network, .. } => league(params, std::slice::from_ref(*network), &[kind])?,
        Subject::Trace { trace, label, .. } => trace_league(trace, label, params, &[kind])?,
    };
    Ok(league.cells.into_iter().next().expect("one strategy, one network").metrics)
}

fn tune_knob(
    subject: &Subject,
    base: &PlaygroundParams,
    knob: &Knob,
    context: &Context,
    target: f64,
) -> Result<Row, TuneError> {
    let values = (knob.values)(context);
    let mut probed: Vec<Option<StrategyMetrics>> = vec![None; values.len()];
    let mut runs = 0;
    let mut probe = |i: usize| -> Result<StrategyMetrics, TuneError> {
        if let Some(m) = &probed[i] {
            return Ok(m.clone());
        }
        let m = run(subject, &with_value(base, knob, context, values[i]), knob.strategy)?;
        runs += 1;
        probed[i] = Some(m.clone());
        Ok(m)
    };
    let underrun = |m: &StrategyMetrics| m.underrun_share.unwrap_or(0.0);
    // A value meets the target when the strategy shows the entity (on at least half the frames: a geckos.io buffer
    // of 0 ms, always outside its vault, shows nothing and so never "runs dry") and runs dry on at most `target`.
    let meets = |m: &StrategyMetrics| m.track.shown >= MIN_SHOWN && underrun(m) <= target;
    let top = values.len() - 1;
    let (found, met) = if !meets(&probe(top)?) {
        (top, false)
    } else if meets(&probe(0)?) {
        (0, true)
    } else {
        // probe(lo) does not meet the target, probe(hi) does.
        let (mut lo, mut hi) = (0, top);
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if meets(&probe(mid)?) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        (hi, true)
    };
    let metrics = probe(found)?;
    let settings_at = |v: f64| {
        let mut s = (knob.fixed)(context);
        s.insert(knob.name.to_string(), if knob.whole { json!(v as u64) } else { json!(v) });
        s
    };
    let next_lower = if met && found > 0 {
        let m = probe(found - 1)?;
        Some(Step { settings: settings_at(values[found - 1]), underrun: underrun(&m), shown: m.track.shown })
    } else {
        None
    };
    Ok(Row {
        strategy: knob.strategy,
        setting: knob.name,
        settings: settings_at(values[found]),
        met,
        underrun: underrun(&metrics),
        latency_ms: metrics.track.added_latency * 1000.0,
        rms: metrics.track.rms_error,
        next_lower,
        runs,
        params: with_value(base, knob, context, values[found]),
    })
}

impl Tune {
    /// The rows for people, sorted by the latency they cost.
    pub fn to_table(&self) -> String {
        let mut rows: Vec<&Row> = self.rows.iter().collect();
        rows.sort_by(|a, b| a.latency_ms.total_cmp(&b.latency_ms));
        let mut out = format!(
            "{}: the smallest setting per engine that runs dry on at most {} of frames (sorted by latency)\n",
            self.network,
            percent(self.target)
        );
        out += &format!(
            "{:<13} {:<56} {:>8} {:>11} {:>8}  next step down\n",
            "strategy", "settings", "underrun", "latency ms", "RMS err"
        );
        for r in rows {
            let settings: Vec<String> = r.settings.iter().map(|(k, v)| format!("{k}={v}")).collect();
            let lower = match &r.next_lower {
                Some(s) if s.shown < MIN_SHOWN => format!("shows the entity on {} of frames", percent(s.shown)),
                Some(s) => format!("{} over", percent(s.underrun)),
                None if r.met => "(the lowest)".into(),
                None => "NOT MET: the best reached".into(),
            };
            out += &format!(
                "{:<13} {:<56} {:>8} {:>11.0} {:>8.2}  {}\n",
                r.strategy.name(),
                settings.join(" "),
                percent(r.underrun),
                r.latency_ms,
                r.rms,
                lower
            );
        }
        for s in &self.skipped {
            out += &format!("{} {}: {}\n", s["strategy"].as_str().unwrap_or(""), s["setting"], s["reason"]);
        }
        out
    }
}

#[cfg(test)]
mod tests;
