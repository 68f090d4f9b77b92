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

/// Whether any create in the tree still waits for its task.
fn has_pending(c: &taskrec::tree::Child) -> bool {
    use taskrec::tree::{Child, Item};
    fn chain(items: &[Item]) -> bool {
        items.iter().any(|i| match i {
            Item::Create { child, .. } => has_pending(child),
            Item::Section(s) => chain(&s.items),
            Item::Strand(_) | Item::Collapsed(_) => false,
        })
    }
    match c {
        Child::Pending(_) => true,
        Child::Task(t) => chain(&t.items),
        Child::Collapsed(_) => false,
    }
}

#[test]
fn spawns_into_an_outer_scope_from_nested_tasks_and_joins_are_all_filled() {
    let _turn = turn();
    for collapse in [true, false] {
        for _ in 0..20 {
            let (total, dag) = taskrec::record_with(taskrec::Options { collapse }, || {
                let sum = std::sync::atomic::AtomicU64::new(0);
                let sum = &sum;
                taskrec::scope(|outer| {
                    for k in 0..6u64 {
                        outer.spawn(move |inner| {
                            // A spawn into the same scope from a spawned task.
                            inner.spawn(move |_| {
                                sum.fetch_add(
                                    fib(10 + k % 3),
                                    std::sync::atomic::Ordering::Relaxed,
                                );
                            });
                            // And from both sides of a join, and from a nested scope.
                            taskrec::join(
                                || {
                                    inner.spawn(move |_| {
                                        sum.fetch_add(fib(8), std::sync::atomic::Ordering::Relaxed);
                                    })
                                },
                                || {
                                    taskrec::scope(|s| {
                                        s.spawn(|_| {
                                            sum.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                                        });
                                        inner.spawn(move |_| {
                                            sum.fetch_add(
                                                fib(6),
                                                std::sync::atomic::Ordering::Relaxed,
                                            );
                                        });
                                    })
                                },
                            );
                        });
                    }
                });
                sum.load(std::sync::atomic::Ordering::Relaxed)
            });
            let want: u64 = (0..6).map(|k| fib(10 + k % 3) + fib(8) + 1 + fib(6)).sum();
            assert_eq!(total, want);
            assert!(
                !has_pending(&dag.root),
                "collapse {collapse}: a create left unfilled"
            );
            // Per outer task: 3 spawns into the outer scope, 1 join, 1 inner scope with one
            // spawn; the outer scope's 6 spawns; the fibs' joins.
            let joins_of: u64 = (0..6)
                .map(|k| joins(10 + k % 3) + joins(8) + joins(6))
                .sum();
            assert_eq!(
                dag.creates(),
                6 + 6 * (3 + 1 + 1) + joins_of,
                "collapse {collapse}"
            );
            // Waits: the outer scope, per outer task its join and its inner scope, the fibs'.
            assert_eq!(dag.waits(), 1 + 6 * 2 + joins_of, "collapse {collapse}");
        }
    }
}
