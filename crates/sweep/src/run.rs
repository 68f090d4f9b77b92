//! Chunked parallel evaluation of a point function over a [`Space`].
//!
//! The points are taken in chunks: each chunk's parameter values are decoded from the
//! point indices, the point function runs on them in parallel (rayon), and the results go
//! to the sinks in point order before the next chunk starts. Memory therefore stays flat
//! however many points the space has, and a sink sees the points in order.

use std::io;
use std::sync::Mutex;

use rayon::prelude::*;

use crate::{Meter, Space};

/// At most this many points are evaluated by one rayon task (and between two updates of the
/// meter); fewer when a chunk is small, so that every thread has points of it.
const GRAIN: usize = 64;

/// Points per rayon task for a chunk of `n` points: about four tasks per thread, at most
/// [`GRAIN`].
fn grain(n: usize) -> usize {
    n.div_ceil(4 * rayon::current_num_threads()).clamp(1, GRAIN)
}

/// How to run a sweep.
#[derive(Clone, Copy, Debug)]
pub struct Evaluation<'a> {
    /// Points per chunk. Large chunks for cheap point functions (a compiled expression:
    /// 2^16), a few per core for expensive ones (a simulation), so that the meter and the
    /// sinks keep up.
    pub chunk: u64,
    /// Updated with the number of points done.
    pub meter: Option<&'a Meter>,
    /// What a failed point does to the run.
    pub on_error: OnError,
}

impl Default for Evaluation<'_> {
    fn default() -> Self {
        Evaluation {
            chunk: 1 << 16,
            meter: None,
            on_error: OnError::Stop,
        }
    }
}

/// What a point whose function fails does to the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnError {
    /// The run stops with that point's error (the first in point order within its chunk).
    Stop,
    /// The point's values become NaN (not computed); the run goes on and counts the
    /// failures ([`Outcome`]).
    Skip,
}

/// The results of one chunk of points: their parameter values and their column values.
#[derive(Clone, Copy, Debug)]
pub struct Block<'a> {
    /// The index of the first point.
    pub start: u64,
    /// The number of points.
    pub len: usize,
    /// Parameter values, one per axis for each point.
    pub params: &'a [f64],
    /// Column values, one per column for each point (NaN: not computed).
    pub values: &'a [f64],
    /// Axes per point.
    pub naxes: usize,
    /// Columns per point.
    pub ncols: usize,
}

impl Block<'_> {
    /// The number of points.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the block has no points.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The parameter values of the block's `i`-th point.
    pub fn params(&self, i: usize) -> &[f64] {
        &self.params[i * self.naxes..(i + 1) * self.naxes]
    }

    /// The column values of the block's `i`-th point.
    pub fn values(&self, i: usize) -> &[f64] {
        &self.values[i * self.ncols..(i + 1) * self.ncols]
    }
}

/// What a sink is told before the first block.
#[derive(Clone, Copy, Debug)]
pub struct Header<'a> {
    /// The space swept.
    pub space: &'a Space,
    /// The names of the point function's columns.
    pub columns: &'a [String],
}

/// A consumer of a sweep's results, block by block in point order.
pub trait Sink {
    /// Called once, before the first block.
    fn begin(&mut self, _header: &Header<'_>) -> io::Result<()> {
        Ok(())
    }
    /// Called for each block, in order.
    fn block(&mut self, header: &Header<'_>, block: &Block<'_>) -> io::Result<()>;
    /// Called once, after the last block.
    fn finish(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// How a sweep ended, when it ran to the end.
#[derive(Debug)]
pub struct Outcome<E> {
    /// Points evaluated.
    pub points: u64,
    /// Points whose function failed ([`OnError::Skip`]).
    pub failed: u64,
    /// The first failure in point order: the point and its error.
    pub first_failure: Option<(u64, E)>,
}

/// Why a sweep stopped early.
#[derive(Debug)]
pub enum RunError<E> {
    /// The point function failed at `point` ([`OnError::Stop`]); the points before it were
    /// handed to the sinks (but [`Sink::finish`] was not called).
    Point {
        /// The point's index.
        point: u64,
        /// Its error.
        error: E,
    },
    /// Sink number `sink` (its position in the slice given to [`run`]) could not write.
    Sink {
        /// The sink's position.
        sink: usize,
        /// The write error.
        error: io::Error,
    },
}

/// Evaluates `point` at every point of `space` and hands the results to `sinks`.
///
/// `point(k, params, out)` gets the point's index and its parameter values (one per axis)
/// and writes one value per column into `out` (NaN for a value it does not compute).
///
/// # Errors
/// [`RunError::Point`] when a point fails under [`OnError::Stop`], [`RunError::Sink`] when a
/// sink cannot write.
pub fn run<E, F>(
    space: &Space,
    columns: &[String],
    eval: &Evaluation<'_>,
    point: F,
    sinks: &mut [&mut dyn Sink],
) -> Result<Outcome<E>, RunError<E>>
where
    E: Send,
    F: Fn(u64, &[f64], &mut [f64]) -> Result<(), E> + Sync,
{
    let header = Header { space, columns };
    let sink_error = |sink: usize| move |error: io::Error| RunError::Sink { sink, error };
    for (k, s) in sinks.iter_mut().enumerate() {
        s.begin(&header).map_err(sink_error(k))?;
    }
    let naxes = space.axes().len();
    let ncols = columns.len();
    let width = ncols.max(1);
    let mut outcome = Outcome {
        points: 0,
        failed: 0,
        first_failure: None,
    };
    let mut start = 0u64;
    while start < space.len() {
        let end = start.saturating_add(eval.chunk.max(1)).min(space.len());
        let n = (end - start) as usize;
        let grain = grain(n);
        let mut params = vec![0.0; n * naxes];
        if naxes > 0 {
            params
                .par_chunks_mut(naxes * grain)
                .enumerate()
                .for_each(|(g, ps)| {
                    for (i, p) in ps.chunks_mut(naxes).enumerate() {
                        space.fill_f64(start + (g * grain + i) as u64, p);
                    }
                });
        }
        let mut values = vec![f64::NAN; n * width];
        let failures = Mutex::new(Vec::new());
        values
            .par_chunks_mut(width * grain)
            .enumerate()
            .for_each(|(g, vs)| {
                let mut failed = Vec::new();
                for (i, out) in vs.chunks_mut(width).enumerate() {
                    let j = g * grain + i;
                    let k = start + j as u64;
                    if let Err(e) = point(k, &params[j * naxes..(j + 1) * naxes], out) {
                        out.fill(f64::NAN);
                        failed.push((k, e));
                    }
                }
                if let Some(m) = eval.meter {
                    m.add((vs.len() / width) as u64);
                }
                if !failed.is_empty() {
                    if let Ok(mut f) = failures.lock() {
                        f.extend(failed);
                    }
                }
            });
        let mut failures = failures.into_inner().unwrap_or_default();
        // With `Stop`, the points before the first failure still reach the sinks.
        let mut stop = None;
        let mut len = n;
        if !failures.is_empty() {
            failures.sort_by_key(|(k, _)| *k);
            if eval.on_error == OnError::Stop {
                let (point, error) = failures.swap_remove(0);
                len = (point - start) as usize;
                params.truncate(len * naxes);
                values.truncate(len * width);
                stop = Some(RunError::Point { point, error });
            } else {
                outcome.failed += failures.len() as u64;
                if outcome.first_failure.is_none() {
                    outcome.first_failure = failures.into_iter().next();
                }
            }
        }
        if ncols == 0 {
            values.clear();
        }
        let block = Block {
            start,
            len,
            params: &params,
            values: &values,
            naxes,
            ncols,
        };
        for (k, s) in sinks.iter_mut().enumerate() {
            s.block(&header, &block).map_err(sink_error(k))?;
        }
        if let Some(e) = stop {
            // The sinks have what was computed; flushing them is the caller's choice.
            return Err(e);
        }
        outcome.points = end;
        start = end;
    }
    for (k, s) in sinks.iter_mut().enumerate() {
        s.finish().map_err(sink_error(k))?;
    }
    Ok(outcome)
}

/// Evaluates `point` at every point of `space`, in chunks of `eval.chunk` points run in
/// parallel, and hands each chunk's results to `sink` in point order, with the index of the
/// chunk's first point. For point functions whose results are not numbers (an analysis
/// report); a failing point stops the run with the first error in point order
/// (`eval.on_error` is not consulted).
///
/// # Errors
/// The first error of `point` or `sink`.
pub fn map<T, E, F, S>(space: &Space, eval: &Evaluation<'_>, point: F, mut sink: S) -> Result<(), E>
where
    T: Send,
    E: Send,
    F: Fn(u64) -> Result<T, E> + Sync,
    S: FnMut(u64, Vec<T>) -> Result<(), E>,
{
    let mut start = 0u64;
    while start < space.len() {
        let end = start.saturating_add(eval.chunk.max(1)).min(space.len());
        let results: Vec<Result<T, E>> = (start..end)
            .into_par_iter()
            .map(|k| {
                let r = point(k);
                if let Some(m) = eval.meter {
                    m.add(1);
                }
                r
            })
            .collect();
        // The first error in point order, whichever thread met it first.
        sink(start, results.into_iter().collect::<Result<Vec<T>, E>>()?)?;
        start = end;
    }
    Ok(())
}
