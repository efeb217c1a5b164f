//! One remote entity played back: jitter buffer + render clock + underrun policy, driven frame by frame.
//!
//! ```text
//!  per delivery     on_snapshot(snapshot, arrival) ─► buffer.insert ─► InsertOutcome
//!                                                      └ inserted? ─► clock.on_snapshot(serverTime, arrival)
//!  per RTT sample   on_rtt_sample(now, rtt)        ─► clock (filtered, logged)
//!  per frame        frame(now, dt):
//!                     1. clock.render_time(now, dt, buffer.view())  ─► ClockReading (render time, delay, uncertain?)
//!                     2. buffer.sample(render time)                 ─► Sample   (ClockUncertain if the clock says so;
//!                                                                              an Underrun's reason names the delay)
//!                     3. buffer.prune(render time)                     what the render time has passed, one anchor kept
//!                                                                     (by the index the sample found: prune_sampled)
//!                     4. presenter.show(sample)                     ─► Displayed (interpolated / extrapolated / held /
//!                                                                                  snapped / hidden)
//! ```
//! This is the order the simulator follows; `RemotePlayback` does it in one place (`step`) so that a test, the
//! simulator and the page cannot disagree about it. A frame comes explained (`frame`: the whole [`Frame`], every
//! reason in words: traces, the step-through) or drawn only (`frame_lean`, `frame_shown`: no words, nothing built
//! that nobody reads: the simulator's run, the engines' references). Each part stays usable on its own.

use crate::buffer::{Between, BufferParams, BufferView, InsertOutcome, Reason, Sample, SampleStatus, SnapshotBuffer};
use crate::buffer_metrics::BufferMetrics;
use crate::clock::{ClockMetrics, ClockParams, ClockReading, RenderClock, Uncertain, Verdict};
use crate::display::{Displayed, Presenter};
use crate::extrapolate::UnderrunParams;
use crate::param::ParamError;
use crate::run::{FrameTick, Receiver};
use crate::snapshot::Snapshot;
use crate::stream::Stream;
use serde::{Deserialize, Serialize};

/// Everything one playback needs, grouped as `{"buffer": {…}, "clock": {…}, "underrun": {…}}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, crate::param::Params)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct PlaybackParams {
    pub buffer: BufferParams,
    pub clock: ClockParams,
    pub underrun: UnderrunParams,
}

impl PlaybackParams {
    /// Checks every group for a playback of `stream` (the facts the buffer and the clock read).
    pub fn validate(&self, stream: &Stream) -> Result<(), ParamError> {
        self.buffer.validate(stream.send_interval).map_err(|e| e.within("buffer"))?;
        self.clock.validate(stream).map_err(|e| e.within("clock"))?;
        self.underrun.validate().map_err(|e| e.within("underrun"))
    }
}

/// What one frame produced.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Frame {
    /// Local time of the frame.
    pub now: f64,
    pub reading: ClockReading,
    pub sample: Sample,
    pub displayed: Displayed,
    /// Snapshots pruned after sampling.
    pub pruned: usize,
}

/// What [`RemotePlayback::frame_shown`] gives of a frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameShown {
    /// The server time rendered (the clock's reading).
    pub render_time: f64,
    pub status: SampleStatus,
    pub displayed: Displayed,
}

/// Both metric groups.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlaybackMetrics {
    pub buffer: BufferMetrics,
    pub clock: ClockMetrics,
}

/// One entity's playback.
#[derive(Clone, Debug)]
pub struct RemotePlayback {
    buffer: SnapshotBuffer,
    clock: RenderClock,
    presenter: Presenter,
}

impl RemotePlayback {
    /// The playback of `stream` with checked parameters; the error names the first bad field.
    pub fn new(params: PlaybackParams, stream: &Stream) -> Result<Self, ParamError> {
        params.validate(stream)?;
        Ok(RemotePlayback {
            buffer: SnapshotBuffer::with_params(params.buffer, stream.send_interval)?,
            clock: RenderClock::new(params.clock, stream)?,
            presenter: Presenter::for_send_interval(params.underrun, stream.send_interval)?,
        })
    }

    /// A playback whose clock keeps no per-frame metrics ([`RenderClock::unmonitored`]): the same frames, for a
    /// caller that never reads [`RemotePlayback::metrics`]' clock part (the engines' references).
    pub fn unmonitored(params: PlaybackParams, stream: &Stream) -> Result<Self, ParamError> {
        let mut playback = RemotePlayback::new(params, stream)?;
        playback.clock = playback.clock.unmonitored();
        Ok(playback)
    }

    /// A delivery: `snapshot` reached the client at local time `arrival`.
    pub fn on_snapshot(&mut self, snapshot: Snapshot, arrival: f64) -> InsertOutcome {
        let outcome = self.buffer.insert(snapshot, arrival);
        if outcome.is_inserted() {
            self.clock.on_snapshot(snapshot.server_time, arrival);
        }
        outcome
    }

    /// A round-trip time measured at local time `now`.
    pub fn on_rtt_sample(&mut self, now: f64, rtt: f64) -> Verdict {
        self.clock.on_rtt_sample(now, rtt)
    }

    /// The frame at local time `now`, `dt` seconds after the previous one, explained: the whole [`Frame`], the
    /// sample's reason in words (an Underrun's names the delay in force).
    pub fn frame(&mut self, now: f64, dt: f64) -> Frame {
        self.step::<Explained, _>(now, dt, |_, reading, sample, displayed, pruned| {
            let mut sample = sample.clone();
            // Seed 002 "缓冲欠载 … 必须报告 … 当前插值延迟": the buffer does not know the delay, the playback does.
            if let Some(Reason::PastNewest { delay, .. }) = &mut sample.reason {
                *delay = Some(reading.delay);
            }
            Frame { now, reading: *reading, sample, displayed: *displayed, pruned }
        })
    }

    /// The same frame (the same steps, the same state after it) for a caller that only draws it: its parts are lent
    /// to `finish` — the playback after the frame (to read its buffer and clock), the clock's reading, the sample as
    /// `SnapshotBuffer::sample_drawn` gives it (no words), what is displayed — not returned. In wasm a 280-byte
    /// sample moved into a returned struct, or into a closure's argument, is one `memory.copy` per frame, a call
    /// out of V8's compiled code into C. `sim::remote` fills the frame's row in `finish`.
    #[inline(always)]
    pub fn frame_lean<R>(
        &mut self,
        now: f64,
        dt: f64,
        finish: impl FnOnce(&Self, &ClockReading, &Result<Between, Sample>, &Displayed) -> R,
    ) -> R {
        self.step::<Drawn, _>(now, dt, |playback, reading, sample, displayed, _| {
            finish(playback, reading, sample, displayed)
        })
    }

    /// What a strategy that just draws reads of a frame: the render time, the sample's status, what is displayed.
    pub fn frame_shown(&mut self, now: f64, dt: f64) -> FrameShown {
        self.frame_lean(now, dt, |_, reading, sample, displayed| {
            let status = sample.as_ref().map_or_else(|s| s.status, |_| SampleStatus::Ready);
            FrameShown { render_time: reading.render_time, status, displayed: *displayed }
        })
    }

    /// One frame's four steps, in the order of the module doc: the clock's reading, the buffer sampled at its
    /// render time (or told the clock is uncertain), pruned, the sample presented; the parts and the count pruned
    /// lent to `finish`. `S` says how the buffer is sampled: explained or drawn only.
    #[inline(always)]
    fn step<S: Sampling, R>(
        &mut self,
        now: f64,
        dt: f64,
        finish: impl FnOnce(&Self, &ClockReading, &S::Sampled, &Displayed, usize) -> R,
    ) -> R {
        // A clock that reads no view is not handed a fresh one (`RenderClock::reads_view`).
        let view = if self.clock.reads_view() { self.buffer.view() } else { BufferView::default() };
        let reading = self.clock.render_time(now, dt, &view);
        let render_time = reading.render_time;
        let sample = match reading.uncertain {
            Some(why) => S::uncertain(&mut self.buffer, render_time, why),
            None => S::sample(&mut self.buffer, render_time),
        };
        let pruned = if reading.uncertain.is_none() { self.buffer.prune_sampled(render_time) } else { 0 };
        let displayed = S::show(&mut self.presenter, &sample);
        finish(self, &reading, &sample, &displayed, pruned)
    }

    pub fn buffer(&self) -> &SnapshotBuffer {
        &self.buffer
    }

    pub fn clock(&self) -> &RenderClock {
        &self.clock
    }

    pub fn presenter(&self) -> &Presenter {
        &self.presenter
    }

    pub fn metrics(&self, now: f64) -> PlaybackMetrics {
        PlaybackMetrics { buffer: self.buffer.metrics(now), clock: self.clock.metrics() }
    }
}

/// How a frame samples the buffer: explained (a whole [`Sample`], every reason in words) or drawn only.
trait Sampling {
    type Sampled;
    fn sample(buffer: &mut SnapshotBuffer, render_time: f64) -> Self::Sampled;
    fn uncertain(buffer: &mut SnapshotBuffer, render_time: f64, why: Uncertain) -> Self::Sampled;
    fn show(presenter: &mut Presenter, sampled: &Self::Sampled) -> Displayed;
}

/// Every reason in words: what a trace's replay and the step-through print.
struct Explained;

impl Sampling for Explained {
    type Sampled = Sample;

    fn sample(buffer: &mut SnapshotBuffer, render_time: f64) -> Sample {
        buffer.sample(render_time)
    }

    fn uncertain(buffer: &mut SnapshotBuffer, render_time: f64, why: Uncertain) -> Sample {
        buffer.sample_uncertain(render_time, Some(why.to_string()))
    }

    fn show(presenter: &mut Presenter, sample: &Sample) -> Displayed {
        presenter.show(sample)
    }
}

/// No words: a Ready sample as the buffer's small [`Between`], the rest without their reasons.
struct Drawn;

impl Sampling for Drawn {
    type Sampled = Result<Between, Sample>;

    #[inline(always)]
    fn sample(buffer: &mut SnapshotBuffer, render_time: f64) -> Self::Sampled {
        buffer.sample_drawn(render_time)
    }

    fn uncertain(buffer: &mut SnapshotBuffer, render_time: f64, _: Uncertain) -> Self::Sampled {
        Err(buffer.sample_uncertain(render_time, None))
    }

    #[inline(always)]
    fn show(presenter: &mut Presenter, sampled: &Self::Sampled) -> Displayed {
        match sampled {
            Ok(between) => presenter.show_interpolated(between.position),
            Err(sample) => presenter.show(sample),
        }
    }
}

/// A run's log played to the articles' pipeline: each frame at the client's clock reading, the whole [`Frame`].
impl Receiver for RemotePlayback {
    type Shown = Frame;

    fn snapshot(&mut self, snapshot: &Snapshot, arrival: f64) {
        self.on_snapshot(*snapshot, arrival);
    }

    fn rtt(&mut self, now: f64, rtt: f64) {
        self.on_rtt_sample(now, rtt);
    }

    fn frame(&mut self, tick: &FrameTick) -> Frame {
        RemotePlayback::frame(self, tick.reading, tick.dt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::{AdaptiveMode, ClockKind};
    use crate::display::DisplayMode;
    use crate::geom::Vec2;

    #[test]
    fn bad_groups_and_bad_facts_of_the_stream_are_named() {
        let stream = Stream::default();
        let mut p = PlaybackParams::default();
        p.underrun.max_extrapolation = f64::NAN;
        assert_eq!(RemotePlayback::new(p, &stream).unwrap_err().field, "underrun.maxExtrapolation");
        let p = PlaybackParams::default();
        assert_eq!(p.validate(&Stream { send_interval: 0.1, ..stream }), Ok(()));
        assert_eq!(p.validate(&Stream { send_interval: 0.0, ..stream }).unwrap_err().field, "buffer.sendInterval");
        assert_eq!(p.validate(&Stream { clock_offset: 1e7, ..stream }).unwrap_err().field, "clock.clockOffset");
    }

    /// An unmonitored playback (the engines' references) shows, bit for bit, what a monitored one shows, for every
    /// clock with a fixed and an adaptive delay: the clocks that read no buffer view are handed a default one
    /// (`RenderClock::reads_view`). A clock that reads the view but is said not to (drop the timescale clock or the
    /// adaptive delay from `reads_view`) turns it red: the depth it steers by, or the jitter, is then missing.
    #[test]
    fn an_unmonitored_playback_shows_what_a_monitored_one_shows() {
        for clock in ClockKind::ALL {
            for adaptive in [None, Some(AdaptiveMode::Jitter), Some(AdaptiveMode::Seed004)] {
                let mut p = PlaybackParams::default();
                p.clock.clock = clock;
                if let Some(mode) = adaptive {
                    p.clock.adaptive_delay.enabled = true;
                    p.clock.adaptive_delay.mode = mode;
                }
                let (mut watched, mut lean) = (
                    RemotePlayback::new(p.clone(), &Stream::default()).unwrap(),
                    RemotePlayback::unmonitored(p, &Stream::default()).unwrap(),
                );
                assert!(watched.clock().reads_view());
                let mut state = 0x2545_f491_4f6c_dd1du64;
                let mut jitter = || {
                    state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    (state >> 11) as f64 / (1u64 << 53) as f64 * 0.06
                };
                let mut tick = 0u64;
                for frame in 1..=900 {
                    let now = frame as f64 / 60.0;
                    while (tick as f64) * 0.05 + 0.04 < now {
                        let arrival = tick as f64 * 0.05 + 0.03 + jitter();
                        if tick % 9 != 4 {
                            let s = Snapshot::moving(tick, tick as f64 * 0.05, Vec2::new(tick as f64, 0.0), Vec2::ZERO);
                            watched.on_snapshot(s, arrival);
                            lean.on_snapshot(s, arrival);
                        }
                        if tick % 5 == 0 {
                            let rtt = 0.08 + jitter();
                            watched.on_rtt_sample(arrival, rtt);
                            lean.on_rtt_sample(arrival, rtt);
                        }
                        tick += 1;
                    }
                    let (a, b) = (watched.frame(now, 1.0 / 60.0), lean.frame_shown(now, 1.0 / 60.0));
                    let what = format!("{clock:?} {adaptive:?} frame {frame}");
                    assert_eq!(a.reading.render_time.to_bits(), b.render_time.to_bits(), "{what}");
                    assert_eq!((a.sample.status, a.displayed), (b.status, b.displayed), "{what}");
                }
            }
        }
    }

    #[test]
    fn an_uncertain_clock_gives_clock_uncertain_and_holds() {
        let mut p = PlaybackParams::default();
        p.clock.clock = ClockKind::Smooth;
        let mut playback = RemotePlayback::new(p, &Stream::default()).unwrap();
        playback.on_snapshot(Snapshot::moving(1, 5.0, Vec2::new(3.0, 0.0), Vec2::ZERO), 1.0);
        let frame = playback.frame(1.01, 0.01);
        assert_eq!(frame.sample.status.name(), "clockUncertain");
        assert!(frame.reading.uncertain.unwrap().to_string().contains("RTT"));
        assert_eq!(frame.displayed.mode, DisplayMode::Hidden, "nothing shown yet, no anchor on an uncertain clock");
    }
}
