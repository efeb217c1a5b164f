//! The stream's messages: JSON text, one object per WebSocket message or WebRTC data-channel message, the same on
//! both channels. Specified here; `docs/stream-protocol.md` is the same text for client authors.
//!
//! ```text
//!  client → server   {"type": "start", "rate": 60, "seconds": 30}    first; rate 10..=128 Hz (whole), seconds 1..=300
//!                    {"type": "ping", "id": 7, "clientTime": 12.3}   at most 20 in any second; answered at once
//!                    {"type": "stop"}                                 ends the stream early
//!  server → client   {"type": "hello", "rate", "seconds", "sendInterval", "motion": {"script", "speed"}}
//!                    {"type": "snapshot", "tick", "serverTime", "x", "y", "vx", "vy", "generation"}
//!                    {"type": "pong", "id", "clientTime", "serverTime"}
//!                    {"type": "end", "sent"}                          after the last snapshot or a stop; then close
//!                    {"type": "error", "message"}                     a refused message, named; then close
//! ```
//! Server time is seconds since the stream's start on the server's monotonic clock. Snapshot `k` is due at server
//! time `k / rate` and carries that time (the moment it was meant for, not the moment the socket took it: the
//! server's lateness is its own measurement, not the network's); its position is
//! [`motion::truth`](crate::motion::truth) of the stream's motion at that time. Limits: a client message over
//! [`MAX_MESSAGE_BYTES`], one that is not one of the three, a start after the start, a ping before it, or the
//! 21st ping within one second is refused by name and ends the stream.

use crate::motion::{self, MotionScript};
use serde::{Deserialize, Serialize};

/// Send rates a client may ask for, Hz.
pub const RATES: std::ops::RangeInclusive<u32> = 10..=128;
/// Stream lengths a client may ask for, seconds.
pub const SECONDS: std::ops::RangeInclusive<u32> = 1..=300;
/// The largest client message, bytes (the three messages are a few dozen).
pub const MAX_MESSAGE_BYTES: usize = 1024;
/// Pings answered in any one second of server time; the next is refused.
pub const MAX_PINGS_PER_SECOND: usize = 20;

/// What the stream's entity does: the simulator's default motion.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Motion {
    pub script: MotionScript,
    /// Units per second.
    pub speed: f64,
}

impl Default for Motion {
    fn default() -> Self {
        Motion { script: MotionScript::Turns, speed: 120.0 }
    }
}

/// A message from the client.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase", rename_all_fields = "camelCase", deny_unknown_fields)]
pub enum ClientMessage {
    Start { rate: u32, seconds: u32 },
    Ping { id: u64, client_time: f64 },
    Stop,
}

/// A message from the server.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase", rename_all_fields = "camelCase", deny_unknown_fields)]
pub enum ServerMessage {
    Hello { rate: u32, seconds: u32, send_interval: f64, motion: Motion, server_time: f64 },
    Snapshot { tick: u64, server_time: f64, x: f64, y: f64, vx: f64, vy: f64, generation: u32 },
    Pong { id: u64, client_time: f64, server_time: f64 },
    End { sent: u64 },
    Error { message: String },
}

impl ServerMessage {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("server messages are plain data")
    }

    /// A server message from its JSON text (the recorder's side).
    pub fn from_json(text: &str) -> Result<ServerMessage, String> {
        serde_json::from_str(text).map_err(|e| format!("not a stream message ({e})"))
    }
}

/// Reads one client message: size first, then JSON, then the ranges.
pub fn parse_client(text: &str) -> Result<ClientMessage, String> {
    if text.len() > MAX_MESSAGE_BYTES {
        return Err(format!("message: {} bytes, more than {MAX_MESSAGE_BYTES}", text.len()));
    }
    let message: ClientMessage = serde_json::from_str(text).map_err(|e| format!("message: {e}"))?;
    match message {
        ClientMessage::Start { rate, .. } if !RATES.contains(&rate) => {
            Err(format!("`rate`: {rate} is outside {}..={} Hz", RATES.start(), RATES.end()))
        }
        ClientMessage::Start { seconds, .. } if !SECONDS.contains(&seconds) => {
            Err(format!("`seconds`: {seconds} is outside {}..={}", SECONDS.start(), SECONDS.end()))
        }
        ClientMessage::Ping { client_time, .. } if !client_time.is_finite() => {
            Err("`clientTime`: not a finite number".to_string())
        }
        ok => Ok(ok),
    }
}

/// The server's side of one stream. `now` is always seconds since the connection was accepted, on the server's
/// monotonic clock; the stream's server time starts at the `start` message.
#[derive(Clone, Debug)]
pub struct Session {
    motion: Motion,
    /// Set by `start`: (rate, seconds, connection time of server time 0).
    started: Option<(u32, u32, f64)>,
    sent: u64,
    stopped: bool,
    /// Connection times of the pings of the last second.
    pings: std::collections::VecDeque<f64>,
}

/// What to do after a client message.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// Send these and go on.
    Send(Vec<ServerMessage>),
    /// Send these, then close.
    Close(Vec<ServerMessage>),
}

impl Default for Session {
    fn default() -> Self {
        Session::new(Motion::default())
    }
}

impl Session {
    pub fn new(motion: Motion) -> Self {
        Session { motion, started: None, sent: 0, stopped: false, pings: Default::default() }
    }

    /// Snapshots sent so far.
    pub fn sent(&self) -> u64 {
        self.sent
    }

    /// The reply to the client's message `text`, received at `now`. A refused message is an `error` and the end.
    pub fn on_message(&mut self, text: &str, now: f64) -> Reply {
        match parse_client(text).and_then(|m| self.accept(m, now)) {
            Ok(reply) => reply,
            Err(message) => Reply::Close(vec![ServerMessage::Error { message }]),
        }
    }

    fn accept(&mut self, message: ClientMessage, now: f64) -> Result<Reply, String> {
        match (message, self.started) {
            (ClientMessage::Start { rate, seconds }, None) => {
                self.started = Some((rate, seconds, now));
                let send_interval = 1.0 / f64::from(rate);
                let hello =
                    ServerMessage::Hello { rate, seconds, send_interval, motion: self.motion, server_time: 0.0 };
                Ok(Reply::Send(vec![hello]))
            }
            (ClientMessage::Start { .. }, Some(_)) => Err("`start`: the stream has already started".to_string()),
            (ClientMessage::Ping { .. }, None) => Err("`ping`: send `start` first".to_string()),
            (ClientMessage::Ping { id, client_time }, Some((_, _, zero))) => {
                while self.pings.front().is_some_and(|&t| t <= now - 1.0) {
                    self.pings.pop_front();
                }
                if self.pings.len() >= MAX_PINGS_PER_SECOND {
                    return Err(format!("`ping`: more than {MAX_PINGS_PER_SECOND} in one second"));
                }
                self.pings.push_back(now);
                Ok(Reply::Send(vec![ServerMessage::Pong { id, client_time, server_time: now - zero }]))
            }
            (ClientMessage::Stop, _) => {
                self.stopped = true;
                Ok(Reply::Close(vec![ServerMessage::End { sent: self.sent }]))
            }
        }
    }

    /// When the next snapshot is due (connection time), or `None` before `start` and after the last one.
    pub fn next_send(&self) -> Option<f64> {
        let (rate, seconds, zero) = self.started?;
        let last = u64::from(rate) * u64::from(seconds); // ticks 0..last
        (!self.stopped && self.sent < last).then(|| zero + self.sent as f64 / f64::from(rate))
    }

    /// Every message due at `now`: the snapshots whose time has come (several, if the server fell behind), and
    /// `end` after the last one. `true` with them when the stream is over and the connection should close.
    pub fn due(&mut self, now: f64) -> (Vec<ServerMessage>, bool) {
        let mut out = Vec::new();
        let Some((rate, seconds, _)) = self.started else { return (out, false) };
        while let Some(at) = self.next_send() {
            if at > now {
                return (out, false);
            }
            let tick = self.sent;
            let server_time = tick as f64 / f64::from(rate);
            let truth = motion::truth(self.motion.script, self.motion.speed, server_time);
            out.push(ServerMessage::Snapshot {
                tick,
                server_time,
                x: truth.pos.x,
                y: truth.pos.y,
                vx: truth.vel.x,
                vy: truth.vel.y,
                generation: truth.generation,
            });
            self.sent += 1;
        }
        if !self.stopped && self.sent == u64::from(rate) * u64::from(seconds) {
            self.stopped = true;
            out.push(ServerMessage::End { sent: self.sent });
            return (out, true);
        }
        (out, self.stopped)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sent(reply: Reply) -> Vec<ServerMessage> {
        match reply {
            Reply::Send(m) => m,
            Reply::Close(m) => panic!("closed: {m:?}"),
        }
    }

    fn refused(reply: Reply) -> String {
        match reply {
            Reply::Close(m) => match &m[..] {
                [ServerMessage::Error { message }] => message.clone(),
                other => panic!("{other:?}"),
            },
            Reply::Send(m) => panic!("accepted: {m:?}"),
        }
    }

    /// 10 Hz for 1 s, started 0.5 s after the connection: ten snapshots due at 0.5, 0.6, … 1.4, then `end`. Each
    /// carries tick / 10 as its server time and the turns loop's truth there (the loop starts at (−110, −60)
    /// heading +x at 120 units/s, so snapshot 3 is at x = −110 + 120 · 0.3 = −74).
    #[test]
    fn a_stream_sends_every_tick_on_time_then_ends() {
        let mut s = Session::default();
        assert_eq!(s.next_send(), None);
        let hello = sent(s.on_message(r#"{"type":"start","rate":10,"seconds":1}"#, 0.5));
        assert!(
            matches!(hello[..], [ServerMessage::Hello { rate: 10, seconds: 1, send_interval, .. }] if send_interval == 0.1)
        );
        assert_eq!(s.next_send(), Some(0.5));
        let (first, over) = s.due(0.5);
        assert_eq!((first.len(), over), (1, false));
        let (burst, over) = s.due(0.85); // 0.6, 0.7, 0.8 due: a late server catches up at once
        assert_eq!((burst.len(), over), (3, false));
        match &burst[2] {
            ServerMessage::Snapshot { tick: 3, server_time, x, y, vx, .. } => {
                assert!((server_time - 0.3).abs() < 1e-12);
                assert!((x - (-74.0)).abs() < 1e-9 && (y - (-60.0)).abs() < 1e-9 && (vx - 120.0).abs() < 1e-9);
            }
            other => panic!("{other:?}"),
        }
        let (rest, over) = s.due(10.0);
        assert_eq!(rest.len(), 7, "ticks 4..=9 and end");
        assert!(over);
        assert_eq!(rest.last(), Some(&ServerMessage::End { sent: 10 }));
        assert_eq!(s.next_send(), None);
    }

    /// A pong answers at once with the server time since `start`; the 21st ping inside one second is refused, one
    /// a second later is not.
    #[test]
    fn pings_are_answered_and_limited() {
        let mut s = Session::default();
        assert_eq!(
            refused(s.on_message(r#"{"type":"ping","id":1,"clientTime":0}"#, 0.0)),
            "`ping`: send `start` first"
        );
        let mut s = Session::default();
        sent(s.on_message(r#"{"type":"start","rate":60,"seconds":10}"#, 1.0));
        let pong = sent(s.on_message(r#"{"type":"ping","id":7,"clientTime":12.5}"#, 1.25));
        assert_eq!(pong, [ServerMessage::Pong { id: 7, client_time: 12.5, server_time: 0.25 }]);
        for i in 0..19 {
            sent(s.on_message(&format!(r#"{{"type":"ping","id":{i},"clientTime":0}}"#), 1.3 + i as f64 * 0.01));
        }
        let flood = s.on_message(r#"{"type":"ping","id":99,"clientTime":0}"#, 1.6);
        assert_eq!(refused(flood), "`ping`: more than 20 in one second");
        let mut s = Session::default();
        sent(s.on_message(r#"{"type":"start","rate":60,"seconds":10}"#, 0.0));
        for i in 0..20 {
            sent(s.on_message(&format!(r#"{{"type":"ping","id":{i},"clientTime":0}}"#), 0.1));
        }
        sent(s.on_message(r#"{"type":"ping","id":20,"clientTime":0}"#, 1.2));
    }

    #[test]
    fn bad_messages_are_refused_by_name() {
        let cases = [
            (r#"{"type":"start","rate":500,"seconds":10}"#, "`rate`: 500 is outside 10..=128 Hz"),
            (r#"{"type":"start","rate":60,"seconds":0}"#, "`seconds`: 0 is outside 1..=300"),
            (
                r#"{"type":"start","rate":60.5,"seconds":10}"#,
                "message: invalid type: floating point `60.5`, expected u32",
            ),
            (
                r#"{"type":"hello"}"#,
                "message: unknown variant `hello`, expected one of `start`, `ping`, `stop` at line 1 column 15",
            ),
            ("garbage", "message: expected value at line 1 column 1"),
            (
                r#"{"type":"start","rate":60,"seconds":10,"x":1}"#,
                "message: unknown field `x`, expected `rate` or `seconds`",
            ),
        ];
        for (text, message) in cases {
            assert_eq!(refused(Session::default().on_message(text, 0.0)), message, "{text}");
        }
        let long = format!(r#"{{"type":"stop","pad":"{}"}}"#, "x".repeat(2000));
        assert_eq!(refused(Session::default().on_message(&long, 0.0)), "message: 2024 bytes, more than 1024");
        let mut s = Session::default();
        sent(s.on_message(r#"{"type":"start","rate":60,"seconds":10}"#, 0.0));
        assert_eq!(
            refused(s.on_message(r#"{"type":"start","rate":60,"seconds":10}"#, 0.1)),
            "`start`: the stream has already started"
        );
    }

    /// `stop` ends the stream with the count sent so far; nothing is due after it.
    #[test]
    fn stop_ends_early() {
        let mut s = Session::default();
        sent(s.on_message(r#"{"type":"start","rate":20,"seconds":10}"#, 0.0));
        let (m, _) = s.due(0.26); // ticks at 0, 0.05, …, 0.25: six
        assert_eq!(m.len(), 6);
        assert_eq!(s.on_message(r#"{"type":"stop"}"#, 0.27), Reply::Close(vec![ServerMessage::End { sent: 6 }]));
        assert_eq!(s.next_send(), None);
        assert_eq!(s.due(5.0), (vec![], true));
    }
}
