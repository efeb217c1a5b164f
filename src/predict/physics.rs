//! The one physics step that client prediction, server simulation and client replay all share.
//!
//! ```text
//!   state(n) ──step(input n, dt)──► state(n+1)        dt = 1 / tickRate, never the frame time
//!               1. vel = direction · speed
//!               2. pos += vel · dt        (move …)
//!               3. pos = clamp(pos, arena) (… then clamp: seed 003 §"还需要修正模拟服务器和边界处理")
//! ```
//!
//! The article's boundary code only pulled a position back on the *next* call, so a player could stand past
//! the wall for a step and be dragged back; moving then clamping keeps every stored state inside. Because the
//! same function with the same `f64` operations runs everywhere, a replay of the same inputs from the same
//! state is bit-for-bit the original prediction — that is what makes a zero correction exactly zero.

use super::input::Keys;
use crate::geom::{clamp, Vec2};
use serde::{Deserialize, Serialize};

/// The simulated state of one player: what the server's snapshot carries (seed 003 §"第二步" `makeSnapshot`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerState {
    pub pos: Vec2,
    /// Velocity asked for by the last input (units per second).
    pub vel: Vec2,
    /// Movement speed (units per second).
    pub speed: f64,
}

impl PlayerState {
    /// Standing still at `pos`.
    pub fn at_rest(pos: Vec2, speed: f64) -> Self {
        PlayerState { pos, vel: Vec2::ZERO, speed }
    }

    pub fn is_finite(&self) -> bool {
        self.pos.is_finite() && self.vel.is_finite() && self.speed.is_finite()
    }
}

/// The rectangle a player cannot leave.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Arena {
    pub min: Vec2,
    pub max: Vec2,
}

impl Arena {
    /// A square from (0, 0) to (size, size).
    pub fn square(size: f64) -> Self {
        Arena { min: Vec2::ZERO, max: Vec2::new(size, size) }
    }

    pub fn center(&self) -> Vec2 {
        self.min.lerp(self.max, 0.5)
    }

    pub fn clamp(&self, p: Vec2) -> Vec2 {
        Vec2::new(clamp(p.x, self.min.x, self.max.x), clamp(p.y, self.min.y, self.max.y))
    }
}

/// The fixed step: move with the input's direction for `dt` seconds, then clamp to the arena.
pub fn step(state: &mut PlayerState, keys: Keys, dt: f64, arena: &Arena) {
    state.vel = keys.direction() * state.speed;
    state.pos = arena.clamp(state.pos + state.vel * dt);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_moves_speed_times_dt_and_an_idle_step_stands_still() {
        let arena = Arena::square(100.0);
        let mut s = PlayerState::at_rest(Vec2::new(50.0, 50.0), 60.0);
        step(&mut s, Keys::RIGHT, 1.0 / 60.0, &arena);
        assert_eq!(s.pos, Vec2::new(51.0, 50.0));
        assert_eq!(s.vel, Vec2::new(60.0, 0.0));
        step(&mut s, Keys::IDLE, 1.0 / 60.0, &arena);
        assert_eq!(s.pos, Vec2::new(51.0, 50.0));
        assert_eq!(s.vel, Vec2::ZERO);
    }

    #[test]
    fn moving_past_the_wall_is_clamped_in_the_same_step() {
        let arena = Arena::square(100.0);
        let mut s = PlayerState::at_rest(Vec2::new(99.5, 0.2), 60.0);
        step(&mut s, Keys { right: true, up: true, ..Keys::IDLE }, 1.0 / 60.0, &arena);
        assert_eq!(s.pos.x, 100.0, "never past the wall, not even for one step");
        assert_eq!(s.pos.y, 0.0);
    }

    #[test]
    fn the_same_inputs_from_the_same_state_give_the_same_bits() {
        let arena = Arena::square(100.0);
        let inputs = [Keys::RIGHT, Keys::DOWN, Keys { left: true, up: true, ..Keys::IDLE }, Keys::IDLE];
        let run = || {
            let mut s = PlayerState::at_rest(Vec2::new(10.1, 20.3), 47.3);
            for k in inputs.iter().cycle().take(500) {
                step(&mut s, *k, 1.0 / 60.0, &arena);
            }
            s
        };
        assert_eq!(run(), run());
    }
}
