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
    /// The parameter columns (default: the columns left of the first metric column, but
    /// the callpath).
    pub params: Vec<String>,
    /// The metric columns (default: the last column that is not a parameter or the
    /// callpath).
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

/// Reads CSV from `text` (named `name` in messages).
///
/// # Errors
/// A [`ReadError`]: malformed CSV (at its line), a column named in `opts` that the header
/// does not have (with the closest name), a row with another number of fields, a parameter
/// or metric value that is not a finite number (at its line and column), no rows.
pub fn read(name: &str, text: &str, opts: &CsvOptions) -> Result<Experiment, ReadError> {
    let src = (name, text);
    let mut rdr = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .flexible(true)
        .from_reader(text.as_bytes());
    let bad_csv = |e: csv::Error| {
        let at = e
            .position()
            .map_or(0, |p| p.byte() as usize)
            .min(text.len());
        ReadError::at(
            ReadErrorKind::Syntax,
            src,
            at..at,
            format!("invalid CSV: {e}"),
        )
        .help("the first line names the columns; each further line is one run")
    };
    let header: Vec<String> = rdr
        .headers()
        .map_err(bad_csv)?
        .iter()
        .map(str::to_string)
        .collect();
    let head_line = 0..text.find('\n').unwrap_or(text.len());
    let column = |n: &str| -> Result<usize, ReadError> {
        header.iter().position(|h| h == n).ok_or_else(|| {
            let hint = diag::did_you_mean(&diag::suggest(n, header.iter().map(String::as_str)))
                .unwrap_or_else(|| format!("the columns are {}", header.join(", ")));
            ReadError::at(
                ReadErrorKind::UnknownName,
                src,
                head_line.clone(),
                format!("no column `{n}`"),
            )
            .help(hint)
        })
    };
    let callpath = match &opts.callpath {
        Some(c) => Some(column(c)?),
        None => header
            .iter()
            .position(|h| h.eq_ignore_ascii_case("callpath")),
    };
    let mut params = opts
        .params
        .iter()
        .map(|p| column(p))
        .collect::<Result<Vec<_>, _>>()?;
    let mut metrics = opts
        .metrics
        .iter()
        .map(|m| column(m))
        .collect::<Result<Vec<_>, _>>()?;
    let free = |j: &usize, taken: &[usize]| Some(*j) != callpath && !taken.contains(j);
    if metrics.is_empty() {
        metrics.extend((0..header.len()).rev().find(|j| free(j, &params)));
    }
    if params.is_empty() {
        let first = metrics.iter().copied().min().unwrap_or(header.len());
        params = (0..first).filter(|j| free(j, &metrics)).collect();
    }
    if metrics.is_empty() || params.is_empty() {
        return Err(ReadError::at(
            ReadErrorKind::Mismatch,
            src,
            head_line,
            format!(
                "{} columns: not enough for a parameter and a metric",
                header.len()
            ),
        )
        .help("the header needs at least a parameter column and a metric column"));
    }
    let mut b = Builder::new(params.iter().map(|&j| header[j].clone()).collect());
    let mut series: Vec<(usize, Option<usize>)> = metrics.iter().map(|&m| (m, None)).collect();
    let mut point = vec![0.0; params.len()];
    let mut rows = 0usize;
    let mut record = csv::StringRecord::new();
    while rdr.read_record(&mut record).map_err(bad_csv)? {
        let start = record.position().map_or(0, |p| p.byte() as usize);
        if record.len() == 1 && record[0].is_empty() {
            continue;
        }
        if record.len() != header.len() {
            return Err(ReadError::at(
                ReadErrorKind::Mismatch,
                src,
                field_range(text, start, usize::MAX),
                format!(
                    "{} fields in a row under a header of {} columns",
                    record.len(),
                    header.len()
                ),
            )
            .help("give every row one field per column"));
        }
        let value = |j: usize| {
            number(&record[j]).ok_or_else(|| {
                let finite = record[j].parse::<f64>().is_ok();
                ReadError::at(
                    if finite {
                        ReadErrorKind::NotFinite
                    } else {
                        ReadErrorKind::NotANumber
                    },
                    src,
                    field_range(text, start, j),
                    format!(
                        "`{}` in column `{}` is not a finite number",
                        &record[j], header[j]
                    ),
                )
                .help("parameter and metric columns hold decimal numbers")
            })
        };
        for (slot, &j) in point.iter_mut().zip(&params) {
            *slot = value(j)?;
        }
        let cp = callpath.map_or("", |c| &record[c]);
        for (m, sid) in series.iter_mut() {
            let v = value(*m)?;
            // Without a callpath column each metric is one series, looked up once.
            let s = match sid {
                Some(s) if callpath.is_none() => *s,
                _ => b.series(cp, &header[*m]),
            };
            *sid = Some(s);
            b.add(s, &point, &[v]);
        }
        rows += 1;
    }
    if rows == 0 {
        return Err(
            ReadError::whole(ReadErrorKind::Empty, name, "no rows under the header")
                .help("each line after the header is one run"),
        );
    }
    Ok(b.finish())
}
