//! `Lessons`: the page's lessons and step-through ask the core through these statics (see `crate::lessons`).

use crate::lessons::{correction_jumps, hard_snap_table, walk};
use crate::path::params::PathParams;
use crate::predict::smoothing::SmoothingParams;
use crate::trace::Trace;
use wasm_bindgen::prelude::*;

use super::convert::{group_from_js as from_js, js_error, to_js};

/// Statics only: nothing is kept between calls.
#[wasm_bindgen]
pub struct Lessons;

#[wasm_bindgen]
impl Lessons {
    /// A snapshot trace walked event by event: `{deliveries, frames, renderDelay, sendInterval, clockOffset}`,
    /// restricted to local times `from..=to`.
    pub fn walk(trace: &str, from: f64, to: f64) -> Result<JsValue, JsError> {
        let trace = Trace::from_json(trace).map_err(|e| JsError::new(&e.to_string()))?;
        to_js(&walk(&trace, from, to).map_err(|e| JsError::new(&e.to_string()))?)
    }

    /// Seed 001's hard snap asked of the path player for each cell of stale gap × drift, with the path
    /// player's parameters (`paths.player` of the run).
    #[wasm_bindgen(js_name = hardSnapTable)]
    pub fn hard_snap_table(player: JsValue) -> Result<JsValue, JsError> {
        let params: PathParams = from_js(player, "player")?;
        params.validate().map_err(|e| js_error(e.within("player")))?;
        to_js(&hard_snap_table(&params).map_err(|e| JsError::new(&e.to_string()))?)
    }

    /// How far the view moves at each correction, per smoothing mode: `rows` is the run's `corrections`
    /// timeline flattened (`local, size, offsetAdded, reset, beforeX, beforeY, afterX, afterY` per row) and
    /// `smoothing` the run's `local` parameters.
    #[wasm_bindgen(js_name = correctionJumps)]
    pub fn correction_jumps(smoothing: JsValue, rows: Vec<f64>, stride: usize) -> Result<JsValue, JsError> {
        let params: SmoothingParams = from_js(smoothing, "smoothing")?;
        params.validate().map_err(|e| js_error(e.within("smoothing")))?;
        if stride < 8 {
            return Err(JsError::new("`stride`: a correction row has 8 columns"));
        }
        let rows: Vec<[f64; 6]> = rows.chunks_exact(stride).map(|r| [r[0], r[4], r[5], r[6], r[7], r[3]]).collect();
        to_js(&correction_jumps(&params, &rows).map_err(|e| JsError::new(&e.to_string()))?)
    }
}
