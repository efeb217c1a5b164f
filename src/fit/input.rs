//! What the fit reads from a trace: one observation per snapshot copy, its arrival read on the server's clock
//! (`arrival + clockOffset`, the `clockOffset` the trace states, 0 when it states none), and the RTT samples.

use super::Observation;
use crate::trace::{Trace, TraceData, TraceError};

/// The observations and RTTs of a snapshot trace; a trace of kind `paths` is refused (`kind`).
pub fn of_trace(trace: &Trace) -> Result<(Vec<Observation>, Vec<f64>), TraceError> {
    let TraceData::Snapshots { snapshots, rtt } = &trace.data else {
        return Err(TraceError::new("kind", "fit reads snapshot traces only; this trace is of kind \"paths\""));
    };
    let offset = trace.params.clock_offset.unwrap_or(0.0);
    let observations = snapshots
        .iter()
        .map(|s| Observation { tick: s.tick, server_time: s.server_time, arrival: s.arrival + offset })
        .collect();
    Ok((observations, rtt.iter().map(|r| r.rtt).collect()))
}
