//! Inputs: one per physics step, numbered, a zero input when idle (seed 003 §"第一步").
//!
//! ```text
//!  keys held      ──────►►►►►►────────◄◄◄◄─────
//!  physics steps  │ 0 │ 1 │ 2 │ 3 │ 4 │ 5 │ 6 │ …
//!  input ids        0   1   2   3   4   5   6      one id per step, idle steps included
//!  directions       →   →   →   0   0   ←   ←      (zero input keeps the step sequence whole)
//! ```
//!
//! Where the keys come from is an [`InputSource`]: a scripted timeline of key states (a deterministic run,
//! a test, a replay) or the live keys the page hands over before each frame.

use crate::geom::Vec2;
use crate::param::{ParamError, Params};
use crate::tree::read::{list, object};
use crate::tree::{Read, Tree, TreeError};
use serde::de::Error as _;
use serde::{Deserialize, Serialize};

/// Which movement keys are held. Opposite keys cancel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, Params)]
#[serde(default, deny_unknown_fields)]
#[params(no_field_consts)]
pub struct Keys {
    pub left: bool,
    pub right: bool,
    pub up: bool,
    pub down: bool,
}

impl Keys {
    /// No key held: the zero input.
    pub const IDLE: Keys = Keys { left: false, right: false, up: false, down: false };
    pub const LEFT: Keys = Keys { left: true, right: false, up: false, down: false };
    pub const RIGHT: Keys = Keys { left: false, right: true, up: false, down: false };
    pub const UP: Keys = Keys { left: false, right: false, up: true, down: false };
    pub const DOWN: Keys = Keys { left: false, right: false, up: false, down: true };

    /// The unit direction the keys ask for, or zero. `up` is −y (screen coordinates); diagonals are
    /// normalised so moving diagonally is not faster.
    pub fn direction(self) -> Vec2 {
        let axis = |neg: bool, pos: bool| f64::from(i8::from(pos) - i8::from(neg));
        let (x, y) = (axis(self.left, self.right), axis(self.up, self.down));
        if x != 0.0 && y != 0.0 {
            Vec2::new(x, y) * std::f64::consts::FRAC_1_SQRT_2
        } else {
            Vec2::new(x, y)
        }
    }

    pub fn is_idle(self) -> bool {
        self.direction() == Vec2::ZERO
    }
}

/// One numbered input. `epoch` names the server session it belongs to (seed 003's last section: after a
/// server restart, ids start again and messages of the old session are filtered out).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Input {
    pub id: u64,
    pub epoch: u32,
    pub keys: Keys,
}

/// The most earlier inputs one uplink packet repeats (`inputRedundancy` ≤ this).
pub const MAX_REDUNDANCY: usize = 3;

/// One uplink packet: the newest input first, then up to [`MAX_REDUNDANCY`] earlier unacknowledged ones,
/// newest to oldest. One packet, one fate on a lossy link — the repeats ride along or are lost with it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InputPacket {
    inputs: [Input; 1 + MAX_REDUNDANCY],
    len: u8,
}

impl InputPacket {
    /// A packet carrying `input` alone.
    pub fn single(input: Input) -> Self {
        InputPacket { inputs: [input; 1 + MAX_REDUNDANCY], len: 1 }
    }

    /// A packet carrying `input` and then `earlier` (newest first; beyond [`MAX_REDUNDANCY`] are left out).
    pub fn with_repeats(input: Input, earlier: impl IntoIterator<Item = Input>) -> Self {
        let mut packet = InputPacket::single(input);
        for repeat in earlier.into_iter().take(MAX_REDUNDANCY) {
            packet.inputs[packet.len as usize] = repeat;
            packet.len += 1;
        }
        packet
    }

    /// The inputs carried, the newest first.
    pub fn inputs(&self) -> &[Input] {
        &self.inputs[..self.len as usize]
    }

    /// The input this packet was sent for.
    pub fn newest(&self) -> Input {
        self.inputs[0]
    }
}

/// From `time` on (seconds), `keys` are held — until the next event.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeyEvent {
    pub time: f64,
    pub keys: Keys,
}

/// A timeline of key states: before the first event nothing is held.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "Vec<KeyEvent>", into = "Vec<KeyEvent>")]
pub struct InputScript {
    events: Vec<KeyEvent>,
}

impl InputScript {
    /// Checks every time (finite, ≥ 0; the error names `script[i].time`) and sorts the events by time.
    /// Events with equal times keep their order, so the later one wins.
    pub fn new(mut events: Vec<KeyEvent>) -> Result<Self, ParamError> {
        if let Some((i, e)) = events.iter().enumerate().find(|(_, e)| !e.time.is_finite() || e.time < 0.0) {
            return Err(ParamError::new(
                format!("script[{i}].time"),
                format!("{} is not a finite time ≥ 0 s", crate::words::num(e.time)),
            ));
        }
        events.sort_by(|a, b| a.time.total_cmp(&b.time));
        Ok(InputScript { events })
    }

    /// Nothing held, ever.
    pub fn idle() -> Self {
        InputScript::default()
    }

    /// A loop the page can show without a keyboard: right 1 s, rest 0.5 s, left 1 s, down 0.5 s, up 0.5 s,
    /// rest 0.5 s — repeated to cover `duration` seconds (a non-finite or negative duration gives an idle
    /// script; at most one hour). Reversals and stops are where a lagging renderer shows (seed 003
    /// §"第一版把正常移动也一起平滑了").
    pub fn demo(duration: f64) -> Self {
        let duration = if duration.is_finite() { crate::geom::clamp(duration, 0.0, 3600.0) } else { 0.0 };
        const PATTERN: [(f64, Keys); 6] = [
            (1.0, Keys::RIGHT),
            (0.5, Keys::IDLE),
            (1.0, Keys::LEFT),
            (0.5, Keys::DOWN),
            (0.5, Keys::UP),
            (0.5, Keys::IDLE),
        ];
        let mut events = Vec::new();
        let mut t = 0.0;
        'outer: loop {
            for (length, keys) in PATTERN {
                if t >= duration {
                    break 'outer;
                }
                events.push(KeyEvent { time: t, keys });
                t += length;
            }
        }
        InputScript { events }
    }

    /// The keys held at `time` seconds.
    pub fn keys_at(&self, time: f64) -> Keys {
        let held = self.events.partition_point(|e| e.time <= time);
        held.checked_sub(1).map_or(Keys::IDLE, |i| self.events[i].keys)
    }

    pub fn events(&self) -> &[KeyEvent] {
        &self.events
    }
}

impl TryFrom<Vec<KeyEvent>> for InputScript {
    type Error = ParamError;
    fn try_from(events: Vec<KeyEvent>) -> Result<Self, ParamError> {
        InputScript::new(events)
    }
}

impl From<InputScript> for Vec<KeyEvent> {
    fn from(script: InputScript) -> Self {
        script.events
    }
}

/// Where the client reads its keys.
#[derive(Clone, Debug, PartialEq)]
pub enum InputSource {
    /// A timeline, read at the client's local time: deterministic runs and tests.
    Scripted(InputScript),
    /// The keys the page last handed over; time plays no part.
    Live(Keys),
}

impl InputSource {
    pub fn keys_at(&self, time: f64) -> Keys {
        match self {
            InputSource::Scripted(script) => script.keys_at(time),
            InputSource::Live(keys) => *keys,
        }
    }
}

impl Read for InputScript {
    /// `#[serde(try_from = "Vec<KeyEvent>")]`: the events, then the script's own checks (`script[2].time`).
    #[inline(never)]
    fn read_into(slot: &mut Self, tree: Tree) -> Result<(), TreeError> {
        let events = list(tree, key_event)?;
        *slot = InputScript::try_from(events).map_err(TreeError::custom)?;
        Ok(())
    }
}

/// A `KeyEvent`: both keys are required (no `#[serde(default)]`); a missing one is named once the object is read.
fn key_event(tree: Tree) -> Result<KeyEvent, TreeError> {
    let (mut time, mut keys) = (None, None);
    object(tree, "struct KeyEvent", &["time", "keys"], &mut |key, value| {
        match key {
            "time" => time = Some(f64::read(value)?),
            "keys" => keys = Some(Keys::read(value)?),
            _ => return Ok(false),
        }
        Ok(true)
    })?;
    let time = time.ok_or_else(|| TreeError::missing_field("time"))?;
    let keys = keys.ok_or_else(|| TreeError::missing_field("keys"))?;
    Ok(KeyEvent { time, keys })
}

/// A script is a list of key events, not a group of parameters.
impl crate::param::Schema for InputScript {
    const KIND: crate::param::Kind = crate::param::Kind::List;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opposite_keys_cancel_and_diagonals_are_unit_length() {
        assert_eq!(Keys { left: true, right: true, ..Keys::IDLE }.direction(), Vec2::ZERO);
        assert_eq!(Keys::RIGHT.direction(), Vec2::new(1.0, 0.0));
        assert_eq!(Keys::UP.direction(), Vec2::new(0.0, -1.0));
        let diagonal = Keys { right: true, down: true, ..Keys::IDLE }.direction();
        assert!((diagonal.length() - 1.0).abs() < 1e-15);
        assert!(Keys { up: true, down: true, ..Keys::IDLE }.is_idle());
    }

    #[test]
    fn a_script_holds_each_state_until_the_next_event_and_sorts_events() {
        let script =
            InputScript::new(vec![KeyEvent { time: 1.0, keys: Keys::LEFT }, KeyEvent { time: 0.5, keys: Keys::RIGHT }])
                .unwrap();
        assert_eq!(script.keys_at(0.0), Keys::IDLE);
        assert_eq!(script.keys_at(0.5), Keys::RIGHT);
        assert_eq!(script.keys_at(0.99), Keys::RIGHT);
        assert_eq!(script.keys_at(1.0), Keys::LEFT);
        assert_eq!(script.keys_at(100.0), Keys::LEFT);
    }

    #[test]
    fn a_bad_time_is_refused_with_its_index() {
        let err = InputScript::new(vec![
            KeyEvent { time: 0.0, keys: Keys::LEFT },
            KeyEvent { time: f64::NAN, keys: Keys::RIGHT },
        ])
        .unwrap_err();
        assert_eq!(err.field, "script[1].time");
        let err = InputScript::new(vec![KeyEvent { time: -1.0, keys: Keys::LEFT }]).unwrap_err();
        assert_eq!(err.field, "script[0].time");
    }

    #[test]
    fn a_script_round_trips_through_json_and_bad_json_is_refused() {
        let script = InputScript::demo(3.0);
        let json = serde_json::to_string(&script).unwrap();
        assert!(json.starts_with(r#"[{"time":0.0,"keys":{"left":false,"right":true"#), "{json}");
        assert_eq!(serde_json::from_str::<InputScript>(&json).unwrap(), script);
        assert!(serde_json::from_str::<InputScript>(r#"[{"time":-2,"keys":{}}]"#).is_err());
    }

    #[test]
    fn the_demo_loop_starts_moving_right_and_covers_the_duration() {
        let script = InputScript::demo(6.0);
        assert_eq!(script.keys_at(0.0), Keys::RIGHT);
        assert_eq!(script.keys_at(1.2), Keys::IDLE);
        assert_eq!(script.keys_at(1.5), Keys::LEFT);
        assert_eq!(script.keys_at(4.1), Keys::RIGHT, "the pattern repeats after 4 s");
        assert!(script.events().last().unwrap().time < 6.0);
        assert!(InputScript::demo(f64::NAN).events().is_empty());
        assert!(InputScript::demo(f64::INFINITY).events().is_empty());
    }
}
