//! The reader of Table 2-2's subset: both forms, located errors of every kind with their
//! fixes, the limits, and random input that never panics.

use super::platform::driver::sources;
use super::platform::{Job, Opt, Point};
use super::*;
use proptest::prelude::*;

fn err(text: &str) -> SourceError {
    analyse_text("frag.f", text).expect_err("should fail")
}

fn err_in(text: &str, form: Form, limits: &Limits) -> SourceError {
    analyse("frag.f", text, form, limits).expect_err("should fail")
}

#[test]
fn fixed_and_free_forms_count_alike() {
    let fixed = super::fragments::D;
    let free = "DO I = 1, N\n  X(I) = U(I) + (R * (Z(I) + (R * Y(I)))) + &\n    (T * (U(I+3) + (R * (U(I+2) + (R * U(I+1)))))) + & ! the second term\n    &(T * (U(I+6) + (R * (U(I+5) + (R * U(I+4))))))\nENDDO\n";
    assert_eq!(Form::guess(fixed.text), Form::Fixed);
    assert_eq!(Form::guess(free), Form::Free);
    let a = analyse("D", fixed.text, Form::Fixed, &Limits::default()).unwrap();
    let b = analyse("D", free, Form::Free, &Limits::default()).unwrap();
    assert_eq!(a.counts, b.counts);
    // The thesis' column-6 continuation read leniently as free form gives the same.
    let c = analyse("D", fixed.text, Form::Free, &Limits::default()).unwrap();
    assert_eq!(a.counts, c.counts);
    // Comments, lower case, a label on CONTINUE, blank lines.
    let d = analyse_text(
        "d",
        "C     Fragment B\n      q = 0.0\n\n      do 20 i = 1, n\n        q = q + (z(i)*x(i))\n   20 continue\n",
    )
    .unwrap();
    assert_eq!(
        d.counts.at(&[("N".into(), 5.0)]).unwrap(),
        [5., 0., 0., 0., 0., 10., 0., 5., 5.]
    );
}

#[test]
fn printing_reads_back_to_the_same_counts() {
    for src in super::fragments::THESIS {
        let f = analyse_text(src.name, src.text).unwrap();
        let text = f.program.to_fortran(0);
        let g = analyse("again", &text, Form::Free, &Limits::default()).unwrap();
        assert_eq!(f.counts, g.counts, "fragment {}:\n{text}", src.name);
    }
}

#[test]
fn shared_labelled_termination_closes_both_loops() {
    let f = analyse_text(
        "nest",
        "      DO 10 I = 1, N\n      DO 10 J = 1, M\n      A(I, J) = B(J, I) * C\n   10 CONTINUE\n",
    )
    .unwrap();
    let c = f
        .counts
        .at(&[("N".into(), 3.0), ("M".into(), 4.0)])
        .unwrap();
    assert_eq!(c, [15., 0., 0., 0., 0., 12., 12., 0., 12.]);
}

#[test]
fn each_error_is_located_with_a_fix() {
    let cases: [(&str, SourceErrorKind, (usize, usize), &str); 14] = [
        (
            "IF (K) X = 1.0\n",
            SourceErrorKind::Unsupported,
            (1, 1),
            "IF is not",
        ),
        (
            "X(I) = Y(I) ** 2\n",
            SourceErrorKind::Unsupported,
            (1, 13),
            "**",
        ),
        (
            "DO I = 1, N\n  X(I) = 1.0\n",
            SourceErrorKind::Unclosed,
            (1, 1),
            "has no END DO",
        ),
        (
            "X(1) = 1.0\nEND DO\n",
            SourceErrorKind::Unclosed,
            (2, 1),
            "without a DO",
        ),
        (
            "IF (X .GT. 0) Y = 1\n",
            SourceErrorKind::Unsupported,
            (1, 7),
            "relational",
        ),
        (
            "CALL FOO(X)\n",
            SourceErrorKind::Unsupported,
            (1, 1),
            "CALL is not",
        ),
        (
            "Y = SQRT(X)\n",
            SourceErrorKind::Unsupported,
            (1, 5),
            "SQRT",
        ),
        (
            "DO I = 1, N, 2\nEND DO\n",
            SourceErrorKind::Unsupported,
            (1, 12),
            "step",
        ),
        (
            "DO X = 1, N\nEND DO\n",
            SourceErrorKind::Name,
            (1, 1),
            "REAL",
        ),
        (
            "X(I) = 1.0\nY = X + 1.0\n",
            SourceErrorKind::Name,
            (2, 5),
            "at 1:1",
        ),
        (
            "M = 5\nDO I = 1, M\n  X(I) = 0.0\nEND DO\n",
            SourceErrorKind::Name,
            (2, 11),
            "assigns",
        ),
        (
            "X(I) = (Y(I) + 1.0\n",
            SourceErrorKind::Syntax,
            (1, 18),
            "`)`",
        ),
        (
            "X(I) = Y(I) +* 2.0\n",
            SourceErrorKind::Syntax,
            (1, 14),
            "expected a name",
        ),
        ("X = 1.0 $\n", SourceErrorKind::Syntax, (1, 9), "'$'"),
    ];
    for (text, kind, at, words) in cases {
        let e = err(text);
        assert_eq!(e.kind, kind, "{text:?}: {e}");
        assert_eq!(e.line_col(), Some(at), "{text:?}: {e}");
        assert!(e.message.contains(words), "{text:?}: {e}");
        assert!(e
            .message
            .starts_with(&format!("frag.f:{}:{}: ", at.0, at.1)));
        assert!(e.help.as_deref().is_some_and(|h| !h.is_empty()), "{text:?}");
        let d: &dyn miette::Diagnostic = &e;
        assert!(d.labels().is_some() && d.help().is_some());
    }
}

#[test]
fn fixed_form_columns_are_checked() {
    let l = Limits::default();
    // A statement starting in column 3.
    let e = err_in("  X = 1.0\n", Form::Fixed, &l);
    assert_eq!(
        (e.kind, e.line_col()),
        (SourceErrorKind::Syntax, Some((1, 3)))
    );
    assert!(e.help.unwrap().contains("Form::Free"));
    // Text past column 72.
    let long = format!("      X = {}\n", "1.0 + ".repeat(12));
    let e = err_in(&long, Form::Fixed, &l);
    assert_eq!(
        (e.kind, e.line_col()),
        (SourceErrorKind::Syntax, Some((1, 73)))
    );
    // An error on a continuation line points at that line.
    let e = err_in("      X(I) = Y(I) +\n     &   $ Z(I)\n", Form::Fixed, &l);
    assert_eq!(e.line_col(), Some((2, 10)), "{e}");
}

#[test]
fn every_limit_names_itself() {
    let small = Limits {
        max_bytes: 200,
        max_statements: 3,
        max_statement_bytes: 40,
        max_loop_depth: 2,
        max_expr_depth: 4,
    };
    let cases = [
        ("X = 1.0\n".repeat(30), "max_bytes"),
        ("X = 1.0\n".repeat(4), "max_statements"),
        (
            format!("X = {}\n", "Y + ".repeat(12) + "1.0"),
            "max_statement_bytes",
        ),
        ("DO I=1,N\nDO J=1,N\nDO K=1,N\n".into(), "max_loop_depth"),
        ("X = ((((Y))))\n".into(), "max_expr_depth"),
    ];
    for (text, limit) in cases {
        let e = err_in(&text, Form::Free, &small);
        assert_eq!(e.kind, SourceErrorKind::Limit, "{limit}: {e}");
        assert!(e.message.contains(limit), "{limit}: {e}");
    }
    // Deep nesting under the default limits is refused, not overflowed.
    let deep = format!("X = {}Y{}\n", "(".repeat(100_000), ")".repeat(100_000));
    assert!(err_in(&deep, Form::Free, &Limits::default())
        .message
        .contains("max_statement_bytes"));
    let deep = format!("X = {}Y{}\n", "(".repeat(1000), ")".repeat(1000));
    assert!(err_in(&deep, Form::Free, &Limits::default())
        .message
        .contains("max_expr_depth"));
}

fn fortranish() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("DO I = 1, N\n".to_string()),
        Just("DO 10 J = I, N - 1\n".to_string()),
        Just("END DO\n".to_string()),
        Just("10 CONTINUE\n".to_string()),
        Just("X(I) = Y(I+1) * (Z(J) - 2.5E1)\n".to_string()),
        Just("K = N - I + 1\n".to_string()),
        Just("B(K) = T(K) + S * U(K)\n".to_string()),
        Just("     & + Q\n".to_string()),
        Just("C comment\n".to_string()),
        Just("INTEGER A\n".to_string()),
        "[A-Z0-9()+*/=, .&!\n-]{0,30}",
        any::<String>(),
    ];
    proptest::collection::vec(piece, 0..12).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Random text never panics the reader, the counts, the printer or the driver's layout.
    #[test]
    fn random_input_never_panics(text in fortranish(), fixed in any::<bool>()) {
        let form = if fixed { Form::Fixed } else { Form::Free };
        if let Ok(f) = analyse("p", &text, form, &Limits::default()) {
            let _ = f.program.to_fortran(2);
            let kernels = [f];
            let points = [Point { kernel: 0, n: 10 }];
            let _ = sources(&Job { kernels: &kernels, points: &points, opt: Opt::O0, samples: 1, min_sample_seconds: 0.0 });
        }
        let _ = Form::guess(&text);
    }
}
