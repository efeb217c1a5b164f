//! The page's cache of the strategies it draws (rows only, no scoring) on the current log: a strategy is re-run
//! only when the log changed (a new run of the remote pipeline) or its own parameters did ([`Setup::key`]), so
//! moving one engine's setting replays that engine alone.

use super::score::{run, Keep, StrategyRun};
use super::{Key, Setup, StrategyKind};
use crate::param::ParamError;
use crate::run::{ClientInput, TruthTrack};
use std::collections::BTreeMap;

#[derive(Debug, Default)]
pub struct Bank {
    runs: BTreeMap<StrategyKind, (u64, Key, StrategyRun)>,
    /// Strategy runs made so far (a test counts them to see what a change re-ran).
    pub runs_made: u64,
}

impl Bank {
    /// The rows of `kind` on the log `inputs_id` names, re-made only if its key or the log changed.
    pub fn get(
        &mut self,
        setup: &Setup,
        kind: StrategyKind,
        inputs_id: u64,
        inputs: &[ClientInput],
        truth: &TruthTrack,
    ) -> Result<&StrategyRun, ParamError> {
        let key = setup.key(kind);
        let fresh = self.runs.get(&kind).is_some_and(|(id, k, _)| *id == inputs_id && *k == key);
        if !fresh {
            let made = run(setup, kind, inputs, truth, Keep::ROWS)?;
            self.runs_made += 1;
            self.runs.insert(kind, (inputs_id, key, made));
        }
        Ok(&self.runs[&kind].2)
    }
}
