//! Parser for the thesis tool syntax (spec §5.1) plus the extended prefix
//! forms of spec §8.2 (`a@3.P`, `'a@4.P`, `tau@3.P`, `a.P`).

use crate::error::{location, Error, SyntaxError, UndefinedAgentError, UnguardedRecursionError};
use crate::term::{Act, Arena, ConstId, TermId, Time};
use miette::NamedSource;
use num_bigint::BigInt;
use num_traits::Zero;

/// Maximum accepted input size in bytes.
pub const MAX_INPUT_BYTES: usize = 1 << 20;
/// Maximum nesting depth of terms (parentheses, prefixes, operators).
pub const MAX_DEPTH: usize = 100;
const PARSER_STACK_BYTES: usize = 256 << 20;

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
    Eof,
}

#[derive(Clone, Debug)]
struct Token {
    tok: Tok,
    start: usize,
    end: usize,
}

#[derive(Clone, Debug)]
enum ActAst {
    Tau,
    Name(String),
    Co(String),
}

#[derive(Clone, Debug)]
enum Ast {
    Nil,
    Terminated,
    Prefix(ActAst, Time, Box<Ast>),
    Sum(Vec<Ast>),
    Par(Vec<Ast>),
    Restrict(Box<Ast>, Vec<String>),
    /// `(new, old)` pairs as written `[new/old]`.
    Relabel(Box<Ast>, Vec<(String, String)>),
    Agent(String, usize, usize),
}

struct Ctx<'a> {
    file: &'a str,
    src: &'a str,
}

impl Ctx<'_> {
    fn syntax(
        &self,
        start: usize,
        end: usize,
        message: &str,
        label: &str,
        help: Option<&str>,
    ) -> Error {
        Error::Syntax(Box::new(SyntaxError {
            message: message.to_string(),
            location: location(self.file, self.src, start),
            src: NamedSource::new(self.file, self.src.to_string()),
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
            if i - start > 60 {
                return Err(cx.syntax(start, i, "number too long", "here", None));
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
            out.push(Token {
                tok: Tok::Num(value),
                start,
                end: i,
            });
            continue;
        } else {
            i += 1;
            match c {
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
                    return Err(cx.syntax(
                        start,
                        end,
                        &format!("unexpected character `{}`", &src[start..end]),
                        "not part of ETCCS syntax",
                        Some("comments start with `//`"),
                    ));
                }
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
        self.cx.syntax(
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
    fn number(&mut self) -> Result<Time, Error> {
        match self.peek().clone() {
            Tok::Num(v) => {
                self.bump();
                Ok(v)
            }
            _ => Err(self.err(
                "expected a time (a non-negative number)",
                Some("e.g. `(a,3)` or `a@2.5`"),
            )),
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

    /// file := item*
    fn file(&mut self) -> Result<Vec<Item>, Error> {
        let mut items = Vec::new();
        loop {
            match self.peek().clone() {
                Tok::Eof => return Ok(items),
                Tok::Semi => {
                    self.bump();
                }
                Tok::Ident(k) if k == "define" => {
                    self.bump();
                    let (name, s, e) = self.ident("an agent name after `define`")?;
                    self.expect(Tok::Eq, "`=`")?;
                    let body = self.sum()?;
                    items.push(Item::Define(name, s, e, body));
                }
                Tok::Ident(k) if k == "analyse" || k == "analyze" => {
                    self.bump();
                    let (name, s, e) = self.ident("an agent name after `analyse`")?;
                    items.push(Item::Analyse(name, s, e));
                }
                _ => {
                    return Err(self.err(
                        "expected `define` or `analyse`",
                        Some("a model is a list of `define NAME = P` and `analyse NAME`"),
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
                    let mut names = Vec::new();
                    if *self.peek() != Tok::RBrace {
                        loop {
                            names.push(self.ident("a name in the restriction set")?.0);
                            if *self.peek() == Tok::Comma {
                                self.bump();
                            } else {
                                break;
                            }
                        }
                    }
                    self.expect(Tok::RBrace, "`}` closing the restriction set")?;
                    t = Ast::Restrict(Box::new(t), names);
                }
                Tok::LBracket => {
                    self.enter()?;
                    self.bump();
                    let mut pairs = Vec::new();
                    loop {
                        let new = self.ident("a new name in `[new/old]`")?.0;
                        self.expect(Tok::Slash, "`/` in `[new/old]`")?;
                        let old = self.ident("an old name in `[new/old]`")?.0;
                        pairs.push((new, old));
                        if *self.peek() == Tok::Comma {
                            self.bump();
                        } else {
                            break;
                        }
                    }
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

    /// Action inside `( ... , n)`: `a`, `a'`, `'a` or `tau`.
    fn paren_act(&mut self) -> Result<ActAst, Error> {
        if *self.peek() == Tok::Quote {
            self.bump();
            let (n, _, _) = self.ident("a name after `'`")?;
            return Ok(ActAst::Co(n));
        }
        if let Tok::Ident(s) = self.peek().clone() {
            if s == "tau" {
                self.bump();
                return Ok(ActAst::Tau);
            }
        }
        let (n, _, _) = self.ident("an action name")?;
        if *self.peek() == Tok::Quote {
            self.bump();
            return Ok(ActAst::Co(n));
        }
        Ok(ActAst::Name(n))
    }

    fn is_paren_prefix(&self) -> bool {
        // `(` act `,`  where act is `a`, `a'`, `'a` or `tau`.
        matches!(
            (self.peek_at(1), self.peek_at(2), self.peek_at(3)),
            (Tok::Ident(_), Tok::Comma, _)
                | (Tok::Ident(_), Tok::Quote, Tok::Comma)
                | (Tok::Quote, Tok::Ident(_), Tok::Comma)
        )
    }

    /// After an action head: `@n .` or `.` (bound 0).
    fn ext_bound(&mut self) -> Result<Time, Error> {
        if *self.peek() == Tok::At {
            self.bump();
            let v = self.number()?;
            self.expect(Tok::Dot, "`.` after the prefix")?;
            Ok(v)
        } else {
            self.expect(Tok::Dot, "`.` or `@time.` after the action")?;
            Ok(Time::zero())
        }
    }

    fn continuation(&mut self, act: ActAst, v: Time) -> Result<Ast, Error> {
        self.enter()?;
        let cont = self.prefixed()?;
        self.depth -= 1;
        Ok(Ast::Prefix(act, v, Box::new(cont)))
    }

    /// prefixed := head '.' prefixed | atom
    fn prefixed(&mut self) -> Result<Ast, Error> {
        match self.peek().clone() {
            Tok::LParen if self.is_paren_prefix() => {
                self.bump();
                let act = self.paren_act()?;
                self.expect(Tok::Comma, "`,`")?;
                let v = self.number()?;
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
                let (n, _, _) = self.ident("a name after `'`")?;
                let v = self.ext_bound()?;
                self.continuation(ActAst::Co(n), v)
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
                _ => match self.peek_at(1) {
                    Tok::Quote => {
                        self.bump();
                        self.bump();
                        let v = self.ext_bound()?;
                        self.continuation(ActAst::Co(s), v)
                    }
                    Tok::At | Tok::Dot => {
                        self.bump();
                        let v = self.ext_bound()?;
                        self.continuation(ActAst::Name(s), v)
                    }
                    _ => {
                        let t = self.bump();
                        Ok(Ast::Agent(s, t.start, t.end))
                    }
                },
            },
            _ => Err(self.err(
                "expected an agent expression",
                Some("e.g. `nil`, `(a,3).P`, `a@3.P`, `(P | Q)` or an agent name"),
            )),
        }
    }
}

enum Item {
    Define(String, usize, usize, Ast),
    Analyse(String, usize, usize),
}

/// A parsed and checked ETCCS model: agent definitions and `analyse` requests.
#[derive(Debug)]
pub struct Model {
    /// The term arena holding all agents (and, after analysis, all states).
    pub arena: Arena,
    /// Defined agents in source order.
    pub agents: Vec<(String, ConstId)>,
    /// Agents named by `analyse` directives, in source order.
    pub analyses: Vec<String>,
}

impl Model {
    /// The term of a defined agent.
    pub fn agent(&mut self, name: &str) -> Option<TermId> {
        let c = self.arena.find_const(name)?;
        self.arena.const_body(c)?;
        Some(self.arena.const_term(c))
    }
}

fn lower(ast: &Ast, arena: &mut Arena, cx: &Ctx) -> Result<TermId, Error> {
    Ok(match ast {
        Ast::Nil => arena.nil(),
        Ast::Terminated => arena.terminated(),
        Ast::Prefix(a, v, c) => {
            let act = match a {
                ActAst::Tau => Act::Tau,
                ActAst::Name(n) => Act::Name(arena.name(n)),
                ActAst::Co(n) => Act::CoName(arena.name(n)),
            };
            let k = lower(c, arena, cx)?;
            arena.prefix(act, v.clone(), k)
        }
        Ast::Sum(xs) | Ast::Par(xs) => {
            let mut ids = Vec::with_capacity(xs.len());
            for x in xs {
                ids.push(lower(x, arena, cx)?);
            }
            if matches!(ast, Ast::Sum(_)) {
                arena.sum(ids)
            } else {
                arena.par(ids)
            }
        }
        Ast::Restrict(x, l) => {
            let k = lower(x, arena, cx)?;
            let names = l.iter().map(|n| arena.name(n)).collect();
            arena.restrict(k, names)
        }
        Ast::Relabel(x, f) => {
            let k = lower(x, arena, cx)?;
            let map = f
                .iter()
                .map(|(new, old)| (arena.name(old), arena.name(new)))
                .collect();
            arena.relabel(k, map)
        }
        Ast::Agent(n, s, e) => match arena.find_const(n) {
            Some(c) => arena.const_term(c),
            None => {
                return Err(Error::UndefinedAgent(Box::new(UndefinedAgentError {
                    name: n.clone(),
                    location: location(cx.file, cx.src, *s),
                    src: NamedSource::new(cx.file, cx.src.to_string()),
                    span: (*s, e - s).into(),
                })))
            }
        },
    })
}

/// Parses a model in the thesis tool syntax (extended prefixes accepted).
///
/// `file` names the source in error messages. Errors carry spans; no input
/// makes this function panic. Checks: syntax, input size
/// ([`MAX_INPUT_BYTES`]), nesting depth ([`MAX_DEPTH`]), duplicate and
/// undefined agents, and unguarded recursion.
pub fn parse(file: &str, src: &str) -> Result<Model, Error> {
    let cx = Ctx { file, src };
    if src.len() > MAX_INPUT_BYTES {
        return Err(cx.syntax(
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
        };
        p.file()
    };
    // Recursive descent in debug builds uses large frames; give the parser
    // (and lowering) a generous stack so the depth limit, not the stack,
    // is what bounds nesting.
    let items = std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(PARSER_STACK_BYTES)
            .spawn_scoped(s, || run(toks))
            .map(|h| h.join())
    });
    let items = match items {
        Ok(Ok(r)) => r?,
        _ => {
            return Err(cx.syntax(
                0,
                0,
                "could not run the parser thread",
                "input starts here",
                None,
            ))
        }
    };
    let mut arena = Arena::new();
    let mut agents = Vec::new();
    let mut spans = Vec::new();
    for it in &items {
        if let Item::Define(n, s, e, _) = it {
            if arena.find_const(n).is_some() {
                return Err(cx.syntax(
                    *s,
                    *e,
                    &format!("agent `{n}` is defined twice"),
                    "second definition",
                    None,
                ));
            }
            let c = arena.constant(n);
            agents.push((n.clone(), c));
            spans.push((*s, *e));
        }
    }
    let mut analyses = Vec::new();
    for it in &items {
        match it {
            Item::Define(n, _, _, body) => {
                let t = lower(body, &mut arena, &cx)?;
                let c = arena.find_const(n).expect("declared");
                arena.define(c, t);
            }
            Item::Analyse(n, s, e) => {
                if arena.find_const(n).is_none() {
                    return Err(Error::UndefinedAgent(Box::new(UndefinedAgentError {
                        name: n.clone(),
                        location: location(file, src, *s),
                        src: NamedSource::new(file, src.to_string()),
                        span: (*s, e - s).into(),
                    })));
                }
                analyses.push(n.clone());
            }
        }
    }
    if let Err(c) = arena.check_guarded() {
        let i = agents.iter().position(|(_, k)| *k == c).unwrap_or(0);
        let (s, e) = spans.get(i).copied().unwrap_or((0, 0));
        return Err(Error::UnguardedRecursion(Box::new(
            UnguardedRecursionError {
                name: arena.const_name(c).to_string(),
                location: location(file, src, s),
                src: NamedSource::new(file, src.to_string()),
                span: (s, e - s).into(),
            },
        )));
    }
    Ok(Model {
        arena,
        agents,
        analyses,
    })
}
