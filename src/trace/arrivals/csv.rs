//! The CSV form of an arrival log: a header naming the columns, then one row per snapshot (see `mod.rs`).
//!
//! ```text
//!  lines ─► blank or #… skipped ─► header: each name → a quantity and its unit (s, or ms for `_ms`)
//!                                   unknown name, a quantity twice, no arrival, no seq/serverTime ─► line 1: …
//!        ─► rows: cell count, each cell a number in range (seq: whole ≥ 0), counted ─► line N, column: …
//! ```

use super::{check_number, time_limit, Log, Place, Row, POSITION_LIMIT, VELOCITY_LIMIT};
use crate::geom::Vec2;
use crate::trace::limits::{more_than, MAX_SNAPSHOTS};
use crate::trace::{Trace, TraceError};
use crate::words::one_line;

/// What a column holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Quantity {
    Seq,
    ServerTime,
    Arrival,
    X,
    Y,
    Vx,
    Vy,
}

const QUANTITIES: [(&str, Quantity, bool); 7] = [
    ("seq", Quantity::Seq, false),
    ("serverTime", Quantity::ServerTime, true),
    ("arrival", Quantity::Arrival, true),
    ("x", Quantity::X, false),
    ("y", Quantity::Y, false),
    ("vx", Quantity::Vx, false),
    ("vy", Quantity::Vy, false),
];

/// A column of the header: its name as written, what it holds, whether in milliseconds.
#[derive(Clone, Debug)]
struct Column {
    name: String,
    quantity: Quantity,
    ms: bool,
}

/// The quantity a header name stands for: `arrival`, `arrival_ms`, …; `None` for an unknown name.
fn quantity(name: &str) -> Option<(Quantity, bool)> {
    QUANTITIES.iter().find_map(|&(base, quantity, time)| {
        if name == base {
            Some((quantity, false))
        } else if time && name.strip_suffix("_ms") == Some(base) {
            Some((quantity, true))
        } else {
            None
        }
    })
}

fn cell(text: &str) -> &str {
    let text = text.trim();
    text.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or(text)
}

/// The lines that count (not blank, not `#…`), with their 1-based line numbers.
fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().map(|(i, line)| (i + 1, line)).filter(|(_, line)| {
        let line = line.trim();
        !line.is_empty() && !line.starts_with('#')
    })
}

/// Whether the first line that counts names at least one known column: then the text is an arrival log.
pub(super) fn names_a_column(text: &str) -> bool {
    lines(text).next().is_some_and(|(_, header)| header.split(',').any(|name| quantity(cell(name)).is_some()))
}

struct Lines(Vec<usize>);

impl Place for Lines {
    fn at(&self, row: usize, column: &str) -> String {
        format!("line {}, {column}", self.0.get(row).copied().unwrap_or(0))
    }

    fn row(&self, row: usize) -> String {
        format!("line {}", self.0.get(row).copied().unwrap_or(0))
    }
}

/// Reads the CSV arrival log in `text`.
pub(super) fn parse(text: &str) -> Result<Trace, TraceError> {
    let mut lines = lines(text);
    let Some((header_line, header)) = lines.next() else {
        return Err(TraceError::document("the arrival log has no header"));
    };
    let columns = header_of(header_line, header)?;
    let (mut rows, mut numbers) = (Vec::new(), Vec::new());
    for (line, text) in lines {
        if rows.len() == MAX_SNAPSHOTS {
            return Err(TraceError::new(format!("line {line}"), more_than(MAX_SNAPSHOTS, "snapshots")));
        }
        rows.push(row_of(line, text, &columns)?);
        numbers.push(line);
    }
    super::to_trace(Log { rows, ..Log::default() }, &Lines(numbers))
}

/// The header's columns, checked: known names, each quantity once, `arrival` and `seq` or `serverTime` present,
/// positions and velocities in pairs.
fn header_of(line: usize, header: &str) -> Result<Vec<Column>, TraceError> {
    let at = format!("line {line}");
    let mut columns: Vec<Column> = Vec::new();
    for name in header.split(',').map(cell) {
        let Some((quantity, ms)) = quantity(name) else {
            return Err(TraceError::new(
                at,
                format!(
                    "unknown column \"{}\" (known: seq, serverTime, arrival, x, y, vx, vy; a time in ms ends in _ms)",
                    one_line(name)
                ),
            ));
        };
        if let Some(before) = columns.iter().find(|c| c.quantity == quantity) {
            let message = if before.name == name {
                format!("column \"{name}\" named twice")
            } else {
                format!("columns \"{}\" and \"{name}\" both give {}", before.name, base(quantity))
            };
            return Err(TraceError::new(at, message));
        }
        columns.push(Column { name: name.to_string(), quantity, ms });
    }
    let has = |q: Quantity| columns.iter().any(|c| c.quantity == q);
    if !has(Quantity::Arrival) {
        return Err(TraceError::new(at, "no arrival column (arrival or arrival_ms is required)"));
    }
    if !has(Quantity::Seq) && !has(Quantity::ServerTime) {
        return Err(TraceError::new(at, "no seq or serverTime column (one of them is required)"));
    }
    for (a, b, what) in [(Quantity::X, Quantity::Y, "a position"), (Quantity::Vx, Quantity::Vy, "a velocity")] {
        if has(a) != has(b) {
            let (given, missing) = if has(a) { (a, b) } else { (b, a) };
            return Err(TraceError::new(at, format!("{} without {} ({what} needs both)", base(given), base(missing))));
        }
    }
    if has(Quantity::Vx) && !has(Quantity::X) {
        return Err(TraceError::new(at, "vx and vy without x and y (a velocity needs a position)"));
    }
    Ok(columns)
}

fn base(quantity: Quantity) -> &'static str {
    QUANTITIES.iter().find(|(_, q, _)| *q == quantity).map_or("", |(name, _, _)| name)
}

/// One row, every cell checked.
fn row_of(line: usize, text: &str, columns: &[Column]) -> Result<Row, TraceError> {
    let cells: Vec<&str> = text.split(',').map(cell).collect();
    if cells.len() != columns.len() {
        return Err(TraceError::new(
            format!("line {line}"),
            format!("{} cells, the header has {} columns", cells.len(), columns.len()),
        ));
    }
    let mut row = Row { seq: None, server_time: None, arrival: 0.0, pos: None, vel: None };
    let (mut x, mut y, mut vx, mut vy) = (0.0, 0.0, 0.0, 0.0);
    for (column, text) in columns.iter().zip(cells) {
        let field = format!("line {line}, {}", column.name);
        if text.is_empty() {
            return Err(TraceError::new(field, "empty (every row has a number in every column)"));
        }
        let scale = if column.ms { 1e-3 } else { 1.0 };
        match column.quantity {
            Quantity::Seq => row.seq = Some(whole(&field, text)?),
            Quantity::ServerTime => {
                row.server_time = Some(check_number(&field, number(&field, text)?, time_limit(column.ms))? * scale)
            }
            Quantity::Arrival => {
                row.arrival = check_number(&field, number(&field, text)?, time_limit(column.ms))? * scale
            }
            Quantity::X => x = check_number(&field, number(&field, text)?, POSITION_LIMIT)?,
            Quantity::Y => y = check_number(&field, number(&field, text)?, POSITION_LIMIT)?,
            Quantity::Vx => vx = check_number(&field, number(&field, text)?, VELOCITY_LIMIT)?,
            Quantity::Vy => vy = check_number(&field, number(&field, text)?, VELOCITY_LIMIT)?,
        }
    }
    let has = |q: Quantity| columns.iter().any(|c| c.quantity == q);
    row.pos = has(Quantity::X).then(|| Vec2::new(x, y));
    row.vel = has(Quantity::Vx).then(|| Vec2::new(vx, vy));
    Ok(row)
}

/// A number as written (`1.5`, `-2e3`, `NaN`): the words of a refusal name the text when it is not one.
fn number(field: &str, text: &str) -> Result<f64, TraceError> {
    let value: f64 = text
        .parse()
        .map_err(|_| TraceError::new(field, format!("expected a number, found the text \"{}\"", one_line(text))))?;
    let spelled_infinite =
        matches!(text.trim_start_matches(['+', '-']).to_ascii_lowercase().as_str(), "inf" | "infinity");
    if value.is_infinite() && !spelled_infinite {
        return Err(TraceError::new(field, "number out of range (beyond ±1.8e308)"));
    }
    Ok(value)
}

/// A whole number ≥ 0 (`seq`).
fn whole(field: &str, text: &str) -> Result<u64, TraceError> {
    text.parse().map_err(|_| {
        TraceError::new(field, format!("expected a whole number ≥ 0, found the text \"{}\"", one_line(text)))
    })
}
