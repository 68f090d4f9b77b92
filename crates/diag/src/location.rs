//! Line and column arithmetic on text.

/// 1-based line and column (in characters) of byte offset `pos` in `text`.
///
/// An offset past the end is clamped to the end, and one inside a multi-byte character is
/// moved back to the start of that character.
pub fn line_col(text: &str, pos: usize) -> (usize, usize) {
    let pos = floor_char_boundary(text, pos);
    let before = &text.as_bytes()[..pos];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let col = text[line_start..pos].chars().count() + 1;
    (line, col)
}

/// Byte offset of 1-based `line` and `col` (columns in characters) in `text`, clamped to the
/// end of the line, or of the text.
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

/// The largest character boundary of `text` at or below `i` (at most `text.len()`).
pub fn floor_char_boundary(text: &str, i: usize) -> usize {
    let mut i = i.min(text.len());
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The smallest character boundary of `text` at or above `i` (at most `text.len()`).
pub(crate) fn ceil_char_boundary(text: &str, i: usize) -> usize {
    let mut i = i.min(text.len());
    while i < text.len() && !text.is_char_boundary(i) {
        i += 1;
    }
    i
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
        assert_eq!(line_col(t, 6), (2, 3), "inside `é` counts as its start");
        assert_eq!(line_col(t, 100), (3, 2), "clamped to the end");
        assert_eq!(offset_of(t, 2, 3), 5);
        assert_eq!(offset_of(t, 3, 1), 8);
        assert_eq!(offset_of(t, 9, 1), t.len());
        assert_eq!(offset_of(t, 1, 99), 2, "clamped to the end of the line");
    }

    #[test]
    fn boundaries() {
        let t = "aé";
        assert_eq!(floor_char_boundary(t, 2), 1);
        assert_eq!(ceil_char_boundary(t, 2), 3);
        assert_eq!(floor_char_boundary(t, 9), 3);
    }
}
