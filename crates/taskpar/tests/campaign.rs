//! The campaign runner through its backend interface: a backend that runs nothing and
//! writes the files a run would (as a remote backend copies them back) drives the whole
//! runner — plan, rows, resume, refusals — with no process started.

use std::cell::RefCell;
use std::path::PathBuf;
use std::time::Duration;

use taskpar::campaign::{
    self, Backend, CampaignError, Event, Invocation, Job, Outcome, PlanError, Runtime, StartError,
    Status,
};
use taskpar::experiment::{Plan, ENV_ELAPSED, ENV_FILE};
use taskpar::model::read_runs;

fn fib(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let (a, b) = taskrec::join(|| fib(n - 1), || fib(n - 2));
    a + b
}

/// A backend that writes the recording of fib(n) on one worker (n its last argument) and
/// `elapsed` as the untraced time, or ends every run with `status`.
struct Fake {
    elapsed: &'static str,
    status: Status,
    calls: RefCell<Vec<String>>,
    /// Each run's environment (`NAME=value`, in the order set).
    envs: RefCell<Vec<Vec<String>>>,
}

impl Fake {
    fn new(elapsed: &'static str, status: Status) -> Self {
        Fake {
            elapsed,
            status,
            calls: RefCell::new(Vec::new()),
            envs: RefCell::new(Vec::new()),
        }
    }
}

impl Backend for Fake {
    fn run(&self, inv: &Invocation<'_>) -> Result<Outcome, StartError> {
        self.calls.borrow_mut().push(inv.shown());
        self.envs.borrow_mut().push(
            inv.env
                .iter()
                .map(|(k, v)| format!("{k}={}", v.to_string_lossy()))
                .collect(),
        );
        let n: u64 = inv.args.last().and_then(|a| a.parse().ok()).unwrap_or(5);
        for (k, v) in inv.env {
            if *k == ENV_FILE {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(1)
                    .build()
                    .unwrap();
                let (_, dag) = pool.install(|| taskrec::record(|| fib(n)));
                let meta = taskrec::Meta {
                    program: "fib".into(),
                    parameters: vec![("n".into(), n as f64)],
                    collapse: true,
                };
                std::fs::write(v, taskrec::encode(&dag, &meta)).unwrap();
            } else if *k == ENV_ELAPSED {
                std::fs::write(v, self.elapsed).unwrap();
            }
        }
        Ok(Outcome {
            status: self.status.clone(),
            elapsed: Duration::from_millis(1),
            stderr_tail: String::new(),
            written: inv.outputs.iter().filter(|p| p.exists()).cloned().collect(),
        })
    }
}

fn dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("taskpar-campaign-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn job(output: PathBuf, reps: u32) -> Job {
    Job {
        app: "fib".into(),
        plan: Plan {
            sizes: vec![8.0, 9.0],
            procs: vec![1],
            reps,
        },
        command: vec!["fib".into(), "--size".into()],
        output,
        keep_dags: None,
        untraced: true,
        timeout: Duration::from_secs(10),
        runtime: Runtime::default(),
        require_serial: true,
    }
}

#[test]
fn the_runtime_sets_the_workers_and_the_tool() {
    let d = dir("runtime");
    // Rayon (the default): the workers in RAYON_NUM_THREADS, no tool.
    let fake = Fake::new("0.004\n", Status::Success);
    campaign::run(&job(d.join("rayon.csv"), 1), &fake, &mut |_| {}).unwrap();
    for env in fake.envs.borrow().iter() {
        assert_eq!(env[0], "RAYON_NUM_THREADS=1", "{env:?}");
        assert!(!env.iter().any(|e| e.starts_with("OMP_")), "{env:?}");
    }
    // OpenMP: OMP_NUM_THREADS and the OMPT tool, for the traced and the untraced runs
    // (the tool's light mode: only VATES_TASKREC_ELAPSED).
    let openmp = Job {
        runtime: Runtime::OpenMp {
            tool: "/opt/libvates_ompt.so".into(),
        },
        ..job(d.join("openmp.csv"), 1)
    };
    assert_eq!(openmp.runtime.workers_variable(), "OMP_NUM_THREADS");
    let fake = Fake::new("0.004\n", Status::Success);
    campaign::run(&openmp, &fake, &mut |_| {}).unwrap();
    let envs = fake.envs.borrow();
    assert_eq!(envs.len(), 4, "two sizes, traced and untraced");
    for (k, env) in envs.iter().enumerate() {
        assert!(env.contains(&"OMP_NUM_THREADS=1".to_string()), "{env:?}");
        assert!(
            env.contains(&"OMP_TOOL_LIBRARIES=/opt/libvates_ompt.so".to_string()),
            "{env:?}"
        );
        assert!(!env.iter().any(|e| e.starts_with("RAYON_")), "{env:?}");
        let file = if k % 2 == 0 { ENV_FILE } else { ENV_ELAPSED };
        let other = if k % 2 == 0 { ENV_ELAPSED } else { ENV_FILE };
        assert!(
            env.iter().any(|e| e.starts_with(&format!("{file}="))),
            "{env:?}"
        );
        assert!(
            !env.iter().any(|e| e.starts_with(&format!("{other}="))),
            "{env:?}"
        );
    }
    // A failure names the runtime's variable.
    let failing = Fake::new("0.004\n", Status::Failed("exit status: 3".into()));
    let e = campaign::run(
        &Job {
            output: d.join("failed.csv"),
            ..openmp.clone()
        },
        &failing,
        &mut |_| {},
    )
    .unwrap_err();
    assert!(e.to_string().contains("with OMP_NUM_THREADS=1"), "{e}");
}

#[test]
fn a_campaign_appends_a_row_per_run_and_resumes() {
    let d = dir("rows");
    let csv = d.join("t.csv");
    let fake = Fake::new("0.004\n", Status::Success);
    let mut events = Vec::new();
    let s = campaign::run(&job(csv.clone(), 2), &fake, &mut |e| {
        events.push(match e {
            Event::Planned { todo, done } => format!("plan {todo} {done}"),
            Event::Row { index, point, row } => {
                format!(
                    "{index}: n={} rep={} u={:?}",
                    point.n, point.rep, row.elapsed_untraced
                )
            }
        })
    })
    .unwrap();
    assert_eq!((s.written, s.skipped), (4, 0));
    assert_eq!(
        events,
        [
            "plan 4 0",
            "0: n=8 rep=0 u=Some(0.004)",
            "1: n=8 rep=1 u=Some(0.004)",
            "2: n=9 rep=0 u=Some(0.004)",
            "3: n=9 rep=1 u=Some(0.004)",
        ]
    );
    // A traced and an untraced run each, the size appended to the arguments.
    assert_eq!(fake.calls.borrow().len(), 8);
    assert_eq!(fake.calls.borrow()[0], "fib --size 8");
    let text = std::fs::read_to_string(&csv).unwrap();
    let set = read_runs("t.csv", &text).unwrap();
    assert_eq!(set.runs.len(), 4);
    // fib(8) joins fib(9) − 1 = 33 times.
    assert_eq!(set.runs[0].create_task, 33.0);
    // Resuming with a third repetition makes only its two runs.
    let s = campaign::run(&job(csv.clone(), 3), &fake, &mut |_| {}).unwrap();
    assert_eq!((s.written, s.skipped), (2, 4));
    let set = read_runs("t.csv", &std::fs::read_to_string(&csv).unwrap()).unwrap();
    assert_eq!(set.runs.len(), 6);
}

#[test]
fn a_campaign_stops_at_a_run_that_times_out_and_writes_nothing() {
    let d = dir("timeout");
    let csv = d.join("t.csv");
    let fake = Fake::new("0.004", Status::TimedOut);
    let e = campaign::run(&job(csv.clone(), 1), &fake, &mut |_| {}).unwrap_err();
    assert!(
        matches!(&e, CampaignError::TimedOut { command, .. } if command == "fib --size 8"),
        "{e}"
    );
    assert_eq!(
        e.to_string(),
        "`fib --size 8` ran longer than 10 s and was stopped"
    );
    assert!(!csv.exists());
}

#[test]
fn a_row_with_a_time_that_cannot_be_is_refused() {
    let d = dir("nan");
    let csv = d.join("t.csv");
    for (elapsed, shown) in [("NaN", "NaN"), ("-1", "-1")] {
        let fake = Fake::new(elapsed, Status::Success);
        let e = campaign::run(&job(csv.clone(), 1), &fake, &mut |_| {}).unwrap_err();
        match e {
            CampaignError::BadRow { column, value, .. } => {
                assert_eq!(column, "elapsed_untraced");
                assert_eq!(format!("{value}"), shown);
            }
            e => panic!("{e}"),
        }
        assert!(!csv.exists());
    }
}

#[test]
fn a_dag_recorder_runtime_names_the_prefix_and_times_no_untraced_run() {
    let d = dir("dag-recorder");
    let dr = Job {
        runtime: Runtime::DagRecorder { clock_hz: 2.6e9 },
        untraced: false,
        keep_dags: Some(d.join("dags")),
        ..job(d.join("dr.csv"), 1)
    };
    assert_eq!(dr.runtime.workers_variable(), "MYTH_NUM_WORKERS");
    assert!(!dr.runtime.times_untraced());
    // The fake writes no DAG Recorder file: the run is refused, naming the file and prefix.
    let fake = Fake::new("0.004", Status::Success);
    let e = campaign::run(&dr, &fake, &mut |_| {}).unwrap_err();
    let prefix = d.join("dags").join("fib-n8-p1-r0");
    match &e {
        CampaignError::NoDrFile { path, .. } => {
            assert_eq!(path, &prefix.with_extension("dag"));
        }
        e => panic!("{e}"),
    }
    assert!(
        e.to_string()
            .contains(&format!("(DR_PREFIX={})", prefix.display())),
        "{e}"
    );
    let envs = fake.envs.borrow();
    assert_eq!(envs.len(), 1, "one traced run, no untraced one");
    let env = &envs[0];
    for want in [
        "MYTH_NUM_WORKERS=1".to_string(),
        format!("DR_PREFIX={}", prefix.display()),
        format!("DAG_RECORDER_FILE_PREFIX={}", prefix.display()),
        "DR_DAG=1".to_string(),
        "DR_GPL=0".to_string(),
    ] {
        assert!(env.contains(&want), "{want} not in {env:?}");
    }
    assert!(!env.iter().any(|e| e.starts_with(ENV_FILE)), "{env:?}");
    // Untraced runs cannot be asked of it.
    let e = campaign::run(
        &Job {
            untraced: true,
            ..dr.clone()
        },
        &fake,
        &mut |_| {},
    )
    .unwrap_err();
    assert!(
        matches!(e, CampaignError::Plan(PlanError::NoUntraced { .. })),
        "{e}"
    );
}

#[test]
fn a_job_is_checked_before_any_run() {
    let d = dir("check");
    let fake = Fake::new("0.004", Status::Success);
    let mut j = job(d.join("t.csv"), 1);
    j.app = "../up".into();
    let e = campaign::run(&j, &fake, &mut |_| {}).unwrap_err();
    assert!(
        matches!(e, CampaignError::Plan(PlanError::App { .. })),
        "{e}"
    );
    j.app = "fib".into();
    j.plan.procs = vec![2];
    let e = campaign::run(&j, &fake, &mut |_| {}).unwrap_err();
    assert!(
        matches!(e, CampaignError::Plan(PlanError::NoSerialRuns)),
        "{e}"
    );
    assert!(fake.calls.borrow().is_empty());
    for ok in ["fib", "sort-4k", "a.b_c+d"] {
        assert_eq!(campaign::check_app(ok), Ok(()));
    }
    for bad in ["", ".hidden", "-x", "a/b", "a b", "é"] {
        assert!(campaign::check_app(bad).is_err(), "{bad}");
    }
}
