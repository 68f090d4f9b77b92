//! Spec §8.2: TG-1 … TG-7 with their exact values, and the property tests.

use super::engine::{analyze, Limits, Schedule};
use super::policy::PolicyKind;
use super::system::{ByConcurrency, ConstantLatency, NoOverhead, SystemModel};
use super::{Attr, Dag};

/// A small graph for tests: tasks in insertion order, edges from named predecessors.
#[derive(Default)]
struct G {
    ids: Vec<String>,
    time: Vec<f64>,
    succ: Vec<Vec<u32>>,
    npred: Vec<u32>,
    proc: Vec<Option<i64>>,
    rate: Vec<f64>,
}

impl G {
    fn task(&mut self, id: &str, time: f64, preds: &[&str]) -> u32 {
        let t = self.ids.len() as u32;
        self.ids.push(id.to_string());
        self.time.push(time);
        self.succ.push(Vec::new());
        self.npred.push(preds.len() as u32);
        self.proc.push(None);
        self.rate.push(0.0);
        for p in preds {
            let k = self
                .ids
                .iter()
                .position(|x| x == p)
                .expect("pred defined first");
            self.succ[k].push(t);
        }
        t
    }
}

impl Dag for G {
    fn len(&self) -> usize {
        self.ids.len()
    }
    fn id(&self, t: u32) -> String {
        self.ids[t as usize].clone()
    }
    fn time(&self, t: u32) -> f64 {
        self.time[t as usize]
    }
    fn successors(&self, t: u32) -> &[u32] {
        &self.succ[t as usize]
    }
    fn pred_count(&self, t: u32) -> u32 {
        self.npred[t as usize]
    }
    fn attr(&self, t: u32, a: Attr) -> Option<i64> {
        match a {
            Attr::Proc => self.proc[t as usize],
            _ => None,
        }
    }
    fn rate(&self, t: u32, _: Option<&str>) -> f64 {
        self.rate[t as usize]
    }
}

fn run_with(g: &G, p: usize, policy: PolicyKind, system: &mut dyn SystemModel) -> Schedule {
    let mut pol = policy.build();
    analyze(g, p, pol.as_mut(), system, &Limits::default()).expect("analysis")
}

fn run(g: &G, p: usize, policy: PolicyKind) -> f64 {
    run_with(g, p, policy, &mut NoOverhead).makespan
}

#[test]
fn tg1_diamond_critical_path() {
    let mut g = G::default();
    g.task("A", 2.0, &[]);
    g.task("B", 3.0, &["A"]);
    g.task("C", 5.0, &["A"]);
    g.task("D", 1.0, &["B", "C"]);
    assert_eq!(run(&g, 1, PolicyKind::Fifo), 11.0);
    assert_eq!(run(&g, 2, PolicyKind::Fifo), 8.0);
    assert_eq!(run(&g, 4, PolicyKind::Fifo), 8.0);
}

/// The analysis counts finished tasks in a meter, for a progress display.
#[test]
fn the_meter_counts_finished_tasks() {
    let times = vec![1.0; 10_000];
    let g = forkjoin(&times);
    let meter = sweep::Meter::default();
    meter.set_count(7);
    let s = super::engine::analyze_metered(
        &g,
        4,
        PolicyKind::Fifo.build().as_mut(),
        &mut NoOverhead,
        &Limits::default(),
        Some(&meter),
    )
    .unwrap();
    assert_eq!(s.makespan, 2500.0);
    assert_eq!(meter.count(), 10_002);
}

fn forkjoin(times: &[f64]) -> G {
    let mut g = G::default();
    g.task("START", 0.0, &[]);
    let names: Vec<String> = (0..times.len()).map(|k| format!("t{k}")).collect();
    for (k, &t) in times.iter().enumerate() {
        g.task(&names[k], t, &["START"]);
    }
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    g.task("END", 0.0, &refs);
    g
}

#[test]
fn tg2_big_task_last_and_lpt() {
    let g = forkjoin(&[1.0, 1.0, 1.0, 1.0, 4.0]);
    let got: Vec<f64> = [1, 2, 3, 5]
        .iter()
        .map(|&p| run(&g, p, PolicyKind::Fifo))
        .collect();
    assert_eq!(got, vec![8.0, 6.0, 5.0, 4.0]);
    let lpt_order = forkjoin(&[4.0, 1.0, 1.0, 1.0, 1.0]);
    let got: Vec<f64> = [1, 2, 3, 5]
        .iter()
        .map(|&p| run(&lpt_order, p, PolicyKind::Fifo))
        .collect();
    assert_eq!(got, vec![8.0, 4.0, 4.0, 4.0]);
    // The lpt policy finds the same on the unfavourable order.
    let got: Vec<f64> = [1, 2, 3, 5]
        .iter()
        .map(|&p| run(&g, p, PolicyKind::Lpt))
        .collect();
    assert_eq!(got, vec![8.0, 4.0, 4.0, 4.0]);
}

#[test]
fn tg3_processor_splitting_sawtooth() {
    let expected = [(1, 20.0), (2, 10.0), (3, 9.0), (4, 5.0), (5, 5.0), (6, 5.0)];
    for (p, want) in expected {
        let mut g = G::default();
        let s = g.task("START", 0.0, &[]);
        g.proc[s as usize] = Some(0);
        let even: Vec<i64> = (0..p as i64).filter(|q| q % 2 == 0).collect();
        let odd: Vec<i64> = (0..p as i64).filter(|q| q % 2 == 1).collect();
        let mut all = Vec::new();
        for (loop_name, time, team) in [
            ("X", 1.0, (0..p as i64).collect::<Vec<_>>()),
            ("Y", 2.0, even),
            ("Z", 2.0, odd),
        ] {
            for k in 0..4 {
                let id = format!("{loop_name}{k}");
                let t = g.task(&id, time, &["START"]);
                g.proc[t as usize] = Some(if team.is_empty() {
                    0
                } else {
                    team[k % team.len()]
                });
                all.push(id);
            }
        }
        let refs: Vec<&str> = all.iter().map(String::as_str).collect();
        let e = g.task("END", 0.0, &refs);
        g.proc[e as usize] = Some(0);
        assert_eq!(run(&g, p, PolicyKind::Assigned), want, "P={p}");
    }
}

#[test]
fn tg4_wavefront_rows_round_robin() {
    let table: [((usize, usize), [f64; 5]); 3] = [
        ((4, 4), [16.0, 9.0, 8.0, 7.0, 7.0]),
        ((8, 8), [64.0, 33.0, 25.0, 19.0, 15.0]),
        ((6, 10), [60.0, 31.0, 22.0, 21.0, 15.0]),
    ];
    for ((rows, cols), want) in table {
        for (k, p) in [1usize, 2, 3, 4, 8].into_iter().enumerate() {
            let mut g = G::default();
            let s = g.task("START", 0.0, &[]);
            g.proc[s as usize] = Some(0);
            for r in 0..rows {
                for c in 0..cols {
                    let mut preds = Vec::new();
                    let up = format!("{},{c}", r.wrapping_sub(1));
                    let left = format!("{r},{}", c.wrapping_sub(1));
                    if r > 0 {
                        preds.push(up.as_str());
                    }
                    if c > 0 {
                        preds.push(left.as_str());
                    }
                    if r == 0 && c == 0 {
                        preds.push("START");
                    }
                    let t = g.task(&format!("{r},{c}"), 1.0, &preds);
                    g.proc[t as usize] = Some((r % p) as i64);
                }
            }
            assert_eq!(
                run(&g, p, PolicyKind::Assigned),
                want[k],
                "{rows}x{cols} P={p}"
            );
        }
    }
}

#[test]
fn tg5_constant_latency() {
    let mut g = G::default();
    let t = g.task("T", 10.0, &[]);
    g.rate[t as usize] = 0.1;
    let s = run_with(&g, 1, PolicyKind::Fifo, &mut ConstantLatency(2.0));
    assert_eq!(s.makespan, 12.0);
    assert_eq!(s.procs[0].overhead, 2.0);
}

#[test]
fn tg6_state_dependent_contention_and_rate_update() {
    let mut g = G::default();
    g.task("START", 0.0, &[]);
    let a = g.task("a", 10.0, &["START"]);
    let b = g.task("b", 20.0, &["START"]);
    g.rate[a as usize] = 0.1;
    g.rate[b as usize] = 0.1;
    let two = run_with(&g, 2, PolicyKind::Fifo, &mut ByConcurrency(|n| n as f64));
    assert!((two.makespan - 23.0).abs() < 1e-12, "{}", two.makespan);
    assert!((two.runs[a as usize].end - 12.0).abs() < 1e-12);
    let one = run_with(&g, 1, PolicyKind::Fifo, &mut ByConcurrency(|n| n as f64));
    assert!((one.makespan - 33.0).abs() < 1e-12, "{}", one.makespan);
}

#[test]
fn tg7_condensed_graph_equivalence() {
    let times = [3.0, 1.0, 4.0, 1.0, 5.0, 9.0];
    let mut g = forkjoin(&times);
    for k in 0..times.len() {
        g.proc[k + 1] = Some((k % 2) as i64);
    }
    g.proc[0] = Some(0);
    g.proc[times.len() + 1] = Some(0);
    assert_eq!(run(&g, 2, PolicyKind::Assigned), 12.0);
    let mut c = forkjoin(&[12.0, 11.0]);
    c.proc = vec![Some(0), Some(0), Some(1), Some(0)];
    assert_eq!(run(&c, 2, PolicyKind::Assigned), 12.0);
    // With identical rates and a constant latency both forms still agree.
    for (graph, n) in [(&mut g, times.len()), (&mut c, 2)] {
        for k in 1..=n {
            graph.rate[k] = 0.05;
        }
    }
    let a = run_with(&g, 2, PolicyKind::Assigned, &mut ConstantLatency(2.0)).makespan;
    let b = run_with(&c, 2, PolicyKind::Assigned, &mut ConstantLatency(2.0)).makespan;
    assert!((a - b).abs() < 1e-9, "{a} vs {b}");
}

/// A seeded random DAG: each task depends on up to 3 earlier tasks.
fn random_dag(seed: u64, n: usize) -> G {
    let mut rng = stats::rng::seeded(seed);
    let mut next = move |m: u64| stats::rng::Draw::below(&mut rng, m);
    let mut g = G::default();
    for k in 0..n {
        let mut preds: Vec<String> = Vec::new();
        if k > 0 {
            for _ in 0..next(4) {
                let p = format!("t{}", next(k as u64));
                if !preds.contains(&p) {
                    preds.push(p);
                }
            }
        }
        let refs: Vec<&str> = preds.iter().map(String::as_str).collect();
        g.task(&format!("t{k}"), (1 + next(9)) as f64, &refs);
    }
    g
}

#[test]
fn graham_bounds_and_extremes_for_work_conserving_policies() {
    for seed in 0..60u64 {
        let g = random_dag(seed, 5 + (seed as usize % 40));
        let work: f64 = g.time.iter().sum();
        let cp = super::bottom_levels(&g)
            .unwrap()
            .into_iter()
            .fold(0.0, f64::max);
        for policy in [
            PolicyKind::Fifo,
            PolicyKind::Lifo,
            PolicyKind::Lpt,
            PolicyKind::Cp,
        ] {
            assert_eq!(run(&g, 1, policy), work, "P=1 gives the work (seed {seed})");
            assert_eq!(
                run(&g, g.len(), policy),
                cp,
                "P>=N gives the critical path (seed {seed})"
            );
            for p in [2usize, 3, 5] {
                let s = run_with(&g, p, policy, &mut NoOverhead);
                let t = s.makespan;
                let pf = p as f64;
                assert!(
                    t >= (work / pf).max(cp) - 1e-9,
                    "{policy:?} P={p} seed {seed}: {t}"
                );
                assert!(
                    t <= work / pf + cp + 1e-9,
                    "{policy:?} P={p} seed {seed}: {t}"
                );
                assert!(s.steps <= g.len());
                // Every task ran once, after its predecessors.
                for (k, r) in s.runs.iter().enumerate() {
                    assert!(r.end >= r.start && r.end.is_finite(), "task {k}");
                    for &c in &g.succ[k] {
                        assert!(s.runs[c as usize].start >= r.end - 1e-9);
                    }
                }
                assert!(
                    s.procs.iter().all(|q| q.overhead == 0.0),
                    "basic model: no overhead"
                );
                // Bit-exact determinism.
                assert_eq!(s, run_with(&g, p, policy, &mut NoOverhead));
                // All rates zero: the full model equals the basic one.
                assert_eq!(
                    t,
                    run_with(&g, p, policy, &mut ConstantLatency(3.0)).makespan
                );
            }
        }
    }
}

#[test]
fn missing_attributes_and_deadlocks_are_errors() {
    let g = forkjoin(&[1.0, 2.0]);
    let mut pol = PolicyKind::Assigned.build();
    let e = analyze(&g, 2, pol.as_mut(), &mut NoOverhead, &Limits::default()).unwrap_err();
    assert!(e.to_string().contains("attrs.proc"), "{e}");
    let e = analyze(
        &g,
        0,
        PolicyKind::Fifo.build().as_mut(),
        &mut NoOverhead,
        &Limits::default(),
    )
    .unwrap_err();
    assert!(
        e.to_string()
            .contains("the number of processes must be between 1"),
        "{e}"
    );
    // A static order that waits on a task behind it on the same process deadlocks.
    let mut d = G::default();
    d.task("a", 1.0, &[]);
    d.task("b", 1.0, &["a"]);
    d.proc = vec![Some(0), Some(0)];
    // Swap the order by putting b first in task order: rebuild with b depending on a later task.
    let w = G {
        ids: vec!["b".into(), "a".into()],
        time: vec![1.0, 1.0],
        succ: vec![vec![], vec![0]],
        npred: vec![1, 0],
        proc: vec![Some(0), Some(0)],
        rate: vec![0.0, 0.0],
    };
    let e = analyze(
        &w,
        1,
        PolicyKind::Assigned.build().as_mut(),
        &mut NoOverhead,
        &Limits::default(),
    )
    .unwrap_err();
    assert!(
        matches!(e, super::AnalysisError::Deadlock { finished: 0, .. }),
        "{e}"
    );
    // Too many processes: the limit reached; none: a bad count, not a limit.
    let two = Limits { max_procs: 2 };
    let e = analyze(
        &w,
        3,
        PolicyKind::Fifo.build().as_mut(),
        &mut NoOverhead,
        &two,
    )
    .unwrap_err();
    assert_eq!(
        e,
        super::AnalysisError::TooManyProcs {
            procs: 3,
            reached: sweep::Reached::new(sweep::Limit::Processes, 2),
        }
    );
    assert_eq!(
        e.to_string(),
        "the number of processes must be between 1 and 2, got 3"
    );
    let e = analyze(
        &w,
        0,
        PolicyKind::Fifo.build().as_mut(),
        &mut NoOverhead,
        &two,
    )
    .unwrap_err();
    assert_eq!(e, super::AnalysisError::Procs { procs: 0, max: 2 });
    assert_eq!(
        e.to_string(),
        "the number of processes must be between 1 and 2, got 0"
    );
    assert_eq!(run(&d, 1, PolicyKind::Assigned), 2.0);
}

mod mva_model {
    use super::*;
    use crate::analysis::system::{MvaModel, SystemSpec};

    const BUS: &str = r#"
        [[center]]
        name = "bus"
        kind = "queueing"
        service = 3.0
    "#;

    #[test]
    fn alone_a_task_sees_no_queueing() {
        // n = 1: R = D = 3, so a task of T = 10 at 0.1 requests per unit finishes at 13.
        let mut g = G::default();
        let t = g.task("T", 10.0, &[]);
        g.rate[t as usize] = 0.1;
        let mut m = MvaModel::new(SystemSpec::parse(BUS).unwrap());
        let s = run_with(&g, 1, PolicyKind::Fifo, &mut m);
        assert!((s.makespan - 13.0).abs() < 1e-12, "{}", s.makespan);
    }

    #[test]
    fn two_tasks_share_the_bus_as_exact_mva_says() {
        let mut g = forkjoin(&[10.0, 10.0]);
        g.rate[1] = 0.1;
        g.rate[2] = 0.1;
        let mut m = MvaModel::new(SystemSpec::parse(BUS).unwrap());
        let s = run_with(&g, 2, PolicyKind::Fifo, &mut m);
        // Think time 1/0.1 = 10 between requests; population 2.
        let net = queueing::Network::new(vec![queueing::Center::queueing("bus", 3.0)], 10.0);
        let r2 = queueing::exact_mva_at(&net, 2).unwrap().response_time;
        assert!(r2 > 3.0);
        assert!(
            (s.makespan - 10.0 * (1.0 + 0.1 * r2)).abs() < 1e-9,
            "{} vs {r2}",
            s.makespan
        );
        // Memoised: one solve per population for the single rate seen.
        assert_eq!(m.solves, 2);
    }

    #[test]
    fn approximate_mva_above_the_exact_limit_is_close() {
        let mut g = forkjoin(&[5.0; 40]);
        for k in 1..=40 {
            g.rate[k] = 0.05;
        }
        let exact = run_with(
            &g,
            40,
            PolicyKind::Fifo,
            &mut MvaModel::new(SystemSpec::parse(BUS).unwrap()),
        );
        let text = format!("exact_limit = 4\n{BUS}");
        let approx = run_with(
            &g,
            40,
            PolicyKind::Fifo,
            &mut MvaModel::new(SystemSpec::parse(&text).unwrap()),
        );
        let rel = (approx.makespan - exact.makespan).abs() / exact.makespan;
        assert!(rel < 0.05, "{} vs {}", approx.makespan, exact.makespan);
        assert!(exact.makespan > 5.0);
    }

    #[test]
    fn lock_adds_a_one_time_delay_only_under_concurrency() {
        let spec = format!("{BUS}\n[lock]\nhold = 0.5\n");
        let g = forkjoin(&[2.0; 12]);
        let basic1 = run(&g, 1, PolicyKind::Fifo);
        let locked1 = run_with(
            &g,
            1,
            PolicyKind::Fifo,
            &mut MvaModel::new(SystemSpec::parse(&spec).unwrap()),
        )
        .makespan;
        assert_eq!(locked1, basic1, "one process never waits for the lock");
        let basic4 = run(&g, 4, PolicyKind::Fifo);
        let locked4 = run_with(
            &g,
            4,
            PolicyKind::Fifo,
            &mut MvaModel::new(SystemSpec::parse(&spec).unwrap()),
        );
        assert!(
            locked4.makespan > basic4,
            "{} vs {basic4}",
            locked4.makespan
        );
        assert!(locked4.procs.iter().any(|p| p.overhead > 0.0));
    }

    #[test]
    fn bad_system_files_are_explained() {
        assert!(SystemSpec::parse("")
            .unwrap_err()
            .to_string()
            .contains("[[center]]"));
        let e = SystemSpec::parse("[[center]]\nname='b'\nkind='queueing'\nservice=1\nspeed=2\n")
            .unwrap_err();
        assert!(e.to_string().contains("speed"), "{e}");
        let e = SystemSpec::parse("[[center]]\nname='b'\nkind='fast'\nservice=1\n").unwrap_err();
        assert!(e.to_string().contains("fast"), "{e}");
        let e = SystemSpec::parse("[[center]]\nname='b'\nkind='delay'\nservice=-1\n").unwrap_err();
        assert!(e.to_string().contains("`b`"), "{e}");
    }
}

mod reports {
    use super::*;
    use crate::analysis::report::{
        parallelism_profile, processes_per_active_queue, summarize, to_trace,
    };

    #[test]
    fn summary_profile_and_trace_of_the_diamond() {
        let mut g = G::default();
        g.task("A", 2.0, &[]);
        g.task("B", 3.0, &["A"]);
        g.task("C", 5.0, &["A"]);
        g.task("D", 1.0, &["B", "C"]);
        let s = run_with(&g, 2, PolicyKind::Fifo, &mut NoOverhead);
        let sum = summarize(&g, &s, 8.0);
        assert_eq!((sum.makespan, sum.work, sum.span), (8.0, 11.0, 8.0));
        assert_eq!(sum.average_parallelism, 11.0 / 8.0);
        assert_eq!(sum.peak_parallelism, 2);
        assert_eq!(sum.idle, 2.0 * 8.0 - 11.0);
        assert_eq!(
            parallelism_profile(&s),
            vec![(0.0, 1), (2.0, 2), (5.0, 1), (8.0, 0)]
        );
        let tr = to_trace(&g, &s, "diamond");
        assert_eq!(tr.lanes.len(), 2);
        assert_eq!(tr.intervals.len(), 4);
        assert_eq!(tr.makespan(), 8.0);
        tr.validate().unwrap();
    }

    #[test]
    fn overheads_appear_in_the_trace_and_the_summary() {
        let mut g = G::default();
        let t = g.task("T", 10.0, &[]);
        g.rate[t as usize] = 0.1;
        let s = run_with(&g, 1, PolicyKind::Fifo, &mut ConstantLatency(2.0));
        let tr = to_trace(&g, &s, "x");
        assert_eq!(tr.intervals.len(), 2);
        assert_eq!(tr.intervals[1].kind, trace::Kind::Overhead);
        assert_eq!(summarize(&g, &s, 10.0).overhead, 2.0);
    }

    #[test]
    fn processes_per_active_queue_over_time() {
        // Two queues; queue 0 has two tasks of 2, queue 1 one task of 4; three processes.
        let mut g = G::default();
        for (id, time) in [("a", 2.0), ("b", 2.0), ("c", 4.0)] {
            g.task(id, time, &[]);
        }
        struct Q<'a>(&'a G, [i64; 3]);
        impl Dag for Q<'_> {
            fn len(&self) -> usize {
                self.0.len()
            }
            fn id(&self, t: u32) -> String {
                self.0.id(t)
            }
            fn time(&self, t: u32) -> f64 {
                self.0.time(t)
            }
            fn successors(&self, t: u32) -> &[u32] {
                self.0.successors(t)
            }
            fn pred_count(&self, t: u32) -> u32 {
                self.0.pred_count(t)
            }
            fn attr(&self, t: u32, a: Attr) -> Option<i64> {
                (a == Attr::Queue).then_some(self.1[t as usize])
            }
            fn rate(&self, _: u32, _: Option<&str>) -> f64 {
                0.0
            }
        }
        let q = Q(&g, [0, 0, 1]);
        let mut pol = PolicyKind::Queues { steal: true }.build();
        let s = analyze(&q, 3, pol.as_mut(), &mut NoOverhead, &Limits::default()).unwrap();
        assert_eq!(s.makespan, 4.0);
        // 0..2: queue 0 has 2 processes, queue 1 has 1 -> 1.5; 2..4: only queue 1 -> 1.
        assert_eq!(
            processes_per_active_queue(&q, &s),
            vec![(0.0, 1.5), (2.0, 1.0), (4.0, 0.0)]
        );
    }
}
