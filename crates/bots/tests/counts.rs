//! The traced kernels create and wait exactly as their analytical counts say, and their
//! results verify.
//!
//! Recording switches a process-wide flag, and a traced kernel running unrecorded while
//! another test records would have its tasks stolen into the recording; so every test
//! here holds one lock.

use bots::{fft, fib, nqueens, plain, sort, sparselu, strassen, traced, Counts};
use proptest::prelude::*;
use std::sync::{Mutex, MutexGuard};

static LOCK: Mutex<()> = Mutex::new(());

fn lock() -> MutexGuard<'static, ()> {
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

fn recorded<R: Send>(body: impl FnOnce() -> R + Send) -> (R, Counts) {
    let (r, dag) = taskrec::record(body);
    (r, Counts::new(dag.creates(), dag.waits()))
}

#[test]
fn fib_counts() {
    let _g = lock();
    for (n, x) in [(10, 19), (15, 19), (20, 19), (20, 5), (25, 3)] {
        let cfg = fib::Config { cutoff: x };
        let (v, c) = recorded(|| traced::fib::run(n, &cfg));
        fib::verify(n, v).unwrap();
        assert_eq!(c, fib::counts(n, &cfg), "fib n={n} x={x}");
        assert_eq!(plain::fib::run(n, &cfg), v);
    }
}

#[test]
fn nqueens_counts() {
    let _g = lock();
    for (n, x) in [(4, 7), (6, 7), (8, 7), (8, 2), (9, 0)] {
        let cfg = nqueens::Config { cutoff: x };
        let (v, c) = recorded(|| traced::nqueens::run(n, &cfg));
        nqueens::verify(n, v).unwrap();
        assert_eq!(c, nqueens::counts(n, &cfg), "nqueens n={n} x={x}");
        assert_eq!(plain::nqueens::run(n, &cfg), v);
    }
}

#[test]
fn sort_counts() {
    let _g = lock();
    let small = sort::Config {
        merge_cutoff: 16,
        quick_cutoff: 64,
        insertion_cutoff: 8,
    };
    for (n, cfg) in [
        (1000, sort::Config::default()),
        (5000, sort::Config::default()),
        (20000, sort::Config::default()),
        (3000, small),
        (511, small),
    ] {
        let input = sort::input(n, n as u64);
        let mut data = input.clone();
        let mut tmp = vec![0; n];
        let ((), c) = recorded(|| traced::sort::run(&mut data, &mut tmp, &cfg));
        sort::verify(&input, &data).unwrap();
        assert_eq!(c, sort::counts(&input, &cfg), "sort n={n} {cfg:?}");
        let mut again = input.clone();
        plain::sort::run(&mut again, &mut tmp, &cfg);
        assert_eq!(again, data);
    }
}

#[test]
fn sparselu_counts() {
    let _g = lock();
    for (n, m) in [(4, 30), (8, 6), (13, 4)] {
        let cfg = sparselu::Config { block: m };
        let original = sparselu::input(n, &cfg, 1325);
        let mut lu = original.clone();
        let ((), c) = recorded(|| traced::sparselu::run(&mut lu));
        sparselu::verify(&original, &lu).unwrap();
        assert_eq!(
            c,
            sparselu::counts(n, &original.structure()),
            "sparselu n={n} m={m}"
        );
        let mut again = original.clone();
        plain::sparselu::run(&mut again);
        assert_eq!(again, lu);
    }
}

#[test]
fn strassen_counts() {
    let _g = lock();
    let default = strassen::Config::default();
    for (n, cfg) in [
        (64, default),
        (128, default),
        (
            128,
            strassen::Config {
                depth_cutoff: 1,
                size_cutoff: 16,
            },
        ),
        (
            96,
            strassen::Config {
                depth_cutoff: 7,
                size_cutoff: 8,
            },
        ),
    ] {
        let (a, b) = strassen::input(n, 3);
        let mut c = vec![0.0; n * n];
        let ((), counts) = recorded(|| traced::strassen::run(&a, &b, &mut c, n, &cfg));
        strassen::verify(&a, &b, &c, n, 3).unwrap();
        assert_eq!(counts, strassen::counts(n, &cfg), "strassen n={n} {cfg:?}");
    }
}

#[test]
fn fft_counts() {
    let _g = lock();
    let default = fft::Config::default();
    for (n, cfg) in [
        (32, default),
        (1024, default),
        (4096, default),
        (512, fft::Config { loop_cutoff: 4 }),
        (1 << 13, default),
    ] {
        let input = fft::input(n, n as u64);
        let mut scratch = input.clone();
        let mut out = vec![fft::Complex::default(); n];
        let ((), c) = recorded(|| traced::fft::run(&mut scratch, &mut out, &cfg));
        fft::verify(&input, &out).unwrap();
        assert_eq!(c, fft::counts(n, &cfg), "fft n={n} {cfg:?}");
    }
}

#[test]
fn verification_catches_wrong_results() {
    assert!(fib::verify(10, 56).is_err());
    assert!(nqueens::verify(8, 91).is_err());
    let x = fft::input(64, 1);
    let mut y = x.clone();
    fft::reference_fft(&mut y, -1.0);
    assert!(fft::verify(&x, &y).is_ok());
    y[5].re += 1e-3;
    assert!(fft::verify(&x, &y).is_err());
    let x = fft::input(8192, 1);
    let mut y = x.clone();
    fft::reference_fft(&mut y, -1.0);
    assert!(fft::verify(&x, &y).is_ok());
    y.swap(1, 2);
    assert!(fft::verify(&x, &y).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// cilksort sorts any input with any valid cut-offs, with the predicted counts.
    #[test]
    fn sort_any(data in proptest::collection::vec(-50i64..50, 0..600), a in 0usize..40, y in 4usize..80, b in 2usize..30) {
        let _g = lock();
        let cfg = sort::Config { merge_cutoff: a, quick_cutoff: y, insertion_cutoff: b };
        let mut out = data.clone();
        let mut tmp = vec![0; data.len()];
        let ((), c) = recorded(|| traced::sort::run(&mut out, &mut tmp, &cfg));
        prop_assert!(sort::verify(&data, &out).is_ok());
        prop_assert_eq!(c, sort::counts(&data, &cfg));
    }
}
