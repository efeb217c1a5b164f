//! The fit as the simulator's network ("more of my network"), and the figure that sets the recording beside it.
//!
//! [`Fit::network`] turns a fit into a [`FittedNetwork`]: the downlink a [`LinkParams`] — latency `base`, the
//! `logNormal` jitter model with `jitter = median` and `jitterSigma = sigma`, Gilbert–Elliott `burst` loss with
//! `loss = rate` and `burstLength = meanBurst` (1 when nothing was lost: a chain whose bursts last one packet loses
//! packets independently, so a burst chain reproduces uniform loss too), `duplicate` = duplicates per first copy
//! (`rate / (1 − rate)`, what the link's knob means), no reorder hold-back (the held-back packets' delays are
//! already in the fitted quantiles, so the fitted spread reorders the stream by itself) — the tick and send rates
//! that give the stride and the send interval, the clock skew (`clockSkewPpm · 1e−6`), and a duration (the
//! recording's span unless given). Each value is clamped into its parameter's range. The burst chain enters a
//! burst with probability `rate / (1 − rate) / burstLength`, at most 1: a recording that loses much in short
//! bursts (rate 0.7 in bursts of 1.2) asks more than the chain can give, and the simulated loss comes out lower.
//!
//! The latency is `base` when it is a possible one-way latency (0..=2 s). A floor outside that range says the
//! two clocks disagree by more than the path's latency (an unknown offset); then half the smallest RTT sample
//! stands for it, and without RTT samples the network cannot be made (an error naming `latency.base`).
//!
//! [`figure`] is the page's side-by-side figure: histograms of the delay above `base` (5 ms bins up to the
//! recording's 99.5th percentile, at most 1 s, and a count past the last bin) and of the loss bursts' lengths
//! (1, 2, …, 9, ≥ 10 packets), for the recording and for a seeded draw of the fitted downlink with as many sends.

use super::{analyse, quantile, Fit, FitError, Jitter, Observation};
use crate::compare::PlaygroundParams;
use crate::link::{JitterModel, Link, LinkParams, LossModel, PacketFate};
use crate::param::Param;
use crate::sim::params::NetworkParams;
use crate::sim::params::MAX_DURATION;

const SKEW: Param = NetworkParams::CLOCK_SKEW;
use serde::Serialize;

/// The width of a delay bin, seconds.
pub const DELAY_BIN: f64 = 0.005;
/// The delay histogram's last edge at most, seconds.
pub const DELAY_TOP: f64 = 1.0;
/// Burst-length bins: 1, 2, …, `BURST_BINS − 1`, and `BURST_BINS` or more.
pub const BURST_BINS: usize = 10;
/// The most sends the figure's draw of the fitted model makes.
pub const MAX_FIGURE_SENDS: u64 = 200_000;

/// The fitted network as simulator parameters: what `netcode-lab fit TRACE --params` prints.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FittedNetwork {
    /// Seconds simulated.
    pub duration: f64,
    /// Server ticks per second.
    pub tick_rate: f64,
    /// Snapshots per second.
    pub send_rate: f64,
    /// The server → client link.
    pub downlink: LinkParams,
    /// The client clock's rate error.
    pub clock_skew: f64,
}

impl Fit {
    /// The simulator's network for this fit, `duration` seconds long (the recording's span, 1..=120 s, when
    /// `None`).
    pub fn network(&self, duration: Option<f64>) -> Result<FittedNetwork, FitError> {
        let base = self.latency.base;
        let latency = if (0.0..=top(LinkParams::LATENCY)).contains(&base) {
            base
        } else {
            let rtt = self.stream.min_rtt.ok_or_else(|| {
                FitError::new(
                    "latency.base",
                    format!(
                        "{base} s is not a one-way latency (the trace's clocks differ by an unknown offset) and the \
                         trace has no rtt samples to take the latency from"
                    ),
                )
            })?;
            (rtt / 2.0).clamp(0.0, top(LinkParams::LATENCY))
        };
        let (tick_rate, send_rate) = self.rates();
        let duration = duration.unwrap_or(self.stream.span.clamp(1.0, MAX_DURATION));
        let skew = (self.clock_skew_ppm.unwrap_or(0.0) * 1e-6).clamp(-top(SKEW), top(SKEW));
        Ok(FittedNetwork { duration, tick_rate, send_rate, downlink: self.downlink(latency), clock_skew: skew })
    }

    /// The fitted downlink with `latency`.
    fn downlink(&self, latency: f64) -> LinkParams {
        let Jitter::LogNormal { median, sigma } = self.jitter;
        let duplicate = self.duplicate.rate / (1.0 - self.duplicate.rate);
        LinkParams {
            latency,
            jitter: median.min(top(LinkParams::JITTER)),
            jitter_model: JitterModel::LogNormal,
            jitter_sigma: sigma.min(top(LinkParams::JITTER_SIGMA)),
            loss: self.loss.rate,
            loss_model: LossModel::Burst,
            burst_length: self.loss.mean_burst.unwrap_or(1.0).clamp(1.0, top(LinkParams::BURST_LENGTH)),
            reorder: 0.0,
            duplicate: duplicate.min(top(LinkParams::DUPLICATE)),
            ..LinkParams::default()
        }
    }

    /// Tick and send rates giving the stride and the send interval (the tick rate rounded to 1e−6 Hz, so 60 Hz
    /// measured as 59.99999999999995 is 60); the simulator's defaults without a send interval; one send a tick when
    /// the tick rate would leave 1..=240 Hz.
    fn rates(&self) -> (f64, f64) {
        let Some(interval) = self.send_interval else { return (60.0, 20.0) };
        let stride = self.stream.tick_stride as f64;
        let tick_rate = (stride / interval * 1e6).round() / 1e6;
        if (1.0..=240.0).contains(&tick_rate) && tick_rate / stride >= 1.0 {
            (tick_rate, tick_rate / stride)
        } else {
            let rate = (1.0 / interval).clamp(1.0, 240.0);
            (rate, rate)
        }
    }
}

impl FittedNetwork {
    /// The playground's default parameters with this network: the downlink, the clock skew, the rates, the
    /// duration. Checked: an error names the parameter out of range (a `duration` past 1..=120 s).
    pub fn playground(&self) -> Result<PlaygroundParams, FitError> {
        let mut params = PlaygroundParams::default();
        params.sim.duration = self.duration;
        params.sim.scenario.tick_rate = self.tick_rate;
        params.sim.scenario.send_rate = self.send_rate;
        params.sim.network.downlink = self.downlink;
        params.sim.network.clock_skew = self.clock_skew;
        params.validate().map_err(|e| FitError::new(e.field, e.message))?;
        Ok(params)
    }

    /// The parameters file `export --params` and `compare --params` read: only the keys the fit sets, every other
    /// key left to its default.
    pub fn to_json(&self) -> String {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct File<'a> {
            duration: f64,
            scenario: Scenario,
            network: Network<'a>,
        }
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Scenario {
            tick_rate: f64,
            send_rate: f64,
        }
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Network<'a> {
            downlink: &'a LinkParams,
            clock_skew: f64,
        }
        let file = File {
            duration: self.duration,
            scenario: Scenario { tick_rate: self.tick_rate, send_rate: self.send_rate },
            network: Network { downlink: &self.downlink, clock_skew: self.clock_skew },
        };
        serde_json::to_string_pretty(&file).expect("plain numbers") + "\n"
    }
}

/// A histogram of fixed bins.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Histogram {
    /// The width of a bin (seconds for delays, 1 packet for bursts); bin `i` holds `[i · width, (i + 1) · width)`
    /// (bursts: length `i + 1`).
    pub bin_width: f64,
    pub counts: Vec<u64>,
    /// Values past the last bin (bursts: none, the last bin holds every longer burst).
    pub over: u64,
}

/// One side of the figure: the delay above `base` and the loss bursts' lengths.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Histograms {
    pub delay: Histogram,
    pub bursts: Histogram,
}

/// The page's figure: the fit, the recording's histograms and the fitted model's.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FitFigure {
    pub fit: Fit,
    pub recorded: Histograms,
    pub fitted: Histograms,
}

/// Fits `observations` and draws the fitted downlink (seeded by `seed`) for as many sends as the recording
/// spans (at most [`MAX_FIGURE_SENDS`]), each side as histograms on the same bins.
pub fn figure(observations: &[Observation], rtt: &[f64], seed: u64) -> Result<FitFigure, FitError> {
    let analysis = analyse(observations, rtt)?;
    let top = quantile(&analysis.excess, 0.995).min(DELAY_TOP);
    let bins = ((top / DELAY_BIN).ceil() as usize).max(1);
    let recorded = Histograms { delay: delays(&analysis.excess, bins), bursts: bursts(&analysis.bursts) };

    // The delay above the latency does not depend on the latency: the fitted downlink is drawn with none.
    let interval = 1.0 / analysis.fit.rates().1;
    let mut channel: Link<()> = Link::new(analysis.fit.downlink(0.0), seed, 0);
    let (mut excess, mut runs, mut run) = (Vec::new(), Vec::new(), 0u64);
    for k in 0..analysis.fit.stream.sends.min(MAX_FIGURE_SENDS) {
        let sent = k as f64 * interval;
        match channel.send_with_fate(sent, ()) {
            PacketFate::Lost => run += 1,
            PacketFate::Delivered { arrival, duplicate, .. } => {
                excess.push(arrival - sent);
                excess.extend(duplicate.map(|d| d - sent));
                if run > 0 {
                    runs.push(run);
                }
                run = 0;
            }
        }
    }
    let fitted = Histograms { delay: delays(&excess, bins), bursts: bursts(&runs) };
    Ok(FitFigure { fit: analysis.fit, recorded, fitted })
}

/// The top of a parameter's range.
fn top(param: Param) -> f64 {
    param.range.map_or(f64::INFINITY, |range| range.1)
}

fn delays(excess: &[f64], bins: usize) -> Histogram {
    let mut counts = vec![0; bins];
    let mut over = 0;
    for &e in excess {
        match counts.get_mut((e.max(0.0) / DELAY_BIN) as usize) {
            Some(count) => *count += 1,
            None => over += 1,
        }
    }
    Histogram { bin_width: DELAY_BIN, counts, over }
}

fn bursts(lengths: &[u64]) -> Histogram {
    let mut counts = vec![0; BURST_BINS];
    for &b in lengths {
        counts[(b.clamp(1, BURST_BINS as u64) - 1) as usize] += 1;
    }
    Histogram { bin_width: 1.0, counts, over: 0 }
}
