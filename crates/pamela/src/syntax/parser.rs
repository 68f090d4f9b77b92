//! A hand-written recursive-descent parser from tokens to the [`ast`](super::ast).
//!
//! Recursion depth is bounded by [`MAX_NESTING`]: every nested term, parenthesised or
//! function-argument expression, unary operator and `mod`/`div` counts one level, and the
//! parser fails with [`ErrorKind::Limit`] beyond it. Operator chains (`;`, `||`, `+`, `*`,
//! `and`, `or`) are collected into flat lists, so long chains cost no stack. Expressions are
//! parsed by precedence climbing; [`super::parse`] runs the parser on a thread with a large
//! stack when the tokens may nest deeply ([`super::lexer::depth_bound`]).

use expr::CmpOp;

use super::ast::{
    Ex, ExKind, File, Func, Ident, MulOp, Mult, ParamDecl, ProcessDecl, ResourceDecl, Span, Term,
    TermKind,
};
use super::lexer::{Kw, Tok, Token};
use super::{Fail, MAX_NESTING};
use crate::diag::ErrorKind;
use crate::model::Compose;

type PResult<T> = Result<T, Fail>;

/// Parser state: the token vector and a cursor.
pub(crate) struct Parser<'a> {
    src: &'a str,
    toks: Vec<Token>,
    pos: usize,
    depth: usize,
    prev_end: usize,
}

impl<'a> Parser<'a> {
    /// A parser over `toks` (which end with [`Tok::Eof`]) lexed from `src`.
    pub(crate) fn new(src: &'a str, toks: Vec<Token>) -> Parser<'a> {
        Parser {
            src,
            toks,
            pos: 0,
            depth: 0,
            prev_end: 0,
        }
    }

    // ----- token helpers -------------------------------------------------------------

    fn token_at(&self, i: usize) -> Token {
        // The vector always ends with Eof; indexes past it see that Eof.
        self.toks
            .get(i)
            .or_else(|| self.toks.last())
            .copied()
            .unwrap_or(Token {
                tok: Tok::Eof,
                start: 0,
                end: 0,
            })
    }

    fn cur(&self) -> Token {
        self.token_at(self.pos)
    }

    fn peek(&self) -> Tok {
        self.cur().tok
    }

    fn peek_at(&self, k: usize) -> Tok {
        self.token_at(self.pos + k).tok
    }

    fn span(t: Token) -> Span {
        Span::new(t.start as usize, t.end as usize)
    }

    fn bump(&mut self) -> Token {
        let t = self.cur();
        if t.tok != Tok::Eof {
            self.pos += 1;
            self.prev_end = t.end as usize;
        }
        t
    }

    fn eat(&mut self, tok: Tok) -> bool {
        if self.peek() == tok {
            self.bump();
            true
        } else {
            false
        }
    }

    /// Span from `start` to the end of the last consumed token.
    fn since(&self, start: usize) -> Span {
        Span::new(start, self.prev_end.max(start))
    }

    /// How the current token is named in messages.
    fn found(&self) -> String {
        let t = self.cur();
        match t.tok {
            Tok::Ident => format!("`{}`", t.text(self.src)),
            Tok::Num => format!("the number `{}`", t.text(self.src)),
            Tok::Kw(k) => format!("the keyword `{}`", k.text()),
            other => other.describe(),
        }
    }

    /// "expected X, found Y" at the current token.
    fn unexpected(&self, expected: &str) -> Fail {
        let t = self.cur();
        Fail::at(
            ErrorKind::Syntax,
            format!("expected {expected}, found {}", self.found()),
            Self::span(t),
            format!("expected {expected}"),
        )
    }

    /// "expected X" pointing just after the previous token (for missing `;`, `)`, …).
    fn missing(&self, expected: &str, after: &str) -> Fail {
        Fail::new(
            ErrorKind::Syntax,
            format!("expected {expected} {after}, found {}", self.found()),
            self.prev_end,
            0,
            format!("expected {expected} here"),
        )
    }

    fn expect(&mut self, tok: Tok, after: &str) -> PResult<Token> {
        if self.peek() == tok {
            Ok(self.bump())
        } else {
            Err(self
                .missing(&tok.describe(), after)
                .help(format!("insert {} {after}", tok.describe())))
        }
    }

    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            let t = self.cur();
            return Err(Fail::at(
                ErrorKind::Limit,
                format!("the model nests deeper than {MAX_NESTING} levels"),
                Self::span(t),
                "nesting limit reached here",
            )
            .help("flatten the expression or term, or move parts into separate processes"));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    fn ident(&mut self, what: &str) -> PResult<Ident> {
        let t = self.cur();
        match t.tok {
            Tok::Ident => {
                self.bump();
                Ok(Ident {
                    name: t.text(self.src).into(),
                    span: Self::span(t),
                })
            }
            Tok::Kw(k) => Err(Fail::at(
                ErrorKind::Syntax,
                format!(
                    "`{}` is a reserved word and cannot be used as {what}",
                    k.text()
                ),
                Self::span(t),
                "reserved word",
            )
            .help(format!("choose another name, e.g. `{}_`", k.text()))),
            _ => Err(self.unexpected(what).help(format!(
                "write {what} here: a name of letters, digits and `_`, starting with a letter"
            ))),
        }
    }

    // ----- declarations --------------------------------------------------------------

    /// Parses a whole file.
    pub(crate) fn file(mut self) -> PResult<File> {
        let mut file = File::default();
        loop {
            match self.peek() {
                Tok::Eof => return Ok(file),
                Tok::Kw(Kw::Param) => file.params.push(self.param_decl()?),
                Tok::Kw(Kw::Resource) => file.resources.push(self.resource_decl()?),
                Tok::Kw(Kw::Process) => {
                    self.bump();
                    file.processes.push(self.process_decl()?);
                }
                Tok::Ident if matches!(self.peek_at(1), Tok::Assign | Tok::LParen) => {
                    file.processes.push(self.process_decl()?)
                }
                Tok::Kw(Kw::Use | Kw::Delay | Kw::Seq | Kw::Par | Kw::If | Kw::Skip)
                | Tok::LBrace => {
                    return Err(self
                        .unexpected("a declaration")
                        .help("a term must be the body of a process, e.g. `main = …;`"))
                }
                _ => {
                    return Err(self.unexpected("a declaration").help(
                        "declarations are `param NAME …;`, `resource NAME …;` or \
                         `[process] NAME[(args)] = term;`",
                    ))
                }
            }
        }
    }

    fn param_decl(&mut self) -> PResult<ParamDecl> {
        let start = self.bump().start as usize;
        let name = self.ident("a parameter name")?;
        let mut integer = false;
        if self.eat(Tok::Colon) {
            match self.peek() {
                Tok::Kw(Kw::Int) => integer = true,
                Tok::Kw(Kw::Real) => {}
                _ => {
                    return Err(self
                        .unexpected("a parameter type, `int` or `real`")
                        .help("write `param N: int >= 1;` or `param tau: real >= 0;`"))
                }
            }
            self.bump();
        }
        let (mut lower, mut upper, mut definition) = (None, None, None);
        loop {
            let t = self.cur();
            match t.tok {
                Tok::Ge => {
                    self.bump();
                    let e = self.sum()?;
                    set_once(&mut lower, e, "lower bound", t)?;
                }
                Tok::Le => {
                    self.bump();
                    let e = self.sum()?;
                    set_once(&mut upper, e, "upper bound", t)?;
                }
                Tok::Kw(Kw::In) => {
                    self.bump();
                    let lo = self.sum()?;
                    self.range_dots(&lo)?;
                    let hi = self.sum()?;
                    set_once(&mut lower, lo, "lower bound", t)?;
                    set_once(&mut upper, hi, "upper bound", t)?;
                }
                Tok::Assign => {
                    self.bump();
                    let e = self.sum()?;
                    set_once(&mut definition, e, "definition", t)?;
                }
                Tok::Gt | Tok::Lt => {
                    return Err(Fail::at(
                        ErrorKind::Syntax,
                        "strict parameter bounds are not supported",
                        Self::span(t),
                        "strict bound",
                    )
                    .help("bounds are inclusive: write `>=` or `<=` (e.g. `param N: int >= 1;`)"))
                }
                Tok::EqEq => {
                    return Err(self.unexpected("`=`, a bound or `;`").help(
                        "a derived parameter is defined with a single `=`: `param B = N / P;`",
                    ))
                }
                _ => break,
            }
        }
        self.expect(Tok::Semi, "after the parameter declaration")?;
        Ok(ParamDecl {
            name,
            integer,
            lower,
            upper,
            definition,
            span: self.since(start),
        })
    }

    fn resource_decl(&mut self) -> PResult<ResourceDecl> {
        let start = self.bump().start as usize;
        let name = self.ident("a resource name")?;
        let mut family = None;
        if self.eat(Tok::LBracket) {
            family = Some(self.sum()?);
            if self.peek() == Tok::Comma {
                return Err(self.unexpected("`]`").help(
                    "resource families have one dimension: flatten the index, e.g. `r[R * C]`",
                ));
            }
            self.expect(Tok::RBracket, "after the family size")?;
        }
        let mut multiplicity = None;
        if self.eat(Tok::Colon) {
            multiplicity = Some(if self.peek() == Tok::Kw(Kw::Inf) {
                self.bump();
                Mult::Inf
            } else {
                Mult::Count(self.sum()?)
            });
        }
        if self.peek() == Tok::LBracket && family.is_none() {
            return Err(self
                .unexpected("`;`")
                .help("write the family size before the multiplicity: `resource link[P]: 2;`"));
        }
        self.expect(Tok::Semi, "after the resource declaration")?;
        Ok(ResourceDecl {
            name,
            family,
            multiplicity,
            span: self.since(start),
        })
    }

    fn process_decl(&mut self) -> PResult<ProcessDecl> {
        let name = self.ident("a process name")?;
        let mut args = Vec::new();
        // `name(a, b)`; `name()` has no arguments.
        if self.eat(Tok::LParen) && !self.eat(Tok::RParen) {
            loop {
                args.push(self.ident("an argument name")?);
                if self.eat(Tok::Comma) {
                    continue;
                }
                if self.peek() == Tok::RParen {
                    self.bump();
                    break;
                }
                return Err(self
                    .unexpected("`,` or `)`")
                    .help("process arguments are plain names: `process move(s, r, l) = …;`"));
            }
        }
        if self.peek() != Tok::Assign {
            let help = if self.peek() == Tok::EqEq {
                "a process is defined with a single `=`: `main = …;`"
            } else {
                "a process definition looks like `name(args) = term;`"
            };
            return Err(self.unexpected("`=`").help(help));
        }
        self.bump();
        let body = self.seq_term(true)?;
        if self.peek() != Tok::Semi {
            let help = match self.peek() {
                Tok::Eof => format!("end the definition of `{}` with `;`", name.name),
                Tok::RBrace => "this `}` has no matching `{`".to_string(),
                Tok::RParen => "this `)` has no matching `(`".to_string(),
                _ => format!(
                    "end the definition of `{}` with `;`, or join terms with `;` (sequence) \
                     or `||` (parallel)",
                    name.name
                ),
            };
            return Err(self
                .missing("`;`", &format!("after the definition of `{}`", name.name))
                .help(help));
        }
        self.bump();
        Ok(ProcessDecl { name, args, body })
    }

    /// Whether the tokens from `at` start a declaration (or the input ends): used to tell
    /// the `;` ending a definition from a `;` separating terms.
    fn starts_decl(&self, at: usize) -> bool {
        match self.token_at(at).tok {
            Tok::Eof | Tok::Kw(Kw::Param | Kw::Resource | Kw::Process) => true,
            Tok::Ident => match self.token_at(at + 1).tok {
                Tok::Assign => true,
                Tok::LParen => {
                    let mut depth = 0usize;
                    let mut i = at + 1;
                    loop {
                        match self.token_at(i).tok {
                            Tok::LParen => depth += 1,
                            Tok::RParen => {
                                depth -= 1;
                                if depth == 0 {
                                    return self.token_at(i + 1).tok == Tok::Assign;
                                }
                            }
                            Tok::Eof | Tok::Semi | Tok::LBrace | Tok::RBrace => return false,
                            _ => {}
                        }
                        i += 1;
                    }
                }
                _ => false,
            },
            _ => false,
        }
    }

    // ----- terms ---------------------------------------------------------------------

    /// `par_term {';' par_term}`. At the top level (`top`) a `;` followed by a declaration
    /// ends the definition; inside a block a `;` before `}` is a trailing separator.
    fn seq_term(&mut self, top: bool) -> PResult<Term> {
        let first = self.par_term()?;
        let mut items = vec![first];
        while self.peek() == Tok::Semi {
            if top {
                if self.starts_decl(self.pos + 1) {
                    break;
                }
            } else if self.peek_at(1) == Tok::RBrace {
                self.bump();
                break;
            }
            self.bump();
            items.push(self.par_term()?);
        }
        Ok(compose(Compose::Seq, items))
    }

    fn par_term(&mut self) -> PResult<Term> {
        let first = self.unit()?;
        let mut items = vec![first];
        while self.eat(Tok::Bar2) {
            items.push(self.unit()?);
        }
        Ok(compose(Compose::Par, items))
    }

    fn unit(&mut self) -> PResult<Term> {
        self.enter()?;
        let start = self.cur().start as usize;
        // Each construct has its own function, so this recursive frame stays small.
        let kind = match self.peek() {
            Tok::Kw(Kw::Skip) => {
                self.bump();
                Ok(TermKind::Skip)
            }
            Tok::Kw(Kw::Use) => self.use_term(),
            Tok::Kw(Kw::Delay) => self.delay_term(),
            Tok::Kw(Kw::Seq) => self.loop_term(Kw::Seq),
            Tok::Kw(Kw::Par) => self.loop_term(Kw::Par),
            Tok::Kw(Kw::If) => self.if_term(),
            Tok::LBrace => self.block(),
            Tok::Ident => self.call_term(),
            Tok::Kw(Kw::Else) => Err(self
                .unexpected("a term")
                .help("`else` must directly follow the body of an `if`")),
            _ => Err(self.unexpected("a term").help(
                "a term is `use(r, t)`, `delay(t)`, `seq`/`par` v in a..=b BODY, \
                 `if` COND BODY, `skip`, `{ … }` or a process call",
            )),
        }?;
        self.leave();
        Ok(Term {
            kind,
            span: self.since(start),
        })
    }

    fn use_term(&mut self) -> PResult<TermKind> {
        self.bump();
        self.expect(Tok::LParen, "after `use`")?;
        let res = self.ident("a resource name")?;
        let mut index = None;
        if self.eat(Tok::LBracket) {
            index = Some(self.expr()?);
            if self.peek() == Tok::Comma {
                return Err(self
                    .unexpected("`]`")
                    .help("resource families have one index: `use(cpu[p], t)`"));
            }
            self.expect(Tok::RBracket, "after the resource index")?;
        }
        if self.peek() != Tok::Comma {
            return Err(self
                .unexpected("`,` and a service time")
                .help("`use` takes a resource and a time: `use(s, tau_s)`"));
        }
        self.bump();
        let time = self.expr()?;
        self.expect(Tok::RParen, "after the service time")?;
        Ok(TermKind::Use { res, index, time })
    }

    fn delay_term(&mut self) -> PResult<TermKind> {
        self.bump();
        self.expect(Tok::LParen, "after `delay`")?;
        let time = self.expr()?;
        if self.peek() == Tok::Comma {
            return Err(self.unexpected("`)`").help(
                "`delay` takes one time: `delay(tau)`; to use a resource write `use(r, tau)`",
            ));
        }
        self.expect(Tok::RParen, "after the delay time")?;
        Ok(TermKind::Delay(time))
    }

    fn loop_term(&mut self, k: Kw) -> PResult<TermKind> {
        self.bump();
        let kind = if k == Kw::Seq {
            Compose::Seq
        } else {
            Compose::Par
        };
        if self.peek() == Tok::LParen {
            return Err(self.paper_loop(k));
        }
        let var = self.ident("a loop variable")?;
        if self.peek() != Tok::Kw(Kw::In) {
            return Err(self.unexpected("`in`").help(format!(
                "loops are written `{} {} in 1..=N BODY`",
                k.text(),
                var.name
            )));
        }
        self.bump();
        let lo = self.sum()?;
        self.range_dots(&lo)?;
        let hi = self.sum()?;
        let body = Box::new(self.unit()?);
        Ok(TermKind::Loop {
            kind,
            var,
            lo,
            hi,
            body,
        })
    }

    fn if_term(&mut self) -> PResult<TermKind> {
        self.bump();
        let cond = self.expr()?;
        if self.peek() == Tok::Bar2 {
            return Err(self
                .unexpected("the body of the `if`")
                .help("in conditions, write `or` (`||` is parallel composition)"));
        }
        let then = Box::new(self.unit()?);
        let els = if self.eat(Tok::Kw(Kw::Else)) {
            Some(Box::new(self.unit()?))
        } else {
            None
        };
        Ok(TermKind::If { cond, then, els })
    }

    /// `{ … }`: braces only group, so the result is the inner term (or `skip`).
    fn block(&mut self) -> PResult<TermKind> {
        let start = self.bump().start as usize;
        if self.eat(Tok::RBrace) {
            return Ok(TermKind::Skip);
        }
        let inner = self.seq_term(false)?;
        if self.peek() != Tok::RBrace {
            let (line, _) = line_of(self.src, start);
            return Err(self.missing("`}`", "to close the block").help(format!(
                "the block opened at line {line} is not closed; separate terms with `;` or `||`"
            )));
        }
        self.bump();
        Ok(inner.kind)
    }

    fn call_term(&mut self) -> PResult<TermKind> {
        let name = self.ident("a process name")?;
        let args = if self.peek() == Tok::LParen {
            self.args()?
        } else {
            Vec::new()
        };
        Ok(TermKind::Call { name, args })
    }

    /// The error for the paper's `seq (i = a, b) BODY` form, with the modern spelling.
    fn paper_loop(&mut self, k: Kw) -> Fail {
        let open = self.cur();
        let generic = Fail::at(
            ErrorKind::Syntax,
            format!("expected a loop variable after `{}`, found `(`", k.text()),
            Self::span(open),
            "expected a loop variable",
        )
        .help(format!(
            "the paper's `{0} (i = a, b)` form is written `{0} i in a..=b` here",
            k.text()
        ));
        let save = (self.pos, self.depth, self.prev_end);
        let attempt = (|| -> PResult<(Ident, Span, Span)> {
            self.bump();
            let var = self.ident("a loop variable")?;
            if !self.eat(Tok::Assign) {
                return Err(self.unexpected("`=`"));
            }
            let lo = self.sum()?;
            if !self.eat(Tok::Comma) {
                return Err(self.unexpected("`,`"));
            }
            let hi = self.sum()?;
            if !self.eat(Tok::RParen) {
                return Err(self.unexpected("`)`"));
            }
            Ok((var, lo.span, hi.span))
        })();
        let fail = match attempt {
            Ok((var, lo, hi)) => {
                let text = |s: Span| self.src.get(s.start..s.end).unwrap_or("…");
                Fail::at(
                    ErrorKind::Syntax,
                    format!("`{} (…)` is the paper's loop syntax", k.text()),
                    Span::new(open.start as usize, self.prev_end),
                    "old loop form",
                )
                .help(format!(
                    "write `{} {} in {}..={}` followed by the body",
                    k.text(),
                    var.name,
                    text(lo),
                    text(hi)
                ))
            }
            Err(_) => generic,
        };
        (self.pos, self.depth, self.prev_end) = save;
        fail
    }

    /// Expects `..=` after the lower end `lo` of a range.
    fn range_dots(&mut self, lo: &Ex) -> PResult<()> {
        match self.peek() {
            Tok::DotDotEq => {
                self.bump();
                Ok(())
            }
            Tok::DotDot => {
                let lo_text = self.src.get(lo.span.start..lo.span.end).unwrap_or("a");
                Err(self.unexpected("`..=`").help(format!(
                    "ranges include both ends and are written with `..=`: `{lo_text}..=…`"
                )))
            }
            _ => Err(self
                .unexpected("`..=`")
                .help("a range is written `a..=b` (both ends included)")),
        }
    }

    fn args(&mut self) -> PResult<Vec<Ex>> {
        self.expect(Tok::LParen, "")?;
        let mut out = Vec::new();
        if self.eat(Tok::RParen) {
            return Ok(out);
        }
        loop {
            out.push(self.expr()?);
            match self.peek() {
                Tok::Comma => {
                    self.bump();
                }
                Tok::RParen => {
                    self.bump();
                    return Ok(out);
                }
                _ => {
                    return Err(self
                        .unexpected("`,` or `)`")
                        .help("separate arguments with `,` and close the list with `)`"))
                }
            }
        }
    }

    // ----- expressions ---------------------------------------------------------------
    //
    // Precedence climbing over one table; each level's operator chain is collected into a
    // flat list. Binding powers: or 1, and 2, not 3, comparison 4, + - 5, * / mod div 6,
    // unary minus 7.

    /// A full expression or condition (a nesting level of its own).
    fn expr(&mut self) -> PResult<Ex> {
        self.enter()?;
        let e = self.climb(BP_OR)?;
        self.leave();
        Ok(e)
    }

    /// An arithmetic expression: no comparisons or boolean operators outside parentheses.
    fn sum(&mut self) -> PResult<Ex> {
        self.climb(BP_SUM)
    }

    fn climb(&mut self, min: u8) -> PResult<Ex> {
        let mut lhs = self.prefix()?;
        while let Some(level) = binding_power(self.peek()) {
            if level < min {
                break;
            }
            lhs = self.chain(level, lhs)?;
        }
        if min <= BP_AND && self.peek() == Tok::AndAnd {
            return Err(self
                .unexpected("an operator")
                .help("conditions are combined with `and`, `or` and `not`"));
        }
        if min <= BP_CMP && self.peek() == Tok::Assign {
            return Err(self
                .unexpected("an operator")
                .help("compare with `==`; `=` only appears in definitions"));
        }
        Ok(lhs)
    }

    /// The operators of one level following `first`, collected left to right.
    fn chain(&mut self, level: u8, first: Ex) -> PResult<Ex> {
        let span_of = |a: &Ex, b: &Ex| a.span.to(b.span);
        match level {
            BP_OR | BP_AND => {
                let mut items = vec![first];
                while binding_power(self.peek()) == Some(level) {
                    self.bump();
                    items.push(self.climb(level + 1)?);
                }
                let span = span_of(&items[0], &items[items.len() - 1]);
                let kind = if level == BP_OR {
                    ExKind::Or(items)
                } else {
                    ExKind::And(items)
                };
                Ok(Ex { kind, span })
            }
            BP_CMP => {
                let op = match self.bump().tok {
                    Tok::EqEq => CmpOp::Eq,
                    Tok::NotEq => CmpOp::Ne,
                    Tok::Lt => CmpOp::Lt,
                    Tok::Le => CmpOp::Le,
                    Tok::Gt => CmpOp::Gt,
                    _ => CmpOp::Ge,
                };
                let b = self.climb(BP_SUM)?;
                if binding_power(self.peek()) == Some(BP_CMP) {
                    return Err(self
                        .unexpected("the end of the comparison")
                        .help("comparisons do not chain: write `a < b and b < c`"));
                }
                let span = span_of(&first, &b);
                Ok(Ex {
                    kind: ExKind::Cmp(op, Box::new(first), Box::new(b)),
                    span,
                })
            }
            BP_SUM => {
                let mut items = vec![(false, first)];
                while let t @ (Tok::Plus | Tok::Minus) = self.peek() {
                    self.bump();
                    items.push((t == Tok::Minus, self.climb(BP_SUM + 1)?));
                }
                let span = span_of(&items[0].1, &items[items.len() - 1].1);
                Ok(Ex {
                    kind: ExKind::Sum(items),
                    span,
                })
            }
            _ => {
                let mut items = vec![(MulOp::Mul, first)];
                let mut levels = 0;
                loop {
                    let op = match self.peek() {
                        Tok::Star => MulOp::Mul,
                        Tok::Slash => MulOp::Div,
                        Tok::Kw(Kw::Mod) => MulOp::Mod,
                        Tok::Kw(Kw::Div) => MulOp::IntDiv,
                        _ => break,
                    };
                    if matches!(op, MulOp::Mod | MulOp::IntDiv) {
                        // Each `mod`/`div` nests the product so far one level deeper.
                        self.enter()?;
                        levels += 1;
                    }
                    self.bump();
                    items.push((op, self.climb(BP_PRODUCT + 1)?));
                }
                self.depth -= levels;
                let span = span_of(&items[0].1, &items[items.len() - 1].1);
                Ok(Ex {
                    kind: ExKind::Product(items),
                    span,
                })
            }
        }
    }

    /// `not e`, `-e` or a primary.
    fn prefix(&mut self) -> PResult<Ex> {
        let (op, level) = match self.peek() {
            Tok::Kw(Kw::Not) => (true, BP_NOT),
            Tok::Minus => (false, BP_UNARY),
            Tok::Bang => {
                return Err(self
                    .unexpected("an expression")
                    .help("negate a condition with `not`"))
            }
            _ => return self.primary(),
        };
        let start = self.bump().start as usize;
        self.enter()?;
        let inner = Box::new(self.climb(level)?);
        self.leave();
        Ok(Ex {
            kind: if op {
                ExKind::Not(inner)
            } else {
                ExKind::Neg(inner)
            },
            span: self.since(start),
        })
    }

    fn primary(&mut self) -> PResult<Ex> {
        let t = self.cur();
        let start = t.start as usize;
        let kind = match t.tok {
            Tok::Num => self.number()?,
            Tok::Ident => {
                let id = self.ident("a name")?;
                if self.peek() == Tok::LParen {
                    self.args()?;
                    ExKind::Call(id)
                } else {
                    ExKind::Name(id.name)
                }
            }
            Tok::Kw(Kw::Min | Kw::Max | Kw::Floor | Kw::Ceil | Kw::Gcd | Kw::Log | Kw::Prob) => {
                self.function()?
            }
            Tok::Kw(Kw::Inf) => {
                self.bump();
                ExKind::Inf
            }
            Tok::LParen => return self.parenthesised(),
            Tok::Kw(k) => {
                return Err(Fail::at(
                    ErrorKind::Syntax,
                    format!("expected an expression, found the keyword `{}`", k.text()),
                    Self::span(t),
                    "expected an expression",
                )
                .help(format!(
                    "`{}` is a reserved word; a name used as a value must be a parameter, \
                     loop variable or process argument",
                    k.text()
                )))
            }
            _ => {
                return Err(self.unexpected("an expression").help(
                    "an expression is a number, a name, `( … )`, a function such as \
                     `ceil(l / 120)`, or operators `+ - * / mod div` over these",
                ))
            }
        };
        Ok(Ex {
            kind,
            span: self.since(start),
        })
    }

    fn number(&mut self) -> PResult<ExKind> {
        let t = self.bump();
        let text = t.text(self.src);
        match expr::number::parse_rational(text) {
            Ok(v) => Ok(ExKind::Num(v)),
            Err(e) => Err(Fail::at(
                ErrorKind::Syntax,
                format!("bad number `{text}`"),
                Self::span(t),
                "not a valid number",
            )
            .help(format!("{e}; write e.g. `181e-6`"))),
        }
    }

    fn function(&mut self) -> PResult<ExKind> {
        let Tok::Kw(k) = self.bump().tok else {
            return Err(self
                .unexpected("a function")
                .help("functions are min, max, floor, ceil, gcd, log and prob"));
        };
        let f = match k {
            Kw::Min => Func::Min,
            Kw::Max => Func::Max,
            Kw::Floor => Func::Floor,
            Kw::Ceil => Func::Ceil,
            Kw::Gcd => Func::Gcd,
            Kw::Log => Func::Log,
            _ => Func::Prob,
        };
        if self.peek() != Tok::LParen {
            return Err(self
                .unexpected("`(`")
                .help(format!("`{0}` is a function: write `{0}(…)`", k.text())));
        }
        Ok(ExKind::Func(f, self.args()?))
    }

    fn parenthesised(&mut self) -> PResult<Ex> {
        let start = self.bump().start as usize;
        let inner = self.expr()?;
        if self.peek() != Tok::RParen {
            let line = line_of(self.src, start).0;
            return Err(self
                .missing("`)`", "to close the parenthesis")
                .help(format!("the `(` at line {line} is not closed")));
        }
        self.bump();
        Ok(Ex {
            kind: inner.kind,
            span: self.since(start),
        })
    }
}

const BP_OR: u8 = 1;
const BP_AND: u8 = 2;
const BP_NOT: u8 = 3;
const BP_CMP: u8 = 4;
const BP_SUM: u8 = 5;
const BP_PRODUCT: u8 = 6;
const BP_UNARY: u8 = 7;

/// The binding power of a binary operator token.
fn binding_power(t: Tok) -> Option<u8> {
    Some(match t {
        Tok::Kw(Kw::Or) => BP_OR,
        Tok::Kw(Kw::And) => BP_AND,
        Tok::EqEq | Tok::NotEq | Tok::Lt | Tok::Le | Tok::Gt | Tok::Ge => BP_CMP,
        Tok::Plus | Tok::Minus => BP_SUM,
        Tok::Star | Tok::Slash | Tok::Kw(Kw::Mod | Kw::Div) => BP_PRODUCT,
        _ => return None,
    })
}

/// Stores `value` in `slot` unless `slot` is already set (a repeated clause).
fn set_once(slot: &mut Option<Ex>, value: Ex, what: &str, at: Token) -> PResult<()> {
    if slot.is_some() {
        return Err(Fail::at(
            ErrorKind::Syntax,
            format!("the parameter's {what} is given twice"),
            Span::new(at.start as usize, value.span.end),
            format!("second {what}"),
        )
        .help(format!("give each parameter at most one {what}")));
    }
    *slot = Some(value);
    Ok(())
}

/// One term, or a flat composition of several.
fn compose(kind: Compose, mut items: Vec<Term>) -> Term {
    if items.len() == 1 {
        return items.pop().expect("one item");
    }
    let span = items[0].span.to(items[items.len() - 1].span);
    Term {
        kind: TermKind::Compose(kind, items),
        span,
    }
}

/// 1-based line and column of byte `offset`.
pub(crate) fn line_of(src: &str, offset: usize) -> (usize, usize) {
    let before = src.get(..offset).unwrap_or(src);
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}
