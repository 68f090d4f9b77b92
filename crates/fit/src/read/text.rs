//! Extra-P's text format: `PARAMETER` names, `POINTS` (numbers, or `(a b)` tuples for several
//! parameters), then per `REGION` (callpath) and optional `METRIC` one `DATA` line per point,
//! in the points' order, holding that point's repetitions. Blank lines and lines starting
//! with `#` are ignored.
//!
//! ```text
//! PARAMETER p
//! POINTS 4 8 16 32 64
//! REGION main
//! METRIC time
//! DATA 8.31 8.02 8.14
//! DATA 22.74 22.66 23.20
//! ...
//! ```

use super::{number, Builder, Experiment, ReadError, ReadErrorKind};

/// The keywords of the format.
const FIELDS: [&str; 5] = ["PARAMETER", "POINTS", "REGION", "METRIC", "DATA"];

/// The whitespace-separated words of `line` (which starts at byte `base` of the text) with
/// their byte ranges in the text.
fn words(line: &str, base: usize) -> impl Iterator<Item = (std::ops::Range<usize>, &str)> {
    line.split_ascii_whitespace().map(move |w| {
        let start = base + (w.as_ptr() as usize - line.as_ptr() as usize);
        (start..start + w.len(), w)
    })
}

/// Where the DATA lines of the current region and metric stand.
struct Block {
    series: usize,
    next_point: usize,
    header: std::ops::Range<usize>,
}

/// Reads Extra-P's text format from `text` (named `name` in messages).
///
/// # Errors
/// A [`ReadError`] at the offending word: an unknown keyword (with the closest one), a value
/// that is not a finite number, POINTS whose tuples do not have one value per parameter, more
/// or fewer DATA lines than POINTS, DATA before PARAMETER and POINTS, a file without data.
pub fn read(name: &str, text: &str) -> Result<Experiment, ReadError> {
    let text = super::without_bom(text);
    let src = (name, text);
    let mut params: Vec<String> = Vec::new();
    let mut points: Vec<Vec<f64>> = Vec::new();
    let mut b = Builder::default();
    let (mut region, mut metric) = (String::new(), String::new());
    let mut block: Option<Block> = None;
    for (start, line) in super::lines(text) {
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let mut ws = words(line, start);
        let Some((at, field)) = ws.next() else {
            continue;
        };
        let rest: Vec<_> = ws.collect();
        let value = || {
            let (first, last) = (rest.first(), rest.last());
            match (first, last) {
                (Some(f), Some(l)) => text[f.0.start..l.0.end].to_string(),
                _ => String::new(),
            }
        };
        match field {
            "PARAMETER" => {
                if !points.is_empty() {
                    return Err(syntax(
                        src,
                        at,
                        "PARAMETER after POINTS",
                        "name every parameter before the first POINTS line",
                    ));
                }
                if rest.is_empty() {
                    return Err(syntax(
                        src,
                        at,
                        "PARAMETER without a name",
                        "write `PARAMETER p` (several names may share a line)",
                    ));
                }
                for (r, w) in &rest {
                    if params.iter().any(|p| p == w) {
                        return Err(syntax(
                            src,
                            r.clone(),
                            "a parameter named twice",
                            "give every parameter its own name",
                        ));
                    }
                    params.push(w.to_string());
                }
            }
            "POINTS" => {
                if params.is_empty() {
                    return Err(syntax(
                        src,
                        at,
                        "POINTS before any PARAMETER",
                        "start the file with `PARAMETER name` lines",
                    ));
                }
                points.extend(parse_points(src, &rest, params.len(), at)?);
            }
            "REGION" | "METRIC" => {
                close(src, &block, points.len())?;
                block = None;
                if field == "REGION" {
                    region = value();
                } else {
                    metric = value();
                }
            }
            "DATA" => {
                if points.is_empty() {
                    return Err(syntax(
                        src,
                        at,
                        "DATA before any POINTS",
                        "list the measured points with POINTS before their DATA lines",
                    ));
                }
                let blk = block.get_or_insert_with(|| Block {
                    series: b.series(&region, &metric),
                    next_point: 0,
                    header: at.clone(),
                });
                let Some(point) = points.get(blk.next_point) else {
                    return Err(ReadError::at(
                        ReadErrorKind::Mismatch,
                        src,
                        at,
                        format!(
                            "DATA line {} of this region, but there are only {} POINTS",
                            blk.next_point + 1,
                            points.len()
                        ),
                    )
                    .help("give one DATA line per point, in the order of the POINTS"));
                };
                if rest.is_empty() {
                    return Err(syntax(
                        src,
                        at,
                        "DATA without values",
                        "write the point's repetitions on the line: `DATA 1.2 1.3`",
                    ));
                }
                let mut values = Vec::with_capacity(rest.len());
                for (r, w) in &rest {
                    values.push(num(src, r.clone(), w)?);
                }
                b.add(blk.series, point, &values);
                blk.next_point += 1;
            }
            other => {
                let mut err = ReadError::at(
                    ReadErrorKind::Syntax,
                    src,
                    at,
                    format!("unknown field `{}`", super::short(other)),
                );
                let hint = diag::did_you_mean(&diag::suggest(other, FIELDS))
                    .unwrap_or_else(|| format!("the fields are {}", FIELDS.join(", ")));
                err = err.help(hint);
                return Err(err);
            }
        }
    }
    close(src, &block, points.len())?;
    let mut e = b.finish();
    e.parameters = params;
    if e.series.is_empty() {
        return Err(
            ReadError::whole(ReadErrorKind::Empty, name, "no DATA lines")
                .help("an Extra-P text file needs PARAMETER, POINTS and one DATA line per point"),
        );
    }
    Ok(e)
}

/// A syntax error at `at` with its hint.
fn syntax(src: (&str, &str), at: std::ops::Range<usize>, message: &str, help: &str) -> ReadError {
    ReadError::at(ReadErrorKind::Syntax, src, at, message).help(help)
}

/// Checks that the block that ends had one DATA line per point.
fn close(src: (&str, &str), block: &Option<Block>, points: usize) -> Result<(), ReadError> {
    match block {
        Some(b) if b.next_point < points => Err(ReadError::at(
            ReadErrorKind::Mismatch,
            src,
            b.header.clone(),
            format!("{} DATA lines here for {points} POINTS", b.next_point),
        )
        .help("give one DATA line per point, in the order of the POINTS")),
        _ => Ok(()),
    }
}

fn num(src: (&str, &str), r: std::ops::Range<usize>, w: &str) -> Result<f64, ReadError> {
    number(w).map_err(|bad| {
        ReadError::at(
            bad.kind(),
            src,
            r,
            format!("`{}` {}", super::short(w), bad.what()),
        )
        .help(bad.help())
    })
}

/// The points of one POINTS line: plain numbers for one parameter, `(a b)` tuples (with or
/// without spaces inside the parentheses) for any number.
fn parse_points(
    src: (&str, &str),
    words: &[(std::ops::Range<usize>, &str)],
    dims: usize,
    at: std::ops::Range<usize>,
) -> Result<Vec<Vec<f64>>, ReadError> {
    let tupled = words.iter().any(|(_, w)| w.contains('('));
    if !tupled {
        if dims != 1 {
            return Err(ReadError::at(
                ReadErrorKind::Mismatch,
                src,
                at,
                format!("{dims} parameters but the POINTS are plain numbers"),
            )
            .help("write each point as a tuple: `POINTS (1 2) (1 4)`"));
        }
        return words
            .iter()
            .map(|(r, w)| num(src, r.clone(), w).map(|v| vec![v]))
            .collect();
    }
    // Split the words further at parentheses, keeping ranges.
    let mut out = Vec::new();
    let mut cur: Option<(usize, Vec<f64>)> = None;
    for (r, w) in words {
        let mut i = 0;
        let bytes = w.as_bytes();
        while i < bytes.len() {
            let c = bytes[i];
            let here = r.start + i;
            match c {
                b'(' => {
                    if cur.is_some() {
                        return Err(ReadError::at(
                            ReadErrorKind::Syntax,
                            src,
                            here..here + 1,
                            "`(` inside a point",
                        )
                        .help("close each point with `)` before the next"));
                    }
                    cur = Some((here, Vec::new()));
                    i += 1;
                }
                b')' => {
                    let Some((open, vals)) = cur.take() else {
                        return Err(ReadError::at(
                            ReadErrorKind::Syntax,
                            src,
                            here..here + 1,
                            "`)` without `(`",
                        ));
                    };
                    if vals.len() != dims {
                        return Err(ReadError::at(
                            ReadErrorKind::Mismatch,
                            src,
                            open..here + 1,
                            format!(
                                "a point with {} value{} for {dims} parameters",
                                vals.len(),
                                if vals.len() == 1 { "" } else { "s" }
                            ),
                        )
                        .help("give each point one value per PARAMETER, in their order"));
                    }
                    out.push(vals);
                    i += 1;
                }
                _ => {
                    let end = bytes[i..]
                        .iter()
                        .position(|&b| b == b'(' || b == b')')
                        .map_or(bytes.len(), |k| i + k);
                    let tok = &w[i..end];
                    let Some((_, vals)) = cur.as_mut() else {
                        return Err(ReadError::at(
                            ReadErrorKind::Syntax,
                            src,
                            here..r.start + end,
                            format!("`{tok}` outside a point's parentheses"),
                        )
                        .help("write each point as a tuple: `POINTS (1 2) (1 4)`"));
                    };
                    vals.push(num(src, here..r.start + end, tok)?);
                    i = end;
                }
            }
        }
    }
    if let Some((open, _)) = cur {
        return Err(
            ReadError::at(ReadErrorKind::Syntax, src, open..open + 1, "`(` not closed")
                .help("close the point with `)`"),
        );
    }
    Ok(out)
}
