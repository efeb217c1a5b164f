//! Remote movement from path batches: chasing the newest point versus playing a timeline (seed 001).

pub mod batch;
pub mod compare;
pub mod lerp_chase;
pub mod metrics;
pub mod params;
pub mod player;
pub mod timeline;
pub mod truth;

pub use batch::{PathBatch, PathPoint};
