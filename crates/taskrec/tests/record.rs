//! Recording as a whole: counts of joins and spawns, collapsing on and off, recordings
//! from several threads at once (one at a time) and nested recordings.

/// Recording is switched on for the whole pool: unrecorded work that runs meanwhile may be
/// stolen into a recording, so these tests take turns.
static TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn turn() -> std::sync::MutexGuard<'static, ()> {
    TURN.lock().unwrap_or_else(|e| e.into_inner())
}

fn fib(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let (a, b) = taskrec::join(|| fib(n - 1), || fib(n - 2));
    a + b
}

/// Joins made by fib(n): one per call with n ≥ 2.
fn joins(n: u64) -> u64 {
    if n < 2 {
        0
    } else {
        1 + joins(n - 1) + joins(n - 2)
    }
}

#[test]
fn joins_and_spawns_are_counted_with_and_without_collapsing() {
    let _turn = turn();
    for collapse in [true, false] {
        let ((), dag) = taskrec::record_with(taskrec::Options { collapse }, || {
            taskrec::scope(|s| {
                for k in 5..9 {
                    s.spawn(move |_| {
                        fib(k);
                    });
                }
            });
        });
        let j: u64 = (5..9).map(joins).sum();
        assert_eq!(dag.creates(), j + 4, "collapse {collapse}");
        assert_eq!(dag.waits(), j + 1, "collapse {collapse}");
        assert!(dag.clock_hz > 0.0);
    }
}

#[test]
fn recordings_from_several_threads_take_turns() {
    let _turn = turn();
    let handles: Vec<_> = (0..4)
        .map(|k| {
            std::thread::spawn(move || {
                let (v, dag) = taskrec::record(|| fib(12 + k));
                (v, dag.creates(), k)
            })
        })
        .collect();
    for h in handles {
        let (v, creates, k) = h.join().expect("no panic");
        assert_eq!(v, [144, 233, 377, 610][k as usize]);
        assert_eq!(creates, joins(12 + k));
    }
}

#[test]
fn a_nested_recording_is_part_of_the_outer_one() {
    let _turn = turn();
    let ((inner_v, inner), outer) = taskrec::record(|| {
        let (a, b) = taskrec::join(|| taskrec::record(|| fib(10)), || fib(8));
        assert_eq!(b, 21);
        a
    });
    assert_eq!(inner_v, 55);
    assert_eq!(inner.creates(), 0);
    assert_eq!(outer.creates(), 1 + joins(10) + joins(8));
}

#[test]
fn outside_a_recording_nothing_is_recorded_and_results_are_the_same() {
    let _turn = turn();
    assert_eq!(fib(15), 610);
    assert_eq!(
        taskrec::scope(|s| {
            s.spawn(|_| assert_eq!(fib(5), 5));
            7
        }),
        7
    );
}
