//! Gabriel Gambetta's "Fast-Paced Multiplayer" live demo: entity interpolation by *receive* time — each update
//! is stamped with the client clock when it arrives, and the entity is drawn one server update interval in the
//! past, between the two buffered updates around that moment.
//!
//! ```text
//!  per delivery:  position_buffer.push([now, state.position])           arrival order, client clock
//!  per frame:     render_timestamp = now − 1000 / server.update_rate
//!                 drop buffer[0] while buffer[1].timestamp ≤ render_timestamp
//!                 buffer[0].t ≤ render_timestamp ≤ buffer[1].t ─► x = x0 + (x1 − x0)·(render − t0)/(t1 − t0)
//!                 otherwise x is left as it was (no extrapolation, no snap)
//!
//!  arrivals:   ○     ○  ○         ○    ○          the jitter of the arrivals shows in the motion: an update that
//!  render:        ◆─────────►                      arrives late stretches its segment, the next one is squeezed
//! ```
//! Source: the algorithm as Gambetta publishes it (gabrielgambetta.com, "Entity Interpolation" and the
//! client-side prediction live demo's `Client.interpolateEntities`); the demo page itself is not in the search
//! index, so this follows its faithful TypeScript port GDur/fastmultiplayerbasistypescript,
//! `src/GameEngine/Client.ts` (`processServerMessages`, `interpolateEntities`), which reads the server's update
//! rate directly (`this.server.getUpdateRate()`), as this model reads the scenario's send rate.
//!
//! Simplified: the demo creates the entity at x = 0 and draws it there until the first interpolation; here
//! nothing is drawn until then (the project never shows a default position). The demo is one-dimensional; x and
//! y are interpolated alike. The server time of what is shown (for the lanes and the metrics) is interpolated
//! between the two updates' server times at the same fraction.

use super::{Shown, ShownMode, Smoother};
use crate::buffer::window::Window;
use crate::geom::Vec2;
use crate::snapshot::Snapshot;

/// One buffered update: receive time (client clock), position, and the server time it was true at.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Update {
    received: f64,
    pos: Vec2,
    server_time: f64,
}

/// The demo's client, for one remote entity.
#[derive(Clone, Debug)]
pub struct Gambetta {
    update_interval: f64,
    /// The updates not yet passed, oldest first: a window over a `Vec` (`buffer::window`), read by plain index
    /// every frame where a `VecDeque` wraps each index.
    position_buffer: Window<Update, 0>,
    shown: Option<(Vec2, f64)>,
}

impl Gambetta {
    /// `update_interval`: `1 / server.update_rate`, seconds.
    pub fn new(update_interval: f64) -> Self {
        Gambetta { update_interval, position_buffer: Window::with_room(8), shown: None }
    }

    pub fn buffered(&self) -> usize {
        self.position_buffer.len()
    }
}

impl Smoother for Gambetta {
    fn on_snapshot(&mut self, snapshot: &Snapshot, arrival: f64) {
        self.position_buffer.push_back(Update {
            received: arrival,
            pos: snapshot.pos,
            server_time: snapshot.server_time,
        });
    }

    fn frame(&mut self, now: f64, _dt: f64) -> Shown {
        let render = now - self.update_interval;
        let buffer = &mut self.position_buffer;
        while buffer.len() >= 2 && buffer[1].received <= render {
            buffer.pop_front();
        }
        if buffer.len() >= 2 && buffer[0].received <= render && render <= buffer[1].received {
            let (a, b) = (buffer[0], buffer[1]);
            let f = (render - a.received) / (b.received - a.received);
            let f = if f.is_finite() { f } else { 1.0 };
            let pos = a.pos.lerp(b.pos, f);
            let server_time = a.server_time + (b.server_time - a.server_time) * f;
            self.shown = Some((pos, server_time));
            return Shown::at(pos, server_time, ShownMode::Interpolated);
        }
        match self.shown {
            Some((pos, server_time)) => Shown::at(pos, server_time, ShownMode::Held),
            None => Shown::NOTHING,
        }
    }
}
