//! Bounded tables of numbers, one row per event, for drawing: the page reads them as `Float64Array` views.
//!
//! A `Timeline` is a ring of rows with a fixed column layout. When it is full the oldest row is dropped, so a
//! live session can run forever in fixed memory; a whole-window run sizes it to hold everything. `rows()`
//! hands out the rows oldest-first as one contiguous slice (rotating the ring in place when it has wrapped),
//! which is what a typed-array view needs.
//!
//! Column layouts are declared with [`layout!`]: each gets an index constant and a camelCase name, and the
//! page receives the names with the data, so JS never hard-codes a column number.

/// Declares a column layout: `layout!(frame { LOCAL = "local", … })` makes `frame::LOCAL`, `frame::NAMES`,
/// `frame::STRIDE`.
#[macro_export]
macro_rules! layout {
    ($(#[$doc:meta])* $name:ident { $($(#[$cdoc:meta])* $col:ident = $js:literal),* $(,)? }) => {
        $(#[$doc])*
        pub mod $name {
            #[allow(non_camel_case_types, clippy::upper_case_acronyms, dead_code)]
            #[derive(Clone, Copy)]
            enum Column { $($col),* }
            $( $(#[$cdoc])* pub const $col: usize = Column::$col as usize; )*
            /// Column names, in order, as the page sees them.
            pub const NAMES: &[&str] = &[$($js),*];
            /// Numbers per row.
            pub const STRIDE: usize = NAMES.len();
        }
    };
}

/// A ring of rows of `stride` numbers each.
#[derive(Clone, Debug)]
pub struct Timeline {
    names: &'static [&'static str],
    capacity: usize,
    data: Vec<f64>,
    /// Row index (in `data`) of the oldest row.
    head: usize,
    rows: usize,
    dropped: u64,
}

/// A placeholder with no columns and no storage (nothing allocated): what `std::mem::take` leaves behind.
impl Default for Timeline {
    fn default() -> Self {
        Timeline { names: &[], capacity: 1, data: Vec::new(), head: 0, rows: 0, dropped: 0 }
    }
}

impl Timeline {
    /// An empty timeline with columns `names` holding at most `capacity` rows (at least one).
    pub fn new(names: &'static [&'static str], capacity: usize) -> Self {
        let capacity = capacity.max(1);
        // Room for a whole window up front: growing a large table by doubling costs more than the run itself.
        let data = Vec::with_capacity(capacity.min(1 << 16) * names.len());
        Timeline { names, capacity, data, head: 0, rows: 0, dropped: 0 }
    }

    /// A full timeline holding `data` (rows of `names.len()` numbers, oldest first); `None` when `data` is not a
    /// whole number of rows.
    pub fn from_rows(names: &'static [&'static str], data: Vec<f64>) -> Option<Self> {
        let stride = names.len();
        if stride == 0 || data.len() % stride != 0 {
            return None;
        }
        let rows = data.len() / stride;
        Some(Timeline { names, capacity: rows.max(1), data, head: 0, rows, dropped: 0 })
    }

    pub fn stride(&self) -> usize {
        self.names.len()
    }

    pub fn names(&self) -> &'static [&'static str] {
        self.names
    }

    pub fn len(&self) -> usize {
        self.rows
    }

    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// Rows dropped because the ring was full.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Appends a row (padded with NaN or cut to the stride), dropping the oldest row when full.
    pub fn push(&mut self, row: &[f64]) {
        let stride = self.stride();
        if row.len() == stride && self.rows < self.capacity {
            self.data.extend_from_slice(row);
            self.rows += 1;
            return;
        }
        let fill = row.iter().copied().chain(std::iter::repeat(f64::NAN)).take(stride);
        if self.rows < self.capacity {
            self.data.extend(fill);
            self.rows += 1;
        } else {
            let at = self.head * stride;
            for (slot, value) in self.data[at..at + stride].iter_mut().zip(fill) {
                *slot = value;
            }
            self.head = (self.head + 1) % self.capacity;
            self.dropped += 1;
        }
    }

    /// [`push`](Self::push) of a row whose length is known when compiling (the `layout!` rows built as arrays):
    /// the same row, copied with a constant length. In wasm `push`'s copy of a run-time length is a `memory.copy`
    /// call out of V8's compiled code (for these rows ~2,800 per 60 s re-simulation: snapshots, batches,
    /// corrections, RTT samples); a constant one of up to 128 B is loads and stores (`.cargo/config.toml`).
    #[inline(always)]
    pub fn push_row<const N: usize>(&mut self, row: &[f64; N]) {
        if N == self.stride() && self.rows < self.capacity {
            self.data.extend_from_slice(row);
            self.rows += 1;
        } else {
            self.push(row);
        }
    }

    /// Appends a row of NaN and hands it to `fill` to write in place (dropping the oldest row when full): the
    /// same row as building it elsewhere and [`push`](Self::push)ing it, without the copy. In wasm a copy of a
    /// run-time length is a `memory.copy`, which V8 makes a call out of the compiled code (~15–20 ns in Chromium
    /// whatever the length, against ~5 ns for the same bytes moved by loads and stores): a frame row is 504 B.
    #[inline]
    pub fn push_with<R>(&mut self, fill: impl FnOnce(&mut [f64]) -> R) -> R {
        let stride = self.stride();
        let at = if self.rows < self.capacity {
            let at = self.data.len();
            self.data.extend(std::iter::repeat_n(f64::NAN, stride));
            self.rows += 1;
            at
        } else {
            let at = self.head * stride;
            self.data[at..at + stride].fill(f64::NAN);
            self.head = (self.head + 1) % self.capacity;
            self.dropped += 1;
            at
        };
        fill(&mut self.data[at..at + stride])
    }

    /// Row `i`, counted from the oldest row kept.
    pub fn row(&self, i: usize) -> Option<&[f64]> {
        (i < self.rows).then(|| {
            let at = ((self.head + i) % self.capacity) * self.stride();
            &self.data[at..at + self.stride()]
        })
    }

    /// Row `i` for writing (e.g. to fill in an arrival after the send was recorded).
    pub fn row_mut(&mut self, i: usize) -> Option<&mut [f64]> {
        let stride = self.stride();
        (i < self.rows).then(|| {
            let at = ((self.head + i) % self.capacity) * stride;
            &mut self.data[at..at + stride]
        })
    }

    /// All rows oldest-first, contiguous (the ring is rotated in place when it has wrapped).
    pub fn rows(&mut self) -> &[f64] {
        if self.head != 0 {
            let shift = self.head * self.stride();
            self.data.rotate_left(shift);
            self.head = 0;
        }
        &self.data
    }

    /// Every row, oldest first, read in place: the ring as its two contiguous parts (from the oldest row to the end of
    /// the storage, then from its start), without [`Timeline::row`]'s index arithmetic per row — what the engines'
    /// scoring reads of the run's frames (`compare::own`) walks every row of a 60 s run.
    pub fn each_row(&self) -> impl Iterator<Item = &[f64]> + '_ {
        let stride = self.stride().max(1);
        let (newer, older) = self.data.split_at((self.head * self.stride()).min(self.data.len()));
        older.chunks_exact(stride).chain(newer.chunks_exact(stride))
    }

    /// One column of every row, oldest first.
    pub fn column(&self, column: usize) -> impl Iterator<Item = f64> + '_ {
        (0..self.rows).filter_map(move |i| self.row(i).map(|r| r[column]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    layout!(demo { A = "a", B = "b" });

    #[test]
    fn layouts_number_their_columns() {
        assert_eq!((demo::A, demo::B, demo::STRIDE), (0, 1, 2));
        assert_eq!(demo::NAMES, &["a", "b"]);
    }

    #[test]
    fn a_full_ring_drops_the_oldest_and_rotates_into_order() {
        let mut t = Timeline::new(demo::NAMES, 3);
        for i in 0..5 {
            t.push(&[i as f64, -(i as f64)]);
        }
        assert_eq!((t.len(), t.dropped()), (3, 2));
        assert_eq!(t.row(0), Some(&[2.0, -2.0][..]));
        assert_eq!(t.rows(), &[2.0, -2.0, 3.0, -3.0, 4.0, -4.0]);
        assert_eq!(t.column(demo::A).collect::<Vec<_>>(), vec![2.0, 3.0, 4.0]);
    }

    /// `each_row` reads the rows `row` gives, in order: before the ring is full, once it has wrapped (at every
    /// head), and for a timeline made from rows. The two parts of the ring read the other way round (newest part
    /// first) turn it red.
    #[test]
    fn each_row_reads_the_rows_in_order() {
        for pushed in 0..12 {
            let mut t = Timeline::new(demo::NAMES, 5);
            for i in 0..pushed {
                t.push(&[i as f64, -(i as f64)]);
            }
            let by_index: Vec<&[f64]> = (0..t.len()).filter_map(|i| t.row(i)).collect();
            assert_eq!(t.each_row().collect::<Vec<_>>(), by_index, "{pushed} rows pushed");
        }
        let t = Timeline::from_rows(demo::NAMES, vec![1.0, 2.0, 3.0, 4.0]).unwrap();
        assert_eq!(t.each_row().collect::<Vec<_>>(), [&[1.0, 2.0][..], &[3.0, 4.0][..]]);
        assert_eq!(Timeline::default().each_row().count(), 0);
    }

    #[test]
    fn a_row_written_in_place_is_the_row_pushed() {
        let bits = |t: &mut Timeline| t.rows().iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        let (mut pushed, mut written) = (Timeline::new(demo::NAMES, 3), Timeline::new(demo::NAMES, 3));
        for i in 0..5 {
            // Rows 0 and 4 are short: NaN-padded by `push`, left NaN by `push_with` — row 4 in the slot of the
            // full ring that held row 1's numbers.
            let row = [i as f64 + 0.5, -(i as f64)];
            let given = if i == 0 || i == 4 { &row[..1] } else { &row[..] };
            pushed.push(given);
            written.push_with(|slot| slot[..given.len()].copy_from_slice(given));
            assert_eq!((written.len(), written.dropped()), (pushed.len(), pushed.dropped()));
            assert_eq!(bits(&mut written), bits(&mut pushed), "after row {i}");
        }
        assert_eq!(written.row(0), Some(&[2.5, -2.0][..]));
        assert!(written.row(2).unwrap()[1].is_nan());
        assert_eq!(written.push_with(|slot| slot.len()), 2);
    }

    #[test]
    fn a_fixed_size_row_is_the_row_pushed() {
        let bits = |t: &mut Timeline| t.rows().iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        let (mut pushed, mut fixed) = (Timeline::new(demo::NAMES, 3), Timeline::new(demo::NAMES, 3));
        for i in 0..5 {
            // Rows 3 and 4 go into a full ring (the slow path); row 1 is short and row 2 too long for the stride.
            let row = [i as f64 + 0.25, -(i as f64), 9.0];
            match i {
                1 => (pushed.push(&row[..1]), fixed.push_row(&[row[0]])),
                2 => (pushed.push(&row), fixed.push_row(&row)),
                _ => (pushed.push(&row[..2]), fixed.push_row(&[row[0], row[1]])),
            };
            assert_eq!((fixed.len(), fixed.dropped()), (pushed.len(), pushed.dropped()));
            assert_eq!(bits(&mut fixed), bits(&mut pushed), "after row {i}");
        }
        assert_eq!(fixed.row(0), Some(&[2.25, -2.0][..]));
    }

    #[test]
    fn short_rows_are_padded_with_nan() {
        let mut t = Timeline::new(demo::NAMES, 2);
        t.push(&[1.0]);
        assert!(t.row(0).unwrap()[1].is_nan());
        t.row_mut(0).unwrap()[1] = 7.0;
        assert_eq!(t.row(0), Some(&[1.0, 7.0][..]));
    }
}
