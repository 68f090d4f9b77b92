//! Fortran source lines to logical statements: fixed form (label in columns 1–5, a
//! continuation mark in column 6, the statement in columns 7–72, `C`, `c`, `*` or `!` in
//! column 1 for a comment) or free form (`!` comments, `&` at the end of a line continues it,
//! a leading `&` on the next line is skipped). Each statement keeps the map from its
//! characters back to the bytes of the source, so every later error points into the text.

use super::error::{SourceError, SourceErrorKind};
use std::ops::Range;

/// The source form of a fragment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// Fixed form (FORTRAN 77): columns 1–5 label, 6 continuation, 7–72 statement.
    Fixed,
    /// Free form (Fortran 90): statements anywhere, `&` continues a line. A line whose first
    /// non-blank character is `&` continues the previous one even when that line does not end
    /// with `&` (the thesis writes its fragments so).
    Free,
}

impl Form {
    /// The form a text is most likely in: fixed when every line that holds a statement keeps
    /// columns 1–6 free of letters (a label, a blank or a continuation mark there) and some
    /// line is a column-1 comment or a column-6 continuation; free otherwise. Text that is
    /// both (every statement indented past column 6, no comments) reads the same either way.
    pub fn guess(text: &str) -> Form {
        let mut fixed_marks = false;
        for line in text.lines() {
            let cols: Vec<char> = line.chars().take(7).collect();
            if cols.iter().all(|c| c.is_whitespace()) {
                continue;
            }
            if matches!(cols[0], 'C' | 'c' | '*') {
                // A comment in fixed form, or a statement (`C = …`) in free form.
                let rest: String = line.chars().skip(1).take_while(|c| *c != '\n').collect();
                let statement = rest.trim_start().starts_with('=')
                    || rest.trim_start().starts_with('(')
                    || rest.starts_with(|c: char| c.is_ascii_alphanumeric());
                if statement {
                    return Form::Free;
                }
                fixed_marks = true;
                continue;
            }
            if cols[0] == '!' || cols[0] == '\t' {
                continue;
            }
            let head: Vec<char> = cols.iter().take(6).copied().collect();
            if head
                .iter()
                .take(5)
                .any(|c| !(c.is_ascii_digit() || *c == ' '))
            {
                return Form::Free;
            }
            if head.len() == 6
                && head[..5].iter().all(|c| *c == ' ')
                && !matches!(head[5], ' ' | '0')
            {
                fixed_marks = true;
            }
        }
        if fixed_marks {
            Form::Fixed
        } else {
            Form::Free
        }
    }
}

/// Limits on the input; each error names the limit it hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Bytes of source text.
    pub max_bytes: usize,
    /// Statements (after joining continuation lines).
    pub max_statements: usize,
    /// Bytes of one statement (after joining continuation lines).
    pub max_statement_bytes: usize,
    /// Nesting depth of DO loops.
    pub max_loop_depth: usize,
    /// Nesting depth of an expression (parentheses, unary signs, subscripts).
    pub max_expr_depth: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_bytes: 1 << 20,
            max_statements: 10_000,
            max_statement_bytes: 16 << 10,
            max_loop_depth: 12,
            max_expr_depth: 64,
        }
    }
}

/// One logical statement: its optional label, its text (continuations joined, comments
/// dropped) and where each piece came from.
#[derive(Clone, Debug)]
pub(crate) struct Statement {
    /// The statement label and its bytes in the source.
    pub label: Option<(u32, Range<usize>)>,
    /// The statement's characters.
    pub text: String,
    /// `(start in text, start in source)` of each piece, in order.
    pieces: Vec<(usize, usize)>,
}

impl Statement {
    /// The source bytes of `range` of the statement's text.
    pub fn source(&self, range: Range<usize>) -> Range<usize> {
        let at = |pos: usize| -> usize {
            let k = self
                .pieces
                .partition_point(|(t, _)| *t <= pos)
                .saturating_sub(1);
            let (t, s) = self.pieces.get(k).copied().unwrap_or((0, 0));
            s + (pos - t.min(pos))
        };
        let start = at(range.start);
        let end = if range.end > range.start {
            at(range.end - 1) + 1
        } else {
            start
        };
        start..end.max(start)
    }

    /// The source bytes of the whole statement.
    pub fn whole(&self) -> Range<usize> {
        self.source(0..self.text.len())
    }

    fn push(&mut self, piece: &str, source_start: usize) {
        if piece.is_empty() {
            return;
        }
        self.pieces.push((self.text.len(), source_start));
        self.text.push_str(piece);
    }
}

/// The logical statements of `text` in `form`, under `limits`.
pub(crate) fn statements(
    src: (&str, &str),
    form: Form,
    limits: &Limits,
) -> Result<Vec<Statement>, SourceError> {
    let (name, text) = src;
    if text.len() > limits.max_bytes {
        return Err(SourceError::whole(
            SourceErrorKind::Limit,
            name,
            format!(
                "the fragment has {} bytes, more than the limit of {} (max_bytes)",
                text.len(),
                limits.max_bytes
            ),
        )
        .help("micro-analysis reads code fragments; split the file or raise Limits::max_bytes"));
    }
    let mut out: Vec<Statement> = Vec::new();
    // Whether the last line ended with `&` (free form).
    let mut open = false;
    let mut offset = 0usize;
    for raw in text.split_inclusive('\n') {
        let line_start = offset;
        offset += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        let piece = match form {
            Form::Fixed => fixed_line(src, line, line_start)?,
            Form::Free => free_line(src, line, line_start, &mut open)?,
        };
        let Some(piece) = piece else { continue };
        if piece.continuation {
            let Some(last) = out.last_mut() else {
                return Err(SourceError::at(
                    SourceErrorKind::Syntax,
                    src,
                    piece.start..piece.start + 1,
                    "a continuation line with no statement before it",
                )
                .help("a continuation line extends the statement on the line above; write the statement first"));
            };
            last.push(
                &line[piece.start - line_start..piece.end - line_start],
                piece.start,
            );
        } else {
            if out.len() == limits.max_statements {
                return Err(SourceError::at(
                    SourceErrorKind::Limit,
                    src,
                    piece.start..piece.end,
                    format!(
                        "more than {} statements (max_statements)",
                        limits.max_statements
                    ),
                )
                .help("micro-analysis reads code fragments; split the file or raise Limits::max_statements"));
            }
            let mut s = Statement {
                label: piece.label,
                text: String::new(),
                pieces: Vec::new(),
            };
            s.push(
                &line[piece.start - line_start..piece.end - line_start],
                piece.start,
            );
            out.push(s);
        }
        if let Some(last) = out.last() {
            if last.text.len() > limits.max_statement_bytes {
                let r = last.whole();
                return Err(SourceError::at(
                    SourceErrorKind::Limit,
                    src,
                    r.start..r.start + 1,
                    format!(
                        "a statement longer than {} bytes (max_statement_bytes)",
                        limits.max_statement_bytes
                    ),
                )
                .help("split the statement, or raise Limits::max_statement_bytes"));
            }
        }
    }
    // A statement of blanks only (a label alone, a lone `&`) is no statement.
    out.retain(|s| !s.text.trim().is_empty() || s.label.is_some());
    Ok(out)
}

/// The part of a line that is statement text, as source byte offsets.
struct Piece {
    label: Option<(u32, Range<usize>)>,
    continuation: bool,
    start: usize,
    end: usize,
}

/// The statement text of a fixed-form line, or `None` for a comment or blank line.
fn fixed_line(src: (&str, &str), line: &str, at: usize) -> Result<Option<Piece>, SourceError> {
    let first = line.chars().next();
    if matches!(first, None | Some('C' | 'c' | '*' | '!')) || line.trim().is_empty() {
        return Ok(None);
    }
    // Byte offsets of columns 6 and 7 (a tab in columns 1–6 jumps to column 7).
    let mut label_end = line.len();
    let mut body = line.len();
    let mut mark: Option<(usize, char)> = None;
    for (col, (i, c)) in line.char_indices().enumerate() {
        if c == '\t' {
            label_end = i;
            body = i + 1;
            break;
        }
        if col == 5 {
            label_end = i;
            if !matches!(c, ' ' | '0') {
                mark = Some((i, c));
            }
            body = i + c.len_utf8();
            break;
        }
        if !(c.is_ascii_digit() || c == ' ') {
            return Err(SourceError::at(
                SourceErrorKind::Syntax,
                src,
                at + i..at + i + c.len_utf8(),
                format!("{c:?} in column {} of a fixed-form line", col + 1),
            )
            .help("in fixed form columns 1–5 hold a statement label (digits), column 6 a continuation mark, and statements start in column 7; or read the fragment as Form::Free"));
        }
    }
    let label = label(src, &line[..label_end], at)?;
    // Columns 73 and beyond: the standard ignores them, which hides mistakes; refuse them.
    let mut end = line.len();
    let mut col72 = None;
    let start_col = line[..body].chars().count().max(6);
    for (k, (i, _)) in line[body..].char_indices().enumerate() {
        if start_col + k == 72 {
            col72 = Some(body + i);
            break;
        }
    }
    if let Some(cut) = col72 {
        let rest = &line[cut..];
        let code = rest.split('!').next().unwrap_or("");
        if !code.trim().is_empty() {
            return Err(SourceError::at(
                SourceErrorKind::Syntax,
                src,
                at + cut..at + line.len(),
                "statement text beyond column 72 of a fixed-form line",
            )
            .help("fixed form ends at column 72; continue the statement on a line with a mark in column 6, or read the fragment as Form::Free"));
        }
        end = cut;
    }
    let text = &line[body..end];
    let end = body + text.find('!').unwrap_or(text.len());
    if let Some((i, _)) = mark {
        if label.is_some() {
            return Err(SourceError::at(
                SourceErrorKind::Syntax,
                src,
                at..at + i,
                "a continuation line cannot have a label",
            )
            .help("labels belong on the first line of a statement"));
        }
    }
    Ok(Some(Piece {
        label,
        continuation: mark.is_some(),
        start: at + body,
        end: at + end,
    }))
}

/// The statement text of a free-form line, or `None` for a comment or blank line.
fn free_line(
    src: (&str, &str),
    line: &str,
    at: usize,
    open: &mut bool,
) -> Result<Option<Piece>, SourceError> {
    let code = &line[..line.find('!').unwrap_or(line.len())];
    let trimmed = code.trim_start();
    if trimmed.trim().is_empty() {
        return Ok(None);
    }
    let mut start = code.len() - trimmed.len();
    let mut continuation = *open;
    if trimmed.starts_with('&') {
        continuation = true;
        start += 1;
    }
    let mut end = code.trim_end().len();
    *open = code[start.min(end)..end].ends_with('&');
    if *open {
        end -= 1;
    }
    let mut label_found = None;
    if !continuation {
        let digits = code[start..].len()
            - code[start..]
                .trim_start_matches(|c: char| c.is_ascii_digit())
                .len();
        let after = code[start + digits..].chars().next();
        if digits > 0 && matches!(after, Some(' ' | '\t')) {
            label_found = label(src, &code[start..start + digits], at + start)?;
            start += digits;
        }
    }
    Ok(Some(Piece {
        label: label_found,
        continuation,
        start: at + start,
        end: at + end.max(start),
    }))
}

/// A statement label from the digits (and blanks) of `field`, which starts at byte `at`.
fn label(
    src: (&str, &str),
    field: &str,
    at: usize,
) -> Result<Option<(u32, Range<usize>)>, SourceError> {
    let digits: String = field.chars().filter(|c| !c.is_whitespace()).collect();
    if digits.is_empty() {
        return Ok(None);
    }
    let first = at + field.len() - field.trim_start().len();
    let range = first..at + field.trim_end().len();
    match digits.parse::<u32>() {
        Ok(v) if (1..=99_999).contains(&v) => Ok(Some((v, range))),
        _ => Err(SourceError::at(
            SourceErrorKind::Syntax,
            src,
            range,
            format!("label {digits} is not a number from 1 to 99999"),
        )
        .help("a statement label has one to five digits and is not 0")),
    }
}
