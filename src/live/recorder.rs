//! The client's side of a recording: the stream's messages, each with the local time it arrived, become a
//! `netcode-lab/trace@1` trace of kind `snapshots` — the same trace the page's record worker builds.
//!
//! ```text
//!  hello ─────────► rate, motion                       ping id k sent at local s ─┐
//!  snapshot ──────► {tick, serverTime, arrival = local, x, y, vx, vy, generation}  │
//!  pong id k ─────► rtt = local − s at local ◄────────────────────────────────────┘
//!                   offset = serverTime − (s + local) / 2   (kept from the pong with the smallest rtt)
//!  end {sent} ────► how many the server sent: the snapshots that never came are the losses
//! ```
//! Local time is seconds on the client's monotonic clock since the recording began. The trace's `clockOffset`
//! is the offset of the fastest round trip (the tightest bound on it: the true offset is within ±rtt/2 of it);
//! without any pong it is the smallest `serverTime − arrival`, which takes the fastest snapshot as instant.
//! Its `sampleAt` takes a frame every 1/60 s from the first arrival to the last; its `sendInterval` is 1/rate.
//!
//! The live counts (the page's progress bar shows the same): **arrived** every snapshot message (copies too);
//! **lost** the ticks below the newest one that have not arrived (after `end`: the ticks sent that never came);
//! **late** arrivals whose one-way delay (`arrival + offset − serverTime`) is more than [`LATE_BEYOND_FASTEST`]
//! above the fastest so far — the ones a 100 ms render delay would not have waited for; **out of order** arrivals
//! of a tick older than one already arrived.

use super::protocol::{ClientMessage, Motion, ServerMessage};
use crate::trace::{RttSample, Trace, TraceData, TraceParams, TraceSnapshot};
use serde::Serialize;
use std::collections::{BTreeSet, HashMap};

/// How far above the fastest one-way delay an arrival counts as late, seconds.
pub const LATE_BEYOND_FASTEST: f64 = 0.1;
/// The frame rate of a recording's `sampleAt`.
pub const SAMPLE_RATE: f64 = 60.0;

/// The live counts of a recording.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Counts {
    pub arrived: u64,
    pub lost: u64,
    pub late: u64,
    pub out_of_order: u64,
    pub duplicates: u64,
    /// The latest round trip, seconds.
    pub rtt: Option<f64>,
    /// What the server said it sent (`end`), once it has.
    pub sent: Option<u64>,
}

/// A recording in progress.
#[derive(Clone, Debug, Default)]
pub struct Recorder {
    hello: Option<(u32, u32, Motion)>,
    snapshots: Vec<TraceSnapshot>,
    rtt: Vec<RttSample>,
    ticks: BTreeSet<u64>,
    newest: Option<u64>,
    pings: HashMap<u64, f64>,
    next_ping: u64,
    /// (rtt, offset) of the fastest round trip.
    fastest_trip: Option<(f64, f64)>,
    /// The smallest `arrival − serverTime` seen.
    fastest_delay: Option<f64>,
    counts: Counts,
    error: Option<String>,
}

impl Recorder {
    pub fn new() -> Self {
        Recorder::default()
    }

    /// The message that starts the stream.
    pub fn start(rate: u32, seconds: u32) -> String {
        serde_json::to_string(&ClientMessage::Start { rate, seconds }).expect("plain data")
    }

    /// A ping sent at local time `local`: its text.
    pub fn ping(&mut self, local: f64) -> String {
        let id = self.next_ping;
        self.next_ping += 1;
        self.pings.insert(id, local);
        serde_json::to_string(&ClientMessage::Ping { id, client_time: local }).expect("plain data")
    }

    pub fn counts(&self) -> Counts {
        self.counts
    }

    /// The send rate the server agreed to, once it has.
    pub fn rate(&self) -> Option<u32> {
        self.hello.map(|(rate, _, _)| rate)
    }

    /// Whether the server has said `end` or `error`.
    pub fn finished(&self) -> bool {
        self.counts.sent.is_some() || self.error.is_some()
    }

    /// The server's error, if it sent one.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// One message from the server, received at local time `local`. A message that is not the stream's is an
    /// error (the recording keeps what it has).
    pub fn on_message(&mut self, text: &str, local: f64) -> Result<(), String> {
        match ServerMessage::from_json(text)? {
            ServerMessage::Hello { rate, seconds, motion, .. } => self.hello = Some((rate, seconds, motion)),
            ServerMessage::Snapshot { tick, server_time, x, y, vx, vy, generation } => {
                let s = TraceSnapshot {
                    tick,
                    server_time,
                    arrival: local,
                    x,
                    y,
                    vx,
                    vy,
                    generation: (generation != 0).then_some(generation),
                    teleport: None,
                };
                self.arrive(s);
            }
            ServerMessage::Pong { id, server_time, .. } => {
                let sent = self.pings.remove(&id).ok_or_else(|| format!("pong {id}: no such ping"))?;
                let rtt = local - sent;
                self.rtt.push(RttSample { at: local, rtt });
                self.counts.rtt = Some(rtt);
                let offset = server_time - (sent + local) / 2.0;
                if self.fastest_trip.is_none_or(|(best, _)| rtt < best) {
                    self.fastest_trip = Some((rtt, offset));
                }
            }
            ServerMessage::End { sent } => {
                self.counts.sent = Some(sent);
                self.counts.lost = sent.saturating_sub(self.ticks.len() as u64);
            }
            ServerMessage::Error { message } => self.error = Some(message),
        }
        Ok(())
    }

    fn arrive(&mut self, s: TraceSnapshot) {
        self.counts.arrived += 1;
        if !self.ticks.insert(s.tick) {
            self.counts.duplicates += 1;
        }
        if self.newest.is_some_and(|n| s.tick < n) {
            self.counts.out_of_order += 1;
        }
        self.newest = self.newest.max(Some(s.tick));
        let delay = s.arrival - s.server_time;
        self.fastest_delay = Some(self.fastest_delay.map_or(delay, |d| d.min(delay)));
        if self.fastest_delay.is_some_and(|fastest| delay > fastest + LATE_BEYOND_FASTEST) {
            self.counts.late += 1;
        }
        if self.counts.sent.is_none() {
            let newest = self.newest.unwrap_or(0);
            self.counts.lost = (newest + 1).saturating_sub(self.ticks.len() as u64);
        }
        self.snapshots.push(s);
    }

    /// The trace of what arrived. `channel` names the way it came (`websocket`, `webrtc`); `partial` says why it
    /// was cut short, if it was. `None` when nothing arrived.
    pub fn finish(&self, channel: &str, partial: Option<&str>) -> Option<Trace> {
        let (rate, seconds, _) = self.hello?;
        let first = self.snapshots.iter().map(|s| s.arrival).reduce(f64::min)?;
        let last = self.snapshots.iter().map(|s| s.arrival).fold(first, f64::max);
        let offset = match self.fastest_trip {
            Some((_, offset)) => offset,
            None => -self.fastest_delay.unwrap_or(0.0),
        };
        let frames = ((last - first) * SAMPLE_RATE).floor() as usize;
        let sample_at = (0..=frames).map(|i| first + i as f64 / SAMPLE_RATE).collect();
        let mut note = format!("recorded from netcode-lab serve over {channel} at {rate} Hz for {seconds} s");
        if let Some(why) = partial {
            note.push_str(&format!("; partial: {why}"));
        }
        let params = TraceParams {
            clock_offset: Some(offset),
            send_interval: Some(1.0 / f64::from(rate)),
            ..Default::default()
        };
        let data = TraceData::Snapshots { snapshots: self.snapshots.clone(), rtt: self.rtt.clone() };
        Some(Trace { note: Some(note), params, data, sample_at })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::protocol::Session;

    /// A 10 Hz, 1 s stream through a made-up network: every snapshot takes 30 ms, tick 4 takes 250 ms (late and
    /// overtaken by 5, 6 and 7: out of order), tick 8 is lost. A ping at local 0.02 comes back at 0.08 stamped
    /// server 0.05: rtt 0.06, offset 0.05 − (0.02 + 0.08)/2 = 0. Counts, derived: arrived 9, lost 1 (tick 8), late
    /// 1 (tick 4: 0.25 > 0.03 + 0.1), out of order 1 (tick 4 after 7).
    #[test]
    fn a_stream_through_a_made_up_network_becomes_a_trace() {
        let mut server = Session::default();
        let mut rec = Recorder::new();
        let hello = match server.on_message(&Recorder::start(10, 1), 0.0) {
            crate::live::protocol::Reply::Send(m) => m,
            other => panic!("{other:?}"),
        };
        rec.on_message(&hello[0].to_json(), 0.01).unwrap();
        let ping = rec.ping(0.02);
        let pong = match server.on_message(&ping, 0.05) {
            crate::live::protocol::Reply::Send(m) => m[0].to_json(),
            other => panic!("{other:?}"),
        };
        rec.on_message(&pong, 0.08).unwrap();
        let (all, over) = server.due(1.0);
        assert!(over);
        let mut deliveries: Vec<(f64, String)> = Vec::new();
        for m in &all {
            match m {
                ServerMessage::Snapshot { tick, server_time, .. } if *tick == 8 => assert!(*server_time > 0.0),
                ServerMessage::Snapshot { tick, server_time, .. } => {
                    let delay = if *tick == 4 { 0.25 } else { 0.03 };
                    deliveries.push((server_time + delay, m.to_json()));
                }
                ServerMessage::End { .. } => deliveries.push((1.2, m.to_json())),
                other => panic!("{other:?}"),
            }
        }
        deliveries.sort_by(|a, b| a.0.total_cmp(&b.0));
        for (at, text) in &deliveries {
            rec.on_message(text, *at).unwrap();
        }
        let c = rec.counts();
        assert_eq!((c.arrived, c.lost, c.late, c.out_of_order, c.duplicates), (9, 1, 1, 1, 0));
        assert_eq!(c.sent, Some(10));
        assert!((c.rtt.unwrap() - 0.06).abs() < 1e-12);
        let trace = rec.finish("websocket", None).unwrap();
        assert!(trace.params.clock_offset.unwrap().abs() < 1e-12);
        assert_eq!(trace.params.send_interval, Some(0.1));
        // First arrival 0.03, last 0.93 (tick 9): 0.9 s at 60 fps → 55 frames (54 intervals + the first).
        assert_eq!(trace.sample_at.len(), 55);
        let text = trace.to_json();
        let back = Trace::from_json(&text).expect("the recording is a valid trace");
        assert_eq!(back, trace);
        assert_eq!(back.note.as_deref(), Some("recorded from netcode-lab serve over websocket at 10 Hz for 1 s"));
    }

    #[test]
    fn nothing_arrived_is_no_trace_and_a_stray_pong_is_named() {
        let mut rec = Recorder::new();
        assert_eq!(rec.finish("websocket", None), None);
        assert_eq!(
            rec.on_message(r#"{"type":"pong","id":3,"clientTime":0,"serverTime":1}"#, 0.5),
            Err("pong 3: no such ping".to_string())
        );
        assert!(rec.on_message("{}", 0.5).unwrap_err().starts_with("not a stream message"));
    }
}
