//! What each fuzz target checks, for any bytes. Shared by the libFuzzer targets (`fuzz/fuzz_targets/`) and by
//! the native replay of their corpora and regressions (`tests/fuzz_corpus.rs`), so a saved input is checked by
//! `cargo test` too. Every oracle panics on a broken promise (libFuzzer then saves the input as a crash):
//!
//! | target | input | oracle |
//! |---|---|---|
//! | `trace_parser` | bytes of a trace file | a trace or one line naming a field (never a panic); an accepted trace validates, exports and re-parses to the same bits and the same text, replays one finite sample per `sampleAt`, and a `snapshots` trace is laid out for the views row for row |
//! | `sim_params` | JSON parameters, as the page's objects are | refused with one line naming a field, or valid: they serialize and read back equal, and a run (cut to 2 s) gives finite positions where it shows one and the frame count its rate promises |
//! | `buffer_ops` | inserts, samples, prunes | the buffer's invariants (sorted, within capacity, counters add up), each sample's status as a plain linear scan computes it, Ready ⇒ a finite position with factor in 0..=1, every underrun policy shows a finite position or says it hides |
//! | `playback_ops` | deliveries, RTT samples, frames with time jumps, any clock and policy | the render time is finite or the clock says it is uncertain; what is shown is finite or hidden; the smooth clock never moves its render time backwards on ordinary frames |
//! | `path_ops` | any batches, samples, chase steps | the timed player and the lerp chase give finite positions (or none, and say why); accepted seqs only move forward; every batch is counted |
//! | `prediction_ops` | frames of any length, live keys, scripts, server stops, teleports, smoothing changes | a bad frame time is refused naming `dt` and changes nothing; every frame is finite, inside the arena, pending inputs bounded |
#![allow(dead_code)]

#[path = "../tests/models/buffer.rs"]
mod buffer_model;

use arbitrary::{Arbitrary, Result, Unstructured};
use buffer_model::expected_sample;
use netcode_lab::stream::Stream;

/// The stream every buffer and playback target plays: 20 snapshots a second.
const SEND_INTERVAL: f64 = 0.05;
use netcode_lab::buffer::{BeforeOldest, BufferParams, SampleStatus, SnapshotBuffer};
use netcode_lab::clock::{ClockKind, ClockParams};
use netcode_lab::compare::PlaygroundParams;
use netcode_lab::display::{DisplayMode, Presenter};
use netcode_lab::extrapolate::{CapRule, UnderrunParams, UnderrunPolicy};
use netcode_lab::geom::Vec2;
use netcode_lab::interpolate::Interpolation;
use netcode_lab::path::batch::{DuplicatePolicy, PathBatch, PathPoint};
use netcode_lab::path::lerp_chase::{LerpChase, LerpParams};
use netcode_lab::path::params::{PathParams, SnapTarget};
use netcode_lab::path::player::{IngestOutcome, PathPlayer, PlaybackState};
use netcode_lab::playback::{PlaybackParams, RemotePlayback};
use netcode_lab::predict::input::{InputScript, KeyEvent, Keys};
use netcode_lab::predict::params::PredictParams;
use netcode_lab::predict::session::Session;
use netcode_lab::predict::smoothing::{SmoothingMode, SmoothingParams};
use netcode_lab::sim::record::frame;
use netcode_lab::snapshot::Snapshot;
use netcode_lab::trace::replay::ReplaySamples;
use netcode_lab::trace::{import as imported, replay, Trace, TraceData};

/// A target's oracle: panics when the input breaks a promise.
pub type Oracle = fn(&[u8]);

/// The fuzz targets, by name (the folders of `fuzz/corpus/` and `fuzz/regressions/`).
pub const TARGETS: [(&str, Oracle); 6] = [
    ("trace_parser", trace_parser),
    ("sim_params", sim_params),
    ("buffer_ops", buffer_ops),
    ("playback_ops", playback_ops),
    ("path_ops", path_ops),
    ("prediction_ops", prediction_ops),
];

/// A refusal is one line that names a field (keys from the file are named as written, whatever they hold): at
/// most a field and a message of `MAX_PART` characters each (and an ellipsis).
fn one_line(field: &str, text: &str) {
    assert!(!field.is_empty(), "the field is named: {text}");
    let most = 2 * (netcode_lab::words::MAX_PART + 1) + 8;
    assert!(!text.contains('\n') && text.chars().count() <= most, "one short line: {text}");
}

// ---------------------------------------------------------------------------------------------- trace_parser

pub fn trace_parser(data: &[u8]) {
    let trace = match Trace::from_json_bytes(data) {
        Ok(trace) => trace,
        Err(e) => return one_line(&e.field, &e.to_string()),
    };
    assert_eq!(trace.validate(), Ok(()), "an accepted trace is valid");
    let text = trace.to_json();
    let again = Trace::from_json(&text).unwrap_or_else(|e| panic!("the export reads back: {e}\n{text}"));
    assert_eq!(again.to_json(), text, "the same text, so the same bits (-0 stays -0)");
    assert_eq!(again, trace);
    let replayed = replay(&trace).expect("a valid trace replays");
    match &replayed.samples {
        ReplaySamples::Snapshots(samples) => {
            assert_eq!(samples.len(), trace.sample_at.len());
            for s in samples {
                assert_eq!(s.x.is_some(), s.y.is_some());
                assert!(s.x.is_none_or(f64::is_finite) && s.y.is_none_or(f64::is_finite), "{s:?}");
                assert!(s.render_time.is_none_or(f64::is_finite), "{s:?}");
                assert!(s.factor.is_none_or(|f| (0.0..=1.0).contains(&f)), "{s:?}");
            }
        }
        ReplaySamples::Paths(samples) => {
            assert_eq!(samples.len(), trace.sample_at.len());
            for s in samples {
                assert!(s.timed.x.is_none_or(f64::is_finite) && s.lerp.x.is_none_or(f64::is_finite), "{s:?}");
            }
        }
    }
    serde_json::from_str::<serde_json::Value>(&replayed.to_json()).expect("the replay prints JSON");
    if let TraceData::Snapshots { snapshots, .. } = &trace.data {
        let shown = imported::import(&trace).expect("a valid snapshots trace can be shown");
        assert_eq!(shown.recording.frames.len(), trace.sample_at.len());
        assert_eq!(shown.recording.snapshots.len(), snapshots.len());
        assert_eq!(shown.summary.counts.duplicates, shown.metrics.buffer.duplicates);
    }
}

// ------------------------------------------------------------------------------------------------ sim_params

/// The longest run the fuzzer simulates (a run of the full 120 s costs too many executions).
const FUZZ_DURATION: f64 = 2.0;

pub fn sim_params(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let params = match PlaygroundParams::from_json(text) {
        Ok(params) => params,
        Err(e) => return one_line(&e.field, &e.to_string()),
    };
    assert_eq!(params.validate(), Ok(()));
    let json = serde_json::to_string(&params).expect("parameters serialize");
    assert_eq!(PlaygroundParams::from_json(&json).as_ref(), Ok(&params), "written and read back: {json}");
    let mut short = params.sim;
    short.duration = short.duration.min(FUZZ_DURATION);
    if let Some(at) = short.events.stall_at {
        short.events.stall_at = Some(at.min(FUZZ_DURATION));
    }
    let sim = netcode_lab::sim::run(&short).expect("valid parameters run");
    let frames = &sim.recording().frames;
    assert!(frames.len() >= 2, "a run has frames");
    for row in (0..frames.len()).filter_map(|i| frames.row(i)) {
        for (x, y) in [(frame::X, frame::Y), (frame::TIMED_X, frame::TIMED_Y), (frame::PREDICTED_X, frame::PREDICTED_Y)]
        {
            assert_eq!(row[x].is_nan(), row[y].is_nan(), "x and y come together");
            assert!(row[x].is_nan() || row[x].is_finite(), "a shown position is finite: {}", row[x]);
        }
        assert!(!row[frame::RENDER_TIME].is_infinite());
    }
    let _ = sim.metrics();
}

// -------------------------------------------------------------------------------------------------- numbers

/// A number: mostly ordinary (`-2048..2048` in sixteenths), sometimes one that breaks naive code.
#[derive(Clone, Copy, Debug)]
pub struct Num(pub f64);

impl<'a> Arbitrary<'a> for Num {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let special = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0, 1e308, -1e308, 5e-324, f64::MAX, 1e12, 1e9];
        Ok(Num(match u.int_in_range(0..=15u8)? {
            0 => special[u.choose_index(special.len())?],
            1 => f64::from_bits(u.arbitrary()?),
            _ => f64::from(u.arbitrary::<i16>()?) / 16.0,
        }))
    }
}

/// A value in `lo..=hi` (mostly), or just outside it, or a special number.
fn knob(u: &mut Unstructured, lo: f64, hi: f64) -> Result<f64> {
    Ok(match u.int_in_range(0..=19u8)? {
        0 => Num::arbitrary(u)?.0,
        1 => lo - 1.0,
        2 => hi + 1.0,
        _ => lo + (hi - lo) * f64::from(u.arbitrary::<u16>()?) / f64::from(u16::MAX),
    })
}

fn pick<T: Copy>(u: &mut Unstructured, all: &[T]) -> Result<T> {
    Ok(all[u.choose_index(all.len())?])
}

// -------------------------------------------------------------------------------------------------- buffer_ops

#[derive(Arbitrary, Debug)]
enum BufferOp {
    /// A snapshot `tick` at about `100 + tick / 20` s (a wobble of `wobble / 64` s), arriving `transit / 32` s later.
    Insert {
        tick: u8,
        wobble: i8,
        odd: Option<Num>,
        x: Num,
        y: Num,
        vx: Num,
        entity: bool,
        generation: u8,
        teleport: bool,
        transit: i8,
    },
    Sample {
        at: i16,
        odd: Option<Num>,
    },
    Prune {
        at: i16,
    },
}

fn buffer_params(u: &mut Unstructured) -> Result<BufferParams> {
    let capacity = u.int_in_range(2..=12usize)?;
    Ok(BufferParams {
        capacity,
        min_snapshots: u.int_in_range(1..=capacity)?,
        gap_factor: knob(u, 1.0, 4.0)?.clamp(1.0, 100.0),
        interpolation: pick(u, &[Interpolation::Linear, Interpolation::Hermite])?,
        before_oldest: pick(u, &BeforeOldest::ALL)?,
    })
}

pub fn buffer_ops(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(params) = buffer_params(&mut u) else { return };
    let Ok(policy) = pick(&mut u, &UnderrunPolicy::ALL) else { return };
    let Ok(cap) = knob(&mut u, 0.0, 0.5) else { return };
    let Ok(ops) = Vec::<BufferOp>::arbitrary(&mut u) else { return };
    let Ok(mut buffer) = SnapshotBuffer::with_params(params.clone(), SEND_INTERVAL) else {
        assert!(params.validate(SEND_INTERVAL).is_err(), "valid buffer parameters are accepted");
        return;
    };
    let Ok(cap_rule) = pick(&mut u, &CapRule::ALL) else { return };
    let underrun = UnderrunParams { underrun_policy: policy, max_extrapolation: cap, cap_rule };
    let presenter = Presenter::for_send_interval(underrun, SEND_INTERVAL);
    let Ok(mut presenter) = presenter else {
        assert!(!(0.0..=1.0).contains(&cap), "a valid cap is accepted: {cap}");
        return;
    };
    let (mut primed, mut samples) = (false, 0u64);
    for op in ops {
        match op {
            BufferOp::Insert { tick, wobble, odd, x, y, vx, entity, generation, teleport, transit } => {
                let server_time = odd.map_or(100.0 + 0.05 * f64::from(tick) + f64::from(wobble) / 64.0, |n| n.0);
                let snapshot = Snapshot {
                    entity: u32::from(entity),
                    tick: u64::from(tick),
                    server_time,
                    pos: Vec2::new(x.0, y.0),
                    vel: Vec2::new(vx.0, 0.0),
                    generation: u32::from(generation % 3),
                    teleport,
                };
                buffer.insert(snapshot, server_time + f64::from(transit) / 32.0);
                primed |= buffer.len() >= params.min_snapshots;
            }
            BufferOp::Sample { at, odd } => {
                let t = odd.map_or(100.0 + f64::from(at) / 256.0, |n| n.0);
                let held: Vec<Snapshot> = buffer.snapshots().copied().collect();
                let sample = buffer.sample(t);
                samples += 1;
                let (status, left, right) = expected_sample(&held, t, primed, &params, SEND_INTERVAL);
                assert_eq!(sample.status, status, "at {t}: {sample:?}");
                if !matches!(status, SampleStatus::Priming | SampleStatus::ClockUncertain) {
                    assert_eq!((sample.left, sample.right), (left, right));
                }
                assert_eq!(sample.position.is_some(), status == SampleStatus::Ready);
                if let Some(p) = sample.position {
                    assert!(p.is_finite() && sample.factor.is_some_and(|f| (0.0..=1.0).contains(&f)), "{sample:?}");
                }
                let shown = presenter.show(&sample);
                assert_eq!(shown.position.is_none(), shown.mode == DisplayMode::Hidden);
                assert!(shown.position.is_none_or(|p| p.is_finite()), "{shown:?}");
            }
            BufferOp::Prune { at } => {
                let before = buffer.len();
                let pruned = buffer.prune(100.0 + f64::from(at) / 256.0);
                assert_eq!(buffer.len(), before - pruned);
                assert!(before == 0 || !buffer.is_empty(), "one anchor is kept");
            }
        }
        let held: Vec<Snapshot> = buffer.snapshots().copied().collect();
        assert!(held.len() <= params.capacity);
        assert!(held.windows(2).all(|w| w[0].tick < w[1].tick && w[0].server_time < w[1].server_time));
        assert!(held.iter().all(|s| s.validate().is_ok()));
        let m = buffer.metrics(103.0);
        assert_eq!(m.received, m.inserted + m.duplicates + m.conflicts + m.invalid + m.late);
        assert_eq!(m.inserted, m.buffered as u64 + m.evicted + m.pruned);
        assert_eq!(m.samples.total(), samples);
    }
}

// ------------------------------------------------------------------------------------------------ playback_ops

#[derive(Arbitrary, Debug)]
enum PlaybackOp {
    /// The next snapshot (ticks count up unless `back`), `transit / 64` s on the wire.
    Deliver {
        skip: u8,
        back: bool,
        transit: i8,
        x: Num,
        odd_time: Option<Num>,
    },
    Rtt {
        rtt: u8,
        odd: Option<Num>,
    },
    /// A frame `dt / 1024` s after the previous one (or an odd `dt`: a jump, a stall, NaN).
    Frame {
        dt: u8,
        odd: Option<Num>,
    },
}

pub fn playback_ops(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let build = |u: &mut Unstructured| -> Result<(PlaybackParams, Stream, Vec<PlaybackOp>)> {
        let buffer = buffer_params(u)?;
        let clock_kind = pick(u, &[ClockKind::Known, ClockKind::Reanchor, ClockKind::Smooth, ClockKind::Timescale])?;
        let render_delay = knob(u, 0.0, 0.3)?;
        let stream = Stream { send_interval: SEND_INTERVAL, clock_offset: knob(u, -5.0, 5.0)?, ..Stream::default() };
        let clock = ClockParams { clock: clock_kind, render_delay, ..ClockParams::default() };
        let underrun = UnderrunParams {
            underrun_policy: pick(u, &UnderrunPolicy::ALL)?,
            max_extrapolation: knob(u, 0.0, 0.3)?,
            cap_rule: pick(u, &CapRule::ALL)?,
        };
        Ok((PlaybackParams { buffer, clock, underrun }, stream, Vec::arbitrary(u)?))
    };
    let Ok((params, stream, ops)) = build(&mut u) else { return };
    if std::env::var_os("FUZZ_DEBUG").is_some() {
        eprintln!("{params:?}\n{stream:?}\n{ops:?}");
    }
    let valid = params.validate(&stream).is_ok();
    let Ok(mut playback) = RemotePlayback::new(params.clone(), &stream) else {
        assert!(!valid, "valid parameters are accepted");
        return;
    };
    let smooth = params.clock.clock == ClockKind::Smooth;
    let (mut tick, mut now, mut last_render): (u64, f64, Option<f64>) = (1000, 10.0, None);
    for op in ops {
        match op {
            PlaybackOp::Deliver { skip, back, transit, x, odd_time } => {
                tick = if back { tick.saturating_sub(u64::from(skip % 8)) } else { tick + u64::from(skip % 4) };
                let server_time = odd_time.map_or(tick as f64 * 0.05 - 40.0, |n| n.0);
                let snapshot = Snapshot::moving(tick, server_time, Vec2::new(x.0, 0.0), Vec2::new(20.0, 0.0));
                playback.on_snapshot(snapshot, now + f64::from(transit) / 64.0);
            }
            PlaybackOp::Rtt { rtt, odd } => {
                playback.on_rtt_sample(now, odd.map_or(f64::from(rtt) / 512.0, |n| n.0));
            }
            PlaybackOp::Frame { dt, odd } => {
                let ordinary = odd.is_none();
                let dt = odd.map_or(f64::from(dt) / 1024.0, |n| n.0);
                let next = now + dt;
                if next.is_finite() && next.abs() < 1e12 {
                    now = next;
                }
                let frame = playback.frame(now, if dt.is_finite() { dt.max(0.0) } else { 0.0 });
                let r = frame.reading.render_time;
                assert!(r.is_finite() || frame.reading.uncertain.is_some() || !now.is_finite(), "{frame:?}");
                let shown = &frame.displayed;
                assert_eq!(shown.position.is_none(), shown.mode == DisplayMode::Hidden);
                assert!(shown.position.is_none_or(|p| p.is_finite()), "{frame:?}");
                if smooth && ordinary && r.is_finite() && frame.reading.uncertain.is_none() {
                    if let Some(previous) = last_render {
                        assert!(r >= previous - 1e-9, "the smooth clock stepped back {previous} → {r}");
                    }
                    last_render = Some(r);
                }
                if !ordinary {
                    last_render = None;
                }
            }
        }
    }
    let _ = playback.metrics(now);
}

// ----------------------------------------------------------------------------------------------------- path_ops

#[derive(Arbitrary, Debug)]
enum PathOp {
    Ingest {
        arrival: i16,
        odd_arrival: Option<Num>,
        seq: Option<u8>,
        points: Vec<(Num, Num, Option<Num>)>,
        duration: Option<Num>,
    },
    Sample {
        at: i16,
        odd: Option<Num>,
    },
    Step {
        dt: u8,
        odd: Option<Num>,
    },
}

pub fn path_ops(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let build = |u: &mut Unstructured| -> Result<(PathParams, LerpParams, Vec<PathOp>)> {
        let path = PathParams {
            speed: knob(u, 1.0, 500.0)?,
            interpolation_delay: knob(u, 0.0, 0.3)?,
            stale_gap: knob(u, 0.0, 2.0)?,
            hard_snap_distance: knob(u, 0.0, 300.0)?,
            hard_snap_target: pick(u, &[SnapTarget::LatestPoint, SnapTarget::BatchStart])?,
            duplicates: pick(u, &[DuplicatePolicy::Remove, DuplicatePolicy::KeepTimedPauses])?,
        };
        let lerp = LerpParams { lerp_factor: knob(u, 0.01, 1.0)?, ..LerpParams::default() };
        Ok((path, lerp, Vec::arbitrary(u)?))
    };
    let Ok((path, lerp, ops)) = build(&mut u) else { return };
    let (Ok(mut player), Ok(mut chase)) = (PathPlayer::new(path), LerpChase::new(lerp)) else {
        assert!(path.validate().is_err() || lerp.validate().is_err(), "valid parameters are accepted");
        return;
    };
    let (mut ingested, mut accepted) = (0u64, Vec::new());
    for op in ops {
        match op {
            PathOp::Ingest { arrival, odd_arrival, seq, points, duration } => {
                let arrival = odd_arrival.map_or(f64::from(arrival) / 64.0, |n| n.0);
                let points =
                    points.iter().map(|&(x, y, o)| PathPoint { x: x.0, y: y.0, offset_ms: o.map(|o| o.0) }).collect();
                let batch = PathBatch { arrival, seq: seq.map(u64::from), points, duration_ms: duration.map(|d| d.0) };
                let outcome = player.ingest(&batch, arrival);
                chase.ingest(&batch);
                ingested += 1;
                if matches!(
                    outcome,
                    IngestOutcome::Started { .. } | IngestOutcome::Queued { .. } | IngestOutcome::HardSnapped { .. }
                ) {
                    if let Some(seq) = batch.seq {
                        accepted.push(seq);
                    }
                }
            }
            PathOp::Sample { at, odd } => {
                let frame = player.sample(odd.map_or(f64::from(at) / 64.0, |n| n.0));
                assert_eq!(frame.position.is_none(), frame.state == PlaybackState::Empty, "{frame:?}");
                assert!(frame.position.is_none_or(|p| p.is_finite()) && frame.velocity.is_finite(), "{frame:?}");
            }
            PathOp::Step { dt, odd } => {
                let position = chase.step(odd.map_or(f64::from(dt) / 256.0, |n| n.0));
                assert!(position.is_none_or(|p| p.is_finite()), "{position:?}");
            }
        }
    }
    assert!(accepted.windows(2).all(|w| w[0] < w[1]), "accepted seqs only move forward: {accepted:?}");
    assert_eq!(player.counters().batches, ingested);
}

// ----------------------------------------------------------------------------------------------- prediction_ops

#[derive(Arbitrary, Debug)]
enum PredictionOp {
    Frame { dt: u8, odd: Option<Num> },
    Keys { left: bool, right: bool, up: bool, down: bool },
    Script { events: Vec<(u8, u8)> },
    Server { running: bool },
    Teleport { x: Num, y: Num },
    Smoothing { mode: u8, half_life: Num },
}

pub fn prediction_ops(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let build = |u: &mut Unstructured| -> Result<(PredictParams, f64, Vec<PredictionOp>)> {
        let tick_rate = knob(u, 10.0, 120.0)?;
        let snapshot_rate = knob(u, 1.0, 60.0)?;
        let params = PredictParams {
            tick_rate,
            uplink_delay: knob(u, 0.0, 0.3)?,
            downlink_delay: knob(u, 0.0, 0.3)?,
            max_pending_inputs: u.int_in_range(1..=256)?,
            speed: knob(u, 0.0, 400.0)?,
            mismatch: u.arbitrary()?,
            ..PredictParams::default()
        };
        Ok((params, snapshot_rate, Vec::arbitrary(u)?))
    };
    let Ok((params, snapshot_rate, ops)) = build(&mut u) else { return };
    let Ok(mut session) = Session::new(params, snapshot_rate, InputScript::demo(5.0)) else {
        let rate_ok = (1.0..=240.0).contains(&snapshot_rate);
        assert!(params.validate().is_err() || !rate_ok, "valid parameters are accepted");
        return;
    };
    let size = params.arena_size;
    let inside = |p: Vec2| (0.0..=size).contains(&p.x) && (0.0..=size).contains(&p.y);
    let mut corrections = Vec::new();
    for op in ops {
        match op {
            PredictionOp::Frame { dt, odd } => {
                let dt = odd.map_or(f64::from(dt) / 2048.0, |n| n.0);
                let before = session.time();
                match session.step_frame(dt, &mut corrections) {
                    Err(e) => {
                        assert_eq!(e.field, "dt");
                        assert!(!(dt.is_finite() && dt >= 0.0), "a good frame time is accepted: {dt}");
                        assert_eq!(session.time(), before, "a refused frame changes nothing");
                    }
                    Ok(f) => {
                        assert!(f.rendered.is_finite() && f.base.is_finite(), "{f:?}");
                        assert!(inside(f.predicted) && inside(f.server), "{f:?}");
                        assert!(f.pending <= params.max_pending_inputs as usize);
                    }
                }
            }
            PredictionOp::Keys { left, right, up, down } => session.set_live_keys(Keys { left, right, up, down }),
            PredictionOp::Script { events } => {
                let events = events
                    .iter()
                    .map(|&(t, k)| KeyEvent {
                        time: f64::from(t) / 16.0,
                        keys: Keys { left: k & 1 != 0, right: k & 2 != 0, up: k & 4 != 0, down: k & 8 != 0 },
                    })
                    .collect();
                session.set_script(InputScript::new(events).expect("finite times ≥ 0"));
            }
            PredictionOp::Server { running } => session.set_server_running(running),
            PredictionOp::Teleport { x, y } => {
                let p = Vec2::new(x.0, y.0);
                if p.is_finite() {
                    session.teleport(Vec2::new(p.x.clamp(0.0, size), p.y.clamp(0.0, size)));
                }
            }
            PredictionOp::Smoothing { mode, half_life } => {
                let modes = SmoothingMode::ALL;
                let smoothing = SmoothingParams {
                    smoothing: modes[usize::from(mode) % modes.len()],
                    half_life: half_life.0,
                    ..session.params().smoothing
                };
                let valid = smoothing.validate().is_ok();
                assert_eq!(session.set_smoothing(smoothing).is_ok(), valid);
            }
        }
        for c in corrections.drain(..) {
            assert!(c.reconciliation.correction.is_finite(), "{c:?}");
        }
    }
}
