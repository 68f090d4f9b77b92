//! Errors: every way a task graph or its text can be wrong, with the task and the source
//! location when there is one.

use miette::{NamedSource, SourceSpan};

/// The class of a [`GraphError`]; tests and tools match on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// Malformed text: bad JSON, DOT or STG syntax, wrong value types, unknown fields.
    Syntax,
    /// Two tasks with the same id.
    DuplicateId,
    /// A predecessor (or edge endpoint, or WfCommons parent/child) naming no task.
    UnknownTask,
    /// The precedence relation has a cycle.
    Cycle,
    /// A task that is its own predecessor.
    SelfLoop,
    /// A task time that is negative, NaN or infinite.
    BadTime,
    /// A request rate that is negative, NaN or infinite.
    BadRate,
    /// An attribute with the wrong type (e.g. `proc` that is not an integer).
    BadAttribute,
    /// A task with no time and no default time.
    MissingTime,
    /// A task without an attribute that the chosen policy needs (e.g. `proc`).
    MissingAttribute,
    /// A size limit ([`crate::Limits`]) was exceeded.
    Limit,
    /// A generator option or time distribution that makes no sense.
    BadOption,
}

/// An error in a task graph or its text, with the task and source location when known.
///
/// Renders with `miette` (message, source snippet with a caret label, help).
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct GraphError {
    /// The class of error.
    pub kind: ErrorKind,
    /// One-line description (includes line:column and task id when known).
    pub message: String,
    /// How to fix it.
    pub help: Option<String>,
    /// Index of the offending task (in input order), when the error is about one task.
    pub task: Option<u32>,
    /// Id of the offending task, when known.
    pub task_id: Option<String>,
    /// 1-based line and column of the error in the input text, when known.
    pub line_col: Option<(usize, usize)>,
    location: Option<Box<Location>>,
}

#[derive(Debug)]
struct Location {
    source: NamedSource<String>,
    span: SourceSpan,
    label: String,
}

impl miette::Diagnostic for GraphError {
    fn help<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn std::fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.location
            .as_ref()
            .map(|l| &l.source as &dyn miette::SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        let l = self.location.as_ref()?;
        Some(Box::new(std::iter::once(
            miette::LabeledSpan::new_with_span(Some(l.label.clone()), l.span),
        )))
    }
}

/// Inputs larger than this are not copied into the error for rendering.
const MAX_ATTACHED_SOURCE: usize = 8 << 20;

impl GraphError {
    /// An error with no location.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        GraphError {
            kind,
            message: message.into(),
            help: None,
            task: None,
            task_id: None,
            line_col: None,
            location: None,
        }
    }

    /// The byte range of the error in the input, when the input was small enough (8 MiB)
    /// to be attached.
    pub fn span(&self) -> Option<SourceSpan> {
        self.location.as_ref().map(|l| l.span)
    }

    /// The caret label under [`GraphError::span`] (empty when there is none).
    pub fn label(&self) -> &str {
        self.location.as_ref().map_or("", |l| l.label.as_str())
    }

    /// Adds a hint.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Records which task (index and id) the error is about.
    pub fn with_task(mut self, index: u32, id: impl Into<String>) -> Self {
        self.task = Some(index);
        self.task_id = Some(id.into());
        self
    }

    /// Points the error at byte range `start..end` of `text` (named `name`), with a caret
    /// label (the text is attached for rendering only if at most 8 MiB); also fills [`GraphError::line_col`] and appends ` (at line L, column C)` to the
    /// message if it is not there yet.
    pub fn at(
        mut self,
        name: &str,
        text: &str,
        start: usize,
        end: usize,
        label: impl Into<String>,
    ) -> Self {
        let start = floor_char_boundary(text, start.min(text.len()));
        let end = floor_char_boundary(text, end.clamp(start, text.len()));
        let (line, col) = line_col(text, start);
        if self.line_col.is_none() {
            self.message = format!("{} (at line {line}, column {col})", self.message);
        }
        self.line_col = Some((line, col));
        if text.len() <= MAX_ATTACHED_SOURCE {
            self.location = Some(Box::new(Location {
                source: NamedSource::new(name, text.to_string()),
                span: SourceSpan::from(start..end),
                label: label.into(),
            }));
        }
        self
    }
}

/// 1-based line and column (in characters) of byte offset `pos` in `text`.
pub fn line_col(text: &str, pos: usize) -> (usize, usize) {
    let pos = floor_char_boundary(text, pos.min(text.len()));
    let before = &text[..pos];
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = text[line_start..pos].chars().count() + 1;
    (line, col)
}

/// Byte offset of 1-based `line`, `col` (columns in characters) in `text`, clamped.
pub fn offset_of(text: &str, line: usize, col: usize) -> usize {
    let mut off = 0;
    for _ in 1..line {
        match text[off..].find('\n') {
            Some(i) => off += i + 1,
            None => return text.len(),
        }
    }
    let rest = &text[off..];
    let line_end = rest.find('\n').unwrap_or(rest.len());
    let byte_col = rest[..line_end]
        .char_indices()
        .nth(col.saturating_sub(1))
        .map_or(line_end, |(i, _)| i);
    off + byte_col
}

fn floor_char_boundary(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Up to three known names closest to `name` by edit distance (for "did you mean" hints).
pub fn suggest<'a>(name: &str, known: impl Iterator<Item = &'a str>) -> Vec<String> {
    // Bounded work: names up to 256 bytes, lengths within the allowed distance, and at
    // most about 2·10^7 character comparisons in all.
    let n = name.chars().count();
    let max = (n / 3).max(2);
    let mut best: Vec<(usize, String)> = Vec::new();
    let mut budget: usize = 20_000_000;
    if name.len() > 256 {
        return Vec::new();
    }
    for k in known {
        if k.len() > 256 || k.len().abs_diff(name.len()) > 4 * max {
            continue;
        }
        let cost = n * k.len() + 1;
        if cost > budget {
            break;
        }
        budget -= cost;
        let d = edit_distance(name, k);
        if d <= max {
            best.push((d, k.to_string()));
        }
    }
    best.sort();
    best.dedup();
    best.into_iter().take(3).map(|(_, k)| k).collect()
}

fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// "did you mean `x`, `y`?" or nothing.
pub(crate) fn did_you_mean(cands: &[String]) -> Option<String> {
    if cands.is_empty() {
        None
    } else {
        let list: Vec<String> = cands.iter().map(|c| format!("`{c}`")).collect();
        Some(format!("did you mean {}?", list.join(", ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_and_back() {
        let t = "ab\ncdé\nf";
        assert_eq!(line_col(t, 0), (1, 1));
        assert_eq!(line_col(t, 3), (2, 1));
        assert_eq!(line_col(t, 7), (2, 4));
        assert_eq!(offset_of(t, 2, 3), 5);
        assert_eq!(offset_of(t, 3, 1), 8);
        assert_eq!(offset_of(t, 9, 1), t.len());
    }

    #[test]
    fn suggestions() {
        let known = ["alpha", "beta", "gamma", "alpah"];
        assert_eq!(
            suggest("alpha1", known.iter().copied()),
            vec!["alpha", "alpah"]
        );
        assert!(suggest("zzzzzz", known.iter().copied()).is_empty());
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
