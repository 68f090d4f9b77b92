//! The sweep runner and its sinks: random access, chunking, failures, sampling, CSV, JSON
//! and plots.

use expr::grid::{parse_binding, Grid};
use proptest::prelude::*;
use sweep::{
    CsvSink, Evaluation, JsonLayout, JsonSink, LineSpec, Lines, LinesConfig, OnError, RunError,
    Sample, Sink, Space, SpaceError,
};

fn space(bindings: &[&str], limit: u64) -> Space {
    let b = bindings.iter().map(|s| parse_binding(s).unwrap()).collect();
    Space::new(b, limit).unwrap()
}

/// Runs `f` over `space` in chunks of `chunk` and returns the CSV text and the outcome.
fn csv_of(
    space: &Space,
    chunk: u64,
    on_error: OnError,
    f: impl Fn(u64, &[f64], &mut [f64]) -> Result<(), u64> + Sync,
) -> (String, Result<sweep::Outcome<u64>, RunError<u64>>) {
    let mut csv = CsvSink::new(Vec::new());
    let eval = Evaluation {
        chunk,
        meter: None,
        on_error,
    };
    let columns = ["y".to_string()];
    let r = sweep::run(space, &columns, &eval, f, &mut [&mut csv]);
    (String::from_utf8(csv.into_inner()).unwrap(), r)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Point k of a space is the k-th point of the grid's in-order iteration, exactly and
    /// as f64.
    #[test]
    fn random_access_matches_iteration(
        lo in -5i64..5, n in 1i64..6, step in 1i64..4, list in prop::collection::vec(-9i64..9, 1..4),
        frac_n in 1i64..5,
    ) {
        let list: Vec<String> = list.iter().map(i64::to_string).collect();
        let bindings = [
            format!("a={lo}..{}:{step}", lo + n * step),
            format!("b={}", list.join(",")),
            format!("c=1/3..{}:1/3", frac_n),
        ];
        let grid = Grid::parse(&bindings).unwrap();
        let space = space(&bindings.iter().map(String::as_str).collect::<Vec<_>>(), 1 << 20);
        prop_assert_eq!(space.len(), grid.len());
        let mut vals = vec![0.0; 3];
        for (k, (exact, f)) in grid.iter().zip(grid.points_f64()).enumerate() {
            prop_assert_eq!(space.exact(k as u64), exact);
            space.fill_f64(k as u64, &mut vals);
            prop_assert_eq!(&vals, &f);
        }
    }

    /// An even sample keeps min(total, max) rows, the first and last points among them.
    #[test]
    fn samples_are_even_and_bounded(total in 1u64..5000, max in 2u64..100) {
        let sample = Sample::new(total, max);
        let kept: Vec<u64> = (0..total).filter(|&p| sample.wanted(p)).collect();
        prop_assert_eq!(kept.len() as u64, total.min(max));
        prop_assert_eq!(kept[0], 0);
        prop_assert_eq!(*kept.last().unwrap(), total - 1);
    }
}

#[test]
fn chunking_does_not_change_the_results() {
    let s = space(&["x=1..1000", "y=2,3"], 10_000);
    let f = |_: u64, p: &[f64], out: &mut [f64]| {
        out[0] = p[0] * p[1] + 0.5;
        Ok(())
    };
    let (one, r1) = csv_of(&s, 1 << 20, OnError::Stop, f);
    let (many, r2) = csv_of(&s, 7, OnError::Stop, f);
    assert_eq!(one, many);
    assert_eq!(r1.unwrap().points, 2000);
    assert_eq!(r2.unwrap().points, 2000);
    assert!(
        one.starts_with("x,y,y\n1,2,2.5\n1,3,3.5\n2,2,4.5\n"),
        "{one}"
    );
    assert_eq!(one.lines().count(), 2001);
}

#[test]
fn stop_reports_the_first_failing_point_in_order() {
    let s = space(&["x=1..10000"], 100_000);
    // Points 5000 and 7000 fail; whichever thread meets one first, the run names 5000.
    let f = |k: u64, _: &[f64], out: &mut [f64]| {
        if k == 5000 || k == 7000 {
            return Err(k);
        }
        out[0] = 1.0;
        Ok(())
    };
    let (csv, r) = csv_of(&s, 1 << 16, OnError::Stop, f);
    match r {
        Err(RunError::Point { point, error }) => assert_eq!((point, error), (5000, 5000)),
        other => panic!("{other:?}"),
    }
    // The points before the failure were written, in order, and nothing after it.
    assert_eq!(csv.lines().count(), 1 + 5000);
    assert!(csv.ends_with("\n5000,1\n"), "{}", &csv[csv.len() - 40..]);
}

#[test]
fn skip_counts_failures_and_leaves_their_values_empty() {
    let s = space(&["x=1..10"], 100);
    let f = |k: u64, _: &[f64], out: &mut [f64]| {
        out[0] = 2.0;
        if k % 4 == 3 {
            return Err(k);
        }
        Ok(())
    };
    let (csv, r) = csv_of(&s, 3, OnError::Skip, f);
    let outcome = r.unwrap();
    assert_eq!((outcome.points, outcome.failed), (10, 2));
    assert_eq!(outcome.first_failure, Some((3, 3)));
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows[4], "4,");
    assert_eq!(rows[5], "5,2");
}

#[test]
fn json_lines_are_json_with_null_for_values_not_computed() {
    let s = space(&["n=1,2"], 100);
    let mut json = JsonSink::new(Vec::new(), JsonLayout::Lines);
    let columns = ["t".to_string(), "u".to_string()];
    let f = |_: u64, p: &[f64], out: &mut [f64]| -> Result<(), ()> {
        out[0] = p[0] / 4.0;
        out[1] = f64::NAN;
        Ok(())
    };
    sweep::run(&s, &columns, &Evaluation::default(), f, &mut [&mut json]).unwrap();
    let mut elements = JsonSink::new(Vec::new(), JsonLayout::Elements);
    sweep::run(
        &s,
        &columns,
        &Evaluation::default(),
        f,
        &mut [&mut elements],
    )
    .unwrap();
    let text = String::from_utf8(json_into(json)).unwrap();
    let objects: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        objects,
        vec![
            serde_json::json!({"n": 1, "t": 0.25, "u": null}),
            serde_json::json!({"n": 2, "t": 0.5, "u": null}),
        ]
    );
    let array = format!("[{}]", String::from_utf8(json_into(elements)).unwrap());
    let parsed: Vec<serde_json::Value> = serde_json::from_str(&array).unwrap();
    assert_eq!(parsed, objects);
}

fn json_into(sink: JsonSink<Vec<u8>>) -> Vec<u8> {
    sink.into_inner()
}

#[test]
fn plots_group_by_the_other_swept_parameters_and_thin_long_axes() {
    let s = space(&["x=1..100", "g=1..3"], 1000);
    let mut lines = Lines::new(LinesConfig {
        series: vec![
            LineSpec::new(0, "y"),
            LineSpec::new(0, "part").single_group_only(),
        ],
        max_groups: 2,
        max_points: 10,
        ..LinesConfig::default()
    });
    let f = |_: u64, p: &[f64], out: &mut [f64]| -> Result<(), ()> {
        out[0] = p[0] * p[1];
        Ok(())
    };
    let columns = ["y".to_string()];
    sweep::run(&s, &columns, &Evaluation::default(), f, &mut [&mut lines]).unwrap();
    assert!(lines.dropped_groups());
    assert_eq!(lines.x_axis(), Some(0));
    let svg = lines.render_svg("t", "x", "y", (400, 300)).unwrap();
    // Two groups of the "y" line; "part" is left out with several groups.
    assert!(svg.contains("y (g=1)") && svg.contains("y (g=2)"), "{svg}");
    assert!(!svg.contains("y (g=3)") && !svg.contains("part"));
}

#[test]
fn too_many_points_is_a_point_limit() {
    let b = vec![
        parse_binding("x=1..1000").unwrap(),
        parse_binding("y=1..1000").unwrap(),
    ];
    match Space::new(b, 999_999) {
        Err(SpaceError::TooManyPoints { points, reached }) => {
            assert_eq!(points, "1000000");
            assert_eq!(reached, sweep::Reached::new(sweep::Limit::Points, 999_999));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn map_hands_over_results_in_order_and_stops_at_the_first_error() {
    let s = space(&["x=1..100"], 1000);
    let eval = Evaluation {
        chunk: 16,
        ..Evaluation::default()
    };
    let mut seen = Vec::new();
    sweep::map(
        &s,
        &eval,
        |k| Ok::<u64, u64>(k * 2),
        |start, chunk| {
            assert_eq!(chunk[0], start * 2);
            seen.extend(chunk);
            Ok(())
        },
    )
    .unwrap();
    assert_eq!(seen, (0..100).map(|k| k * 2).collect::<Vec<_>>());
    let r = sweep::map(
        &s,
        &eval,
        |k| if k % 10 == 9 { Err(k) } else { Ok(k) },
        |_, _| Ok(()),
    );
    assert_eq!(r, Err(9));
}

#[test]
fn sinks_see_begin_blocks_and_finish() {
    struct Count(usize, usize, bool);
    impl Sink for Count {
        fn begin(&mut self, h: &sweep::Header<'_>) -> std::io::Result<()> {
            self.0 = h.columns.len();
            Ok(())
        }
        fn block(&mut self, _: &sweep::Header<'_>, b: &sweep::Block<'_>) -> std::io::Result<()> {
            self.1 += b.len();
            Ok(())
        }
        fn finish(&mut self) -> std::io::Result<()> {
            self.2 = true;
            Ok(())
        }
    }
    let s = space(&["x=1..50"], 100);
    let mut c = Count(0, 0, false);
    let eval = Evaluation {
        chunk: 8,
        ..Evaluation::default()
    };
    let f = |_: u64, _: &[f64], _: &mut [f64]| Ok::<(), ()>(());
    sweep::run(&s, &["a".into(), "b".into()], &eval, f, &mut [&mut c]).unwrap();
    assert_eq!((c.0, c.1, c.2), (2, 50, true));
}

#[test]
fn small_chunks_of_expensive_points_use_every_thread() {
    // Four points per chunk on two threads: both must work (the simulator's sweeps).
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("pool");
    let s = space(&["x=1..8"], 100);
    let threads = std::sync::Mutex::new(std::collections::BTreeSet::new());
    let eval = Evaluation {
        chunk: 4,
        ..Evaluation::default()
    };
    let f = |_: u64, _: &[f64], out: &mut [f64]| -> Result<(), ()> {
        std::thread::sleep(std::time::Duration::from_millis(20));
        threads
            .lock()
            .expect("lock")
            .insert(rayon::current_thread_index());
        out[0] = 1.0;
        Ok(())
    };
    pool.install(|| sweep::run(&s, &["y".to_string()], &eval, f, &mut []).expect("runs"));
    assert_eq!(threads.into_inner().expect("lock").len(), 2);
}
