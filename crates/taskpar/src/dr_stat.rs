//! DAG Recorder's `.stat` files (MassiveThreads' `gen_stat.c`, `dr_basic_stat_write_to_file`):
//! [`parse`] reads one with located errors, and [`compare`] sets it beside vates' statistics
//! of the same `.dag` ([`Stats`]), field by field, flagging each figure that differs.
//!
//! The file is twenty `name = value` lines in a fixed order (nine counts and times in clock
//! ticks, eight ratios printed with three decimals, two node counts, the compression ratio
//! with six), with a warning line after `elapsed` when work + delay + no_work ≠ P·elapsed,
//! then five edge matrices of (P + 1) × (P + 1) counts, each under its name.
//!
//! ```
//! use taskpar::dr_stat;
//! let e = dr_stat::parse("x.stat", "create_task = 3\nwait_task = 3\n").unwrap_err();
//! assert!(e.to_string().starts_with("x.stat:2:1:"));
//! assert!(e.help.as_deref().unwrap().contains("wait_tasks"));
//! ```

use std::ops::Range;

use diag::Location;

use crate::dag::Limits;
use crate::stats::Stats;

/// The largest `.stat` file a front end reads: five (P + 1)² matrices at 1024 workers, with
/// room.
pub const MAX_BYTES: usize = 64 << 20;

/// How a field's value is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An unsigned integer (a count, or a time in clock ticks).
    Count,
    /// A real with this many decimals.
    Real(usize),
}

/// The fields of a `.stat` file, in its order, with how each is printed.
pub const FIELDS: [(&str, Kind); 20] = [
    ("create_task", Kind::Count),
    ("wait_tasks", Kind::Count),
    ("end_task", Kind::Count),
    ("work (T1)", Kind::Count),
    ("delay", Kind::Count),
    ("no_work", Kind::Count),
    ("critical_path (T_inf)", Kind::Count),
    ("n_workers (P)", Kind::Count),
    ("elapsed", Kind::Count),
    ("T1/P", Kind::Real(3)),
    ("T1/P+T_inf", Kind::Real(3)),
    ("T1/T_inf", Kind::Real(3)),
    ("greedy speedup", Kind::Real(3)),
    ("observed speedup", Kind::Real(3)),
    ("observed/greedy", Kind::Real(3)),
    ("task granularity", Kind::Real(3)),
    ("interval granularity", Kind::Real(3)),
    ("dag nodes", Kind::Count),
    ("materialized nodes", Kind::Count),
    ("compression ratio", Kind::Real(6)),
];

/// The index of `n_workers (P)` in [`FIELDS`].
const WORKERS: usize = 7;
/// The index of `elapsed`, after which the identity warning may come.
const ELAPSED: usize = 8;

/// The edge matrices' names, in the file's order ([`crate::dag::EdgeKind::ALL`]).
pub const MATRICES: [&str; 5] = [
    "end-parent edges",
    "create-child edges",
    "create-cont edges",
    "wait-cont edges",
    "other-cont edges",
];

/// What begins DAG Recorder's warning that work + delay + no_work ≠ P·elapsed.
const WARNING: &str = "*** warning";

/// A field's value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// A count or a time in ticks.
    Count(u64),
    /// A ratio (DAG Recorder prints `inf` or `nan` for a division by 0).
    Real(f64),
}

/// A `.stat` file read.
#[derive(Clone, Debug, PartialEq)]
pub struct StatFile {
    /// The values of [`FIELDS`], in order.
    pub values: Vec<Value>,
    /// The warning line, when the file has one.
    pub warning: Option<String>,
    /// The edge matrices of [`MATRICES`], each (P + 1) × (P + 1).
    pub edges: Vec<Vec<Vec<u64>>>,
}

impl StatFile {
    /// The figures vates' statistics give, as DAG Recorder would print them.
    pub fn of(st: &Stats) -> StatFile {
        let c = Value::Count;
        let r = Value::Real;
        StatFile {
            values: vec![
                c(st.create_task),
                c(st.wait_tasks),
                c(st.end_task),
                c(st.work),
                c(st.delay),
                c(st.no_work),
                c(st.span),
                c(u64::from(st.workers)),
                c(st.elapsed),
                r(st.work_over_p()),
                r(st.greedy_bound()),
                r(st.parallelism()),
                r(st.greedy_speedup()),
                r(st.observed_speedup()),
                r(st.observed_over_greedy()),
                r(st.task_granularity()),
                r(st.interval_granularity()),
                c(st.dag_nodes()),
                c(st.materialized),
                r(st.compression_ratio()),
            ],
            warning: (st.identity_gap() != 0).then(|| {
                "the identity work + delay + no_work = P·elapsed does not hold".to_string()
            }),
            edges: st.edges.clone(),
        }
    }

    /// The worker count P.
    pub fn workers(&self) -> u64 {
        match self.values[WORKERS] {
            Value::Count(p) => p,
            Value::Real(_) => 0,
        }
    }
}

/// A `.stat` file that cannot be read: what and where, and how to fix it.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct StatError {
    /// `name:line:column: what`.
    pub message: String,
    /// How to fix it.
    pub help: Option<String>,
    /// Where in the text.
    pub location: Option<Box<Location>>,
}

diag::located_diagnostic!(StatError);

/// The advice for a file that is not a `.stat` file as DAG Recorder writes it.
const HELP: &str = "give the `.stat` file DAG Recorder wrote beside the `.dag` (its \
                    `dr_dump()` writes PREFIX.stat), unedited";

/// Reads the `.stat` file `text` (named `name` in messages).
///
/// # Errors
/// A [`StatError`] at the first line that is not what DAG Recorder writes there: a field
/// out of order or misspelt (with the name expected), a value that is not a number or is
/// out of range, a worker count over [`Limits::MAX_WORKERS`], a matrix of another size than
/// (P + 1) × (P + 1), a file that ends early, text after the last matrix.
pub fn parse(name: &str, text: &str) -> Result<StatFile, StatError> {
    let err = |range: Range<usize>, label: &str, what: String, help: String| {
        // A caret under at most 80 bytes.
        let end = diag::floor_char_boundary(text, range.end.min(range.start + 80));
        let range = range.start..end.max(range.start);
        let (line, col) = diag::line_col(text, range.start);
        StatError {
            message: format!("{name}:{line}:{col}: {what}"),
            help: Some(help),
            location: Some(Box::new(Location::new(name, text, range, label))),
        }
    };
    let end = text.len()..text.len();
    let ended = |what: &str| {
        err(
            end.clone(),
            "the file ends here",
            format!("the file ends before {what}"),
            format!("the file was cut short; {HELP}"),
        )
    };
    // Non-blank lines with their byte ranges (without the line end).
    let mut lines = text
        .split_inclusive('\n')
        .scan(0usize, |at, l| {
            let start = *at;
            *at += l.len();
            let body = l.trim_end_matches(['\n', '\r']);
            Some((start..start + body.len(), body))
        })
        .filter(|(_, l)| !l.trim().is_empty())
        .peekable();
    let mut values = Vec::with_capacity(FIELDS.len());
    let mut warning = None;
    for (i, &(field, kind)) in FIELDS.iter().enumerate() {
        let (mut range, mut line) = lines
            .next()
            .ok_or_else(|| ended(&format!("the field `{field}`")))?;
        if i == ELAPSED + 1 && line.starts_with(WARNING) {
            warning = Some(line.trim().to_string());
            (range, line) = lines
                .next()
                .ok_or_else(|| ended(&format!("the field `{field}`")))?;
        }
        let Some((key, value)) = line.split_once('=') else {
            return Err(err(
                range,
                "not `name = value`",
                format!(
                    "`{}` is not a field; `{field} = VALUE` is expected here",
                    diag::short(line.trim())
                ),
                HELP.into(),
            ));
        };
        let key_at = range.start + (key.len() - key.trim_start().len());
        let key = key.trim();
        if key != field {
            let fix = match FIELDS.iter().position(|(f, _)| *f == key) {
                Some(_) => format!(
                    "DAG Recorder writes the fields in one order, and `{field}` comes here; {HELP}"
                ),
                None => diag::did_you_mean(&diag::suggest(key, FIELDS.iter().map(|f| f.0)))
                    .map_or_else(
                        || format!("`{field}` comes here; {HELP}"),
                        |d| format!("{d} (`{field}` comes here)"),
                    ),
            };
            return Err(err(
                key_at..key_at + key.len(),
                "another field",
                format!("`{}` where `{field}` was expected", diag::short(key)),
                fix,
            ));
        }
        let value_at = range.start + key_line_len(line) + (value.len() - value.trim_start().len());
        let value = value.trim();
        let at = value_at..value_at + value.len().max(1);
        let bad = |why: &str| {
            err(
                at.clone(),
                "this value",
                format!("`{field}` is `{}`: {why}", diag::short(value)),
                HELP.into(),
            )
        };
        if value.is_empty() {
            return Err(err(
                at,
                "no value",
                format!("`{field}` has no value"),
                HELP.into(),
            ));
        }
        let v =
            match kind {
                Kind::Count => {
                    if !value.bytes().all(|b| b.is_ascii_digit()) {
                        return Err(bad("DAG Recorder prints it as an unsigned integer"));
                    }
                    Value::Count(value.parse().map_err(|_| {
                        bad("more than 18446744073709551615, the largest 64-bit count")
                    })?)
                }
                Kind::Real(_) => {
                    let x: f64 = value
                        .parse()
                        .map_err(|_| bad("DAG Recorder prints it as a decimal number"))?;
                    Value::Real(x)
                }
            };
        if i == WORKERS {
            let p = match v {
                Value::Count(p) => p,
                Value::Real(_) => 0,
            };
            if p == 0 || p > u64::from(Limits::MAX_WORKERS) {
                return Err(err(
                    at.clone(),
                    "this worker count",
                    format!(
                        "`n_workers (P)` is {p}: a run has 1 to {} workers",
                        Limits::MAX_WORKERS
                    ),
                    HELP.into(),
                ));
            }
        }
        values.push(v);
    }
    let p = match values[WORKERS] {
        Value::Count(p) => p as usize,
        Value::Real(_) => 0,
    };
    let side = p + 1;
    let mut edges = Vec::with_capacity(MATRICES.len());
    for matrix in MATRICES {
        let (range, line) = lines
            .next()
            .ok_or_else(|| ended(&format!("the `{matrix}:` matrix")))?;
        if line.trim() != format!("{matrix}:") {
            return Err(err(
                range,
                "not this matrix's name",
                format!(
                    "`{}` where the `{matrix}:` matrix was expected",
                    diag::short(line.trim())
                ),
                HELP.into(),
            ));
        }
        let mut rows = Vec::with_capacity(side);
        for r in 0..side {
            let what = format!(
                "row {} of the `{matrix}` matrix ({side} rows: n_workers (P) = {p}, plus one)",
                r + 1
            );
            let (range, line) = lines.next().ok_or_else(|| ended(&what))?;
            let mut row = Vec::with_capacity(side);
            for (at, word) in words(line) {
                let at = range.start + at..range.start + at + word.len();
                if row.len() == side {
                    return Err(err(
                        at,
                        "one entry too many",
                        format!("{what} has more than {side} entries"),
                        HELP.into(),
                    ));
                }
                if !word.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(err(
                        at,
                        "not a count",
                        format!("`{}` in {what} is not a count", diag::short(word)),
                        HELP.into(),
                    ));
                }
                row.push(word.parse::<u64>().map_err(|_| {
                    err(
                        at.clone(),
                        "too large",
                        format!(
                            "`{}` in {what} is more than the largest 64-bit count",
                            diag::short(word)
                        ),
                        HELP.into(),
                    )
                })?);
            }
            if row.len() < side {
                return Err(err(
                    range.end..range.end,
                    "the row ends here",
                    format!("{what} has {} entries, not {side}", row.len()),
                    HELP.into(),
                ));
            }
            rows.push(row);
        }
        edges.push(rows);
    }
    if !text.ends_with('\n') {
        // DAG Recorder ends every line; a last line without its end was cut.
        return Err(ended(
            "the end of its last line (the file was cut inside it)",
        ));
    }
    if let Some((range, line)) = lines.next() {
        return Err(err(
            range,
            "after the last matrix",
            format!(
                "`{}` after the last matrix (`other-cont edges`), which ends the file",
                diag::short(line.trim())
            ),
            HELP.into(),
        ));
    }
    Ok(StatFile {
        values,
        warning,
        edges,
    })
}

/// The bytes of `line` up to and including its first `=`.
fn key_line_len(line: &str) -> usize {
    line.find('=').map_or(line.len(), |i| i + 1)
}

/// The words of `line` with their byte offsets.
fn words(line: &str) -> impl Iterator<Item = (usize, &str)> {
    line.split(' ')
        .scan(0usize, |at, w| {
            let start = *at;
            *at += w.len() + 1;
            Some((start, w))
        })
        .filter(|(_, w)| !w.is_empty())
}

/// One figure of a [`Comparison`].
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The field's name as the file prints it.
    pub field: &'static str,
    /// DAG Recorder's value, as printed.
    pub theirs: String,
    /// vates' value, printed the same way.
    pub ours: String,
    /// vates' minus DAG Recorder's (for counts and times in ticks).
    pub difference: Option<i128>,
    /// Whether the two differ as printed.
    pub differs: bool,
}

/// An edge matrix of a [`Comparison`].
#[derive(Clone, Debug, PartialEq)]
pub struct MatrixRow {
    /// The matrix's name.
    pub matrix: &'static str,
    /// Its side in DAG Recorder's file and in vates' figures.
    pub sides: (usize, usize),
    /// The entries that differ: row, column, DAG Recorder's, vates' (all of them when the
    /// sides differ are not listed: see `sides`).
    pub differing: Vec<(usize, usize, u64, u64)>,
}

impl MatrixRow {
    /// Whether the matrices differ.
    pub fn differs(&self) -> bool {
        self.sides.0 != self.sides.1 || !self.differing.is_empty()
    }
}

/// A `.stat` file beside vates' figures for the same run.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// The twenty fields.
    pub rows: Vec<Row>,
    /// Whether each has the identity warning (DAG Recorder's, vates').
    pub warnings: (bool, bool),
    /// The five matrices.
    pub matrices: Vec<MatrixRow>,
}

impl Comparison {
    /// How many figures differ (fields, the warning, matrices).
    pub fn differences(&self) -> usize {
        self.rows.iter().filter(|r| r.differs).count()
            + usize::from(self.warnings.0 != self.warnings.1)
            + self.matrices.iter().filter(|m| m.differs()).count()
    }
}

/// Sets DAG Recorder's `.stat` beside vates' statistics `ours` of the same run.
pub fn compare(theirs: &StatFile, ours: &Stats) -> Comparison {
    let ours = StatFile::of(ours);
    let show = |v: Value, kind: Kind| match (v, kind) {
        (Value::Count(c), _) => c.to_string(),
        (Value::Real(x), Kind::Real(places)) => format!("{x:.places$}"),
        (Value::Real(x), Kind::Count) => x.to_string(),
    };
    let rows = FIELDS
        .iter()
        .zip(theirs.values.iter().zip(&ours.values))
        .map(|(&(field, kind), (&t, &o))| {
            let (theirs, ours) = (show(t, kind), show(o, kind));
            let difference = match (t, o) {
                (Value::Count(t), Value::Count(o)) => Some(i128::from(o) - i128::from(t)),
                _ => None,
            };
            // A real is compared as printed, and DAG Recorder prints `-nan` where Rust
            // prints `NaN`.
            let same_real = |a: &str, b: &str| {
                a == b
                    || (a.to_ascii_lowercase().contains("nan")
                        && b.to_ascii_lowercase().contains("nan"))
            };
            Row {
                field,
                differs: !same_real(&theirs, &ours),
                theirs,
                ours,
                difference,
            }
        })
        .collect();
    let matrices = MATRICES
        .iter()
        .zip(theirs.edges.iter().zip(&ours.edges))
        .map(|(&matrix, (t, o))| {
            let sides = (t.len(), o.len());
            let differing = if sides.0 == sides.1 {
                t.iter()
                    .zip(o)
                    .enumerate()
                    .flat_map(|(i, (tr, or))| {
                        tr.iter()
                            .zip(or)
                            .enumerate()
                            .filter(|(_, (a, b))| a != b)
                            .map(move |(j, (a, b))| (i, j, *a, *b))
                    })
                    .collect()
            } else {
                Vec::new()
            };
            MatrixRow {
                matrix,
                sides,
                differing,
            }
        })
        .collect();
    Comparison {
        rows,
        warnings: (theirs.warning.is_some(), ours.warning.is_some()),
        matrices,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_words_of_a_row_are_found_with_their_offsets() {
        let w: Vec<_> = words(" 75 1  0").collect();
        assert_eq!(w, vec![(1, "75"), (4, "1"), (7, "0")]);
    }
}
