//! One direction of a simulated network path: latency, jitter, loss (uniform or bursty), reordering and
//! duplication, all drawn from a seeded stream.
//!
//! ```text
//!  send(t) ──► lost?  ── yes ──► ✕ (counted)
//!               │ no
//!               ▼
//!         arrival = t + latency + jitter(u)  (+ hold-back when reordered)   ──► in flight, ordered by arrival
//!         duplicate? → a second copy with its own jitter
//! ```
//! Every packet draws the same eight uniforms whatever the parameters, so runs stay comparable: raise the loss
//! and the packets that were lost stay lost (uniform model), change the jitter and the same packets are lost.
//!
//! Loss models. `uniform`: each packet is lost with probability `loss`. `burst`: a Gilbert–Elliott chain with a
//! good state (nothing lost) and a bad state (everything lost); the chain leaves the bad state with probability
//! `1 / burstLength` per packet and enters it with the probability that makes the long-run loss equal `loss`
//! (`p = loss · r / (1 − loss)`), so the two models lose the same share of packets — only the clumping differs.
//!
//! Jitter models (the "stated distribution"): `uniform` — delay uniform in `latency ± jitter`; `normal` — a normal
//! with mean `latency` and standard deviation `jitter`; `exponential` — `latency` plus an exponential tail with
//! mean `jitter` (never early, sometimes very late, like a congested queue); `logNormal` — `latency` plus
//! `jitter · exp(jitterSigma · z)`, z a standard normal: a shifted log-normal, never early, its excess over
//! `latency` has median `jitter` and is right-skewed (its 95th percentile is `jitter · exp(1.645 · jitterSigma)`),
//! the shape measured one-way delays have and the one `crate::fit` fits to a recorded trace. Delays never go
//! below zero.

use crate::channel::{Channel, Delivery};
use crate::param::{Choice, ParamError, Params};
use crate::rng::{Draws, SimRng};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::collections::BinaryHeap;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, Choice)]
#[serde(rename_all = "camelCase")]
pub enum JitterModel {
    #[default]
    Uniform,
    Normal,
    Exponential,
    LogNormal,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, Choice)]
#[serde(rename_all = "camelCase")]
pub enum LossModel {
    #[default]
    Uniform,
    Burst,
}

/// One direction's network conditions. Times in seconds, probabilities in `0..=1`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, Params)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct LinkParams {
    /// Base one-way latency.
    #[param(range(0.0, 2.0), unit = "s", control(0.0, 400.0, 5.0, "ms", 1000.0))]
    pub latency: f64,
    /// Jitter scale: the spread of the one-way delay around the latency, as the jitter model reads it.
    #[param(range(0.0, 1.0), unit = "s", control(0.0, 150.0, 1.0, "ms", 1000.0))]
    pub jitter: f64,
    /// How the delay spreads: uniform in latency ± jitter, normal (σ = jitter), an exponential tail, or a
    /// log-normal tail (median jitter above the latency).
    pub jitter_model: JitterModel,
    /// The log-normal model's shape: the standard deviation of the log of the delay above the latency (0: a fixed
    /// delay of latency + jitter). Read by the log-normal model only.
    #[param(range(0.0, 4.0), control(0.0, 2.0, 0.05, "", 1.0))]
    pub jitter_sigma: f64,
    /// Long-run share of packets lost.
    #[param(range(0.0, 1.0), control(0.0, 50.0, 0.5, "%", 100.0))]
    pub loss: f64,
    /// How losses come: each packet alone (uniform), or in bursts (Gilbert–Elliott).
    pub loss_model: LossModel,
    /// Mean number of packets in a loss burst, for the burst model.
    #[param(range(1.0, 100.0), unit = "packets")]
    pub burst_length: f64,
    /// Probability that a packet is held back and overtaken.
    #[param(range(0.0, 1.0))]
    pub reorder: f64,
    /// Largest hold-back of a reordered packet (drawn between half of it and all of it).
    #[param(range(0.0, 1.0), unit = "s")]
    pub reorder_delay: f64,
    /// Probability that a packet arrives twice.
    #[param(range(0.0, 1.0))]
    pub duplicate: f64,
}

impl Default for LinkParams {
    fn default() -> Self {
        LinkParams {
            latency: 0.05,
            jitter: 0.01,
            jitter_model: JitterModel::Uniform,
            jitter_sigma: 0.5,
            loss: 0.0,
            loss_model: LossModel::Uniform,
            burst_length: 4.0,
            reorder: 0.0,
            reorder_delay: 0.05,
            duplicate: 0.0,
        }
    }
}

impl LinkParams {
    /// A lossless link with a constant delay.
    pub fn fixed(latency: f64) -> Self {
        LinkParams { latency, jitter: 0.0, ..LinkParams::default() }
    }

    pub fn validate(&self) -> Result<(), ParamError> {
        self.check_ranges()
    }
}

/// What became of one packet handed to the link.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PacketFate {
    Lost,
    Delivered {
        arrival: f64,
        /// Arrival of the second copy, when the packet was duplicated.
        duplicate: Option<f64>,
        /// The packet was held back (the reorder knob), so later packets may overtake it.
        held_back: bool,
    },
}

/// Counters for one direction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LinkStats {
    pub sent: u64,
    pub lost: u64,
    pub duplicated: u64,
    pub delivered: u64,
    /// Deliveries that came after a packet sent later than them.
    pub out_of_order: u64,
}

struct InFlight<T> {
    arrival: f64,
    seq: u64,
    item: T,
}

impl<T> PartialEq for InFlight<T> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl<T> Eq for InFlight<T> {}
impl<T> PartialOrd for InFlight<T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<T> Ord for InFlight<T> {
    /// Reversed, so the max-heap pops the earliest arrival first (ties: the earlier send).
    fn cmp(&self, other: &Self) -> Ordering {
        other.arrival.total_cmp(&self.arrival).then(other.seq.cmp(&self.seq))
    }
}

/// A simulated one-way link carrying copies of `T`.
pub struct Link<T> {
    params: LinkParams,
    rng: SimRng,
    in_burst: bool,
    in_flight: BinaryHeap<InFlight<T>>,
    next_seq: u64,
    newest_delivered_seq: Option<u64>,
    stats: LinkStats,
}

impl<T: Clone> Link<T> {
    /// A link drawing from stream `stream` of the run seeded with `seed`. `params` must be valid.
    pub fn new(params: LinkParams, seed: u64, stream: u64) -> Self {
        Link {
            params,
            rng: SimRng::new(seed, stream),
            in_burst: false,
            in_flight: BinaryHeap::new(),
            next_seq: 0,
            newest_delivered_seq: None,
            stats: LinkStats::default(),
        }
    }

    pub fn stats(&self) -> LinkStats {
        self.stats
    }

    pub fn params(&self) -> &LinkParams {
        &self.params
    }

    /// Changes the conditions for packets sent from now on (a network step); packets in flight keep their
    /// arrival, and the random streams are untouched, so the same packets keep their fate and uniforms.
    pub fn set_params(&mut self, params: LinkParams) {
        self.params = params;
    }

    /// Sends `item` at `now` and says what will become of it.
    pub fn send_with_fate(&mut self, now: f64, item: T) -> PacketFate {
        // The packet's eight uniforms (loss, burst, jitter ×2, reorder, hold-back, duplicate, its jitter), each
        // worked out only if read: a knob at 0 cannot be passed by a uniform in [0, 1), so its draw is skipped.
        let u = self.rng.draws::<8>();
        let seq = self.next_seq;
        self.next_seq += 1;
        self.stats.sent += 1;
        if self.is_lost(&u) {
            self.stats.lost += 1;
            return PacketFate::Lost;
        }
        let held_back = self.params.reorder > 0.0 && u.get(4) < self.params.reorder;
        let hold = if held_back { self.params.reorder_delay * (0.5 + 0.5 * u.get(5)) } else { 0.0 };
        let two_uniforms = matches!(self.params.jitter_model, JitterModel::Normal | JitterModel::LogNormal);
        let j2 = if two_uniforms { u.get(3) } else { 0.0 };
        let arrival = now + self.delay(u.get(2), j2) + hold;
        let duplicate =
            (self.params.duplicate > 0.0 && u.get(6) < self.params.duplicate).then(|| now + self.delay(u.get(7), j2));
        if let Some(second) = duplicate {
            self.stats.duplicated += 1;
            self.in_flight.push(InFlight { arrival: second, seq, item: item.clone() });
        }
        self.in_flight.push(InFlight { arrival, seq, item });
        PacketFate::Delivered { arrival, duplicate, held_back }
    }

    fn is_lost(&mut self, u: &Draws<8>) -> bool {
        let loss = self.params.loss;
        match self.params.loss_model {
            LossModel::Uniform => loss > 0.0 && u.get(0) < loss,
            LossModel::Burst if loss >= 1.0 => true,
            LossModel::Burst => {
                let exit = 1.0 / self.params.burst_length;
                let enter = (loss * exit / (1.0 - loss)).min(1.0);
                let burst_u = u.get(1);
                self.in_burst = if self.in_burst { burst_u >= exit } else { burst_u < enter };
                self.in_burst
            }
        }
    }

    /// One-way delay for the uniforms `u1`, `u2`, never negative.
    fn delay(&self, u1: f64, u2: f64) -> f64 {
        let LinkParams { latency, jitter, jitter_sigma, .. } = self.params;
        // Box–Muller: a standard normal from two uniforms, as radius × angle.
        let radius = || (-2.0 * (1.0 - u1).ln()).sqrt();
        let angle = || (std::f64::consts::TAU * u2).cos();
        let spread = match self.params.jitter_model {
            JitterModel::Uniform => jitter * (2.0 * u1 - 1.0),
            JitterModel::Normal => jitter * radius() * angle(),
            JitterModel::Exponential => -jitter * (1.0 - u1).ln(),
            JitterModel::LogNormal => jitter * (jitter_sigma * (radius() * angle())).exp(),
        };
        (latency + spread).max(0.0)
    }
}

impl<T: Clone> Channel<T> for Link<T> {
    fn send(&mut self, now: f64, item: T) {
        self.send_with_fate(now, item);
    }

    fn receive(&mut self, now: f64, out: &mut Vec<Delivery<T>>) {
        while self.in_flight.peek().is_some_and(|p| p.arrival <= now) {
            let Some(packet) = self.in_flight.pop() else { break };
            self.stats.delivered += 1;
            if self.newest_delivered_seq.is_some_and(|newest| packet.seq < newest) {
                self.stats.out_of_order += 1;
            }
            self.newest_delivered_seq = self.newest_delivered_seq.max(Some(packet.seq));
            out.push(Delivery { arrival: packet.arrival, item: packet.item });
        }
    }

    fn in_flight(&self) -> usize {
        self.in_flight.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(params: LinkParams, packets: usize, interval: f64) -> (Vec<PacketFate>, Vec<Delivery<usize>>, LinkStats) {
        let mut link = Link::new(params, 42, 1);
        let fates = (0..packets).map(|i| link.send_with_fate(i as f64 * interval, i)).collect();
        let mut out = Vec::new();
        link.receive(f64::MAX, &mut out);
        (fates, out, link.stats())
    }

    #[test]
    fn a_fixed_link_delivers_everything_in_order_after_the_latency() {
        let (_, out, stats) = run(LinkParams::fixed(0.08), 50, 0.05);
        assert_eq!(stats, LinkStats { sent: 50, delivered: 50, ..LinkStats::default() });
        for (i, d) in out.iter().enumerate() {
            assert_eq!(d.item, i);
            assert!((d.arrival - (i as f64 * 0.05 + 0.08)).abs() < 1e-12);
        }
    }

    #[test]
    fn uniform_jitter_stays_inside_latency_plus_minus_jitter() {
        let params = LinkParams { latency: 0.1, jitter: 0.03, ..LinkParams::default() };
        let (fates, _, _) = run(params, 2000, 0.05);
        for (i, fate) in fates.iter().enumerate() {
            let PacketFate::Delivered { arrival, .. } = fate else { panic!("nothing is lost") };
            let delay = arrival - i as f64 * 0.05;
            assert!((0.07..=0.13).contains(&delay), "{delay}");
        }
    }

    #[test]
    fn both_loss_models_lose_about_the_asked_share_but_bursts_clump() {
        for model in [LossModel::Uniform, LossModel::Burst] {
            let params = LinkParams { loss: 0.1, loss_model: model, burst_length: 5.0, ..LinkParams::default() };
            let (fates, _, stats) = run(params, 40_000, 0.01);
            let share = stats.lost as f64 / stats.sent as f64;
            assert!((share - 0.1).abs() < 0.015, "{model:?}: {share}");
            let runs = fates.windows(2).filter(|w| w[0] == PacketFate::Lost && w[1] != PacketFate::Lost).count();
            let mean_run = stats.lost as f64 / runs as f64;
            match model {
                LossModel::Uniform => assert!(mean_run < 1.3, "uniform mean burst {mean_run}"),
                LossModel::Burst => assert!((mean_run - 5.0).abs() < 0.6, "burst mean {mean_run}"),
            }
        }
    }

    #[test]
    fn raising_uniform_loss_keeps_the_packets_already_lost_and_their_jitter() {
        let low = run(LinkParams { loss: 0.05, jitter: 0.02, ..LinkParams::default() }, 500, 0.05).0;
        let high = run(LinkParams { loss: 0.2, jitter: 0.02, ..LinkParams::default() }, 500, 0.05).0;
        for (a, b) in low.iter().zip(&high) {
            match (a, b) {
                (PacketFate::Lost, other) => assert_eq!(*other, PacketFate::Lost),
                (PacketFate::Delivered { arrival, .. }, PacketFate::Delivered { arrival: b, .. }) => {
                    assert_eq!(arrival, b)
                }
                _ => {}
            }
        }
    }

    #[test]
    fn held_back_packets_are_overtaken_and_counted_out_of_order() {
        let params = LinkParams { jitter: 0.0, reorder: 0.3, reorder_delay: 0.1, ..LinkParams::default() };
        let (_, out, stats) = run(params, 200, 0.02);
        assert!(stats.out_of_order > 20, "{stats:?}");
        assert!(out.windows(2).all(|w| w[0].arrival <= w[1].arrival), "deliveries come in arrival order");
    }

    #[test]
    fn duplicates_arrive_twice() {
        let params = LinkParams { duplicate: 0.5, ..LinkParams::default() };
        let (_, out, stats) = run(params, 1000, 0.02);
        assert!((400..600).contains(&stats.duplicated), "{stats:?}");
        assert_eq!(out.len() as u64, 1000 + stats.duplicated);
    }

    #[test]
    fn exponential_jitter_is_never_early() {
        let params =
            LinkParams { latency: 0.05, jitter: 0.02, jitter_model: JitterModel::Exponential, ..LinkParams::default() };
        let (fates, _, _) = run(params, 1000, 0.01);
        let delays: Vec<f64> = fates
            .iter()
            .enumerate()
            .map(|(i, f)| match f {
                PacketFate::Delivered { arrival, .. } => arrival - i as f64 * 0.01,
                PacketFate::Lost => unreachable!(),
            })
            .collect();
        assert!(delays.iter().all(|d| *d >= 0.05 - 1e-12));
        let mean = delays.iter().sum::<f64>() / delays.len() as f64;
        assert!((mean - 0.07).abs() < 0.003, "{mean}");
    }

    #[test]
    fn log_normal_jitter_is_never_early_and_its_excess_has_the_stated_median_and_p95() {
        // Excess over the latency = jitter · exp(σ z): median jitter = 20 ms; p95 = 20 ms · exp(1.6449 · 0.6) =
        // 20 ms · 2.6866 = 53.7 ms (Φ⁻¹(0.95) = 1.6449).
        let params = LinkParams {
            latency: 0.05,
            jitter: 0.02,
            jitter_model: JitterModel::LogNormal,
            jitter_sigma: 0.6,
            ..LinkParams::default()
        };
        let (fates, _, _) = run(params, 20_000, 0.01);
        let mut excess: Vec<f64> = fates
            .iter()
            .enumerate()
            .map(|(i, f)| match f {
                PacketFate::Delivered { arrival, .. } => arrival - i as f64 * 0.01 - 0.05,
                PacketFate::Lost => unreachable!(),
            })
            .collect();
        assert!(excess.iter().all(|e| *e > 0.0));
        excess.sort_by(f64::total_cmp);
        let (median, p95) = (excess[10_000], excess[19_000]);
        assert!((median - 0.02).abs() < 0.0008, "{median}");
        assert!((p95 - 0.0537).abs() < 0.0025, "{p95}");
    }

    #[test]
    fn the_log_normal_model_draws_no_other_uniforms_than_the_normal_one() {
        // Same seed, same loss: the same packets are lost whatever the jitter model, and the log-normal delay is a
        // monotone function of the normal model's z, so both order the packets' delays alike.
        let base = LinkParams { latency: 0.2, loss: 0.2, jitter: 0.02, ..LinkParams::default() };
        let normal = run(LinkParams { jitter_model: JitterModel::Normal, ..base }, 500, 0.05).0;
        let log = run(LinkParams { jitter_model: JitterModel::LogNormal, ..base }, 500, 0.05).0;
        let delays = |fates: &[PacketFate]| -> Vec<Option<f64>> {
            fates
                .iter()
                .enumerate()
                .map(|(i, f)| match f {
                    PacketFate::Delivered { arrival, .. } => Some(arrival - i as f64 * 0.05),
                    PacketFate::Lost => None,
                })
                .collect()
        };
        let (n, l) = (delays(&normal), delays(&log));
        for i in 0..n.len() {
            assert_eq!(n[i].is_none(), l[i].is_none(), "packet {i}");
            for j in 0..n.len() {
                if let (Some(a), Some(b), Some(c), Some(d)) = (n[i], n[j], l[i], l[j]) {
                    assert_eq!(a < b, c < d, "packets {i}, {j}");
                }
            }
        }
    }

    #[test]
    fn bad_params_name_the_field() {
        let bad = LinkParams { loss: 1.5, ..LinkParams::default() };
        assert_eq!(bad.validate().unwrap_err().field, "loss");
        let bad = LinkParams { latency: f64::NAN, ..LinkParams::default() };
        assert_eq!(bad.validate().unwrap_err().field, "latency");
    }

    #[test]
    fn the_same_seed_gives_the_same_fates() {
        let params = LinkParams { loss: 0.1, jitter: 0.03, reorder: 0.1, duplicate: 0.1, ..LinkParams::default() };
        assert_eq!(run(params, 300, 0.02).0, run(params, 300, 0.02).0);
    }
}
