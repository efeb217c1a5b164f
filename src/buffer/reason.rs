//! Why a sample is not `Ready`, kept as numbers and turned into words only when someone reads it (a frame
//! loop samples thousands of times per run; formatting every reason would cost more than the sampling).
//! It serializes as its kind and numbers (`{"kind": "pastNewest", "renderTime": …}`) so a page can word it in
//! any language; `Display` gives the English sentence.

use serde::Serialize;
use std::fmt;
// Numbers as Rust's `{}` / `{:.N}` write them, without Rust's float formatting in the page's wasm (~20 KB).
use crate::words::{decimal, fixed};

/// The cause of a non-`Ready` sample (seed 002: "所有非 Ready 结果都保留具体原因").
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", rename_all_fields = "camelCase", tag = "kind")]
pub enum Reason {
    NoSnapshot,
    Priming {
        held: usize,
        needed: usize,
    },
    BeforeOldest {
        render_time: f64,
        oldest_tick: u64,
        oldest_time: f64,
    },
    /// Seed 002 "缓冲欠载 Underrun … 必须报告：目标渲染时间 最新服务器时间 缺少的时间跨度 最近到达间隔 当前插值延迟":
    /// the render time, the newest snapshot, the span missing (their difference), the recent arrival interval and
    /// the interpolation delay in force (filled in by the playback, which knows the clock; `None` for a bare buffer).
    PastNewest {
        render_time: f64,
        newest_tick: u64,
        newest_time: f64,
        arrival_interval: Option<f64>,
        delay: Option<f64>,
    },
    Respawn {
        left: u64,
        right: u64,
        left_generation: u32,
        right_generation: u32,
    },
    Teleport {
        tick: u64,
    },
    WideBracket {
        left: u64,
        right: u64,
        span: f64,
        gap_factor: f64,
        send_interval: f64,
    },
    RenderTimeNotFinite {
        render_time: f64,
    },
    /// The render clock's own explanation.
    Clock {
        text: String,
    },
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::NoSnapshot => write!(f, "no snapshot received yet"),
            Reason::Priming { held, needed } => write!(f, "{held} of {needed} snapshots needed to start"),
            Reason::BeforeOldest { render_time, oldest_tick, oldest_time } => write!(
                f,
                "render time {} s is {} ms before the oldest snapshot (tick {oldest_tick}, {} s)",
                fixed(*render_time, 3),
                fixed((oldest_time - render_time) * 1000.0, 0),
                fixed(*oldest_time, 3)
            ),
            Reason::PastNewest { render_time, newest_tick, newest_time, arrival_interval, delay } => {
                write!(
                    f,
                    "render time {} s is {} ms past the newest snapshot (tick {newest_tick}, {} s); recent arrival \
                     interval ",
                    fixed(*render_time, 3),
                    fixed((render_time - newest_time) * 1000.0, 0),
                    fixed(*newest_time, 3)
                )?;
                match arrival_interval {
                    Some(i) => write!(f, "{} ms", fixed(i * 1e3, 0))?,
                    None => write!(f, "unknown")?,
                }
                match delay {
                    Some(d) => write!(f, "; interpolation delay {} ms", fixed(d * 1e3, 0)),
                    None => Ok(()),
                }
            }
            Reason::Respawn { left, right, left_generation, right_generation } => write!(
                f,
                "ticks {left} and {right} belong to lifetime generations {left_generation} and {right_generation}: \
                 no interpolation across a respawn"
            ),
            Reason::Teleport { tick } => {
                write!(f, "tick {tick} is a teleport: no interpolation across the discontinuity")
            }
            Reason::WideBracket { left, right, span, gap_factor, send_interval } => write!(
                f,
                "ticks {left} and {right} are {} ms apart, more than {} × the {} ms send interval",
                fixed(span * 1000.0, 0),
                decimal(*gap_factor),
                fixed(send_interval * 1000.0, 0)
            ),
            Reason::RenderTimeNotFinite { render_time } => {
                write!(f, "render time is {}, not a finite number", decimal(*render_time))
            }
            Reason::Clock { text } => f.write_str(text),
        }
    }
}

impl Reason {
    /// The same reason with the interpolation delay in force recorded (an Underrun's; others are unchanged).
    pub fn with_delay(self, in_force: f64) -> Self {
        match self {
            Reason::PastNewest { render_time, newest_tick, newest_time, arrival_interval, .. } => {
                Reason::PastNewest { render_time, newest_tick, newest_time, arrival_interval, delay: Some(in_force) }
            }
            other => other,
        }
    }

    /// Whether the sentence contains `needle` (tests and the page's filters).
    pub fn contains(&self, needle: &str) -> bool {
        self.to_string().contains(needle)
    }
}
