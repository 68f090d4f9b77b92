//! The warning of spec §7.1 item 13: the samples' and a target's working sets (the model's
//! `memory` declaration) fall in different levels of the machine's memory hierarchy, so the
//! samples' costs per element need not hold at the target.
//!
//! The levels are placed twice: by the probe's latency boundaries, and by the cache sizes the
//! system reports (a streaming loop can keep a working set in a cache that the probe's random
//! pointer chase already sees as main memory). [`mismatch`] finds the first placement that
//! tells samples and target apart; [`grouped`] words the mismatches of many targets with one
//! cause as one warning.

use crate::instantiate::Bindings;
use crate::lang::Model;
use crate::lang::ModelError;
use crate::samples::SampleSet;

/// A working set's size in bytes, as text (rounded down to whole bytes).
fn bytes_text(b: f64) -> String {
    probe::bytes_text(b as u64)
}

/// Samples and a target whose working sets lie in different levels.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    /// The target's working set, bytes.
    pub target: f64,
    /// The target's level: 1 … `levels` a cache, `levels + 1` main memory.
    pub level: usize,
    /// The samples' working sets (bytes) and levels, smallest first, each size once.
    pub samples: Vec<(f64, usize)>,
    /// The placement's number of cache levels.
    pub levels: usize,
    /// Placed by the cache sizes the system reports (the probe's latency boundaries place
    /// them alike), not by the probe's boundaries.
    pub by_reported_sizes: bool,
}

impl Mismatch {
    /// Some samples share the target's level and some do not: the fit mixes levels.
    pub fn mixed(&self) -> bool {
        self.samples.iter().any(|s| s.1 == self.level)
    }

    /// The same cause as `other`: everything alike but the target's size.
    pub fn same_cause(&self, other: &Mismatch) -> bool {
        self.level == other.level
            && self.samples == other.samples
            && self.levels == other.levels
            && self.by_reported_sizes == other.by_reported_sizes
    }

    /// The warning, with its fix.
    pub fn text(&self) -> String {
        self.text_for(&[self.target])
    }

    /// The warning for targets of these sizes (the same cause, [`Mismatch::same_cause`]).
    fn text_for(&self, targets: &[f64]) -> String {
        let name = |l: usize| {
            if l > self.levels {
                "main memory".to_string()
            } else {
                format!("cache level {l}")
            }
        };
        let by = if self.by_reported_sizes {
            " (by the cache sizes the system reports; the probe's latency boundaries place them alike)"
        } else {
            " (by the probe's latency boundaries)"
        };
        let lo = targets.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = targets.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let sizes = if lo == hi {
            bytes_text(lo)
        } else {
            format!("{} to {}", bytes_text(lo), bytes_text(hi))
        };
        let (whose, is) = if targets.len() == 1 {
            ("target's", "is")
        } else {
            ("targets'", "are")
        };
        let here = name(self.level);
        if self.mixed() {
            let mut spread: Vec<usize> = self.samples.iter().map(|p| p.1).collect();
            spread.sort_unstable();
            spread.dedup();
            let names: Vec<String> = spread.iter().map(|&l| name(l)).collect();
            let samples: Vec<String> = self.samples.iter().map(|p| bytes_text(p.0)).collect();
            return format!(
                "the samples' working sets ({}) span {}{by}, the {whose} ({sizes}) {is} in {here}: the fit mixes costs per element of different levels; take every sample in {here} too",
                samples.join(", "),
                names.join(" and "),
            );
        }
        let (b, l) = self
            .samples
            .iter()
            .copied()
            .find(|s| s.1 != self.level)
            .unwrap_or((0.0, 0));
        let working_set = if targets.len() == 1 {
            "working set"
        } else {
            "working sets"
        };
        format!(
            "the {whose} {working_set} ({sizes}) {is} in {here}, a sample's ({}) in {}{by}: costs per element can differ between levels; take samples whose working set is in {here} too",
            bytes_text(b),
            name(l),
        )
    }
}

/// Where the samples' and the target's working sets lie, when a placement tells them apart:
/// first by the probe's latency boundaries, then by the reported cache sizes. `None` when
/// both agree for every sample or the model declares no working set.
///
/// # Errors
/// As [`crate::instantiate::working_set`].
pub fn mismatch(
    model: &Model,
    profile: &probe::Profile,
    samples: &SampleSet,
    target: &[(String, f64)],
) -> Result<Option<Mismatch>, Box<ModelError>> {
    let bytes_at = |params: Vec<(String, f64)>| -> Result<Option<f64>, Box<ModelError>> {
        let b = Bindings {
            params,
            coeffs: Vec::new(),
        };
        Ok(crate::instantiate::working_set(model, &b)?.map(|bytes| bytes.max(0.0)))
    };
    let Some(bytes) = bytes_at(target.to_vec())? else {
        return Ok(None);
    };
    let mut points: Vec<&Vec<f64>> = samples
        .samples
        .iter()
        .map(|s| &s.params)
        .chain(samples.runs.iter().map(|r| &r.0))
        .collect();
    points.dedup();
    let mut sample_bytes = Vec::new();
    for p in points {
        if let Some(b) = bytes_at(crate::point::named(&samples.names, p))? {
            sample_bytes.push(b);
        }
    }
    let place = |by_reported_sizes: bool, b: f64| {
        if by_reported_sizes {
            profile.reported_cache_level(b as u64)
        } else {
            Some(profile.cache_level(b as u64))
        }
    };
    let ways = [
        (false, profile.memory.boundaries.len()),
        (true, profile.reported_cache_levels().unwrap_or(0)),
    ];
    for (by_reported_sizes, levels) in ways {
        let Some(level) = place(by_reported_sizes, bytes) else {
            continue;
        };
        let mut placed: Vec<(f64, usize)> = sample_bytes
            .iter()
            .filter_map(|&b| place(by_reported_sizes, b).map(|l| (b, l)))
            .collect();
        placed.sort_by(|a, b| a.0.total_cmp(&b.0));
        placed.dedup_by(|a, b| a.0 == b.0);
        if placed.iter().all(|&(_, l)| l == level) {
            continue;
        }
        return Ok(Some(Mismatch {
            target: bytes,
            level,
            samples: placed,
            levels,
            by_reported_sizes,
        }));
    }
    Ok(None)
}

/// One warning per cause for the mismatches of many targets (each with its point's text,
/// `N=800, P=8`): `at N=6400, P=1; N=7168, P=1: the targets' working sets … are …`, in the
/// order of each cause's first target.
pub fn grouped(found: &[(String, Mismatch)]) -> Vec<String> {
    let mut groups: Vec<(&Mismatch, Vec<&str>, Vec<f64>)> = Vec::new();
    for (point, m) in found {
        match groups.iter_mut().find(|g| g.0.same_cause(m)) {
            Some(g) => {
                if !g.1.contains(&point.as_str()) {
                    g.1.push(point);
                    g.2.push(m.target);
                }
            }
            None => groups.push((m, vec![point], vec![m.target])),
        }
    }
    groups
        .into_iter()
        .map(|(m, points, targets)| format!("at {}: {}", points.join("; "), m.text_for(&targets)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mismatch(target: f64, samples: &[(f64, usize)]) -> Mismatch {
        Mismatch {
            target,
            level: 4,
            samples: samples.to_vec(),
            levels: 3,
            by_reported_sizes: true,
        }
    }

    #[test]
    fn one_target_is_worded_in_the_singular() {
        let m = mismatch(8.0 * 1600.0 * 1600.0, &[(8.0 * 240.0 * 240.0, 2)]);
        assert!(!m.mixed());
        assert_eq!(
            m.text(),
            "the target's working set (19.5 MiB) is in main memory, a sample's (450 KiB) in cache level 2 (by the cache sizes the system reports; the probe's latency boundaries place them alike): costs per element can differ between levels; take samples whose working set is in main memory too"
        );
    }

    #[test]
    fn targets_of_one_cause_make_one_warning() {
        let samples = [(20.0 * 1048576.0, 3), (24.0 * 1048576.0, 3)];
        let found = vec![
            (
                "N=6400, P=1".to_string(),
                mismatch(312.5 * 1048576.0, &samples),
            ),
            (
                "N=7168, P=1".to_string(),
                mismatch(392.0 * 1048576.0, &samples),
            ),
            // Another cause: a sample in main memory too (the fit mixes levels).
            (
                "N=6400, P=2".to_string(),
                mismatch(312.5 * 1048576.0, &[(1048576.0, 2), (1e9, 4)]),
            ),
            // The same point twice counts once.
            (
                "N=7168, P=1".to_string(),
                mismatch(392.0 * 1048576.0, &samples),
            ),
        ];
        let notes = grouped(&found);
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert_eq!(
            notes[0],
            "at N=6400, P=1; N=7168, P=1: the targets' working sets (312.5 MiB to 392 MiB) are in main memory, a sample's (20 MiB) in cache level 3 (by the cache sizes the system reports; the probe's latency boundaries place them alike): costs per element can differ between levels; take samples whose working set is in main memory too"
        );
        assert!(
            notes[1].starts_with("at N=6400, P=2: the samples' working sets (1 MiB, 953.7 MiB) span cache level 2 and main memory")
                && notes[1].contains("the target's (312.5 MiB) is in main memory: the fit mixes"),
            "{}",
            notes[1]
        );
    }
}
