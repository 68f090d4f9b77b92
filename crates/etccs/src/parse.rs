//! Parser for the thesis tool syntax (spec §5.1) plus the extensions of
//! spec §8.2, expanded at lowering time into plain terms: extended prefixes
//! (`a@e.P`, `'a@e.P`, `tau@e.P`, `a.P`) with exact time expressions,
//! `const` and `param` declarations, agents with parameters (`Node(3)`),
//! indexed channel families (`send[i]`, `transmit[j][i]`), `sum`/`par`
//! over index ranges, and family restriction (`\{send[*]}`).

use crate::error::{
    location, Error, SyntaxError, SyntaxKind as Kind, UndefinedAgentError, UnguardedRecursionError,
};
use crate::linear::LinExpr;
use crate::parametric::{Constraint, Normal, Rel};
use crate::term::{Act, Arena, ConstId, Name, TermId, Time};
use crate::time::Tm;
use expr::number::format_rational;
use expr::CmpOp;
use num_bigint::BigInt;
use num_traits::Zero;
use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::rc::Rc;

/// Maximum accepted input size in bytes.
pub const MAX_INPUT_BYTES: usize = 1 << 20;

/// The largest decimal exponent of a number (`1e400`): times are exact, and larger
/// exponents would only make huge integers.
pub const MAX_EXPONENT: i32 = 400;
/// Maximum nesting depth of terms (parentheses, prefixes, operators).
pub const MAX_DEPTH: usize = 100;

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Num(Time),
    Quote,
    LParen,
    RParen,
    Comma,
    Dot,
    Plus,
    Bar,
    Backslash,
    LBrace,
    RBrace,
    LBracket,
    RBracket,
    Slash,
    Eq,
    At,
    Semi,
    Minus,
    Star,
    DotDot,
    Colon,
    Cmp(CmpOp),
    Eof,
}

#[derive(Clone, Debug)]
struct Token {
    tok: Tok,
    start: usize,
    end: usize,
}

/// A time or index expression, evaluated exactly at lowering.
#[derive(Clone, Debug)]
enum Expr {
    Num(Time),
    Var(String, usize, usize),
    Neg(Box<Expr>),
    Bin(char, Box<Expr>, Box<Expr>, usize, usize),
    MinMax(bool, Vec<Expr>),
    /// `floor(e)` (false) or `round(e)` (true, halves away from zero).
    Round(bool, Box<Expr>),
}

/// A channel name with optional index expressions (`send[i]`); `None`
/// indices (`*`) only occur in restriction sets.
#[derive(Clone, Debug)]
struct Chan {
    base: String,
    idx: Vec<Option<Expr>>,
    start: usize,
    end: usize,
}

#[derive(Clone, Debug)]
enum ActAst {
    Tau,
    Name(Chan),
    Co(Chan),
}

#[derive(Clone, Debug)]
struct Cond {
    op: CmpOp,
    lhs: Expr,
    rhs: Expr,
}

#[derive(Clone, Debug)]
struct BigOp {
    var: String,
    lo: Expr,
    hi: Expr,
    cond: Option<Cond>,
    body: Box<Ast>,
    start: usize,
    end: usize,
}

#[derive(Clone, Debug)]
enum Ast {
    Nil,
    Terminated,
    Prefix(ActAst, Expr, Box<Ast>),
    Sum(Vec<Ast>),
    Par(Vec<Ast>),
    Restrict(Box<Ast>, Vec<Chan>),
    /// `(new, old)` pairs as written `[new/old]`.
    Relabel(Box<Ast>, Vec<(Chan, Chan)>),
    Agent(String, Vec<Expr>, usize, usize),
    SumOver(BigOp),
    ParOver(BigOp),
    /// `if e op e then P else Q`, decided at lowering.
    If(Box<Cond>, Box<Ast>, Box<Ast>),
}

struct Ctx<'a> {
    file: &'a str,
    src: &'a str,
}

impl Ctx<'_> {
    /// An error of class `kind` at `start..end`.
    fn error(
        &self,
        kind: Kind,
        start: usize,
        end: usize,
        message: &str,
        label: &str,
        help: Option<&str>,
    ) -> Error {
        Error::Syntax(Box::new(SyntaxError {
            kind,
            message: message.to_string(),
            location: location(self.file, self.src, start),
            src: diag::Snippet::new(self.file, self.src, start..end),
            span: (start, end.saturating_sub(start)).into(),
            label: label.to_string(),
            help: help.map(str::to_string),
        }))
    }
}

fn lex(cx: &Ctx) -> Result<Vec<Token>, Error> {
    let src = cx.src;
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        let start = i;
        let tok = if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(Token {
                tok: Tok::Ident(src[start..i].to_string()),
                start,
                end: i,
            });
            continue;
        } else if c.is_ascii_digit() {
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            let int_end = i;
            let mut frac = "";
            if i + 1 < b.len() && b[i] == b'.' && b[i + 1].is_ascii_digit() {
                i += 1;
                let fs = i;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
                frac = &src[fs..i];
            }
            // An exponent: `1e3`, `2.5E-2` (exact: 10^e scales the decimal).
            let mut exp: i32 = 0;
            let sign = usize::from(i + 1 < b.len() && matches!(b[i + 1], b'+' | b'-'));
            if i + 1 + sign < b.len()
                && matches!(b[i], b'e' | b'E')
                && b[i + 1 + sign].is_ascii_digit()
            {
                let es = i;
                i += 1 + sign;
                let ds = i;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
                match src[ds..i].parse::<i32>() {
                    Ok(e) if e <= MAX_EXPONENT => {
                        exp = if b[es + 1] == b'-' { -e } else { e };
                    }
                    _ => return Err(cx.error(
                        Kind::Syntax,
                        es,
                        i,
                        &format!("exponent larger than {MAX_EXPONENT}"),
                        "this exponent",
                        Some(
                            "times are exact numbers; write them in a unit where they are smaller",
                        ),
                    )),
                }
            }
            if i - start > 60 {
                return Err(cx.error(Kind::Syntax, start, i, "number too long", "here", None));
            }
            let int: BigInt = src[start..int_end]
                .parse()
                .unwrap_or_else(|_| BigInt::zero());
            let mut value = Time::from_integer(int);
            if !frac.is_empty() {
                let num: BigInt = frac.parse().unwrap_or_else(|_| BigInt::zero());
                let den = num_traits::pow(BigInt::from(10u32), frac.len());
                value += Time::new(num, den);
            }
            if exp != 0 {
                let scale = Time::from_integer(num_traits::pow(
                    BigInt::from(10u32),
                    exp.unsigned_abs() as usize,
                ));
                value = if exp > 0 {
                    value * scale
                } else {
                    value / scale
                };
            }
            out.push(Token {
                tok: Tok::Num(value),
                start,
                end: i,
            });
            continue;
        } else {
            i += 1;
            let two = b.get(i).copied();
            match (c, two) {
                (b'.', Some(b'.'))
                | (b'!', Some(b'='))
                | (b'=', Some(b'='))
                | (b'<', Some(b'='))
                | (b'>', Some(b'=')) => {
                    i += 1;
                }
                _ => {}
            }
            match (c, two) {
                (b'.', Some(b'.')) => Tok::DotDot,
                (b'!', Some(b'=')) => Tok::Cmp(CmpOp::Ne),
                (b'=', Some(b'=')) => Tok::Cmp(CmpOp::Eq),
                (b'<', Some(b'=')) => Tok::Cmp(CmpOp::Le),
                (b'>', Some(b'=')) => Tok::Cmp(CmpOp::Ge),
                _ => match c {
                    b'<' => Tok::Cmp(CmpOp::Lt),
                    b'>' => Tok::Cmp(CmpOp::Gt),
                    b'-' => Tok::Minus,
                    b'*' => Tok::Star,
                    b':' => Tok::Colon,
                    b'\'' => Tok::Quote,
                    b'(' => Tok::LParen,
                    b')' => Tok::RParen,
                    b',' => Tok::Comma,
                    b'.' => Tok::Dot,
                    b'+' => Tok::Plus,
                    b'|' => Tok::Bar,
                    b'\\' => Tok::Backslash,
                    b'{' => Tok::LBrace,
                    b'}' => Tok::RBrace,
                    b'[' => Tok::LBracket,
                    b']' => Tok::RBracket,
                    b'/' => Tok::Slash,
                    b'=' => Tok::Eq,
                    b'@' => Tok::At,
                    b';' => Tok::Semi,
                    _ => {
                        // Report the whole (possibly multi-byte) character.
                        let mut end = start + 1;
                        while end < src.len() && !src.is_char_boundary(end) {
                            end += 1;
                        }
                        return Err(cx.error(
                            Kind::Syntax,
                            start,
                            end,
                            &format!("unexpected character `{}`", &src[start..end]),
                            "not part of ETCCS syntax",
                            Some("comments start with `//`"),
                        ));
                    }
                },
            }
        };
        out.push(Token { tok, start, end: i });
    }
    out.push(Token {
        tok: Tok::Eof,
        start: src.len(),
        end: src.len(),
    });
    Ok(out)
}

struct Parser<'a> {
    cx: &'a Ctx<'a>,
    toks: Vec<Token>,
    pos: usize,
    depth: usize,
    uses_star: bool,
}

fn is_keyword(s: &str) -> bool {
    matches!(
        s,
        "nil" | "tau" | "Terminated" | "define" | "analyse" | "analyze"
    )
}

impl Parser<'_> {
    fn peek(&self) -> &Tok {
        &self.toks[self.pos].tok
    }
    fn peek_at(&self, k: usize) -> &Tok {
        let i = (self.pos + k).min(self.toks.len() - 1);
        &self.toks[i].tok
    }
    fn cur(&self) -> &Token {
        &self.toks[self.pos]
    }
    fn prev_end(&self) -> usize {
        if self.pos == 0 {
            0
        } else {
            self.toks[self.pos - 1].end
        }
    }
    fn bump(&mut self) -> Token {
        let t = self.toks[self.pos].clone();
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        t
    }
    fn err(&self, message: &str, help: Option<&str>) -> Error {
        let t = self.cur();
        let label = match &t.tok {
            Tok::Eof => "input ends here".to_string(),
            _ => "unexpected token".to_string(),
        };
        self.cx.error(
            Kind::Syntax,
            t.start,
            t.end.max(t.start + 1).min(self.cx.src.len().max(t.start)),
            message,
            &label,
            help,
        )
    }
    fn expect(&mut self, want: Tok, what: &str) -> Result<Token, Error> {
        if *self.peek() == want {
            Ok(self.bump())
        } else {
            Err(self.err(&format!("expected {what}"), None))
        }
    }
    fn ident(&mut self, what: &str) -> Result<(String, usize, usize), Error> {
        match self.peek().clone() {
            Tok::Ident(s) if !is_keyword(&s) => {
                let t = self.bump();
                Ok((s, t.start, t.end))
            }
            _ => Err(self.err(&format!("expected {what}"), None)),
        }
    }
    fn enter(&mut self) -> Result<(), Error> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err(
                &format!("nesting deeper than {MAX_DEPTH} levels"),
                Some("split the agent into several `define`s"),
            ));
        }
        Ok(())
    }

    /// expr := term (('+'|'-') term)*
    fn expr(&mut self) -> Result<Expr, Error> {
        self.enter()?;
        let e = self.binary([(Tok::Plus, '+'), (Tok::Minus, '-')], Self::term)?;
        self.depth -= 1;
        Ok(e)
    }

    /// term := factor (('*'|'/') factor)*
    fn term(&mut self) -> Result<Expr, Error> {
        self.binary([(Tok::Star, '*'), (Tok::Slash, '/')], Self::factor)
    }

    /// `next (op next)*`, left-associative, for the operators `ops`.
    fn binary(
        &mut self,
        ops: [(Tok, char); 2],
        next: fn(&mut Self) -> Result<Expr, Error>,
    ) -> Result<Expr, Error> {
        let start = self.cur().start;
        let mut e = next(self)?;
        while let Some(&(_, op)) = ops.iter().find(|(t, _)| t == self.peek()) {
            self.bump();
            let r = next(self)?;
            e = Expr::Bin(op, Box::new(e), Box::new(r), start, self.prev_end());
        }
        Ok(e)
    }

    fn factor(&mut self) -> Result<Expr, Error> {
        if *self.peek() == Tok::Minus {
            self.enter()?;
            self.bump();
            let e = self.factor()?;
            self.depth -= 1;
            return Ok(Expr::Neg(Box::new(e)));
        }
        self.primary()
    }

    /// primary := number | name | min(e, ...) | max(e, ...) | '(' expr ')'
    fn primary(&mut self) -> Result<Expr, Error> {
        match self.peek().clone() {
            Tok::Num(v) => {
                self.bump();
                Ok(Expr::Num(v))
            }
            Tok::LParen => {
                self.bump();
                let e = self.expr()?;
                self.expect(Tok::RParen, "`)` closing the expression")?;
                Ok(e)
            }
            Tok::Ident(s) if (s == "min" || s == "max") && *self.peek_at(1) == Tok::LParen => {
                self.bump();
                self.bump();
                let mut xs = vec![self.expr()?];
                while *self.peek() == Tok::Comma {
                    self.bump();
                    xs.push(self.expr()?);
                }
                self.expect(Tok::RParen, "`)` closing `min`/`max`")?;
                Ok(Expr::MinMax(s == "max", xs))
            }
            Tok::Ident(s)
                if (s == "floor" || s == "round") && *self.peek_at(1) == Tok::LParen =>
            {
                self.bump();
                self.bump();
                let e = self.expr()?;
                self.expect(Tok::RParen, "`)` closing `floor`/`round`")?;
                Ok(Expr::Round(s == "round", Box::new(e)))
            }
            Tok::Ident(s) if !is_keyword(&s) => {
                let t = self.bump();
                Ok(Expr::Var(s, t.start, t.end))
            }
            _ => Err(self.err(
                "expected a time expression",
                Some("a number, a `const`, an agent parameter or index, `min(..)`, `max(..)` or `( expr )`"),
            )),
        }
    }

    /// Indices after a channel base name: `[e]*` (and `[*]` if `star`).
    fn indices(&mut self, star: bool) -> Result<Vec<Option<Expr>>, Error> {
        let mut idx = Vec::new();
        while *self.peek() == Tok::LBracket {
            self.bump();
            if star && *self.peek() == Tok::Star {
                self.bump();
                self.uses_star = true;
                idx.push(None);
            } else {
                idx.push(Some(self.expr()?));
            }
            self.expect(Tok::RBracket, "`]` closing the index")?;
        }
        Ok(idx)
    }

    fn chan(&mut self, what: &str, star: bool) -> Result<Chan, Error> {
        let (base, start, _) = self.ident(what)?;
        let idx = self.indices(star)?;
        Ok(Chan {
            base,
            idx,
            start,
            end: self.prev_end(),
        })
    }

    fn params(&mut self) -> Result<Vec<String>, Error> {
        self.paren_list("`)` closing the parameters", |p| {
            Ok(p.ident("a parameter name")?.0)
        })
    }

    fn args(&mut self) -> Result<Vec<Expr>, Error> {
        self.paren_list("`)` closing the arguments", Self::expr)
    }

    /// An optional `( item, item, … )` list; absent parentheses give an empty list.
    fn paren_list<T>(
        &mut self,
        closing: &str,
        item: impl FnMut(&mut Self) -> Result<T, Error>,
    ) -> Result<Vec<T>, Error> {
        if *self.peek() != Tok::LParen {
            return Ok(Vec::new());
        }
        self.bump();
        let xs = if *self.peek() == Tok::RParen {
            Vec::new()
        } else {
            self.comma_list(item)?
        };
        self.expect(Tok::RParen, closing)?;
        Ok(xs)
    }

    /// One or more items separated by commas.
    fn comma_list<T>(
        &mut self,
        mut item: impl FnMut(&mut Self) -> Result<T, Error>,
    ) -> Result<Vec<T>, Error> {
        let mut xs = vec![item(self)?];
        while *self.peek() == Tok::Comma {
            self.bump();
            xs.push(item(self)?);
        }
        Ok(xs)
    }

    /// file := item*
    fn file(&mut self) -> Result<Vec<Item>, Error> {
        let mut items = Vec::new();
        loop {
            match self.peek().clone() {
                Tok::Eof => return Ok(items),
                Tok::Semi => {
                    self.bump();
                }
                Tok::Ident(k) if k == "define" || k == "agent" => {
                    self.bump();
                    let (name, s, e) = self.ident("an agent name after `define`")?;
                    let ps = self.params()?;
                    self.expect(Tok::Eq, "`=`")?;
                    let body = self.sum()?;
                    items.push(Item::Define(name, ps, s, e, Box::new(body)));
                }
                Tok::Ident(k) if k == "analyse" || k == "analyze" => {
                    self.bump();
                    let (name, s, _) = self.ident("an agent name after `analyse`")?;
                    let args = self.args()?;
                    items.push(Item::Analyse(name, args, s, self.prev_end()));
                }
                Tok::Ident(k) if k == "const" => {
                    self.bump();
                    let (name, s, e) = self.ident("a constant name after `const`")?;
                    self.expect(Tok::Eq, "`=` after the constant name")?;
                    let v = self.expr()?;
                    items.push(Item::Const(name, s, e, v));
                }
                Tok::Ident(k) if k == "param" => {
                    self.bump();
                    let names = self.comma_list(|p| p.ident("a parameter name after `param`"))?;
                    items.extend(names.into_iter().map(|(name, s, e)| Item::Param(name, s, e)));
                }
                Tok::Ident(k) if k == "assume" => {
                    self.bump();
                    let start = self.cur().start;
                    let c = self.cond()?;
                    items.push(Item::Assume(c, start, self.prev_end()));
                }
                _ => {
                    return Err(self.err(
                        "expected `define` or `analyse`",
                        Some("a model is a list of `define NAME = P`, `analyse NAME`, `const NAME = e;`, `param t1, t2;` and `assume t1 <= 2*t2;`"),
                    ))
                }
            }
        }
    }

    /// sum := par ('+' par)*
    fn sum(&mut self) -> Result<Ast, Error> {
        self.enter()?;
        let mut parts = vec![self.par()?];
        while *self.peek() == Tok::Plus {
            self.bump();
            parts.push(self.par()?);
        }
        self.depth -= 1;
        Ok(if parts.len() == 1 {
            parts.pop().expect("one")
        } else {
            Ast::Sum(parts)
        })
    }

    /// par := post ('|' post)*
    fn par(&mut self) -> Result<Ast, Error> {
        let mut parts = vec![self.post()?];
        while *self.peek() == Tok::Bar {
            self.bump();
            parts.push(self.post()?);
        }
        Ok(if parts.len() == 1 {
            parts.pop().expect("one")
        } else {
            Ast::Par(parts)
        })
    }

    /// post := prefixed ( '\' '{' names '}' | '[' new/old, ... ']' )*
    fn post(&mut self) -> Result<Ast, Error> {
        let mut t = self.prefixed()?;
        let depth = self.depth;
        loop {
            match self.peek() {
                Tok::Backslash => {
                    self.enter()?;
                    self.bump();
                    self.expect(Tok::LBrace, "`{` after `\\`")?;
                    let names = if *self.peek() == Tok::RBrace {
                        Vec::new()
                    } else {
                        self.comma_list(|p| p.chan("a name in the restriction set", true))?
                    };
                    self.expect(Tok::RBrace, "`}` closing the restriction set")?;
                    t = Ast::Restrict(Box::new(t), names);
                }
                Tok::LBracket => {
                    self.enter()?;
                    self.bump();
                    let pairs = self.comma_list(|p| {
                        let new = p.chan("a new name in `[new/old]`", false)?;
                        p.expect(Tok::Slash, "`/` in `[new/old]`")?;
                        let old = p.chan("an old name in `[new/old]`", false)?;
                        Ok((new, old))
                    })?;
                    self.expect(Tok::RBracket, "`]` closing the relabelling")?;
                    t = Ast::Relabel(Box::new(t), pairs);
                }
                _ => {
                    self.depth = depth;
                    return Ok(t);
                }
            }
        }
    }

    /// Action inside `( ... , n)`: `a`, `a'`, `'a` or `tau` (names may be indexed).
    fn paren_act(&mut self) -> Result<ActAst, Error> {
        if *self.peek() == Tok::Quote {
            self.bump();
            return Ok(ActAst::Co(self.chan("a name after `'`", false)?));
        }
        if let Tok::Ident(s) = self.peek().clone() {
            if s == "tau" {
                self.bump();
                return Ok(ActAst::Tau);
            }
        }
        let c = self.chan("an action name", false)?;
        if *self.peek() == Tok::Quote {
            self.bump();
            return Ok(ActAst::Co(c));
        }
        Ok(ActAst::Name(c))
    }

    /// Skips balanced `[ ... ]` groups starting at token offset `k`; returns the offset after them.
    fn skip_brackets(&self, mut k: usize) -> usize {
        while *self.peek_at(k) == Tok::LBracket {
            let mut level = 0usize;
            loop {
                match self.peek_at(k) {
                    Tok::LBracket => level += 1,
                    Tok::RBracket => level -= 1,
                    Tok::Eof => return k,
                    _ => {}
                }
                k += 1;
                if level == 0 {
                    break;
                }
            }
        }
        k
    }

    fn is_paren_prefix(&self) -> bool {
        // `(` act `,`  where act is `a`, `a'`, `'a` or `tau`, names optionally indexed.
        let mut k = 1;
        if *self.peek_at(k) == Tok::Quote {
            k += 1;
        }
        if !matches!(self.peek_at(k), Tok::Ident(_)) {
            return false;
        }
        k = self.skip_brackets(k + 1);
        if *self.peek_at(k) == Tok::Quote && *self.peek_at(1) != Tok::Quote {
            k += 1;
        }
        *self.peek_at(k) == Tok::Comma
    }

    /// After an action head: `@e .` or `.` (bound 0); `e` is a number, a
    /// name, `min(..)`/`max(..)` or a parenthesised expression.
    fn ext_bound(&mut self) -> Result<Expr, Error> {
        if *self.peek() == Tok::At {
            self.bump();
            let v = self.primary()?;
            self.expect(Tok::Dot, "`.` after the prefix")?;
            Ok(v)
        } else {
            self.expect(Tok::Dot, "`.` or `@time.` after the action")?;
            Ok(Expr::Num(Time::zero()))
        }
    }

    fn continuation(&mut self, act: ActAst, v: Expr) -> Result<Ast, Error> {
        self.enter()?;
        let cont = self.prefixed()?;
        self.depth -= 1;
        Ok(Ast::Prefix(act, v, Box::new(cont)))
    }

    /// `sum i in a..b [where e op e] : P` / `par ...`; `P` is a postfix term.
    fn big_op(&mut self, is_sum: bool) -> Result<Ast, Error> {
        let start = self.bump().start;
        let (var, _, _) = self.ident("an index variable")?;
        self.bump(); // `in`
        let lo = self.expr()?;
        self.expect(Tok::DotDot, "`..` in the index range")?;
        let hi = self.expr()?;
        let end = self.prev_end();
        let cond = if matches!(self.peek(), Tok::Ident(w) if w == "where") {
            self.bump();
            Some(self.cond()?)
        } else {
            None
        };
        self.expect(Tok::Colon, "`:` before the body")?;
        self.enter()?;
        let body = self.post()?;
        self.depth -= 1;
        let b = BigOp {
            var,
            lo,
            hi,
            cond,
            body: Box::new(body),
            start,
            end,
        };
        Ok(if is_sum {
            Ast::SumOver(b)
        } else {
            Ast::ParOver(b)
        })
    }

    fn cond(&mut self) -> Result<Cond, Error> {
        let lhs = self.expr()?;
        let op = match self.peek() {
            Tok::Cmp(op) => *op,
            _ => {
                return Err(self.err(
                    "expected a comparison (`!=`, `==`, `<`, `<=`, `>`, `>=`)",
                    None,
                ))
            }
        };
        self.bump();
        let rhs = self.expr()?;
        Ok(Cond { op, lhs, rhs })
    }

    /// `if e op e then P else Q` (`P`, `Q` postfix terms).
    fn if_then(&mut self) -> Result<Ast, Error> {
        self.bump();
        let c = self.cond()?;
        match self.peek() {
            Tok::Ident(w) if w == "then" => {
                self.bump();
            }
            _ => return Err(self.err("expected `then`", None)),
        }
        self.enter()?;
        let a = self.post()?;
        match self.peek() {
            Tok::Ident(w) if w == "else" => {
                self.bump();
            }
            _ => {
                return Err(self.err(
                    "expected `else`",
                    Some("write `else nil` for no alternative"),
                ))
            }
        }
        let b = self.post()?;
        self.depth -= 1;
        Ok(Ast::If(Box::new(c), Box::new(a), Box::new(b)))
    }

    /// prefixed := head '.' prefixed | atom
    fn prefixed(&mut self) -> Result<Ast, Error> {
        match self.peek().clone() {
            Tok::LParen if self.is_paren_prefix() => {
                self.bump();
                let act = self.paren_act()?;
                self.expect(Tok::Comma, "`,`")?;
                let v = self.expr()?;
                self.expect(Tok::RParen, "`)` closing the prefix")?;
                self.expect(Tok::Dot, "`.` after the prefix")?;
                self.continuation(act, v)
            }
            Tok::LParen => {
                self.bump();
                let t = self.sum()?;
                self.expect(Tok::RParen, "`)`")?;
                Ok(t)
            }
            Tok::Quote => {
                self.bump();
                let c = self.chan("a name after `'`", false)?;
                let v = self.ext_bound()?;
                self.continuation(ActAst::Co(c), v)
            }
            Tok::Ident(s) => match s.as_str() {
                "nil" => {
                    self.bump();
                    Ok(Ast::Nil)
                }
                "Terminated" => {
                    self.bump();
                    Ok(Ast::Terminated)
                }
                "tau" => {
                    self.bump();
                    let v = self.ext_bound()?;
                    self.continuation(ActAst::Tau, v)
                }
                "define" | "analyse" | "analyze" => Err(self.err(
                    "expected an agent expression",
                    Some("did you forget an operand before this keyword?"),
                )),
                "if" if !matches!(
                    self.peek_at(1),
                    Tok::At | Tok::Dot | Tok::Quote | Tok::LBracket
                ) =>
                {
                    self.if_then()
                }
                "sum" | "par"
                    if matches!(self.peek_at(1), Tok::Ident(_))
                        && matches!(self.peek_at(2), Tok::Ident(w) if w == "in") =>
                {
                    self.big_op(s == "sum")
                }
                _ => {
                    let after = self.skip_brackets(1);
                    match self.peek_at(after) {
                        Tok::Quote => {
                            let c = self.chan("an action name", false)?;
                            self.bump();
                            let v = self.ext_bound()?;
                            self.continuation(ActAst::Co(c), v)
                        }
                        Tok::At | Tok::Dot => {
                            let c = self.chan("an action name", false)?;
                            let v = self.ext_bound()?;
                            self.continuation(ActAst::Name(c), v)
                        }
                        _ => {
                            let t = self.bump();
                            let args = self.args()?;
                            Ok(Ast::Agent(s, args, t.start, self.prev_end()))
                        }
                    }
                }
            },
            _ => Err(self.err(
                "expected an agent expression",
                Some("e.g. `nil`, `(a,3).P`, `a@3.P`, `(P | Q)` or an agent name"),
            )),
        }
    }
}

enum Item {
    Define(String, Vec<String>, usize, usize, Box<Ast>),
    Analyse(String, Vec<Expr>, usize, usize),
    Const(String, usize, usize, Expr),
    Param(String, usize, usize),
    Assume(Cond, usize, usize),
}

/// A parsed and checked ETCCS model: agent definitions and `analyse` requests.
#[derive(Clone, Debug)]
pub struct Model {
    /// The term arena holding all agents (and, after analysis, all states).
    pub arena: Arena,
    /// Defined agents in source order (then instances of parameterised
    /// agents, named like `Node(3)`, in order of instantiation).
    pub agents: Vec<(String, ConstId)>,
    /// Agents named by `analyse` directives, in source order.
    pub analyses: Vec<String>,
    /// `assume` declarations restricting the symbolic parameters, as
    /// normalised constraints (the parametric analysis covers only the
    /// valuations where all hold).
    pub assumptions: Vec<Constraint>,
}

impl Model {
    /// The term of a defined agent.
    pub fn agent(&mut self, name: &str) -> Option<TermId> {
        let c = self.arena.find_const(name)?;
        self.arena.const_body(c)?;
        Some(self.arena.const_term(c))
    }
}

/// Maximum number of expansions (agent instances, `sum`/`par` operands,
/// family members in restrictions) when lowering one model.
pub const MAX_EXPANSIONS: usize = 1_000_000;

/// Maximum number of distinct agent instances (`Node(3)`, ...) per model.
pub const MAX_INSTANCES: usize = 20_000;

/// The message for a symbolic parameter reaching the concrete analysis.
pub const PARAM_MESSAGE: &str =
    "a symbolic parameter can only be used in prefix times, not in indices, ranges, conditions or agent arguments";

struct Def {
    params: Vec<String>,
    body: Ast,
    start: usize,
    end: usize,
}

/// An interned channel name split into base and integer indices.
type ChanKey = (String, Vec<BigInt>);

struct Lower<'a> {
    cx: &'a Ctx<'a>,
    defs: HashMap<String, Rc<Def>>,
    consts: HashMap<String, Time>,
    params: HashSet<String>,
    /// Treat unbound names in prefix times as symbolic parameters (a model
    /// without `const` or `param` declarations, as the thesis tool did).
    implicit_params: bool,
    locals: Vec<(String, Time)>,
    /// Channel names seen by a previous pass (for `name[*]`).
    star: Option<&'a BTreeSet<ChanKey>>,
    seen: BTreeSet<ChanKey>,
    instances: HashMap<String, ConstId>,
    queue: VecDeque<(ConstId, String, Vec<Time>)>,
    agents: Vec<(String, ConstId)>,
    spans: HashMap<ConstId, (usize, usize)>,
    expansions: usize,
}

impl<'a> Lower<'a> {
    /// A lowering context with no agents yet.
    fn new(
        cx: &'a Ctx<'a>,
        consts: &HashMap<String, Time>,
        params: &HashSet<String>,
        implicit_params: bool,
        star: Option<&'a BTreeSet<ChanKey>>,
    ) -> Self {
        Lower {
            cx,
            defs: HashMap::new(),
            consts: consts.clone(),
            params: params.clone(),
            implicit_params,
            locals: Vec::new(),
            star,
            seen: BTreeSet::new(),
            instances: HashMap::new(),
            queue: VecDeque::new(),
            agents: Vec::new(),
            spans: HashMap::new(),
            expansions: 0,
        }
    }

    fn count(&mut self, start: usize, end: usize) -> Result<(), Error> {
        self.expansions += 1;
        if self.expansions > MAX_EXPANSIONS {
            return Err(self.cx.error(
                Kind::Limit,
                start,
                end,
                &format!("expansion limit reached: more than {MAX_EXPANSIONS} agent instances, index-range operands or family members"),
                "expanding this exceeds the limit",
                Some("use smaller index ranges or constants"),
            ));
        }
        Ok(())
    }

    fn eval(&self, e: &Expr) -> Result<Time, Error> {
        Ok(match e {
            Expr::Num(v) => v.clone(),
            Expr::Var(n, s, t) => {
                if let Some((_, v)) = self.locals.iter().rev().find(|(m, _)| m == n) {
                    v.clone()
                } else if let Some(v) = self.consts.get(n) {
                    v.clone()
                } else if self.params.contains(n) {
                    return Err(self.cx.error(
                        Kind::Model,
                        *s,
                        *t,
                        PARAM_MESSAGE,
                        "symbolic parameter",
                        Some("give it a value with `const NAME = value;` or an override"),
                    ));
                } else {
                    return Err(self.cx.error(
                        Kind::Model,
                        *s,
                        *t,
                        &format!("unbound name `{n}`"),
                        "not a const, param, agent parameter or index variable",
                        Some("declare it with `const NAME = value;`"),
                    ));
                }
            }
            Expr::Neg(x) => -self.eval(x)?,
            Expr::Bin(op, a, b, s, t) => {
                let x = self.eval(a)?;
                let y = self.eval(b)?;
                match op {
                    '+' => x + y,
                    '-' => x - y,
                    '*' => x * y,
                    _ => {
                        if y.is_zero() {
                            return Err(self.cx.error(
                                Kind::Model,
                                *s,
                                *t,
                                "division by zero",
                                "divides by zero",
                                None,
                            ));
                        }
                        x / y
                    }
                }
            }
            Expr::MinMax(is_max, xs) => {
                let mut best: Option<Time> = None;
                for x in xs {
                    let v = self.eval(x)?;
                    best = Some(match best {
                        None => v,
                        Some(b) if (*is_max && v > b) || (!*is_max && v < b) => v,
                        Some(b) => b,
                    });
                }
                best.unwrap_or_else(Time::zero)
            }
            Expr::Round(r, x) => {
                let v = self.eval(x)?;
                if *r {
                    v.round()
                } else {
                    v.floor()
                }
            }
        })
    }

    /// Evaluates a prefix time: a linear expression over the symbolic
    /// parameters (constants, agent parameters and indices evaluate to numbers).
    fn eval_lin(&self, e: &Expr, arena: &mut Arena) -> Result<LinExpr, Error> {
        let nonlinear = |s: usize, t: usize, what: &str| {
            self.cx.error(
                Kind::Model,
                s,
                t,
                &format!("{what} of symbolic parameters is not linear"),
                "symbolic operand",
                Some("time expressions are linear in the parameters (spec §4.1): multiply or divide a parameter only by a number"),
            )
        };
        Ok(match e {
            Expr::Var(n, _, _)
                if !self.locals.iter().any(|(m, _)| m == n)
                    && !self.consts.contains_key(n)
                    && (self.params.contains(n) || self.implicit_params) =>
            {
                LinExpr::var(arena.param(n))
            }
            Expr::Neg(x) => self.eval_lin(x, arena)?.scale(&Tm::int(-1)),
            Expr::Bin(op, a, b, s, t) => {
                let x = self.eval_lin(a, arena)?;
                let y = self.eval_lin(b, arena)?;
                match op {
                    '+' => x.add(&y),
                    '-' => x.sub(&y),
                    '*' if x.is_constant() => y.scale(x.constant_part()),
                    '*' if y.is_constant() => x.scale(y.constant_part()),
                    '*' => return Err(nonlinear(*s, *t, "a product")),
                    _ if !y.is_constant() => return Err(nonlinear(*s, *t, "a division")),
                    _ if y.is_zero() => {
                        return Err(self.cx.error(
                            Kind::Model,
                            *s,
                            *t,
                            "division by zero",
                            "divides by zero",
                            None,
                        ))
                    }
                    _ => x.scale(&y.constant_part().recip()),
                }
            }
            Expr::MinMax(is_max, xs) => {
                let mut vals = Vec::with_capacity(xs.len());
                for x in xs {
                    let v = self.eval_lin(x, arena)?;
                    if !v.is_constant() {
                        let (s, t) = Self::span_of(x).unwrap_or((0, 0));
                        return Err(nonlinear(s, t, if *is_max { "`max`" } else { "`min`" }));
                    }
                    vals.push(v.constant_part().clone());
                }
                let best = vals.into_iter().reduce(|a, b| {
                    if (*is_max && b > a) || (!*is_max && b < a) {
                        b
                    } else {
                        a
                    }
                });
                LinExpr::constant(best.unwrap_or(Tm::ZERO))
            }
            Expr::Round(_, x) => {
                let v = self.eval_lin(x, arena)?;
                if !v.is_constant() {
                    let (s, t) = Self::span_of(x).unwrap_or((0, 0));
                    return Err(nonlinear(s, t, "rounding"));
                }
                LinExpr::constant(Tm::from_big(&self.eval(e)?))
            }
            Expr::Num(_) | Expr::Var(..) => LinExpr::constant(Tm::from_big(&self.eval(e)?)),
        })
    }

    fn test(&self, c: &Cond) -> Result<bool, Error> {
        let x = self.eval(&c.lhs)?;
        let y = self.eval(&c.rhs)?;
        Ok(c.op.holds(&x, &y))
    }

    fn span_of(e: &Expr) -> Option<(usize, usize)> {
        match e {
            Expr::Var(_, s, t) | Expr::Bin(_, _, _, s, t) => Some((*s, *t)),
            Expr::Neg(x) | Expr::Round(_, x) => Self::span_of(x),
            Expr::MinMax(_, xs) => xs.first().and_then(Self::span_of),
            Expr::Num(_) => None,
        }
    }

    fn int(&self, e: &Expr, fallback: (usize, usize), what: &str) -> Result<BigInt, Error> {
        let v = self.eval(e)?;
        if !v.is_integer() {
            let (s, t) = Self::span_of(e).unwrap_or(fallback);
            return Err(self.cx.error(
                Kind::Model,
                s,
                t,
                &format!("{what} must be an integer, got {}", format_rational(&v)),
                "not an integer",
                None,
            ));
        }
        Ok(v.to_integer())
    }

    fn chan_key(&self, c: &Chan) -> Result<ChanKey, Error> {
        let mut idx = Vec::with_capacity(c.idx.len());
        for e in &c.idx {
            match e {
                Some(e) => idx.push(self.int(e, (c.start, c.end), "a channel index")?),
                None => {
                    return Err(self.cx.error(
                        Kind::Model,
                        c.start,
                        c.end,
                        "`[*]` is only allowed in restriction sets",
                        "family wildcard",
                        None,
                    ))
                }
            }
        }
        Ok((c.base.clone(), idx))
    }

    fn name(&mut self, arena: &mut Arena, key: ChanKey) -> Name {
        let mut s = key.0.clone();
        for i in &key.1 {
            s.push_str(&format!("[{i}]"));
        }
        self.seen.insert(key);
        arena.name(&s)
    }

    fn chan(&mut self, arena: &mut Arena, c: &Chan) -> Result<Name, Error> {
        let k = self.chan_key(c)?;
        Ok(self.name(arena, k))
    }

    /// The constant for `name(args)`, creating (and queueing) it if new.
    fn instance(
        &mut self,
        arena: &mut Arena,
        name: &str,
        args: &[Expr],
        start: usize,
        end: usize,
    ) -> Result<ConstId, Error> {
        let Some(def) = self.defs.get(name) else {
            return Err(Error::UndefinedAgent(Box::new(UndefinedAgentError {
                name: name.to_string(),
                location: location(self.cx.file, self.cx.src, start),
                src: diag::Snippet::new(self.cx.file, self.cx.src, start..end),
                span: (start, end - start).into(),
            })));
        };
        let (want, ds, de) = (def.params.len(), def.start, def.end);
        if want != args.len() {
            return Err(self.cx.error(
                Kind::Model,
                start,
                end,
                &format!(
                    "agent `{name}` takes {want} argument{}, given {}",
                    if want == 1 { "" } else { "s" },
                    args.len()
                ),
                "wrong number of arguments",
                None,
            ));
        }
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            vals.push(self.eval(a)?);
        }
        let key = if vals.is_empty() {
            name.to_string()
        } else {
            let v: Vec<String> = vals.iter().map(|v| v.to_string()).collect();
            format!("{name}({})", v.join(","))
        };
        if let Some(c) = self.instances.get(&key) {
            return Ok(*c);
        }
        self.count(start, end)?;
        if self.instances.len() >= MAX_INSTANCES {
            return Err(self.cx.error(
                Kind::Limit,
                start,
                end,
                &format!("expansion limit reached: more than {MAX_INSTANCES} agent instances"),
                "instantiating this exceeds the limit",
                Some("recursion through a parameterised agent must reach finitely many argument values"),
            ));
        }
        let c = arena.constant(&key);
        self.instances.insert(key.clone(), c);
        self.agents.push((key, c));
        self.spans.insert(c, (ds, de));
        self.queue.push_back((c, name.to_string(), vals));
        Ok(c)
    }

    fn drain(&mut self, arena: &mut Arena) -> Result<(), Error> {
        while let Some((c, name, vals)) = self.queue.pop_front() {
            let def = Rc::clone(&self.defs[&name]);
            self.locals = def.params.iter().cloned().zip(vals).collect();
            let r = self.lower(&def.body, arena);
            self.locals.clear();
            let t = r?;
            arena.define(c, t);
        }
        Ok(())
    }

    fn range(&mut self, b: &BigOp) -> Result<Vec<Time>, Error> {
        let lo = self.int(&b.lo, (b.start, b.end), "a range bound")?;
        let hi = self.int(&b.hi, (b.start, b.end), "a range bound")?;
        if hi < lo {
            return Err(self.cx.error(
                Kind::Model,
                b.start,
                b.end,
                &format!("empty index range {lo}..{hi}"),
                "upper bound below lower bound",
                Some("ranges are inclusive: `0..p-1` has p elements"),
            ));
        }
        let n = &hi - &lo + 1;
        if n > BigInt::from(MAX_EXPANSIONS) {
            return Err(self.cx.error(
                Kind::Limit,
                b.start,
                b.end,
                &format!("index range {lo}..{hi} exceeds the expansion limit of {MAX_EXPANSIONS}"),
                "too large",
                None,
            ));
        }
        let mut out = Vec::new();
        let mut i = lo;
        while i <= hi {
            self.count(b.start, b.end)?;
            let v = Time::from_integer(i.clone());
            self.locals.push((b.var.clone(), v.clone()));
            let keep = match &b.cond {
                None => Ok(true),
                Some(c) => self.test(c),
            };
            self.locals.pop();
            if keep? {
                out.push(v);
            }
            i += 1;
        }
        Ok(out)
    }

    fn lower(&mut self, ast: &Ast, arena: &mut Arena) -> Result<TermId, Error> {
        Ok(match ast {
            Ast::Nil => arena.nil(),
            Ast::Terminated => arena.terminated(),
            Ast::Prefix(a, e, c) => {
                let act = match a {
                    ActAst::Tau => Act::Tau,
                    ActAst::Name(n) => Act::Name(self.chan(arena, n)?),
                    ActAst::Co(n) => Act::CoName(self.chan(arena, n)?),
                };
                let v = self.eval_lin(e, arena)?;
                if v.is_constant() && v.constant_part().is_negative() {
                    let (s, t) = Self::span_of(e).unwrap_or((0, 0));
                    return Err(self.cx.error(
                        Kind::Model,
                        s,
                        t,
                        &format!(
                            "negative time {}",
                            format_rational(&v.constant_part().to_big())
                        ),
                        "evaluates below 0",
                        None,
                    ));
                }
                let k = self.lower(c, arena)?;
                arena.sym_prefix(act, v, k)
            }
            Ast::Sum(xs) | Ast::Par(xs) => {
                let mut ids = Vec::with_capacity(xs.len());
                for x in xs {
                    ids.push(self.lower(x, arena)?);
                }
                if matches!(ast, Ast::Sum(_)) {
                    arena.sum(ids)
                } else {
                    arena.par(ids)
                }
            }
            Ast::SumOver(b) | Ast::ParOver(b) => {
                let vals = self.range(b)?;
                let mut ids = Vec::with_capacity(vals.len());
                for v in vals {
                    self.locals.push((b.var.clone(), v));
                    let r = self.lower(&b.body, arena);
                    self.locals.pop();
                    ids.push(r?);
                }
                if matches!(ast, Ast::SumOver(_)) {
                    arena.sum(ids)
                } else {
                    arena.par(ids)
                }
            }
            Ast::Restrict(x, l) => {
                let k = self.lower(x, arena)?;
                let mut names = Vec::new();
                for c in l {
                    if c.idx.iter().any(Option::is_none) {
                        let mut pat = Vec::with_capacity(c.idx.len());
                        for e in &c.idx {
                            pat.push(match e {
                                Some(e) => {
                                    Some(self.int(e, (c.start, c.end), "a channel index")?)
                                }
                                None => None,
                            });
                        }
                        let matching: Vec<ChanKey> = self
                            .star
                            .into_iter()
                            .flatten()
                            .filter(|(base, idx)| {
                                *base == c.base
                                    && idx.len() == pat.len()
                                    && idx
                                        .iter()
                                        .zip(&pat)
                                        .all(|(i, p)| p.as_ref().is_none_or(|p| p == i))
                            })
                            .cloned()
                            .collect();
                        for m in matching {
                            self.count(c.start, c.end)?;
                            names.push(self.name(arena, m));
                        }
                    } else {
                        names.push(self.chan(arena, c)?);
                    }
                }
                arena.restrict(k, names)
            }
            Ast::Relabel(x, f) => {
                let k = self.lower(x, arena)?;
                let mut map = Vec::with_capacity(f.len());
                for (new, old) in f {
                    let o = self.chan(arena, old)?;
                    let n = self.chan(arena, new)?;
                    map.push((o, n));
                }
                arena.relabel(k, map)
            }
            Ast::Agent(n, args, s, e) => {
                let c = self.instance(arena, n, args, *s, *e)?;
                arena.const_term(c)
            }
            Ast::If(c, a, b) => {
                if self.test(c)? {
                    self.lower(a, arena)?
                } else {
                    self.lower(b, arena)?
                }
            }
        })
    }
}

/// Parses a model in the thesis tool syntax (extended syntax accepted).
///
/// `file` names the source in error messages. Errors carry spans; no input
/// makes this function panic. Checks: syntax, input size
/// ([`MAX_INPUT_BYTES`]), nesting depth ([`MAX_DEPTH`]), duplicate and
/// undefined agents, unbound names, arities, index ranges, the expansion
/// limit ([`MAX_EXPANSIONS`]) and unguarded recursion.
pub fn parse(file: &str, src: &str) -> Result<Model, Error> {
    parse_with_consts(file, src, &[])
}

/// Like [`parse`], with the values of some `const` declarations overridden
/// (as `--const p=4` would), e.g. to tabulate a model over `p`.
/// Overriding a name the model does not declare with `const` is an error.
pub fn parse_with_consts(
    file: &str,
    src: &str,
    overrides: &[(&str, Time)],
) -> Result<Model, Error> {
    parse_with_symbolic(file, src, overrides, &[])
}

/// Like [`parse_with_consts`], and the `const`s named in `symbolic` become
/// symbolic parameters (as `--symbolic tsend,b` would), so that a concrete
/// model can be analysed parametrically in some of its constants. Naming a
/// constant that is not declared, or one that is also overridden, is an error.
pub fn parse_with_symbolic(
    file: &str,
    src: &str,
    overrides: &[(&str, Time)],
    symbolic: &[&str],
) -> Result<Model, Error> {
    let cx = Ctx { file, src };
    if src.len() > MAX_INPUT_BYTES {
        return Err(cx.error(
            Kind::Limit,
            0,
            0,
            &format!("input larger than {MAX_INPUT_BYTES} bytes"),
            "input starts here",
            None,
        ));
    }
    let toks = lex(&cx)?;
    let run = |toks: Vec<Token>| {
        let mut p = Parser {
            cx: &cx,
            toks,
            pos: 0,
            depth: 0,
            uses_star: false,
        };
        p.file().map(|items| (items, p.uses_star))
    };
    // Recursive descent in debug builds uses large frames; give the parser
    // (and lowering) a generous stack so the depth limit, not the stack,
    // is what bounds nesting.
    sweep::deep_stack::run(|| {
        let (items, uses_star) = run(toks)?;
        lower_model(&cx, &items, uses_star, overrides, symbolic)
    })
}

fn lower_model(
    cx: &Ctx,
    items: &[Item],
    uses_star: bool,
    overrides: &[(&str, Time)],
    symbolic: &[&str],
) -> Result<Model, Error> {
    let (file, src) = (cx.file, cx.src);
    for n in symbolic {
        if overrides.iter().any(|(m, _)| m == n) {
            return Err(cx.error(
                Kind::Model,
                0,
                0,
                &format!("`{n}` is given a value and made symbolic"),
                "model starts here",
                Some("a name is either given a value (an override) or made symbolic, not both"),
            ));
        }
    }
    // Declarations: agents, params, consts (in order, overrides applied).
    let mut defs: HashMap<String, Rc<Def>> = HashMap::new();
    let mut order = Vec::new();
    let mut params = HashSet::new();
    let mut consts: HashMap<String, Time> = HashMap::new();
    for it in items {
        match it {
            Item::Define(n, ps, s, e, body) => {
                if defs.contains_key(n) {
                    return Err(cx.error(
                        Kind::Model,
                        *s,
                        *e,
                        &format!("agent `{n}` is defined twice"),
                        "second definition",
                        None,
                    ));
                }
                for (i, p) in ps.iter().enumerate() {
                    if ps[..i].contains(p) {
                        return Err(cx.error(
                            Kind::Model,
                            *s,
                            *e,
                            &format!("parameter `{p}` of agent `{n}` is declared twice"),
                            "in this definition",
                            None,
                        ));
                    }
                }
                order.push(n.clone());
                defs.insert(
                    n.clone(),
                    Rc::new(Def {
                        params: ps.clone(),
                        body: (**body).clone(),
                        start: *s,
                        end: *e,
                    }),
                );
            }
            Item::Param(n, s, e) | Item::Const(n, s, e, _) => {
                if params.contains(n) || consts.contains_key(n) {
                    return Err(cx.error(
                        Kind::Model,
                        *s,
                        *e,
                        &format!("`{n}` is declared twice"),
                        "second declaration",
                        None,
                    ));
                }
                let fixed = overrides.iter().find(|(m, _)| m == n);
                if symbolic.contains(&n.as_str()) {
                    // `--symbolic tsend` turns a constant into a parameter.
                    params.insert(n.clone());
                } else if let (Item::Param(..), Some((_, v))) = (it, fixed) {
                    // `--const t1=3` gives a symbolic parameter a value.
                    consts.insert(n.clone(), v.clone());
                } else if let Item::Const(_, _, _, x) = it {
                    let v = match fixed {
                        Some((_, v)) => v.clone(),
                        None => {
                            let l = Lower::new(cx, &consts, &params, false, None);
                            l.eval(x)?
                        }
                    };
                    consts.insert(n.clone(), v);
                } else {
                    params.insert(n.clone());
                }
            }
            Item::Analyse(..) | Item::Assume(..) => {}
        }
    }
    for n in symbolic {
        if !params.contains(*n) {
            return Err(cx.error(
                Kind::UnknownSymbolic,
                0,
                0,
                &format!(
                    "cannot make `{n}` symbolic: the model declares no `const {n}` or `param {n}`"
                ),
                "model starts here",
                None,
            ));
        }
    }
    for (n, _) in overrides {
        if !consts.contains_key(*n) {
            return Err(cx.error(
                Kind::UnknownOverride,
                0,
                0,
                &format!("cannot override `{n}`: the model declares no `const {n}` or `param {n}`"),
                "model starts here",
                None,
            ));
        }
    }
    let implicit_params = consts.is_empty()
        && params.is_empty()
        && !items
            .iter()
            .any(|it| matches!(it, Item::Const(..) | Item::Param(..) | Item::Assume(..)));
    // Symbolic parameters are numbered in declaration order.
    let declared: Vec<&String> = items
        .iter()
        .filter_map(|it| match it {
            Item::Param(n, ..) | Item::Const(n, ..) if params.contains(n) => Some(n),
            _ => None,
        })
        .collect();
    let new_arena = || {
        let mut a = Arena::new();
        for n in &declared {
            a.param(n);
        }
        a
    };
    let lower_pass =
        |star: Option<&BTreeSet<ChanKey>>, arena: &mut Arena| -> Result<Lowered, Error> {
            let mut l = Lower::new(cx, &consts, &params, implicit_params, star);
            for n in &order {
                let d = &defs[n];
                l.defs.insert(n.clone(), Rc::clone(d));
            }
            // Plain agents in source order first, so they keep their ids.
            for n in &order {
                let d = &defs[n];
                if d.params.is_empty() {
                    l.instance(arena, n, &[], d.start, d.end)?;
                }
            }
            let mut analyses = Vec::new();
            for it in items {
                if let Item::Analyse(n, args, s, e) = it {
                    let c = l.instance(arena, n, args, *s, *e)?;
                    analyses.push(arena.const_name(c).to_string());
                }
            }
            l.drain(arena)?;
            Ok(Lowered {
                seen: l.seen,
                agents: l.agents,
                spans: l.spans,
                analyses,
            })
        };
    let mut arena = new_arena();
    let first;
    let star = if uses_star {
        let mut scratch = new_arena();
        first = lower_pass(None, &mut scratch)?.seen;
        Some(&first)
    } else {
        None
    };
    let l = lower_pass(star, &mut arena)?;
    if let Err(c) = arena.check_guarded() {
        let (s, e) = l.spans.get(&c).copied().unwrap_or((0, 0));
        return Err(Error::UnguardedRecursion(Box::new(
            UnguardedRecursionError {
                name: arena.const_name(c).to_string(),
                location: location(file, src, s),
                src: diag::Snippet::new(file, src, s..e),
                span: (s, e - s).into(),
            },
        )));
    }
    let assumptions = lower_assumptions(cx, items, &consts, &params, implicit_params, &mut arena)?;
    Ok(Model {
        arena,
        agents: l.agents,
        analyses: l.analyses,
        assumptions,
    })
}

/// Evaluates the `assume` declarations into constraints; with every
/// parameter given a value, a violated assumption is an error.
fn lower_assumptions(
    cx: &Ctx,
    items: &[Item],
    consts: &HashMap<String, Time>,
    params: &HashSet<String>,
    implicit_params: bool,
    arena: &mut Arena,
) -> Result<Vec<Constraint>, Error> {
    let l = Lower::new(cx, consts, params, implicit_params, None);
    let mut out = Vec::new();
    for it in items {
        let Item::Assume(c, s, e) = it else { continue };
        let lhs = l.eval_lin(&c.lhs, arena)?;
        let rhs = l.eval_lin(&c.rhs, arena)?;
        let (diff, rel) = match c.op {
            CmpOp::Eq => (lhs.sub(&rhs), Rel::Eq),
            CmpOp::Ne => (lhs.sub(&rhs), Rel::Ne),
            CmpOp::Lt => (rhs.sub(&lhs), Rel::Gt),
            CmpOp::Le => (rhs.sub(&lhs), Rel::Ge),
            CmpOp::Gt => (lhs.sub(&rhs), Rel::Gt),
            CmpOp::Ge => (lhs.sub(&rhs), Rel::Ge),
        };
        match Constraint::normal(diff, rel) {
            Normal::True => {}
            Normal::False => {
                return Err(cx.error(
                Kind::Model,
                    *s,
                    *e,
                    "this assumption does not hold",
                    "false for the given values",
                    Some("an `assume` restricts symbolic parameters; check the values given with `const` or overrides"),
                ))
            }
            Normal::Proper(k) => out.push(k),
        }
    }
    Ok(out)
}

struct Lowered {
    seen: BTreeSet<ChanKey>,
    agents: Vec<(String, ConstId)>,
    spans: HashMap<ConstId, (usize, usize)>,
    analyses: Vec<String>,
}
