//! The engines' strategies (`netcode_lab::engines`): each engine's shipped tests for this logic,
//! reproduced and cited, and its distinctive behaviour on fixed traces; then whole runs, the league table and
//! the CLI. `cargo test --test engines`.
#![cfg(not(target_arch = "wasm32"))]

mod cli;
mod fishnet;
mod gambetta;
mod geckos;
mod league;
mod lightyear;
mod mirror;
mod neteq;
mod ngo;
mod ngo1x;
mod reference;
mod source;
mod support;
