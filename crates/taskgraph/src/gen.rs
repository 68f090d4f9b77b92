//! Reproducible random task graphs for tests, benchmarks and users.
//!
//! Every generator takes [`GenOptions`]: the exact number of tasks N, a width W, a mean
//! in-degree D (layered only), a time distribution ([`TimeDist`], parsed from `const:1`,
//! `uniform:1,10` or `exp:5`) and a seed. The structure and the times are drawn from two
//! independent streams of the seed (the workspace generator, [`stats::rng`]), so the same options always give the same graph
//! (on every platform with the same `f64::ln`), and changing the time distribution does not
//! change the structure. Graphs are acyclic by construction; ids are `t0`, `t1`, … in a
//! topological order. All generators run in O(N·D) time and memory.
//!
//! - [`layered`]: layers of W tasks (the last one may be shorter); each task below the first
//!   layer takes `floor(D)` or `ceil(D)` distinct predecessors (mean D, at least 1, at most the
//!   previous layer's size) chosen uniformly from the previous layer. So a task's level is its
//!   layer.
//! - [`forkjoin`]: a serial task, then W parallel tasks, then a serial join task that is also
//!   the next fork, and so on (the paper's fork-join loops); D is not used.
//! - [`wavefront`]: a grid W tasks wide, filled row by row; task (r, c) depends on (r−1, c) and
//!   (r, c−1); D is not used.
//! - [`sp`]: a random series-parallel graph grown from one task by repeatedly picking a task
//!   uniformly at random and either putting a new task after it (series) or turning it into a
//!   fork of 2..=W parallel tasks followed by a join (parallel), each with probability 1/2;
//!   every intermediate graph is a nested fork-join, hence series-parallel, and E < 2N.
//!   D is not used.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::str::FromStr;

use stats::rng::{seeded, RandExt as Rng};

use crate::error::{ErrorKind, GraphError};
use crate::graph::{Limits, TaskGraph, TaskGraphBuilder};

/// A distribution of task times.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeDist {
    /// Every task takes this time (`const:1`).
    Const(f64),
    /// Uniform on `[lo, hi]` (`uniform:1,10`).
    Uniform(f64, f64),
    /// Exponential with this mean (`exp:5`).
    Exp(f64),
}

impl Default for TimeDist {
    fn default() -> Self {
        TimeDist::Const(1.0)
    }
}

fn bad(msg: impl Into<String>) -> GraphError {
    GraphError::new(ErrorKind::BadOption, msg).with_help("const:C, uniform:LO,HI, exp:MEAN")
}

impl FromStr for TimeDist {
    type Err = GraphError;

    fn from_str(s: &str) -> Result<Self, GraphError> {
        let (kind, args) = s
            .split_once(':')
            .ok_or_else(|| bad(format!("time distribution `{s}` has no `:`")))?;
        let nums: Vec<f64> = args
            .split(',')
            .map(|a| {
                a.trim()
                    .parse::<f64>()
                    .map_err(|_| bad(format!("`{a}` in `{s}` is not a number")))
            })
            .collect::<Result<_, _>>()?;
        if nums.iter().any(|x| !x.is_finite() || *x < 0.0) {
            return Err(bad(format!("`{s}`: parameters must be finite and >= 0")));
        }
        let d = match (kind.trim(), nums.as_slice()) {
            ("const", [c]) => TimeDist::Const(*c),
            ("uniform", [a, b]) if a <= b => TimeDist::Uniform(*a, *b),
            ("uniform", [_, _]) => return Err(bad(format!("`{s}`: need LO <= HI"))),
            ("exp", [m]) if *m > 0.0 => TimeDist::Exp(*m),
            ("exp", [_]) => return Err(bad(format!("`{s}`: the mean must be > 0"))),
            ("const" | "exp", _) => return Err(bad(format!("`{s}`: expected one parameter"))),
            ("uniform", _) => return Err(bad(format!("`{s}`: expected two parameters"))),
            (k, _) => return Err(bad(format!("unknown time distribution `{k}`"))),
        };
        Ok(d)
    }
}

impl std::fmt::Display for TimeDist {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TimeDist::Const(c) => write!(f, "const:{c}"),
            TimeDist::Uniform(a, b) => write!(f, "uniform:{a},{b}"),
            TimeDist::Exp(m) => write!(f, "exp:{m}"),
        }
    }
}

impl TimeDist {
    /// Draws one time.
    pub fn sample<R: Rng>(&self, rng: &mut R) -> f64 {
        match *self {
            TimeDist::Const(c) => c,
            TimeDist::Uniform(a, b) => {
                if a == b {
                    a
                } else {
                    a + (b - a) * rng.gen::<f64>()
                }
            }
            TimeDist::Exp(m) => -m * (1.0 - rng.gen::<f64>()).ln(),
        }
    }
}

/// Options shared by all generators.
#[derive(Clone, Debug, PartialEq)]
pub struct GenOptions {
    /// Exact number of tasks N.
    pub tasks: usize,
    /// Width W (layer width, parallel tasks per phase, grid width, or largest fork).
    pub width: usize,
    /// Mean number of predecessors per task D (layered only).
    pub degree: f64,
    /// Distribution of the task times.
    pub time: TimeDist,
    /// Random seed.
    pub seed: u64,
    /// Size limits (N must not exceed `max_tasks`).
    pub limits: Limits,
}

impl Default for GenOptions {
    /// 100 tasks, width 10, degree 2, `const:1`, seed 0.
    fn default() -> Self {
        GenOptions {
            tasks: 100,
            width: 10,
            degree: 2.0,
            time: TimeDist::default(),
            seed: 0,
            limits: Limits::default(),
        }
    }
}

impl GenOptions {
    /// `tasks` tasks of width `width`, `degree` predecessors per task (layered), times drawn
    /// from `time` with the seed `seed`, under the default limits.
    pub fn new(tasks: usize, width: usize, degree: f64, time: TimeDist, seed: u64) -> Self {
        GenOptions {
            tasks,
            width,
            degree,
            time,
            seed,
            limits: Limits::default(),
        }
    }
}

/// The generator kinds, for command lines (`layered`, `forkjoin`, `wavefront`, `sp`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenKind {
    /// [`layered`].
    Layered,
    /// [`forkjoin`].
    ForkJoin,
    /// [`wavefront`].
    Wavefront,
    /// [`sp`].
    SeriesParallel,
}

impl FromStr for GenKind {
    type Err = GraphError;

    fn from_str(s: &str) -> Result<Self, GraphError> {
        match s {
            "layered" => Ok(GenKind::Layered),
            "forkjoin" | "fork-join" => Ok(GenKind::ForkJoin),
            "wavefront" => Ok(GenKind::Wavefront),
            "sp" | "series-parallel" => Ok(GenKind::SeriesParallel),
            _ => Err(
                GraphError::new(ErrorKind::BadOption, format!("unknown graph kind `{s}`"))
                    .with_help("kinds: layered, forkjoin, wavefront, sp"),
            ),
        }
    }
}

/// Generates a graph of the given kind.
pub fn generate(kind: GenKind, opts: &GenOptions) -> Result<TaskGraph, GraphError> {
    match kind {
        GenKind::Layered => layered(opts),
        GenKind::ForkJoin => forkjoin(opts),
        GenKind::Wavefront => wavefront(opts),
        GenKind::SeriesParallel => sp(opts),
    }
}

struct Gen {
    b: TaskGraphBuilder,
    structure: stats::rng::Rng,
    times: stats::rng::Rng,
    dist: TimeDist,
    name: String,
}

fn start(opts: &GenOptions, edges: usize) -> Result<Gen, GraphError> {
    if opts.tasks > opts.limits.max_tasks {
        return Err(GraphError::limit(
            sweep::Reached::new(sweep::Limit::Tasks, opts.limits.max_tasks as u64),
            format!(
                "{} tasks, more than the limit of {}",
                opts.tasks, opts.limits.max_tasks
            ),
        ));
    }
    if opts.width == 0 {
        return Err(GraphError::new(
            ErrorKind::BadOption,
            "width must be at least 1",
        ));
    }
    if !(opts.degree.is_finite() && opts.degree >= 0.0) {
        return Err(GraphError::new(
            ErrorKind::BadOption,
            format!("degree {} must be finite and >= 0", opts.degree),
        ));
    }
    // Re-validate the distribution (it may have been built directly).
    opts.time.to_string().parse::<TimeDist>()?;
    let mut b = TaskGraphBuilder::with_limits(opts.limits);
    b.reserve(opts.tasks, edges);
    b.assume_unique_ids();
    let structure = seeded(opts.seed);
    let times = stats::rng::stream(opts.seed, 1);
    Ok(Gen {
        b,
        structure,
        times,
        dist: opts.time,
        name: String::new(),
    })
}

impl Gen {
    fn task(&mut self) -> u32 {
        self.name.clear();
        let _ = write!(self.name, "t{}", self.b.len());
        let t = self.dist.sample(&mut self.times);
        self.b.task(&self.name, t)
    }
}

/// Layered random DAG (see the module docs).
///
/// ```
/// use taskgraph::gen::{layered, GenOptions};
/// let g = layered(&GenOptions { tasks: 25, width: 10, degree: 3.0, ..Default::default() }).unwrap();
/// assert_eq!(g.level_widths(), vec![10, 10, 5]);
/// assert_eq!(g.edge_count(), 15 * 3);
/// ```
pub fn layered(opts: &GenOptions) -> Result<TaskGraph, GraphError> {
    let n = opts.tasks;
    let w = opts.width;
    let per_task = (opts.degree.ceil() as usize).min(w).min(n).max(1);
    let mut g = start(opts, n.saturating_mul(per_task))?;
    let base = opts.degree.floor();
    let frac = opts.degree - base;
    let mut chosen: Vec<u32> = Vec::new();
    let mut scratch: Vec<u32> = Vec::new();
    let mut set: HashSet<u32> = HashSet::new();
    for i in 0..n {
        let v = g.task();
        let layer = i / w;
        if layer == 0 {
            continue;
        }
        let prev_start = (layer - 1) * w;
        let prev_w = w; // the previous layer is always full
        let mut k = base as usize;
        if frac > 0.0 && g.structure.gen::<f64>() < frac {
            k += 1;
        }
        let k = k.clamp(1, prev_w);
        chosen.clear();
        if k * 2 >= prev_w {
            // Partial Fisher–Yates over the whole previous layer.
            scratch.clear();
            scratch.extend(0..prev_w as u32);
            for j in 0..k {
                let r = g.structure.gen_range(j..prev_w);
                scratch.swap(j, r);
            }
            chosen.extend_from_slice(&scratch[..k]);
        } else if k <= 32 {
            while chosen.len() < k {
                let r = g.structure.gen_range(0..prev_w as u32);
                if !chosen.contains(&r) {
                    chosen.push(r);
                }
            }
        } else {
            set.clear();
            while chosen.len() < k {
                let r = g.structure.gen_range(0..prev_w as u32);
                if set.insert(r) {
                    chosen.push(r);
                }
            }
        }
        chosen.sort_unstable();
        for &c in &chosen {
            g.b.edge(prev_start as u32 + c, v);
        }
    }
    g.b.build()
}

/// Fork-join graph (see the module docs).
///
/// ```
/// use taskgraph::gen::{forkjoin, GenOptions};
/// let g = forkjoin(&GenOptions { tasks: 9, width: 3, ..Default::default() }).unwrap();
/// // t0 -> {t1,t2,t3} -> t4 -> {t5,t6,t7} -> t8
/// assert_eq!(g.level_widths(), vec![1, 3, 1, 3, 1]);
/// assert_eq!(g.span(), 5.0);
/// ```
pub fn forkjoin(opts: &GenOptions) -> Result<TaskGraph, GraphError> {
    let n = opts.tasks;
    let w = opts.width;
    let mut g = start(opts, 2 * n)?;
    if n == 0 {
        return g.b.build();
    }
    let mut serial = g.task();
    let mut left = n - 1;
    let mut phase: Vec<u32> = Vec::with_capacity(w);
    while left > 0 {
        phase.clear();
        for _ in 0..w.min(left) {
            let t = g.task();
            g.b.edge(serial, t);
            phase.push(t);
        }
        left -= phase.len();
        if left == 0 {
            break;
        }
        let j = g.task();
        left -= 1;
        for &t in &phase {
            g.b.edge(t, j);
        }
        serial = j;
    }
    g.b.build()
}

/// Wavefront (2-D grid) graph (see the module docs).
///
/// ```
/// use taskgraph::gen::{wavefront, GenOptions};
/// let g = wavefront(&GenOptions { tasks: 12, width: 4, ..Default::default() }).unwrap();
/// assert_eq!(g.span(), 3.0 + 4.0 - 1.0); // anti-diagonals of a 3x4 grid
/// assert_eq!(g.edge_count(), 3 * 3 + 2 * 4);
/// ```
pub fn wavefront(opts: &GenOptions) -> Result<TaskGraph, GraphError> {
    let n = opts.tasks;
    let w = opts.width;
    let mut g = start(opts, 2 * n)?;
    for i in 0..n {
        let v = g.task();
        let (r, c) = (i / w, i % w);
        if r > 0 {
            g.b.edge((i - w) as u32, v);
        }
        if c > 0 {
            g.b.edge(v - 1, v);
        }
    }
    g.b.build()
}

/// Random series-parallel graph (see the module docs).
///
/// ```
/// use taskgraph::gen::{sp, GenOptions};
/// let g = sp(&GenOptions { tasks: 50, width: 4, seed: 7, ..Default::default() }).unwrap();
/// assert_eq!(g.len(), 50);
/// assert_eq!(g.roots().len(), 1);
/// assert_eq!(g.sinks().len(), 1);
/// ```
pub fn sp(opts: &GenOptions) -> Result<TaskGraph, GraphError> {
    let n = opts.tasks;
    let w = opts.width;
    let mut g = start(opts, 2 * n)?;
    if n == 0 {
        return g.b.build();
    }
    // Grow the structure on successor lists; number the tasks topologically afterwards.
    let mut succ: Vec<Vec<u32>> = Vec::with_capacity(n);
    succ.push(Vec::new());
    while succ.len() < n {
        let left = n - succ.len();
        let v = g.structure.gen_range(0..succ.len());
        let parallel = w >= 2 && left >= 3 && g.structure.gen::<bool>();
        let next = succ.len() as u32;
        if parallel {
            let k = g.structure.gen_range(2..=w.min(left - 1));
            let join = next + k as u32;
            let inherited = std::mem::take(&mut succ[v]);
            succ[v] = (next..join).collect();
            for _ in 0..k {
                succ.push(vec![join]);
            }
            succ.push(inherited);
        } else {
            let inherited = std::mem::take(&mut succ[v]);
            succ[v] = vec![next];
            succ.push(inherited);
        }
    }
    // Kahn's algorithm for a topological numbering.
    let mut indeg = vec![0u32; n];
    for s in &succ {
        for &c in s {
            indeg[c as usize] += 1;
        }
    }
    let mut order: Vec<u32> = (0..n as u32).filter(|&i| indeg[i as usize] == 0).collect();
    let mut head = 0;
    while head < order.len() {
        let v = order[head] as usize;
        head += 1;
        for &c in &succ[v] {
            indeg[c as usize] -= 1;
            if indeg[c as usize] == 0 {
                order.push(c);
            }
        }
    }
    let mut new_of = vec![0u32; n];
    for (k, &v) in order.iter().enumerate() {
        new_of[v as usize] = k as u32;
    }
    for _ in 0..n {
        g.task();
    }
    for &v in &order {
        for &c in &succ[v as usize] {
            g.b.edge(new_of[v as usize], new_of[c as usize]);
        }
    }
    g.b.build()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_dists() {
        assert_eq!("const:1".parse::<TimeDist>().unwrap(), TimeDist::Const(1.0));
        assert_eq!(
            "uniform:1,10".parse::<TimeDist>().unwrap(),
            TimeDist::Uniform(1.0, 10.0)
        );
        assert_eq!("exp:5".parse::<TimeDist>().unwrap(), TimeDist::Exp(5.0));
        for bad in [
            "",
            "const",
            "const:",
            "const:-1",
            "uniform:3,1",
            "uniform:1",
            "exp:0",
            "exp:nan",
            "gauss:1",
            "const:1,2",
            "exp:inf",
        ] {
            let e = bad.parse::<TimeDist>().unwrap_err();
            assert_eq!(e.kind, ErrorKind::BadOption, "{bad}");
        }
        for s in ["const:2.5", "uniform:1,10", "exp:5"] {
            assert_eq!(s.parse::<TimeDist>().unwrap().to_string(), s);
        }
    }

    #[test]
    fn dist_moments() {
        let mut r = seeded(1);
        let n = 200_000;
        let m: f64 = (0..n)
            .map(|_| TimeDist::Exp(5.0).sample(&mut r))
            .sum::<f64>()
            / n as f64;
        assert!((m - 5.0).abs() < 0.1, "{m}");
        let xs: Vec<f64> = (0..n)
            .map(|_| TimeDist::Uniform(1.0, 10.0).sample(&mut r))
            .collect();
        assert!(xs.iter().all(|&x| (1.0..=10.0).contains(&x)));
        let m = xs.iter().sum::<f64>() / n as f64;
        assert!((m - 5.5).abs() < 0.05, "{m}");
    }

    #[test]
    fn bad_options() {
        let o = GenOptions {
            width: 0,
            ..Default::default()
        };
        assert_eq!(layered(&o).unwrap_err().kind, ErrorKind::BadOption);
        let o = GenOptions {
            degree: -1.0,
            ..Default::default()
        };
        assert_eq!(layered(&o).unwrap_err().kind, ErrorKind::BadOption);
        let o = GenOptions {
            time: TimeDist::Exp(-1.0),
            ..Default::default()
        };
        assert_eq!(sp(&o).unwrap_err().kind, ErrorKind::BadOption);
        let o = GenOptions {
            tasks: 11,
            limits: Limits {
                max_tasks: 10,
                ..Limits::default()
            },
            ..Default::default()
        };
        let e = wavefront(&o).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Limit);
        assert_eq!(
            e.reached,
            Some(sweep::Reached::new(sweep::Limit::Tasks, 10))
        );
        assert_eq!(e.message, "11 tasks, more than the limit of 10");
        assert_eq!(
            "tree".parse::<GenKind>().unwrap_err().kind,
            ErrorKind::BadOption
        );
        assert_eq!("sp".parse::<GenKind>().unwrap(), GenKind::SeriesParallel);
    }

    #[test]
    fn shapes() {
        let o = GenOptions {
            tasks: 10,
            width: 3,
            ..Default::default()
        };
        // t0 -> {t1,t2,t3} -> t4 -> {t5,t6,t7} -> t8 -> {t9}
        let g = forkjoin(&o).unwrap();
        assert_eq!(g.level_widths(), vec![1, 3, 1, 3, 1, 1]);
        assert_eq!(g.edge_count(), 3 + 3 + 3 + 3 + 1);
        let g = wavefront(&o).unwrap();
        assert_eq!(g.preds(4), &[1, 3]);
        assert_eq!(g.preds(9), &[6]);
        assert_eq!(g.span(), 5.0); // (0,0) .. (2,2)
        let g = layered(&GenOptions {
            tasks: 0,
            ..Default::default()
        })
        .unwrap();
        assert!(g.is_empty());
        assert!(
            sp(&GenOptions {
                tasks: 1,
                ..Default::default()
            })
            .unwrap()
            .len()
                == 1
        );
    }
}
