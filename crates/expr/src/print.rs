//! Rendering expressions as text ([`std::fmt::Display`]), LaTeX ([`to_latex`]) and JSON
//! ([`ExprJson`], [`to_json`]).
//!
//! The text form uses the fewest parentheses that keep the usual precedence unambiguous:
//! `^` binds tighter than `*` and `/` (left-associative), which bind tighter than unary `-`,
//! which binds tighter than `+`/`-` and `mod`. A `mod` is parenthesized inside sums and
//! products and takes atoms or powers as operands: `(i + 1) mod P`, `(i mod P)*x`.
//! Real powers are written `b^e` with a non-atomic base or exponent parenthesized and a
//! constant fractional exponent as a fraction (`x^(3/2)`, `2^x`, `(x + 1)^log2(7)`).
//! Functions are written as calls: `max(a, b)`, `floor(x)`, `gcd(a, b)`, `log(x)` (natural),
//! `log2(x)` (binary),
//! `sum(i = 1..N, body)`, `if(cond, a, b)`. Conditions use `==`, `!=`, `<`, `<=`, `>`, `>=`,
//! `and` (binding tighter than `or`), `not (…)` and `prob(p)`.
//!
//! ```
//! use expr::Expr;
//! let e = Expr::var("N")
//!     * Expr::max(vec![
//!         Expr::var("P") * Expr::var("tau_s"),
//!         Expr::var("tau_l") + Expr::var("tau_s"),
//!     ]);
//! assert_eq!(e.to_string(), "N*max(P*tau_s, tau_l + tau_s)");
//! assert_eq!(
//!     expr::print::to_latex(&e),
//!     r"N \max\left(P \tau_{s}, \tau_{l} + \tau_{s}\right)"
//! );
//! ```

use crate::node::{CmpOp, Cond, Expr, FoldOp, Rational};
use crate::number::format_rational;
use num_traits::{One, Signed};
use std::fmt::{self, Display, Write};

/// Binding strength of a rendered expression; a child weaker than its context is
/// parenthesized.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Prec {
    /// Anywhere (top level, function arguments).
    Top,
    /// `a + b`, `a - b`, `a mod b`.
    Sum,
    /// `-a`.
    Neg,
    /// `a*b`, `a/b`.
    Product,
    /// `a^k`.
    Power,
    /// Names, non-negative integers and decimals, calls.
    Atom,
}

/// A non-integer constant exponent as the fraction `p/q` (`-1/2`): `x^(3/2)` reads better
/// than `x^1.5`.
fn fraction(r: &Rational) -> Option<String> {
    (!r.is_integer()).then(|| format!("{}/{}", r.numer(), r.denom()))
}

/// Whether the decimal or integer text of `r` needs no parentheses (it is not `p/q`).
fn is_plain_number(r: &Rational) -> bool {
    !format_rational(r).contains('/')
}

/// The order terms of a sum are written in: positive terms first, then subtracted ones,
/// then the constant, so `-2 + N` reads `N - 2` (the canonical tree order is kept otherwise).
fn display_order(v: &[Expr]) -> Vec<&Expr> {
    let mut out: Vec<&Expr> = v.iter().collect();
    out.sort_by_key(|t| (matches!(t, Expr::Num(_)), is_negative(t)));
    out
}

/// Whether the expression prints with a leading minus sign (as a term of a sum it is then
/// written as a subtraction).
fn is_negative(e: &Expr) -> bool {
    match e {
        Expr::Num(r) => r.is_negative(),
        Expr::Mul(v) if v.len() == 1 => is_negative(&v[0]),
        Expr::Mul(v) if v.len() > 1 => matches!(&v[0], Expr::Num(r) if r.is_negative()),
        Expr::Add(v) if v.len() == 1 => is_negative(&v[0]),
        _ => false,
    }
}

/// The precedence of `e` (of `-e` when `neg`) as rendered.
fn prec(e: &Expr, neg: bool) -> Prec {
    match e {
        Expr::Num(r) => {
            let negative = r.is_negative() != neg && !num_traits::Zero::is_zero(r);
            if negative {
                Prec::Neg
            } else if is_plain_number(r) {
                Prec::Atom
            } else {
                Prec::Product
            }
        }
        Expr::Add(v) | Expr::Mul(v) if v.len() == 1 => prec(&v[0], neg),
        Expr::Mul(v) if v.len() > 1 => {
            let coef_negative = matches!(&v[0], Expr::Num(r) if r.is_negative());
            if coef_negative != neg {
                Prec::Neg
            } else {
                Prec::Product
            }
        }
        _ if neg => Prec::Neg,
        Expr::Add(v) if v.len() > 1 => Prec::Sum,
        Expr::Pow(_, k) if *k < 0 => Prec::Product,
        Expr::Pow(..) | Expr::Power(..) => Prec::Power,
        Expr::Mod(..) => Prec::Sum,
        _ => Prec::Atom,
    }
}

/// A product split into sign, coefficient, numerator and denominator factors.
struct MulParts<'a> {
    negative: bool,
    /// The absolute value of a leading numeric factor, if any.
    coef: Option<Rational>,
    num: Vec<&'a Expr>,
    /// Denominator factors with their (positive) powers.
    den: Vec<(&'a Expr, i32)>,
}

fn split_mul(v: &[Expr], neg: bool) -> MulParts<'_> {
    let mut negative = neg;
    let mut coef = None;
    let mut rest = v;
    if let Some(Expr::Num(r)) = v.first() {
        if r.is_negative() {
            negative = !negative;
        }
        coef = Some(r.abs());
        rest = &v[1..];
    }
    let mut num = Vec::new();
    let mut den = Vec::new();
    for f in rest {
        match f {
            Expr::Pow(b, k) if *k < 0 => den.push((&**b, k.checked_neg().unwrap_or(i32::MAX))),
            _ => num.push(f),
        }
    }
    MulParts {
        negative,
        coef,
        num,
        den,
    }
}

fn cmp_prec(c: &Cond) -> u8 {
    match c {
        Cond::Or(v) if v.len() > 1 => 1,
        Cond::And(v) if v.len() > 1 => 2,
        _ => 3,
    }
}

/// The condition printed for `c` (an `and`/`or` of one operand prints as that operand) and
/// whether it needs parentheses in context `ctx`: 0 (anywhere), 1 (operand of `or`), 2
/// (operand of `and`), 3 (operand of `not`).
fn cond_in_context(mut c: &Cond, ctx: u8) -> (&Cond, bool) {
    while let Cond::And(v) | Cond::Or(v) = c {
        let [only] = v.as_slice() else { break };
        c = only;
    }
    let p = cmp_prec(c);
    // Operands of a nested and/or of the same kind are parenthesized to keep the tree.
    (c, p < ctx || (p == ctx && p < 3))
}

/// Text renderer.
struct Text<'w, W: Write> {
    out: &'w mut W,
}

impl<W: Write> Text<'_, W> {
    fn expr(&mut self, e: &Expr, neg: bool, ctx: Prec) -> fmt::Result {
        if prec(e, neg) < ctx {
            self.out.write_char('(')?;
            self.inner(e, neg)?;
            self.out.write_char(')')
        } else {
            self.inner(e, neg)
        }
    }

    fn list<'e>(&mut self, v: impl IntoIterator<Item = &'e Expr>) -> fmt::Result {
        for (i, x) in v.into_iter().enumerate() {
            if i > 0 {
                self.out.write_str(", ")?;
            }
            self.expr(x, false, Prec::Top)?;
        }
        Ok(())
    }

    fn inner(&mut self, e: &Expr, neg: bool) -> fmt::Result {
        match e {
            Expr::Num(r) => {
                let r = if neg { -r } else { r.clone() };
                self.out.write_str(&format_rational(&r))
            }
            Expr::Add(v) | Expr::Mul(v) if v.len() == 1 => self.inner(&v[0], neg),
            Expr::Mul(v) if v.len() > 1 => self.mul(v, neg),
            _ if neg => {
                self.out.write_char('-')?;
                self.expr(e, false, Prec::Product)
            }
            Expr::Var(n) => self.out.write_str(n),
            Expr::Add(v) if v.is_empty() => self.out.write_char('0'),
            Expr::Mul(_) => self.out.write_char('1'),
            Expr::Add(v) => {
                let v = display_order(v);
                self.expr(v[0], false, Prec::Neg)?;
                for t in &v[1..] {
                    if is_negative(t) {
                        self.out.write_str(" - ")?;
                        self.expr(t, true, Prec::Product)?;
                    } else {
                        self.out.write_str(" + ")?;
                        self.expr(t, false, Prec::Neg)?;
                    }
                }
                Ok(())
            }
            Expr::Pow(b, k) if *k < 0 => {
                self.out.write_str("1/")?;
                self.power(b, k.checked_neg().unwrap_or(i32::MAX), Prec::Power)
            }
            Expr::Pow(b, k) => self.power(b, *k, Prec::Atom),
            Expr::Min(v) => self.call("min", v),
            Expr::Max(v) => self.call("max", v),
            Expr::Floor(a) => self.call("floor", [&**a]),
            Expr::Ceil(a) => self.call("ceil", [&**a]),
            Expr::Log(a) => self.call("log", [&**a]),
            Expr::Log2(a) => self.call("log2", [&**a]),
            Expr::Power(b, x) => {
                self.expr(b, false, Prec::Atom)?;
                self.out.write_char('^')?;
                match x.as_num().and_then(fraction) {
                    Some(f) => write!(self.out, "({f})"),
                    None => self.expr(x, false, Prec::Atom),
                }
            }
            Expr::Gcd(a, b) => self.call("gcd", [&**a, &**b]),
            Expr::Mod(a, b) => {
                self.expr(a, false, Prec::Power)?;
                self.out.write_str(" mod ")?;
                self.expr(b, false, Prec::Power)
            }
            Expr::Fold(fd) => {
                write!(self.out, "{}({} = ", fd.op, fd.var)?;
                self.expr(&fd.lo, false, Prec::Top)?;
                self.out.write_str("..")?;
                self.expr(&fd.hi, false, Prec::Top)?;
                self.out.write_str(", ")?;
                self.expr(&fd.body, false, Prec::Top)?;
                self.out.write_char(')')
            }
            Expr::If(c, a, b) => {
                self.out.write_str("if(")?;
                self.cond(c, 0)?;
                self.out.write_str(", ")?;
                self.expr(a, false, Prec::Top)?;
                self.out.write_str(", ")?;
                self.expr(b, false, Prec::Top)?;
                self.out.write_char(')')
            }
        }
    }

    /// `b^k` for `k >= 0`, or just `b` when rendering a denominator with `k == 1`.
    fn power(&mut self, b: &Expr, k: i32, ctx_if_plain: Prec) -> fmt::Result {
        if k == 1 && ctx_if_plain == Prec::Power {
            return self.expr(b, false, Prec::Power);
        }
        self.expr(b, false, Prec::Atom)?;
        write!(self.out, "^{k}")
    }

    /// `name(args)`, the arguments at top precedence.
    fn call<'e>(&mut self, name: &str, args: impl IntoIterator<Item = &'e Expr>) -> fmt::Result {
        self.out.write_str(name)?;
        self.out.write_char('(')?;
        self.list(args)?;
        self.out.write_char(')')
    }

    fn mul(&mut self, v: &[Expr], neg: bool) -> fmt::Result {
        let p = split_mul(v, neg);
        if p.negative {
            self.out.write_char('-')?;
        }
        let mut first = true;
        if let Some(c) = &p.coef {
            if !c.is_one() || p.num.is_empty() {
                self.out.write_str(&format_rational(c))?;
                first = false;
            }
        }
        for f in &p.num {
            if !first {
                self.out.write_char('*')?;
            }
            first = false;
            self.expr(f, false, Prec::Product)?;
        }
        if first {
            self.out.write_char('1')?;
        }
        match p.den.len() {
            0 => Ok(()),
            1 => {
                self.out.write_char('/')?;
                let (b, k) = p.den[0];
                self.power(b, k, Prec::Power)
            }
            _ => {
                self.out.write_str("/(")?;
                for (i, (b, k)) in p.den.iter().enumerate() {
                    if i > 0 {
                        self.out.write_char('*')?;
                    }
                    if *k == 1 {
                        self.expr(b, false, Prec::Product)?;
                    } else {
                        self.power(b, *k, Prec::Atom)?;
                    }
                }
                self.out.write_char(')')
            }
        }
    }

    /// Writes a condition; `ctx` is 0 (anywhere), 1 (operand of `or`), 2 (operand of `and`).
    fn cond(&mut self, c: &Cond, ctx: u8) -> fmt::Result {
        let (c, paren) = cond_in_context(c, ctx);
        if paren {
            self.out.write_char('(')?;
        }
        match c {
            Cond::Const(b) => self.out.write_str(if *b { "true" } else { "false" })?,
            Cond::Cmp(op, a, b) => {
                self.expr(a, false, Prec::Sum)?;
                write!(self.out, " {} ", op.symbol())?;
                self.expr(b, false, Prec::Sum)?;
            }
            Cond::And(v) if v.is_empty() => self.out.write_str("true")?,
            Cond::Or(v) if v.is_empty() => self.out.write_str("false")?,
            Cond::And(v) => self.junction(v, " and ", 2)?,
            Cond::Or(v) => self.junction(v, " or ", 1)?,
            Cond::Not(inner) => {
                self.out.write_str("not ")?;
                match &**inner {
                    Cond::Prob(_) | Cond::Const(_) | Cond::Not(_) => self.cond(inner, 3)?,
                    _ => {
                        self.out.write_char('(')?;
                        self.cond(inner, 0)?;
                        self.out.write_char(')')?;
                    }
                }
            }
            Cond::Prob(p) => self.call("prob", [p])?,
        }
        if paren {
            self.out.write_char(')')?;
        }
        Ok(())
    }

    fn junction(&mut self, v: &[Cond], sep: &str, p: u8) -> fmt::Result {
        for (i, c) in v.iter().enumerate() {
            if i > 0 {
                self.out.write_str(sep)?;
            }
            self.cond(c, p)?;
        }
        Ok(())
    }
}

impl Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Text { out: f }.expr(self, false, Prec::Top)
    }
}

impl Display for Cond {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Text { out: f }.cond(self, 0)
    }
}

const GREEK: [&str; 35] = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "epsilon",
    "varepsilon",
    "zeta",
    "eta",
    "theta",
    "vartheta",
    "iota",
    "kappa",
    "lambda",
    "mu",
    "nu",
    "xi",
    "pi",
    "rho",
    "sigma",
    "tau",
    "upsilon",
    "phi",
    "varphi",
    "chi",
    "psi",
    "omega",
    "Gamma",
    "Delta",
    "Theta",
    "Lambda",
    "Xi",
    "Pi",
    "Sigma",
    "Phi",
    "Omega",
];

/// LaTeX for a name: greek letters as commands (`tau` → `\tau`), the part after the first
/// underscore as a subscript (`tau_s` → `\tau_{s}`, `t_a_b` → `t_{a,b}`), multi-letter names
/// upright or italic words.
fn latex_name(name: &str) -> String {
    fn piece(s: &str, base: bool) -> String {
        let (core, primes) = match s.find('\'') {
            Some(i) => (&s[..i], &s[i..]),
            None => (s, ""),
        };
        let core_tex = if GREEK.contains(&core) {
            format!("\\{core}")
        } else if core.chars().count() <= 1 || core.chars().all(|c| c.is_ascii_digit()) {
            escape_latex(core, LatexMode::Math)
        } else if base {
            format!("\\mathit{{{}}}", escape_latex(core, LatexMode::Math))
        } else {
            format!("\\mathrm{{{}}}", escape_latex(core, LatexMode::Math))
        };
        format!("{core_tex}{}", escape_latex(primes, LatexMode::Math))
    }
    let mut parts = name.split('_');
    let base = parts.next().unwrap_or("");
    let subs: Vec<String> = parts
        .filter(|s| !s.is_empty())
        .map(|s| piece(s, false))
        .collect();
    let mut out = if base.is_empty() {
        "\\_".to_string()
    } else {
        piece(base, true)
    };
    if !subs.is_empty() {
        out.push_str(&format!("_{{{}}}", subs.join(",")));
    }
    out
}

/// Where escaped LaTeX goes: math mode (a name in a formula) or text mode (a label in a
/// table). The two need different commands for `\ ^ ~`, which have no plain form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LatexMode {
    /// Inside `$…$`: `\backslash{}`, `\wedge{}`, `\sim{}`.
    Math,
    /// Running text: `\textbackslash{}`, `\textasciicircum{}`, `\textasciitilde{}`, and
    /// `<`, `>` as `\textless{}`, `\textgreater{}` (T1 fonts aside, they print as other
    /// glyphs).
    Text,
}

/// `s` with LaTeX's special characters escaped for `mode`, control characters as `?`: the
/// workspace's one LaTeX escaper.
pub fn escape_latex(s: &str, mode: LatexMode) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match (c, mode) {
            ('{' | '}' | '$' | '&' | '#' | '%' | '_', _) => {
                out.push('\\');
                out.push(c);
            }
            ('\\', LatexMode::Math) => out.push_str("\\backslash{}"),
            ('^', LatexMode::Math) => out.push_str("\\wedge{}"),
            ('~', LatexMode::Math) => out.push_str("\\sim{}"),
            ('\\', LatexMode::Text) => out.push_str("\\textbackslash{}"),
            ('^', LatexMode::Text) => out.push_str("\\textasciicircum{}"),
            ('~', LatexMode::Text) => out.push_str("\\textasciitilde{}"),
            ('<', LatexMode::Text) => out.push_str("\\textless{}"),
            ('>', LatexMode::Text) => out.push_str("\\textgreater{}"),
            (c, _) if c.is_control() => out.push('?'),
            (c, _) => out.push(c),
        }
    }
    out
}

fn latex_number(r: &Rational) -> String {
    let s = format_rational(r);
    match s.split_once('/') {
        Some((n, d)) => match n.strip_prefix('-') {
            Some(n) => format!("-\\frac{{{n}}}{{{d}}}"),
            None => format!("\\frac{{{n}}}{{{d}}}"),
        },
        None => s,
    }
}

/// LaTeX renderer, writing into a string.
struct Latex {
    out: String,
}

impl Latex {
    fn expr(&mut self, e: &Expr, neg: bool, ctx: Prec) {
        let p = match (e, prec(e, neg)) {
            // Fractions and folds are visually grouped in LaTeX.
            (Expr::Num(_), Prec::Product) => Prec::Atom,
            (Expr::Pow(..), Prec::Product) => Prec::Atom,
            (Expr::Fold(_), _) if !neg => Prec::Product,
            (_, p) => p,
        };
        if p < ctx {
            self.out.push_str("\\left(");
            self.inner(e, neg);
            self.out.push_str("\\right)");
        } else {
            self.inner(e, neg);
        }
    }

    fn list<'e>(&mut self, v: impl IntoIterator<Item = &'e Expr>) {
        for (i, x) in v.into_iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.expr(x, false, Prec::Top);
        }
    }

    /// `name\left(args\right)`, the arguments at top precedence.
    fn call<'e>(&mut self, name: &str, args: impl IntoIterator<Item = &'e Expr>) {
        self.out.push_str(name);
        self.out.push_str("\\left(");
        self.list(args);
        self.out.push_str("\\right)");
    }

    /// `a` at top precedence between `open` and `close`.
    fn enclose(&mut self, open: &str, a: &Expr, close: &str) {
        self.out.push_str(open);
        self.expr(a, false, Prec::Top);
        self.out.push_str(close);
    }

    fn inner(&mut self, e: &Expr, neg: bool) {
        match e {
            Expr::Num(r) => {
                let r = if neg { -r } else { r.clone() };
                self.out.push_str(&latex_number(&r));
            }
            Expr::Add(v) | Expr::Mul(v) if v.len() == 1 => self.inner(&v[0], neg),
            Expr::Mul(v) if v.len() > 1 => self.mul(v, neg),
            _ if neg => {
                self.out.push('-');
                self.expr(e, false, Prec::Product);
            }
            Expr::Var(n) => self.out.push_str(&latex_name(n)),
            Expr::Add(v) if v.is_empty() => self.out.push('0'),
            Expr::Mul(_) => self.out.push('1'),
            Expr::Add(v) => {
                let v = display_order(v);
                self.expr(v[0], false, Prec::Neg);
                for t in &v[1..] {
                    if is_negative(t) {
                        self.out.push_str(" - ");
                        self.expr(t, true, Prec::Product);
                    } else {
                        self.out.push_str(" + ");
                        self.expr(t, false, Prec::Neg);
                    }
                }
            }
            Expr::Pow(b, k) if *k < 0 => {
                self.out.push_str("\\frac{1}{");
                self.power(b, k.checked_neg().unwrap_or(i32::MAX));
                self.out.push('}');
            }
            Expr::Pow(b, k) => self.power(b, *k),
            Expr::Min(v) => self.call("\\min", v),
            Expr::Max(v) => self.call("\\max", v),
            Expr::Floor(a) => self.enclose("\\left\\lfloor ", a, " \\right\\rfloor"),
            Expr::Ceil(a) => self.enclose("\\left\\lceil ", a, " \\right\\rceil"),
            Expr::Log(a) => self.call("\\ln", [&**a]),
            Expr::Log2(a) => self.call("\\log_2", [&**a]),
            Expr::Power(b, x) => {
                self.expr(b, false, Prec::Atom);
                self.out.push_str("^{");
                match x.as_num().filter(|r| !r.is_integer()) {
                    Some(r) => {
                        let sign = if r.is_negative() { "-" } else { "" };
                        let (n, d) = (r.numer().abs(), r.denom());
                        self.out.push_str(&format!("{sign}\\frac{{{n}}}{{{d}}}"));
                    }
                    None => self.expr(x, false, Prec::Top),
                }
                self.out.push('}');
            }
            Expr::Gcd(a, b) => self.call("\\gcd", [&**a, &**b]),
            Expr::Mod(a, b) => {
                self.expr(a, false, Prec::Power);
                self.out.push_str(" \\bmod ");
                self.expr(b, false, Prec::Power);
            }
            Expr::Fold(fd) => {
                let var = latex_name(&fd.var);
                match fd.op {
                    FoldOp::Sum => {
                        self.out.push_str(&format!("\\sum_{{{var}="));
                        self.expr(&fd.lo, false, Prec::Top);
                        self.out.push_str("}^{");
                        self.expr(&fd.hi, false, Prec::Top);
                        self.out.push_str("} ");
                    }
                    FoldOp::Max | FoldOp::Min => {
                        self.out.push_str(&format!("\\{}_{{", fd.op));
                        self.expr(&fd.lo, false, Prec::Top);
                        self.out.push_str(&format!(" \\le {var} \\le "));
                        self.expr(&fd.hi, false, Prec::Top);
                        self.out.push_str("} ");
                    }
                }
                self.expr(&fd.body, false, Prec::Product);
            }
            Expr::If(c, a, b) => {
                self.out.push_str("\\begin{cases} ");
                self.expr(a, false, Prec::Top);
                self.out.push_str(" & \\text{if } ");
                self.cond(c, 0);
                self.out.push_str(" \\\\ ");
                self.expr(b, false, Prec::Top);
                self.out.push_str(" & \\text{otherwise} \\end{cases}");
            }
        }
    }

    fn power(&mut self, b: &Expr, k: i32) {
        if k == 1 {
            self.expr(b, false, Prec::Product);
            return;
        }
        self.expr(b, false, Prec::Atom);
        self.out.push_str(&format!("^{{{k}}}"));
    }

    fn mul(&mut self, v: &[Expr], neg: bool) {
        let p = split_mul(v, neg);
        if p.negative {
            self.out.push('-');
        }
        let numer = |this: &mut Latex| {
            let mut first = true;
            if let Some(c) = &p.coef {
                if !c.is_one() || p.num.is_empty() {
                    this.out.push_str(&latex_number(c));
                    first = false;
                }
            }
            let last = p.num.len().saturating_sub(1);
            for (i, f) in p.num.iter().enumerate() {
                if !first {
                    let numeric = matches!(f, Expr::Num(_));
                    this.out.push_str(if numeric { " \\cdot " } else { " " });
                }
                first = false;
                // A fold extends to the right: group it unless it is the last factor.
                let ctx = if matches!(f, Expr::Fold(_)) && i < last {
                    Prec::Atom
                } else {
                    Prec::Product
                };
                this.expr(f, false, ctx);
            }
            if first {
                this.out.push('1');
            }
        };
        if p.den.is_empty() {
            numer(self);
            return;
        }
        self.out.push_str("\\frac{");
        numer(self);
        self.out.push_str("}{");
        for (i, (b, k)) in p.den.iter().enumerate() {
            if i > 0 {
                self.out.push(' ');
            }
            self.power(b, *k);
        }
        self.out.push('}');
    }

    fn cond(&mut self, c: &Cond, ctx: u8) {
        let (c, paren) = cond_in_context(c, ctx);
        if paren {
            self.out.push_str("\\left(");
        }
        match c {
            Cond::Const(b) => self
                .out
                .push_str(if *b { "\\text{true}" } else { "\\text{false}" }),
            Cond::Cmp(op, a, b) => {
                self.expr(a, false, Prec::Sum);
                self.out.push_str(match op {
                    CmpOp::Eq => " = ",
                    CmpOp::Ne => " \\neq ",
                    CmpOp::Lt => " < ",
                    CmpOp::Le => " \\le ",
                    CmpOp::Gt => " > ",
                    CmpOp::Ge => " \\ge ",
                });
                self.expr(b, false, Prec::Sum);
            }
            Cond::And(v) if v.is_empty() => self.out.push_str("\\text{true}"),
            Cond::Or(v) if v.is_empty() => self.out.push_str("\\text{false}"),
            Cond::And(v) | Cond::Or(v) => {
                let (sep, q) = if matches!(c, Cond::And(_)) {
                    (" \\land ", 2)
                } else {
                    (" \\lor ", 1)
                };
                for (i, x) in v.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(sep);
                    }
                    self.cond(x, q);
                }
            }
            Cond::Not(inner) => {
                self.out.push_str("\\lnot ");
                self.cond(inner, 3);
            }
            Cond::Prob(p) => self.call("\\mathrm{prob}", [p]),
        }
        if paren {
            self.out.push_str("\\right)");
        }
    }
}

/// LaTeX math-mode source for an expression, e.g.
/// `N \max\left(P \tau_{s}, \tau_{l} + \tau_{s}\right)` or `\sum_{i=1}^{N} i`.
///
/// Greek-letter names become commands (`tau_s` → `\tau_{s}`), the text after an underscore a
/// subscript, `floor`/`ceil` `\left\lfloor … \right\rfloor`, divisions `\frac{a}{b}`, `log`
/// `\ln`, `log2` `\log_2`, real powers `x^{\frac{3}{2}}`, `mod` `\bmod`, conditionals a
/// `cases` environment.
pub fn to_latex(e: &Expr) -> String {
    let mut l = Latex { out: String::new() };
    l.expr(e, false, Prec::Top);
    l.out
}

/// LaTeX math-mode source for a condition (`i \bmod P = 0 \land \mathrm{prob}\left(0.3\right)`).
pub fn cond_to_latex(c: &Cond) -> String {
    let mut l = Latex { out: String::new() };
    l.cond(c, 0);
    l.out
}

/// The JSON form of an expression used by every engine's `--format json`:
/// `{"expr": text, "latex": latex}`, plus `"value"` when a value is given (a non-finite value
/// becomes `null`). Its fields are declared in the order they print.
#[derive(serde::Serialize, Clone, Debug, PartialEq)]
pub struct ExprJson {
    /// The expression as text ([`std::fmt::Display`]).
    pub expr: String,
    /// The expression in LaTeX ([`to_latex`]).
    pub latex: String,
    /// Its value, when one is given; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
}

impl ExprJson {
    /// The JSON form of `e`, with `value` when given.
    pub fn new(e: &Expr, value: Option<f64>) -> ExprJson {
        ExprJson {
            expr: e.to_string(),
            latex: to_latex(e),
            value,
        }
    }
}

/// [`ExprJson`] of `e` as a JSON value: `{"expr": text, "latex": latex}`, plus `"value"` when
/// a value is given (a non-finite value becomes `null`).
pub fn to_json(e: &Expr, value: Option<f64>) -> serde_json::Value {
    serde_json::to_value(ExprJson::new(e, value)).expect("an object of strings and a number")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::node::{CmpOp, Cond, Expr};
    use crate::testing::{i, v};

    #[test]
    fn closed_form_from_the_pamela_paper() {
        let e = v("N") * Expr::max(vec![v("P") * v("tau_s"), v("tau_l") + v("tau_s")]);
        assert_eq!(e.to_string(), "N*max(P*tau_s, tau_l + tau_s)");
        assert_eq!(
            to_latex(&e),
            r"N \max\left(P \tau_{s}, \tau_{l} + \tau_{s}\right)"
        );
    }

    #[test]
    fn subtraction_and_negatives() {
        assert_eq!((v("a") - v("b")).to_string(), "a - b");
        assert_eq!((v("a") - v("b") * v("c")).to_string(), "a - b*c");
        assert_eq!((v("a") - (v("b") + v("c"))).to_string(), "a - (b + c)");
        assert_eq!((v("a") + i(-3)).to_string(), "a - 3");
        assert_eq!((i(-3) + v("a")).to_string(), "a - 3");
        assert_eq!((-v("a")).to_string(), "-a");
        assert_eq!((-(v("a") + v("b"))).to_string(), "-(a + b)");
        assert_eq!(i(-7).to_string(), "-7");
        assert_eq!((v("x") * i(-3)).to_string(), "x*(-3)");
        assert_eq!(Expr::Pow(Box::new(i(-3)), 2).to_string(), "(-3)^2");
        assert_eq!((-(-v("a"))).to_string(), "-(-a)");
        let e = Expr::Add(vec![v("a"), Expr::Mul(vec![i(-2), v("b"), v("c")])]);
        assert_eq!(e.to_string(), "a - 2*b*c");
        let e = Expr::Add(vec![v("a"), Expr::Mul(vec![Expr::ratio(-1, 3), v("b")])]);
        assert_eq!(e.to_string(), "a - 1/3*b");
        assert_eq!((v("a") - (-v("b"))).to_string(), "a - (-b)");
    }

    #[test]
    fn divisions() {
        let e = Expr::Mul(vec![
            v("N") - i(2),
            v("N"),
            v("tau_u"),
            Expr::Pow(Box::new(v("P")), -1),
        ]);
        assert_eq!(e.to_string(), "(N - 2)*N*tau_u/P");
        assert_eq!((v("a") / v("b")).to_string(), "a/b");
        assert_eq!((v("a") / (v("b") * v("c"))).to_string(), "a/(b*c)");
        assert_eq!((v("a") / (v("b") / v("c"))).to_string(), "a/(b/c)");
        assert_eq!(((v("a") / v("b")) / v("c")).to_string(), "a/b/c");
        assert_eq!((v("a") / (v("b") + i(1))).to_string(), "a/(b + 1)");
        assert_eq!(Expr::Pow(Box::new(v("P")), -1).to_string(), "1/P");
        assert_eq!(Expr::Pow(Box::new(v("P")), -2).to_string(), "1/P^2");
        let e = Expr::Mul(vec![
            v("a"),
            Expr::Pow(Box::new(v("b")), -1),
            Expr::Pow(Box::new(v("c")), -2),
        ]);
        assert_eq!(e.to_string(), "a/(b*c^2)");
        let e = Expr::Mul(vec![i(-1), Expr::Pow(Box::new(v("P")), -1)]);
        assert_eq!(e.to_string(), "-1/P");
        let e = Expr::Mul(vec![i(3), Expr::Pow(Box::new(v("P")), -1)]);
        assert_eq!(e.to_string(), "3/P");
        assert_eq!((i(1) / (v("P") - i(4))).to_string(), "1/(P - 4)");
        assert_eq!((v("N") / (v("P") - i(4))).to_string(), "N/(P - 4)");
        assert_eq!((v("a") / i(-2)).to_string(), "a/(-2)");
    }

    #[test]
    fn coefficients() {
        assert_eq!(
            Expr::Mul(vec![Expr::ratio(3, 4), v("x")]).to_string(),
            "0.75*x"
        );
        assert_eq!(
            Expr::Mul(vec![Expr::ratio(1, 3), v("x")]).to_string(),
            "1/3*x"
        );
        assert_eq!(
            Expr::Mul(vec![Expr::ratio(1, 2), v("x")]).to_string(),
            "0.5*x"
        );
        assert_eq!(
            Expr::Mul(vec![Expr::ratio(-5, 2), v("x")]).to_string(),
            "-2.5*x"
        );
        assert_eq!(Expr::Mul(vec![i(1), v("x")]).to_string(), "x");
        assert_eq!(Expr::Mul(vec![i(2), i(3)]).to_string(), "2*3");
        assert_eq!(Expr::ratio(2, 3).to_string(), "2/3");
        assert_eq!(
            Expr::Pow(Box::new(Expr::ratio(2, 3)), 2).to_string(),
            "(2/3)^2"
        );
        assert_eq!((v("x") / Expr::ratio(2, 3)).to_string(), "x/(2/3)");
        assert_eq!(Expr::Add(vec![]).to_string(), "0");
        assert_eq!(Expr::Mul(vec![]).to_string(), "1");
    }

    #[test]
    fn functions_and_powers() {
        assert_eq!(Expr::Pow(Box::new(v("x")), 2).to_string(), "x^2");
        assert_eq!(
            Expr::Pow(Box::new(v("x") + i(1)), 2).to_string(),
            "(x + 1)^2"
        );
        let x2 = Expr::Pow(Box::new(v("x")), 2);
        assert_eq!(Expr::Pow(Box::new(x2), 3).to_string(), "(x^2)^3");
        assert_eq!(
            Expr::Floor(Box::new(v("x") / i(2))).to_string(),
            "floor(x/2)"
        );
        assert_eq!(Expr::Ceil(Box::new(v("x"))).to_string(), "ceil(x)");
        assert_eq!(Expr::Log(Box::new(v("x"))).to_string(), "log(x)");
        assert_eq!(
            Expr::Gcd(Box::new(v("a")), Box::new(v("b"))).to_string(),
            "gcd(a, b)"
        );
        let m = Expr::Mod(Box::new(v("x")), Box::new(v("y")));
        assert_eq!(m.to_string(), "x mod y");
        assert_eq!((m.clone() * v("z")).to_string(), "(x mod y)*z");
        assert_eq!((m.clone() + v("z")).to_string(), "(x mod y) + z");
        let m2 = Expr::Mod(Box::new(v("i") + i(1)), Box::new(i(2) * v("P")));
        assert_eq!(m2.to_string(), "(i + 1) mod (2*P)");
        assert_eq!(
            Expr::min(vec![v("a"), v("b"), i(3)]).to_string(),
            "min(a, b, 3)"
        );
    }

    #[test]
    fn folds_and_conditionals() {
        let s = Expr::sum_over("i", i(1), v("N"), v("i") * v("t"));
        assert_eq!(s.to_string(), "sum(i = 1..N, i*t)");
        assert_eq!(to_latex(&s), r"\sum_{i=1}^{N} i t");
        let m = Expr::max_over("p", i(0), v("P") - i(1), v("p") + i(1));
        assert_eq!(m.to_string(), "max(p = 0..P - 1, p + 1)");
        let mn = Expr::fold(crate::FoldOp::Min, "j", i(1), i(3), v("j"));
        assert_eq!(mn.to_string(), "min(j = 1..3, j)");
        let c = Cond::And(vec![
            Cond::cmp(
                CmpOp::Eq,
                Expr::Mod(Box::new(v("i")), Box::new(v("P"))),
                i(0),
            ),
            Cond::Prob(Expr::ratio(3, 10)),
        ]);
        assert_eq!(c.to_string(), "i mod P == 0 and prob(0.3)");
        let e = Expr::ite(c.clone(), v("a"), v("b"));
        assert_eq!(e.to_string(), "if(i mod P == 0 and prob(0.3), a, b)");
        let or = Cond::Or(vec![
            c.clone(),
            Cond::Not(Box::new(Cond::cmp(CmpOp::Lt, v("x"), i(1)))),
        ]);
        assert_eq!(or.to_string(), "i mod P == 0 and prob(0.3) or not (x < 1)");
        let and = Cond::And(vec![or.clone(), Cond::Const(true)]);
        assert_eq!(
            and.to_string(),
            "(i mod P == 0 and prob(0.3) or not (x < 1)) and true"
        );
        assert_eq!(
            Cond::Not(Box::new(Cond::Prob(Expr::ratio(1, 2)))).to_string(),
            "not prob(0.5)"
        );
        assert_eq!(Cond::And(vec![]).to_string(), "true");
        assert_eq!(Cond::Or(vec![]).to_string(), "false");
    }

    #[test]
    fn latex_shapes() {
        let e = Expr::Floor(Box::new(v("N") / v("P")));
        assert_eq!(to_latex(&e), r"\left\lfloor \frac{N}{P} \right\rfloor");
        let e = (v("N") - i(2)) * v("theta") / v("P");
        assert_eq!(to_latex(&e), r"\frac{\left(N - 2\right) \theta}{P}");
        assert_eq!(to_latex(&Expr::ratio(-1, 3)), r"-\frac{1}{3}");
        assert_eq!(to_latex(&(i(2) * i(3))), r"2 \cdot 3");
        assert_eq!(to_latex(&v("t_comm")), r"t_{\mathrm{comm}}");
        assert_eq!(to_latex(&v("omega_1")), r"\omega_{1}");
        assert_eq!(to_latex(&v("Nx")), r"\mathit{Nx}");
        assert_eq!(to_latex(&Expr::Pow(Box::new(v("x")), 2)), "x^{2}");
        let m = Expr::max_over("p", i(0), v("P") - i(1), v("p"));
        assert_eq!(to_latex(&m), r"\max_{0 \le p \le P - 1} p");
        let s = Expr::sum_over("i", i(1), v("N"), v("i")) * v("x");
        assert_eq!(to_latex(&s), r"\left(\sum_{i=1}^{N} i\right) x");
        let c = Cond::cmp(CmpOp::Ne, v("x"), i(0));
        assert_eq!(cond_to_latex(&c), r"x \neq 0");
    }

    #[test]
    fn real_powers_and_binary_logarithms() {
        let p = |b: Expr, e: Expr| Expr::power(b, e);
        assert_eq!(p(v("x"), Expr::ratio(3, 2)).to_string(), "x^(3/2)");
        assert_eq!(p(v("x"), Expr::ratio(1, 2)).to_string(), "x^(1/2)");
        assert_eq!(p(v("x"), i(2)).to_string(), "x^2");
        assert_eq!(p(v("x"), i(-2)).to_string(), "x^(-2)");
        assert_eq!(p(i(2), v("x")).to_string(), "2^x");
        assert_eq!(p(v("x"), Expr::log2(i(7))).to_string(), "x^log2(7)");
        assert_eq!(
            p(v("x") + i(1), v("y") + i(1)).to_string(),
            "(x + 1)^(y + 1)"
        );
        assert_eq!(p(v("x"), Expr::ratio(-1, 2)).to_string(), "x^(-1/2)");
        assert_eq!(p(i(-2), v("y")).to_string(), "(-2)^y");
        assert_eq!(p(p(v("x"), v("y")), v("z")).to_string(), "(x^y)^z");
        assert_eq!(p(v("x"), p(v("y"), v("z"))).to_string(), "x^(y^z)");
        assert_eq!(Expr::pow(p(v("x"), v("y")), 2).to_string(), "(x^y)^2");
        assert_eq!(
            p(v("x"), Expr::pow(v("y"), 2)).to_string(),
            "x^(y^2)",
            "an exponent that is a power is parenthesized"
        );
        assert_eq!((-p(v("x"), v("y"))).to_string(), "-x^y");
        let pmnf = Expr::ratio(14, 5)
            + Expr::ratio(12, 25) * p(v("p"), Expr::ratio(5, 4)) * Expr::log2(v("p"));
        assert_eq!(pmnf.to_string(), "0.48*p^(5/4)*log2(p) + 2.8");
        assert_eq!(Expr::log2(v("x")).to_string(), "log2(x)");
        assert_eq!(to_latex(&p(v("x"), Expr::ratio(3, 2))), r"x^{\frac{3}{2}}");
        assert_eq!(
            to_latex(&p(v("x") + i(1), v("y"))),
            r"\left(x + 1\right)^{y}"
        );
        assert_eq!(
            to_latex(&p(v("x"), Expr::ratio(-1, 2))),
            r"x^{-\frac{1}{2}}"
        );
        assert_eq!(to_latex(&p(i(2), v("x"))), r"2^{x}");
        assert_eq!(to_latex(&Expr::log2(v("x"))), r"\log_2\left(x\right)");
        assert_eq!(
            to_latex(&(v("n") * Expr::log2(v("n")))),
            r"n \log_2\left(n\right)"
        );
        let j = to_json(&p(v("x"), Expr::ratio(3, 2)), Some(8.0));
        assert_eq!(j["expr"], "x^(3/2)");
        assert_eq!(j["latex"], r"x^{\frac{3}{2}}");
    }

    #[test]
    fn json_form() {
        let e = v("a") + v("b");
        let j = to_json(&e, Some(2.5));
        assert_eq!(j["expr"], "a + b");
        assert_eq!(j["latex"], "a + b");
        assert_eq!(j["value"], 2.5);
        assert!(to_json(&e, None).get("value").is_none());
        // A value that is not finite is `null`; the keys print in declaration order.
        assert_eq!(
            serde_json::to_string(&ExprJson::new(&e, Some(f64::NAN))).unwrap(),
            r#"{"expr":"a + b","latex":"a + b","value":null}"#
        );
    }
}
