//! A point of a model's parameters: its values by name, its text (`N=800, P=8`), and the
//! method's one processor rule.

/// A point's coordinates with their parameters' names: `names` and `values` zipped.
pub fn named(names: &[String], values: &[f64]) -> Vec<(String, f64)> {
    names.iter().cloned().zip(values.iter().copied()).collect()
}

/// `N=200, P=2`.
pub fn point_text(params: &[(String, f64)]) -> String {
    params
        .iter()
        .map(|(k, v)| format!("{k}={}", trace::text::num(*v)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The method's processor rule: the processors given, else the value of the parameter `by`
/// at the point `at`, rounded and at least 1, else unlimited (`usize::MAX`).
pub fn processors(given: Option<usize>, by: &str, at: &[(String, f64)]) -> usize {
    given
        .or_else(|| {
            at.iter()
                .find(|(k, _)| *k == by)
                .map(|x| x.1.max(1.0).round() as usize)
        })
        .unwrap_or(usize::MAX)
}
