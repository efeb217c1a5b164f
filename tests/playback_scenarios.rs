//! Whole playbacks over a jittery link, the way the simulator drives them: what each clock and the adaptive delay
//! do with the same arrivals (seed 004 §2.1: a per-packet estimate jumps; §2.2: a filtered one does not; §4.2: the
//! delay grows with the jitter, slowly).

use netcode_lab::buffer::SampleStatus;
use netcode_lab::clock::ClockKind;
use netcode_lab::geom::Vec2;
use netcode_lab::playback::{PlaybackMetrics, PlaybackParams, RemotePlayback};
use netcode_lab::snapshot::Snapshot;
use netcode_lab::stream::Stream;

const SEND: f64 = 0.05;
const FRAME: f64 = 1.0 / 60.0;
const OFFSET: f64 = 3.0; // server = local + 3 s

/// A deterministic xorshift in 0..1.
struct Noise(u64);

impl Noise {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % 1_000_000) as f64 / 1_000_000.0
    }
}

/// 20 Hz snapshots of an entity moving at 100 u/s; one-way delay 40 ms + uniform 0..`jitter`; a ping every 0.25 s
/// whose RTT is 80 ms + the same kind of noise on both legs. Runs `seconds` of 60 Hz frames. Returns the metrics
/// and how many frames of the last half were not Ready.
fn run(params: PlaybackParams, jitter: f64, seconds: f64) -> (PlaybackMetrics, usize) {
    let stream = Stream { clock_offset: OFFSET, ..Stream::default() };
    let mut playback = RemotePlayback::new(params, &stream).unwrap();
    let mut noise = Noise(0x9e37_79b9_7f4a_7c15);
    let mut in_flight: Vec<(f64, Snapshot)> = Vec::new();
    let (mut next_send, mut next_ping, mut tick) = (0.0, 0.0, 0u64);
    let frames = (seconds / FRAME) as usize;
    let mut not_ready_late = 0;
    for frame in 1..=frames {
        let now = frame as f64 * FRAME;
        while next_send <= now {
            let server_time = next_send + OFFSET;
            let s = Snapshot::moving(tick, server_time, Vec2::new(100.0 * server_time, 0.0), Vec2::new(100.0, 0.0));
            in_flight.push((next_send + 0.04 + jitter * noise.next(), s));
            tick += 1;
            next_send += SEND;
        }
        in_flight.sort_by(|a, b| a.0.total_cmp(&b.0));
        while in_flight.first().is_some_and(|(arrival, _)| *arrival <= now) {
            let (arrival, s) = in_flight.remove(0);
            playback.on_snapshot(s, arrival);
        }
        if next_ping <= now {
            playback.on_rtt_sample(now, 0.08 + jitter * (noise.next() + noise.next()));
            next_ping += 0.25;
        }
        let shown = playback.frame(now, FRAME);
        if frame > frames / 2 && shown.sample.status != SampleStatus::Ready {
            not_ready_late += 1;
        }
    }
    (playback.metrics(seconds), not_ready_late)
}

fn params(clock: ClockKind, delay: f64, adaptive: bool) -> PlaybackParams {
    let mut p = PlaybackParams::default();
    p.clock.clock = clock;
    p.clock.render_delay = delay;
    p.clock.adaptive_delay.enabled = adaptive;
    p
}

#[test]
fn on_a_jittery_link_reanchor_runs_backwards_and_smooth_does_not() {
    let (reanchor, _) = run(params(ClockKind::Reanchor, 0.1, false), 0.06, 20.0);
    let (smooth, _) = run(params(ClockKind::Smooth, 0.1, false), 0.06, 20.0);
    assert!(reanchor.clock.regressions > 50, "reanchor regressions: {}", reanchor.clock.regressions);
    assert!(reanchor.clock.jumps > 100, "reanchor jumps: {}", reanchor.clock.jumps);
    assert_eq!((smooth.clock.regressions, smooth.clock.hard_resets), (0, 0));
    // Outliers are refused, but a wide distribution is learnt rather than refused wholesale.
    assert!(smooth.clock.rtt_rejected * 5 < smooth.clock.rtt_accepted, "{:?}", smooth.clock);
    assert!(smooth.clock.offset_samples_rejected * 10 < smooth.clock.offset_samples_accepted);
    // The smooth estimate lands within a few ms of the truth biased by the mean extra delay (RTT/2 counts the
    // jitter of both legs, transit only one: on average the same 30 ms, so the estimate is near 3 s).
    let offset = smooth.clock.offset_estimate.unwrap();
    assert!((offset - OFFSET).abs() < 0.02, "offset estimate {offset}");
}

#[test]
fn the_adaptive_delay_grows_with_jitter_and_cuts_underruns() {
    let (fixed, fixed_misses) = run(params(ClockKind::Known, 0.06, false), 0.08, 60.0);
    let (adaptive, adaptive_misses) = run(params(ClockKind::Known, 0.06, true), 0.08, 60.0);
    let mut literal_params = params(ClockKind::Known, 0.06, true);
    literal_params.clock.adaptive_delay.add_latency = false;
    let (literal, literal_misses) = run(literal_params, 0.08, 60.0);
    // Uniform 0..80 ms of extra delay: mean latency 40 + 40 ms, standard deviation 23 ms.
    // target = 80 + 1.5 · 50 + 2 · 23 ≈ 201 ms; without the latency (the formula as written) ≈ 121 ms.
    assert!((0.18..0.23).contains(&adaptive.clock.delay_target), "target {}", adaptive.clock.delay_target);
    assert!((0.10..0.14).contains(&literal.clock.delay_target), "target {}", literal.clock.delay_target);
    assert!(adaptive.clock.delay > 0.19, "after 60 s the delay is close: {}", adaptive.clock.delay);
    assert_eq!(fixed.clock.delay, 0.06);
    // Frames not Ready in the last 30 s (1800 frames).
    assert!(fixed_misses > 1500, "fixed 60 ms: {fixed_misses}");
    assert!(literal_misses > 200 && literal_misses < fixed_misses, "literal formula: {literal_misses}");
    assert!(adaptive_misses < 20, "adaptive with latency: {adaptive_misses}");
    assert_eq!(adaptive.clock.regressions, 0, "the delay never grows faster than real time");
}
