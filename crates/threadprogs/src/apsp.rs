//! All-pairs shortest paths on shared memory, as the paper's KSR-1 APSP (§4.2.2;
//! `examples/semi/apsp.tg`): the main thread builds a dense graph with positive weights, P
//! worker threads run Dijkstra's algorithm (the array form, O(n²) per source) from the
//! sources they own statically (source s belongs to worker s mod P), and the main thread
//! joins them. The check compares distances with Floyd–Warshall for small graphs and the
//! triangle inequality otherwise.

use std::time::Instant;

use crate::rng::unit;
use crate::timer::{on_threads, Report, Segments};

/// The segments, as `apsp.tg` names them.
pub const SEGMENTS: &[&str] = &["init", "paths"];
const INIT: usize = 0;
const PATHS: usize = 1;

/// The weight of edge (i, j): in [1, 100).
fn weight(seed: u64, i: usize, j: usize) -> f64 {
    1.0 + 49.5 * (unit(seed, i, j) + 1.0)
}

/// Distances from `s` over the dense weight matrix `w` (n × n, row-major).
pub fn dijkstra(w: &[f64], n: usize, s: usize) -> Vec<f64> {
    let mut dist = vec![f64::INFINITY; n];
    let mut done = vec![false; n];
    dist[s] = 0.0;
    for _ in 0..n {
        let mut u = usize::MAX;
        let mut best = f64::INFINITY;
        for (v, (&d, &f)) in dist.iter().zip(&done).enumerate() {
            if !f && d < best {
                best = d;
                u = v;
            }
        }
        if u == usize::MAX {
            break;
        }
        done[u] = true;
        let row = &w[u * n..(u + 1) * n];
        for ((d, &f), &wt) in dist.iter_mut().zip(&done).zip(row) {
            if !f && best + wt < *d {
                *d = best + wt;
            }
        }
    }
    dist
}

/// Shortest paths between all pairs of an n-vertex graph on `p` workers.
///
/// # Errors
/// `n < 2` or `p < 1`, sizes over the limits ([`crate::MAX_THREADS`],
/// [`crate::MAX_MATRIX_BYTES`]), a distance that fails the check.
pub fn run(n: usize, p: usize, seed: u64) -> Result<Report, String> {
    if n < 2 || p < 1 {
        return Err(format!("apsp needs n ≥ 2 and p ≥ 1 (got n = {n}, p = {p})"));
    }
    // The weights and the distances.
    crate::check_size("apsp", n, p, 2)?;
    let start = Instant::now();
    let mut seg = Segments::new(SEGMENTS);
    let w: Vec<f64> = seg.time(INIT, || {
        (0..n * n).map(|x| weight(seed, x / n, x % n)).collect()
    });
    let results = on_threads(p, |t| {
        let mut seg = Segments::new(SEGMENTS);
        let rows: Vec<(usize, Vec<f64>)> = seg.time(PATHS, || {
            (t..n)
                .step_by(p)
                .map(|src| (src, dijkstra(&w, n, src)))
                .collect()
        });
        (seg, rows)
    })?;
    let seconds = start.elapsed().as_secs_f64();
    let mut dist = vec![Vec::new(); n];
    for (ws, rows) in results {
        seg.add(&ws);
        for (src, d) in rows {
            dist[src] = d;
        }
    }
    check(&w, n, &dist)?;
    let total: f64 = dist.iter().flatten().sum();
    Ok(Report {
        segments: seg.totals(),
        seconds,
        steps: Vec::new(),
        check: format!("sum of distances {total:.6e}"),
    })
}

/// Floyd–Warshall for n ≤ 128; otherwise d(s, v) ≤ d(s, u) + w(u, v) on sampled triples and
/// d(s, s) = 0.
fn check(w: &[f64], n: usize, dist: &[Vec<f64>]) -> Result<(), String> {
    if n <= 128 {
        let mut d = w.to_vec();
        for i in 0..n {
            d[i * n + i] = 0.0;
        }
        for k in 0..n {
            for i in 0..n {
                for j in 0..n {
                    let via = d[i * n + k] + d[k * n + j];
                    if via < d[i * n + j] {
                        d[i * n + j] = via;
                    }
                }
            }
        }
        for i in 0..n {
            for j in 0..n {
                if (d[i * n + j] - dist[i][j]).abs() > 1e-9 * d[i * n + j].max(1.0) {
                    return Err(format!(
                        "d({i}, {j}) = {} but Floyd–Warshall gives {}",
                        dist[i][j],
                        d[i * n + j]
                    ));
                }
            }
        }
        return Ok(());
    }
    for s in (0..n).step_by(n / 16) {
        if dist[s][s] != 0.0 {
            return Err(format!("d({s}, {s}) = {}", dist[s][s]));
        }
        for u in (0..n).step_by(n / 32) {
            for v in 0..n {
                if dist[s][v] > dist[s][u] + w[u * n + v] + 1e-9 {
                    return Err(format!("d({s}, {v}) > d({s}, {u}) + w({u}, {v})"));
                }
            }
        }
    }
    Ok(())
}
