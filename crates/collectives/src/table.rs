//! A measurement table of collective operations: one row per timed run, `op,p,d,time`, with
//! optional `platform` and `shared` columns; rows at the same point are repetitions.
//!
//! ```text
//! # any comment line
//! platform,op,p,d,time,shared
//! T3D,broadcast,2,1,164.0,0
//! T3D,barrier,2,,7.857,0
//! ```
//!
//! `d` is the message size in the table's size unit (integers for the thesis' tables, bytes
//! for the OSU and IMB outputs); it is blank for an operation without data (a barrier).
//! `shared` (`1`/`0`, `true`/`false`, `yes`/`no`) marks a run with more processes than
//! processors (time-shared): such rows are never pooled with real ones.

use std::collections::BTreeMap;
use std::ops::Range;

use fit::read::{ReadError, ReadErrorKind};
use serde::Serialize;

/// One timed run of a collective operation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// The machine or configuration it ran on (empty if the table does not say).
    pub platform: String,
    /// The operation (`barrier`, `broadcast`, `scatter`, `gather`, `send-receive`, …),
    /// lower case.
    pub op: String,
    /// Processes.
    pub p: u32,
    /// Message size in the table's size unit; `None` for an operation without data.
    pub d: Option<f64>,
    /// The time, in the table's time unit.
    pub time: f64,
    /// Whether the processes time-shared processors (more processes than processors).
    pub shared: bool,
}

impl Row {
    /// A row measured on this host (no platform named): `op` at `p` processes and size `d`
    /// took `time`, time-shared or not.
    pub fn measured(op: &str, p: u32, d: Option<u64>, time: f64, shared: bool) -> Row {
        Row {
            platform: String::new(),
            op: op.to_string(),
            p,
            d: d.map(|d| d as f64),
            time,
            shared,
        }
    }
}

/// A measurement table with its units.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Table {
    /// The rows, in the order read.
    pub rows: Vec<Row>,
    /// The unit of `time` (`µs` for the thesis' tables and the MPI benchmarks).
    pub time_unit: String,
    /// The unit of `d` (`integers` for the thesis' tables, `bytes` for OSU and IMB).
    pub size_unit: String,
}

/// The rows of one operation on one platform at one point `(p, d)`: its repetitions.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Cell {
    /// Processes.
    pub p: u32,
    /// Message size (`None`: no data).
    pub d: Option<f64>,
    /// The repetitions' times, in the order read.
    pub times: Vec<f64>,
}

diag::choices! {
    /// Which value of a cell's repetitions a model is fitted to and judged against.
    #[derive(Default, Serialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum Statistic {
        /// The median: robust to the slow outliers of a busy machine (the default).
        #[default]
        Median = "median": "The median of the repetitions",
        /// The mean (the thesis' "Average Time").
        Mean = "mean": "Their mean (the thesis' \"average time\")",
        /// The minimum (the MPI benchmarks' `t_min`: the run least disturbed).
        Min = "min": "Their minimum (the least disturbed run)",
    }
}

impl Statistic {
    /// The statistic by name: `median`, `mean` or `min`.
    pub fn parse(s: &str) -> Option<Statistic> {
        match s {
            "median" => Some(Statistic::Median),
            "mean" => Some(Statistic::Mean),
            "min" => Some(Statistic::Min),
            _ => None,
        }
    }

    /// The statistic of `times` (not empty).
    pub fn of(self, times: &[f64]) -> f64 {
        match self {
            Statistic::Median => stats::median(times).unwrap_or(f64::NAN),
            Statistic::Mean => times.iter().sum::<f64>() / times.len() as f64,
            Statistic::Min => times.iter().copied().fold(f64::INFINITY, f64::min),
        }
    }
}

impl Cell {
    /// The value the cell stands for under `stat`.
    pub fn value(&self, stat: Statistic) -> f64 {
        stat.of(&self.times)
    }
}

/// The rows of one operation on one platform, real or time-shared, grouped into cells.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Group {
    /// The platform (empty if not given).
    pub platform: String,
    /// The operation.
    pub op: String,
    /// Whether these are time-shared runs.
    pub shared: bool,
    /// The cells, by increasing `p` then `d`.
    pub cells: Vec<Cell>,
}

impl Group {
    /// Whether the operation carries data (some cell has a size).
    pub fn has_size(&self) -> bool {
        self.cells.iter().any(|c| c.d.is_some())
    }

    /// The group's name as reports print it: `broadcast`, `broadcast on T3D`, with
    /// `(time-shared)` when it is.
    pub fn label(&self) -> String {
        let mut s = self.op.clone();
        if !self.platform.is_empty() {
            s.push_str(" on ");
            s.push_str(&self.platform);
        }
        if self.shared {
            s.push_str(" (time-shared)");
        }
        s
    }
}

impl Table {
    /// An empty table with these units.
    pub fn new(time_unit: &str, size_unit: &str) -> Table {
        Table {
            rows: Vec::new(),
            time_unit: time_unit.to_string(),
            size_unit: size_unit.to_string(),
        }
    }

    /// The rows grouped by platform, operation and time-sharing (in that order), each
    /// group's repetitions gathered into cells.
    pub fn groups(&self) -> Vec<Group> {
        type Key = (String, String, bool);
        let mut by: BTreeMap<Key, BTreeMap<(u32, Option<u64>), Cell>> = BTreeMap::new();
        for r in &self.rows {
            let key = (r.platform.clone(), r.op.clone(), r.shared);
            by.entry(key)
                .or_default()
                .entry((r.p, r.d.map(f64::to_bits)))
                .or_insert_with(|| Cell {
                    p: r.p,
                    d: r.d,
                    times: Vec::new(),
                })
                .times
                .push(r.time);
        }
        by.into_iter()
            .map(|((platform, op, shared), cells)| {
                let mut cells: Vec<Cell> = cells.into_values().collect();
                cells.sort_by(|a, b| {
                    a.p.cmp(&b.p)
                        .then(a.d.unwrap_or(0.0).total_cmp(&b.d.unwrap_or(0.0)))
                });
                Group {
                    platform,
                    op,
                    shared,
                    cells,
                }
            })
            .collect()
    }

    /// Appends `other`'s rows.
    ///
    /// # Errors
    /// When the units differ (a table of integers and one of bytes), a message naming both.
    pub fn merge(&mut self, other: Table) -> Result<(), String> {
        if self.rows.is_empty() && self.time_unit.is_empty() {
            *self = other;
            return Ok(());
        }
        if other.size_unit != self.size_unit || other.time_unit != self.time_unit {
            return Err(format!(
                "sizes in {} and times in {} do not mix with sizes in {} and times in {}",
                other.size_unit, other.time_unit, self.size_unit, self.time_unit
            ));
        }
        self.rows.extend(other.rows);
        Ok(())
    }

    /// Keeps the rows of the operations `ops` (names as [`op_name`] normalises them; none:
    /// every operation).
    ///
    /// # Errors
    /// [`UnknownOp`], the first operation the table does not have.
    pub fn keep_ops(&mut self, ops: &[String]) -> Result<(), UnknownOp> {
        if ops.is_empty() {
            return Ok(());
        }
        let ops: Vec<String> = ops.iter().map(|o| op_name(o)).collect();
        let mut known: Vec<String> = Vec::new();
        for g in self.groups() {
            if !known.contains(&g.op) {
                known.push(g.op);
            }
        }
        if let Some(o) = ops.iter().find(|o| !known.contains(o)) {
            let known: Vec<&str> = known.iter().map(String::as_str).collect();
            return Err(UnknownOp::new(o, &known, "the tables have"));
        }
        self.rows.retain(|r| ops.contains(&r.op));
        Ok(())
    }

    /// The table as CSV (`platform,op,p,d,time,shared`), readable by [`read_csv`].
    pub fn to_csv(&self) -> String {
        let mut s = String::from("platform,op,p,d,time,shared\n");
        for r in &self.rows {
            let d = r.d.map(|d| d.to_string()).unwrap_or_default();
            s.push_str(&format!(
                "{},{},{},{d},{},{}\n",
                csv_field(&r.platform),
                csv_field(&r.op),
                r.p,
                r.time,
                u8::from(r.shared)
            ));
        }
        s
    }
}

/// A CSV field, quoted when it holds a comma, a quote or a line break.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The largest measurement file a front end should read (bytes, 64 MiB): a million timed
/// runs.
pub const MAX_BYTES: usize = 64 << 20;

/// The advice for a measurement table over [`MAX_BYTES`] (appended to the message).
pub const TOO_LARGE: &str = "; keep fewer repetitions per point";

/// The largest process count a table may name: far beyond any machine, small enough that
/// `p·d` and `log2 p` stay exact.
pub const MAX_P: u32 = 1 << 24;

/// Normalises an operation's name: lower case, `_` and spaces as `-`, and the usual
/// abbreviations (`bcast`, `sendrecv`, `alltoall`) spelt as the thesis and `probe --mpi`
/// spell them.
pub fn op_name(s: &str) -> String {
    let s = s.trim().to_lowercase().replace(['_', ' '], "-");
    match s.as_str() {
        "bcast" => "broadcast".into(),
        "sendrecv" | "send-recv" | "sendreceive" => "send-receive".into(),
        "all-to-all" => "alltoall".into(),
        "all-reduce" => "allreduce".into(),
        _ => s,
    }
}

/// An operation a table does not have ([`Table::keep_ops`]) or a benchmark does not time
/// ([`ops_among`]).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("`{given}`: {among} {known}{hint}")]
pub struct UnknownOp {
    /// The name as given (a table's: normalised).
    pub given: String,
    /// Who has the operations: `the tables have`, `the benchmark times`.
    pub among: &'static str,
    /// The operations there are, listed.
    pub known: String,
    /// `; did you mean …?`, or nothing.
    pub hint: String,
}

impl UnknownOp {
    /// `given` is not one of `known` (`among` has them); the suggestion is the closest to
    /// `given`.
    fn new(given: &str, known: &[&str], among: &'static str) -> Self {
        UnknownOp {
            given: given.to_string(),
            among,
            known: known.join(", "),
            hint: crate::did_you_mean(given, known.iter().copied()),
        }
    }
}

impl diag::Advise for UnknownOp {
    /// None: a usage error whose message lists the operations.
    fn advice(&self) -> Option<diag::Advice> {
        None
    }
}

/// The operations named by `given`, each normalised by [`op_name`] and one of `known`.
///
/// ```
/// let ops = ["barrier", "broadcast"];
/// let given = vec!["bcast".to_string()];
/// assert_eq!(collectives::table::ops_among(&given, &ops), Ok(vec!["broadcast".to_string()]));
/// let e = collectives::table::ops_among(&["barier".to_string()], &ops).unwrap_err();
/// assert_eq!(e.to_string(), "`barier`: the benchmark times barrier, broadcast; did you mean `barrier`?");
/// ```
///
/// # Errors
/// [`UnknownOp`] for the first name that is not one of `known`, with the closest.
pub fn ops_among(given: &[String], known: &[&str]) -> Result<Vec<String>, UnknownOp> {
    given
        .iter()
        .map(|g| {
            let op = op_name(g);
            if known.contains(&op.as_str()) {
                return Ok(op);
            }
            Err(UnknownOp::new(g, known, "the benchmark times"))
        })
        .collect()
}

/// The heading of a table measured on this host: the MPI implementation (or `MPI`), the
/// clock's resolution, and the cores beyond which runs are time-shared.
pub fn measured_heading(implementation: &str, wtick_s: f64, cores: usize) -> String {
    format!(
        "{}; MPI_Wtime resolution {} s; {cores} cores: runs on more processes are time-shared\n\n",
        if implementation.is_empty() {
            "MPI"
        } else {
            implementation
        },
        trace::text::num(wtick_s),
    )
}

/// Reads a measurement table in CSV (`name` for messages). Columns are found by name in the
/// header (any order, any case); `op`, `p`, `d` and `time` are required, `platform` and
/// `shared` optional, others ignored. Lines starting with `#` are comments.
///
/// # Errors
/// A located [`ReadError`]: a missing column, a field that is not a number, a `p` that is
/// not a whole number from 1 to [`MAX_P`], a negative `d`, a time that is not > 0, an
/// empty `op`, or no rows.
pub fn read_csv(name: &str, text: &str) -> Result<Table, ReadError> {
    let src = (name, text);
    let body = fit::read::without_bom(text);
    let base = text.len() - body.len();
    // The data lines (not comments, not blank), with their byte offsets.
    let mut lines = fit::read::lines(body)
        .map(|(at, l)| (at + base, l))
        .filter(|(_, l)| !l.trim_start().starts_with('#') && !l.trim().is_empty());
    let Some((hat, header)) = lines.next() else {
        return Err(
            ReadError::whole(ReadErrorKind::Empty, name, "no header line").help(
                "the first line that is not a comment names the columns: op,p,d,time \
                 (platform and shared optional)",
            ),
        );
    };
    let fields = split(header, hat);
    let col = |want: &str| {
        fields
            .iter()
            .position(|(f, _)| f.trim().eq_ignore_ascii_case(want))
    };
    let mut need = [0usize; 4];
    for (k, want) in ["op", "p", "d", "time"].iter().enumerate() {
        need[k] = col(want).ok_or_else(|| {
            ReadError::at(
                ReadErrorKind::UnknownName,
                src,
                hat..hat + header.trim_end().len(),
                format!("the header has no `{want}` column"),
            )
            .help(
                "a collective measurement table has the columns op,p,d,time \
                 (platform and shared optional); d is blank for a barrier",
            )
        })?;
    }
    let [c_op, c_p, c_d, c_time] = need;
    let (c_platform, c_shared) = (col("platform"), col("shared"));
    let mut table = Table::new("µs", "integers");
    for (at, line) in lines {
        let f = split(line, at);
        let field = |j: usize| -> Result<(&str, Range<usize>), ReadError> {
            f.get(j).map(|(s, r)| (s.trim(), r.clone())).ok_or_else(|| {
                ReadError::at(
                    ReadErrorKind::Mismatch,
                    src,
                    at..at + line.trim_end().len(),
                    format!(
                        "the row has {} fields; the header has {}",
                        f.len(),
                        fields.len()
                    ),
                )
                .help("give every row one field per column")
            })
        };
        let (op, r) = field(c_op)?;
        if op.is_empty() {
            return Err(
                ReadError::at(ReadErrorKind::Syntax, src, r, "the operation is empty")
                    .help("name the operation: barrier, broadcast, scatter, gather, …"),
            );
        }
        let (p_text, r) = field(c_p)?;
        let p = fit::read::number_at(src, r.clone(), p_text, "p")?;
        if p.fract() != 0.0 || !(1.0..=f64::from(MAX_P)).contains(&p) {
            return Err(ReadError::at(
                ReadErrorKind::OutOfRange,
                src,
                r,
                format!("p = {} is not a process count", diag::short(p_text)),
            )
            .help(format!("p is a whole number from 1 to {MAX_P}")));
        }
        let (d_text, r) = field(c_d)?;
        let d = if d_text.is_empty() {
            None
        } else {
            let d = fit::read::number_at(src, r.clone(), d_text, "d")?;
            if !(0.0..=1e15).contains(&d) {
                return Err(ReadError::at(
                    ReadErrorKind::OutOfRange,
                    src,
                    r,
                    format!("d = {} is not a message size", diag::short(d_text)),
                )
                .help("d is a size from 0 to 1e15, or blank for an operation without data"));
            }
            Some(d)
        };
        let (t_text, r) = field(c_time)?;
        let time = fit::read::number_at(src, r.clone(), t_text, "time")?;
        if time <= 0.0 {
            return Err(ReadError::at(
                ReadErrorKind::OutOfRange,
                src,
                r,
                format!("time = {} is not > 0", diag::short(t_text)),
            )
            .help("a measured time is positive; drop rows whose run failed"));
        }
        let platform = match c_platform {
            Some(j) => field(j)?.0.to_string(),
            None => String::new(),
        };
        let shared = match c_shared {
            Some(j) => {
                let (s, r) = field(j)?;
                match s.to_ascii_lowercase().as_str() {
                    "" | "0" | "false" | "no" => false,
                    "1" | "true" | "yes" => true,
                    _ => {
                        return Err(ReadError::at(
                            ReadErrorKind::Syntax,
                            src,
                            r,
                            format!("shared = `{}` is not a yes or no", diag::short(s)),
                        )
                        .help("shared is 1 or 0 (true/false, yes/no): 1 for runs with more processes than processors"))
                    }
                }
            }
            None => false,
        };
        let op = op_name(op);
        // An operation has a size in every row or in none.
        if let Some(other) = table
            .rows
            .iter()
            .find(|r| r.op == op && r.platform == platform && r.d.is_some() != d.is_some())
        {
            let (_, r) = field(c_d)?;
            return Err(ReadError::at(
                ReadErrorKind::Mismatch,
                src,
                r,
                format!(
                    "{op} has {} here and {} in an earlier row",
                    if d.is_some() { "a size" } else { "no size" },
                    match other.d {
                        Some(d) => format!("the size {d}"),
                        None => "none".to_string(),
                    }
                ),
            )
            .help("an operation without data (a barrier) leaves d blank in every row; one with data gives it in every row"));
        }
        table.rows.push(Row {
            platform,
            op,
            p: p as u32,
            d,
            time,
            shared,
        });
    }
    if table.rows.is_empty() {
        return Err(
            ReadError::whole(ReadErrorKind::Empty, name, "no rows under the header")
                .help("each line after the header is one timed run: op,p,d,time"),
        );
    }
    Ok(table)
}

/// The comma-separated fields of `line` (which starts at byte `at`), each with its byte
/// range; quotes are respected and removed.
fn split(line: &str, at: usize) -> Vec<(String, Range<usize>)> {
    let line = line.trim_end_matches(['\n', '\r']);
    let mut out = Vec::new();
    let (mut cur, mut quoted, mut from) = (String::new(), false, 0);
    let mut chars = line.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' if quoted && chars.peek().map(|&(_, c)| c) == Some('"') => {
                cur.push('"');
                chars.next();
            }
            '"' => quoted = !quoted,
            ',' if !quoted => {
                out.push((std::mem::take(&mut cur), at + from..at + i));
                from = i + 1;
            }
            _ => cur.push(c),
        }
    }
    out.push((cur, at + from..at + line.len()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operations_are_kept_by_their_normal_names() {
        let text = "op,p,d,time\nbcast,2,1,1\nbarrier,2,,1\n";
        let mut t = read_csv("t.csv", text).unwrap();
        t.keep_ops(&[]).unwrap();
        assert_eq!(t.rows.len(), 2);
        let e = t.keep_ops(&["brodcast".into()]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "`brodcast`: the tables have barrier, broadcast; did you mean `broadcast`?"
        );
        t.keep_ops(&["Bcast".into()]).unwrap();
        assert_eq!(t.rows.len(), 1);
    }

    #[test]
    fn reads_groups_and_round_trips() {
        let text = "# c\nplatform,op,p,d,time\nT3D,Bcast,2,1,164\nT3D,bcast,2,1,166\n\
                    T3D,barrier,2,,7.8\n";
        let t = read_csv("t.csv", text).unwrap();
        assert_eq!(t.rows.len(), 3);
        let g = t.groups();
        assert_eq!(g.len(), 2);
        assert_eq!(g[0].op, "barrier");
        assert!(!g[0].has_size());
        assert_eq!(g[1].op, "broadcast");
        assert_eq!(g[1].cells[0].times, vec![164.0, 166.0]);
        assert_eq!(g[1].cells[0].value(Statistic::Median), 165.0);
        let again = read_csv("again", &t.to_csv()).unwrap();
        assert_eq!(again.rows, t.rows);
    }

    #[test]
    fn errors_name_the_place_and_the_fix() {
        let e = read_csv("t.csv", "op,p,time\nx,2,1\n").unwrap_err();
        assert!(
            e.message
                .contains("t.csv:1:1: the header has no `d` column"),
            "{}",
            e.message
        );
        let e = read_csv("t.csv", "op,p,d,time\nx,2.5,1,1\n").unwrap_err();
        assert!(e.message.starts_with("t.csv:2:3: p = 2.5"), "{}", e.message);
        let e = read_csv("t.csv", "op,p,d,time\nx,2,1,-1\n").unwrap_err();
        assert!(
            e.message.starts_with("t.csv:2:7: time = -1 is not > 0"),
            "{}",
            e.message
        );
        let e = read_csv("t.csv", "op,p,d,time\nx,2,1\n").unwrap_err();
        assert!(e.message.contains("the row has 3 fields"), "{}", e.message);
        let e = read_csv("t.csv", "op,p,d,time\n").unwrap_err();
        assert!(e.message.contains("no rows"), "{}", e.message);
        let e = read_csv("t.csv", "op,p,d,time\nb,2,,3\nb,4,1,3\n").unwrap_err();
        assert!(
            e.message
                .starts_with("t.csv:3:5: b has a size here and none"),
            "{}",
            e.message
        );
        let e = read_csv("t.csv", "op,p,d,time,shared\nx,2,1,1,maybe\n").unwrap_err();
        assert!(e.message.contains("shared = `maybe`"), "{}", e.message);
        assert!(read_csv("t.csv", "").is_err());
    }

    #[test]
    fn time_shared_runs_are_their_own_group() {
        let t = read_csv(
            "t",
            "op,p,d,time,shared\nbarrier,2,,3,0\nbarrier,4,,9,1\nbarrier,4,,8,no\n",
        )
        .unwrap();
        let g = t.groups();
        assert_eq!(g.len(), 2);
        assert!(!g[0].shared && g[1].shared);
        assert_eq!(g[1].label(), "barrier (time-shared)");
    }
}
