//! The local player's pipeline: your own inputs predicted at once, sent up the uplink, answered by snapshots
//! down the downlink, reconciled and smoothed (seed 003). The prediction session does the work; this module
//! puts it on the run's lossy links and copies each frame into the frame timeline.

use crate::link::Link;
use crate::param::ParamError;
use crate::predict::input::{InputPacket, InputScript, Keys};
use crate::predict::server::PlayerSnapshot;
use crate::predict::session::{CorrectionRecord, Session};
use crate::run::FrameTick;
use crate::sim::params::SimParams;
use crate::sim::record::{correction, frame, Recording};
use crate::sim::remote::{put, put_xy, Row};

const STREAM_INPUTS: u64 = 5;
const STREAM_LOCAL_SNAPSHOTS: u64 = 6;

pub type LocalSession = Session<Link<InputPacket>, Link<PlayerSnapshot>>;

/// The local pipeline of one run.
pub struct LocalPipeline {
    session: LocalSession,
    corrections: Vec<CorrectionRecord>,
}

impl LocalPipeline {
    /// A session driven by `script` (the demo script when `None`).
    pub fn new(params: &SimParams, script: Option<InputScript>) -> Result<Self, ParamError> {
        let uplink = Link::new(params.network.uplink, params.seed, STREAM_INPUTS);
        let downlink = Link::new(params.network.downlink, params.seed, STREAM_LOCAL_SNAPSHOTS);
        let script = script.unwrap_or_else(|| InputScript::demo(params.duration + 1.0));
        let session = Session::with_channels(params.local, params.scenario.send_rate, script, uplink, downlink)
            .map_err(|e| e.within("local"))?;
        Ok(LocalPipeline { session, corrections: Vec::new() })
    }

    pub fn session(&self) -> &LocalSession {
        &self.session
    }

    /// Switches to live keys (the page's WASD/arrows) from now on.
    pub fn set_live_keys(&mut self, keys: Keys) {
        self.session.set_live_keys(keys);
    }

    pub fn step(&mut self, tick: &FrameTick, row: &mut Row, rec: &mut Recording) {
        let Ok(record) = self.session.step_frame(tick.dt, &mut self.corrections) else { return };
        put_xy(row, frame::PREDICTED_X, Some(record.predicted));
        put_xy(row, frame::AUTH_X, Some(record.server));
        put_xy(row, frame::ACK_X, record.last_snapshot);
        put_xy(row, frame::RENDERED_X, Some(record.rendered));
        put(row, frame::OFFSET, record.rendered.distance(record.base));
        put(row, frame::PENDING, record.pending as f64);
        let modes = [record.modes.half_life, record.modes.snap, record.modes.first_version, record.modes.linear];
        for (i, p) in modes.into_iter().enumerate() {
            put_xy(row, frame::LOCAL_HALF_LIFE_X + 2 * i, Some(p));
        }
        for c in self.corrections.drain(..) {
            let r = &c.reconciliation;
            let mut out = [0.0; correction::STRIDE];
            out[correction::LOCAL] = tick.local;
            out[correction::SIZE] = r.correction.length();
            out[correction::OFFSET_ADDED] = c.offset_added.length();
            out[correction::RESET] = f64::from(u8::from(c.reset));
            out[correction::BEFORE_X] = r.before.x;
            out[correction::BEFORE_Y] = r.before.y;
            out[correction::AFTER_X] = r.after.x;
            out[correction::AFTER_Y] = r.after.y;
            rec.corrections.push_row(&out);
        }
    }
}
