//! The guided tour of `vates demo`: every method on the embedded examples, as a narrative
//! with tables and, on request, pictures.
//!
//! 1. PAMELA, the Machine Repair Model: its text, the closed-form T^l, φ and ω, and a table
//!    of T^l, simulated T and φ for P = 1..12 with the saturation point marked.
//! 2. PAMELA, ADI data partitioning: j-axis against i-axis blocks.
//! 3. PAMELA, network contention on a transputer mesh (the paper's Table 1): T^l against T.
//! 4. PAMELA, memory banks: the effect of the access stride.
//! 5. Task graphs (Adve & Vernon): a fork-join of polynomial roots under FIFO and LPT, and a
//!    BLAST workflow from WfCommons.
//! 6. Message passing, Eager Timed CCS: the scatter–gather table of the thesis and a
//!    parametric model's regions.
//! 7. Shared memory, the semi-empirical method: Gaussian elimination fitted to sample runs
//!    and predicted at larger sizes against measured runs; Algorithm G on a lock-and-barrier
//!    cluster.
//! 8. Task-parallel programs, the two-step model: the recorded sparselu runs predicted at
//!    larger sizes, beside a direct regression.
//!
//! The pictures are `mrm_sweep.svg`, `mrm_gantt.svg`, `mrm_trace.json`, `adi.svg`,
//! `membank.svg`, `blast_gantt.svg` and `etccs_scatter.svg`; the caller decides where they
//! go.
//!
//! (The example is `tests/example.rs`, which runs the whole tour as a test; here it is only
//! compiled, so that the tour does not run twice.)
//!
//! ```no_run
#![doc = include_str!("../tests/example.rs")]
//! ```

mod collective;
mod compare;
pub mod examples;
mod measured;

use std::fmt::Write as _;

use expr::{Name, Rational};
use pamela::report::{analyse_bound, show};
use pamela::sim::{simulate, SimOptions};
use pamela::{Binding, Loaded};
use trace::plot::{LinePlot, Series};
use trace::text::{fixed, num, Align, TextTable};

/// The tour: its text and its pictures.
#[derive(Clone, Debug)]
pub struct Tour {
    /// The narrative with its tables.
    pub text: String,
    /// The pictures (empty unless asked for): a file name and the file's bytes.
    pub pictures: Vec<(&'static str, String)>,
    want_pictures: bool,
}

impl Tour {
    fn picture(&mut self, name: &'static str, contents: String) {
        self.pictures.push((name, contents));
    }
}

/// Why the tour failed: an embedded example did not load or analyse (a bug of the build).
#[derive(Debug, thiserror::Error)]
#[error("the tour failed: {0}")]
pub struct TourError(pub String);

/// Any error of an engine as the tour's.
pub(crate) fn err(e: impl std::fmt::Display) -> TourError {
    TourError(e.to_string())
}

macro_rules! from_error {
    ($($t:ty),*) => {$(
        impl From<$t> for TourError {
            fn from(e: $t) -> Self {
                TourError(e.to_string())
            }
        }
    )*};
}
from_error!(
    Box<pamela::ModelError>,
    etccs::Error,
    etccs::plot::PlotError,
    taskgraph::GraphError,
    taskgraph::analysis::AnalysisError,
    trace::TraceError
);

type Result<T> = std::result::Result<T, TourError>;

/// Loads an embedded example with root `root` (default `main`).
fn load(name: &str, root: Option<&str>) -> Result<Loaded> {
    let ex = examples::get(name)
        .ok_or_else(|| TourError(format!("the example `{name}` is not embedded")))?;
    Ok(pamela::load(ex.path, ex.text, root)?)
}

/// `[("N", "10"), …]` as exact values.
fn values(pairs: &[(&str, &str)]) -> Result<Vec<(Name, Rational)>> {
    pairs
        .iter()
        .map(|(n, v)| {
            expr::number::parse_rational(v)
                .map(|r| (Name::from(*n), r))
                .map_err(|e| TourError(e.to_string()))
        })
        .collect()
}

fn bind(l: &Loaded, pairs: &[(&str, &str)]) -> Result<Binding> {
    Ok(l.model.bind(&values(pairs)?)?)
}

/// T^l at a full binding.
fn tl(l: &Loaded, report: &pamela::bound::BoundReport, pairs: &[(&str, &str)]) -> Result<f64> {
    let b = bind(l, pairs)?;
    Ok(report.evaluate(&b)?.tl)
}

/// Simulated T at a full binding (deterministic FCFS).
fn sim(l: &Loaded, pairs: &[(&str, &str)], record: bool) -> Result<pamela::sim::SimResult> {
    let b = bind(l, pairs)?;
    let opts = SimOptions {
        record_trace: record,
        ..SimOptions::default()
    };
    Ok(simulate(&l.model, l.root, &b, &opts)?)
}

/// The model's declarations and processes without comment lines.
fn body_lines(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .map(|l| match l.find("//") {
            Some(i) => l[..i].trim_end(),
            None => l.trim_end(),
        })
        .skip_while(|l| l.is_empty())
        .collect()
}

/// Runs the tour: the narrative, and the pictures when `pictures` is set.
///
/// # Errors
/// Only if an embedded example fails, which the tests rule out.
pub fn run(pictures: bool) -> Result<Tour> {
    let mut t = Tour {
        text: String::new(),
        pictures: Vec::new(),
        want_pictures: pictures,
    };
    let _ = writeln!(
        t.text,
        "vates demo: how long will a parallel program run, and why?\n\
         PAMELA (van Gemund) models a program as processes over resources and compiles the\n\
         model into a symbolic lower bound T^l, checked here against exact simulation T.\n\
         Deterministic task graph analysis (Adve & Vernon) schedules a task DAG exactly.\n\
         Eager Timed CCS (MacDonald) explores every interleaving of a message-passing program,\n\
         for numbers or for symbolic times. The semi-empirical method (Xu, Zhang & Sun) and the\n\
         two-step model (Namsraijav & Taura) predict real programs from small runs of them."
    );
    mrm(&mut t)?;
    adi(&mut t)?;
    network(&mut t.text)?;
    membank(&mut t)?;
    task_graphs(&mut t)?;
    message_passing(&mut t)?;
    measured::shared_memory(&mut t.text)?;
    measured::task_parallel(&mut t.text)?;
    collective::collective(&mut t.text)?;
    compare::compare(&mut t.text)?;
    Ok(t)
}

fn section(s: &mut String, n: u32, title: &str) {
    let _ = writeln!(s);
    let head = format!("{n}. {title}");
    let _ = writeln!(s, "{head}");
    let _ = writeln!(s, "{}", "=".repeat(head.chars().count()));
}

fn mrm(tour: &mut Tour) -> Result<()> {
    let s = &mut tour.text;
    section(s, 1, "The Machine Repair Model (examples/pamela/mrm.pam)");
    let l = load("mrm", None)?;
    let _ = writeln!(
        s,
        "P clients each cycle N times: think for tau_l, then use the one server s for tau_s.\n"
    );
    for line in body_lines(&l.model.source.text) {
        let _ = writeln!(s, "  | {line}");
    }
    let a = analyse_bound(&l.model, l.root, Vec::new())?;
    let _ = writeln!(s, "\nThe model compiles to a symbolic bound:");
    let rows = [
        (
            "T^l",
            show(&a.shown.tl),
            if a.closed_form {
                "closed form: evaluates in O(1)"
            } else {
                "contains folds"
            },
        ),
        (
            "phi",
            show(&a.shown.phi),
            "critical path: contention ignored",
        ),
        (
            "omega",
            show(&a.shown.omega),
            "contention bound: synchronisation ignored",
        ),
    ];
    let w = rows.iter().map(|r| r.1.chars().count()).max().unwrap_or(0);
    for (l, e, note) in rows {
        let _ = writeln!(s, "  {l:<5} = {e:<w$}   {note}");
    }

    // The table: P = 1..12 with N = 10, tau_l = 3, tau_s = 1.
    let (n, tau_l, tau_s) = ("10", "3", "1");
    let p_star = (3.0 + 1.0) / 1.0;
    let _ = writeln!(
        s,
        "\nWith N={n}, tau_l={tau_l}, tau_s={tau_s} the server saturates at \
         P* = (tau_l + tau_s)/tau_s = {}:\n",
        num(p_star)
    );
    let report = pamela::bound::bound(&l.model, l.root)?;
    let mut t = TextTable::new([
        ("P".to_string(), Align::Right),
        ("T^l".to_string(), Align::Right),
        ("T (sim)".to_string(), Align::Right),
        ("phi".to_string(), Align::Right),
        ("T^l/T".to_string(), Align::Right),
    ]);
    let mut curves: [Vec<(f64, f64)>; 4] = Default::default();
    for p in 1..=12u32 {
        let ps = p.to_string();
        let pairs = [
            ("N", n),
            ("P", ps.as_str()),
            ("tau_l", tau_l),
            ("tau_s", tau_s),
        ];
        let b = bind(&l, &pairs)?;
        let e = report.evaluate(&b)?;
        let r = sim(&l, &pairs, false)?;
        t.push(vec![
            ps.clone(),
            num(e.tl),
            num(r.time),
            num(e.phi),
            fixed(e.tl / r.time, 3),
        ]);
        if f64::from(p) == p_star {
            t.notes.push((
                t.rows.len() - 1,
                "<- P*: largest gap (deterministic: only a start-up transient)".to_string(),
            ));
        }
        let x = f64::from(p);
        curves[0].push((x, e.tl));
        curves[1].push((x, r.time));
        curves[2].push((x, e.phi));
        curves[3].push((x, e.omega));
    }
    s.push_str(&t.render("  "));
    let _ = writeln!(
        s,
        "\nBelow P* the critical path phi binds; above it the server does (omega = N*P*tau_s),\n\
         so T^l follows both asymptotes of T while phi alone misses the queueing entirely."
    );

    if tour.want_pictures {
        let [b, t, phi, omega] = curves;
        let plot = LinePlot {
            shade_from: None,
            title: "MRM, N=10, tau_l=3, tau_s=1".to_string(),
            x_label: "P (clients)".to_string(),
            y_label: "time".to_string(),
            series: vec![
                Series::new("phi (critical path)", phi),
                Series::new("omega (contention)", omega),
                Series::new("T^l (bound)", b),
                Series::new("T (simulated)", t),
            ],
            log_x: false,
            log_y: false,
        };
        let svg = plot.render_svg(800, 500)?;
        tour.picture("mrm_sweep.svg", svg);
        let pairs = [("N", n), ("P", "4"), ("tau_l", tau_l), ("tau_s", tau_s)];
        let r = sim(&l, &pairs, true)?;
        if let Some(tr) = &r.trace {
            tour.picture("mrm_trace.json", trace::chrome::to_string(tr, 1.0));
            let chart = pamela::sim::gantt_options(&l.model, l.root);
            tour.picture("mrm_gantt.svg", trace::gantt::render_svg(tr, &chart)?);
        }
    }
    Ok(())
}

fn adi(tour: &mut Tour) -> Result<()> {
    let s = &mut tour.text;
    section(
        s,
        2,
        "Data partitioning: ADI, j-axis vs i-axis blocks (adi_j.pam, adi_i.pam)",
    );
    let j = load("adi_j", None)?;
    let i = load("adi_i", None)?;
    let rj = pamela::bound::bound(&j.model, j.root)?;
    let ri = pamela::bound::bound(&i.model, i.root)?;
    let _ = writeln!(
        s,
        "for i in 1..N-2: forall j in 0..N-1: update(i, j) on processor mu(i, j), blocks of B = N/P:\n"
    );
    let _ = writeln!(s, "  j-axis, mu = floor(j/B):  T^l = {}", brief(&rj));
    let _ = writeln!(s, "  i-axis, mu = floor(i/B):  T^l = {}", brief(&ri));
    let _ = writeln!(s, "\nWith N=1024, tau_u=1:\n");
    let mut t = TextTable::new([
        ("P".to_string(), Align::Right),
        ("T^l j-axis".to_string(), Align::Right),
        ("T^l i-axis".to_string(), Align::Right),
        ("ratio".to_string(), Align::Right),
    ]);
    let mut cj = Vec::new();
    let mut ci = Vec::new();
    for p in [1u32, 2, 4, 8, 16, 32] {
        let ps = p.to_string();
        let pairs = [("N", "1024"), ("P", ps.as_str()), ("tau_u", "1")];
        let a = tl(&j, &rj, &pairs)?;
        let b = tl(&i, &ri, &pairs)?;
        t.push(vec![ps, num(a), num(b), format!("{}x", num(b / a))]);
        cj.push((f64::from(p), a));
        ci.push((f64::from(p), b));
    }
    s.push_str(&t.render("  "));
    let _ = writeln!(
        s,
        "\nThe j-axis partitioning wins: its work spreads over all P processors (linear speed-up),\n\
         while with i-axis blocks each row's N updates queue on one processor (no speed-up)."
    );
    if tour.want_pictures {
        let plot = LinePlot {
            shade_from: None,
            title: "ADI, N=1024, tau_u=1".to_string(),
            x_label: "P (processors)".to_string(),
            y_label: "T^l".to_string(),
            series: vec![
                Series::new("j-axis blocks", cj),
                Series::new("i-axis blocks", ci),
            ],
            log_x: true,
            log_y: true,
        };
        let svg = plot.render_svg(800, 500)?;
        tour.picture("adi.svg", svg);
    }
    Ok(())
}

fn network(s: &mut String) -> Result<()> {
    section(
        s,
        3,
        "Network contention on a transputer mesh, Table 1 (network.pam)",
    );
    let _ = writeln!(
        s,
        "10^6-byte transfers as 8334 packets over nodes 0-1-2; (s,r)^k = k concurrent transfers.\n\
         T^t is the traditional estimate (each transfer alone, no contention between them);\n\
         T^l adds the contention for links and forwarding.\n"
    );
    // (root, transfers, includes a (0,2) transfer, the paper's simulated T)
    let rows = [
        ("row1", "(0,1)", false, "0.9"),
        ("row2", "(0,2)", true, "1.5"),
        ("row3", "(0,1)^2", false, "1.8"),
        ("row4", "(0,2)^2", true, "3.0"),
        ("row5", "(0,1) || (0,2)", true, "1.8"),
        ("row6", "(0,1)^2 || (0,2)", true, "2.7"),
        ("row7", "(0,1) || (0,2)^2", true, "3.3"),
        ("row8", "(0,1)^3 || (0,2)^3", true, "5.4"),
    ];
    let length = [("L", "1000000")];
    let mut t = TextTable::new([
        ("transfers".to_string(), Align::Left),
        ("T^t [s]".to_string(), Align::Right),
        ("T^l [s]".to_string(), Align::Right),
        ("T (sim) [s]".to_string(), Align::Right),
        ("paper T".to_string(), Align::Right),
        ("binds".to_string(), Align::Left),
    ]);
    let mut alone = [0.0f64; 2];
    for (k, root) in ["row1", "row2"].into_iter().enumerate() {
        let l = load("network", Some(root))?;
        let report = pamela::bound::bound(&l.model, l.root)?;
        alone[k] = tl(&l, &report, &length)?;
    }
    let mut worst = 0.0f64;
    let mut events = 0;
    for (root, what, far, paper) in rows {
        let l = load("network", Some(root))?;
        let report = pamela::bound::bound(&l.model, l.root)?;
        let e = report.evaluate(&bind(&l, &length)?)?;
        let r = sim(&l, &length, false)?;
        let tt = if far { alone[1] } else { alone[0] };
        worst = worst.max((r.time - e.tl) / r.time);
        events = r.events;
        t.push(vec![
            what.to_string(),
            fixed(tt, 4),
            fixed(e.tl, 4),
            fixed(r.time, 4),
            paper.to_string(),
            e.binds.to_string(),
        ]);
    }
    s.push_str(&t.render("  "));
    let _ = writeln!(
        s,
        "\nT^l is within {:.2}% of the simulated T in every row; it is a closed form evaluated in\n\
         O(1), where the simulation of the last row processes {} events. The paper's T of 3.3 s\n\
         for (0,1) || (0,2)^2 is not reproducible from its printed model (FCFS gives 3.017 s).",
        worst * 100.0,
        events
    );
    Ok(())
}

fn membank(tour: &mut Tour) -> Result<()> {
    let s = &mut tour.text;
    section(
        s,
        4,
        "Memory bank contention: the stride effect (membank.pam)",
    );
    let l = load("membank", None)?;
    let report = pamela::bound::bound(&l.model, l.root)?;
    let _ = writeln!(
        s,
        "A vector port issues N=64 addresses S*i, one per tau_c=1, to M=8 banks busy tau_m=4 each.\n\
         Strides sharing a factor with M hit only M/gcd(M,S) banks:\n"
    );
    let mut t = TextTable::new([
        ("S".to_string(), Align::Right),
        ("banks hit".to_string(), Align::Right),
        ("T^l".to_string(), Align::Right),
        ("T (sim)".to_string(), Align::Right),
        ("binds".to_string(), Align::Left),
    ]);
    let mut curve = Vec::new();
    let mut scurve = Vec::new();
    for stride in 1..=8u32 {
        let ss = stride.to_string();
        let pairs = [
            ("N", "64"),
            ("M", "8"),
            ("S", ss.as_str()),
            ("tau_c", "1"),
            ("tau_m", "4"),
        ];
        let b = bind(&l, &pairs)?;
        let e = report.evaluate(&b)?;
        let r = sim(&l, &pairs, false)?;
        let banks = 8 / gcd(8, stride);
        t.push(vec![
            ss,
            banks.to_string(),
            num(e.tl),
            num(r.time),
            e.binds.to_string(),
        ]);
        curve.push((f64::from(stride), e.tl));
        scurve.push((f64::from(stride), r.time));
    }
    s.push_str(&t.render("  "));
    let _ = writeln!(
        s,
        "\nT^l = {}\n\
         Odd strides spread the accesses over all banks and run at the port's rate; S = 8 sends\n\
         every access to one bank and is four times slower.",
        show(&report.tl)
    );
    if tour.want_pictures {
        let plot = LinePlot {
            shade_from: None,
            title: "Memory banks, N=64, M=8, tau_c=1, tau_m=4".to_string(),
            x_label: "stride S".to_string(),
            y_label: "time".to_string(),
            series: vec![
                Series::new("T^l (bound)", curve),
                Series::new("T (simulated)", scurve),
            ],
            log_x: false,
            log_y: false,
        };
        let svg = plot.render_svg(800, 500)?;
        tour.picture("membank.svg", svg);
    }
    Ok(())
}

/// The embedded task graphs of the demo.
const POLYROOTS: &str = include_str!("../../../examples/graphs/polyroots.json");
const BLAST: &str = include_str!("../../../examples/graphs/blast-chameleon-small-001.json");

fn graph(text: &str, name: &str) -> Result<taskgraph::TaskGraph> {
    let fmt = taskgraph::format::Format::detect(std::path::Path::new(name), text)
        .ok_or_else(|| TourError(format!("{name}: unknown graph format")))?;
    Ok(taskgraph::format::read(
        text,
        name,
        fmt,
        &taskgraph::Limits::default(),
    )?)
}

fn makespan(
    g: &taskgraph::TaskGraph,
    p: usize,
    policy: taskgraph::analysis::policy::PolicyKind,
) -> Result<taskgraph::analysis::engine::Schedule> {
    Ok(taskgraph::analysis::analyze_graph(
        g,
        p,
        policy,
        &mut taskgraph::analysis::system::NoOverhead,
    )?)
}

fn task_graphs(tour: &mut Tour) -> Result<()> {
    let s = &mut tour.text;
    use taskgraph::analysis::policy::PolicyKind;
    section(
        s,
        5,
        "Task graphs: scheduling a DAG exactly (examples/graphs)",
    );
    let poly = graph(POLYROOTS, "polyroots.json")?;
    let _ = writeln!(
        s,
        "A Polyroots-like unstructured DAG ({} tasks, work {}, span {}): the biggest task of\n\
         the last loop is last in the queue. FIFO runs it last; LPT (longest first) does not:\n",
        poly.len(),
        num(poly.work()),
        num(poly.span())
    );
    let _ = writeln!(s, "   P  fifo     lpt      bound max(work/P, span)");
    let _ = writeln!(s, "  {}", "-".repeat(44));
    for p in [1usize, 2, 4, 8] {
        let fifo = makespan(&poly, p, PolicyKind::Fifo)?.makespan;
        let lpt = makespan(&poly, p, PolicyKind::Lpt)?.makespan;
        let bound = (poly.work() / p as f64).max(poly.span());
        let _ = writeln!(
            s,
            "  {p:>2}  {:<8} {:<8} {}",
            num(fifo),
            num(lpt),
            num(bound)
        );
    }
    let blast = graph(BLAST, "blast-chameleon-small-001.json")?;
    let _ = writeln!(
        s,
        "\nA real workflow, BLAST from WfCommons ({} tasks, {} edges; times in seconds):\n",
        blast.len(),
        blast.edge_count()
    );
    let _ = writeln!(s, "   P  makespan  speedup  efficiency");
    let _ = writeln!(s, "  {}", "-".repeat(34));
    let one = makespan(&blast, 1, PolicyKind::Fifo)?.makespan;
    for p in [1usize, 2, 4, 8, 16, 40] {
        let m = makespan(&blast, p, PolicyKind::Fifo)?.makespan;
        let _ = writeln!(
            s,
            "  {p:>2}  {:<9} {:<8.3} {:.3}",
            num(m),
            one / m,
            one / m / p as f64
        );
    }
    let _ = writeln!(
        s,
        "\nThe 40 blastall tasks bound the speedup: past P = 40 only the span ({} s) is left.",
        num(blast.span())
    );
    if tour.want_pictures {
        let sched = makespan(&blast, 8, PolicyKind::Fifo)?;
        let tr = taskgraph::analysis::report::to_trace(&blast, &sched, "BLAST, P = 8, fifo");
        let svg = trace::gantt::render_svg(&tr, &trace::gantt::GanttOptions::default())?;
        tour.picture("blast_gantt.svg", svg);
    }
    Ok(())
}

const SCATTER_GATHER: &str = include_str!("../../../examples/etccs/scatter_gather.etccs");
const SCATTER: &str = include_str!("../../../examples/etccs/scatter.etccs");
const PARAMETRIC: &str = include_str!("../../../examples/etccs/parametric.etccs");

fn message_passing(tour: &mut Tour) -> Result<()> {
    let s = &mut tour.text;
    section(s, 6, "Message passing: Eager Timed CCS (examples/etccs)");
    let _ = writeln!(
        s,
        "Scatter 10^6 data units from node 0 to p nodes and gather them back, on a shared bus\n\
         or a contention-free network (the thesis's Tables 6-3 and 6-4). On the bus, who gets\n\
         it first decides the time, so the answer is a distribution:\n"
    );
    let _ = writeln!(s, "  p  contention-free  bus: times (probability)");
    let _ = writeln!(s, "  {}", "-".repeat(66));
    let opts = etccs::Options::default();
    let mut slowest_p3 = None;
    for p in 2..=4i64 {
        let consts = [("p", etccs::Time::from_integer(p.into()))];
        let mut m =
            etccs::parse::parse_with_consts("scatter_gather.etccs", SCATTER_GATHER, &consts)?;
        let bus = etccs::analyse(&mut m, "ScatterGatherBus", &opts)?;
        let perfect = etccs::analyse(&mut m, "ScatterGatherPerfect", &opts)?;
        let dist: Vec<String> = bus
            .pexec
            .iter()
            .map(|(t, pr)| format!("{t}: {pr}"))
            .collect();
        let flat: Vec<String> = perfect.pexec.keys().map(ToString::to_string).collect();
        let _ = writeln!(s, "  {p}  {:<16} {}", flat.join(", "), dist.join(", "));
        if p == 3 {
            slowest_p3 = bus.max;
        }
    }
    if let Some(run) = slowest_p3 {
        let _ = writeln!(
            s,
            "\nWhy: in the slowest bus run at p = 3 ({}), the nodes are ready for the bus long\n\
             before they get it (time waited for `get`, by component):",
            run.time
        );
        let _ = writeln!(s, "  {}", bus_waits(&run).join(", "));
    }
    let _ = writeln!(
        s,
        "\nWith symbolic times (param tcomp, b) the answer is a formula per region of parameter\n\
         space; regions that combine exactly are merged into max/min:\n"
    );
    let mut m = etccs::parse("parametric.etccs", PARAMETRIC)?;
    let popts = etccs::parametric::Options::default();
    for agent in ["Overlap", "TwoMessages"] {
        let r = etccs::parametric::analyse_parametric(&mut m, agent, &popts)?;
        for g in &r.regions {
            let _ = writeln!(
                s,
                "  {agent:<12} {}   on {}",
                r.results_text(g),
                r.render_region(g)
            );
        }
    }
    let _ = writeln!(
        s,
        "\nOverlapping one message with computation costs max(tcomp, send); a second message on\n\
         the same bus doubles the transfer term before the computation can finish."
    );
    if tour.want_pictures {
        let svg = scatter_sweep()?;
        tour.picture("etccs_scatter.svg", svg);
    }
    Ok(())
}

/// The four scatters of `scatter.etccs` for p = 2..8 against p, as the times plot of a
/// sweep draws them:
/// non-blocking sends pay off on the contention-free network, hardly on the bus.
fn scatter_sweep() -> Result<String> {
    use etccs::plot::{times_svg, Column, Times};
    let agents = [
        "RepeatedBus",
        "NonBlockingBus",
        "RepeatedPerfect",
        "NonBlockingPerfect",
    ];
    let opts = etccs::Options::default();
    let p = expr::grid::parse_binding("p=2..8").map_err(|e| TourError(e.to_string()))?;
    let space = sweep::Space::new(vec![p], 100).map_err(|e| TourError(e.to_string()))?;
    let mut cols = Vec::new();
    for (_, v) in (0..space.len()).flat_map(|k| space.exact(k)) {
        let mut m = etccs::parse::parse_with_consts("scatter.etccs", SCATTER, &[("p", v)])?;
        let mut agents_times = Vec::new();
        for a in agents {
            let r = etccs::analyse(&mut m, a, &opts)?;
            agents_times.push((a, Times::of_analysis(&r)));
        }
        cols.push(Column {
            agents: agents_times,
        });
    }
    Ok(times_svg("examples/etccs/scatter.etccs", &space, &cols)?)
}

/// Total time each component of `run` waited for the bus (`get'` after it was ready).
fn bus_waits(run: &etccs::Run) -> Vec<String> {
    let mut waited = vec![etccs::Time::default(); run.lanes.len()];
    for (now, st) in run.timed_steps() {
        for p in st.parties.iter().filter(|p| p.action == "get'") {
            waited[p.lane] += p.waited(&now);
        }
    }
    run.lanes
        .iter()
        .zip(&waited)
        .filter(|(_, w)| **w > etccs::Time::default())
        .map(|(l, w)| format!("{l} {w}"))
        .collect()
}

/// T^l for a one-line display: the expression, or a note when it is a long fold.
fn brief(r: &pamela::bound::BoundReport) -> String {
    let e = show(&r.tl);
    if r.is_closed_form() || e.chars().count() <= 60 {
        e
    } else {
        "a maximum over processors of sums (no closed form yet; evaluated below)".to_string()
    }
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_embedded_example_parses_and_checks() {
        for ex in examples::EXAMPLES {
            let m = pamela::parse(ex.path, ex.text);
            assert!(m.is_ok(), "{}: {:?}", ex.name, m.err());
        }
    }

    #[test]
    fn body_lines_drop_comments() {
        let lines = body_lines("// head\n\nparam N; // n\nmain = skip;\n");
        assert_eq!(lines, vec!["param N;", "main = skip;"]);
    }
}
