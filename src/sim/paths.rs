//! Seed 001's pipeline: the server cuts its true path into moveList batches, the downlink delivers them,
//! and the two client models play the same batches side by side.
//!
//! ```text
//!  server   every batchInterval: the points it walked through (every sampleInterval, with offsetMs for V2)
//!  downlink Link<PathBatch> (its own random stream): latency, jitter, loss, reordering, duplicates
//!  client   per frame: ingest what arrived → timed player (queue, seq, hard snap) and lerp chase (retarget)
//! ```

use crate::channel::{Channel, Delivery};
use crate::geom::Vec2;
use crate::link::{Link, PacketFate};
use crate::motion::truth;
use crate::param::ParamError;
use crate::path::lerp_chase::LerpChase;
use crate::path::player::{IngestOutcome, PathPlayer, PlaybackState};
use crate::path::truth::{batches_from_truth, BatchPlan, TruthPath};
use crate::path::PathBatch;
use crate::run::{FrameTick, TimeMap};
use crate::sim::params::SimParams;
use crate::sim::record::{batch, frame, Recording};
use crate::sim::remote::{put, put_xy, Row};

const STREAM_BATCHES: u64 = 4;

/// The path pipeline of one run.
pub struct PathPipeline {
    map: TimeMap,
    /// Batches in sending order, with their send time in true local time; `arrival` is set on delivery.
    outbox: Vec<(f64, PathBatch)>,
    next: usize,
    link: Link<usize>,
    player: PathPlayer,
    lerp: LerpChase,
    deliveries: Vec<Delivery<usize>>,
    previous: Option<(Vec2, Option<Vec2>)>,
}

impl PathPipeline {
    pub fn new(params: &SimParams, map: TimeMap) -> Result<Self, ParamError> {
        let p = &params.paths;
        let scenario = params.scenario;
        let start = map.server_of_local(0.0);
        let end = map.server_of_local(params.duration) + p.batch_interval;
        let truth_path = TruthPath::sampled(
            |ts| truth(scenario.motion, scenario.speed, ts).pos,
            start,
            end,
            p.sample_interval.min(0.05),
        )
        .map_err(|e| e.within("paths"))?;
        let plan = BatchPlan {
            batch_interval: p.batch_interval,
            sample_interval: p.sample_interval,
            with_offsets: p.with_offsets,
            latency: 0.0,
            first_seq: 1,
        };
        let batches = batches_from_truth(&truth_path, &plan).map_err(|e| e.within("paths"))?;
        let outbox = batches.into_iter().map(|b| (map.local_of_server(b.arrival), b)).collect();
        Ok(PathPipeline {
            map,
            outbox,
            next: 0,
            link: Link::new(params.network.downlink, params.seed, STREAM_BATCHES),
            player: PathPlayer::new(p.player).map_err(|e| e.within("paths.player"))?,
            lerp: LerpChase::new(p.lerp).map_err(|e| e.within("paths.lerp"))?,
            deliveries: Vec::new(),
            previous: None,
        })
    }

    /// The batches sent so far, in sending order, each with its send time (true local time).
    pub fn sent(&self) -> &[(f64, PathBatch)] {
        &self.outbox[..self.next]
    }

    pub fn player(&self) -> &PathPlayer {
        &self.player
    }

    pub fn lerp(&self) -> &LerpChase {
        &self.lerp
    }

    pub fn step(&mut self, tick: &FrameTick, row: &mut Row, rec: &mut Recording) {
        self.send(tick.local, rec);
        self.deliveries.clear();
        self.link.receive(tick.local, &mut self.deliveries);
        for delivery in std::mem::take(&mut self.deliveries) {
            let index = delivery.item;
            let arrival = self.map.reading(delivery.arrival);
            // The batch as received: the one sent, stamped with its arrival (in place and back, rather than a
            // copy of its points per delivery).
            let sent_arrival = std::mem::replace(&mut self.outbox[index].1.arrival, arrival);
            let batch = &self.outbox[index].1;
            let outcome = self.player.ingest(batch, arrival);
            self.lerp.ingest(batch);
            self.outbox[index].1.arrival = sent_arrival;
            let row_index = (index as u64).saturating_sub(rec.batches.dropped()) as usize;
            if let Some(r) = rec.batches.row_mut(row_index) {
                if r[batch::OUTCOME].is_nan() {
                    r[batch::OUTCOME] = outcome_code(&outcome);
                }
            }
        }
        let played = self.player.sample(tick.reading);
        let lerp = self.lerp.step(tick.dt);
        let (timed_speed, lerp_speed) = match (self.previous, played.position) {
            (Some((prev_timed, prev_lerp)), Some(now)) if tick.dt > 0.0 => (
                now.distance(prev_timed) / tick.dt,
                lerp.zip(prev_lerp).map_or(f64::NAN, |(a, b)| a.distance(b) / tick.dt),
            ),
            _ => (f64::NAN, f64::NAN),
        };
        if let Some(now) = played.position {
            self.previous = Some((now, lerp));
        }
        put_xy(row, frame::TIMED_X, played.position);
        put_xy(row, frame::LERP_X, lerp);
        put(row, frame::TIMED_SPEED, timed_speed);
        put(row, frame::LERP_SPEED, lerp_speed);
        put(row, frame::PATH_QUEUE, played.buffered as f64);
        put(row, frame::PATH_MOVING, f64::from(u8::from(played.moving && played.state == PlaybackState::Playing)));
    }

    fn send(&mut self, until_local: f64, rec: &mut Recording) {
        while let Some((sent, batch)) = self.outbox.get(self.next).filter(|(sent, _)| *sent <= until_local) {
            let (sent, seq, points) = (*sent, batch.seq, batch.points.len());
            let fate = self.link.send_with_fate(sent, self.next);
            let arrival = match fate {
                PacketFate::Lost => f64::NAN,
                PacketFate::Delivered { arrival, .. } => self.map.reading(arrival),
            };
            rec.batches.push_row(&[sent, arrival, seq.map_or(f64::NAN, |s| s as f64), points as f64, f64::NAN]);
            self.next += 1;
        }
    }
}

fn outcome_code(outcome: &IngestOutcome) -> f64 {
    match outcome {
        IngestOutcome::Started { .. } => 0.0,
        IngestOutcome::Queued { .. } => 1.0,
        IngestOutcome::HardSnapped { .. } => 2.0,
        IngestOutcome::DroppedStale { .. } => 3.0,
        IngestOutcome::Rejected { .. } => 4.0,
    }
}
