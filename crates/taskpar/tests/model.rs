//! The two-step model (`taskpar::model`): eqs. 10, 12 and 15 at p = 1, the synthetic
//! acceptance test (p = 36 at 8× the largest training size), coefficient recovery, the
//! cross-validated choice of the no_work form, bad input, the model file's round trip,
//! warnings and reports.

use taskpar::model::{
    self, equations, Feature, ModelFileError, NoWorkForm, PredictError, Run, TrainError,
    TrainOptions, TrainingSet, Transform,
};

#[allow(dead_code)]
mod synthetic {
    // Synthetic runs generated from the paper's equations 10–15 (or a span-based no_work) with
    // known coefficients and multiplicative noise.

    use stats::rng::Draw;
    use taskpar::model::{equations, Run, TrainingSet};

    /// How no_work is generated.
    #[derive(Clone, Copy, Debug)]
    pub enum NoWork {
        /// Eq. 15 with these f.
        Paper([f64; 4]),
        /// g0·(p−1) + g1·(p−1)·T∞.
        SpanLinear([f64; 2]),
    }

    /// The true coefficients.
    #[derive(Clone, Copy, Debug)]
    pub struct Truth {
        pub b: [f64; 7],
        pub d: [f64; 5],
        pub e: [f64; 5],
        pub a: [f64; 2],
        pub c: [f64; 6],
        pub no_work: NoWork,
        /// The span T∞(n), with the basis of eq. 11.
        pub s: [f64; 7],
    }

    impl Truth {
        /// The acceptance truth: T1' = b1 + b3·n ln n + b4·n², create_task ∝ n, wait_tasks ∝
        /// n ln n, no_work = (p−1)²·(f1 + f3·n ln n), span linear in n. Every term is at least
        /// 10% of its sub-model somewhere in the training sizes (so that it can be told apart
        /// from the others); at (8·2^16, 36) work is 51% of p·time, delay 9%, no_work 40%.
        pub fn paper() -> Truth {
            Truth {
                b: [1e-4, 0.0, 2e-8, 5e-12, 0.0, 0.0, 0.0],
                d: [0.05, 0.0, 0.0, 0.0, 0.0],
                e: [0.0, 0.004, 0.0, 0.0, 0.0],
                a: [0.05, 0.01],
                c: [2e-6, 1e-7, 5e-7, 1e-6, 2e-7, 3e-7],
                no_work: NoWork::Paper([5e-6, 0.0, 2e-10, 0.0]),
                s: [1e-4, 1e-8, 0.0, 0.0, 0.0, 0.0, 0.0],
            }
        }

        /// The same with no_work = g0·(p−1) + g1·(p−1)·T∞(n).
        pub fn span() -> Truth {
            Truth {
                no_work: NoWork::SpanLinear([1e-4, 2.0]),
                ..Truth::paper()
            }
        }

        pub fn serial(&self, n: f64) -> f64 {
            equations::serial(n, self.b)
        }
        pub fn create_task(&self, n: f64) -> f64 {
            equations::task_count(n, self.d)
        }
        pub fn wait_tasks(&self, n: f64) -> f64 {
            equations::task_count(n, self.e)
        }
        pub fn span_of(&self, n: f64) -> f64 {
            equations::serial(n, self.s)
        }
        pub fn work(&self, n: f64, p: f64) -> f64 {
            equations::work(self.serial(n), p, self.a)
        }
        pub fn delay(&self, n: f64, p: f64) -> f64 {
            equations::delay(self.create_task(n), self.wait_tasks(n), p, self.c)
        }
        pub fn no_work(&self, n: f64, p: f64) -> f64 {
            match self.no_work {
                NoWork::Paper(f) => equations::no_work(n, p, f),
                NoWork::SpanLinear(g) => equations::no_work_span_linear(self.span_of(n), p, g),
            }
        }
        pub fn time(&self, n: f64, p: f64) -> f64 {
            equations::time(self.work(n, p), self.delay(n, p), self.no_work(n, p), p)
        }

        /// Runs at every size and worker count, `reps` times, each measured quantity with
        /// multiplicative Gaussian noise of relative deviation `noise`; T1' of a size is its
        /// p = 1 run's work.
        pub fn runs(
            &self,
            sizes: &[f64],
            ps: &[f64],
            reps: usize,
            noise: f64,
            seed: u64,
        ) -> TrainingSet {
            let mut rng = stats::rng::seeded(seed);
            let mut jitter = move |v: f64| v * (1.0 + noise * rng.gauss());
            let mut runs = Vec::new();
            for &n in sizes {
                for rep in 0..reps {
                    let serial = jitter(self.serial(n));
                    for &p in ps {
                        let work = if p == 1.0 {
                            serial
                        } else {
                            jitter(self.work(n, p))
                        };
                        let delay = jitter(self.delay(n, p));
                        let no_work = jitter(self.no_work(n, p));
                        runs.push(Run {
                            app: "synthetic".into(),
                            n,
                            p,
                            rep: rep as f64,
                            work,
                            work_serial: serial,
                            delay,
                            no_work,
                            create_task: jitter(self.create_task(n)),
                            wait_tasks: jitter(self.wait_tasks(n)),
                            span: Some(jitter(self.span_of(n))),
                            elapsed: (work + delay + no_work) / p,
                            elapsed_untraced: None,
                        });
                    }
                }
            }
            TrainingSet::new(runs)
        }
    }

    /// Sizes 2^8 … 2^16 in steps of √2.
    pub fn sizes() -> Vec<f64> {
        (0..=16)
            .map(|k| (8.0 + 0.5 * k as f64).exp2().round())
            .collect()
    }

    /// Workers 1 … 8.
    pub fn workers() -> Vec<f64> {
        (1..=8).map(f64::from).collect()
    }
}

use synthetic::{sizes, workers, Truth};

fn options(seed: u64, bootstrap: usize) -> TrainOptions {
    TrainOptions {
        seed,
        bootstrap,
        ..TrainOptions::default()
    }
}

fn coefficient(sub: &model::SubModel, f: Feature) -> f64 {
    sub.features
        .iter()
        .zip(&sub.coefficients)
        .find(|(g, _)| **g == f)
        .map_or(0.0, |(_, c)| *c)
}

// (a) Spec §5.8 item 4: the model's arithmetic, against values worked by hand.

#[test]
fn equations_against_hand_computed_values() {
    let close = |a: f64, b: f64| assert!((a - b).abs() <= 1e-12 * b.abs().max(1.0), "{a} vs {b}");
    // Eq. 10 at p = 4, T1' = 2: 2 + 0.3·2·(3/4) + 0.7·2·3 = 2 + 0.45 + 4.2.
    close(equations::work(2.0, 4.0, [0.3, 0.7]), 6.65);
    // Eq. 10 at p = 1 is T1' whatever the coefficients.
    close(equations::work(2.0, 1.0, [0.3, 0.7]), 2.0);
    // Eq. 12 at p = 4, ct = 100, wt = 50, c = 1..6:
    // 100·(1 + 2·3 + 3·3/4) + 50·(4 + 5·3 + 6·3/4) = 925 + 1175.
    close(
        equations::delay(100.0, 50.0, 4.0, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]),
        2100.0,
    );
    // Eq. 15 at p = 4, n = 1 (ln n = 0): 3²·(1 + 2 + 0 + 4).
    close(equations::no_work(1.0, 4.0, [1.0, 2.0, 3.0, 4.0]), 63.0);
    // Eq. 15 at n = e (ln n = 1), p = 3: 2²·(1 + 2e + 3e + 4e²).
    let e = std::f64::consts::E;
    close(
        equations::no_work(e, 3.0, [1.0, 2.0, 3.0, 4.0]),
        4.0 * (1.0 + 5.0 * e + 4.0 * e * e),
    );
    // The span forms at p = 3, T∞ = 0.5: 1·2 + 2·2·0.5; 1·2·0.5 + 2·4·0.5.
    close(equations::no_work_span_linear(0.5, 3.0, [1.0, 2.0]), 4.0);
    close(equations::no_work_span_quadratic(0.5, 3.0, [1.0, 2.0]), 5.0);
    // Eq. 11 at n = 10 with b2 = 1, b4 = 1: 10 + 100.
    close(
        equations::serial(10.0, [0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0]),
        110.0,
    );
    // Eq. 9: (6 + 1 + 1)/4.
    close(equations::time(6.0, 1.0, 1.0, 4.0), 2.0);
}

/// Runs of a program whose laws are known by hand: T1'(n) = 1e-6·n², work that does not
/// inflate, create_task = wait_tasks = n, delay = 1e-6·(ct + wt) at every p, no_work =
/// 1e-4·(p−1)²·n; elapsed = (work + delay + no_work)/p (eq. 8), exactly, with no noise.
fn hand_runs() -> TrainingSet {
    let mut runs = Vec::new();
    for k in 1..=8 {
        let n = 1000.0 * f64::from(k);
        for p in [1.0, 2.0, 4.0] {
            let work = 1e-6 * n * n;
            let delay = 1e-6 * (n + n);
            let no_work = 1e-4 * (p - 1.0) * (p - 1.0) * n;
            runs.push(Run {
                app: "hand".into(),
                n,
                p,
                rep: 0.0,
                work,
                work_serial: work,
                delay,
                no_work,
                create_task: n,
                wait_tasks: n,
                span: Some(1e-3 * n),
                elapsed: (work + delay + no_work) / p,
                elapsed_untraced: None,
            });
        }
    }
    TrainingSet::new(runs)
}

#[test]
fn fitted_model_at_one_worker_predicts_the_hand_law() {
    let m = model::train(&hand_runs(), &options(7, 0)).unwrap();
    for n in [1500.0, 4500.0, 7500.0] {
        let pred = model::predict(&m, n, 1.0).unwrap();
        // At p = 1 there is no idle worker and the time is the serial work plus the delay.
        let want = 1e-6 * n * n + 2e-6 * n;
        assert!(
            (pred.time - want).abs() <= 0.01 * want,
            "n = {n}: {} vs {want}",
            pred.time
        );
        assert!(pred.no_work.abs() <= 1e-9 * want, "{}", pred.no_work);
    }
}

// (b) Acceptance: eqs. 10–15 with 3% noise, trained on p ≤ 8 and n ≤ 2^16, predicting p = 36
// at n = 2^19.

#[test]
fn acceptance_extrapolates_to_36_workers_and_8x_the_size() {
    let truth = Truth::paper();
    let n = 8.0 * sizes().last().copied().unwrap();
    let p = 36.0;
    let actual = truth.time(n, p);
    let mut errors = Vec::new();
    for seed in 1..=5u64 {
        let set = truth.runs(&sizes(), &workers(), 1, 0.03, seed);
        let m = model::train(&set, &options(seed, 20)).unwrap();
        let pred = model::predict(&m, n, p).unwrap();
        errors.push((pred.time - actual).abs() / actual);
        assert_eq!(m.no_work.variant, "paper");
        let (lo, hi) = pred.interval.unwrap();
        assert!(lo <= hi && lo > 0.0);
        assert!(pred.direct.is_finite() && pred.direct > 0.0);
    }
    eprintln!("relative errors of time(2^19, 36) per seed: {errors:?}");
    assert!(errors.iter().all(|e| *e < 0.10), "{errors:?}");
}

/// The same over 60 seeds, with the default options and the paper's: how often the time at
/// (2^19, 36) is within 10% (a measurement for bench/RESULTS.md, not a test of the goal:
/// `cargo test --release -p taskpar --test model -- --ignored --nocapture`).
#[test]
#[ignore]
fn acceptance_over_sixty_seeds() {
    let truth = Truth::paper();
    let n = 8.0 * sizes().last().copied().unwrap();
    let actual = truth.time(n, 36.0);
    for (name, paper) in [("default", false), ("paper", true)] {
        let mut errors: Vec<f64> = (1..=60u64)
            .map(|seed| {
                let set = truth.runs(&sizes(), &workers(), 1, 0.03, seed);
                let opts = if paper {
                    TrainOptions {
                        seed,
                        bootstrap: 0,
                        ..TrainOptions::paper()
                    }
                } else {
                    options(seed, 0)
                };
                let m = model::train(&set, &opts).unwrap();
                (model::predict(&m, n, 36.0).unwrap().time - actual).abs() / actual
            })
            .collect();
        errors.sort_by(f64::total_cmp);
        let within = errors.iter().filter(|e| **e < 0.10).count();
        eprintln!(
            "{name}: {within}/60 within 10%, median {:.4}, worst {:.4}",
            errors[30], errors[59]
        );
    }
}

// (c) Coefficient recovery on noise-free data.

#[test]
fn recovers_coefficients_without_noise() {
    let truth = Truth::paper();
    let set = truth.runs(&sizes(), &workers(), 1, 0.0, 1);
    let m = model::train(&set, &options(1, 0)).unwrap();
    let close = |got: f64, want: f64, what: &str| {
        assert!(
            (got - want).abs() <= 1e-3 * want.abs(),
            "{what}: fitted {got}, true {want}"
        );
    };
    close(coefficient(&m.serial, Feature::One), truth.b[0], "b1");
    close(coefficient(&m.serial, Feature::NLnN), truth.b[2], "b3");
    close(coefficient(&m.serial, Feature::N2), truth.b[3], "b4");
    close(coefficient(&m.create_task, Feature::N), truth.d[0], "d1");
    close(coefficient(&m.wait_tasks, Feature::NLnN), truth.e[1], "e2");
    close(coefficient(&m.work, Feature::SerialFracP), truth.a[0], "a1");
    close(coefficient(&m.work, Feature::SerialP), truth.a[1], "a2");
    let delay = [
        Feature::Ct,
        Feature::CtP,
        Feature::CtFracP,
        Feature::Wt,
        Feature::WtP,
        Feature::WtFracP,
    ];
    for (k, f) in delay.into_iter().enumerate() {
        close(coefficient(&m.delay, f), truth.c[k], &f.name());
    }
    close(coefficient(&m.no_work, Feature::P2), 5e-6, "f1");
    close(coefficient(&m.no_work, Feature::P2NLnN), 2e-10, "f3");
    // Terms the truth does not have contribute nothing at the largest size.
    let top = *sizes().last().unwrap();
    for (sub, want) in [
        (&m.serial, truth.serial(top)),
        (&m.no_work, truth.no_work(top, 8.0)),
    ] {
        let x = model::Inputs {
            n: top,
            p: 8.0,
            span: truth.span_of(top),
            ..model::Inputs::default()
        };
        let extra: f64 = sub
            .selected()
            .iter()
            .filter(|(f, _)| {
                ![
                    Feature::One,
                    Feature::NLnN,
                    Feature::N2,
                    Feature::P2,
                    Feature::P2NLnN,
                ]
                .contains(f)
            })
            .map(|(f, c)| c * f.value(&x))
            .sum();
        assert!(
            extra.abs() < 1e-4 * want,
            "{}: {:?}",
            sub.target,
            sub.selected()
        );
    }
    let pred = model::predict(&m, 8.0 * top, 36.0).unwrap();
    let actual = truth.time(8.0 * top, 36.0);
    assert!(
        (pred.time - actual).abs() < 1e-3 * actual,
        "{} vs {actual}",
        pred.time
    );
}

// (f) The cross-validated choice of the no_work form.

#[test]
fn chooses_the_no_work_form_the_data_came_from() {
    let paper = model::train(
        &Truth::paper().runs(&sizes(), &workers(), 1, 0.03, 3),
        &options(3, 0),
    )
    .unwrap();
    assert_eq!(paper.no_work.variant, "paper");
    let span = model::train(
        &Truth::span().runs(&sizes(), &workers(), 1, 0.03, 3),
        &options(3, 0),
    )
    .unwrap();
    assert!(
        span.no_work.variant.starts_with("span"),
        "{:?}",
        span.choices
    );
    for m in [&paper, &span] {
        let c = m.choices.iter().find(|c| c.sub_model == "no_work").unwrap();
        assert_eq!(c.candidates.len(), 3);
        assert!(c.candidates.iter().all(|c| c.cv_score.is_some()));
        assert!(!c.fixed);
        assert_eq!(c.chosen, m.no_work.variant);
    }
    // The span model predicts its own data at p = 36 and 8× the size.
    let (n, p) = (8.0 * *sizes().last().unwrap(), 36.0);
    let pred = model::predict(&span, n, p).unwrap();
    let actual = Truth::span().time(n, p);
    assert!(
        (pred.time - actual).abs() < 0.1 * actual,
        "{} vs {actual}",
        pred.time
    );
    let bounds = pred.bounds;
    assert!(bounds.span.unwrap() > 0.0 && bounds.greedy.unwrap() > bounds.work_over_p);
}

#[test]
fn fixed_forms_are_recorded() {
    let set = Truth::paper().runs(&sizes(), &workers(), 1, 0.03, 4);
    let m = model::train(&set, &TrainOptions::paper()).unwrap();
    assert_eq!(m.no_work.variant, "paper");
    assert_eq!(m.create_task.variant, "no intercept");
    assert!(m.choices.iter().all(|c| c.fixed));
    assert_eq!(m.serial.weighting, "none");
    assert!(m.serial.fit_intercept && m.bootstrap.len() == fit::run::BOOTSTRAP_REPLICATES);
    let no_span: Vec<model::Run> = set
        .runs
        .iter()
        .map(|r| model::Run {
            span: None,
            ..r.clone()
        })
        .collect();
    let opts = TrainOptions {
        no_work: Some(NoWorkForm::SpanLinear),
        ..options(4, 0)
    };
    let err = model::train(&model::TrainingSet::new(no_span.clone()), &opts).unwrap_err();
    assert!(matches!(err, TrainError::NeedsSpan { .. }), "{err}");
    assert!(err.to_string().contains("span linear"), "{err}");
    let m = model::train(&model::TrainingSet::new(no_span), &options(4, 0)).unwrap();
    assert!(m.span.is_none() && m.no_work.variant == "paper");
    assert!(model::predict(&m, 1e5, 16.0).unwrap().bounds.span.is_none());
}

// The CSV reader.

fn csv_of(set: &model::TrainingSet) -> String {
    let mut s = String::from(
        "app,n,p,rep,work,work_serial,delay,no_work,create_task,wait_tasks,span,elapsed,comment\n",
    );
    for r in &set.runs {
        s += &format!(
            "{},{},{},{},{},{},{},{},{},{},{},{},\"a, b\"\n",
            r.app,
            r.n,
            r.p,
            r.rep,
            r.work,
            r.work_serial,
            r.delay,
            r.no_work,
            r.create_task,
            r.wait_tasks,
            r.span.unwrap(),
            r.elapsed
        );
    }
    s
}

#[test]
fn reads_runs_from_csv() {
    let set = Truth::paper().runs(&sizes()[..4], &workers()[..3], 2, 0.03, 5);
    let back = model::read_runs("runs.csv", &csv_of(&set)).unwrap();
    // The reader sets work_serial to the mean work of the size's p = 1 runs.
    let mut expected = set.clone();
    for r in expected.runs.iter_mut() {
        let ones: Vec<f64> = set
            .runs
            .iter()
            .filter(|q| q.n == r.n && q.p == 1.0)
            .map(|q| q.work)
            .collect();
        r.work_serial = ones.iter().sum::<f64>() / ones.len() as f64;
    }
    assert_eq!(back.runs.len(), expected.runs.len());
    for (b, e) in back.runs.iter().zip(&expected.runs) {
        assert!((b.work_serial - e.work_serial).abs() <= 1e-12 * e.work_serial);
        let same = model::Run {
            work_serial: e.work_serial,
            ..b.clone()
        };
        assert_eq!(&same, e);
    }
    assert_eq!(back.apps(), vec!["synthetic".to_string()]);
    // Optional columns left out, CRLF line ends, blank lines, another column order.
    let text = "p,n,work,work_serial,delay,no_work,create_task,wait_tasks,elapsed\r\n\
                1,100,2,2,0.5,0,10,10,2.5\r\n\r\n2,100,2.2,2,0.7,0.1,10,10,1.5\r\n";
    let back = model::read_runs("x.csv", text).unwrap();
    assert_eq!(back.runs.len(), 2);
    assert_eq!(back.runs[1].app, "");
    assert_eq!(back.runs[1].span, None);
    assert_eq!(back.runs[1].no_work, 0.1);
    // Empty optional fields (a campaign's rows without untraced runs): not measured; an
    // empty repetition is refused where it is.
    let text = "app,n,p,rep,work,work_serial,delay,no_work,create_task,wait_tasks,span,elapsed,elapsed_untraced\n\
                a,100,1,0,2,2,0.5,0,10,10,,2.5,\n\
                a,100,2,0,2.2,2,0.7,0.1,10,10,1,1.5, 1.25\n";
    let back = model::read_runs("u.csv", text).unwrap();
    assert_eq!(back.runs[0].span, None);
    assert_eq!(back.runs[0].elapsed_untraced, None);
    assert_eq!(back.runs[1].span, Some(1.0));
    assert_eq!(back.runs[1].elapsed_untraced, Some(1.25));
    let err = model::read_runs("r.csv", &text.replace("a,100,2,0,", "a,100,2,,")).unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.starts_with("r.csv:3:") && msg.contains("column `rep`"),
        "{msg}"
    );
    // Two applications, one chosen.
    let mut two = set.clone();
    two.runs
        .iter_mut()
        .take(5)
        .for_each(|r| r.app = "fib".into());
    let back = model::read_runs("two.csv", &csv_of(&two)).unwrap();
    assert_eq!(
        back.apps(),
        vec!["fib".to_string(), "synthetic".to_string()]
    );
    assert_eq!(back.for_app("fib").runs.len(), 5);
    let err = model::train(&back, &options(0, 0)).unwrap_err();
    assert!(
        err.to_string().contains("2 applications (fib, synthetic)"),
        "{err}"
    );
}

// (d) Bad input.

#[test]
fn bad_csv_is_a_located_error() {
    let err = model::read_runs("e.csv", "").unwrap_err();
    assert!(err.to_string().contains("empty"), "{err}");
    let err = model::read_runs("e.csv", "   \n\n").unwrap_err();
    assert!(err.to_string().contains("empty"), "{err}");
    let header = "n,p,work,work_serial,delay,no_work,create_task,wait_tasks,elapsed\n";
    let err = model::read_runs("h.csv", header).unwrap_err();
    assert!(err.to_string().contains("no rows"), "{err}");
    let misspelt =
        "n,p,work,work_serail,delay,no_work,create_task,wait_tasks,elapsed\n1,1,1,1,1,1,1,1,1\n";
    let err = model::read_runs("m.csv", misspelt).unwrap_err();
    assert!(err.to_string().contains("no column `work_serial`"), "{err}");
    assert!(
        err.help.as_deref().unwrap_or("").contains("work_serail"),
        "{:?}",
        err.help
    );
    let bad = format!("{header}1,1,1,1,1,1,1,1,1\n2,1,1,1,x1.5,1,1,1,1\n");
    let err = model::read_runs("b.csv", &bad).unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.starts_with("b.csv:3:9:") && msg.contains("`x1.5`") && msg.contains("`delay`"),
        "{msg}"
    );
    let zero = format!("{header}1,0,1,1,1,1,1,1,1\n");
    let err = model::read_runs("z.csv", &zero).unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.starts_with("z.csv:2:3:") && msg.contains("column `p`"),
        "{msg}"
    );
    let negative = format!("{header}1,1,1,1,1,-2,1,1,1\n");
    let err = model::read_runs("n.csv", &negative).unwrap_err();
    assert!(
        err.to_string()
            .contains("`-2` in column `no_work` is negative"),
        "{err}"
    );
    let ragged = format!("{header}1,1,1\n");
    assert!(model::read_runs("r.csv", &ragged).is_err());
    let quoted = format!("{header}\"1,1,1,1,1,1,1,1,1\n");
    assert!(model::read_runs("q.csv", &quoted).is_err());
}

#[test]
fn bad_training_sets_are_typed_errors() {
    let err = model::train(&model::TrainingSet::default(), &options(0, 0)).unwrap_err();
    assert!(matches!(err, TrainError::Empty));
    let few = Truth::paper().runs(&sizes()[..2], &workers(), 1, 0.0, 0);
    let err = model::train(&few, &options(0, 0)).unwrap_err();
    assert!(err.to_string().contains("2 distinct sizes n"), "{err}");
    let one_p = Truth::paper().runs(&sizes(), &[1.0], 1, 0.0, 0);
    let err = model::train(&one_p, &options(0, 0)).unwrap_err();
    assert!(err.to_string().contains("worker counts"), "{err}");
    let mut bad = Truth::paper().runs(&sizes(), &workers(), 1, 0.0, 0);
    bad.runs[3].delay = f64::NAN;
    let err = model::train(&bad, &options(0, 0)).unwrap_err();
    assert!(
        err.to_string().contains("run 3") && err.to_string().contains("delay"),
        "{err}"
    );
    let huge = Truth::paper().runs(&[1e100, 1e101, 1e110], &workers(), 1, 0.0, 0);
    let err = model::train(&huge, &options(0, 0)).unwrap_err();
    assert!(matches!(err, TrainError::NotFinite { .. }), "{err}");
    let pow = Truth::paper().runs(&[10.0, 20.0, 2000.0], &workers(), 1, 0.0, 0);
    let opts = TrainOptions {
        transform: Transform::Pow2,
        ..options(0, 0)
    };
    let err = model::train(&pow, &opts).unwrap_err();
    assert!(err.to_string().contains("2^n"), "{err}");
}

// (e) The model file.

#[test]
fn model_file_round_trip_gives_identical_predictions() {
    let set = Truth::paper().runs(&sizes(), &workers(), 1, 0.03, 11);
    let m = model::train(&set, &options(11, 30)).unwrap();
    let text = model::to_json(&m);
    let back = model::from_json(&text).unwrap();
    assert_eq!(back, m);
    for (n, p) in [(300.0, 1.0), (7e4, 8.0), (5e5, 36.0), (1e3, 3.0)] {
        assert_eq!(
            model::predict(&back, n, p).unwrap(),
            model::predict(&m, n, p).unwrap()
        );
    }
    assert_eq!(model::to_json(&back), text);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["format"], model::FORMAT);
    assert_eq!(v["version"], model::VERSION);
    assert_eq!(v["transform"], "none");
    assert_eq!(v["app"], "synthetic");
    assert_eq!(v["serial"]["features"][0], "1");
    assert_eq!(v["no_work"]["features"][2], "(p-1)^2*n*ln(n)");
    assert!(v["domain"]["n_max"].as_f64() == Some(65536.0));
    assert!(v["no_work"]["cv_score"].is_number());
}

#[test]
fn bad_model_files_are_typed_errors() {
    let set = Truth::paper().runs(&sizes(), &workers(), 1, 0.03, 12);
    let m = model::train(&set, &options(12, 2)).unwrap();
    let text = model::to_json(&m);
    // A file of version 1 (before the PMNF terms and the forward selection).
    let other = text.replacen("\"version\": 2", "\"version\": 1", 1);
    let err = model::from_json(&other).unwrap_err();
    assert!(
        matches!(&err, ModelFileError::Version { found } if found == "1"),
        "{err}"
    );
    assert!(err.to_string().contains("version 1"), "{err}");
    let other = text.replacen("vates-taskpar-model", "vates-fit-model", 1);
    let err = model::from_json(&other).unwrap_err();
    assert!(err.to_string().contains("\"vates-fit-model\""), "{err}");
    let err =
        model::from_json("{\"format\": \"vates-taskpar-model\", \"version\": 1,").unwrap_err();
    assert!(matches!(err, ModelFileError::Json { line: 1, .. }), "{err}");
    let err = model::from_json("[1, 2]").unwrap_err();
    assert!(err.to_string().contains("missing"), "{err}");
    let err =
        model::from_json("{\"format\": \"vates-taskpar-model\", \"version\": 2}").unwrap_err();
    assert!(matches!(&err, ModelFileError::Schema { .. }), "{err}");
    assert!(err.to_string().contains("missing field"), "{err}");
    let unknown = text.replacen("\"n*ln(n)\"", "\"n*log(n)\"", 1);
    let err = model::from_json(&unknown).unwrap_err();
    assert!(
        err.to_string().contains("unknown feature `n*log(n)`"),
        "{err}"
    );
    let mut broken = m.clone();
    broken.delay.coefficients.pop();
    let err = model::from_json(&model::to_json(&broken)).unwrap_err();
    assert!(matches!(&err, ModelFileError::Invalid(_)), "{err}");
    assert!(err.to_string().contains("delay"), "{err}");
    let mut broken = m.clone();
    broken.bootstrap[0].work.coefficients.push(1.0);
    assert!(model::from_json(&model::to_json(&broken)).is_err());
}

// Prediction: warnings, bad points, the transform.

#[test]
fn predictions_warn_outside_the_training_domain() {
    let set = Truth::paper().runs(&sizes(), &workers(), 1, 0.03, 13);
    let m = model::train(&set, &options(13, 10)).unwrap();
    let inside = model::predict(&m, 4096.0, 4.0).unwrap();
    assert!(inside.warnings.is_empty(), "{:?}", inside.warnings);
    let outside = model::predict(&m, 8.0 * 65536.0, 36.0).unwrap();
    assert_eq!(outside.warnings.len(), 2, "{:?}", outside.warnings);
    assert!(
        outside.warnings[0].contains("8× the largest training size (65536)"),
        "{:?}",
        outside.warnings
    );
    assert!(
        outside.warnings[1].contains("4.5× the most workers in training (8)"),
        "{:?}",
        outside.warnings
    );
    let small = model::predict(&m, 64.0, 2.0).unwrap();
    assert!(
        small.warnings[0].contains("below the smallest training size (256, 4× smaller)"),
        "{:?}",
        small.warnings
    );
    assert!(matches!(
        model::predict(&m, f64::NAN, 2.0),
        Err(PredictError::Size { .. })
    ));
    assert!(matches!(
        model::predict(&m, -1.0, 2.0),
        Err(PredictError::Size { .. })
    ));
    assert!(matches!(
        model::predict(&m, 100.0, 0.5),
        Err(PredictError::Workers { .. })
    ));
    // A negative component is reported.
    let mut negative = m.clone();
    negative
        .delay
        .coefficients
        .iter_mut()
        .for_each(|c| *c = -*c);
    let pred = model::predict(&negative, 4096.0, 4.0).unwrap();
    assert!(
        pred.warnings
            .iter()
            .any(|w| w.contains("delay is negative")),
        "{:?}",
        pred.warnings
    );
}

#[test]
fn the_pow2_transform_is_recorded_and_applied() {
    // An exponential program: the truth's functions of x = 2^n, in n = 10..20 (noise-free:
    // this checks the transform, not the statistics).
    let truth = Truth::paper();
    let ns: Vec<f64> = (10..=20).map(f64::from).collect();
    let mut set = truth.runs(
        &ns.iter().map(|n| n.exp2()).collect::<Vec<_>>(),
        &workers(),
        1,
        0.0,
        3,
    );
    for r in &mut set.runs {
        r.n = r.n.log2().round();
    }
    let opts = TrainOptions {
        transform: Transform::Pow2,
        ..options(3, 0)
    };
    let m = model::train(&set, &opts).unwrap();
    assert_eq!(m.transform, Transform::Pow2);
    assert_eq!((m.domain.n_min, m.domain.n_max), (10.0, 20.0));
    let pred = model::predict(&m, 22.0, 16.0).unwrap();
    let actual = truth.time(22f64.exp2(), 16.0);
    assert!(
        (pred.time - actual).abs() < 1e-3 * actual,
        "{} vs {actual}",
        pred.time
    );
    assert!(
        pred.warnings[0].contains("the model's input 2^n is 4× its largest"),
        "{:?}",
        pred.warnings
    );
    let back = model::from_json(&model::to_json(&m)).unwrap();
    assert_eq!(model::predict(&back, 22.0, 16.0).unwrap(), pred);
    assert!(matches!(
        model::predict(&m, 5000.0, 2.0),
        Err(PredictError::Size { .. })
    ));
}

// The report: relative errors per run and medians per application.

#[test]
fn reports_relative_errors_per_component_and_median_per_app() {
    let truth = Truth::paper();
    let m = model::train(
        &truth.runs(&sizes(), &workers(), 1, 0.03, 21),
        &options(21, 0),
    )
    .unwrap();
    let big: Vec<f64> = [2.0, 4.0, 8.0].iter().map(|k| k * 65536.0).collect();
    let mut test = truth.runs(&big, &[30.0, 33.0, 36.0], 1, 0.0, 22);
    test.runs
        .iter_mut()
        .take(3)
        .for_each(|r| r.app = "other".into());
    let report = model::report(&m, &test.runs).unwrap();
    assert_eq!(report.rows.len(), 9);
    assert_eq!(report.medians.len(), 2);
    assert_eq!(report.medians[0].app, "other");
    assert_eq!(report.medians[0].rows, 3);
    let med = &report.medians[1].median;
    assert!(med.time.unwrap() < 0.10, "{med:?}");
    assert!(
        med.direct.unwrap() > med.time.unwrap(),
        "the baseline is worse: {med:?}"
    );
    for (name, v) in med.named() {
        if name.contains("untraced") {
            // The runs have no untraced times.
            assert_eq!(v, None, "{name}");
            continue;
        }
        assert!(
            v.is_some_and(|v| v.is_finite() && v >= 0.0),
            "{name}: {v:?}"
        );
    }
    let row = &report.rows[4];
    assert_eq!(
        row.errors.time,
        Some((row.actual - row.predicted).abs() / row.actual)
    );
    // A zero actual value has no relative error.
    let mut zero = test.runs[0].clone();
    zero.no_work = 0.0;
    assert_eq!(
        model::report(&m, &[zero]).unwrap().rows[0].errors.no_work,
        None
    );
}

/// Issue: training at p ∈ {1, 2} cannot separate (p−1) from (p−1)/p (at p = 2 the second is
/// half the first); the basis order chose. The model names the pair, the file keeps it, and
/// a prediction beyond the trained workers says by what factor the choice matters. Trained
/// at p = 1..8 the terms separate and nothing is said.
#[test]
fn p_terms_two_worker_counts_cannot_separate_are_named_and_warned() {
    let two = Truth::paper().runs(&sizes(), &[1.0, 2.0], 1, 0.03, 21);
    let m = model::train(&two, &options(21, 0)).unwrap();
    let ct = m
        .delay
        .confounded
        .iter()
        .find(|c| c.term == Feature::CtFracP)
        .expect("ct·(p−1)/p is confounded at p ∈ {1, 2}");
    assert_eq!(ct.stands_in, Feature::CtP);
    assert!((ct.ratio - 0.5).abs() < 1e-9, "{}", ct.ratio);
    // At p = 2 the two give the same; at p = 36 (p−1) is 35 where (p−1)/p·2 is 1.94.
    let x = model::Inputs {
        n: 1000.0,
        p: 36.0,
        create_task: 10.0,
        ..model::Inputs::default()
    };
    assert!((ct.factor(&x) - 18.0).abs() < 1e-9, "{}", ct.factor(&x));
    assert!((ct.factor(&model::Inputs { p: 2.0, ..x }) - 1.0).abs() < 1e-12);
    // The model text names every confounded pair; the file keeps them.
    let text = model::model_text(&m);
    assert!(
        text.contains("delay: in every training run ct*(p-1)/p = 0.5 × ct*(p-1)"),
        "{text}"
    );
    let back = model::from_json(&model::to_json(&m)).unwrap();
    assert_eq!(back.delay.confounded, m.delay.confounded);
    // Inside the trained workers nothing is said; beyond them every confound whose kept
    // term is in the fit is, with its factor.
    let inside = model::predict(&m, 4096.0, 2.0).unwrap();
    assert!(
        !inside.warnings.iter().any(|w| w.contains("could not tell")),
        "{:?}",
        inside.warnings
    );
    let beyond = model::predict(&m, 4096.0, 36.0).unwrap();
    let said: Vec<&String> = beyond
        .warnings
        .iter()
        .filter(|w| w.contains("could not tell"))
        .collect();
    assert!(!said.is_empty(), "{:?}", beyond.warnings);
    for (name, sub) in m.sub_models() {
        for c in &sub.confounded {
            let selected = sub.selected().iter().any(|(f, _)| *f == c.stands_in);
            let named = said
                .iter()
                .any(|w| w.starts_with(&format!("{name}: ")) && w.contains(&*c.term.name()));
            if !selected {
                assert!(!named, "{name}: {} is not in the fit", c.stands_in.name());
            }
        }
    }
    // Trained at p = 1..8, the p-terms separate: no confound involves p, and no warning.
    let eight = Truth::paper().runs(&sizes(), &workers(), 1, 0.03, 21);
    let m8 = model::train(&eight, &options(21, 0)).unwrap();
    for (name, sub) in m8.sub_models() {
        for c in &sub.confounded {
            let x1 = model::Inputs {
                n: 1000.0,
                p: 36.0,
                create_task: 10.0,
                wait_tasks: 10.0,
                serial: 1.0,
                span: 1.0,
            };
            assert!(
                (c.factor(&x1) - 1.0).abs() < 1e-9,
                "{name}: {} and {} separate at p = 1..8",
                c.term.name(),
                c.stands_in.name()
            );
        }
    }
    let p36 = model::predict(&m8, 4096.0, 36.0).unwrap();
    assert!(
        !p36.warnings.iter().any(|w| w.contains("could not tell")),
        "{:?}",
        p36.warnings
    );
}
