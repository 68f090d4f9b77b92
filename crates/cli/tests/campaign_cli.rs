//! `vates campaign` (issue 33): a campaign file's plan, its cells run here into a study,
//! the same campaign as Slurm job arrays on a real one-node Slurm giving the same rows,
//! a failed cell submitted again on resume, a cancelled campaign's jobs cancelled, and the
//! campaign file's mistakes and hostile input answered with located errors.
//!
//! The Slurm tests need a running Slurm (`sinfo` answering): `.ci/run` installs Debian's
//! `slurm-wlm` and `munge` and starts one with `.ci/slurm.sh start`. Without one they print
//! a skip naming the packages and pass, unless `CI=true`: then they fail.

use std::path::Path;
use std::process::Command as Process;
use std::time::{Duration, Instant};

mod common;
use common::{fails, stdout, tempdir, vates};

const SKIP: &str = "skipped: install slurm-wlm and munge (Debian) and start a one-node cluster \
                    with `.ci/slurm.sh start`";

/// The Slurm tests take turns: they share the one node.
static NODE: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn node() -> std::sync::MutexGuard<'static, ()> {
    NODE.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Whether a Slurm cluster answers; prints the skip (or fails under CI) when not.
fn slurm_here() -> bool {
    let up = Process::new("sinfo")
        .args(["-h", "-o", "%T"])
        .output()
        .is_ok_and(|o| {
            let states = String::from_utf8_lossy(&o.stdout);
            // A node still completing another test's job (`completing`) is up as well.
            o.status.success()
                && ["idle", "mix", "alloc", "completing"]
                    .iter()
                    .any(|s| states.contains(s))
        });
    if !up {
        if std::env::var("CI").as_deref() == Ok("true") {
            panic!("{SKIP}");
        }
        println!("{SKIP}");
    }
    up
}

/// An executable shell script.
fn script(dir: &Path, name: &str, body: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
    Process::new("chmod").arg("+x").arg(&p).status().unwrap();
    p.display().to_string()
}

/// A plain campaign of `prog` over sizes 1..3 × workers 1, 2 × 2 repetitions and a test
/// cell.
fn plain_campaign(dir: &Path, prog: &str) -> String {
    let path = dir.join("c.toml");
    std::fs::write(
        &path,
        format!(
            "name = \"demo\"\ncommand = [\"{prog}\", \"{{n}}\", \"{{p}}\"]\nruntime = \"plain\"\n\
             timeout = 60\n[train]\nsizes = \"1..3:1\"\nworkers = [1, 2]\nrepetitions = 2\n\
             [test]\nsizes = [4]\nworkers = [2]\n[keep]\nprofile = \"none\"\n"
        ),
    )
    .unwrap();
    path.display().to_string()
}

/// `vates campaign run FILE -o STUDY --backend slurm --poll POLL`.
fn slurm_run(file: &str, study: &str, poll: &str) -> Vec<String> {
    [
        "campaign",
        "run",
        file,
        "-o",
        study,
        "--backend",
        "slurm",
        "--poll",
        poll,
    ]
    .map(String::from)
    .to_vec()
}

/// The `n,p` of every row of a times file, sorted (the rows up to times).
fn points(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut v: Vec<String> = text
        .lines()
        .map(|l| l.rsplit_once(',').map_or(l, |(a, _)| a).to_string())
        .collect();
    v.sort();
    v
}

/// The user's own text in a message (a program's standard error, a quoted command) keeps
/// its braces: only the libraries' input keys are spelt as flags, and `{n}` here is the
/// program's, not `-n`.
#[test]
fn a_program_s_braces_are_not_taken_for_flags() {
    let d = tempdir("campaign-braces");
    let prog = script(
        &d,
        "prog.sh",
        "echo 'bad size {n} on {p} workers' >&2; exit 3",
    );
    let file = plain_campaign(&d, &prog);
    let study = d.join("s");
    let e = fails(
        &["campaign", "run", &file, "-o", study.to_str().unwrap()],
        1,
    );
    assert!(e.contains("bad size {n} on {p} workers"), "{e}");
    let e = fails(
        &[
            "taskpar",
            "record",
            "--sizes",
            "1",
            "--procs",
            "1",
            "--app",
            "x",
            "--runtime",
            "rayon",
            "-o",
            d.join("t.csv").to_str().unwrap(),
            "--",
            &prog,
            "{n}",
        ],
        1,
    );
    assert!(e.contains("bad size {n} on {p} workers"), "{e}");
    // On Slurm the message quotes the cell's log.
    if slurm_here() {
        let _node = node();
        let study = d.join("slurm");
        let args = slurm_run(&file, study.to_str().unwrap(), "0.2");
        let e = fails(&args, 1);
        assert!(
            e.contains("failed on Slurm") && e.contains("bad size {n} on {p} workers"),
            "{e}"
        );
    }
}

#[test]
fn plan_lists_the_cells_in_text_and_json() {
    let d = tempdir("campaign-plan");
    let file = plain_campaign(&d, "/bin/true");
    let text = stdout(&["campaign", "plan", &file]);
    assert!(
        text.starts_with(
            "campaign demo: `/bin/true` `{n}` `{p}` (plain runtime), 7 cells, 13 runs"
        ),
        "{text}"
    );
    assert!(
        text.contains("    6  test-n4-p2   test   4  2     1"),
        "{text}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&["campaign", "plan", &file, "--format", "json"])).unwrap();
    assert_eq!(json["cells"].as_array().unwrap().len(), 7);
    assert_eq!(json["cells"][1]["p"], 2);
    assert_eq!(json["campaign"]["runtime"], "plain");
}

#[test]
fn a_local_campaign_runs_every_cell_once_and_compare_reads_its_study() {
    let d = tempdir("campaign-local");
    // Time grows with n and shrinks with p: 20 ms × n / p.
    let prog = script(
        &d,
        "prog.sh",
        "sleep $(awk \"BEGIN {print 0.02 * $1 / $2}\")",
    );
    let file = plain_campaign(&d, &prog);
    let study = d.join("study");
    let out = stdout(&["campaign", "run", &file, "-o", study.to_str().unwrap()]);
    assert!(
        out.contains("7 of 7 cells finished (13 of 13 runs)"),
        "{out}"
    );
    assert_eq!(points(&study.join("train-times.csv")).len(), 1 + 12);
    // Run again: nothing to do, the same rows.
    let again = stdout(&[
        "campaign",
        "run",
        &file,
        "-o",
        study.to_str().unwrap(),
        "--format",
        "json",
    ]);
    let m: serde_json::Value = serde_json::from_str(&again).unwrap();
    assert_eq!(
        (m["cells_done"].as_u64(), m["runs_done"].as_u64()),
        (Some(7), Some(13))
    );
    assert_eq!(points(&study.join("train-times.csv")).len(), 1 + 12);
    // The comparison: the two fit modelers on the times (no other method's inputs).
    let json: serde_json::Value = serde_json::from_str(&stdout(&[
        "compare",
        study.to_str().unwrap(),
        "--format",
        "json",
        "--bootstrap",
        "20",
    ]))
    .unwrap();
    let applied: Vec<&str> = json["methods"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["skipped"].is_null())
        .map(|m| m["method"].as_str().unwrap())
        .collect();
    assert_eq!(applied, ["fit-vates", "fit-extrap"]);
    let point = &json["methods"][0]["points"][0];
    assert_eq!(point["point"], "n=4, p=2");
    // The measurement of the test cell: 40 ms of sleep and a shell's start.
    let measured = point["measured"].as_f64().unwrap();
    assert!((0.04..0.5).contains(&measured), "{measured}");
}

#[test]
fn the_campaign_file_s_mistakes_and_hostile_input_are_named() {
    let d = tempdir("campaign-bad");
    let e = fails(&["campaign", "run", "/dev/zero"], 1);
    assert!(e.contains("campaign file"), "{e}");
    let bad = d.join("bad.toml");
    std::fs::write(
        &bad,
        "name = \"x\"\ncommand = \"x\"\nruntime = \"rayon\"\n[train]\nsizes = [1]\nworkers = [2]\n",
    )
    .unwrap();
    let e = fails(&["campaign", "plan", bad.to_str().unwrap()], 1);
    assert!(
        e.contains("bad.toml:6:11") && e.contains("add 1 to [train] workers"),
        "{e}"
    );
    std::fs::write(&bad, "name = \"../x\"\ncommand = \"x\"\nruntime = \"plain\"\n[train]\nsizes = [1]\nworkers = [1]\n").unwrap();
    let e = fails(&["campaign", "plan", bad.to_str().unwrap()], 1);
    assert!(e.contains("bad.toml:1:8") && e.contains("holds `/`"), "{e}");
    // A cell index past the plan is a usage error; a folder that holds no study is named.
    let file = plain_campaign(&d, "/bin/true");
    let study = d.join("s");
    stdout(&["campaign", "run", &file, "-o", study.to_str().unwrap()]);
    let e = fails(&["campaign", "cell", study.to_str().unwrap(), "8"], 2);
    assert!(e.contains("the campaign has 7 cells (0 to 6)"), "{e}");
    let e = fails(&["campaign", "cell", d.to_str().unwrap(), "0"], 1);
    assert!(e.contains("holds no study"), "{e}");
    // A study of another campaign is refused, not mixed.
    std::fs::write(
        &file,
        std::fs::read_to_string(&file)
            .unwrap()
            .replace("repetitions = 2", "repetitions = 3"),
    )
    .unwrap();
    let e = fails(
        &["campaign", "run", &file, "-o", study.to_str().unwrap()],
        1,
    );
    assert!(e.contains("another campaign"), "{e}");
    let e = fails(&["compare", d.to_str().unwrap()], 1);
    assert!(e.contains("holds no study"), "{e}");
}

#[test]
fn review_defects_of_campaigns_and_studies_are_answered() {
    let d = tempdir("campaign-review");
    // Sizes of 10^15 and more reach the program, and name their cells, with every digit.
    let rec = d.join("args.log");
    let prog = script(&d, "rec.sh", &format!("echo \"$1\" >> {}", rec.display()));
    let big = d.join("big.toml");
    std::fs::write(
        &big,
        format!(
            "name = \"big\"\ncommand = [\"{prog}\", \"{{n}}\"]\nruntime = \"plain\"\n\
             [train]\nsizes = [1000000000000001, 1000000000000002]\nworkers = [1]\n\
             [keep]\nprofile = \"none\"\n"
        ),
    )
    .unwrap();
    let plan = stdout(&["campaign", "plan", big.to_str().unwrap()]);
    assert!(
        plan.contains("train-n1000000000000001-p1") && plan.contains("train-n1000000000000002-p1"),
        "{plan}"
    );
    stdout(&[
        "campaign",
        "run",
        big.to_str().unwrap(),
        "-o",
        d.join("sb").to_str().unwrap(),
    ]);
    let args = std::fs::read_to_string(&rec).unwrap();
    assert_eq!(args, "1000000000000001\n1000000000000002\n");
    // An unknown placeholder is refused where it stands.
    let ph = d.join("ph.toml");
    std::fs::write(&ph, "name = \"x\"\ncommand = \"./x {N}\"\nruntime = \"plain\"\n[train]\nsizes = [1]\nworkers = [1]\n").unwrap();
    let e = fails(&["campaign", "plan", ph.to_str().unwrap()], 1);
    assert!(
        e.contains("ph.toml:2:11") && e.contains("`{N}` is not a placeholder"),
        "{e}"
    );
    // A value of the wrong type says what it should be, not the reader's type names.
    std::fs::write(
        &ph,
        "name = \"x\"\ncommand = \"./x\"\nruntime = \"plain\"\n[train]\nsizes = 5\nworkers = [1]\n",
    )
    .unwrap();
    let e = fails(&["campaign", "plan", ph.to_str().unwrap()], 1);
    assert!(
        e.contains("a list of numbers") && !e.contains("RawValues"),
        "{e}"
    );
    // A changed campaign is refused with the key that changed.
    let file = plain_campaign(&d, "/bin/true");
    let s = d.join("s");
    stdout(&["campaign", "run", &file, "-o", s.to_str().unwrap()]);
    std::fs::write(
        &file,
        std::fs::read_to_string(&file)
            .unwrap()
            .replace("repetitions = 2", "repetitions = 4"),
    )
    .unwrap();
    let e = fails(&["campaign", "run", &file, "-o", s.to_str().unwrap()], 1);
    assert!(
        e.contains("has [train] = ") && e.contains("\"repetitions\":2"),
        "{e}"
    );
    // A finished cell whose files were changed is named, not silently dropped.
    std::fs::write(
        &file,
        std::fs::read_to_string(&file)
            .unwrap()
            .replace("repetitions = 4", "repetitions = 2"),
    )
    .unwrap();
    std::fs::write(
        s.join("cells/train-n1-p1/times.csv"),
        "n,p,seconds\ngarbage,,,\n",
    )
    .unwrap();
    let e = fails(&["campaign", "run", &file, "-o", s.to_str().unwrap()], 1);
    assert!(
        e.contains("train-n1-p1/times.csv` line 2") && e.contains("remove the cell's folder"),
        "{e}"
    );
    // Slurm's flags without the Slurm backend are a usage error.
    let e = fails(&["campaign", "run", &file, "--partition", "debug"], 2);
    assert!(e.contains("give --backend slurm too"), "{e}");
    // A study file that never ends is refused, not read.
    let study = d.join("zero");
    std::fs::create_dir_all(&study).unwrap();
    std::fs::copy(
        common::example_in("studies", "queue/campaign.toml"),
        study.join("campaign.toml"),
    )
    .unwrap();
    std::os::unix::fs::symlink("/dev/zero", study.join("test-times.csv")).unwrap();
    let e = fails(&["compare", study.to_str().unwrap()], 1);
    assert!(e.contains("not a regular file"), "{e}");
    // A 100 kB line is quoted by its start; a time of 1e308 s is refused by its line.
    let big = d.join("big-line");
    std::fs::create_dir_all(&big).unwrap();
    std::fs::copy(
        common::example_in("studies", "sort/campaign.toml"),
        big.join("campaign.toml"),
    )
    .unwrap();
    std::fs::write(
        big.join("test-times.csv"),
        format!("n,p,seconds\n1,1,{}\n", "9".repeat(100_000)),
    )
    .unwrap();
    let e = fails(&["compare", big.to_str().unwrap()], 1);
    assert!(
        e.contains("line 2: `1,1,999") && e.contains("…` is not") && e.len() < 2000,
        "{e}"
    );
    std::fs::write(big.join("test-times.csv"), "n,p,seconds\n1,1,1e308\n").unwrap();
    let e = fails(&["compare", big.to_str().unwrap()], 1);
    assert!(e.contains("line 2: 1e+308 seconds"), "{e}");
    // Too few bootstrap replicates for an interval.
    let e = fails(
        &[
            "compare",
            &common::example_in("studies", "queue"),
            "--bootstrap",
            "2",
        ],
        2,
    );
    assert!(e.contains("at least 20 replicates"), "{e}");
}

#[test]
fn slurm_and_local_campaigns_give_the_same_rows() {
    if !slurm_here() {
        return;
    }
    let _node = node();
    let d = tempdir("campaign-slurm");
    let prog = script(&d, "prog.sh", "sleep 0.05");
    let file = plain_campaign(&d, &prog);
    let local = d.join("local");
    let slurm = d.join("slurm");
    stdout(&["campaign", "run", &file, "-o", local.to_str().unwrap()]);
    // On Slurm, the machine's profile too: measured by a task of its own on the node.
    let with_profile = d.join("c-profile.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("profile = \"none\""));
    std::fs::write(
        &with_profile,
        text.replace("profile = \"none\"", "profile = \"quick\""),
    )
    .unwrap();
    let file = with_profile.to_str().unwrap().to_string();
    let start = Instant::now();
    let out = stdout(&slurm_run(&file, slurm.to_str().unwrap(), "0.2"));
    println!(
        "Slurm campaign of 7 cells: {:.1} s",
        start.elapsed().as_secs_f64()
    );
    assert!(
        out.contains("7 of 7 cells finished (13 of 13 runs)"),
        "{out}"
    );
    for f in ["train-times.csv", "test-times.csv"] {
        assert_eq!(points(&local.join(f)), points(&slurm.join(f)), "{f}");
    }
    // One job array per worker count and one for the probe, each task's log kept.
    let jobs = std::fs::read_to_string(slurm.join("cells/slurm-jobs.txt")).unwrap();
    assert_eq!(jobs.lines().count(), 3, "{jobs}");
    let profile: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(slurm.join("machine.json")).unwrap())
            .unwrap();
    assert!(
        profile["barrier"].is_object() || profile["barrier"].is_array(),
        "{profile}"
    );
    let probe = std::fs::read_to_string(slurm.join("cells/slurm-profile.sh")).unwrap();
    assert!(
        probe.contains("#SBATCH --cpus-per-task=2") && probe.contains("#SBATCH --array=7"),
        "{probe}"
    );
    let script = std::fs::read_to_string(slurm.join("cells/slurm-p2.sh")).unwrap();
    assert!(script.contains("#SBATCH --cpus-per-task=2"), "{script}");
    assert!(script.contains("#SBATCH --array=1,3,5-6"), "{script}");
}

#[test]
fn a_failed_slurm_cell_is_named_and_submitted_again_on_resume() {
    if !slurm_here() {
        return;
    }
    let _node = node();
    let d = tempdir("campaign-slurm-fail");
    let broken = d.join("broken");
    std::fs::write(&broken, "").unwrap();
    let prog = script(
        &d,
        "prog.sh",
        &format!(
            "if [ \"$1\" = 2 ] && [ -e {} ]; then echo 'size 2 is broken' >&2; exit 3; fi",
            broken.display()
        ),
    );
    let file = plain_campaign(&d, &prog);
    let study = d.join("s");
    let args = slurm_run(&file, study.to_str().unwrap(), "0.2");
    let e = fails(&args, 1);
    assert!(
        e.contains("2 of the campaign's cells failed on Slurm"),
        "{e}"
    );
    assert!(
        e.contains("train-n2-p1") && e.contains("FAILED") && e.contains("size 2 is broken"),
        "{e}"
    );
    // The five other cells' rows are in; the failed ones are not.
    assert_eq!(points(&study.join("train-times.csv")).len(), 1 + 8);
    std::fs::remove_file(&broken).unwrap();
    let out = stdout(&args);
    assert!(out.contains("7 of 7 cells finished"), "{out}");
    let jobs = std::fs::read_to_string(study.join("cells/slurm-jobs.txt")).unwrap();
    // The resumed campaign submitted the two failed cells alone.
    let last: Vec<&str> = jobs.lines().rev().take(2).collect();
    assert!(
        last.iter().all(|l| l.ends_with(" 2") || l.ends_with(" 3")),
        "{jobs}"
    );
    let rows = points(&study.join("train-times.csv"));
    assert_eq!(rows.len(), 1 + 12, "each run once: {rows:?}");
}

#[test]
fn an_interrupted_slurm_campaign_cancels_its_jobs_and_resumes() {
    if !slurm_here() {
        return;
    }
    let _node = node();
    let d = tempdir("campaign-slurm-cancel");
    let prog = script(&d, "prog.sh", "sleep 20");
    let file = plain_campaign(&d, &prog);
    let study = d.join("s");
    let bin = assert_cmd::cargo::cargo_bin("vates");
    let child = Process::new(bin)
        .args(slurm_run(&file, study.to_str().unwrap(), "0.2"))
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until both arrays are in the queue, then interrupt as Ctrl-C would.
    let jobs = study.join("cells/slurm-jobs.txt");
    let deadline = Instant::now() + Duration::from_secs(30);
    while std::fs::read_to_string(&jobs).map_or(0, |t| t.lines().count()) < 2 {
        assert!(Instant::now() < deadline, "no jobs submitted");
        std::thread::sleep(Duration::from_millis(100));
    }
    Process::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("were cancelled"), "{err}");
    let ids: Vec<String> = std::fs::read_to_string(&jobs)
        .unwrap()
        .lines()
        .map(|l| l.split(' ').next().unwrap().to_string())
        .collect();
    // None of the campaign's tasks is left pending or running.
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let q = Process::new("squeue")
            .args(["-h", "-r", "-j", &ids.join(","), "-t", "PD,R,CG"])
            .output()
            .unwrap();
        if String::from_utf8_lossy(&q.stdout).trim().is_empty() {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "jobs left: {}",
            String::from_utf8_lossy(&q.stdout)
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    assert!(!study.join("cells/train-n1-p1/done").exists());
    // Resumed with a quick program (the same plan), every cell runs once.
    std::fs::write(&prog, "#!/bin/sh\nsleep 0.05\n").unwrap();
    let out = stdout(&slurm_run(&file, study.to_str().unwrap(), "0.2"));
    assert!(out.contains("7 of 7 cells finished"), "{out}");
    assert_eq!(points(&study.join("train-times.csv")).len(), 1 + 12);
}

/// A cell over its Slurm time limit (Slurm's limits are whole minutes: this test takes one
/// to two) is named with its state, and the resumed campaign runs it alone.
#[test]
fn a_slurm_cell_over_its_time_limit_is_named_and_resumed() {
    if !slurm_here() {
        return;
    }
    let _node = node();
    let d = tempdir("campaign-slurm-timeout");
    let slow = d.join("slow");
    std::fs::write(&slow, "").unwrap();
    // Size 2 sleeps past the array's one minute while the marker exists; the campaign's own
    // timeout (10 minutes) is not what stops it.
    let prog = script(
        &d,
        "prog.sh",
        &format!(
            "if [ \"$1\" = 2 ] && [ -e {} ]; then sleep 600; fi; sleep 0.05",
            slow.display()
        ),
    );
    let file = d.join("c.toml");
    std::fs::write(
        &file,
        format!(
            "name = \"limit\"\ncommand = [\"{prog}\", \"{{n}}\"]\nruntime = \"plain\"\n\
             timeout = 600\n[train]\nsizes = [1, 2, 3]\nworkers = [1]\nrepetitions = 2\n\
             [keep]\nprofile = \"none\"\n[slurm]\noptions = [\"--time=1\"]\n"
        ),
    )
    .unwrap();
    let study = d.join("s");
    let args = slurm_run(file.to_str().unwrap(), study.to_str().unwrap(), "0.5");
    let started = Instant::now();
    let e = fails(&args, 1);
    assert!(e.contains("train-n2-p1") && e.contains("TIMEOUT"), "{e}");
    assert!(started.elapsed() < Duration::from_secs(240), "{e}");
    let script = std::fs::read_to_string(study.join("cells/slurm-p1.sh")).unwrap();
    assert!(script.trim_end().contains("#SBATCH --time=1\n"), "{script}");
    // The two other cells' rows are in; the cell that ran out of time left none.
    assert_eq!(points(&study.join("train-times.csv")).len(), 1 + 4);
    std::fs::remove_file(&slow).unwrap();
    let out = stdout(&args);
    assert!(out.contains("3 of 3 cells finished"), "{out}");
    let rows = points(&study.join("train-times.csv"));
    assert_eq!(rows.len(), 1 + 6, "each run once: {rows:?}");
    assert_eq!(
        rows.iter().filter(|r| r.starts_with("2,")).count(),
        2,
        "{rows:?}"
    );
}

#[test]
fn a_campaign_that_names_no_slurm_is_told_what_to_install() {
    // With no sbatch on the PATH, the backend names the program and the package.
    let d = tempdir("campaign-nosbatch");
    let file = plain_campaign(&d, "/bin/true");
    let out = vates()
        .args([
            "campaign",
            "run",
            &file,
            "-o",
            d.join("s").to_str().unwrap(),
            "--backend",
            "slurm",
        ])
        .env("PATH", d.to_str().unwrap())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("cannot run `squeue`") || err.contains("cannot run `sbatch`"),
        "{err}"
    );
    assert!(err.contains("slurm-client"), "{err}");
}
