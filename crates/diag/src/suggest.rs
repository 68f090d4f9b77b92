//! "Did you mean" suggestions for misspelt names.

/// Names longer than this (in bytes) get no suggestions, and are not suggested.
const MAX_NAME: usize = 256;

/// Character comparisons one call may spend, so that a list of millions of names costs a
/// bounded time.
const BUDGET: usize = 20_000_000;

/// Up to three of `known` closest to `name`, closest first (names equal to it but for case,
/// then by edit distance; among equals, in the order given). A candidate is close when its distance is at most a third of the
/// name's length, or at most 2 and at most half of it; a candidate equal to `name` is not
/// suggested.
///
/// The work is bounded: names over 256 bytes are skipped, and the search stops after about
/// 2·10^7 character comparisons.
pub fn suggest<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    if name.len() > MAX_NAME {
        return Vec::new();
    }
    let n = name.chars().count();
    let reach = (n / 3).max(2);
    let mut best: Vec<(usize, &str)> = Vec::new();
    let mut budget = BUDGET;
    for k in known {
        if k == name || k.len() > MAX_NAME || k.len().abs_diff(name.len()) > 4 * reach {
            continue;
        }
        let cost = n * k.len() + 1;
        if cost > budget {
            break;
        }
        budget -= cost;
        let d = if k.eq_ignore_ascii_case(name) {
            0
        } else {
            edit_distance(name, k)
        };
        let longest = n.max(k.chars().count());
        let close = d == 0 || (d < longest && (3 * d <= n || (d <= 2 && 2 * d <= n.max(2))));
        if close {
            best.push((d, k));
        }
    }
    // Stable: among equally close names, the first given comes first.
    best.sort_by_key(|&(d, _)| d);
    let mut out: Vec<String> = Vec::new();
    for (_, k) in best {
        if out.len() == 3 {
            break;
        }
        if !out.iter().any(|o| o == k) {
            out.push(k.to_string());
        }
    }
    out
}

/// Levenshtein distance between two strings, in characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// "did you mean `x`, `y`?" for a list of suggestions, or nothing for an empty one.
pub fn did_you_mean(suggestions: &[String]) -> Option<String> {
    if suggestions.is_empty() {
        return None;
    }
    let list: Vec<String> = suggestions.iter().map(|c| format!("`{c}`")).collect();
    Some(format!("did you mean {}?", list.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closest_first_and_bounded() {
        let known = ["alpha", "beta", "gamma", "alpah", "ALPHA1"];
        assert_eq!(suggest("alpha1", known), vec!["ALPHA1", "alpha", "alpah"]);
        assert!(suggest("zzzzzz", known).is_empty());
        assert!(
            suggest("x", ["y"]).is_empty(),
            "one letter in one is no hint"
        );
        assert_eq!(suggest("tau_s", ["tau_l", "N"]), vec!["tau_l"]);
        assert!(suggest("same", ["same"]).is_empty());
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(
            did_you_mean(&["a".into(), "b".into()]).as_deref(),
            Some("did you mean `a`, `b`?")
        );
        assert_eq!(did_you_mean(&[]), None);
    }

    #[test]
    fn many_names_cost_a_bounded_time() {
        let names: Vec<String> = (0..2_000_000).map(|i| format!("task_{i:08}")).collect();
        let start = std::time::Instant::now();
        let s = suggest("task_0000000x", names.iter().map(String::as_str));
        assert!(!s.is_empty());
        assert!(start.elapsed().as_secs() < 20);
    }
}
