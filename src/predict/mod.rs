//! Local player prediction, server reconciliation and correction smoothing (seed 003; seed 000 §4.3.9
//! "自己预测，别人插值": your own player is predicted and corrected, other players are interpolated).
pub mod client;
pub mod input;
pub mod physics;
pub mod server;
pub mod smoothing;
