//! Small helpers shared by the SVG exporters: axis ticks, compact number labels, XML escaping.

/// A "nice" step (1, 2 or 5 times a power of ten) so that `span` is covered by roughly
/// `target` steps. `span` must be positive and finite.
pub(crate) fn nice_step(span: f64, target: usize) -> f64 {
    let raw = span / target.max(1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let norm = raw / mag;
    let nice = if norm <= 1.0 {
        1.0
    } else if norm <= 2.0 {
        2.0
    } else if norm <= 5.0 {
        5.0
    } else {
        10.0
    };
    nice * mag
}

/// Tick positions: multiples of a nice step within `[lo, hi]`, at most about `target + 2`.
/// Returns an empty vector for an empty or non-finite range.
pub(crate) fn ticks(lo: f64, hi: f64, target: usize) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite()) || hi <= lo {
        return Vec::new();
    }
    let step = nice_step(hi - lo, target);
    if !(step.is_finite() && step > 0.0) {
        return Vec::new();
    }
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    (first..=last)
        .take(4 * target + 4)
        .map(|k| {
            let v = k as f64 * step;
            // Avoid printing "-0".
            if v == 0.0 {
                0.0
            } else {
                v
            }
        })
        .collect()
}

/// A short label for a number: at most 4 significant digits, exponent notation for very large
/// or very small magnitudes, no trailing zeros.
pub(crate) fn label(v: f64) -> String {
    if v == 0.0 {
        return "0".to_string();
    }
    if !v.is_finite() {
        return v.to_string();
    }
    let a = v.abs();
    if !(1e-3..1e6).contains(&a) {
        let s = format!("{v:.3e}");
        // Trim "1.500e6" to "1.5e6".
        return match s.split_once('e') {
            Some((m, e)) if m.contains('.') => {
                let m = m.trim_end_matches('0').trim_end_matches('.');
                format!("{m}e{e}")
            }
            _ => s,
        };
    }
    let decimals = (3 - a.log10().floor() as i32).clamp(0, 6) as usize;
    let s = format!("{v:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// Escapes `& < > " '` for use in XML text and attribute values.
pub(crate) fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Control characters other than tab/newline are not allowed in XML 1.0.
            c if c.is_control() && c != '\t' && c != '\n' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// At most `max` characters of `s`, with an ellipsis if something was cut.
pub(crate) fn truncate(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(max.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_nice() {
        assert_eq!(ticks(0.0, 10.0, 5), vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        assert_eq!(ticks(0.0, 1.0, 4), vec![0.0, 0.5, 1.0]);
        assert_eq!(ticks(3.0, 3.0, 4), Vec::<f64>::new());
        assert_eq!(ticks(-1.0, 1.0, 2), vec![-1.0, 0.0, 1.0]);
    }

    #[test]
    fn labels_are_short() {
        assert_eq!(label(0.0), "0");
        assert_eq!(label(2.5), "2.5");
        assert_eq!(label(1000.0), "1000");
        assert_eq!(label(0.30000000000000004), "0.3");
        assert_eq!(label(1234.5678), "1235");
        assert_eq!(label(1.5e7), "1.5e7");
        assert_eq!(label(-2e-5), "-2e-5");
    }

    #[test]
    fn escaping() {
        assert_eq!(xml_escape("a<b & 'c'"), "a&lt;b &amp; &apos;c&apos;");
        assert_eq!(truncate("abcdef", 4), "abc…");
        assert_eq!(truncate("abc", 4), "abc");
    }
}
