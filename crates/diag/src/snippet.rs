//! A bounded window of a text around an error, rendered by `miette` with the line and column
//! numbers of the whole text.

use std::ops::Range;

use miette::{LabeledSpan, MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

use crate::location::{ceil_char_boundary, floor_char_boundary, line_col};

/// Bytes of the error's line kept on each side of the caret.
pub const WINDOW_BYTES: usize = 160;

/// Lines kept before and after the error's line (when they fit in the window).
pub const CONTEXT_LINES: usize = 2;

/// The longest caret drawn under an error, in bytes; a longer span is drawn from its start.
pub const MAX_CARET_BYTES: usize = 2 * WINDOW_BYTES;

/// A contiguous piece of a text, with the line and column where it starts, that `miette`
/// renders as if it were the whole text: spans are offsets into the whole text, and the
/// line and column numbers shown are the whole text's.
///
/// It holds at most about a kilobyte whatever the size of the text, so attaching it to an
/// error costs nothing, and no line drawn is longer than `2 *` `WINDOW_BYTES` plus the
/// caret.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snippet {
    name: String,
    text: String,
    /// Offset of `text` in the whole text.
    base: usize,
    /// 0-based line of `text`'s first byte in the whole text.
    line0: usize,
    /// Bytes between the start of that line and `base`.
    col0: usize,
}

impl Snippet {
    /// The window of `text` (named `name`) around bytes `range` (clamped to the text and
    /// to character boundaries).
    pub fn new(name: &str, text: &str, range: Range<usize>) -> Snippet {
        let start = floor_char_boundary(text, range.start);
        let end = floor_char_boundary(text, range.end.max(start));
        let bytes = text.as_bytes();
        // Back from `start`: up to CONTEXT_LINES whole lines, at most WINDOW_BYTES.
        let lo = start.saturating_sub(WINDOW_BYTES);
        let mut newlines = 0;
        let mut a = lo;
        for i in (lo..start).rev() {
            if bytes[i] == b'\n' {
                newlines += 1;
                if newlines > CONTEXT_LINES {
                    a = i + 1;
                    break;
                }
            }
        }
        let a = ceil_char_boundary(text, a);
        // Forward from `end`: the rest of the line and up to CONTEXT_LINES more, at most
        // WINDOW_BYTES.
        let hi = end.saturating_add(WINDOW_BYTES).min(text.len());
        let mut newlines = 0;
        let mut b = hi;
        for (i, &byte) in bytes.iter().enumerate().take(hi).skip(end) {
            if byte == b'\n' {
                newlines += 1;
                if newlines > CONTEXT_LINES {
                    b = i;
                    break;
                }
            }
        }
        let b = floor_char_boundary(text, b).max(a);
        let before = &bytes[..a];
        let line0 = before.iter().filter(|&&c| c == b'\n').count();
        let line_start = before
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |i| i + 1);
        Snippet {
            name: name.to_string(),
            text: text[a..b].to_string(),
            base: a,
            line0,
            col0: a - line_start,
        }
    }

    /// The name of the text (a file name, as given).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The piece of text kept.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Offsets of the whole text that the piece covers.
    pub fn range(&self) -> Range<usize> {
        self.base..self.base + self.text.len()
    }
}

impl SourceCode for Snippet {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let off = span
            .offset()
            .checked_sub(self.base)
            .filter(|&o| o <= self.text.len())
            .ok_or(MietteError::OutOfBounds)?;
        let len = span.len().min(self.text.len() - off);
        let local = SourceSpan::from((off, len));
        let c = self
            .text
            .as_str()
            .read_span(&local, context_lines_before, context_lines_after)?;
        let column = if c.line() == 0 {
            c.column() + self.col0
        } else {
            c.column()
        };
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            c.data(),
            SourceSpan::from((c.span().offset() + self.base, c.span().len())),
            c.line() + self.line0,
            column,
            c.line_count(),
        )))
    }
}

/// Where in a text an error is: its byte range, 1-based line and column, the caret's label,
/// and a [`Snippet`] of the text around it for rendering.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    span: SourceSpan,
    line: usize,
    col: usize,
    label: String,
    snippet: Snippet,
}

impl Location {
    /// The location of bytes `range` of `text` (named `name` in the rendering), with a caret
    /// `label`. The range is clamped to the text and to character boundaries.
    pub fn new(name: &str, text: &str, range: Range<usize>, label: impl Into<String>) -> Self {
        let start = floor_char_boundary(text, range.start);
        let end = floor_char_boundary(text, range.end.max(start));
        let (line, col) = line_col(text, start);
        Location {
            span: SourceSpan::from(start..end),
            line,
            col,
            label: label.into(),
            snippet: Snippet::new(name, text, start..end),
        }
    }

    /// The byte range in the whole text.
    pub fn span(&self) -> SourceSpan {
        self.span
    }

    /// 1-based line and column (in characters) of the range's start.
    pub fn line_col(&self) -> (usize, usize) {
        (self.line, self.col)
    }

    /// What the caret says.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// The name of the text.
    pub fn name(&self) -> &str {
        self.snippet.name()
    }

    /// `name:line:col`, for messages.
    pub fn display(&self) -> String {
        format!("{}:{}:{}", self.name(), self.line, self.col)
    }

    /// The window of text to render (for `miette::Diagnostic::source_code`).
    pub fn source_code(&self) -> &Snippet {
        &self.snippet
    }

    /// The source code of an optional location, for `miette::Diagnostic::source_code`.
    pub fn source_of(location: Option<&Location>) -> Option<&dyn SourceCode> {
        location.map(|l| l.source_code() as &dyn SourceCode)
    }

    /// The caret of an optional location, for `miette::Diagnostic::labels`.
    pub fn labels_of(
        location: Option<&Location>,
    ) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        location.map(|l| Box::new(std::iter::once(l.labeled_span())) as Box<_>)
    }

    /// The caret, cut to the window (for `miette::Diagnostic::labels`).
    pub fn labeled_span(&self) -> LabeledSpan {
        let start = self.span.offset();
        let window_end = self.snippet.range().end;
        let end = (start + self.span.len())
            .min(start + MAX_CARET_BYTES)
            .min(window_end)
            .max(start);
        let base = self.snippet.base;
        let end = base + floor_char_boundary(&self.snippet.text, end - base);
        let label = (!self.label.is_empty()).then(|| self.label.clone());
        LabeledSpan::new_with_span(label, start..end)
    }
}
