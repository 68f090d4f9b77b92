//! Models are `expr::Expr`: `Model::to_expr` and the report's parseable `expr` text evaluate
//! (compiled and by `expr::parse`) to the model's own values.

use expr::compile::Compiled;
use expr::Name;
use fit::pmnf::{Exponent, Factor, Term};
use fit::report::model_expr;
use fit::{Basis, Model, ModelTerm};

fn model() -> Model {
    Model {
        constant: 2.8183276094059617,
        terms: vec![
            ModelTerm {
                coefficient: 0.48270031135124886,
                basis: Basis::Pmnf(vec![Factor {
                    param: 0,
                    term: Term::new(5, 4, 1),
                }]),
            },
            ModelTerm {
                coefficient: -0.0023995429449610722,
                basis: Basis::Pmnf(vec![
                    Factor {
                        param: 0,
                        term: Term {
                            poly: Exponent::new(3, 2),
                            log: Exponent::int(2),
                        },
                    },
                    Factor {
                        param: 1,
                        term: Term {
                            poly: Exponent::new(7, 3),
                            log: Exponent::new(1, 2),
                        },
                    },
                ]),
            },
        ],
    }
}

#[test]
fn to_expr_and_the_expr_text_evaluate_to_the_model() {
    let names = ["p".to_string(), "n".to_string()];
    let m = model();
    let slots: Vec<Name> = names.iter().map(|n| Name::from(n.as_str())).collect();
    let compiled = Compiled::new(&m.to_expr(&names), &slots).unwrap();
    let parsed = expr::parse(&model_expr(&m, &names)).unwrap();
    let reparsed = Compiled::new(&parsed, &slots).unwrap();
    for point in [[2.0, 3.0], [64.0, 1000.0], [1024.0, 7.5]] {
        let want = m.eval(&point);
        for got in [
            compiled.eval(&point).unwrap(),
            reparsed.eval(&point).unwrap(),
        ] {
            assert!(
                (got - want).abs() <= 1e-12 * want.abs(),
                "{got} vs {want} at {point:?}"
            );
        }
    }
}
