//! The text printer: readable shapes, and a round trip through a small test-only parser
//! showing that the printed precedence and parentheses preserve the value.

use expr::eval::{eval_exact, EvalLimits};
use expr::number::parse_rational;
use expr::print::{to_json, to_latex};
use expr::{CmpOp, Cond, Expr, FoldOp, Name, Rational};
use proptest::prelude::*;
use proptest::strategy::Union;
use std::collections::BTreeMap;

mod common;
use common::{cmp_of, fold_of, i, nary, rounding_and_extrema, v};

// ---------------------------------------------------------------------------------------
// A parser for the printed form (tests only).

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Num(String),
    Ident(String),
    Sym(&'static str),
}

fn lex(s: &str) -> Vec<Tok> {
    const SYMS: [&str; 16] = [
        "..", "==", "!=", "<=", ">=", "<", ">", "+", "-", "*", "/", "^", "(", ")", ",", "=",
    ];
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    'outer: while i < b.len() {
        let c = b[i] as char;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if c.is_ascii_digit() {
            let start = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            if i + 1 < b.len() && b[i] == b'.' && b[i + 1].is_ascii_digit() {
                i += 1;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
            }
            out.push(Tok::Num(s[start..i].to_string()));
            continue;
        }
        if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < b.len() && ((b[i] as char).is_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(Tok::Ident(s[start..i].to_string()));
            continue;
        }
        for sym in SYMS {
            if s[i..].starts_with(sym) {
                out.push(Tok::Sym(sym));
                i += sym.len();
                continue 'outer;
            }
        }
        panic!("unexpected character {c:?} in {s:?}");
    }
    out
}

struct Parser {
    toks: Vec<Tok>,
    pos: usize,
}

type PResult<T> = Result<T, String>;

/// The only item of `v`, or `node(v)` when there are several.
fn one_or<T>(mut v: Vec<T>, node: fn(Vec<T>) -> T) -> T {
    if v.len() == 1 {
        v.pop().unwrap()
    } else {
        node(v)
    }
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }
    fn peek_at(&self, k: usize) -> Option<&Tok> {
        self.toks.get(self.pos + k)
    }
    /// Consumes the next token if `wanted` accepts it.
    fn eat(&mut self, wanted: impl FnOnce(&Tok) -> bool) -> bool {
        let hit = self.peek().is_some_and(wanted);
        if hit {
            self.pos += 1;
        }
        hit
    }
    fn eat_sym(&mut self, s: &str) -> bool {
        self.eat(|t| matches!(t, Tok::Sym(x) if *x == s))
    }
    fn eat_ident(&mut self, s: &str) -> bool {
        self.eat(|t| matches!(t, Tok::Ident(x) if x == s))
    }
    fn expect(&mut self, s: &str) -> PResult<()> {
        if self.eat_sym(s) {
            Ok(())
        } else {
            Err(format!("expected {s} at {:?}", self.peek()))
        }
    }

    /// expr := sum ['mod' sum]
    fn expr(&mut self) -> PResult<Expr> {
        let a = self.sum()?;
        if self.eat_ident("mod") {
            let b = self.sum()?;
            return Ok(Expr::Mod(Box::new(a), Box::new(b)));
        }
        Ok(a)
    }

    /// sum := neg (('+' neg) | ('-' product))*
    fn sum(&mut self) -> PResult<Expr> {
        let mut terms = vec![self.neg()?];
        loop {
            if self.eat_sym("+") {
                terms.push(self.neg()?);
            } else if self.eat_sym("-") {
                terms.push(-self.product()?);
            } else {
                break;
            }
        }
        Ok(one_or(terms, Expr::Add))
    }

    fn neg(&mut self) -> PResult<Expr> {
        if self.eat_sym("-") {
            Ok(-self.product()?)
        } else {
            self.product()
        }
    }

    fn product(&mut self) -> PResult<Expr> {
        let mut acc = self.power()?;
        loop {
            if self.eat_sym("*") {
                acc = Expr::Mul(vec![acc, self.power()?]);
            } else if self.eat_sym("/") {
                acc = Expr::div(acc, self.power()?);
            } else {
                return Ok(acc);
            }
        }
    }

    fn power(&mut self) -> PResult<Expr> {
        let base = self.primary()?;
        if self.eat_sym("^") {
            match self.peek().cloned() {
                Some(Tok::Num(n)) => {
                    self.pos += 1;
                    let k: i32 = n.parse().map_err(|_| format!("bad exponent {n}"))?;
                    return Ok(Expr::Pow(Box::new(base), k));
                }
                t => return Err(format!("expected exponent, got {t:?}")),
            }
        }
        Ok(base)
    }

    fn args(&mut self) -> PResult<Vec<Expr>> {
        let mut v = vec![self.expr()?];
        while self.eat_sym(",") {
            v.push(self.expr()?);
        }
        self.expect(")")?;
        Ok(v)
    }

    /// `N` comma-separated expressions and the closing `)`.
    fn last_args<const N: usize>(&mut self) -> PResult<[Expr; N]> {
        let v = self.args()?;
        let n = v.len();
        v.try_into()
            .map_err(|_| format!("expected {N} arguments, got {n}"))
    }

    fn primary(&mut self) -> PResult<Expr> {
        match self.peek().cloned() {
            Some(Tok::Num(n)) => {
                self.pos += 1;
                Ok(Expr::Num(parse_rational(&n).map_err(|e| e.to_string())?))
            }
            Some(Tok::Sym("(")) => {
                self.pos += 1;
                let e = self.expr()?;
                self.expect(")")?;
                Ok(e)
            }
            Some(Tok::Ident(name)) => {
                self.pos += 1;
                if !self.eat_sym("(") {
                    return Ok(Expr::var(&name));
                }
                let is_fold = matches!(self.peek(), Some(Tok::Ident(_)))
                    && matches!(self.peek_at(1), Some(Tok::Sym("=")));
                let op = match name.as_str() {
                    "sum" => Some(FoldOp::Sum),
                    "max" => Some(FoldOp::Max),
                    "min" => Some(FoldOp::Min),
                    _ => None,
                };
                if let (true, Some(op)) = (is_fold, op) {
                    let Some(Tok::Ident(var)) = self.peek().cloned() else {
                        unreachable!()
                    };
                    self.pos += 2;
                    let lo = self.expr()?;
                    self.expect("..")?;
                    let [hi, body] = self.last_args()?;
                    return Ok(Expr::fold(op, &var, lo, hi, body));
                }
                if name == "if" {
                    let c = self.cond()?;
                    self.expect(",")?;
                    let [a, b] = self.last_args()?;
                    return Ok(Expr::ite(c, a, b));
                }
                let mut a = self.args()?;
                let one = |a: &mut Vec<Expr>| -> PResult<Box<Expr>> {
                    if a.len() == 1 {
                        Ok(Box::new(a.pop().unwrap()))
                    } else {
                        Err(format!("{name} takes one argument"))
                    }
                };
                Ok(match name.as_str() {
                    "max" => Expr::Max(a),
                    "min" => Expr::Min(a),
                    "floor" => Expr::Floor(one(&mut a)?),
                    "ceil" => Expr::Ceil(one(&mut a)?),
                    "log" => Expr::Log(one(&mut a)?),
                    "gcd" if a.len() == 2 => {
                        let b = a.pop().unwrap();
                        Expr::Gcd(Box::new(a.pop().unwrap()), Box::new(b))
                    }
                    _ => return Err(format!("unknown function {name}")),
                })
            }
            t => Err(format!("unexpected {t:?}")),
        }
    }

    /// `item (word item)*`, the items joined by `node`.
    fn joined(
        &mut self,
        word: &str,
        item: fn(&mut Self) -> PResult<Cond>,
        node: fn(Vec<Cond>) -> Cond,
    ) -> PResult<Cond> {
        let mut v = vec![item(self)?];
        while self.eat_ident(word) {
            v.push(item(self)?);
        }
        Ok(one_or(v, node))
    }

    fn cond(&mut self) -> PResult<Cond> {
        self.joined("or", Self::and_cond, Cond::Or)
    }

    fn and_cond(&mut self) -> PResult<Cond> {
        self.joined("and", Self::not_cond, Cond::And)
    }

    fn not_cond(&mut self) -> PResult<Cond> {
        if self.eat_ident("not") {
            return Ok(Cond::Not(Box::new(self.not_cond()?)));
        }
        if self.eat_ident("true") {
            return Ok(Cond::Const(true));
        }
        if self.eat_ident("false") {
            return Ok(Cond::Const(false));
        }
        if matches!(self.peek(), Some(Tok::Ident(x)) if x == "prob")
            && matches!(self.peek_at(1), Some(Tok::Sym("(")))
        {
            self.pos += 2;
            let p = self.expr()?;
            self.expect(")")?;
            return Ok(Cond::Prob(p));
        }
        // Either a comparison or a parenthesized condition: try the comparison first.
        let save = self.pos;
        if let Ok(c) = self.comparison() {
            return Ok(c);
        }
        self.pos = save;
        self.expect("(")?;
        let c = self.cond()?;
        self.expect(")")?;
        Ok(c)
    }

    fn comparison(&mut self) -> PResult<Cond> {
        let a = self.expr()?;
        let op = match self.peek() {
            Some(Tok::Sym("==")) => CmpOp::Eq,
            Some(Tok::Sym("!=")) => CmpOp::Ne,
            Some(Tok::Sym("<")) => CmpOp::Lt,
            Some(Tok::Sym("<=")) => CmpOp::Le,
            Some(Tok::Sym(">")) => CmpOp::Gt,
            Some(Tok::Sym(">=")) => CmpOp::Ge,
            t => return Err(format!("expected comparison, got {t:?}")),
        };
        self.pos += 1;
        let b = self.expr()?;
        Ok(Cond::cmp(op, a, b))
    }
}

fn parse(s: &str) -> PResult<Expr> {
    let mut p = Parser {
        toks: lex(s),
        pos: 0,
    };
    let e = p.expr()?;
    if p.pos != p.toks.len() {
        return Err(format!("trailing input at {:?}", p.peek()));
    }
    Ok(e)
}

// ---------------------------------------------------------------------------------------

#[test]
fn paper_shapes_print_as_written() {
    let cases: Vec<(Expr, &str)> = vec![
        (
            v("N") * Expr::max(vec![v("P") * v("tau_s"), v("tau_l") + v("tau_s")]),
            "N*max(P*tau_s, tau_l + tau_s)",
        ),
        (
            Expr::Mul(vec![
                v("N") - i(2),
                v("N"),
                v("tau_u"),
                Expr::Pow(Box::new(v("P")), -1),
            ]),
            "(N - 2)*N*tau_u/P",
        ),
        (
            Expr::Add(vec![
                Expr::Mul(vec![v("N"), v("tau")]),
                Expr::Mul(vec![i(-1), v("P"), v("tau_s")]),
            ]),
            "N*tau - P*tau_s",
        ),
        (
            Expr::Add(vec![
                Expr::Mul(vec![i(-2), v("a")]),
                Expr::Mul(vec![i(-3), v("b")]),
            ]),
            "-2*a - 3*b",
        ),
        (
            Expr::div(v("a"), Expr::div(v("b"), v("c") + i(1))),
            "a/(b/(c + 1))",
        ),
        (
            Expr::Mul(vec![Expr::ratio(3, 4), v("x")]) + Expr::Mul(vec![Expr::ratio(2, 3), v("y")]),
            "0.75*x + 2/3*y",
        ),
        (
            Expr::sum_over("i", i(1), v("N"), v("i") * v("tau")),
            "sum(i = 1..N, i*tau)",
        ),
        (
            Expr::max_over(
                "p",
                i(0),
                v("P") - i(1),
                Expr::Floor(Box::new(v("N") / v("P"))),
            ),
            "max(p = 0..P - 1, floor(N/P))",
        ),
        (
            Expr::ite(
                Cond::And(vec![
                    Cond::cmp(
                        CmpOp::Eq,
                        Expr::Mod(Box::new(v("i")), Box::new(v("P"))),
                        i(0),
                    ),
                    Cond::Prob(Expr::ratio(3, 10)),
                ]),
                v("tau"),
                i(0),
            ),
            "if(i mod P == 0 and prob(0.3), tau, 0)",
        ),
        (Expr::Num(parse_rational("0.900072").unwrap()), "0.900072"),
        (Expr::int(-42), "-42"),
        (
            Expr::Pow(Box::new(v("x") - i(1)), 2) - Expr::Pow(Box::new(v("x")), 2),
            "(x - 1)^2 - x^2",
        ),
    ];
    for (e, want) in cases {
        assert_eq!(e.to_string(), want);
        // And the text reads back to the same value.
        let back = parse(want).unwrap();
        let env: BTreeMap<Name, Rational> = [
            "N", "P", "tau", "tau_s", "tau_l", "tau_u", "a", "b", "c", "x", "y", "i",
        ]
        .iter()
        .enumerate()
        .map(|(k, n)| {
            (
                Name::from(*n),
                Rational::new((k as i64 + 2).into(), 3.into()),
            )
        })
        .collect();
        let l = EvalLimits::default();
        assert_eq!(
            eval_exact(&e, &env, &l),
            eval_exact(&back, &env, &l),
            "{want}"
        );
    }
}

#[test]
fn latex_and_json() {
    let e = v("N") * Expr::max(vec![v("P") * v("tau_s"), v("tau_l") + v("tau_s")]);
    let j = to_json(&e, Some(42.0));
    assert_eq!(
        j,
        serde_json::json!({
            "expr": "N*max(P*tau_s, tau_l + tau_s)",
            "latex": r"N \max\left(P \tau_{s}, \tau_{l} + \tau_{s}\right)",
            "value": 42.0
        })
    );
    let s = Expr::sum_over("i", i(1), v("N"), Expr::div(v("i"), v("P")));
    assert_eq!(to_latex(&s), r"\sum_{i=1}^{N} \frac{i}{P}");
    let c = Expr::Ceil(Box::new(v("x") - v("delta")));
    assert_eq!(to_latex(&c), r"\left\lceil x - \delta \right\rceil");
    let ite = Expr::ite(Cond::cmp(CmpOp::Le, v("x"), i(1)), i(0), v("phi"));
    assert_eq!(
        to_latex(&ite),
        r"\begin{cases} 0 & \text{if } x \le 1 \\ \phi & \text{otherwise} \end{cases}"
    );
}

// ---------------------------------------------------------------------------------------
// Round trip of random expressions.

const NAMES: [&str; 4] = ["x", "y", "i", "j"];

fn leaf() -> BoxedStrategy<Expr> {
    prop_oneof![
        (-9i64..=9, prop::sample::select(vec![1i64, 2, 3, 4])).prop_map(|(n, d)| Expr::ratio(n, d)),
        prop::sample::select(NAMES.to_vec()).prop_map(Expr::var),
    ]
    .boxed()
}

fn expr_strategy() -> BoxedStrategy<Expr> {
    leaf()
        .prop_recursive(5, 64, 3, |inner| {
            let atom = prop_oneof![
                cmp_of(&inner),
                inner.clone().prop_map(Cond::Prob),
                any::<bool>().prop_map(Cond::Const),
            ]
            .boxed();
            let cond = prop_oneof![
                atom.clone(),
                prop::collection::vec(atom.clone(), 0..=3).prop_map(Cond::And),
                prop::collection::vec(atom.clone(), 0..=3).prop_map(Cond::Or),
                atom.clone().prop_map(|c| Cond::Not(Box::new(c))),
                (atom.clone(), atom.clone(), atom.clone()).prop_map(|(a, b, c)| Cond::Or(vec![
                    Cond::And(vec![a, b]),
                    Cond::Not(Box::new(Cond::Or(vec![c])))
                ])),
                (atom.clone(), atom.clone(), atom)
                    .prop_map(|(a, b, c)| Cond::And(vec![Cond::Or(vec![a, b]), c])),
            ];
            let pow = prop::sample::select(vec![-3i32, -2, -1, 0, 1, 2, 3]);
            let mut options: Vec<BoxedStrategy<Expr>> = vec![
                nary(&inner, 0..=3, Expr::Add),
                nary(&inner, 0..=3, Expr::Mul),
                // Products with leading coefficients and divisions, as the simplifier makes.
                (
                    leaf(),
                    prop::collection::vec((inner.clone(), pow.clone()), 1..=3),
                )
                    .prop_map(|(c, fs)| {
                        let mut v = vec![c];
                        v.extend(fs.into_iter().map(|(f, k)| {
                            if k == 1 {
                                f
                            } else {
                                Expr::Pow(Box::new(f), k)
                            }
                        }));
                        Expr::Mul(v)
                    })
                    .boxed(),
                (inner.clone(), inner.clone())
                    .prop_map(|(a, b)| a - b)
                    .boxed(),
                inner.clone().prop_map(|a| -a).boxed(),
                (inner.clone(), pow)
                    .prop_map(|(a, k)| Expr::Pow(Box::new(a), k))
                    .boxed(),
            ];
            options.extend(rounding_and_extrema(&inner));
            options.extend([
                inner.clone().prop_map(|a| Expr::Log(Box::new(a))).boxed(),
                fold_of(&inner),
                (cond, inner.clone(), inner)
                    .prop_map(|(c, a, b)| Expr::ite(c, a, b))
                    .boxed(),
            ]);
            Union::new(options)
        })
        .boxed()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// Printing then parsing gives an expression with the same exact value (or an error
    /// again) at a random point.
    #[test]
    fn printed_text_reads_back_to_the_same_value(
        e in expr_strategy(),
        vals in prop::collection::vec((-12i64..=12, 1i64..=3), NAMES.len()),
    ) {
        let text = e.to_string();
        let back = parse(&text);
        prop_assert!(back.is_ok(), "`{}` does not parse: {:?}", text, back);
        let back = back.unwrap();
        let env: BTreeMap<Name, Rational> = NAMES
            .iter()
            .zip(&vals)
            .map(|(n, (a, b))| (Name::from(*n), Rational::new((*a).into(), (*b).into())))
            .collect();
        let limits = EvalLimits::with_fold_iterations(10_000);
        let want = eval_exact(&e, &env, &limits);
        let got = eval_exact(&back, &env, &limits);
        match (&want, &got) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a, b, "`{}`", text),
            // With several faults in one product, which is met first may change when the
            // printed `a/(b*c)` reads back as a differently nested tree: any error will do.
            (Err(_), Err(_)) => {}
            _ => prop_assert!(false, "`{}`: {:?} vs {:?}", text, want, got),
        }
        // Printing is stable: the re-parsed tree prints the same value again.
        let again = back.to_string();
        prop_assert!(parse(&again).is_ok(), "`{}` reprinted as `{}`", text, again);
    }
}
