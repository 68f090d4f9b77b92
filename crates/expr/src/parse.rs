//! Parsing arithmetic expression text into an [`Expr`], as users write model terms and
//! basis functions (`n*log2(n)`, `2^x`, `x^log2(7)`, `2.8 + 0.48*p^(5/4)*log2(p)`).
//!
//! Grammar, loosest binding first:
//!
//! | form | meaning |
//! |---|---|
//! | `a + b`, `a - b` | sums (left-associative) |
//! | `a * b`, `a / b` | products (left-associative); `a / b` is `a * b^-1` |
//! | `-a`, `+a` | sign; `-x^2` is `-(x^2)` |
//! | `a ^ b` | power, right-associative (`a^b^c` is `a^(b^c)`); the exponent may carry a sign (`x^-1`) |
//! | `12`, `0.5`, `1e-3`, `.5` | exact rational numbers ([`crate::number::parse_rational`]) |
//! | `name` | a variable: `[A-Za-z_][A-Za-z0-9_]*` |
//! | `f(a, …)` | `log` and `ln` (natural), `log2`, `sqrt`, `floor`, `ceil` (one argument), `min`, `max` (one or more) |
//! | `( a )` | grouping |
//!
//! `a^b` is the integer power [`Expr::Pow`] when `b` is an integer constant (`x^2`, `x^-1`,
//! `x^(-1)`), else the real power [`Expr::Power`]; `sqrt(x)` is `x^(1/2)`. A quotient or
//! product of two number literals is one number (`x^(3/2)` has the exponent `3/2`), and `-`
//! before a number literal makes a negative number. Names of functions are reserved: they
//! must be called. `exp` is rejected (`e^x` has no exact form).
//!
//! Errors ([`ParseError`]) give the byte range of the offending text and say what was
//! expected. Nesting is limited to [`MAX_DEPTH`] levels and number literals to
//! [`MAX_NUMBER_LEN`] bytes; the work is linear in the length of the text otherwise.
//!
//! ```
//! use expr::{parse, Expr};
//! let e = parse("2.8 + 0.48*p^(5/4)*log2(p)").unwrap();
//! assert_eq!(e.to_string(), "0.48*p^(5/4)*log2(p) + 2.8");
//! assert_eq!(parse("x^-1").unwrap(), Expr::pow(Expr::var("x"), -1));
//! let err = parse("n*log(n").unwrap_err();
//! assert_eq!((err.start, err.end), (7, 7));
//! assert!(err.message.starts_with("expected `)`"));
//! ```

use crate::node::{Expr, Rational};
use crate::number::{parse_rational, NumberError};
use num_traits::{ToPrimitive, Zero};
use std::ops::Range;
use thiserror::Error;

/// The deepest nesting [`parse`] accepts: each parenthesis, sign, call argument and right
/// operand of an operator is one level deeper than the text around it.
pub const MAX_DEPTH: usize = 256;

/// The longest number literal, in bytes, [`parse`] accepts.
pub const MAX_NUMBER_LEN: usize = 4096;

/// The functions [`parse`] knows, in the order error messages list them.
pub const FUNCTIONS: [&str; 8] = ["log", "log2", "ln", "sqrt", "min", "max", "floor", "ceil"];

/// Binding powers of the operators: sums, products, signs, powers.
const SUM_BP: u8 = 1;
const PRODUCT_BP: u8 = 3;
const NEG_BP: u8 = 5;
const POWER_BP: u8 = 6;

/// At most this many characters of the offending text are quoted in a message.
const QUOTE_CHARS: usize = 40;

/// Why a text is not an expression: the byte range `start..end` of the offending text (empty
/// at the end of the input) and a message saying what was expected there.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{message} ({})", location(.start, .end))]
pub struct ParseError {
    /// Byte offset where the offending text starts.
    pub start: usize,
    /// Byte offset just past the offending text (`== start` at the end of the input).
    pub end: usize,
    /// What is wrong and what was expected.
    pub message: String,
}

impl ParseError {
    /// The offending byte range.
    pub fn span(&self) -> Range<usize> {
        self.start..self.end
    }
}

/// An error position as text: `at byte 7` (one byte or none) or `at bytes 2..5`.
fn location(start: &usize, end: &usize) -> String {
    if *end <= start + 1 {
        format!("at byte {start}")
    } else {
        format!("at bytes {start}..{end}")
    }
}

/// `s` in backquotes, shortened when long.
fn quote(s: &str) -> String {
    if s.chars().count() > QUOTE_CHARS {
        let cut: String = s.chars().take(QUOTE_CHARS).collect();
        format!("`{cut}…`")
    } else {
        format!("`{s}`")
    }
}

/// Parses `text` into an expression (see the module documentation for the syntax).
///
/// # Errors
/// A [`ParseError`] locating the first problem: an unexpected or missing token, an unknown
/// function (with the closest known one), a wrong number of arguments, a malformed or
/// oversized number, or nesting beyond [`MAX_DEPTH`].
pub fn parse(text: &str) -> Result<Expr, ParseError> {
    let mut p = Parser {
        text,
        toks: lex(text),
        out: Vec::new(),
        pos: 0,
        depth: 0,
    };
    if p.peek().kind == Kind::End {
        return Err(p.error_at(p.peek(), "expected an expression".into()));
    }
    p.expr(0)?;
    if p.peek().kind != Kind::End {
        return Err(p.expected("an operator (`+`, `-`, `*`, `/`, `^`) or the end of the input"));
    }
    Ok(p.pop())
}

/// Token kinds.
#[derive(Clone, Debug, PartialEq)]
enum Kind {
    /// A number literal (read when the parser reaches it, so that errors come in order).
    Num,
    Ident,
    /// One of `+ - * / ^ ( ) ,`.
    Sym(u8),
    /// A character that starts no token.
    Bad,
    End,
}

/// A token and its byte range.
#[derive(Clone, Debug, PartialEq)]
struct Tok {
    kind: Kind,
    start: usize,
    end: usize,
}

/// Splits `text` into tokens, ending with [`Kind::End`].
fn lex(text: &str) -> Vec<Tok> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let start = i;
        let kind = if c.is_ascii_whitespace() {
            i += 1;
            continue;
        } else if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            i = number_end(b, i);
            Kind::Num
        } else if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            Kind::Ident
        } else if b"+-*/^(),".contains(&c) {
            i += 1;
            Kind::Sym(c)
        } else {
            // One whole character, however many bytes it takes.
            let ch = text[i..].chars().next().unwrap_or('\u{fffd}');
            if ch.is_whitespace() {
                i += ch.len_utf8();
                continue;
            }
            i += ch.len_utf8();
            Kind::Bad
        };
        out.push(Tok {
            kind,
            start,
            end: i,
        });
    }
    out.push(Tok {
        kind: Kind::End,
        start: b.len(),
        end: b.len(),
    });
    out
}

/// The end of the number literal starting at `i`: `digits[.digits][(e|E)[+-]digits]`, the
/// exponent only when digits follow, the point only when another point does not.
fn number_end(b: &[u8], mut i: usize) -> usize {
    let digits = |mut i: usize| {
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        i
    };
    i = digits(i);
    if i < b.len() && b[i] == b'.' && b.get(i + 1) != Some(&b'.') {
        i = digits(i + 1);
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        let mut j = i + 1;
        if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
            j += 1;
        }
        if j < b.len() && b[j].is_ascii_digit() {
            i = digits(j);
        }
    }
    i
}

/// The value of a number literal at byte `start`.
fn number(lit: &str, start: usize) -> Result<Rational, ParseError> {
    let error = |message: String| ParseError {
        start,
        end: start + lit.len(),
        message,
    };
    if lit.len() > MAX_NUMBER_LEN {
        return Err(error(format!(
            "number literal of {} bytes; at most {MAX_NUMBER_LEN} are accepted",
            lit.len()
        )));
    }
    parse_rational(lit).map_err(|e| match e {
        NumberError::ExponentTooLarge { .. } => error(e.to_string()),
        _ => error(format!("{} is not a number", quote(lit))),
    })
}

/// Recursive-descent parser over the token list.
struct Parser<'a> {
    text: &'a str,
    toks: Vec<Tok>,
    /// Operands parsed so far.
    out: Vec<Expr>,
    pos: usize,
    depth: usize,
}

impl Parser<'_> {
    fn peek(&self) -> &Tok {
        &self.toks[self.pos.min(self.toks.len() - 1)]
    }

    fn bump(&mut self) {
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
    }

    fn is_sym(&self, c: u8) -> bool {
        self.peek().kind == Kind::Sym(c)
    }

    fn error_at(&self, t: &Tok, message: String) -> ParseError {
        ParseError {
            start: t.start,
            end: t.end,
            message,
        }
    }

    /// The token as quoted in a message.
    fn describe(&self, t: &Tok) -> String {
        if t.kind == Kind::End {
            return "the end of the input".into();
        }
        quote(&self.text[t.start..t.end])
    }

    /// "expected {what}, found …" at the next token. Error paths are kept out of the
    /// recursive functions so that each nesting level takes little stack.
    #[cold]
    #[inline(never)]
    fn expected(&self, what: &str) -> ParseError {
        let t = self.peek();
        self.error_at(t, format!("expected {what}, found {}", self.describe(t)))
    }

    #[cold]
    #[inline(never)]
    fn too_deep(&self) -> ParseError {
        let msg = format!("the expression nests deeper than {MAX_DEPTH} levels");
        self.error_at(self.peek(), msg)
    }

    /// Fails unless the next token is the symbol `c`, which it consumes.
    fn expect(&mut self, c: u8) -> Result<(), ParseError> {
        if self.is_sym(c) {
            self.bump();
            return Ok(());
        }
        Err(self.expected(match c {
            b')' => "`)`",
            _ => "`(`",
        }))
    }

    /// Parses an expression whose infix operators bind at least as tightly as `min_bp` and
    /// pushes it onto the operand stack (precedence climbing). Sums and products written as
    /// chains become one flat `Add` or `Mul`. Every nesting (a sign, an exponent, parentheses,
    /// a call) is one more call of this function, whose frame holds no expression, so deep
    /// nesting takes little stack; [`MAX_DEPTH`] bounds it.
    fn expr(&mut self, min_bp: u8) -> Result<(), ParseError> {
        if self.depth >= MAX_DEPTH {
            return Err(self.too_deep());
        }
        // Not restored on errors: they end the parse.
        self.depth += 1;
        if self.is_sym(b'-') {
            self.bump();
            self.expr(NEG_BP)?;
            self.reduce(Reduce::Neg);
        } else if self.is_sym(b'+') {
            self.bump();
            self.expr(NEG_BP)?;
        } else {
            self.primary()?;
        }
        // Whether the operand on top is a sum or product this loop built (and may extend).
        let mut chain = Chain::None;
        loop {
            let (op, bp) = match self.peek().kind {
                Kind::Sym(b'+') => (Reduce::Add, SUM_BP),
                Kind::Sym(b'-') => (Reduce::Sub, SUM_BP),
                Kind::Sym(b'*') => (Reduce::Mul, PRODUCT_BP),
                Kind::Sym(b'/') => (Reduce::Div, PRODUCT_BP),
                Kind::Sym(b'^') => (Reduce::Power, POWER_BP),
                _ => break,
            };
            if bp < min_bp {
                break;
            }
            self.bump();
            // `^` is right-associative, the others left-associative.
            self.expr(if op == Reduce::Power { bp } else { bp + 1 })?;
            chain = self.reduce_chain(op, chain);
        }
        self.depth -= 1;
        Ok(())
    }

    /// The operand on top of the stack.
    fn pop(&mut self) -> Expr {
        self.out.pop().unwrap_or_else(Expr::zero)
    }

    /// Applies a binary operator to the two operands on top of the stack, extending the
    /// sum or product `chain` the left one is; returns what the result is.
    #[inline(never)]
    fn reduce_chain(&mut self, op: Reduce, chain: Chain) -> Chain {
        let rhs = self.pop();
        let lhs = self.pop();
        let (e, chain) = match op {
            Reduce::Add | Reduce::Sub => {
                let t = if op == Reduce::Sub { negate(rhs) } else { rhs };
                let mut v = match lhs {
                    Expr::Add(v) if chain == Chain::Sum => v,
                    l => vec![l],
                };
                v.push(t);
                (Expr::Add(v), Chain::Sum)
            }
            Reduce::Mul | Reduce::Div => {
                let mut v = match lhs {
                    Expr::Mul(v) if chain == Chain::Product => v,
                    l => vec![l],
                };
                push_factor(&mut v, rhs, op == Reduce::Div);
                if v.len() == 1 {
                    (v.pop().unwrap_or_else(Expr::one), Chain::None)
                } else {
                    (Expr::Mul(v), Chain::Product)
                }
            }
            _ => (make_power(lhs, rhs), Chain::None),
        };
        self.out.push(e);
        chain
    }

    /// Applies a unary operator to the operand on top of the stack.
    #[inline(never)]
    fn reduce(&mut self, op: Reduce) {
        let e = self.pop();
        self.out.push(match op {
            Reduce::Neg => negate(e),
            _ => e,
        });
    }

    /// Pushes a number, a variable, a call or a parenthesized expression.
    fn primary(&mut self) -> Result<(), ParseError> {
        let (start, end) = (self.peek().start, self.peek().end);
        match self.peek().kind {
            Kind::Num => {
                let e = Expr::Num(number(&self.text[start..end], start)?);
                self.out.push(e);
                self.bump();
                Ok(())
            }
            Kind::Ident => {
                self.bump();
                if self.is_sym(b'(') {
                    self.call(start, end)
                } else {
                    self.name(start, end)
                }
            }
            Kind::Sym(b'(') => {
                self.bump();
                self.expr(0)?;
                self.expect(b')')
            }
            _ => Err(self.expected("an operand (a number, a name, a function call, `(` or `-`)")),
        }
    }

    /// Pushes the variable at `start..end`; function names must be called.
    #[inline(never)]
    fn name(&mut self, start: usize, end: usize) -> Result<(), ParseError> {
        let name = &self.text[start..end];
        if FUNCTIONS.contains(&name) {
            return Err(self.expected(&format!("`(` after the function `{name}`")));
        }
        self.out.push(Expr::var(name));
        Ok(())
    }

    /// Pushes a call of the function named at `start..end`, the `(` next.
    fn call(&mut self, start: usize, end: usize) -> Result<(), ParseError> {
        if !FUNCTIONS.contains(&&self.text[start..end]) {
            return Err(self.unknown_function(start, end));
        }
        self.bump(); // `(`
        let first = self.out.len();
        if !self.is_sym(b')') {
            self.expr(0)?;
            while self.is_sym(b',') {
                self.bump();
                self.expr(0)?;
            }
        }
        let close = self.peek().end;
        self.expect(b')')?;
        self.finish_call(start, end, close, first)
    }

    /// Replaces the arguments from `first` on by the call of the function at `start..end`,
    /// whose `)` ends at `close`.
    #[inline(never)]
    fn finish_call(
        &mut self,
        start: usize,
        end: usize,
        close: usize,
        first: usize,
    ) -> Result<(), ParseError> {
        let args = self.out.split_off(first);
        match apply(&self.text[start..end], args) {
            Ok(e) => {
                self.out.push(e);
                Ok(())
            }
            Err(message) => Err(ParseError {
                start,
                end: close,
                message,
            }),
        }
    }

    #[cold]
    #[inline(never)]
    fn unknown_function(&self, start: usize, end: usize) -> ParseError {
        ParseError {
            start,
            end,
            message: unknown_function(&self.text[start..end]),
        }
    }
}

/// Operators applied to the operand stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reduce {
    Add,
    Sub,
    Mul,
    Div,
    Power,
    Neg,
}

/// What the operand on top of the stack is, for flattening chains.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Chain {
    None,
    Sum,
    Product,
}

/// Appends `f` to a product (as `f^-1` when `divide`), multiplying adjacent number literals.
fn push_factor(factors: &mut Vec<Expr>, f: Expr, divide: bool) {
    match (factors.last_mut(), f) {
        (Some(Expr::Num(a)), Expr::Num(b)) if !divide || !b.is_zero() => {
            *a = if divide { &*a / b } else { &*a * b };
        }
        (_, f) if divide => factors.push(Expr::pow(f, -1)),
        (_, f) => factors.push(f),
    }
}

/// `base^exponent`: an integer power for an integer constant exponent in `i32` range, else a
/// real power.
fn make_power(base: Expr, exponent: Expr) -> Expr {
    let k = match &exponent {
        Expr::Num(r) if r.is_integer() => r.numer().to_i32(),
        _ => None,
    };
    match k {
        Some(k) => Expr::pow(base, k),
        None => Expr::power(base, exponent),
    }
}

/// The known function `name` applied to `args`, or a message about their number.
fn apply(name: &str, mut args: Vec<Expr>) -> Result<Expr, String> {
    if matches!(name, "min" | "max") {
        if args.is_empty() {
            return Err(format!("`{name}` takes at least one argument"));
        }
        return Ok(if name == "min" {
            Expr::min(args)
        } else {
            Expr::max(args)
        });
    }
    if args.len() != 1 {
        return Err(format!("`{name}` takes one argument, got {}", args.len()));
    }
    let a = args.pop().unwrap_or_else(Expr::zero);
    Ok(match name {
        "log" | "ln" => Expr::log(a),
        "log2" => Expr::log2(a),
        "sqrt" => Expr::power(a, Expr::ratio(1, 2)),
        "floor" => Expr::Floor(Box::new(a)),
        _ => Expr::Ceil(Box::new(a)),
    })
}

/// `-e`: a negative number for a number, else `(-1)*e`.
fn negate(e: Expr) -> Expr {
    match e {
        Expr::Num(r) => Expr::Num(-r),
        e => -e,
    }
}

/// The message for a call of an unknown function `name`.
fn unknown_function(name: &str) -> String {
    if name == "exp" {
        return "`exp` is not supported: `e^x` has no exact rational form; use a power with a \
                rational base such as `2^x`"
            .into();
    }
    let mut msg = format!(
        "unknown function {}; known: {}",
        quote(name),
        FUNCTIONS.join(", ")
    );
    if let Some(s) = closest(name) {
        msg.push_str(&format!("; did you mean `{s}`?"));
    }
    msg
}

/// The known function closest to `name` when it is close: equal but for case, or at most 2
/// edits away and at most half as many edits as `name` has characters.
fn closest(name: &str) -> Option<&'static str> {
    if name.len() > 32 {
        return None;
    }
    let n = name.chars().count();
    FUNCTIONS
        .iter()
        .map(|f| {
            let d = if f.eq_ignore_ascii_case(name) {
                0
            } else {
                edit_distance(name, f)
            };
            (d, *f)
        })
        .filter(|&(d, _)| d <= 2 && 2 * d <= n)
        .min_by_key(|&(d, _)| d)
        .map(|(_, f)| f)
}

/// Levenshtein distance in characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests;
