//! The timing driver: each kernel becomes a subroutine (compiled apart from the main
//! program, so the compiler cannot see through the call and remove the repeated work), and
//! a main program
//! times every point: storage refilled, repetitions doubled until one sample lasts the
//! minimum time (the thesis' rule against the clock's resolution), then the samples, each
//! the time of one execution. Its output lines are `T point n reps seconds…`.

use super::extent::{extents, INT_SCALAR_START};
use super::{Job, Point, RunError, Timing};
use crate::micro::ast::Type;
use crate::micro::Fragment;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// An array in the driver's storage: its type, per dimension `(lo, hi)`, and its offset
/// (1-based) in the pool of its type.
struct Place {
    ty: Type,
    dims: Vec<(i64, i64)>,
    offset: i64,
}

/// Where a kernel's arrays sit in the driver's storage at one point.
struct Layout {
    /// Per array, REAL ones first, each in name order.
    arrays: Vec<Place>,
    real_pool: i64,
    int_pool: i64,
}

/// The most elements of one type the driver allocates.
pub const MAX_POOL: i64 = 1 << 27;

fn layout(f: &Fragment, n: i64) -> Result<Layout, RunError> {
    let ext = extents(f, n).map_err(|m| RunError::Kernel {
        kernel: f.name.clone(),
        message: m,
    })?;
    let mut arrays = Vec::new();
    let (mut real_pool, mut int_pool) = (1i64, 1i64);
    for ty in [Type::Real, Type::Integer] {
        for name in f.names.arrays(ty) {
            let dims = ext.get(name).cloned().unwrap_or_else(|| vec![(1, 1)]);
            let size = dims
                .iter()
                .try_fold(1i64, |acc, (lo, hi)| acc.checked_mul((hi - lo + 1).max(1)))
                .filter(|s| *s <= MAX_POOL)
                .ok_or_else(|| RunError::Kernel {
                    kernel: f.name.clone(),
                    message: format!("array {name} needs more than {MAX_POOL} elements at n = {n}"),
                })?;
            let pool = if ty == Type::Real {
                &mut real_pool
            } else {
                &mut int_pool
            };
            arrays.push(Place {
                ty,
                dims,
                offset: *pool,
            });
            *pool += size + 8;
            if *pool > MAX_POOL {
                return Err(RunError::Kernel {
                    kernel: f.name.clone(),
                    message: format!("its arrays need more than {MAX_POOL} elements at n = {n}"),
                });
            }
        }
    }
    Ok(Layout {
        arrays,
        real_pool,
        int_pool,
    })
}

/// The dummy argument names of a kernel: parameters, then per array its bounds and itself,
/// then the scalars.
fn dummies(f: &Fragment) -> Vec<String> {
    let mut out: Vec<String> = f.names.params.iter().cloned().collect();
    for ty in [Type::Real, Type::Integer] {
        for a in f.names.arrays(ty) {
            let rank = f.names.names[a].rank;
            for d in 0..rank {
                out.push(format!("VQ_L{d}_{a}"));
                if d + 1 < rank {
                    out.push(format!("VQ_U{d}_{a}"));
                }
            }
            out.push(a.to_string());
        }
    }
    for ty in [Type::Real, Type::Integer] {
        for s in f.names.scalars(ty) {
            if !f.names.params.contains(s) {
                out.push(s.to_string());
            }
        }
    }
    out
}

/// The subroutine of kernel `k`.
fn subroutine(k: usize, f: &Fragment) -> String {
    let mut s = String::new();
    let args = dummies(f);
    let _ = writeln!(s, "subroutine vq_k{k}({})", args.join(", "));
    let _ = writeln!(s, "  implicit none");
    for p in &f.names.params {
        let _ = writeln!(s, "  integer :: {p}");
    }
    for ty in [Type::Real, Type::Integer] {
        for a in f.names.arrays(ty) {
            let rank = f.names.names[a].rank;
            let mut dims = Vec::new();
            for d in 0..rank {
                let _ = writeln!(s, "  integer :: VQ_L{d}_{a}");
                if d + 1 < rank {
                    let _ = writeln!(s, "  integer :: VQ_U{d}_{a}");
                    dims.push(format!("VQ_L{d}_{a}:VQ_U{d}_{a}"));
                } else {
                    dims.push(format!("VQ_L{d}_{a}:*"));
                }
            }
            let _ = writeln!(
                s,
                "  {} :: {a}({})",
                ty.keyword().to_lowercase(),
                dims.join(", ")
            );
        }
        for v in f.names.scalars(ty) {
            if !f.names.params.contains(v) {
                let _ = writeln!(s, "  {} :: {v}", ty.keyword().to_lowercase());
            }
        }
    }
    for v in f.names.loop_vars() {
        let _ = writeln!(s, "  integer :: {v}");
    }
    s.push_str(&f.program.to_fortran(2));
    let _ = writeln!(s, "end subroutine vq_k{k}");
    s
}

/// The actual arguments of kernel `k` at point `n`.
fn actuals(f: &Fragment, l: &Layout, scalar_slots: &BTreeMap<String, usize>) -> Vec<String> {
    let mut out: Vec<String> = f.names.params.iter().map(|_| "nn".to_string()).collect();
    for Place { ty, dims, offset } in &l.arrays {
        for (d, (lo, hi)) in dims.iter().enumerate() {
            out.push(lo.to_string());
            if d + 1 < dims.len() {
                out.push(hi.to_string());
            }
        }
        let pool = if *ty == Type::Real { "rp" } else { "ip" };
        out.push(format!("{pool}({offset})"));
    }
    for ty in [Type::Real, Type::Integer] {
        for v in f.names.scalars(ty) {
            if !f.names.params.contains(v) {
                let pool = if ty == Type::Real { "rs" } else { "is" };
                out.push(format!("{pool}({})", scalar_slots[v]));
            }
        }
    }
    out
}

/// The sources of the timing program for `job`: `(file name, text)`, the main program first.
///
/// # Errors
/// [`RunError::Kernel`] when a kernel's arrays cannot be laid out (a subscript that cannot be
/// bounded, or more storage than [`MAX_POOL`]); [`RunError::Plan`] for an empty job or a point
/// naming no kernel.
pub fn sources(job: &Job) -> Result<Vec<(String, String)>, RunError> {
    if job.points.is_empty() || job.samples == 0 {
        return Err(RunError::Plan("no points or no samples to time".into()));
    }
    for f in job.kernels {
        if f.names.names.keys().any(|n| n.starts_with("VQ_")) {
            return Err(RunError::Kernel {
                kernel: f.name.clone(),
                message: "names starting VQ_ are the driver's".into(),
            });
        }
    }
    let mut layouts = Vec::new();
    let (mut real_pool, mut int_pool) = (1i64, 1i64);
    for p in job.points {
        let f = job.kernels.get(p.kernel).ok_or_else(|| {
            RunError::Plan(format!(
                "point names kernel {}, of {}",
                p.kernel,
                job.kernels.len()
            ))
        })?;
        let l = layout(f, p.n)?;
        real_pool = real_pool.max(l.real_pool);
        int_pool = int_pool.max(l.int_pool);
        layouts.push(l);
    }
    let mut max_scalars = (1usize, 1usize);
    let slots: Vec<BTreeMap<String, usize>> = job
        .kernels
        .iter()
        .map(|f| {
            let mut m = BTreeMap::new();
            for (i, v) in f.names.scalars(Type::Real).into_iter().enumerate() {
                m.insert(v.to_string(), i + 1);
                max_scalars.0 = max_scalars.0.max(i + 1);
            }
            for (i, v) in f.names.scalars(Type::Integer).into_iter().enumerate() {
                m.insert(v.to_string(), i + 1);
                max_scalars.1 = max_scalars.1.max(i + 1);
            }
            m
        })
        .collect();
    let mut main = String::new();
    let _ = writeln!(
        main,
        "! Generated by vates (collectives::micro): times {} points.
program vq_main
  use, intrinsic :: iso_fortran_env, only: int64, real64
  implicit none
  real, allocatable :: rp(:)
  integer, allocatable :: ip(:)
  real :: rs({rs})
  integer :: is({is})
  integer(int64) :: c0, c1, rate, reps, r, minticks
  integer(int64), parameter :: maxreps = 2_int64**40
  integer :: s, nn
  call system_clock(count_rate=rate)
  minticks = max(1_int64, int({min:e} * real(rate, real64), int64))
  allocate(rp({real_pool}), ip({int_pool}))",
        job.points.len(),
        rs = max_scalars.0,
        is = max_scalars.1,
        min = job.min_sample_seconds.max(0.0),
    );
    for (idx, (p, l)) in job.points.iter().zip(&layouts).enumerate() {
        let f = &job.kernels[p.kernel];
        let call = format!(
            "call vq_k{}({})",
            p.kernel,
            actuals(f, l, &slots[p.kernel]).join(", ")
        );
        let _ = writeln!(
            main,
            "  ! point {idx}: {name} at n = {n}
  call vq_fill()
  nn = {n}
  reps = 1
  do
    call system_clock(c0)
    do r = 1, reps
      {call}
    end do
    call system_clock(c1)
    if (c1 - c0 >= minticks .or. reps >= maxreps) exit
    reps = reps * 2
  end do
  write(*, '(a, i0, a, i0, a, i0)', advance='no') 'T ', {idx}, ' ', nn, ' ', reps
  do s = 1, {samples}
    call system_clock(c0)
    do r = 1, reps
      {call}
    end do
    call system_clock(c1)
    write(*, '(a, es24.16)', advance='no') ' ', real(c1 - c0, real64) / real(rate, real64) / real(reps, real64)
  end do
  write(*, '(a)') ''",
            name = f.name.replace(['\n', '\r'], " "),
            n = p.n,
            samples = job.samples,
        );
    }
    let _ = writeln!(
        main,
        "contains
  subroutine vq_fill()
    integer :: i
    do i = 1, size(rp)
      rp(i) = 0.5 + 0.0625 * real(mod(i, 7))
    end do
    do i = 1, size(ip)
      ip(i) = 1 + mod(i, 5)
    end do
    rs = 0.25
    is = {INT_SCALAR_START}
  end subroutine vq_fill
end program vq_main"
    );
    let mut out = vec![("vq_main.f90".to_string(), main)];
    for (k, f) in job.kernels.iter().enumerate() {
        out.push((format!("vq_k{k}.f90"), subroutine(k, f)));
    }
    Ok(out)
}

/// The timings in the driver's output for `points`.
///
/// # Errors
/// [`RunError::Output`] when a line is malformed or a point is missing.
pub fn parse_output(points: &[Point], samples: usize, out: &str) -> Result<Vec<Timing>, RunError> {
    let mut got: Vec<Option<Timing>> = vec![None; points.len()];
    for line in out.lines().filter(|l| l.starts_with("T ")) {
        let bad = || RunError::Output(format!("malformed line {:?}", diag::short(line)));
        let w: Vec<&str> = line.split_whitespace().collect();
        if w.len() != 4 + samples {
            return Err(bad());
        }
        let idx: usize = w[1].parse().map_err(|_| bad())?;
        let n: i64 = w[2].parse().map_err(|_| bad())?;
        let reps: u64 = w[3].parse().map_err(|_| bad())?;
        let seconds: Vec<f64> = w[4..]
            .iter()
            .map(|x| x.parse::<f64>().ok().filter(|v| v.is_finite() && *v >= 0.0))
            .collect::<Option<_>>()
            .ok_or_else(bad)?;
        let p = points.get(idx).ok_or_else(bad)?;
        if p.n != n {
            return Err(bad());
        }
        got[idx] = Some(Timing {
            point: *p,
            reps,
            seconds,
        });
    }
    got.into_iter()
        .enumerate()
        .map(|(i, t)| t.ok_or_else(|| RunError::Output(format!("no timing for point {i}"))))
        .collect()
}
