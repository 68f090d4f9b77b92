//! Extra-P's JSON Lines format: one object per line,
//! `{"params": {"p": 4, "n": 100}, "value": 1.5, "callpath": "main", "metric": "time"}`, where
//! `value` is a number or a list of repetitions and `callpath` and `metric` are optional
//! (Extra-P's defaults `<root>` and `<default>`). The first line fixes the parameters.

use serde_json::Value;

use super::{number, Builder, Experiment, ReadError, ReadErrorKind};

/// Reads JSON Lines from `text` (named `name` in messages).
///
/// # Errors
/// A [`ReadError`] at the offending line: invalid JSON (at serde's line and column), a
/// missing `params` or `value`, parameters other than the first line's, a value that is not
/// a finite number, a file without lines.
pub fn read(name: &str, text: &str) -> Result<Experiment, ReadError> {
    let text = super::without_bom(text);
    let src = (name, text);
    let mut b: Option<Builder> = None;
    for (start, line) in super::lines(text) {
        let body = line.trim_end();
        if body.trim_start().is_empty() {
            continue;
        }
        let whole = start..start + body.len();
        let v: Value = serde_json::from_str(body).map_err(|e| {
            let col = e.column().saturating_sub(1).min(body.len());
            let at = diag::floor_char_boundary(text, start + col);
            // serde's message ends with its own position, relative to the line.
            let full = e.to_string();
            let what = full.split(" at line ").next().unwrap_or(&full);
            ReadError::at(
                ReadErrorKind::Syntax,
                src,
                at..at,
                format!("invalid JSON: {what}"),
            )
            .help("each line is one JSON object: {\"params\": {\"p\": 4}, \"value\": 1.5}")
        })?;
        let missing = |what: &str| {
            ReadError::at(
                ReadErrorKind::Syntax,
                src,
                whole.clone(),
                format!("the line has no `{what}`"),
            )
            .help("each line is one JSON object: {\"params\": {\"p\": 4}, \"value\": 1.5}")
        };
        let Some(params) = v.get("params").and_then(Value::as_object) else {
            return Err(missing("params"));
        };
        let builder = b.get_or_insert_with(|| Builder::new(params.keys().cloned().collect()));
        let names = &builder.parameters;
        if params.len() != names.len() || !names.iter().all(|n| params.contains_key(n)) {
            return Err(ReadError::at(
                ReadErrorKind::Mismatch,
                src,
                whole,
                format!(
                    "the parameters {:?} differ from the first line's {:?}",
                    params.keys().collect::<Vec<_>>(),
                    names
                ),
            )
            .help("give every line the same parameters"));
        }
        let mut point = Vec::with_capacity(names.len());
        for n in names {
            point.push(finite(
                src,
                &whole,
                &params[n],
                &format!("parameter `{n}`"),
            )?);
        }
        let values = match v.get("value") {
            Some(Value::Array(a)) => a
                .iter()
                .map(|x| finite(src, &whole, x, "a repetition"))
                .collect::<Result<Vec<_>, _>>()?,
            Some(x) => vec![finite(src, &whole, x, "`value`")?],
            None => return Err(missing("value")),
        };
        let text_of = |k: &str, default: &str| {
            v.get(k)
                .map(|x| x.as_str().map_or_else(|| x.to_string(), str::to_string))
                .unwrap_or_else(|| default.to_string())
        };
        let s = builder.series(
            &text_of("callpath", "<root>"),
            &text_of("metric", "<default>"),
        );
        builder.add(s, &point, &values);
    }
    b.map(Builder::finish).ok_or_else(|| {
        ReadError::whole(ReadErrorKind::Empty, name, "no lines")
            .help("each line is one JSON object: {\"params\": {\"p\": 4}, \"value\": 1.5}")
    })
}

fn finite(
    src: (&str, &str),
    line: &std::ops::Range<usize>,
    v: &Value,
    what: &str,
) -> Result<f64, ReadError> {
    let x = match v {
        Value::Number(n) => n
            .as_f64()
            .map_or(Err(super::BadNumber::NotANumber), super::value),
        Value::String(s) => number(s),
        _ => Err(super::BadNumber::NotANumber),
    };
    x.map_err(|bad| {
        let (what_is, help) = match bad {
            super::BadNumber::Subnormal => (format!("{what} {v} {}", bad.what()), bad.help()),
            _ => (
                format!("{what} is {v}, not a finite number"),
                "parameters and values are JSON numbers",
            ),
        };
        ReadError::at(bad.kind(), src, line.clone(), what_is).help(help)
    })
}
