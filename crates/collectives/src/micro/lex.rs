//! Tokens of one logical statement. Blanks separate tokens (they are not significant inside
//! a name, as in free form); names are upper-cased.

use super::error::{SourceError, SourceErrorKind};
use super::source::Statement;
use std::ops::Range;

/// A token and its bytes in the statement's text.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Tok {
    /// A name, upper case.
    Name(String),
    /// An integer constant.
    Int(i64),
    /// A REAL constant, as written (upper case).
    Real(String),
    /// One of `+ - * / ( ) , =`.
    Punct(char),
}

/// The tokens of a statement, with their ranges in the statement's text.
pub(crate) fn tokens(
    src: (&str, &str),
    st: &Statement,
) -> Result<Vec<(Tok, Range<usize>)>, SourceError> {
    let t = st.text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let err = |kind, r: Range<usize>, msg: String, help: &str| {
        Err(SourceError::at(kind, src, st.source(r), msg).help(help.to_string()))
    };
    while i < t.len() {
        let c = t[i];
        let start = i;
        if c == b' ' || c == b'\t' || c == b'\r' {
            i += 1;
            continue;
        }
        if c.is_ascii_alphabetic() {
            while i < t.len() && (t[i].is_ascii_alphanumeric() || t[i] == b'_') {
                i += 1;
            }
            out.push((Tok::Name(st.text[start..i].to_ascii_uppercase()), start..i));
            continue;
        }
        if c.is_ascii_digit() || (c == b'.' && t.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            let mut real = false;
            while i < t.len() && t[i].is_ascii_digit() {
                i += 1;
            }
            // A point followed by a letter may be an operator (`1.EQ.2`); the subset has none.
            if i < t.len() && t[i] == b'.' {
                let next_alpha = t.get(i + 1).is_some_and(u8::is_ascii_alphabetic);
                let exponent = matches!(t.get(i + 1), Some(b'E' | b'e' | b'D' | b'd'))
                    && t.get(i + 2)
                        .is_some_and(|b| b.is_ascii_digit() || *b == b'+' || *b == b'-');
                if !next_alpha || exponent {
                    real = true;
                    i += 1;
                    while i < t.len() && t[i].is_ascii_digit() {
                        i += 1;
                    }
                }
            }
            if i < t.len() && matches!(t[i], b'E' | b'e' | b'D' | b'd') {
                let mut j = i + 1;
                if j < t.len() && (t[j] == b'+' || t[j] == b'-') {
                    j += 1;
                }
                if j < t.len() && t[j].is_ascii_digit() {
                    while j < t.len() && t[j].is_ascii_digit() {
                        j += 1;
                    }
                    real = true;
                    i = j;
                }
            }
            let text = &st.text[start..i];
            if real {
                out.push((Tok::Real(text.to_ascii_uppercase()), start..i));
            } else {
                match text.parse::<i64>() {
                    Ok(v) if v <= 1 << 53 => out.push((Tok::Int(v), start..i)),
                    _ => {
                        return err(
                            SourceErrorKind::Syntax,
                            start..i,
                            format!("the integer constant {} is too large", diag::short(text)),
                            "integer constants of a fragment are at most 2^53",
                        )
                    }
                }
            }
            continue;
        }
        match c {
            b'+' | b'-' | b'/' | b'(' | b')' | b',' | b'=' => {
                out.push((Tok::Punct(c as char), start..i + 1));
                i += 1;
            }
            b'*' => {
                if t.get(i + 1) == Some(&b'*') {
                    return err(
                        SourceErrorKind::Unsupported,
                        start..i + 2,
                        "`**` (exponentiation) is not in the subset of Table 2-2".into(),
                        "write a power as a product (X**2 as X*X); Table 2-4 costs each multiplication",
                    );
                }
                out.push((Tok::Punct('*'), start..i + 1));
                i += 1;
            }
            b'.' => {
                return err(
                    SourceErrorKind::Unsupported,
                    start..(i + 6).min(t.len()),
                    "logical and relational operators (.EQ., .AND., …) are not in the subset of Table 2-2".into(),
                    "the subset is deterministic: assignments and DO loops only, no IF",
                );
            }
            b'\'' | b'"' => {
                return err(
                    SourceErrorKind::Unsupported,
                    start..i + 1,
                    "character constants are not in the subset of Table 2-2".into(),
                    "the subset has INTEGER and REAL values only",
                );
            }
            b';' => {
                return err(
                    SourceErrorKind::Syntax,
                    start..i + 1,
                    "`;` between statements".into(),
                    "write one statement per line",
                );
            }
            _ => {
                let ch = st.text[start..].chars().next().unwrap_or('?');
                return err(
                    SourceErrorKind::Syntax,
                    start..start + ch.len_utf8(),
                    format!("unexpected character {ch:?}"),
                    "the subset has names, constants, + - * / ( ) , and =",
                );
            }
        }
    }
    Ok(out)
}
