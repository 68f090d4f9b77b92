//! Gaussian elimination with partial pivoting on shared memory, as the paper's KSR-1 GE
//! (§4.2.1; `examples/semi/ge.tg` is its thread graph): P worker threads own the matrix
//! columns cyclically (column j, 1-based, belongs to worker j mod P) and initialise them; at
//! each step the main thread finds the pivot in the published pivot column, computes the
//! multipliers and updates the right-hand side while the workers wait at a barrier; then
//! every worker swaps the pivot row into its columns right of the step and eliminates them,
//! the owner of the next column publishes it, and all meet at a second barrier. After the
//! join the main thread solves the triangular system. The check regenerates the matrix and
//! bounds the residual.

use std::sync::{Barrier, Mutex, RwLock};
use std::time::Instant;

use crate::rng::unit;
use crate::timer::{Report, Segments};

/// The segments, as `ge.tg` names them.
pub const SEGMENTS: &[&str] = &["init", "pivot", "elim", "solve"];
const INIT: usize = 0;
const PIVOT: usize = 1;
const ELIM: usize = 2;
const SOLVE: usize = 3;

/// The worker that owns 0-based column `col`.
fn owner(col: usize, p: usize) -> usize {
    (col + 1) % p
}

/// The matrix entry (i, j).
fn a(seed: u64, i: usize, j: usize) -> f64 {
    unit(seed, i, j)
}

/// The right-hand side's entry i.
fn rhs(seed: u64, i: usize) -> f64 {
    unit(seed ^ 0xB0B, i, usize::MAX)
}

/// The pivot row and the multipliers of rows k+1.. of the current step.
struct Step {
    row: usize,
    mult: Vec<f64>,
}

struct Shared {
    barrier: Barrier,
    /// The pivot column, published by its owner.
    pivot: Mutex<Vec<f64>>,
    step: RwLock<Step>,
}

type Columns = Vec<(usize, Vec<f64>)>;

/// What a worker hands back: its segment times, its seconds per elimination step, its
/// columns.
type Worked = (Segments, Vec<f64>, Columns);

fn worker(w: usize, n: usize, p: usize, seed: u64, sh: &Shared) -> Result<Worked, String> {
    let mut seg = Segments::new(SEGMENTS);
    let mut steps = vec![0.0; n - 1];
    let publish = |cols: &Columns, k: usize| -> Result<(), String> {
        if let Some((_, col)) = cols.iter().find(|(j, _)| *j == k) {
            sh.pivot
                .lock()
                .map_err(|_| "a thread panicked")?
                .copy_from_slice(col);
        }
        Ok(())
    };
    let mut cols: Columns = seg.time(INIT, || {
        let cols: Columns = (0..n)
            .filter(|&j| owner(j, p) == w)
            .map(|j| (j, (0..n).map(|i| a(seed, i, j)).collect()))
            .collect();
        publish(&cols, 0).map(|()| cols)
    })?;
    sh.barrier.wait();
    for k in 0..n - 1 {
        sh.barrier.wait();
        let (done, seconds) = seg.timed(ELIM, || -> Result<(), String> {
            let st = sh.step.read().map_err(|_| "a thread panicked")?;
            for (j, col) in cols.iter_mut() {
                if *j < k {
                    continue;
                }
                col.swap(k, st.row);
                if *j > k {
                    let ck = col[k];
                    for (x, m) in col[k + 1..].iter_mut().zip(&st.mult) {
                        *x -= m * ck;
                    }
                }
            }
            drop(st);
            publish(&cols, k + 1)
        });
        done?;
        steps[k] = seconds;
        sh.barrier.wait();
    }
    Ok((seg, steps, cols))
}

/// The main thread's pivot of step `k`: the pivot row, the multipliers, the right-hand side
/// updated.
fn pivot(k: usize, n: usize, sh: &Shared, b: &mut [f64]) -> Result<(), String> {
    let col = sh.pivot.lock().map_err(|_| "a thread panicked")?;
    let r = (k..n)
        .max_by(|&x, &y| col[x].abs().total_cmp(&col[y].abs()))
        .unwrap_or(k);
    let d = col[r];
    if d == 0.0 {
        return Err(format!("the matrix is singular at step {k}"));
    }
    let mult: Vec<f64> = (k + 1..n)
        .map(|i| if i == r { col[k] } else { col[i] } / d)
        .collect();
    drop(col);
    b.swap(k, r);
    let bk = b[k];
    for (x, m) in b[k + 1..].iter_mut().zip(&mult) {
        *x -= m * bk;
    }
    let mut st = sh.step.write().map_err(|_| "a thread panicked")?;
    st.row = r;
    st.mult = mult;
    Ok(())
}

/// Solves U x = b by columns (U's column j is `cols[j]`).
fn back_substitute(cols: &[Vec<f64>], mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    let mut x = vec![0.0; n];
    for j in (0..n).rev() {
        x[j] = b[j] / cols[j][j];
        for (bi, u) in b[..j].iter_mut().zip(&cols[j][..j]) {
            *bi -= u * x[j];
        }
    }
    x
}

/// Eliminates and solves an n × n system on `p` workers (and the main thread).
///
/// # Errors
/// `n < 2` or `p < 1`, sizes over the limits ([`crate::MAX_THREADS`],
/// [`crate::MAX_MATRIX_BYTES`]), a singular matrix, a residual over the bound.
pub fn run(n: usize, p: usize, seed: u64) -> Result<Report, String> {
    if n < 2 || p < 1 {
        return Err(format!("ge needs n ≥ 2 and p ≥ 1 (got n = {n}, p = {p})"));
    }
    crate::check_size("ge", n, p, 1)?;
    let sh = Shared {
        barrier: Barrier::new(p + 1),
        pivot: Mutex::new(vec![0.0; n]),
        step: RwLock::new(Step {
            row: 0,
            mult: Vec::new(),
        }),
    };
    let start = Instant::now();
    let mut b: Vec<f64> = (0..n).map(|i| rhs(seed, i)).collect();
    let mut seg = Segments::new(SEGMENTS);
    let (workers, steps, x) = std::thread::scope(|s| -> Result<_, String> {
        let handles: Vec<_> = (0..p)
            .map(|w| {
                let sh = &sh;
                s.spawn(move || worker(w, n, p, seed, sh))
            })
            .collect();
        sh.barrier.wait();
        let mut failed = None;
        for k in 0..n - 1 {
            if failed.is_none() {
                failed = seg.time(PIVOT, || pivot(k, n, &sh, &mut b)).err();
            }
            sh.barrier.wait();
            sh.barrier.wait();
        }
        let mut cols: Vec<Vec<f64>> = vec![Vec::new(); n];
        let mut workers = Segments::new(SEGMENTS);
        let mut steps = vec![0.0; n - 1];
        for h in handles {
            let (ws, st, owned) = h.join().map_err(|_| "a worker panicked".to_string())??;
            workers.add(&ws);
            for (a, b) in steps.iter_mut().zip(st) {
                *a += b;
            }
            for (j, col) in owned {
                cols[j] = col;
            }
        }
        if let Some(e) = failed {
            return Err(e);
        }
        let x = seg.time(SOLVE, || back_substitute(&cols, b));
        Ok((workers, steps, x))
    })?;
    let seconds = start.elapsed().as_secs_f64();
    seg.add(&workers);
    // The residual ‖A x − b‖∞ / (‖A‖∞ ‖x‖∞ n).
    let xmax = x.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let mut worst = 0.0f64;
    for i in 0..n {
        let r: f64 = (0..n).map(|j| a(seed, i, j) * x[j]).sum::<f64>() - rhs(seed, i);
        worst = worst.max(r.abs());
    }
    let rel = worst / (xmax.max(f64::MIN_POSITIVE) * n as f64 * n as f64);
    if rel.is_nan() || rel >= 1e-12 {
        return Err(format!("the residual is {rel:e} of ‖A‖‖x‖, over 1e-12"));
    }
    Ok(Report {
        segments: seg.totals(),
        seconds,
        steps,
        check: format!("residual {rel:.1e} of ‖A‖‖x‖"),
    })
}

/// A band of elimination steps, grouped by the size of the trailing matrix they update.
#[derive(Clone, Debug, PartialEq)]
pub struct Band {
    /// The smallest and largest trailing size m of the band's steps (step k updates the
    /// m = n − k − 1 rows and columns below and right of the pivot).
    pub trailing: (usize, usize),
    /// The largest step's trailing matrix, bytes (8 m²).
    pub working_set: f64,
    /// The elements the band's steps update, Σ m².
    pub elements: f64,
    /// Their elimination seconds, summed over the workers.
    pub seconds: f64,
}

impl Band {
    /// Nanoseconds per updated element.
    pub fn ns_per_element(&self) -> f64 {
        self.seconds / self.elements * 1e9
    }
}

/// The elimination's cost per element by trailing size, from a run's [`Report::steps`], in
/// at most `bands` bands of equal width. The thread graph takes one cost per element for
/// every step and every size (`c_elim`); this shows where a machine departs from that, the
/// cache levels' boundaries among others. A step's time also covers the O(n) publishing of
/// the next pivot column and the scan of the worker's columns, which weigh most in the
/// bands of small m.
pub fn cost_by_trailing(steps: &[f64], bands: usize) -> Vec<Band> {
    let last = steps.len();
    let bands = bands.clamp(1, last.max(1));
    let mut out: Vec<Band> = (0..bands)
        .map(|b| {
            let (lo, hi) = (b * last / bands + 1, (b + 1) * last / bands);
            Band {
                trailing: (lo, hi),
                working_set: 8.0 * (hi * hi) as f64,
                elements: 0.0,
                seconds: 0.0,
            }
        })
        .collect();
    for (k, s) in steps.iter().enumerate() {
        let m = last - k;
        let band = out
            .iter_mut()
            .find(|b| b.trailing.0 <= m && m <= b.trailing.1);
        if let Some(b) = band {
            b.elements += (m * m) as f64;
            b.seconds += s;
        }
    }
    out.retain(|b| b.elements > 0.0);
    out
}
