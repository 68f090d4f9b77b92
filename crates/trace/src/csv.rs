//! CSV tables for sweep results: the one CSV format of every vates command.
//!
//! Fields that contain a comma, a double quote, a carriage return or a line feed are enclosed
//! in double quotes, with inner double quotes doubled (RFC 4180). Lines end in LF, as Unix
//! tools write them (RFC 4180 readers such as Python's `csv` and pandas accept it).
//! Numbers are printed with Rust's shortest round-trip formatting (`0.1`, `3`, `1e-7` is
//! `0.0000001`), so parsing them back gives the same `f64`; a value that was not computed
//! (NaN) is an empty field, and the infinities print as `inf` / `-inf`.
//!
//! ```
//! use trace::csv::{Cell, Table};
//!
//! let mut t = Table::new(["P", "time", "note"]);
//! t.push_row([Cell::from(4.0), Cell::from(0.1), Cell::from("a, b")]);
//! t.push_row([Cell::from(8.0), Cell::Empty, Cell::from("say \"hi\"")]);
//! assert_eq!(
//!     t.to_string(),
//!     "P,time,note\n4,0.1,\"a, b\"\n8,,\"say \"\"hi\"\"\"\n"
//! );
//! ```

use std::fmt;
use std::io::{self, Write};

/// One field of a [`Table`].
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// A number, printed with shortest round-trip formatting.
    Num(f64),
    /// Text, quoted when needed.
    Text(String),
    /// An empty field.
    Empty,
}

impl From<f64> for Cell {
    fn from(v: f64) -> Self {
        Cell::Num(v)
    }
}

impl From<usize> for Cell {
    /// Exact for values up to 2^53.
    fn from(v: usize) -> Self {
        Cell::Num(v as f64)
    }
}

impl From<&str> for Cell {
    fn from(s: &str) -> Self {
        Cell::Text(s.to_string())
    }
}

impl From<String> for Cell {
    fn from(s: String) -> Self {
        Cell::Text(s)
    }
}

impl<T: Into<Cell>> From<Option<T>> for Cell {
    /// `None` becomes [`Cell::Empty`].
    fn from(v: Option<T>) -> Self {
        v.map_or(Cell::Empty, Into::into)
    }
}

/// A table: a header row of column names and rows of cells.
///
/// Rows are written as given; a row shorter or longer than the header is not padded or cut.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Table {
    /// Column names, written as the header line.
    pub columns: Vec<String>,
    /// The data rows.
    pub rows: Vec<Vec<Cell>>,
}

impl Table {
    /// A table with these column names and no rows.
    pub fn new<S: Into<String>>(columns: impl IntoIterator<Item = S>) -> Self {
        Table {
            columns: columns.into_iter().map(Into::into).collect(),
            rows: Vec::new(),
        }
    }

    /// Appends a row.
    pub fn push_row<C: Into<Cell>>(&mut self, row: impl IntoIterator<Item = C>) {
        self.rows.push(row.into_iter().map(Into::into).collect());
    }

    /// Writes the header and all rows to `w`.
    pub fn write<W: Write>(&self, mut w: W) -> io::Result<()> {
        let mut line = String::new();
        write_line(&mut line, self.columns.iter().map(|c| Field::Text(c)));
        w.write_all(line.as_bytes())?;
        for row in &self.rows {
            line.clear();
            write_line(
                &mut line,
                row.iter().map(|c| match c {
                    Cell::Num(v) => Field::Num(*v),
                    Cell::Text(s) => Field::Text(s),
                    Cell::Empty => Field::Text(""),
                }),
            );
            w.write_all(line.as_bytes())?;
        }
        Ok(())
    }
}

impl fmt::Display for Table {
    /// The CSV text, as [`Table::write`] writes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = Vec::new();
        self.write(&mut buf).map_err(|_| fmt::Error)?;
        f.write_str(&String::from_utf8_lossy(&buf))
    }
}

enum Field<'a> {
    Num(f64),
    Text(&'a str),
}

fn write_line<'a>(out: &mut String, fields: impl Iterator<Item = Field<'a>>) {
    for (i, field) in fields.enumerate() {
        if i > 0 {
            out.push(',');
        }
        match field {
            Field::Num(v) => push_num(out, v),
            Field::Text(s) => push_text(out, s),
        }
    }
    out.push('\n');
}

/// Appends one number field: shortest round-trip text, `inf`/`-inf`, and nothing for NaN
/// (not computed). For writers that format rows themselves (in parallel, say); lines end
/// in `\n`.
pub fn push_num(out: &mut String, v: f64) {
    use std::fmt::Write as _;
    if v.is_nan() {
        return;
    }
    if v.fract() == 0.0 && v.abs() < 9e15 && v != 0.0 {
        // The same text as `{v}` for integers, without the float formatting.
        let _ = write!(out, "{}", v as i64);
    } else {
        let _ = write!(out, "{v}");
    }
}

fn push_text(out: &mut String, s: &str) {
    if s.contains([',', '"', '\r', '\n']) {
        out.push('"');
        out.push_str(&s.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_follows_rfc_4180() {
        let mut t = Table::new(["plain", "with,comma", "with \"quote\"", "multi\nline"]);
        t.push_row([
            Cell::from("x"),
            Cell::from("a,b"),
            Cell::from("\"q\""),
            Cell::from("l1\r\nl2"),
        ]);
        assert_eq!(
            t.to_string(),
            "plain,\"with,comma\",\"with \"\"quote\"\"\",\"multi\nline\"\n\
             x,\"a,b\",\"\"\"q\"\"\",\"l1\r\nl2\"\n"
        );
    }

    #[test]
    fn numbers_round_trip() {
        let values = [0.1, 1.0 / 3.0, 1e-7, 12345678.9, -0.5, 3.0, 1e300];
        let mut t = Table::new(["v"]);
        for v in values {
            t.push_row([v]);
        }
        let s = t.to_string();
        let parsed: Vec<f64> = s
            .split('\n')
            .skip(1)
            .filter(|l| !l.is_empty())
            .map(|l| l.parse().unwrap())
            .collect();
        assert_eq!(parsed, values);
        assert!(s.starts_with("v\n0.1\n0.3333333333333333\n0.0000001\n"));
    }

    #[test]
    fn empty_cells_and_special_numbers() {
        let mut t = Table::new(["a", "b", "c"]);
        t.push_row([Cell::Empty, Cell::from(f64::NAN), Cell::from(None::<f64>)]);
        t.push_row([
            Cell::from(f64::INFINITY),
            Cell::from(7usize),
            Cell::from(Some("s")),
        ]);
        assert_eq!(t.to_string(), "a,b,c\n,,\ninf,7,s\n");
    }

    #[test]
    fn write_matches_to_string() {
        let mut t = Table::new(["x"]);
        t.push_row([1.5]);
        let mut buf = Vec::new();
        t.write(&mut buf).unwrap();
        assert_eq!(String::from_utf8(buf).unwrap(), t.to_string());
    }
}
