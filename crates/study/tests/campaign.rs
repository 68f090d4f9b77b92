//! Campaigns into study folders: the campaign file's refusals, the cells, the plain and
//! threads runtimes on real programs (shell scripts), a task-parallel runtime through a
//! backend that writes what a recorded run would, and resumption without lost or
//! duplicated rows.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::time::Duration;

use study::cell::{CellError, Runner};
use study::file::{parse, FileErrorKind, RuntimeKind};
use study::folder::{Study, StudyError};
use taskpar::campaign::{Backend, Invocation, LocalBackend, Outcome, Runtime, StartError, Status};
use taskpar::experiment::{ENV_ELAPSED, ENV_FILE};

fn dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("study-campaign-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// An executable shell script `name` in `dir`.
fn script(dir: &Path, name: &str, body: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::process::Command::new("chmod")
        .arg("+x")
        .arg(&p)
        .status()
        .unwrap();
    p.display().to_string()
}

fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn the_file_s_mistakes_are_located_and_say_the_fix() {
    let base = "name = \"x\"\ncommand = \"./x {n}\"\nruntime = \"plain\"\n[train]\nsizes = [1]\nworkers = [1]\n";
    let err = |text: &str| parse("c.toml", text).unwrap_err();
    // An unknown key: the parser names it and the keys there are.
    let e = err(&format!("{base}repetition = 3\n"));
    assert_eq!(e.kind, FileErrorKind::Syntax);
    assert!(e.message.starts_with("c.toml:7:1"), "{}", e.message);
    assert!(e.message.contains("repetition"), "{}", e.message);
    // A runtime misspelt: did you mean.
    let e = err(&base.replace("\"plain\"", "\"opnmp\""));
    assert!(e.message.contains("c.toml:3:11"), "{}", e.message);
    assert!(e.message.contains("openmp"), "{}", e.message);
    // Worker counts: whole numbers from 1.
    for bad in ["[0]", "[1.5]", "[-2]", "\"0..2:1\""] {
        let e = err(&base.replace("workers = [1]", &format!("workers = {bad}")));
        assert_eq!(e.kind, FileErrorKind::Value, "{bad}");
        assert!(e.message.contains("c.toml:6:11"), "{bad}: {}", e.message);
    }
    // A task-parallel runtime needs runs on one worker for T1'.
    let e = err(&base
        .replace("\"plain\"", "\"rayon\"")
        .replace("workers = [1]", "workers = [2, 4]"));
    assert!(e.message.contains("T1'"), "{}", e.message);
    assert_eq!(e.help.as_deref(), Some("add 1 to [train] workers"));
    // More runs than the limit, counted before anything runs.
    let e = err(&base.replace("sizes = [1]", "sizes = \"1..1000000:1\""));
    assert_eq!(e.kind, FileErrorKind::Limit, "{}", e.message);
    // An empty command, a bad column name, an sbatch option of two words.
    assert!(err(&base.replace("\"./x {n}\"", "[]"))
        .message
        .contains("empty"));
    assert!(err(&format!("{base}[names]\nsize = \"2n\"\n"))
        .message
        .contains("not a column name"));
    assert!(
        err(&format!("{base}[slurm]\noptions = [\"--qos short\"]\n"))
            .message
            .contains("one sbatch option")
    );
    // A size beyond 2^53 would not reach the program (nor name its cell) digit for digit.
    let e = err(&base.replace("sizes = [1]", "sizes = [1e308]"));
    assert!(
        e.message.contains("c.toml:5:9") && e.message.contains("2^53"),
        "{}",
        e.message
    );
    // Not TOML at all.
    assert_eq!(err("name = \n").kind, FileErrorKind::Syntax);
}

#[test]
fn sizes_take_the_d_grammar_and_cells_come_in_order() {
    let c = parse(
        "c.toml",
        "name = \"fib\"\ncommand = [\"./fib\", \"{n}\", \"{p}\"]\nruntime = \"openmp\"\n\
         [train]\nsizes = \"20..24:2\"\nworkers = [2, 1, 2]\nrepetitions = 3\n\
         [test]\nsizes = [30, 30]\nworkers = [4]\n",
    )
    .unwrap();
    assert_eq!(c.runtime, RuntimeKind::OpenMp);
    assert_eq!(c.train.sizes, [20.0, 22.0, 24.0]);
    assert_eq!(c.train.workers, [1, 2], "sorted, without repeats");
    let t = c.test.as_ref().unwrap();
    assert_eq!((t.sizes.as_slice(), t.repetitions), (&[30.0][..], 1));
    // Defaults: untraced runs of a traced runtime, the quick profile, no DAGs kept.
    assert!(c.keep.untraced && !c.keep.dags);
    let cells = study::plan::cells(&c);
    let ids: Vec<String> = cells.iter().map(|x| x.id()).collect();
    assert_eq!(
        ids,
        [
            "train-n20-p1",
            "train-n20-p2",
            "train-n22-p1",
            "train-n22-p2",
            "train-n24-p1",
            "train-n24-p2",
            "test-n30-p4"
        ]
    );
    assert!(cells.iter().enumerate().all(|(i, x)| x.index == i));
    assert_eq!(c.runs(), 6 * 3 + 1);
    // The worker count replaces {p}; the size {n}.
    assert_eq!(
        taskpar::campaign::command_args(&c.command, 22.0, 2),
        ["22", "2"]
    );
}

#[test]
fn a_plain_campaign_times_every_run_and_resumes_after_a_failure_without_repeats() {
    let d = dir("plain");
    // The program logs each call; size 3 fails while the file `broken` exists.
    let log = d.join("calls.log");
    let broken = d.join("broken");
    std::fs::write(&broken, "").unwrap();
    let prog = script(
        &d,
        "prog.sh",
        &format!(
            "echo \"$1 $OMP_NUM_THREADS $RAYON_NUM_THREADS\" >> {log}\n\
             if [ \"$1\" = 3 ] && [ -e {broken} ]; then echo 'size 3 breaks' >&2; exit 4; fi",
            log = log.display(),
            broken = broken.display()
        ),
    );
    let text = format!(
        "name = \"p\"\ncommand = [\"{prog}\", \"{{n}}\"]\nruntime = \"plain\"\n\
         [train]\nsizes = [1, 2, 3]\nworkers = [1, 2]\nrepetitions = 2\n\
         [test]\nsizes = [4]\nworkers = [2]\nrepetitions = 3\n[keep]\nprofile = \"none\"\n"
    );
    let c = parse("p.toml", &text).unwrap();
    let study_dir = d.join("study");
    let study = Study::open(&study_dir, &c, &text).unwrap();
    let backend = LocalBackend::default();
    let runner = Runner {
        campaign: &c,
        recorder: None,
        dags: None,
        backend: &backend,
    };
    let e = study::local::run(&study, &c, &runner, &mut |_| {}).unwrap_err();
    match e {
        StudyError::Cell(CellError::Failed {
            ref status,
            ref stderr_tail,
            ..
        }) => {
            assert!(status.contains('4'), "{status}");
            assert!(stderr_tail.contains("size 3 breaks"));
        }
        other => panic!("{other}"),
    }
    // Four cells finished before size 3 failed; their rows are put together already.
    assert_eq!(lines(&study_dir.join("train-times.csv")).len(), 1 + 4 * 2);
    std::fs::remove_file(&broken).unwrap();
    let calls_before = lines(&log).len();
    assert_eq!(calls_before, 4 * 2 + 1, "the failing run is the ninth call");
    let m = study::local::run(&study, &c, &runner, &mut |_| {}).unwrap();
    assert_eq!((m.cells_done, m.cells, m.runs_done), (7, 7, 15));
    // Resumed from the failed cell: 2 cells of size 3 (4 runs) and the test cell (3 runs).
    let calls = lines(&log);
    assert_eq!(calls.len() - calls_before, 4 + 3);
    assert!(calls[calls_before..]
        .iter()
        .all(|l| !l.starts_with("1 ") && !l.starts_with("2 ")));
    // The worker count is in both variables.
    assert!(calls.contains(&"4 2 2".to_string()), "{calls:?}");
    let train = lines(&study_dir.join("train-times.csv"));
    assert_eq!(train[0], "n,p,seconds");
    assert_eq!(train.len(), 1 + 3 * 2 * 2, "each run once: {train:?}");
    let mut points: Vec<&str> = train[1..].iter().map(|l| &l[..3]).collect();
    points.dedup();
    assert_eq!(points, ["1,1", "1,2", "2,1", "2,2", "3,1", "3,2"]);
    assert_eq!(lines(&study_dir.join("test-times.csv")).len(), 1 + 3);
    // A third run has nothing left to do.
    study::local::run(&study, &c, &runner, &mut |_| {}).unwrap();
    assert_eq!(lines(&log).len(), calls.len());
    // The study keeps its campaign: another plan is refused, another timeout is not.
    let other = text.replace("repetitions = 3", "repetitions = 4");
    let c2 = parse("p.toml", &other).unwrap();
    assert!(matches!(
        Study::open(&study_dir, &c2, &other),
        Err(StudyError::Changed { .. })
    ));
    let longer = format!("timeout = 30\n{text}");
    let c3 = parse("p.toml", &longer).unwrap();
    assert!(Study::open(&study_dir, &c3, &longer).is_ok());
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_threads_campaign_keeps_the_segment_times_as_semi_samples() {
    let d = dir("threads");
    // Segment times that depend on N and P, so that the rows can be checked.
    let prog = script(
        &d,
        "tp.sh",
        "echo segment,seconds\necho \"init,0.$1\"\necho \"work,0.00$2\"\necho \"run,1.$1\"",
    );
    let text = format!(
        "name = \"tp\"\ncommand = \"{prog} {{n}} {{p}}\"\nruntime = \"threads\"\n\
         [names]\nsize = \"N\"\nworkers = \"P\"\n\
         [train]\nsizes = [5]\nworkers = [1, 3]\nrepetitions = 2\n[keep]\nprofile = \"none\"\n"
    );
    let c = parse("tp.toml", &text).unwrap();
    let study = Study::open(&d.join("s"), &c, &text).unwrap();
    let backend = LocalBackend::default();
    let runner = Runner {
        campaign: &c,
        recorder: None,
        dags: None,
        backend: &backend,
    };
    study::local::run(&study, &c, &runner, &mut |_| {}).unwrap();
    assert_eq!(
        lines(&d.join("s/train-samples.csv")),
        [
            "N,P,rep,segment,seconds",
            "5,1,0,init,0.5",
            "5,1,0,work,0.001",
            "5,1,1,init,0.5",
            "5,1,1,work,0.001",
            "5,3,0,init,0.5",
            "5,3,0,work,0.003",
            "5,3,1,init,0.5",
            "5,3,1,work,0.003",
        ]
    );
    assert_eq!(
        lines(&d.join("s/train-times.csv")),
        ["N,P,seconds", "5,1,1.5", "5,1,1.5", "5,3,1.5", "5,3,1.5"]
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_threads_program_s_bad_output_is_named_by_line() {
    let e = study::cell::segment_times("prog", "init,0.1\nwork,abc\nrun,1\n").unwrap_err();
    assert!(e.to_string().contains("on line 2"), "{e}");
    let e = study::cell::segment_times("prog", "init,0.1\n").unwrap_err();
    assert!(e.to_string().contains("no `run,SECONDS` row"), "{e}");
    let e = study::cell::segment_times("prog", "init 0.1\nrun,1\n").unwrap_err();
    assert!(e.to_string().contains("`segment,seconds`"), "{e}");
    let (seg, run) =
        study::cell::segment_times("prog", "segment,seconds\na,0.25\nrun,2\n").unwrap();
    assert_eq!((seg, run), (vec![("a".to_string(), 0.25)], 2.0));
}

fn fib(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let (a, b) = taskrec::join(|| fib(n - 1), || fib(n - 2));
    a + b
}

/// A backend that writes the recording of fib(n) on RAYON_NUM_THREADS workers and an
/// untraced time of `n / 1000` s, as a recorded run of a rayon program would.
struct Recorded {
    calls: RefCell<usize>,
}

impl Backend for Recorded {
    fn run(&self, inv: &Invocation<'_>) -> Result<Outcome, StartError> {
        *self.calls.borrow_mut() += 1;
        let n: u64 = inv.args[0].parse().unwrap();
        let env = |name: &str| {
            inv.env
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.clone())
        };
        let p: usize = env("RAYON_NUM_THREADS")
            .unwrap()
            .to_string_lossy()
            .parse()
            .unwrap();
        if let Some(file) = env(ENV_FILE) {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(p)
                .build()
                .unwrap();
            let (_, dag) = pool.install(|| taskrec::record(|| fib(n)));
            let meta = taskrec::Meta {
                program: "fib".into(),
                parameters: vec![("n".into(), n as f64)],
                collapse: true,
            };
            std::fs::write(file, taskrec::encode(&dag, &meta)).unwrap();
        }
        if let Some(file) = env(ENV_ELAPSED) {
            std::fs::write(file, format!("{}", n as f64 / 1000.0)).unwrap();
        }
        Ok(Outcome {
            status: Status::Success,
            elapsed: Duration::from_millis(1),
            stderr_tail: String::new(),
            written: inv.outputs.iter().filter(|p| p.exists()).cloned().collect(),
        })
    }
}

#[test]
fn a_recorded_campaign_gives_training_rows_with_t1_from_the_serial_cells() {
    let d = dir("rayon");
    let text = "name = \"fib\"\ncommand = \"fib {n}\"\nruntime = \"rayon\"\n\
                [train]\nsizes = [10, 12]\nworkers = [1, 2]\nrepetitions = 2\n\
                [keep]\nprofile = \"none\"\ndags = true\n";
    let c = parse("fib.toml", text).unwrap();
    let study = Study::open(&d.join("s"), &c, text).unwrap();
    let backend = Recorded {
        calls: RefCell::new(0),
    };
    let runner = Runner {
        campaign: &c,
        recorder: Some(Runtime::Rayon),
        dags: Some(study.dags_dir()),
        backend: &backend,
    };
    study::local::run(&study, &c, &runner, &mut |_| {}).unwrap();
    // A traced and an untraced run per repetition.
    assert_eq!(*backend.calls.borrow(), 2 * 2 * 2 * 2);
    assert_eq!(std::fs::read_dir(study.dags_dir()).unwrap().count(), 8);
    let text = std::fs::read_to_string(d.join("s/train.csv")).unwrap();
    let runs = taskpar::model::read_runs("train.csv", &text).unwrap().runs;
    assert_eq!(runs.len(), 8);
    for n in [10.0, 12.0] {
        let serial: Vec<f64> = runs
            .iter()
            .filter(|r| r.n == n && r.p == 1.0)
            .map(|r| r.work)
            .collect();
        let mean = serial.iter().sum::<f64>() / serial.len() as f64;
        // Every row of the size, on any worker count, has the mean serial work as T1'.
        for r in runs.iter().filter(|r| r.n == n) {
            assert!((r.work_serial - mean).abs() <= 1e-12 * mean, "{r:?}");
        }
    }
    // Times: the untraced ones.
    let times = lines(&d.join("s/train-times.csv"));
    assert_eq!(times[1], "10,1,0.01");
    assert_eq!(times.len(), 9);
    let _ = std::fs::remove_dir_all(&d);
}
