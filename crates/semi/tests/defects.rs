//! Issue 32 item 4, each defect of the semi engine with its regression test: a deadlock
//! names its cause, a byte-order mark starts a model, the load imbalance is the paper's,
//! a branch's result says it is one draw and the draws' mean is offered.

use semi::instantiate::Bindings;
use semi::predict::{predict, PredictError, PredictOptions, Prediction};
use semi::sim::{DeadlockCause, FixedCosts, Options, SimError};

fn bind(params: &[(&str, f64)]) -> Bindings {
    Bindings {
        params: params.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
        coeffs: Vec::new(),
    }
}

fn attempt(
    text: &str,
    params: &[(&str, f64)],
    costs: &FixedCosts,
    opts: &PredictOptions,
) -> Result<Prediction, PredictError> {
    let m = semi::lang::parse("t.tg", text).expect("parses");
    predict(&m, &bind(params), costs, opts)
}

fn run(text: &str, params: &[(&str, f64)], costs: &FixedCosts) -> Prediction {
    attempt(text, params, costs, &PredictOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9 * b.abs().max(1.0)
}

/// The deadlock's cause, and its message.
fn deadlock(text: &str) -> (Vec<DeadlockCause>, String) {
    match attempt(
        text,
        &[],
        &FixedCosts::default(),
        &PredictOptions::default(),
    ) {
        Err(PredictError::Sim(e @ SimError::Deadlock { .. })) => {
            let message = e.to_string();
            let SimError::Deadlock { causes, .. } = e else {
                unreachable!()
            };
            (causes, message)
        }
        other => panic!("not a deadlock: {other:?}"),
    }
}

#[test]
fn a_deadlock_at_a_barrier_of_the_wrong_size_names_the_barrier_and_the_counts() {
    let (causes, message) = deadlock(
        "barrier b(3);
         thread t1 { barrier b; } thread t2 { barrier b; }
         thread t3 { barrier b; } thread t4 { barrier b; }",
    );
    assert_eq!(
        causes,
        [DeadlockCause::BarrierCount {
            barrier: "b".into(),
            expects: 3,
            arrive: 4
        }]
    );
    assert!(
        message.contains("barrier `b` expects 3 threads but 4 arrive"),
        "{message}"
    );
    let (_, message) = deadlock("barrier b(4); thread t1 { barrier b; } thread t2 { barrier b; }");
    assert!(
        message.contains("barrier `b` expects 4 threads but 2 arrive"),
        "{message}"
    );
}

#[test]
fn a_deadlock_on_a_lock_taken_twice_names_the_thread_and_the_lock() {
    let (causes, message) = deadlock("lock l; thread t { lock l; lock l; unlock l; unlock l; }");
    assert_eq!(
        causes,
        [DeadlockCause::Relock {
            thread: "t".into(),
            lock: "l".into()
        }]
    );
    assert!(
        message.contains("thread `t` takes lock `l` it already holds"),
        "{message}"
    );
}

#[test]
fn a_deadlock_on_a_lock_never_released_names_the_thread_that_ended_holding_it() {
    let (causes, message) = deadlock(
        "lock l;
         thread t { lock l; compute x = 1; }
         thread u { compute y = 2; critical l { compute z = 1; } }",
    );
    assert_eq!(
        causes,
        [DeadlockCause::EndedHolding {
            thread: "t".into(),
            lock: "l".into()
        }]
    );
    assert!(
        message.contains("thread `t` ended holding lock `l`"),
        "{message}"
    );
    // The symptom is still there, after the cause.
    assert!(message.contains("`u` waits for lock `l`"), "{message}");
}

#[test]
fn a_byte_order_mark_at_the_start_of_a_model_is_accepted() {
    let text = "param N;\nthread t { compute a = N; }\n";
    let with = semi::lang::parse("t.tg", &format!("\u{feff}{text}")).expect("parses");
    let without = semi::lang::parse("t.tg", text).unwrap();
    assert_eq!(with.threads.len(), without.threads.len());
    assert_eq!(with.params[0].name.name, "N");
    // Errors in such a file still point at the right place: line 2, after the mark.
    let e = semi::lang::parse("t.tg", "\u{feff}param N;\nthread t { compute a = M; }\n")
        .expect_err("M is not defined");
    let at = e.location.as_ref().expect("located");
    assert_eq!(at.line_col(), (2, 24), "{e:?}");
}

/// The load imbalance by hand (spec §6.4, work 4, 6, 5, lock 0.1, barrier 0.5): the
/// threads leave their critical sections at 5.1 (t1), 6.2 (t3) and 7.3 (t2), all having
/// computed since their previous barrier: t1 waits 2.2 and t3 1.1 for t2, imbalance 3.3.
/// A main thread that only waits at the barrier (no work since its previous one) waits
/// 7.3 too, and that is not imbalance.
#[test]
fn the_load_imbalance_counts_only_the_threads_that_worked() {
    let costs = FixedCosts {
        lock: 0.1,
        barrier: 0.5,
        ..FixedCosts::default()
    };
    let p = run(
        "lock cs; barrier done(4);
         thread t1 { compute work = 4; critical cs { compute update = 1; } barrier done; }
         thread t2 { compute work = 6; critical cs { compute update = 1; } barrier done; }
         thread t3 { compute work = 5; critical cs { compute update = 1; } barrier done; }
         thread main { barrier done; }",
        &[],
        &costs,
    );
    assert!(close(p.outcome.time, 7.8));
    let imbalance: Vec<f64> = p.outcome.threads.iter().map(|t| t.imbalance).collect();
    assert!(close(imbalance[0], 2.2) && close(imbalance[1], 0.0) && close(imbalance[2], 1.1));
    assert!(close(imbalance[3], 0.0));
    assert!(close(p.outcome.threads[3].barrier_wait, 7.3));
}

/// GE with one worker (the shape of `examples/semi/ge.tg` at P = 1): the main thread waits
/// while the worker eliminates and the worker while the main thread pivots, about half of
/// all barrier time; none of it is load imbalance, since only one thread works between two
/// barriers.
#[test]
fn ge_at_one_worker_has_no_load_imbalance() {
    let p = run(
        "param N; param P; barrier step(P + 1);
         thread main { fork w; barrier step;
             loop k in 1..=N-1 { compute pivot = N - k; barrier step; barrier step; }
             join w; }
         class w[i in P] { compute init = N; barrier step;
             loop k in 1..=N-1 { barrier step; compute elim = (N - k)^2; barrier step; } }",
        &[("N", 20.0), ("P", 1.0)],
        &FixedCosts::default(),
    );
    let waits: f64 = p.outcome.threads.iter().map(|t| t.barrier_wait).sum();
    let imbalance: f64 = p.outcome.threads.iter().map(|t| t.imbalance).sum();
    // The worker waits for the 19 pivots (Σ k = 190), main for the inits and eliminations
    // (20 + Σ k² = 20 + 2470).
    assert!(close(waits, 190.0 + 2490.0), "{waits}");
    assert_eq!(imbalance, 0.0);
}

const COIN: &str = "thread t { branch 1 / 2 { compute fast = 1; } else { compute slow = 3; } }";

/// A branch's time is one draw, 1 or 3 here; the mean over K draws estimates the
/// expectation, 2. With 4000 draws the mean's standard error is 1/√4000 ≈ 0.016.
#[test]
fn a_branch_is_one_draw_and_draws_give_the_expectation() {
    let one = run(COIN, &[], &FixedCosts::default());
    assert!(one.branches);
    assert!(one.draws.is_none());
    assert!(one.outcome.time == 1.0 || one.outcome.time == 3.0);
    let opts = PredictOptions {
        draws: 4000,
        sim: Options {
            seed: 7,
            ..Options::default()
        },
        ..PredictOptions::default()
    };
    let many = attempt(COIN, &[], &FixedCosts::default(), &opts).unwrap();
    let d = many.draws.clone().expect("draws");
    assert_eq!((d.count, d.seed), (4000, 7));
    assert!((d.mean - 2.0).abs() < 0.08, "{}", d.mean);
    assert_eq!((d.min, d.max), (1.0, 3.0));
    // The standard deviation of a fair choice between 1 and 3 is 1.
    assert!((d.sd - 1.0).abs() < 0.05, "{}", d.sd);
    // The first draw is the single prediction's (same seed).
    let first = attempt(
        COIN,
        &[],
        &FixedCosts::default(),
        &PredictOptions {
            sim: opts.sim,
            ..PredictOptions::default()
        },
    )
    .unwrap();
    assert_eq!(first.outcome.time, many.outcome.time);
    let text = semi::report::prediction_text("coin.tg", &first);
    assert!(
        text.contains("one random draw of the branches' arms (seed 7)"),
        "{text}"
    );
    let text = semi::report::prediction_text("coin.tg", &many);
    assert!(
        text.contains("mean over 4000 draws (seeds 7 to 4006)"),
        "{text}"
    );
    let too_many = PredictOptions {
        draws: semi::predict::MAX_DRAWS + 1,
        ..PredictOptions::default()
    };
    assert!(matches!(
        attempt(COIN, &[], &FixedCosts::default(), &too_many),
        Err(PredictError::TooManyDraws { .. })
    ));
}
