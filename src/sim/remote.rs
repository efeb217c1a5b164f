//! The remote entity's pipeline: server snapshots → downlink → jitter buffer → render clock → underrun policy.
//!
//! ```text
//!  server    tick k at server time k / tickRate; every `ticksPerSnapshot` ticks a snapshot is copied and sent
//!  downlink  Link<Snapshot>: latency, jitter, loss, reordering, duplicates (arrivals in true local time)
//!  pings     client ─ping─► server ─pong─► client every PING_INTERVAL (200 ms, seed 004 §4.2's "每200毫秒采样一次
//!            RTT"): RTT samples for the render clock; the RTT is what these echoes measure, on the same lossy,
//!            jittery links as the snapshots (a `linkStep` event changes all three from its time on)
//!  client    per frame: deliveries → RemotePlayback (buffer, clock, presenter) → what is drawn;
//!            the same Sample is also shown through all five underrun policies for comparison
//! ```
//! The client stamps arrivals and asks for render times with its own clock reading (which a kick moves).

use crate::buffer::{InsertOutcome, SampleStatus};
use crate::channel::{Channel, Delivery};
use crate::display::{DisplayMode, Displayed, Presenter};
use crate::extrapolate::{UnderrunParams, UnderrunPolicy};
use crate::geom::Vec2;
use crate::link::{Link, PacketFate};
use crate::motion::{respawned_between, truth};
use crate::param::ParamError;
use crate::playback::RemotePlayback;
use crate::run::{ClientInput, FrameTick, TimeMap, TruthTrack};
use crate::sim::params::SimParams;
use crate::sim::record::{frame, snapshot, Recording};
use crate::snapshot::Snapshot;

/// Seconds between two pings.
pub const PING_INTERVAL: f64 = 0.2;

/// Random streams of this pipeline (see `rng.rs`: one stream per purpose).
const STREAM_SNAPSHOTS: u64 = 1;
const STREAM_PINGS: u64 = 2;
const STREAM_PONGS: u64 = 3;

/// The remote pipeline of one run, stepped frame by frame.
pub struct RemotePipeline {
    params: SimParams,
    map: TimeMap,
    playback: RemotePlayback,
    presenters: Vec<Presenter>,
    downlink: Link<Snapshot>,
    pings: Link<f64>,
    pongs: Link<f64>,
    first_tick: u64,
    /// Ticks between two snapshots (`ScenarioParams::ticks_per_snapshot`, worked out once: it rounds).
    every: u64,
    next_tick: u64,
    next_ping: f64,
    last_sent_time: Option<f64>,
    deliveries: Vec<Delivery<Snapshot>>,
    echoes: Vec<Delivery<f64>>,
    last_displayed: Option<Vec2>,
    /// When set, every client input is logged here (see [`ClientInput`]) for the engines' strategies to replay.
    /// Off by default: the log grows with every frame, so only a bounded run switches it on ([`super::Simulation`],
    /// at most 120 s; the delay sweep) — a live session (examples/soak.rs) keeps none and stays flat in memory.
    pub log: Option<Vec<ClientInput>>,
    /// Names this pipeline's inputs: a new pipeline (a re-run of the remote side) gets a new id.
    id: u64,
}

/// The next pipeline's id (ids only need to differ between pipelines of one process).
static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

pub(crate) fn code<T: PartialEq>(all: &[T], value: &T) -> f64 {
    all.iter().position(|v| v == value).map_or(f64::NAN, |i| i as f64)
}

impl RemotePipeline {
    pub fn new(params: &SimParams, map: TimeMap) -> Result<Self, ParamError> {
        let (remote, stream) = (&params.remote, params.stream());
        let playback = RemotePlayback::new(remote.clone(), &stream)?;
        let presenters = UnderrunPolicy::ALL
            .iter()
            .map(|&underrun_policy| {
                let params = UnderrunParams { underrun_policy, ..remote.underrun.clone() };
                Presenter::for_send_interval(params, stream.send_interval)
            })
            .collect::<Result<_, _>>()?;
        let net = params.network;
        let tick_rate = params.scenario.tick_rate;
        let every = params.scenario.ticks_per_snapshot();
        let first_tick = ((map.server_of_local(0.0) * tick_rate).ceil().max(0.0) as u64).div_ceil(every) * every;
        Ok(RemotePipeline {
            params: params.clone(),
            map,
            playback,
            presenters,
            downlink: Link::new(net.downlink, params.seed, STREAM_SNAPSHOTS),
            pings: Link::new(net.uplink, params.seed, STREAM_PINGS),
            pongs: Link::new(net.downlink, params.seed, STREAM_PONGS),
            first_tick,
            every,
            next_tick: first_tick,
            next_ping: 0.0,
            last_sent_time: None,
            deliveries: Vec::new(),
            echoes: Vec::new(),
            last_displayed: None,
            log: None,
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        })
    }

    pub fn playback(&self) -> &RemotePlayback {
        &self.playback
    }

    pub fn downlink(&self) -> &Link<Snapshot> {
        &self.downlink
    }

    /// Every input the client received so far (empty when logging was switched off), and the id that names
    /// this pipeline's inputs.
    pub fn inputs(&self) -> (u64, &[ClientInput]) {
        (self.id, self.log.as_deref().unwrap_or(&[]))
    }

    /// Runs the server, the network and the client up to `tick`, and fills the remote columns of `row`.
    pub fn step(&mut self, tick: &FrameTick, truth_table: &TruthTrack, row: &mut Row, rec: &mut Recording) {
        self.send_snapshots(tick.local, rec);
        self.exchange_pings(tick.local);
        self.receive_snapshots(tick.local, rec);
        if let Some(log) = &mut self.log {
            log.push(ClientInput::Frame(*tick));
        }
        // The frame's parts are read where the playback made them (`frame_lean` lends them), not moved out (in
        // wasm a 280-byte `memory.copy` per frame).
        let presenters = &mut self.presenters;
        let displayed_at = self.playback.frame_lean(tick.reading, tick.dt, |playback, reading, sample, displayed| {
            let server_now = tick.server_now;
            let truth_now = truth_table.at(server_now);
            let newest = playback.buffer().view().newest_server_time;
            let depth = newest.map(|n| n - reading.render_time);
            let clock = playback.clock();
            let target = truth_table.at(reading.render_time);
            let (status, generation) = match sample {
                Ok(between) => (SampleStatus::Ready, Some(between.generation)),
                Err(sample) => (sample.status, sample.generation),
            };
            put(row, frame::SERVER_NOW, server_now);
            put(row, frame::RENDER_TIME, reading.render_time);
            put(row, frame::STATUS, code(&SampleStatus::ALL, &status));
            put(row, frame::MODE, code(&DisplayMode::ALL, &displayed.mode));
            put_xy(row, frame::X, displayed.position);
            put(row, frame::AHEAD, displayed.ahead.unwrap_or(f64::NAN));
            put_xy(row, frame::TRUTH_X, Some(truth_now));
            put_xy(row, frame::TARGET_X, reading.render_time.is_finite().then_some(target));
            put(row, frame::DEPTH, depth.unwrap_or(f64::NAN));
            put(row, frame::BUFFERED, playback.buffer().len() as f64);
            put(row, frame::CLOCK_ERROR, reading.render_time + reading.delay - server_now);
            put(row, frame::DELAY, reading.delay);
            put(row, frame::NEWEST, newest.unwrap_or(f64::NAN));
            put(row, frame::GENERATION, generation.map_or(f64::NAN, f64::from));
            put(row, frame::DELAY_TARGET, clock.delay().target());
            put(row, frame::ADAPTIVE_RTT, clock.delay().smoothed_rtt().unwrap_or(f64::NAN));
            put(row, frame::DELAY_ERROR, clock.render_delay_error().unwrap_or(f64::NAN));
            put(row, frame::OFFSET_UNCERTAINTY, clock.offset_uncertainty().unwrap_or(f64::NAN));
            for (i, presenter) in presenters.iter_mut().enumerate() {
                let shown: Displayed = match sample {
                    Ok(between) => presenter.show_interpolated(between.position),
                    Err(sample) => presenter.show(sample),
                };
                put_xy(row, frame::HOLD_X + 2 * i, shown.position);
            }
            displayed.position
        });
        self.last_displayed = displayed_at;
    }

    /// The server copies a snapshot every `ticksPerSnapshot` ticks whose send time has come.
    fn send_snapshots(&mut self, until_local: f64, rec: &mut Recording) {
        let scenario = self.params.scenario;
        loop {
            let server_time = self.next_tick as f64 / scenario.tick_rate;
            let sent = self.map.local_of_server(server_time);
            if sent > until_local {
                break;
            }
            let state = truth(scenario.motion, scenario.speed, server_time);
            let teleport = self.last_sent_time.is_some_and(|t| respawned_between(scenario.motion, t, server_time));
            let snap = Snapshot {
                entity: 0,
                tick: self.next_tick,
                server_time,
                pos: state.pos,
                vel: state.vel,
                generation: state.generation,
                teleport,
            };
            self.downlink.set_params(self.params.events.link_at(self.params.network.downlink, sent));
            let fate = self.downlink.send_with_fate(sent, snap);
            let (arrival, duplicate, held_back) = match fate {
                PacketFate::Lost => (f64::NAN, f64::NAN, 0.0),
                PacketFate::Delivered { arrival, duplicate, held_back } => {
                    (arrival, duplicate.unwrap_or(f64::NAN), f64::from(u8::from(held_back)))
                }
            };
            let mut row = [f64::NAN; snapshot::STRIDE];
            row[snapshot::TICK] = self.next_tick as f64;
            row[snapshot::SERVER_TIME] = server_time;
            row[snapshot::SENT] = sent;
            row[snapshot::ARRIVAL] = self.map.reading(arrival);
            row[snapshot::DUPLICATE_ARRIVAL] = self.map.reading(duplicate);
            row[snapshot::HELD_BACK] = held_back;
            row[snapshot::OUT_OF_ORDER] = 0.0;
            row[snapshot::X] = snap.pos.x;
            row[snapshot::Y] = snap.pos.y;
            row[snapshot::VX] = snap.vel.x;
            row[snapshot::VY] = snap.vel.y;
            row[snapshot::GENERATION] = f64::from(snap.generation);
            row[snapshot::TELEPORT] = f64::from(u8::from(teleport));
            rec.snapshots.push_row(&row);
            self.last_sent_time = Some(server_time);
            self.next_tick += self.every;
        }
    }

    /// Pings go up every `PING_INTERVAL`; the server echoes each at once; each echo is an RTT sample.
    fn exchange_pings(&mut self, until_local: f64) {
        let (events, net) = (&self.params.events, &self.params.network);
        while self.next_ping <= until_local {
            self.pings.set_params(events.link_at(net.uplink, self.next_ping));
            self.pings.send(self.next_ping, self.map.reading(self.next_ping));
            self.next_ping += PING_INTERVAL;
        }
        self.echoes.clear();
        self.pings.receive(until_local, &mut self.echoes);
        for echo in self.echoes.drain(..) {
            self.pongs.set_params(events.link_at(net.downlink, echo.arrival));
            self.pongs.send(echo.arrival, echo.item);
        }
        self.pongs.receive(until_local, &mut self.echoes);
        for pong in self.echoes.drain(..) {
            let now = self.map.reading(pong.arrival);
            self.playback.on_rtt_sample(now, now - pong.item);
            if let Some(log) = &mut self.log {
                log.push(ClientInput::Rtt(now, now - pong.item));
            }
        }
    }

    fn receive_snapshots(&mut self, until_local: f64, rec: &mut Recording) {
        self.deliveries.clear();
        self.downlink.receive(until_local, &mut self.deliveries);
        let every = self.every;
        for delivery in self.deliveries.drain(..) {
            let arrival = self.map.reading(delivery.arrival);
            let outcome = self.playback.on_snapshot(delivery.item, arrival);
            if let Some(log) = &mut self.log {
                log.push(ClientInput::Snapshot(delivery.item, arrival));
            }
            let seq = (delivery.item.tick - self.first_tick) / every;
            let index = seq.saturating_sub(rec.snapshots.dropped()) as usize;
            let Some(row) = rec.snapshots.row_mut(index) else { continue };
            if row[snapshot::OUTCOME].is_nan() {
                row[snapshot::OUTCOME] = outcome_code(&outcome);
                if let InsertOutcome::Inserted { out_of_order: true, .. } = outcome {
                    row[snapshot::OUT_OF_ORDER] = 1.0;
                }
            } else {
                row[snapshot::DUPLICATE_OUTCOME] = outcome_code(&outcome);
            }
        }
    }
}

fn outcome_code(outcome: &InsertOutcome) -> f64 {
    match outcome {
        InsertOutcome::Inserted { .. } => 0.0,
        InsertOutcome::Duplicate { .. } => 1.0,
        InsertOutcome::Conflict { .. } => 2.0,
        InsertOutcome::Invalid(_) => 3.0,
        InsertOutcome::Late { .. } => 4.0,
        InsertOutcome::LateDuplicate { .. } => 5.0,
    }
}

/// One frame's row (a fixed-size array: the columns are constants, so writing one needs no bounds check).
pub type Row = [f64; frame::STRIDE];

#[inline(always)]
pub(crate) fn put(row: &mut Row, column: usize, value: f64) {
    row[column] = value;
}

#[inline(always)]
pub(crate) fn put_xy(row: &mut Row, x_column: usize, position: Option<Vec2>) {
    let p = position.unwrap_or(Vec2::new(f64::NAN, f64::NAN));
    row[x_column] = p.x;
    row[x_column + 1] = p.y;
}
