//! Property tests of the render clocks and of the whole playback: any arrivals (late, early, clock jumps), any RTT
//! samples (outliers, NaN, negative) and any frame steps.
#![cfg(not(target_arch = "wasm32"))]

mod cases;

use netcode_lab::buffer::BufferView;
use netcode_lab::clock::{AdaptiveDelayParams, ClockKind, ClockParams, RenderClock};
use netcode_lab::extrapolate::UnderrunPolicy;
use netcode_lab::geom::Vec2;
use netcode_lab::playback::{PlaybackParams, RemotePlayback};
use netcode_lab::snapshot::Snapshot;
use netcode_lab::stream::Stream;
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Event {
    /// A snapshot sent `send_lag` ago (server clock) arriving now; `jump` shifts the server clock from then on.
    Snapshot {
        transit: f64,
        jump: f64,
    },
    Rtt(f64),
    Frame(f64),
}

fn event() -> impl Strategy<Value = Event> {
    prop_oneof![
        3 => (0.0f64..0.3, prop_oneof![20 => Just(0.0), 1 => -2.0f64..2.0])
            .prop_map(|(transit, jump)| Event::Snapshot { transit, jump }),
        2 => prop_oneof![
            10 => 0.02f64..0.4,
            1 => Just(f64::NAN),
            1 => Just(-0.1),
            1 => Just(50.0),
        ].prop_map(Event::Rtt),
        6 => prop_oneof![
            20 => 0.0f64..0.05,
            1 => Just(0.5),
            1 => Just(-0.02),
            1 => Just(f64::NAN),
        ].prop_map(Event::Frame),
    ]
}

/// A clock's parameters and the stream it reads (the true offset between the clocks is the stream's).
fn clock_params() -> impl Strategy<Value = (ClockParams, Stream)> {
    (prop::sample::select(ClockKind::ALL.to_vec()), 0.0f64..0.5, -100.0f64..100.0, prop::bool::ANY).prop_map(
        |(clock, render_delay, clock_offset, adaptive)| {
            let params = ClockParams {
                clock,
                render_delay,
                adaptive_delay: AdaptiveDelayParams { enabled: adaptive, ..AdaptiveDelayParams::default() },
                ..ClockParams::default()
            };
            (params, Stream { clock_offset, ..Stream::default() })
        },
    )
}

/// Runs the events through a clock; returns every reading's render time and the delays.
fn run((params, stream): &(ClockParams, Stream), events: &[Event]) -> (RenderClock, Vec<f64>, Vec<(f64, f64)>, u64) {
    let mut clock = RenderClock::new(params.clone(), stream).unwrap();
    let (mut now, mut offset) = (0.0f64, stream.clock_offset);
    let (mut renders, mut delays, mut rtts) = (Vec::new(), Vec::new(), 0);
    let mut view = BufferView::default();
    for event in events {
        match *event {
            Event::Snapshot { transit, jump } => {
                offset += jump;
                let server_time = now + offset - transit;
                clock.on_snapshot(server_time, now);
                view.newest_server_time =
                    Some(view.newest_server_time.map_or(server_time, |n: f64| n.max(server_time)));
                view.newest_arrival = Some(now);
            }
            Event::Rtt(rtt) => {
                clock.on_rtt_sample(now, rtt);
                rtts += 1;
            }
            Event::Frame(dt) => {
                if dt.is_finite() {
                    now += dt;
                }
                let reading = clock.render_time(now, dt, &view);
                renders.push(reading.render_time);
                delays.push((reading.delay, dt));
            }
        }
    }
    (clock, renders, delays, rtts)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases::cases(512)))]

    #[test]
    fn the_smooth_clock_never_decreases((params, stream) in clock_params(), events in prop::collection::vec(event(), 0..300)) {
        let params = ClockParams { clock: ClockKind::Smooth, ..params };
        let (_, renders, _, _) = run(&(params, stream), &events);
        let finite: Vec<f64> = renders.into_iter().filter(|r| r.is_finite()).collect();
        prop_assert!(finite.windows(2).all(|w| w[1] >= w[0]), "{:?}", finite);
    }

    #[test]
    fn every_clock_accounts_for_what_it_saw((params, stream) in clock_params(), events in prop::collection::vec(event(), 0..300)) {
        let (clock, renders, delays, rtts) = run(&(params.clone(), stream), &events);
        let m = clock.metrics();
        prop_assert_eq!(m.rtt_accepted + m.rtt_rejected + m.rtt_invalid, rtts);
        prop_assert_eq!(clock.rtt_history().len() as u64, rtts);
        let finite: Vec<f64> = renders.iter().copied().filter(|r| r.is_finite()).collect();
        let backwards = finite.windows(2).filter(|w| w[1] < w[0]).count() as u64;
        prop_assert_eq!(m.regressions, backwards);
        if params.clock == ClockKind::Smooth {
            prop_assert_eq!(m.regressions, 0);
        }
        // The delay stays between where it started and its bounds, and never moves faster than maxRate.
        let a = &params.adaptive_delay;
        let (lo, hi) = (params.render_delay.min(a.min_delay), params.render_delay.max(a.max_delay));
        let mut last = params.render_delay;
        for &(delay, dt) in &delays {
            prop_assert!(lo - 1e-12 <= delay && delay <= hi + 1e-12, "{} outside {}..{}", delay, lo, hi);
            let allowed = if dt.is_finite() && dt > 0.0 { a.max_rate * dt } else { 0.0 };
            prop_assert!((delay - last).abs() <= allowed + 1e-12);
            last = delay;
        }
        if !a.enabled {
            prop_assert!(delays.iter().all(|&(d, _)| d == params.render_delay));
        }
    }

    #[test]
    fn the_known_clock_is_exact((params, stream) in clock_params(), now in -1e3f64..1e3) {
        let params = ClockParams { clock: ClockKind::Known, adaptive_delay: AdaptiveDelayParams::default(), ..params };
        let mut clock = RenderClock::new(params.clone(), &stream).unwrap();
        let reading = clock.render_time(now, 0.016, &BufferView::default());
        prop_assert_eq!(reading.render_time, now + stream.clock_offset - params.render_delay);
        prop_assert!(reading.uncertain.is_none());
    }

    #[test]
    fn a_whole_playback_never_panics_and_shows_finite_positions(
        (clock, stream) in clock_params(),
        policy in prop::sample::select(UnderrunPolicy::ALL.to_vec()),
        events in prop::collection::vec(event(), 0..300),
    ) {
        let mut params = PlaybackParams { clock, ..PlaybackParams::default() };
        params.underrun.underrun_policy = policy;
        let offset = stream.clock_offset;
        let mut playback = RemotePlayback::new(params, &stream).unwrap();
        let (mut now, mut tick, mut server_offset) = (0.0f64, 0u64, offset);
        for event in events {
            match event {
                Event::Snapshot { transit, jump } => {
                    server_offset += jump;
                    tick += 1;
                    let s = Snapshot::moving(tick, now + server_offset - transit, Vec2::new(tick as f64, 0.0), Vec2::new(20.0, 0.0));
                    playback.on_snapshot(s, now);
                }
                Event::Rtt(rtt) => { playback.on_rtt_sample(now, rtt); }
                Event::Frame(dt) => {
                    if dt.is_finite() { now += dt; }
                    let frame = playback.frame(now, dt);
                    prop_assert!(frame.displayed.position.is_none_or(|p| p.is_finite()));
                    prop_assert_eq!(frame.reading.uncertain.is_some(), frame.sample.status.name() == "clockUncertain");
                }
            }
        }
        let m = playback.metrics(now);
        prop_assert_eq!(m.buffer.received, m.buffer.inserted + m.buffer.duplicates + m.buffer.conflicts + m.buffer.invalid + m.buffer.late);
    }
}
