//! netcode-lab: how a multiplayer client smooths what the network gives it, as a deterministic core.
//!
//! Every module below `web` is pure: no wasm-bindgen, web-sys or js-sys, no clock, no randomness it was not
//! handed. Time is always an argument (seconds, `f64`). `cargo test` runs all of it natively; the `web`
//! module, compiled for wasm32 only, is the single place that talks to JavaScript. See ARCHITECTURE.md.
pub mod buffer;
pub mod buffer_metrics;
pub mod channel;
pub mod clock;
pub mod compare;
pub mod display;
pub mod engines;
pub mod extrapolate;
pub mod fit;
pub mod geom;
pub mod interpolate;
pub mod lessons;
pub mod link;
pub mod live;
pub mod motion;
pub mod param;
pub mod path;
pub mod playback;
pub mod predict;
pub mod rng;
pub mod run;
pub mod sim;
pub mod snapshot;
pub mod stream;
pub mod trace;
pub mod tree;
pub mod tune;
pub mod words;
pub mod worked_example;

#[cfg(all(target_arch = "wasm32", feature = "web"))]
pub mod web;

/// The README's Rust (how a game uses the core), compiled and run by `cargo test` as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
