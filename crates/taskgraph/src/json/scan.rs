//! The fast path of the JSON reader: a scanner for the common shape of task-graph files
//! (`{"tasks": [{"id": "t1", "time": 2.5, "preds": ["t0"]}, …]}`: string ids without
//! escapes, numbers, `preds` lists), several times faster than the general parser on a
//! million tasks, and run on two threads for large files. It accepts only input it can read
//! exactly; anything else (escapes, `rate` or `attrs`, other keys, anything malformed) makes
//! it give up, and the general parser reads the file and reports any error. Both fill the
//! same [`Tasks`].

use super::{Span, Tasks};

/// Texts from this size on are scanned in two halves at once.
const SPLIT_BYTES: usize = 1 << 22;

/// The tasks of `text`, or `None` when the text is not of the simple shape.
pub(super) fn scan(text: &str) -> Option<Tasks<'_>> {
    if text.len() >= SPLIT_BYTES {
        if let Some(t) = scan_halves(text) {
            return Some(t);
        }
    }
    let mut s = Scanner::new(text, 0);
    let mut t = Tasks::new(text);
    reserve(&mut t, text.len());
    s.head()?;
    t.pred_off.push(0);
    if !s.eat(b']') {
        s.tasks(&mut t)?;
    }
    s.tail()?;
    Some(t)
}

/// [`scan`] of a large text as two halves on two threads, split at the first `{` after the
/// middle that follows a `,`. A split inside a string leaves the first half with an
/// unterminated string (fast-path strings have no escaped quotes), so a wrong split fails
/// and the caller scans the whole text instead.
pub(super) fn scan_halves(text: &str) -> Option<Tasks<'_>> {
    let b = text.as_bytes();
    let mid = text.len() / 2;
    let split = mid + b[mid..].iter().position(|&c| c == b'{')?;
    let before = b[..split].iter().rposition(|c| !c.is_ascii_whitespace())?;
    if b[before] != b',' {
        return None;
    }
    let (first, second) = rayon::join(
        || {
            // Up to and including the comma: the half ends after it.
            let mut s = Scanner::new(&text[..=before], 0);
            let mut t = Tasks::new(text);
            reserve(&mut t, split);
            s.head()?;
            t.pred_off.push(0);
            s.tasks(&mut t)?;
            s.skip_ws();
            (s.i == s.b.len()).then_some(t)
        },
        || {
            let mut s = Scanner::new(text, split);
            let mut t = Tasks::new(text);
            reserve(&mut t, text.len() - split);
            t.pred_off.push(0);
            s.tasks(&mut t)?;
            s.tail()?;
            Some(t)
        },
    );
    let (mut t, u) = (first?, second?);
    let shift = t.preds.len();
    t.ids.extend_from_slice(&u.ids);
    t.times.extend_from_slice(&u.times);
    t.preds.extend_from_slice(&u.preds);
    t.pred_off
        .extend(u.pred_off[1..].iter().map(|&o| o + shift));
    Some(t)
}

/// Room for as many tasks and predecessors as `bytes` of text can hold (a task takes at
/// least 20 bytes, a predecessor 4): the arrays never grow and copy, and room never written
/// is address space, not memory.
fn reserve(t: &mut Tasks, bytes: usize) {
    t.ids.reserve(bytes / 20 + 1);
    t.times.reserve(bytes / 20 + 1);
    t.pred_off.reserve(bytes / 20 + 2);
    t.preds.reserve(bytes / 4 + 1);
}

struct Scanner<'a> {
    text: &'a str,
    b: &'a [u8],
    i: usize,
}

impl<'a> Scanner<'a> {
    /// A scanner of `text` (spans are offsets of it) from byte `i`.
    fn new(text: &'a str, i: usize) -> Self {
        Scanner {
            text,
            b: text.as_bytes(),
            i,
        }
    }

    /// `{"tasks": [`
    fn head(&mut self) -> Option<()> {
        self.expect(b'{')?;
        if self.key()? != b"tasks" {
            return None;
        }
        self.expect(b':')?;
        self.expect(b'[')
    }

    /// `]}` and the end of the text.
    fn tail(&mut self) -> Option<()> {
        self.expect(b'}')?;
        self.skip_ws();
        (self.i == self.b.len()).then_some(())
    }

    /// Tasks separated by commas, up to and including the closing `]`, or up to the end of
    /// the text when it ends after a comma (the first half of a split).
    fn tasks(&mut self, t: &mut Tasks<'a>) -> Option<()> {
        loop {
            self.task(t)?;
            if self.eat(b']') {
                return Some(());
            }
            self.expect(b',')?;
            self.skip_ws();
            if self.i == self.b.len() {
                return Some(());
            }
        }
    }

    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.b.get(self.i) {
            self.i += 1;
        }
    }

    /// Skips white space and takes `c` if it is next.
    fn eat(&mut self, c: u8) -> bool {
        self.skip_ws();
        if self.b.get(self.i) == Some(&c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: u8) -> Option<()> {
        self.eat(c).then_some(())
    }

    /// A string without escapes or control characters; its span.
    fn string_span(&mut self) -> Option<(usize, usize)> {
        self.skip_ws();
        if self.b.get(self.i) != Some(&b'"') {
            return None;
        }
        let start = self.i + 1;
        let len = self.b[start..]
            .iter()
            .position(|&c| c == b'"' || c == b'\\' || c < 0x20)?;
        if self.b[start + len] != b'"' {
            return None;
        }
        self.i = start + len + 1;
        Some((start, len))
    }

    /// A key: a string's bytes.
    fn key(&mut self) -> Option<&'a [u8]> {
        let (start, len) = self.string_span()?;
        Some(&self.b[start..start + len])
    }

    /// A JSON number (`-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?`) or `null`.
    fn number_or_null(&mut self) -> Option<Option<f64>> {
        self.skip_ws();
        if self.b[self.i..].starts_with(b"null") {
            self.i += 4;
            return Some(None);
        }
        let start = self.i;
        let digits = |s: &mut Self| {
            let from = s.i;
            while s.b.get(s.i).is_some_and(u8::is_ascii_digit) {
                s.i += 1;
            }
            s.i - from
        };
        if self.b.get(self.i) == Some(&b'-') {
            self.i += 1;
        }
        let first = *self.b.get(self.i)?;
        let n = digits(self);
        if n == 0 || (first == b'0' && n > 1) {
            return None;
        }
        if self.b.get(self.i) == Some(&b'.') {
            self.i += 1;
            if digits(self) == 0 {
                return None;
            }
        }
        if let Some(b'e' | b'E') = self.b.get(self.i) {
            self.i += 1;
            if let Some(b'+' | b'-') = self.b.get(self.i) {
                self.i += 1;
            }
            if digits(self) == 0 {
                return None;
            }
        }
        // The bytes scanned are ASCII, so this slice of the text is on character boundaries.
        let s = self.text.get(start..self.i)?;
        // Rust's parse rounds correctly, as the general parser does; a number beyond the
        // f64 range is the general parser's to report.
        s.parse::<f64>().ok().filter(|x| x.is_finite()).map(Some)
    }

    /// One task object, appended to `t`.
    fn task(&mut self, t: &mut Tasks<'a>) -> Option<()> {
        self.expect(b'{')?;
        let (mut id, mut time, mut preds) = (None, None, false);
        if !self.eat(b'}') {
            loop {
                let key = self.key()?;
                self.expect(b':')?;
                match key {
                    b"id" if id.is_none() => id = Some(self.string_span()?),
                    b"time" if time.is_none() => time = Some(self.number_or_null()?),
                    b"preds" if !preds => {
                        preds = true;
                        self.expect(b'[')?;
                        if !self.eat(b']') {
                            loop {
                                let (start, len) = self.string_span()?;
                                t.preds.push(span(start, len));
                                if self.eat(b']') {
                                    break;
                                }
                                self.expect(b',')?;
                            }
                        }
                    }
                    _ => return None,
                }
                if self.eat(b'}') {
                    break;
                }
                self.expect(b',')?;
            }
        }
        let (start, len) = id?;
        t.ids.push(span(start, len));
        t.times.push(time.flatten());
        t.pred_off.push(t.preds.len());
        Some(())
    }
}

fn span(start: usize, len: usize) -> Span {
    Span {
        start: start as u32,
        len: len as u32,
        escaped: false,
    }
}
