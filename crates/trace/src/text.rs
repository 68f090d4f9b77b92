//! Human-readable output: compact numbers and aligned text tables.

use std::fmt::Write as _;

/// A number for people: integers without a fraction (`40`), others with up to 7 significant
/// digits and no trailing zeros (`0.900072`, `1.508454`, `0.3333333`), very large or small
/// magnitudes in scientific notation (`1.5e-9`, `2.5e+20`), and `inf`, `-inf`, `NaN`.
pub fn num(v: f64) -> String {
    if v.is_nan() {
        return "NaN".to_string();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf" } else { "-inf" }.to_string();
    }
    if v == 0.0 {
        return "0".to_string();
    }
    let a = v.abs();
    if v.fract() == 0.0 && a < 1e15 {
        return (v as i64).to_string();
    }
    if !(1e-4..1e15).contains(&a) {
        let s = format!("{v:.6e}");
        return trim_exp(&s);
    }
    // Seven significant digits.
    let digits = 7 - 1 - a.log10().floor() as i32;
    let places = digits.clamp(0, 15) as usize;
    let s = format!("{v:.places$}");
    trim_zeros(&s)
}

/// A number with a fixed count of decimals (for utilisation and ratios): `0.930`.
pub fn fixed(v: f64, places: usize) -> String {
    if v.is_finite() {
        format!("{v:.places$}")
    } else {
        num(v)
    }
}

/// A duration in seconds for people, in the largest unit that keeps it ≥ 1, with four
/// significant digits: `12.35 ms`, `1.5 s`, `350 µs`, `17 ns`; `0 s` for zero.
pub fn seconds(v: f64) -> String {
    if !v.is_finite() {
        return format!("{} s", num(v));
    }
    let a = v.abs();
    let (scale, unit) = if a == 0.0 || a >= 1.0 {
        (1.0, "s")
    } else if a >= 1e-3 {
        (1e3, "ms")
    } else if a >= 1e-6 {
        (1e6, "µs")
    } else {
        (1e9, "ns")
    };
    let x = v * scale;
    let digits = if x.abs() >= 1.0 {
        (3 - x.abs().log10().floor() as i32).max(0) as usize
    } else {
        3
    };
    format!("{} {unit}", trim_zeros(&format!("{x:.digits$}")))
}

fn trim_zeros(s: &str) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s.to_string()
    }
}

fn trim_exp(s: &str) -> String {
    match s.split_once('e') {
        Some((m, e)) => {
            let m = trim_zeros(m);
            let e = if let Some(rest) = e.strip_prefix('-') {
                format!("-{rest}")
            } else {
                format!("+{e}")
            };
            format!("{m}e{e}")
        }
        None => s.to_string(),
    }
}

/// Column alignment in a [`TextTable`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// Flush left (names).
    Left,
    /// Flush right (numbers).
    Right,
}

/// A table printed with aligned columns separated by two spaces, a header and a rule.
#[derive(Clone, Debug, Default)]
pub struct TextTable {
    /// Column headers with their alignment.
    pub columns: Vec<(String, Align)>,
    /// Rows of cells (already formatted).
    pub rows: Vec<Vec<String>>,
    /// Rows after which a marker note is printed (e.g. `<- P*`), by row index.
    pub notes: Vec<(usize, String)>,
    /// The last column's cells run on (long free text, e.g. a distribution): the rule under
    /// the header ends with that column's header instead of its longest cell.
    pub last_runs_on: bool,
}

impl TextTable {
    /// A table with these headers.
    pub fn new(columns: impl IntoIterator<Item = (String, Align)>) -> Self {
        TextTable {
            columns: columns.into_iter().collect(),
            rows: Vec::new(),
            notes: Vec::new(),
            last_runs_on: false,
        }
    }

    /// Appends a row.
    pub fn push(&mut self, row: Vec<String>) {
        self.rows.push(row);
    }

    /// Renders the table, every line prefixed by `indent`.
    pub fn render(&self, indent: &str) -> String {
        let n = self.columns.len();
        let mut width: Vec<usize> = self
            .columns
            .iter()
            .map(|(h, _)| h.chars().count())
            .collect();
        for row in &self.rows {
            for (i, c) in row.iter().enumerate().take(n) {
                width[i] = width[i].max(c.chars().count());
            }
        }
        let mut out = String::new();
        let line = |cells: &mut dyn Iterator<Item = &str>| {
            let mut s = String::from(indent);
            for (i, c) in cells.enumerate().take(n) {
                if i > 0 {
                    s.push_str("  ");
                }
                let pad = width[i].saturating_sub(c.chars().count());
                match self.columns[i].1 {
                    Align::Left => {
                        s.push_str(c);
                        s.push_str(&" ".repeat(pad));
                    }
                    Align::Right => {
                        s.push_str(&" ".repeat(pad));
                        s.push_str(c);
                    }
                }
            }
            s
        };
        let head = line(&mut self.columns.iter().map(|(h, _)| h.as_str()));
        let _ = writeln!(out, "{}", head.trim_end());
        let mut total: usize = width.iter().sum::<usize>() + 2 * n.saturating_sub(1);
        if let (true, Some(last), Some((head, _))) =
            (self.last_runs_on, width.last(), self.columns.last())
        {
            total = total - last + head.chars().count();
        }
        let _ = writeln!(out, "{indent}{}", "-".repeat(total));
        for (r, row) in self.rows.iter().enumerate() {
            let l = line(&mut row.iter().map(String::as_str));
            let l = l.trim_end();
            match self.notes.iter().find(|(i, _)| *i == r) {
                Some((_, note)) => {
                    let _ = writeln!(out, "{l}  {note}");
                }
                None => {
                    let _ = writeln!(out, "{l}");
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_take_the_largest_unit_that_keeps_them_above_one() {
        assert_eq!(seconds(0.012345), "12.35 ms");
        assert_eq!(seconds(1.5), "1.5 s");
        assert_eq!(seconds(3.5e-4), "350 µs");
        assert_eq!(seconds(1.7e-8), "17 ns");
        assert_eq!(seconds(0.0), "0 s");
        assert_eq!(seconds(1234.5), "1234 s");
    }

    #[test]
    fn numbers_are_compact() {
        assert_eq!(num(40.0), "40");
        assert_eq!(num(-3.0), "-3");
        assert_eq!(num(0.900072), "0.900072");
        assert_eq!(num(1.0 / 3.0), "0.3333333");
        assert_eq!(num(2.5), "2.5");
        assert_eq!(num(1234567.5), "1234568");
        assert_eq!(num(1.5e-9), "1.5e-9");
        assert_eq!(num(2.5e20), "2.5e+20");
        assert_eq!(num(f64::INFINITY), "inf");
        assert_eq!(num(0.0), "0");
        assert_eq!(fixed(0.9302, 3), "0.930");
    }

    #[test]
    fn tables_align() {
        let mut t = TextTable::new([
            ("P".to_string(), Align::Right),
            ("name".to_string(), Align::Left),
        ]);
        t.push(vec!["1".into(), "a".into()]);
        t.push(vec!["12".into(), "bcd".into()]);
        t.notes.push((1, "<- here".into()));
        assert_eq!(
            t.render(""),
            " P  name\n--------\n 1  a\n12  bcd  <- here\n"
        );
    }

    #[test]
    fn a_last_column_that_runs_on_keeps_the_rule_to_its_header() {
        let mut t = TextTable::new([
            ("p".to_string(), Align::Right),
            ("times".to_string(), Align::Left),
        ]);
        t.push(vec!["2".into(), "4: 1/2, 8: 1/2".into()]);
        t.last_runs_on = true;
        assert_eq!(
            t.render("  "),
            "  p  times\n  --------\n  2  4: 1/2, 8: 1/2\n"
        );
    }
}
