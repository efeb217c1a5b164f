//! A server snapshot of one remote entity, and its validation.
//!
//! A snapshot is what the server knew about an entity at one tick: where it was, how fast it moved, which life
//! it was in (`generation`, bumped on respawn) and whether it jumped there (`teleport`). Seed 002 §"第一步"
//! insists that an invalid snapshot is rejected with the field named — never patched to a zero vector.

use crate::geom::Vec2;
use serde::{Deserialize, Serialize};
use std::fmt;

/// One authoritative state of a remote entity, stamped with the server's clock (seconds).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
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

    /// Rejects non-finite numbers, naming the first bad field.
    pub fn validate(&self) -> Result<(), InvalidSnapshot> {
        let fields = [
            ("serverTime", self.server_time),
            ("x", self.pos.x),
            ("y", self.pos.y),
            ("vx", self.vel.x),
            ("vy", self.vel.y),
        ];
        match fields.iter().find(|(_, v)| !v.is_finite()) {
            Some(&(field, value)) => Err(InvalidSnapshot { tick: self.tick, field, value }),
            None => Ok(()),
        }
    }
}

/// A snapshot that carries a non-finite number.
#[derive(Clone, Debug, PartialEq)]
pub struct InvalidSnapshot {
    pub tick: u64,
    /// The field's name as it appears in the trace format (camelCase).
    pub field: &'static str,
    pub value: f64,
}

impl fmt::Display for InvalidSnapshot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "snapshot tick {}: field `{}` is {}, not a finite number", self.tick, self.field, self.value)
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
}
