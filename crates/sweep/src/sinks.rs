//! Where a sweep's results go: CSV and JSON written as the blocks arrive, an even sample of
//! rows for a text table, and the whole result table in memory.

use std::fmt::Write as _;
use std::io::{self, Write};

use rayon::prelude::*;
use trace::text::{Align, TextTable};

use crate::run::{Block, Header, Sink};
use crate::Space;

/// Rows formatted by one rayon task.
const FORMAT_GRAIN: usize = 4096;

/// Formats a block's rows in parallel, `FORMAT_GRAIN` at a time, and writes them in order.
fn write_rows(
    w: &mut dyn Write,
    block: &Block<'_>,
    row: impl Fn(&mut String, u64, &[f64], &[f64]) + Sync,
) -> io::Result<()> {
    let n = block.len();
    let pieces: Vec<String> = (0..n)
        .collect::<Vec<_>>()
        .par_chunks(FORMAT_GRAIN)
        .map(|idx| {
            let mut s = String::with_capacity(idx.len() * 48);
            for &i in idx {
                row(
                    &mut s,
                    block.start + i as u64,
                    block.params(i),
                    block.values(i),
                );
            }
            s
        })
        .collect();
    for p in pieces {
        w.write_all(p.as_bytes())?;
    }
    Ok(())
}

/// Writes every point as a CSV row in [`trace::csv`]'s format (LF line ends, shortest
/// round-trip numbers, an empty field for a value not computed): a header of the
/// parameters' and columns' names, then the parameter values and column values of each
/// point.
pub struct CsvSink<W: Write> {
    out: W,
}

impl<W: Write> CsvSink<W> {
    /// A sink writing to `out` (buffer it: rows are written a block at a time).
    pub fn new(out: W) -> Self {
        CsvSink { out }
    }

    /// The writer back.
    pub fn into_inner(self) -> W {
        self.out
    }
}

impl<W: Write> Sink for CsvSink<W> {
    fn begin(&mut self, header: &Header<'_>) -> io::Result<()> {
        let names = header
            .space
            .axes()
            .iter()
            .map(|a| a.name().to_string())
            .chain(header.columns.iter().cloned());
        trace::csv::Table::new(names).write(&mut self.out)
    }

    fn block(&mut self, _header: &Header<'_>, block: &Block<'_>) -> io::Result<()> {
        write_rows(&mut self.out, block, |s, _, params, values| {
            for (i, &v) in params.iter().chain(values).enumerate() {
                if i > 0 {
                    s.push(',');
                }
                trace::csv::push_num(s, v);
            }
            s.push('\n');
        })
    }

    fn finish(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// How a [`JsonSink`] separates its objects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsonLayout {
    /// One object per line (JSON Lines).
    Lines,
    /// Objects separated by commas, to sit inside an array the caller opens and closes.
    Elements,
}

/// Writes every point as a JSON object `{"N": 10, "P": 4, "bound": 12.5}`: integers
/// without a fraction, a value not computed (or not finite) as `null`.
pub struct JsonSink<W: Write> {
    out: W,
    layout: JsonLayout,
    keys: Vec<String>,
}

impl<W: Write> JsonSink<W> {
    /// A sink writing to `out` in `layout`.
    pub fn new(out: W, layout: JsonLayout) -> Self {
        JsonSink {
            out,
            layout,
            keys: Vec::new(),
        }
    }
}

/// Appends a number as JSON: integers without a fraction, non-finite values as `null`.
pub fn push_json_num(s: &mut String, v: f64) {
    if !v.is_finite() {
        s.push_str("null");
    } else if v.fract() == 0.0 && v.abs() < 9e15 {
        let _ = write!(s, "{}", v as i64);
    } else {
        let _ = write!(s, "{v}");
    }
}

impl<W: Write> JsonSink<W> {
    /// The writer back.
    pub fn into_inner(self) -> W {
        self.out
    }
}

impl<W: Write> Sink for JsonSink<W> {
    fn begin(&mut self, header: &Header<'_>) -> io::Result<()> {
        self.keys = header
            .space
            .axes()
            .iter()
            .map(|a| a.name().to_string())
            .chain(header.columns.iter().cloned())
            .map(|k| serde_json::Value::String(k).to_string())
            .collect();
        Ok(())
    }

    fn block(&mut self, _header: &Header<'_>, block: &Block<'_>) -> io::Result<()> {
        let keys = &self.keys;
        let layout = self.layout;
        write_rows(&mut self.out, block, |s, k, params, values| {
            if layout == JsonLayout::Elements && k > 0 {
                s.push(',');
            }
            s.push('{');
            for (i, (key, &v)) in keys.iter().zip(params.iter().chain(values)).enumerate() {
                if i > 0 {
                    s.push(',');
                }
                s.push_str(key);
                s.push(':');
                push_json_num(s, v);
            }
            s.push('}');
            if layout == JsonLayout::Lines {
                s.push('\n');
            }
        })
    }

    fn finish(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// One row of a sweep's results: the point, its parameter values and its column values.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The point's index.
    pub point: u64,
    /// Parameter values, one per axis.
    pub params: Vec<f64>,
    /// Column values (NaN: not computed).
    pub values: Vec<f64>,
}

/// Keeps an even sample of at most `max_rows` rows, the first and the last point always
/// among them; with `max_rows` at least the number of points, it keeps every row (the
/// whole result table).
#[derive(Clone, Debug)]
pub struct Sample {
    total: u64,
    max_rows: u64,
    rows: Vec<Row>,
}

impl Sample {
    /// A sample of at most `max_rows` (at least 2) of `total` points.
    pub fn new(total: u64, max_rows: u64) -> Self {
        Sample {
            total,
            max_rows: max_rows.max(2),
            rows: Vec::new(),
        }
    }

    /// Every row of `total` points.
    pub fn all(total: u64) -> Self {
        Sample::new(total, total)
    }

    /// Whether point `p` is in the sample: the points `floor(k*(total-1)/(max-1))`.
    pub fn wanted(&self, p: u64) -> bool {
        if self.total <= self.max_rows {
            return true;
        }
        let m = self.max_rows as u128 - 1;
        let t = self.total as u128 - 1;
        // p is wanted if some k has floor(k*t/m) == p: k = ceil(p*m/t) is the candidate.
        let k = (p as u128 * m).div_ceil(t);
        (k * t / m) as u64 == p
    }

    /// The rows kept, in point order.
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// The number of points swept.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Whether some points are not in the sample.
    pub fn is_partial(&self) -> bool {
        (self.rows.len() as u64) < self.total
    }

    /// A text table of the sample, one column per [`TextColumn`].
    pub fn table(&self, columns: &[TextColumn<'_>]) -> TextTable {
        let mut t = TextTable::new(columns.iter().map(|c| (c.heading.clone(), Align::Right)));
        for r in &self.rows {
            t.push(columns.iter().map(|c| (c.cell)(r)).collect());
        }
        t
    }
}

/// Prints a cell from a row.
pub type CellFn<'a> = dyn Fn(&Row) -> String + 'a;

/// A column of a [`Sample::table`]: its heading and how to print it from a row.
pub struct TextColumn<'a> {
    /// The heading.
    pub heading: String,
    /// The cell of a row.
    pub cell: Box<CellFn<'a>>,
}

impl<'a> TextColumn<'a> {
    /// A column with `heading` printed by `cell`.
    pub fn new(heading: impl Into<String>, cell: impl Fn(&Row) -> String + 'a) -> Self {
        TextColumn {
            heading: heading.into(),
            cell: Box::new(cell),
        }
    }

    /// Column `k` of the values as a compact number ([`trace::text::num`]).
    pub fn num(heading: impl Into<String>, k: usize) -> Self {
        TextColumn::new(heading, move |r| trace::text::num(r.values[k]))
    }

    /// A column per swept axis of `space`, headed by its name.
    pub fn swept(space: &Space) -> Vec<TextColumn<'a>> {
        space
            .swept()
            .map(|(a, axis)| {
                TextColumn::new(axis.name().to_string(), move |r| {
                    trace::text::num(r.params[a])
                })
            })
            .collect()
    }
}

impl Sink for Sample {
    fn block(&mut self, _header: &Header<'_>, block: &Block<'_>) -> io::Result<()> {
        for i in 0..block.len() {
            let p = block.start + i as u64;
            if self.wanted(p) {
                self.rows.push(Row {
                    point: p,
                    params: block.params(i).to_vec(),
                    values: block.values(i).to_vec(),
                });
            }
        }
        Ok(())
    }
}
