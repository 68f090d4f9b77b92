//! CSV with a header and one row per run: parameter columns, metric columns and optionally a
//! callpath column. Rows at the same point are repetitions.
//!
//! ```text
//! p,n,time,energy
//! 2,1000,1.52,40.1
//! 2,1000,1.49,39.8
//! 4,1000,0.81,41.0
//! ```

use super::{number, Builder, Experiment, ReadError, ReadErrorKind};

/// Which columns are what.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CsvOptions {
    /// The parameter columns (default: the columns that are not metrics or the callpath).
    pub params: Vec<String>,
    /// The metric columns. Default with no parameters given: the columns with distinct values
    /// in 90% of the rows or more (measured values rather than a design), or, when that does
    /// not leave a parameter, the last column; with parameters given, the last other column.
    pub metrics: Vec<String>,
    /// The callpath column (default: a column named `callpath`, if there is one).
    pub callpath: Option<String>,
}

/// The byte range of field `index` of the record that starts at byte `start` of `text`
/// (quotes respected), or of the line when the field is past its end.
fn field_range(text: &str, start: usize, index: usize) -> std::ops::Range<usize> {
    let bytes = text.as_bytes();
    let (mut i, mut field, mut quoted, mut from) = (start, 0, false, start);
    while i < bytes.len() {
        match bytes[i] {
            b'"' => quoted = !quoted,
            b',' if !quoted => {
                if field == index {
                    return from..i;
                }
                field += 1;
                from = i + 1;
            }
            b'\n' | b'\r' if !quoted => break,
            _ => {}
        }
        i += 1;
    }
    if field == index {
        from..i
    } else {
        start..i
    }
}

/// A CSV text being read: its name and text (for located errors), the reader and the header.
struct Table<'a> {
    src: (&'a str, &'a str),
    rdr: csv::Reader<&'a [u8]>,
    header: Vec<String>,
}

impl<'a> Table<'a> {
    fn open(name: &'a str, text: &'a str) -> Result<Table<'a>, ReadError> {
        let mut rdr = csv::ReaderBuilder::new()
            .trim(csv::Trim::All)
            .flexible(true)
            .from_reader(text.as_bytes());
        let src = (name, text);
        let header = rdr
            .headers()
            .map_err(|e| bad_csv(src, e))?
            .iter()
            .map(str::to_string)
            .collect::<Vec<String>>();
        // Two columns of one name would be read as one (the first, or both merged into one
        // series): refuse the second, at its place in the header.
        for (j, h) in header.iter().enumerate() {
            if let Some(first) = header[..j].iter().position(|g| g == h && !g.is_empty()) {
                let start = if text.starts_with('\u{feff}') { 3 } else { 0 };
                return Err(ReadError::at(
                    ReadErrorKind::Mismatch,
                    src,
                    field_range(text, start, j),
                    format!(
                        "the column name `{}` appears twice: columns {} and {}",
                        super::short(h),
                        first + 1,
                        j + 1
                    ),
                )
                .help("give every column its own name (rename or drop one of them)"));
            }
        }
        Ok(Table { src, rdr, header })
    }

    /// The byte range of the header line.
    fn head_line(&self) -> std::ops::Range<usize> {
        0..self.src.1.find('\n').unwrap_or(self.src.1.len())
    }

    /// The index of column `n`, or an error at the header with the closest name.
    fn column(&self, n: &str) -> Result<usize, ReadError> {
        self.header.iter().position(|h| h == n).ok_or_else(|| {
            let names = self.header.iter().map(String::as_str);
            let hint = diag::did_you_mean(&diag::suggest(n, names)).unwrap_or_else(|| {
                if self.header.iter().all(|h| h.trim().is_empty()) {
                    return "the file has no header: its first line names the columns".to_string();
                }
                let shown: Vec<String> = self
                    .header
                    .iter()
                    .take(20)
                    .map(|h| super::short(h))
                    .collect();
                format!("the columns are {}", shown.join(", "))
            });
            ReadError::at(
                ReadErrorKind::UnknownName,
                self.src,
                self.head_line(),
                format!("no column `{}`", super::short(n)),
            )
            .help(hint)
        })
    }

    /// The next non-empty row with as many fields as the header, and its byte offset.
    fn next_row(&mut self, record: &mut csv::StringRecord) -> Result<Option<usize>, ReadError> {
        loop {
            if !self
                .rdr
                .read_record(record)
                .map_err(|e| bad_csv(self.src, e))?
            {
                return Ok(None);
            }
            let start = record.position().map_or(0, |p| p.byte() as usize);
            if record.len() == 1 && record[0].is_empty() {
                continue;
            }
            if record.len() != self.header.len() {
                return Err(ReadError::at(
                    ReadErrorKind::Mismatch,
                    self.src,
                    field_range(self.src.1, start, usize::MAX),
                    format!(
                        "{} fields in a row under a header of {} columns",
                        record.len(),
                        self.header.len()
                    ),
                )
                .help("give every row one field per column"));
            }
            return Ok(Some(start));
        }
    }

    /// Field `j` of the row at `start` as a finite number.
    fn number(&self, record: &csv::StringRecord, start: usize, j: usize) -> Result<f64, ReadError> {
        number(&record[j]).map_err(|bad| {
            ReadError::at(
                bad.kind(),
                self.src,
                field_range(self.src.1, start, j),
                format!(
                    "`{}` in column `{}` {}",
                    super::short(&record[j]),
                    super::short(&self.header[j]),
                    bad.what()
                ),
            )
            .help(match bad {
                super::BadNumber::Subnormal => bad.help(),
                _ => "parameter and metric columns hold decimal numbers",
            })
        })
    }

    fn no_rows(&self) -> ReadError {
        ReadError::whole(ReadErrorKind::Empty, self.src.0, "no rows under the header")
            .help("each line after the header is one run")
    }
}

fn bad_csv(src: (&str, &str), e: csv::Error) -> ReadError {
    let at = e
        .position()
        .map_or(0, |p| p.byte() as usize)
        .min(src.1.len());
    ReadError::at(
        ReadErrorKind::Syntax,
        src,
        at..at,
        format!("invalid CSV: {e}"),
    )
    .help("the first line names the columns; each further line is one run")
}

/// Reads CSV from `text` (named `name` in messages).
///
/// # Errors
/// A [`ReadError`]: malformed CSV (at its line), a column named in `opts` that the header
/// does not have (with the closest name), a row with another number of fields, a parameter
/// or metric value that is not a finite number (at its line and column), no rows.
pub fn read(name: &str, text: &str, opts: &CsvOptions) -> Result<Experiment, ReadError> {
    let mut t = Table::open(name, text)?;
    let callpath = match &opts.callpath {
        Some(c) => Some(t.column(c)?),
        None => t
            .header
            .iter()
            .position(|h| h.eq_ignore_ascii_case("callpath")),
    };
    let mut params = opts
        .params
        .iter()
        .map(|p| t.column(p))
        .collect::<Result<Vec<_>, _>>()?;
    let mut metrics = opts
        .metrics
        .iter()
        .map(|m| t.column(m))
        .collect::<Result<Vec<_>, _>>()?;
    let width = t.header.len();
    let free = |j: &usize, taken: &[usize]| Some(*j) != callpath && !taken.contains(j);
    if metrics.is_empty() && params.is_empty() {
        // Parameters are the design, repeated over runs; metrics are measured, nearly all
        // different: a column with distinct values in 90% of the rows or more is a metric.
        let distinct = distinct_counts(name, text, width);
        if let Some((rows, counts)) = distinct {
            let measured: Vec<usize> = (0..width)
                .filter(|j| free(j, &[]) && counts[*j] * 10 >= rows * 9)
                .collect();
            // The rest must vary, as parameters of a design do.
            let design_varies = (0..width)
                .filter(|j| free(j, &measured))
                .all(|j| counts[j] > 1);
            if !measured.is_empty()
                && measured.len() < (0..width).filter(|j| free(j, &[])).count()
                && design_varies
            {
                params = (0..width).filter(|j| free(j, &measured)).collect();
                metrics = measured;
            }
        }
    }
    if metrics.is_empty() {
        metrics.extend((0..width).rev().find(|j| free(j, &params)));
    }
    if params.is_empty() {
        let first = metrics.iter().copied().min().unwrap_or(width);
        params = (0..first).filter(|j| free(j, &metrics)).collect();
    }
    if metrics.is_empty() || params.is_empty() {
        return Err(ReadError::at(
            ReadErrorKind::Mismatch,
            t.src,
            t.head_line(),
            format!("{width} columns: not enough for a parameter and a metric"),
        )
        .help("the header needs at least a parameter column and a metric column"));
    }
    let names: Vec<String> = params.iter().map(|&j| t.header[j].clone()).collect();
    for (k, n) in names.iter().enumerate() {
        if names[..k].contains(n) || metrics.iter().any(|&m| &t.header[m] == n) {
            return Err(ReadError::at(
                ReadErrorKind::Mismatch,
                t.src,
                t.head_line(),
                format!("the column name `{}` appears twice", super::short(n)),
            )
            .help("give every column its own name"));
        }
    }
    let mut b = Builder::new(names);
    let mut series: Vec<(usize, Option<usize>)> = metrics.iter().map(|&m| (m, None)).collect();
    let mut point = vec![0.0; params.len()];
    let mut rows = 0usize;
    let mut record = csv::StringRecord::new();
    while let Some(start) = t.next_row(&mut record)? {
        for (slot, &j) in point.iter_mut().zip(&params) {
            *slot = t.number(&record, start, j)?;
        }
        let cp = callpath.map_or("", |c| &record[c]);
        for (m, sid) in series.iter_mut() {
            let v = t.number(&record, start, *m)?;
            // Without a callpath column each metric is one series, looked up once.
            let s = match sid {
                Some(s) if callpath.is_none() => *s,
                _ => b.series(cp, &t.header[*m]),
            };
            *sid = Some(s);
            b.add(s, &point, &[v]);
        }
        rows += 1;
    }
    if rows == 0 {
        return Err(t.no_rows());
    }
    Ok(b.finish())
}

/// The number of rows and each column's number of distinct fields over the first 10,000
/// rows (enough to tell a design from measurements), or `None` for text the reader will
/// reject anyway.
fn distinct_counts(name: &str, text: &str, width: usize) -> Option<(usize, Vec<usize>)> {
    use std::hash::{Hash, Hasher};
    const SAMPLE: usize = 10_000;
    let mut t = Table::open(name, text).ok()?;
    let mut seen: Vec<std::collections::HashSet<u64>> = vec![Default::default(); width];
    let mut record = csv::StringRecord::new();
    let mut rows = 0;
    while rows < SAMPLE {
        let Ok(Some(_)) = t.next_row(&mut record) else {
            break;
        };
        rows += 1;
        for (set, field) in seen.iter_mut().zip(record.iter()) {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            field.hash(&mut h);
            set.insert(h.finish());
        }
    }
    Some((rows, seen.iter().map(|s| s.len()).collect()))
}

/// The rows of a CSV file for a table of runs: numeric columns (some required, some
/// optional), text columns, and where each row starts, for messages about a value.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rows {
    /// The numeric columns asked for, in order; an optional column the file lacks is `None`.
    pub numbers: Vec<Option<Vec<f64>>>,
    /// The text columns asked for (trimmed, unquoted); one the file lacks is `None`.
    pub texts: Vec<Option<Vec<String>>>,
    /// Where each row begins in the text.
    pub starts: Vec<usize>,
    /// The header's names.
    pub header: Vec<String>,
}

impl Rows {
    /// An error about the value of column `column` in row `row` (located at the field): a
    /// number outside the range its column allows.
    pub fn value_error(
        &self,
        src: (&str, &str),
        row: usize,
        column: &str,
        message: impl Into<String>,
        help: impl Into<String>,
    ) -> ReadError {
        self.field_error(ReadErrorKind::OutOfRange, src, row, column, message, help)
    }

    /// An error of class `kind` about the field of column `column` in row `row` (located
    /// at the field): a name the caller does not know, say.
    pub fn field_error(
        &self,
        kind: ReadErrorKind,
        (name, text): (&str, &str),
        row: usize,
        column: &str,
        message: impl Into<String>,
        help: impl Into<String>,
    ) -> ReadError {
        let j = self
            .header
            .iter()
            .position(|h| h == column)
            .unwrap_or(usize::MAX);
        let start = self.starts.get(row).copied().unwrap_or(0);
        ReadError::at(kind, (name, text), field_range(text, start, j), message).help(help)
    }
}

/// Reads the rows of a CSV file: the `required` columns as numbers (a missing one is an
/// error with the closest name), the `optional` ones as numbers where the header has them
/// (an empty field of an optional column, a value not measured in that row, is NaN), and
/// the `texts` columns as text where it has them.
///
/// # Errors
/// As [`read`]: malformed CSV, a missing required column, a row with another number of
/// fields, a value that is not a finite number (at its line and column), no rows.
pub fn rows(
    name: &str,
    text: &str,
    required: &[&str],
    optional: &[&str],
    texts: &[&str],
) -> Result<Rows, ReadError> {
    let mut t = Table::open(name, text)?;
    let mut num_idx: Vec<Option<usize>> = Vec::new();
    for n in required {
        num_idx.push(Some(t.column(n)?));
    }
    for n in optional {
        num_idx.push(t.header.iter().position(|h| h == n));
    }
    let text_idx: Vec<Option<usize>> = texts
        .iter()
        .map(|n| t.header.iter().position(|h| h == n))
        .collect();
    let mut out = Rows {
        numbers: num_idx.iter().map(|j| j.map(|_| Vec::new())).collect(),
        texts: text_idx.iter().map(|j| j.map(|_| Vec::new())).collect(),
        starts: Vec::new(),
        header: t.header.clone(),
    };
    let mut record = csv::StringRecord::new();
    while let Some(start) = t.next_row(&mut record)? {
        for (k, (col, j)) in out.numbers.iter_mut().zip(&num_idx).enumerate() {
            if let (Some(col), Some(j)) = (col, j) {
                let empty = k >= required.len() && record[*j].trim().is_empty();
                col.push(if empty {
                    f64::NAN
                } else {
                    t.number(&record, start, *j)?
                });
            }
        }
        for (col, j) in out.texts.iter_mut().zip(&text_idx) {
            if let (Some(col), Some(j)) = (col, j) {
                col.push(record[*j].to_string());
            }
        }
        out.starts.push(start);
    }
    if out.starts.is_empty() {
        return Err(t.no_rows());
    }
    Ok(out)
}

/// The named columns of a CSV file, as numbers, one entry per row: for a regression on
/// columns (every row must hold a finite number in each).
///
/// # Errors
/// As [`read`]: malformed CSV, an unknown column (with the closest name), a row with another
/// number of fields, a value that is not a finite number (at its line and column), no rows.
pub fn columns(name: &str, text: &str, wanted: &[String]) -> Result<Vec<Vec<f64>>, ReadError> {
    let mut t = Table::open(name, text)?;
    let idx = wanted
        .iter()
        .map(|n| t.column(n))
        .collect::<Result<Vec<usize>, _>>()?;
    let mut out = vec![Vec::new(); wanted.len()];
    let mut record = csv::StringRecord::new();
    let mut rows = 0usize;
    while let Some(start) = t.next_row(&mut record)? {
        for (col, &j) in out.iter_mut().zip(&idx) {
            col.push(t.number(&record, start, j)?);
        }
        rows += 1;
    }
    if rows == 0 {
        return Err(t.no_rows());
    }
    Ok(out)
}
