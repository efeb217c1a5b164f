//! Comparing strategies on the same packets: the league table (every strategy on every network), the render-delay
//! and buffer-capacity sweeps (one client replayed with other settings), and the page's own pipeline scored as one
//! of the strategies. This layer sits above the simulator and the strategies: it asks the simulator for a log
//! (`crate::sim::deliveries`) and plays it to the strategies (`crate::engines::score`); neither knows the other.
//!
//! ```text
//!  PlaygroundParams {sim, engines} ──► sim::deliveries(sim on a network) ──► the log + what the pipeline played
//!                                          │                                      │
//!                                          ▼                                      ▼
//!                          engines::score: every strategy replayed       own.rs: `playground` read from its frames
//!                                          └──────────────► StrategyMetrics ◄─────┘ ──► league.rs: best per column
//! ```

pub mod league;
pub mod own;
pub mod params;
pub mod sweep;

pub use params::PlaygroundParams;
