//! A network model fitted to a recording: from what arrived and when, the one-way delay's floor and quantiles, a
//! right-skewed jitter distribution, bursty loss, reordering, duplication, the send interval and the clock skew —
//! so the simulator can generate more of the same network (`model.rs`: the fit as the simulator's downlink).
//!
//! The input is plain observations, one per copy that arrived: `(tick, serverTime, arrival)` — the server's tick
//! and clock when it was sent, the client's clock when it arrived — and the RTT samples, in seconds. Nothing here
//! knows a file format; `crate::trace` turns a `netcode-lab/trace@1` trace into observations.
//!
//! # The estimators
//!
//! The arrivals are taken in arrival order (ties: the order given). A copy whose tick already arrived is a
//! **duplicate**; every other copy is its tick's **first copy**.
//!
//! - `duplicate.rate` — duplicates / arrivals: the share of arrivals whose tick had already arrived.
//! - `reorder.rate` — first copies whose tick is below the highest tick arrived before them / first copies: the
//!   share of packets that arrived after a packet sent later (seed 002's out-of-order snapshots).
//! - **the tick stride** — the first copies' ticks, sorted: the most frequent difference between neighbours
//!   (ties: the smaller). A lost packet turns one difference into a multiple of the stride, so the most frequent
//!   difference is the stride whenever more packets come through than a burst swallows.
//! - `loss.rate` — a difference `d` between neighbouring ticks hides `round(d / stride) − 1` missing sends (none
//!   when that is below 1); missing / (missing + first copies): the share of the send slots between the first and
//!   the last tick that never arrived. Nothing before the first or after the last tick is counted.
//! - `loss.meanBurst` — missing / the number of differences that hide at least one: the mean length of a run of
//!   consecutive missing sends, in packets; `null` when nothing is missing.
//! - `sendInterval` — stride × the median, over neighbouring first copies, of Δserver time / Δtick (the server
//!   time per tick); `null` when that median is not above 0 (server times that do not advance with the ticks).
//! - **the delay** of a copy: `arrival − serverTime`. The two clocks differ by an unknown constant offset, so only
//!   the delay's spread is known; its floor stands for the offset plus the path's fixed latency.
//! - `clockSkewPpm` — the slope of the lower envelope of the delay over server time, in millionths: the span of
//!   server times is cut into K = min(60, ⌊span / 1 s⌋) equal windows; each window that holds an arrival gives one
//!   point, (its centre, its smallest delay); the slope is the Theil–Sen estimate, the median of the slopes
//!   between every two points (robust to windows whose every packet was late). A client clock running `1 + s` as
//!   fast as the server's makes delays grow by `s` per second: s = 100 ppm is 6 ms a minute. `null` when fewer
//!   than 3 windows hold an arrival (a trace shorter than 3 s): then no skew is removed.
//! - the delays with the skew removed: `delay − slope · (serverTime − first serverTime)`, the delay each copy would
//!   have had on a clock running at the server's rate from the trace's start.
//! - `latency.base` — the smallest of those delays: the trace's floor (with no skew, `min(arrival − serverTime)`).
//! - `latency.p50`, `p95`, `p99` — `base` + the quantile of the delays above `base` (every copy, duplicates and
//!   held-back packets included): the sorted excesses `x[0] ≤ … ≤ x[n−1]` read at `h = (n − 1) · p` with linear
//!   interpolation, `x[⌊h⌋] + (h − ⌊h⌋) · (x[⌊h⌋ + 1] − x[⌊h⌋])`.
//! - `jitter` — a shifted log-normal, `delay = base + exp(mu + sigma · z)` with z a standard normal, fitted to the
//!   excess's median and 95th percentile: `median = exp(mu) = p50 − base`, `sigma = ln((p95 − base) / (p50 −
//!   base)) / 1.6449` (Φ⁻¹(0.95) = 1.6449), written `{"model": "logNormal", "median", "sigma"}`. `sigma` is 0
//!   when the p95 excess is not above the median; `median` and `sigma` are 0 when half the copies sit at the floor.
//!
//! Every number is finite: a fit needs at least two distinct ticks (fewer is an error naming `snapshots`), and
//! the inputs must be finite, within ±1e12 s, RTTs not negative (an error names the observation). A trace of two
//! snapshots fits: nothing lost, one send interval, no skew. The RTT samples play no part in the fit above; they
//! give the fitted model its latency when the floor cannot be one (`model.rs`).

pub mod model;

pub use model::{FitFigure, FittedNetwork, Histogram};

use serde::Serialize;
use std::collections::{BTreeMap, HashSet};
use std::fmt;

/// Φ⁻¹(0.95): a standard normal's 95th percentile.
pub const Z95: f64 = 1.6448536269514722;
/// The largest |time| accepted, seconds (as for a snapshot's server time).
pub const MAX_TIME: f64 = crate::snapshot::MAX_SERVER_TIME;
/// The most windows the clock skew's lower envelope is cut into.
pub const SKEW_WINDOWS: usize = 60;
/// The shortest window of the lower envelope, seconds of server time.
pub const SKEW_WINDOW: f64 = 1.0;

/// One copy that arrived: the tick and server time it was sent at, the local time it arrived.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Observation {
    pub tick: u64,
    pub server_time: f64,
    pub arrival: f64,
}

/// A refusal: the input `field` (`snapshots[3].arrival`, `snapshots`) and what is wrong with it.
#[derive(Clone, Debug, PartialEq)]
pub struct FitError {
    pub field: String,
    pub message: String,
}

impl FitError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        FitError { field: field.into(), message: message.into() }
    }
}

impl fmt::Display for FitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for FitError {}

/// The fitted network, serialised as the module doc writes it (camelCase, seconds, fractions).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Fit {
    pub latency: Latency,
    pub jitter: Jitter,
    pub loss: Loss,
    pub reorder: Rate,
    pub duplicate: Rate,
    pub send_interval: Option<f64>,
    pub clock_skew_ppm: Option<f64>,
    /// What the fit learnt about the stream beside the model: not part of the JSON.
    #[serde(skip)]
    pub stream: FittedStream,
}

/// The one-way delay: its floor and quantiles, seconds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Latency {
    pub base: f64,
    pub p50: f64,
    pub p95: f64,
    pub p99: f64,
}

/// The distribution of the delay above `base`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(tag = "model", rename_all = "camelCase")]
pub enum Jitter {
    /// `base + median · exp(sigma · z)`: median in seconds, sigma the spread of its log.
    LogNormal { median: f64, sigma: f64 },
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Loss {
    pub rate: f64,
    pub mean_burst: Option<f64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Rate {
    pub rate: f64,
}

/// The stream's facts found on the way.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FittedStream {
    /// Ticks between two sends.
    pub tick_stride: u64,
    /// Send slots from the first tick to the last: first copies + missing.
    pub sends: u64,
    /// Server seconds from the first arrival's send to the last's.
    pub span: f64,
    /// The smallest RTT sample, if any.
    pub min_rtt: Option<f64>,
}

/// The fit and what its figure draws: the excess delays (sorted) and the loss bursts' lengths.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    pub fit: Fit,
    /// Every copy's delay above `base` (the skew removed), ascending.
    pub excess: Vec<f64>,
    /// The length of every run of consecutive missing sends, in tick order.
    pub bursts: Vec<u64>,
}

/// Fits the model to `observations` (one per copy that arrived, any order) and `rtt` samples (seconds).
pub fn fit(observations: &[Observation], rtt: &[f64]) -> Result<Fit, FitError> {
    analyse(observations, rtt).map(|a| a.fit)
}

/// [`fit`], keeping the excess delays and the loss bursts.
pub fn analyse(observations: &[Observation], rtt: &[f64]) -> Result<Analysis, FitError> {
    check(observations, rtt)?;
    let mut order: Vec<usize> = (0..observations.len()).collect();
    order.sort_by(|&a, &b| observations[a].arrival.total_cmp(&observations[b].arrival));

    // Arrival order: duplicates, reordering, the first copies.
    let mut seen = HashSet::with_capacity(observations.len());
    let (mut duplicates, mut reordered, mut highest) = (0u64, 0u64, None::<u64>);
    let mut first: Vec<Observation> = Vec::with_capacity(observations.len());
    for &i in &order {
        let o = observations[i];
        if !seen.insert(o.tick) {
            duplicates += 1;
            continue;
        }
        if highest.is_some_and(|h| o.tick < h) {
            reordered += 1;
        }
        highest = highest.max(Some(o.tick));
        first.push(o);
    }
    if first.len() < 2 {
        return Err(FitError::new(
            "snapshots",
            format!(
                "a fit needs snapshots of at least two distinct ticks; this trace has {} snapshot{} of {} tick{}",
                observations.len(),
                plural(observations.len()),
                first.len(),
                plural(first.len())
            ),
        ));
    }

    // Tick order: stride, loss, bursts, send interval.
    first.sort_by_key(|o| o.tick);
    let differences: Vec<u64> = first.windows(2).map(|w| w[1].tick - w[0].tick).collect();
    let stride = mode(&differences);
    let mut bursts = Vec::new();
    for &d in &differences {
        let missing = (d as f64 / stride as f64).round() - 1.0;
        if missing >= 1.0 {
            bursts.push(missing.min(u64::MAX as f64) as u64);
        }
    }
    let missing = bursts.iter().fold(0.0, |sum, &b| sum + b as f64);
    let received = first.len() as f64;
    let loss = Loss {
        rate: missing / (missing + received),
        mean_burst: (!bursts.is_empty()).then(|| missing / bursts.len() as f64),
    };
    let mut per_tick: Vec<f64> =
        first.windows(2).map(|w| (w[1].server_time - w[0].server_time) / (w[1].tick - w[0].tick) as f64).collect();
    let per_tick = median(&mut per_tick);
    let send_interval = (per_tick > 0.0).then_some(per_tick * stride as f64).filter(|s| s.is_finite());

    // Delays: the skew's envelope, then the floor and the quantiles.
    let (start, end) = observations
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), o| (lo.min(o.server_time), hi.max(o.server_time)));
    let span = end - start;
    let delay = |o: &Observation| o.arrival - o.server_time;
    let slope = skew_slope(observations, start, span);
    let mut excess: Vec<f64> =
        observations.iter().map(|o| delay(o) - slope.unwrap_or(0.0) * (o.server_time - start)).collect();
    let base = excess.iter().copied().fold(f64::INFINITY, f64::min);
    for e in &mut excess {
        *e -= base;
    }
    excess.sort_by(f64::total_cmp);
    let (q50, q95, q99) = (quantile(&excess, 0.5), quantile(&excess, 0.95), quantile(&excess, 0.99));
    let jitter = if q50 > 0.0 {
        Jitter::LogNormal { median: q50, sigma: if q95 > q50 { (q95 / q50).ln() / Z95 } else { 0.0 } }
    } else {
        Jitter::LogNormal { median: 0.0, sigma: 0.0 }
    };

    let fit = Fit {
        latency: Latency { base, p50: base + q50, p95: base + q95, p99: base + q99 },
        jitter,
        loss,
        reorder: Rate { rate: reordered as f64 / received },
        duplicate: Rate { rate: duplicates as f64 / observations.len() as f64 },
        send_interval,
        clock_skew_ppm: slope.map(|s| s * 1e6),
        stream: FittedStream {
            tick_stride: stride,
            sends: (received + missing).min(u64::MAX as f64) as u64,
            span,
            min_rtt: rtt.iter().copied().reduce(f64::min),
        },
    };
    Ok(Analysis { fit, excess, bursts })
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Every time finite, every RTT finite and not negative; the error names the first that is not.
fn check(observations: &[Observation], rtt: &[f64]) -> Result<(), FitError> {
    for (i, o) in observations.iter().enumerate() {
        for (name, v) in [("serverTime", o.server_time), ("arrival", o.arrival)] {
            if !(-MAX_TIME..=MAX_TIME).contains(&v) {
                return Err(FitError::new(
                    format!("snapshots[{i}].{name}"),
                    format!("{v} is not a finite number within ±1e12 s"),
                ));
            }
        }
    }
    for (i, &r) in rtt.iter().enumerate() {
        if !(0.0..=MAX_TIME).contains(&r) {
            return Err(FitError::new(format!("rtt[{i}].rtt"), format!("{r} is not a finite number ≥ 0")));
        }
    }
    Ok(())
}

/// The most frequent value (ties: the smallest); `values` is not empty.
fn mode(values: &[u64]) -> u64 {
    let mut counts = BTreeMap::new();
    for &v in values {
        *counts.entry(v).or_insert(0u64) += 1;
    }
    let most = counts.values().copied().max().unwrap_or(0);
    counts.into_iter().find(|&(_, c)| c == most).map_or(1, |(v, _)| v)
}

/// The median (the mean of the middle two for an even count); `values` is not empty.
fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        values[n / 2 - 1] / 2.0 + values[n / 2] / 2.0
    }
}

/// The `p` quantile of ascending `sorted` (not empty), read with linear interpolation at `(n − 1) · p`.
pub fn quantile(sorted: &[f64], p: f64) -> f64 {
    let h = (sorted.len() - 1) as f64 * p;
    let lo = h.floor() as usize;
    match sorted.get(lo + 1) {
        Some(&next) => sorted[lo] + (h - lo as f64) * (next - sorted[lo]),
        None => sorted[lo],
    }
}

/// The Theil–Sen slope of the per-window minimum delay over server time, or `None` with fewer than 3 windows
/// holding an arrival.
fn skew_slope(observations: &[Observation], start: f64, span: f64) -> Option<f64> {
    let windows = ((span / SKEW_WINDOW).floor().min(SKEW_WINDOWS as f64)) as usize;
    if windows < 3 {
        return None;
    }
    let width = span / windows as f64;
    let mut lowest = vec![f64::INFINITY; windows];
    for o in observations {
        let w = (((o.server_time - start) / width) as usize).min(windows - 1);
        lowest[w] = lowest[w].min(o.arrival - o.server_time);
    }
    let points: Vec<(f64, f64)> = lowest
        .iter()
        .enumerate()
        .filter(|(_, d)| d.is_finite())
        .map(|(w, &d)| (start + (w as f64 + 0.5) * width, d))
        .collect();
    if points.len() < 3 {
        return None;
    }
    let mut slopes = Vec::with_capacity(points.len() * (points.len() - 1) / 2);
    for (i, a) in points.iter().enumerate() {
        for b in &points[i + 1..] {
            slopes.push((b.1 - a.1) / (b.0 - a.0));
        }
    }
    Some(median(&mut slopes)).filter(|s| s.is_finite())
}

#[cfg(test)]
mod tests;
