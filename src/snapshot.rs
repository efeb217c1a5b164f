//! A server snapshot of one remote entity, and its validation.
//!
//! A snapshot is what the server knew about an entity at one tick: where it was, how fast it moved, which life
//! it was in (`generation`, bumped on respawn) and whether it jumped there (`teleport`). Seed 002 §"第一步"
//! insists that an invalid snapshot is rejected with the field named — never patched to a zero vector.
//!
//! Validation here looks at one snapshot alone: every number must be finite and of a sane magnitude (so that
//! interpolating or extrapolating between two valid snapshots can never overflow to infinity). Checks that need
//! the other snapshots (duplicates, conflicts, tick order) live in the buffer (`crate::buffer`).

use crate::geom::Vec2;
use crate::words::num;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The largest server time accepted, in seconds (about 31 700 years: room for any epoch-based clock).
pub const MAX_SERVER_TIME: f64 = 1e12;
/// The largest coordinate accepted, in world units.
pub const MAX_COORDINATE: f64 = 1e9;
/// The largest velocity component accepted, in world units per second.
pub const MAX_VELOCITY: f64 = 1e9;

/// One authoritative state of a remote entity, stamped with the server's clock (seconds).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Snapshot {
    pub entity: u32,
    pub tick: u64,
    /// Server time in seconds at which this state was true.
    pub server_time: f64,
    pub pos: Vec2,
    /// Velocity in units per second (seed 000 §4.3.1: without it there is no extrapolation).
    pub vel: Vec2,
    /// Lifetime generation: snapshots of different generations are never interpolated (seed 002 "实体重生").
    pub generation: u32,
    /// The entity jumped to `pos` (teleport/respawn): no interpolation across this snapshot (seed 002 "传送").
    pub teleport: bool,
}

impl Snapshot {
    /// A plain moving snapshot (entity 0, generation 0, no teleport).
    pub fn moving(tick: u64, server_time: f64, pos: Vec2, vel: Vec2) -> Self {
        Snapshot { entity: 0, tick, server_time, pos, vel, generation: 0, teleport: false }
    }

    /// Whether every number is finite and within its limit: what `validate` accepts, in five comparisons (NaN and
    /// ±∞ fail `≤` too).
    #[inline]
    pub fn is_valid(&self) -> bool {
        let within = |value: f64, limit: f64| value.abs() <= limit;
        within(self.server_time, MAX_SERVER_TIME)
            & within(self.pos.x, MAX_COORDINATE)
            & within(self.pos.y, MAX_COORDINATE)
            & within(self.vel.x, MAX_VELOCITY)
            & within(self.vel.y, MAX_VELOCITY)
    }

    /// Rejects non-finite or absurdly large numbers, naming the first bad field.
    pub fn validate(&self) -> Result<(), InvalidSnapshot> {
        // The usual snapshot is valid; the field is looked for only when it is not.
        if self.is_valid() {
            return Ok(());
        }
        let fields = [
            ("serverTime", self.server_time, MAX_SERVER_TIME),
            ("x", self.pos.x, MAX_COORDINATE),
            ("y", self.pos.y, MAX_COORDINATE),
            ("vx", self.vel.x, MAX_VELOCITY),
            ("vy", self.vel.y, MAX_VELOCITY),
        ];
        for (field, value, limit) in fields {
            let problem = if !value.is_finite() {
                Problem::NotFinite { value }
            } else if value.abs() > limit {
                Problem::TooLarge { value, limit }
            } else {
                continue;
            };
            return Err(InvalidSnapshot { tick: self.tick, field, problem });
        }
        Ok(())
    }

    /// The name of the first field (trace spelling) in which `self` and `other` differ, if any.
    pub fn first_difference(&self, other: &Snapshot) -> Option<&'static str> {
        let same_bits = |a: f64, b: f64| a.to_bits() == b.to_bits();
        [
            ("entity", self.entity == other.entity),
            ("tick", self.tick == other.tick),
            ("serverTime", same_bits(self.server_time, other.server_time)),
            ("x", same_bits(self.pos.x, other.pos.x)),
            ("y", same_bits(self.pos.y, other.pos.y)),
            ("vx", same_bits(self.vel.x, other.vel.x)),
            ("vy", same_bits(self.vel.y, other.vel.y)),
            ("generation", self.generation == other.generation),
            ("teleport", self.teleport == other.teleport),
        ]
        .into_iter()
        .find(|(_, same)| !same)
        .map(|(field, _)| field)
    }
}

/// A snapshot that was refused, the field named as in the trace format (camelCase).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InvalidSnapshot {
    pub tick: u64,
    /// The field's name as it appears in the trace format (camelCase), e.g. `serverTime`, `vx`, `arrival`.
    pub field: &'static str,
    pub problem: Problem,
}

/// What was wrong with the named field.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum Problem {
    /// NaN or ±∞.
    NotFinite { value: f64 },
    /// Finite but beyond the accepted magnitude.
    TooLarge { value: f64, limit: f64 },
    /// The buffer holds another entity: one buffer is one entity's timeline.
    OtherEntity { expected: u32, got: u32 },
    /// Tick order and server-time order disagree with a snapshot already held (or already passed).
    OutOfTickOrder { neighbour_tick: u64, neighbour_time: f64, server_time: f64 },
}

impl fmt::Display for InvalidSnapshot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "snapshot tick {}: field `{}` ", self.tick, self.field)?;
        match self.problem {
            Problem::NotFinite { value } => write!(f, "is {}, not a finite number", num(value)),
            Problem::TooLarge { value, limit } => write!(f, "is {}, beyond ±{}", num(value), num(limit)),
            Problem::OtherEntity { expected, got } => {
                write!(f, "is {got}, but this buffer holds entity {expected}")
            }
            Problem::OutOfTickOrder { neighbour_tick, neighbour_time, server_time } => {
                write!(
                    f,
                    "is {} s, out of tick order with tick {neighbour_tick} at {} s",
                    num(server_time),
                    num(neighbour_time)
                )
            }
        }
    }
}

impl std::error::Error for InvalidSnapshot {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_finite_snapshot_is_valid() {
        let s = Snapshot::moving(1, 10.0, Vec2::new(1.0, 2.0), Vec2::ZERO);
        assert_eq!(s.validate(), Ok(()));
    }

    #[test]
    fn the_first_non_finite_field_is_named() {
        let mut s = Snapshot::moving(7, 10.0, Vec2::new(1.0, f64::NAN), Vec2::new(f64::INFINITY, 0.0));
        let err = s.validate().unwrap_err();
        assert_eq!(err.field, "y");
        assert!(err.to_string().contains("tick 7"), "{err}");
        s.pos.y = 0.0;
        assert_eq!(s.validate().unwrap_err().field, "vx");
    }

    #[test]
    fn huge_values_are_refused_with_the_limit() {
        let s = Snapshot::moving(3, 10.0, Vec2::new(2e9, 0.0), Vec2::ZERO);
        let err = s.validate().unwrap_err();
        assert_eq!(err.problem, Problem::TooLarge { value: 2e9, limit: MAX_COORDINATE });
        assert_eq!(err.to_string(), "snapshot tick 3: field `x` is 2e9, beyond ±1e9");
    }

    #[test]
    fn the_first_difference_is_named_in_trace_spelling() {
        let a = Snapshot::moving(1, 10.0, Vec2::new(1.0, 2.0), Vec2::ZERO);
        assert_eq!(a.first_difference(&a), None);
        let b = Snapshot { vel: Vec2::new(0.0, 3.0), ..a };
        assert_eq!(a.first_difference(&b), Some("vy"));
        let c = Snapshot { teleport: true, ..a };
        assert_eq!(a.first_difference(&c), Some("teleport"));
    }
}
