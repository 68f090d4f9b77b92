//! Algorithm G: the spec's test vectors RT-B.1 (Θ and the traversal counter) and RT-D (the
//! lock-and-barrier cluster of §6.4, time-sharing), the event semantics one by one, the
//! errors, and the properties of issue 20's acceptance item 2.

use proptest::prelude::*;
use semi::graph::{Barrier, Graph, GraphError, Op, Thread};
use semi::sim::{simulate, Activity, FixedCosts, Options, SimError};

fn thread(name: &str, ops: Vec<Op>) -> Thread {
    Thread {
        name: name.to_string(),
        ops,
        stands_for: 1,
    }
}

fn barrier(participants: usize) -> Barrier {
    Barrier {
        name: "b".to_string(),
        participants,
    }
}

fn run(g: &Graph, costs: &FixedCosts, processors: usize) -> semi::sim::Outcome {
    simulate(
        g,
        costs,
        &Options {
            processors,
            schedule: true,
            ..Options::default()
        },
    )
    .expect("traverses")
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9 * b.abs().max(1.0)
}

/// RT-B.1: an event outside any loop (θ = 1), one in a loop of 10 (θ = 10), one in loops of
/// 10 and 4 (θ = 40): Θ = 51, known before the traversal and counted by it.
#[test]
fn rt_b1_theta_is_51_and_the_traversal_counts_51() {
    let g = Graph {
        threads: vec![thread(
            "main",
            vec![
                Op::Mark,
                Op::Loop {
                    count: 10,
                    body: vec![
                        Op::Compute(1.0),
                        Op::Mark,
                        Op::Loop {
                            count: 4,
                            body: vec![Op::Mark, Op::Compute(0.5)],
                        },
                    ],
                },
            ],
        )],
        ..Graph::default()
    };
    assert_eq!(g.size().events, 51);
    let out = run(&g, &FixedCosts::default(), 1);
    assert_eq!(out.events, 51);
    // Each loop body ran Size times, not Size + 1: 10·(1 + 4·0.5).
    assert!(close(out.time, 30.0), "{}", out.time);
    assert_eq!(out.steps, g.size().steps);
}

/// The cluster of §6.4: three threads, a parallel segment, a 1.0 critical section (lock
/// cost 0.1), a 3-way barrier (cost 0.5).
fn cluster(work: [f64; 3]) -> Graph {
    Graph {
        threads: work
            .iter()
            .enumerate()
            .map(|(i, &w)| {
                thread(
                    &format!("w{}", i + 1),
                    vec![
                        Op::Compute(w),
                        Op::Lock(0),
                        Op::Compute(1.0),
                        Op::Unlock(0),
                        Op::Barrier(0),
                    ],
                )
            })
            .collect(),
        barriers: vec![barrier(3)],
        locks: vec!["cs".to_string()],
        ..Graph::default()
    }
}

fn cluster_costs() -> FixedCosts {
    FixedCosts {
        lock: 0.1,
        barrier: 0.5,
        ..FixedCosts::default()
    }
}

/// RT-D: unbalanced work 4, 6, 5 → 7.8 (the critical sections overlap the imbalance).
#[test]
fn rt_d_unbalanced_cluster_ends_at_7_8() {
    let out = run(&cluster([4.0, 6.0, 5.0]), &cluster_costs(), 3);
    assert!(close(out.time, 7.8), "{}", out.time);
    // W3 waits for the lock from 5 to 5.1, W2 from 6 to 6.2.
    assert!(close(out.threads[2].lock_wait, 0.1));
    assert!(close(out.threads[1].lock_wait, 0.2));
    // The barrier waits: W1 from 5.1, W3 from 6.2, to 7.3.
    assert!(close(out.threads[0].barrier_wait, 2.2));
    assert!(close(out.threads[2].barrier_wait, 1.1));
    assert!(close(out.threads[1].barrier_wait, 0.0));
}

/// RT-D: balanced work 6, 6, 6 → 9.8 whichever order the simultaneous arrivals take.
#[test]
fn rt_d_balanced_cluster_ends_at_9_8_for_every_seed() {
    for seed in 0..20 {
        let out = simulate(
            &cluster([6.0; 3]),
            &cluster_costs(),
            &Options {
                processors: 3,
                seed,
                ..Options::default()
            },
        )
        .unwrap();
        assert!(close(out.time, 9.8), "seed {seed}: {}", out.time);
        let waits: f64 = out.threads.iter().map(|t| t.lock_wait).sum();
        // The second waits 1.1, the third 2.2.
        assert!(close(waits, 3.3), "{waits}");
    }
}

/// RT-D: four threads of 10 units on two processors share them and end together at 20.
#[test]
fn rt_d_time_sharing_four_threads_on_two_processors_end_at_20() {
    let g = Graph {
        threads: (0..4)
            .map(|i| thread(&format!("t{i}"), vec![Op::Compute(10.0)]))
            .collect(),
        ..Graph::default()
    };
    let out = run(&g, &FixedCosts::default(), 2);
    assert!(close(out.time, 20.0), "{}", out.time);
    for t in &out.threads {
        assert!(close(t.end.unwrap(), 20.0));
        assert!(close(t.compute, 20.0));
    }
    // Threads that start at different times: 2 processors, 3 threads (10, 10, 4): the short
    // one ends at 6 (rate 2/3), the others at 6 + (10 − 4)/1 = 12.
    let g = Graph {
        threads: [10.0, 10.0, 4.0]
            .iter()
            .enumerate()
            .map(|(i, &w)| thread(&format!("t{i}"), vec![Op::Compute(w)]))
            .collect(),
        ..Graph::default()
    };
    let out = run(&g, &FixedCosts::default(), 2);
    assert!(close(out.threads[2].end.unwrap(), 6.0));
    assert!(close(out.time, 12.0), "{}", out.time);
}

#[test]
fn fork_and_join_start_and_wait_for_children() {
    let g = Graph {
        threads: vec![
            thread(
                "main",
                vec![Op::Fork(vec![1, 2, 3]), Op::Join(vec![1, 2, 3])],
            ),
            thread("a", vec![Op::Compute(1.0)]),
            thread("b", vec![Op::Compute(3.0)]),
            thread("c", vec![Op::Compute(2.0)]),
        ],
        ..Graph::default()
    };
    let costs = FixedCosts {
        fork: 0.25,
        join: 0.5,
        ..FixedCosts::default()
    };
    let out = run(&g, &costs, 4);
    assert!(close(out.time, 0.25 + 3.0 + 0.5), "{}", out.time);
    assert!(close(out.threads[1].start.unwrap(), 0.25));
    assert!(close(out.threads[0].join_wait, 3.0));
    assert!(close(out.threads[0].events, 0.75));
}

#[test]
fn a_message_arrives_after_its_latency() {
    let g = Graph {
        threads: vec![
            thread(
                "sender",
                vec![
                    Op::Compute(1.0),
                    Op::Send {
                        channel: 0,
                        bytes: 1000,
                    },
                ],
            ),
            thread("receiver", vec![Op::Recv { channel: 0 }, Op::Compute(1.0)]),
        ],
        channels: vec!["c".to_string()],
        ..Graph::default()
    };
    let costs = FixedCosts {
        send: 0.1,
        latency: 0.2,
        per_byte: 1e-4,
        recv: 0.05,
        ..FixedCosts::default()
    };
    let out = run(&g, &costs, 2);
    // Arrives at 1 + 0.2 + 0.1 = 1.3; received at 1.35; the receiver ends at 2.35.
    assert!(close(out.threads[1].recv_wait, 1.3));
    assert!(close(out.time, 2.35), "{}", out.time);
    // Sent before the receive is posted: no wait beyond the latency.
    let g2 = Graph {
        threads: vec![
            thread(
                "sender",
                vec![Op::Send {
                    channel: 0,
                    bytes: 0,
                }],
            ),
            thread("receiver", vec![Op::Compute(5.0), Op::Recv { channel: 0 }]),
        ],
        ..g
    };
    let out = run(&g2, &costs, 2);
    assert!(close(out.threads[1].recv_wait, 0.0));
    assert!(close(out.time, 5.05));
}

#[test]
fn a_branch_takes_its_arms_by_probability() {
    let g = |p: f64| Graph {
        threads: vec![thread(
            "t",
            vec![Op::Loop {
                count: 1000,
                body: vec![Op::Branch {
                    probability: p,
                    then: vec![Op::Compute(1.0)],
                    otherwise: vec![],
                }],
            }],
        )],
        ..Graph::default()
    };
    assert!(close(run(&g(1.0), &FixedCosts::default(), 1).time, 1000.0));
    assert!(close(run(&g(0.0), &FixedCosts::default(), 1).time, 0.0));
    let half = run(&g(0.5), &FixedCosts::default(), 1).time;
    assert!((400.0..600.0).contains(&half), "{half}");
}

#[test]
fn a_barrier_that_never_fills_is_a_deadlock_naming_it() {
    let mut g = cluster([1.0, 1.0, 1.0]);
    g.barriers[0].participants = 4;
    let err = simulate(&g, &cluster_costs(), &Options::default()).unwrap_err();
    assert!(
        matches!(&err, SimError::Deadlock { blocked, .. } if blocked.len() == 3),
        "{err}"
    );
    assert!(
        err.to_string().contains("`w1` waits for barrier `b`"),
        "{err}"
    );
    // A lock never released.
    let g = Graph {
        threads: vec![
            thread("a", vec![Op::Lock(0)]),
            thread("b", vec![Op::Compute(1.0), Op::Lock(0)]),
        ],
        locks: vec!["l".to_string()],
        ..Graph::default()
    };
    let err = simulate(&g, &FixedCosts::default(), &Options::default()).unwrap_err();
    assert!(err.to_string().contains("`b` waits for lock `l`"), "{err}");
}

#[test]
fn bad_graphs_are_named_errors() {
    let one = |ops: Vec<Op>| Graph {
        threads: vec![thread("t", ops)],
        ..Graph::default()
    };
    let check = |g: &Graph| simulate(g, &FixedCosts::default(), &Options::default());
    assert!(matches!(
        check(&one(vec![Op::Lock(0)])),
        Err(SimError::Graph(GraphError::Unknown { what: "lock", .. }))
    ));
    assert!(matches!(
        check(&one(vec![Op::Compute(f64::NAN)])),
        Err(SimError::Graph(GraphError::BadSegment { .. }))
    ));
    assert!(matches!(
        check(&one(vec![Op::Branch {
            probability: 1.5,
            then: vec![],
            otherwise: vec![]
        }])),
        Err(SimError::Graph(GraphError::BadProbability { .. }))
    ));
    assert!(matches!(
        check(&one(vec![Op::Fork(vec![0])])),
        Err(SimError::Graph(GraphError::SelfReference { .. }))
    ));
    let twice = Graph {
        threads: vec![
            thread(
                "main",
                vec![Op::Loop {
                    count: 2,
                    body: vec![Op::Fork(vec![1])],
                }],
            ),
            thread("child", vec![]),
        ],
        ..Graph::default()
    };
    let err = check(&twice).unwrap_err();
    assert!(
        err.to_string().contains("`child` is forked 2 times"),
        "{err}"
    );
    let circle = Graph {
        threads: vec![
            thread("a", vec![Op::Fork(vec![1])]),
            thread("b", vec![Op::Fork(vec![0])]),
        ],
        ..Graph::default()
    };
    assert_eq!(
        check(&circle).unwrap_err(),
        SimError::Graph(GraphError::NoRoot)
    );
    let empty = Graph {
        threads: vec![thread("t", vec![Op::Barrier(0)])],
        barriers: vec![barrier(0)],
        ..Graph::default()
    };
    assert!(matches!(
        check(&empty),
        Err(SimError::Graph(GraphError::EmptyBarrier { .. }))
    ));
    let none = simulate(
        &one(vec![]),
        &FixedCosts::default(),
        &Options {
            processors: 0,
            ..Options::default()
        },
    );
    assert_eq!(none.unwrap_err(), SimError::NoProcessors);
}

/// Θ over the limit is refused before any work, with Θ in the message; counts that
/// overflow saturate.
#[test]
fn a_graph_over_the_step_limit_is_refused_before_running() {
    let g = Graph {
        threads: vec![thread(
            "t",
            vec![Op::Loop {
                count: u64::MAX,
                body: vec![Op::Loop {
                    count: u64::MAX,
                    body: vec![Op::Barrier(0)],
                }],
            }],
        )],
        barriers: vec![barrier(1)],
        ..Graph::default()
    };
    let started = std::time::Instant::now();
    let err = simulate(&g, &FixedCosts::default(), &Options::default()).unwrap_err();
    assert!(started.elapsed().as_secs_f64() < 1.0);
    assert!(
        matches!(err, SimError::TooLarge { events, .. } if events == u64::MAX),
        "{err}"
    );
    assert!(
        matches!(
            err,
            SimError::TooLarge {
                reached: sweep::Reached {
                    limit: sweep::Limit::TraversalSteps,
                    value
                },
                ..
            } if value == Options::default().max_steps
        ),
        "{err}"
    );
    assert!(err.to_string().contains("Θ"), "{err}");
}

/// Random graphs of `threads` threads, each a few rounds of (segment, critical section,
/// optional barrier).
fn arb_program() -> impl Strategy<Value = Vec<Vec<(f64, f64, bool)>>> {
    let round = (0.0f64..10.0, 0.01f64..2.0, any::<bool>());
    (1usize..6, 1usize..5).prop_flat_map(move |(threads, rounds)| {
        prop::collection::vec(prop::collection::vec(round.clone(), rounds), threads)
    })
}

/// How a random program synchronises.
#[derive(Clone, Copy)]
struct Sync {
    /// A lock around each critical section.
    locks: bool,
    /// A barrier of all threads after the rounds thread 0 marks.
    barriers: bool,
}

/// The graph of `program` (every thread with as many rounds as thread 0).
fn graph_of(program: &[Vec<(f64, f64, bool)>], sync: Sync) -> Graph {
    let barriers_at: Vec<bool> = program[0].iter().map(|r| r.2).collect();
    let threads = program
        .iter()
        .enumerate()
        .map(|(i, rounds)| {
            let mut ops = Vec::new();
            for (k, &(work, cs, _)) in rounds.iter().enumerate() {
                ops.push(Op::Compute(work));
                if sync.locks {
                    ops.push(Op::Lock(0));
                }
                ops.push(Op::Compute(cs));
                if sync.locks {
                    ops.push(Op::Unlock(0));
                }
                if sync.barriers && barriers_at.get(k) == Some(&true) {
                    ops.push(Op::Barrier(0));
                }
            }
            thread(&format!("t{i}"), ops)
        })
        .collect();
    Graph {
        threads,
        barriers: vec![barrier(program.len())],
        locks: vec!["l".to_string()],
        ..Graph::default()
    }
}

fn same_rounds(program: &mut [Vec<(f64, f64, bool)>]) {
    let r = program[0].len();
    for t in program.iter_mut() {
        t.resize(r, (1.0, 0.5, false));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Without synchronisation the time is the longest thread's work.
    #[test]
    fn without_synchronisation_the_longest_thread_decides(mut program in arb_program()) {
        same_rounds(&mut program);
        let g = graph_of(&program, Sync { locks: false, barriers: false });
        let out = run(&g, &FixedCosts::default(), program.len());
        let longest = program
            .iter()
            .map(|t| t.iter().map(|r| r.0 + r.1).sum::<f64>())
            .fold(0.0, f64::max);
        prop_assert!(close(out.time, longest), "{} vs {}", out.time, longest);
    }

    /// A barrier never shortens the time (without locks, whose order a barrier may change
    /// for the better, as in Graham's anomalies).
    #[test]
    fn barriers_never_shorten_the_time(mut program in arb_program(), seed in any::<u64>()) {
        same_rounds(&mut program);
        let costs = FixedCosts { barrier: 0.1, ..FixedCosts::default() };
        let opts = Options { processors: 8, seed, ..Options::default() };
        let with = graph_of(&program, Sync { locks: false, barriers: true });
        let without = graph_of(&program, Sync { locks: false, barriers: false });
        let a = simulate(&with, &costs, &opts).unwrap();
        let b = simulate(&without, &costs, &opts).unwrap();
        prop_assert!(a.time >= b.time - 1e-9, "{} < {}", a.time, b.time);
    }

    /// The critical sections of one lock never overlap, on any number of processors; the
    /// same seed gives the same result.
    #[test]
    fn critical_sections_never_overlap(
        mut program in arb_program(),
        seed in any::<u64>(),
        processors in 1usize..4,
    ) {
        same_rounds(&mut program);
        let costs = FixedCosts { lock: 0.01, barrier: 0.1, ..FixedCosts::default() };
        let opts = Options { processors, seed, schedule: true, ..Options::default() };
        let g = graph_of(&program, Sync { locks: true, barriers: true });
        let a = simulate(&g, &costs, &opts).unwrap();
        prop_assert_eq!(&a, &simulate(&g, &costs, &opts).unwrap());
        // A critical section: a thread's segment right after its lock acquisition.
        let mut sections = Vec::new();
        for t in 0..program.len() {
            let mut mine: Vec<_> = a.schedule.iter().filter(|s| s.thread == t).collect();
            mine.sort_by(|x, y| x.start.total_cmp(&y.start));
            for w in mine.windows(2) {
                if w[0].activity == Activity::Event
                    && close(w[0].end - w[0].start, 0.01)
                    && w[1].activity == Activity::Compute
                {
                    sections.push((w[1].start, w[1].end));
                }
            }
        }
        prop_assert_eq!(sections.len(), program.len() * program[0].len());
        sections.sort_by(|x, y| x.0.total_cmp(&y.0));
        for w in sections.windows(2) {
            prop_assert!(w[1].0 >= w[0].1 - 1e-9, "{:?} overlaps {:?}", w[0], w[1]);
        }
    }
}
