//! DOT import and export.
//!
//! Reading accepts a `digraph` (optionally `strict`, optionally named) with:
//! node statements `a [time=2, proc=1]`; edge statements `a -> b`, chains `a -> b -> c` and
//! subgraph endpoints `a -> {b c}` (edges to every node of the subgraph); attribute lists
//! (`[k=v, k=v; k=v]`, several lists allowed); `node [time=1]` defaults (applied to nodes
//! created afterwards in the same or inner scope); `graph`/`edge` attribute statements and
//! `k=v` graph attributes (ignored); subgraphs and clusters; ports (`a:p:n`, ignored);
//! `//`, `/* */` and `#` comments; quoted ids (`\"` is a quote, `\\` a backslash,
//! backslash-newline a line continuation, other escapes are kept verbatim), numerals and
//! HTML strings `<...>`. Keywords are case-insensitive.
//!
//! Node attributes: `time` (or, if absent, `weight`) is the task time; a missing time is an
//! error naming the node unless [`DotOptions::default_time`] is set. `proc`, `queue` and
//! `priority` are integer attributes; `"rate:NAME"` is the request rate for resource NAME;
//! every other node attribute (e.g. `label`, `shape`) is kept as a string extra attribute.
//! Edge attributes are ignored. Nodes are numbered in order of first mention.
//!
//! Nesting of subgraphs is limited to 64 levels, so hostile input cannot overflow the stack.
//!
//! Files of the common flat shape (node statements with a time, single edges, as
//! [`write_dot`] writes them) are read by a fast scanner (`scan`); anything else, and every
//! error, goes through the general parser. Both fill the same node table.

mod scan;

use rustc_hash::FxHashMap;
use std::borrow::Cow;
use std::fmt::Write as _;

use serde_json::Value;

use crate::error::{ErrorKind, GraphError};
use crate::graph::{Limits, TaskAttrs, TaskGraph, TaskGraphBuilder};

/// Options for [`read_dot_with`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DotOptions {
    /// Time for nodes without a `time` or `weight` attribute (`None`: such nodes are errors).
    pub default_time: Option<f64>,
    /// Size limits.
    pub limits: Limits,
}

const MAX_DEPTH: usize = 64;

#[derive(Clone, Debug, PartialEq)]
enum Tok<'a> {
    Id(Cow<'a, str>, bool),
    LBrace,
    RBrace,
    LBracket,
    RBracket,
    Semi,
    Comma,
    Eq,
    Colon,
    Arrow,
    UEdge,
    Eof,
}

struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    peeked: Option<(Tok<'a>, usize, usize)>,
}

/// A node's attributes: `(key, (value, start, end))`, each key once. A small list rather
/// than a map: nodes have a few attributes, and a million nodes with a map each cost far
/// more memory than their text.
type Attrs<'a> = Vec<(Cow<'a, str>, (Cow<'a, str>, usize, usize))>;

/// The value of `key` in `attrs`.
fn attr<'x, 'a>(attrs: &'x Attrs<'a>, key: &str) -> Option<&'x (Cow<'a, str>, usize, usize)> {
    attrs.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

/// Sets `key` in `attrs`, replacing an earlier value.
fn set_attr<'a>(attrs: &mut Attrs<'a>, key: Cow<'a, str>, value: (Cow<'a, str>, usize, usize)) {
    match attrs.iter_mut().find(|(k, _)| *k == key) {
        Some(slot) => slot.1 = value,
        None => attrs.push((key, value)),
    }
}

struct Node<'a> {
    id: Cow<'a, str>,
    start: usize,
    end: usize,
    attrs: Attrs<'a>,
}

/// The nodes of a graph in order of first mention, found by id.
struct Nodes<'a> {
    nodes: Vec<Node<'a>>,
    index: FxHashMap<String, u32>,
    /// The number of the first node's id, once seen: nodes whose id ends in their index plus
    /// it are not in `index`.
    numbering: Option<usize>,
    /// The first node's id before its digits (`t` of `t0`), when it has digits.
    prefix: Option<String>,
    /// Per node: whether its id is `prefix` followed by its number (index + numbering)
    /// written plainly. Such a node is found from an id's text alone, without reading the
    /// node's id (a cache miss per edge endpoint on large graphs).
    plain: Vec<bool>,
    max_tasks: usize,
}

impl<'a> Nodes<'a> {
    fn new(limits: &Limits) -> Self {
        Nodes {
            nodes: Vec::new(),
            index: FxHashMap::default(),
            numbering: None,
            prefix: None,
            plain: Vec::new(),
            max_tasks: limits.max_tasks,
        }
    }

    /// The node `id` (mentioned at `s..e`), added with the attributes `defaults` when new.
    fn get_or_add(
        &mut self,
        id: Cow<'a, str>,
        s: usize,
        e: usize,
        defaults: Option<&Attrs<'a>>,
    ) -> Result<u32, GraphError> {
        // Ids numbered in order of first mention (`t0, t1, …` plus a constant) are found by
        // their digits and kept out of the index; the others are indexed.
        let digits = crate::json::split_trailing_number(&id);
        if self.numbering.is_none() {
            self.numbering = Some(digits.map_or(usize::MAX, |d| d.1));
            self.prefix = digits.map(|d| id[..d.0].to_string());
        }
        let offset = self.numbering.unwrap_or(usize::MAX);
        let by_digits = digits.and_then(|d| d.1.checked_sub(offset));
        let plain = match (digits, &self.prefix) {
            (Some((start, _, true)), Some(p)) => id[..start] == *p,
            _ => false,
        };
        if let Some(j) = by_digits.filter(|&j| j < self.nodes.len()) {
            if (plain && self.plain[j]) || self.nodes[j].id == id {
                return Ok(j as u32);
            }
        }
        if let Some(&n) = self.index.get(id.as_ref()) {
            return Ok(n);
        }
        if self.nodes.len() >= self.max_tasks {
            return Err(GraphError::limit(
                sweep::Reached::new(sweep::Limit::Tasks, self.max_tasks as u64),
                format!("more than {} tasks, the limit", self.max_tasks),
            ));
        }
        let n = self.nodes.len() as u32;
        let numbered = by_digits == Some(n as usize);
        if !numbered {
            self.index.insert(id.to_string(), n);
        }
        self.plain.push(numbered && plain);
        self.nodes.push(Node {
            id,
            start: s,
            end: e,
            attrs: defaults.cloned().unwrap_or_default(),
        });
        Ok(n)
    }
}

struct Parser<'a> {
    lex: Lexer<'a>,
    name: &'a str,
    nodes: Nodes<'a>,
    edges: Vec<(u32, u32)>,
    defaults: Vec<Attrs<'a>>,
    limits: Limits,
}

impl<'a> Lexer<'a> {
    fn err(&self, msg: impl Into<String>, start: usize, end: usize, name: &str) -> GraphError {
        GraphError::new(ErrorKind::Syntax, msg).at(name, self.text, start, end, "here")
    }

    fn next(&mut self, name: &str) -> Result<(Tok<'a>, usize, usize), GraphError> {
        if let Some(t) = self.peeked.take() {
            return Ok(t);
        }
        let b = self.text.as_bytes();
        // Skip whitespace and comments.
        loop {
            while self.pos < b.len() && b[self.pos].is_ascii_whitespace() {
                self.pos += 1;
            }
            if self.pos >= b.len() {
                return Ok((Tok::Eof, self.pos, self.pos));
            }
            if b[self.pos] == b'#' || b[self.pos..].starts_with(b"//") {
                while self.pos < b.len() && b[self.pos] != b'\n' {
                    self.pos += 1;
                }
            } else if b[self.pos..].starts_with(b"/*") {
                let start = self.pos;
                match self.text[self.pos + 2..].find("*/") {
                    Some(i) => self.pos += 2 + i + 2,
                    None => {
                        return Err(self.err("unterminated /* comment", start, start + 2, name))
                    }
                }
            } else {
                break;
            }
        }
        let start = self.pos;
        let c = b[start];
        let single = match c {
            b'{' => Some(Tok::LBrace),
            b'}' => Some(Tok::RBrace),
            b'[' => Some(Tok::LBracket),
            b']' => Some(Tok::RBracket),
            b';' => Some(Tok::Semi),
            b',' => Some(Tok::Comma),
            b'=' => Some(Tok::Eq),
            b':' => Some(Tok::Colon),
            _ => None,
        };
        if let Some(t) = single {
            self.pos += 1;
            return Ok((t, start, self.pos));
        }
        if b[start..].starts_with(b"->") {
            self.pos += 2;
            return Ok((Tok::Arrow, start, self.pos));
        }
        if b[start..].starts_with(b"--") {
            self.pos += 2;
            return Ok((Tok::UEdge, start, self.pos));
        }
        if c == b'"' {
            // Most quoted ids have no escape: borrow them.
            let body = start + 1;
            let close = b[body..].iter().position(|&x| x == b'"' || x == b'\\');
            if let Some(k) = close.filter(|&k| b[body + k] == b'"') {
                self.pos = body + k + 1;
                return Ok((
                    Tok::Id(Cow::Borrowed(&self.text[body..body + k]), true),
                    start,
                    self.pos,
                ));
            }
            let mut s = String::new();
            let mut i = body;
            loop {
                let Some(ch) = self.text[i..].chars().next() else {
                    return Err(self.err("unterminated quoted string", start, start + 1, name));
                };
                match ch {
                    '"' => {
                        i += 1;
                        break;
                    }
                    '\\' => {
                        let nx = self.text[i + 1..].chars().next();
                        match nx {
                            Some('"') => {
                                s.push('"');
                                i += 2;
                            }
                            Some('\\') => {
                                s.push('\\');
                                i += 2;
                            }
                            Some('\n') => i += 2,
                            _ => {
                                s.push('\\');
                                i += 1;
                            }
                        }
                    }
                    _ => {
                        s.push(ch);
                        i += ch.len_utf8();
                    }
                }
            }
            self.pos = i;
            return Ok((Tok::Id(Cow::Owned(s), true), start, i));
        }
        if c == b'<' {
            let mut depth = 0usize;
            let mut i = start;
            while i < b.len() {
                match b[i] {
                    b'<' => depth += 1,
                    b'>' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            if i >= b.len() {
                return Err(self.err("unterminated HTML string <...>", start, start + 1, name));
            }
            self.pos = i + 1;
            return Ok((
                Tok::Id(Cow::Borrowed(&self.text[start + 1..i]), true),
                start,
                self.pos,
            ));
        }
        if c == b'-' || c == b'.' || c.is_ascii_digit() {
            let mut i = start + usize::from(c == b'-');
            let digits_start = i;
            while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
                i += 1;
            }
            if i == digits_start {
                return Err(self.err("expected a number after `-`", start, start + 1, name));
            }
            if i < b.len() && (b[i] == b'_' || b[i].is_ascii_alphabetic()) {
                // `1e308`: DOT numerals have no exponent, so the lexer would stop at the `e`
                // and the parser would complain about what follows.
                let mut end = i;
                while end < b.len()
                    && (b[end] == b'_'
                        || b[end].is_ascii_alphanumeric()
                        || b[end] == b'-'
                        || b[end] == b'+')
                {
                    end += 1;
                }
                let word = &self.text[start..end];
                return Err(self
                    .err(format!("badly delimited number `{word}`"), start, end, name)
                    .with_help(format!(
                        "DOT numerals have no exponent or suffix; quote the value: \"{word}\""
                    )));
            }
            self.pos = i;
            return Ok((
                Tok::Id(Cow::Borrowed(&self.text[start..i]), false),
                start,
                i,
            ));
        }
        if c == b'_' || c.is_ascii_alphabetic() || c >= 0x80 {
            let mut i = start;
            while i < b.len() && (b[i] == b'_' || b[i].is_ascii_alphanumeric() || b[i] >= 0x80) {
                i += 1;
            }
            self.pos = i;
            return Ok((
                Tok::Id(Cow::Borrowed(&self.text[start..i]), false),
                start,
                i,
            ));
        }
        let ch = self.text[start..].chars().next().unwrap_or('?');
        Err(self.err(
            format!("unexpected character `{ch}`"),
            start,
            start + ch.len_utf8(),
            name,
        ))
    }

    fn peek(&mut self, name: &str) -> Result<&Tok<'a>, GraphError> {
        if self.peeked.is_none() {
            let t = self.next(name)?;
            self.peeked = Some(t);
        }
        Ok(&self.peeked.as_ref().expect("just set").0)
    }
}

/// Adds `src` to `dst`; `time` and `weight` are aliases, so setting one drops the other.
fn merge<'a>(dst: &mut Attrs<'a>, src: Attrs<'a>) {
    for (alias, other) in [("time", "weight"), ("weight", "time")] {
        if attr(&src, alias).is_some() && attr(&src, other).is_none() {
            dst.retain(|(k, _)| k != other);
        }
    }
    for (k, v) in src {
        set_attr(dst, k, v);
    }
}

fn is_kw(t: &Tok, kw: &str) -> bool {
    matches!(t, Tok::Id(s, false) if s.eq_ignore_ascii_case(kw))
}

fn describe(t: &Tok) -> String {
    match t {
        Tok::Id(s, _) => format!("`{s}`"),
        Tok::LBrace => "`{`".into(),
        Tok::RBrace => "`}`".into(),
        Tok::LBracket => "`[`".into(),
        Tok::RBracket => "`]`".into(),
        Tok::Semi => "`;`".into(),
        Tok::Comma => "`,`".into(),
        Tok::Eq => "`=`".into(),
        Tok::Colon => "`:`".into(),
        Tok::Arrow => "`->`".into(),
        Tok::UEdge => "`--`".into(),
        Tok::Eof => "end of input".into(),
    }
}

impl<'a> Parser<'a> {
    fn next(&mut self) -> Result<(Tok<'a>, usize, usize), GraphError> {
        self.lex.next(self.name)
    }

    fn peek(&mut self) -> Result<&Tok<'a>, GraphError> {
        self.lex.peek(self.name)
    }

    fn unexpected(&self, t: &Tok, s: usize, e: usize, wanted: &str) -> GraphError {
        self.lex.err(
            format!("expected {wanted}, found {}", describe(t)),
            s,
            e,
            self.name,
        )
    }

    fn expect_id(&mut self, wanted: &str) -> Result<(Cow<'a, str>, usize, usize), GraphError> {
        match self.next()? {
            (Tok::Id(s, _), a, b) => Ok((s, a, b)),
            (t, a, b) => Err(self.unexpected(&t, a, b, wanted)),
        }
    }

    fn graph(&mut self) -> Result<(), GraphError> {
        let (mut t, mut s, mut e) = self.next()?;
        if is_kw(&t, "strict") {
            (t, s, e) = self.next()?;
        }
        if is_kw(&t, "graph") {
            return Err(GraphError::new(
                ErrorKind::Syntax,
                "undirected `graph`: a task graph must be a `digraph`",
            )
            .with_help("write `digraph` and use `->` for precedences")
            .at(self.name, self.lex.text, s, e, "here"));
        }
        if !is_kw(&t, "digraph") {
            return Err(self.unexpected(&t, s, e, "`digraph`"));
        }
        if let Tok::Id(..) = self.peek()? {
            self.next()?;
        }
        match self.next()? {
            (Tok::LBrace, ..) => {}
            (t, a, b) => return Err(self.unexpected(&t, a, b, "`{`")),
        }
        self.defaults.push(Attrs::new());
        self.stmts(0)?;
        match self.next()? {
            (Tok::Eof, ..) => Ok(()),
            (t, a, b) => Err(self.unexpected(&t, a, b, "end of input")),
        }
    }

    /// Statements up to and including the closing `}`; returns the nodes mentioned.
    fn stmts(&mut self, depth: usize) -> Result<Vec<u32>, GraphError> {
        let mut mentioned = Vec::new();
        loop {
            let (t, s, e) = self.next()?;
            match t {
                Tok::RBrace => return Ok(mentioned),
                Tok::Semi => continue,
                Tok::Eof => return Err(self.unexpected(&t, s, e, "`}`")),
                _ => {}
            }
            if is_kw(&t, "graph") || is_kw(&t, "edge") || is_kw(&t, "node") {
                let node = is_kw(&t, "node");
                let attrs = self.attr_lists(true)?;
                if node {
                    let top = self.defaults.last_mut().expect("scope");
                    merge(top, attrs);
                }
                continue;
            }
            if matches!(t, Tok::Id(..)) && matches!(self.peek()?, Tok::Eq) {
                // `k = v` graph attribute.
                self.next()?;
                self.expect_id("a value")?;
                continue;
            }
            // An endpoint: node id or subgraph; the nodes of the statement's endpoints go
            // into one flat list, `ends` marking where each endpoint's end.
            let mut flat: Vec<u32> = Vec::new();
            let first_id = self.endpoint(t, s, e, depth, &mut flat)?;
            let mut ends: Vec<usize> = vec![0, flat.len()];
            loop {
                match self.peek()? {
                    Tok::Arrow => {
                        self.next()?;
                        let (t, s, e) = self.next()?;
                        self.endpoint(t, s, e, depth, &mut flat)?;
                        ends.push(flat.len());
                    }
                    Tok::UEdge => {
                        let (_, s, e) = self.next()?;
                        return Err(GraphError::new(
                            ErrorKind::Syntax,
                            "undirected edge `--` in a digraph",
                        )
                        .with_help("use `->`")
                        .at(self.name, self.lex.text, s, e, "here"));
                    }
                    _ => break,
                }
            }
            let attrs = if matches!(self.peek()?, Tok::LBracket) {
                self.attr_lists(false)?
            } else {
                Attrs::new()
            };
            if ends.len() == 2 {
                // Node statement (or a bare subgraph): attributes go to the node.
                if first_id {
                    let n = flat[0] as usize;
                    merge(&mut self.nodes.nodes[n].attrs, attrs);
                }
            } else {
                for w in ends.windows(3) {
                    let (from, to) = (&flat[w[0]..w[1]], &flat[w[1]..w[2]]);
                    if self.edges.len().saturating_add(from.len() * to.len())
                        > self.limits.max_edges
                    {
                        return Err(GraphError::limit(
                            sweep::Reached::new(sweep::Limit::Edges, self.limits.max_edges as u64),
                            format!("more than {} edges, the limit", self.limits.max_edges),
                        ));
                    }
                    for &a in from {
                        for &b in to {
                            self.edges.push((a, b));
                        }
                    }
                }
            }
            // The top level's nodes are not needed: only a subgraph's are its endpoints.
            if depth > 0 {
                mentioned.extend(flat);
            }
        }
    }

    /// A node id (with optional port) or a subgraph: appends its nodes to `out`; true for a
    /// node id.
    fn endpoint(
        &mut self,
        t: Tok<'a>,
        s: usize,
        e: usize,
        depth: usize,
        out: &mut Vec<u32>,
    ) -> Result<bool, GraphError> {
        let sub = is_kw(&t, "subgraph");
        if sub || t == Tok::LBrace {
            if depth >= MAX_DEPTH {
                return Err(GraphError::limit(
                    sweep::Reached::new(sweep::Limit::Depth, MAX_DEPTH as u64),
                    format!("subgraphs nested more than {MAX_DEPTH} deep"),
                )
                .at(self.name, self.lex.text, s, e, "here"));
            }
            if sub {
                if let Tok::Id(..) = self.peek()? {
                    self.next()?;
                }
                match self.next()? {
                    (Tok::LBrace, ..) => {}
                    (t, a, b) => return Err(self.unexpected(&t, a, b, "`{`")),
                }
            }
            let scope = self.defaults.last().cloned().unwrap_or_default();
            self.defaults.push(scope);
            let r = self.stmts(depth + 1);
            self.defaults.pop();
            out.extend(r?);
            return Ok(false);
        }
        let Tok::Id(id, _) = t else {
            return Err(self.unexpected(&t, s, e, "a node id"));
        };
        // Port: `:id` or `:id:id`.
        while matches!(self.peek()?, Tok::Colon) {
            self.next()?;
            self.expect_id("a port name")?;
        }
        let n = self.nodes.get_or_add(id, s, e, self.defaults.last())?;
        out.push(n);
        Ok(true)
    }

    /// One or more `[...]` lists. `optional_empty`: allow no list at all (`node;`).
    fn attr_lists(&mut self, optional_empty: bool) -> Result<Attrs<'a>, GraphError> {
        let mut out = Attrs::new();
        let mut any = false;
        while matches!(self.peek()?, Tok::LBracket) {
            any = true;
            self.next()?;
            loop {
                match self.next()? {
                    (Tok::RBracket, ..) => break,
                    (Tok::Comma | Tok::Semi, ..) => continue,
                    (Tok::Id(k, _), ..) => {
                        match self.next()? {
                            (Tok::Eq, ..) => {}
                            (t, a, b) => return Err(self.unexpected(&t, a, b, "`=`")),
                        }
                        let (v, a, b) = self.expect_id("an attribute value")?;
                        set_attr(&mut out, k, (v, a, b));
                    }
                    (t, a, b) => return Err(self.unexpected(&t, a, b, "an attribute or `]`")),
                }
            }
        }
        if !any && !optional_empty {
            let (t, a, b) = self.next()?;
            return Err(self.unexpected(&t, a, b, "`[`"));
        }
        Ok(out)
    }
}

/// Reads a DOT digraph with default options (every node needs a `time` or `weight`).
///
/// ```
/// let g = taskgraph::dot::read_dot("digraph { a [time=2]; b [weight=3]; a -> b }").unwrap();
/// assert_eq!(g.span(), 5.0);
/// ```
pub fn read_dot(text: &str) -> Result<TaskGraph, GraphError> {
    read_dot_with(text, "<dot>", &DotOptions::default())
}

/// Reads a DOT digraph; `name` names the input in diagnostics.
pub fn read_dot_with(text: &str, name: &str, opts: &DotOptions) -> Result<TaskGraph, GraphError> {
    opts.limits.check_bytes(text.len())?;
    let (nodes, edges) = match scan::scan(text, &opts.limits) {
        Some(found) => found,
        None => {
            let mut p = Parser {
                lex: Lexer {
                    text,
                    pos: 0,
                    peeked: None,
                },
                name,
                nodes: Nodes::new(&opts.limits),
                edges: Vec::new(),
                defaults: Vec::new(),
                limits: opts.limits,
            };
            p.graph()?;
            (p.nodes.nodes, p.edges)
        }
    };
    build(text, name, opts, &nodes, edges)
}

/// The task graph of the nodes and edges read from `text`: times and attributes parsed and
/// checked, errors located at the node's first mention or its attribute.
fn build(
    text: &str,
    name: &str,
    opts: &DotOptions,
    nodes: &[Node<'_>],
    edges: Vec<(u32, u32)>,
) -> Result<TaskGraph, GraphError> {
    let mut b = TaskGraphBuilder::with_limits(opts.limits);
    b.reserve(nodes.len(), 0);
    // One node per distinct id, by construction.
    b.assume_unique_ids();
    for (k, n) in nodes.iter().enumerate() {
        let k = k as u32;
        let at = |e: GraphError, (_, s, t): &(Cow<str>, usize, usize), label: &str| {
            e.with_task(k, n.id.as_ref()).at(name, text, *s, *t, label)
        };
        let tv = attr(&n.attrs, "time").or_else(|| attr(&n.attrs, "weight"));
        let time = match tv {
            Some(v) => match v.0.trim().parse::<f64>() {
                Ok(t) => t,
                Err(_) => {
                    return Err(at(
                        GraphError::new(
                            ErrorKind::BadTime,
                            format!("node `{}` has time `{}`, not a number", n.id, v.0),
                        ),
                        v,
                        "not a number",
                    ))
                }
            },
            None => match opts.default_time {
                Some(t) => t,
                None => {
                    return Err(GraphError::new(
                        ErrorKind::MissingTime,
                        format!("node `{}` has no `time` or `weight` attribute", n.id),
                    )
                    .with_help("add [time=...] to the node, or give a default time")
                    .with_task(k, n.id.as_ref())
                    .at(name, text, n.start, n.end, "first mentioned here"))
                }
            },
        };
        b.task(&n.id, time);
        let mut attrs = TaskAttrs::default();
        // In key order, as a map would give them (which error is reported first).
        let mut sorted: Vec<_> = Vec::new();
        let keyed: &mut dyn Iterator<Item = _> = if n.attrs.len() <= 1 {
            &mut n.attrs.iter()
        } else {
            sorted.extend(n.attrs.iter());
            sorted.sort_by(|a, b| a.0.cmp(&b.0));
            &mut sorted.iter().copied()
        };
        for (key, v) in keyed {
            let slot = match key.as_ref() {
                "time" | "weight" => continue,
                "proc" => &mut attrs.proc,
                "queue" => &mut attrs.queue,
                "priority" => &mut attrs.priority,
                _ => {
                    if let Some(r) = key.strip_prefix("rate:") {
                        match v.0.trim().parse::<f64>() {
                            Ok(x) => b.rate(k, r, x),
                            Err(_) => {
                                return Err(at(
                                    GraphError::new(
                                        ErrorKind::BadRate,
                                        format!("node `{}`: rate `{}` is not a number", n.id, v.0),
                                    ),
                                    v,
                                    "not a number",
                                ))
                            }
                        }
                    } else {
                        attrs
                            .extra
                            .insert(key.to_string(), Value::String(v.0.to_string()));
                    }
                    continue;
                }
            };
            match v.0.trim().parse::<i64>() {
                Ok(x) => *slot = Some(x),
                Err(_) => {
                    return Err(at(
                        GraphError::new(
                            ErrorKind::BadAttribute,
                            format!(
                                "node `{}`: `{key}` must be an integer, found `{}`",
                                n.id, v.0
                            ),
                        ),
                        v,
                        "not an integer",
                    ))
                }
            }
        }
        b.attrs(k, attrs);
    }
    b.edges(edges);
    b.build().map_err(|e| match e.task {
        Some(k) if (k as usize) < nodes.len() => {
            let n = &nodes[k as usize];
            e.at(name, text, n.start, n.end, "first mentioned here")
        }
        _ => e,
    })
}

fn quote(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('"');
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            _ => o.push(c),
        }
    }
    o.push('"');
    o
}

fn num(x: f64) -> String {
    let s = format!("{x:?}");
    if s.contains('e') {
        format!("\"{s}\"")
    } else {
        s
    }
}

/// Writes a graph as a DOT digraph: one line per node with its `time`, attributes and rates
/// (`"rate:NAME"=...`), then one line per edge. Times are written in shortest round-trip
/// form, so [`read_dot`] gives back the same graph (extra attributes come back as strings).
pub fn write_dot(g: &TaskGraph) -> String {
    let mut s = String::with_capacity(g.len() * 30 + g.edge_count() * 20 + 32);
    s.push_str("digraph taskgraph {\n");
    for i in 0..g.len() as u32 {
        let _ = write!(s, "  {} [time={}", quote(g.id(i)), num(g.time(i)));
        let a = g.attrs(i);
        for (k, v) in [
            ("proc", a.proc),
            ("queue", a.queue),
            ("priority", a.priority),
        ] {
            if let Some(v) = v {
                let _ = write!(s, ", {k}={v}");
            }
        }
        for (k, v) in &a.extra {
            let v = match v {
                Value::String(x) => x.clone(),
                other => other.to_string(),
            };
            let _ = write!(s, ", {}={}", quote(k), quote(&v));
        }
        let mut rs: Vec<(&str, f64)> = g.rates(i).collect();
        rs.sort_by(|a, b| a.0.cmp(b.0));
        for (r, v) in rs {
            let _ = write!(s, ", {}={}", quote(&format!("rate:{r}")), num(v));
        }
        s.push_str("];\n");
    }
    for i in 0..g.len() as u32 {
        for &c in g.succs(i) {
            let _ = writeln!(s, "  {} -> {};", quote(g.id(i)), quote(g.id(c)));
        }
    }
    s.push_str("}\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use sweep::{Limit, Reached};

    const EX: &str = r#"
// a comment
/* block
   comment */
strict digraph "G" {
  graph [rankdir=LR]; rankdir = TB
  node [shape=box, time=1]
  # preprocessor-style line
  "start node" [time=0.5]
  a [weight=2, label="A \"quoted\""] [priority=3]
  b:p1:n -> c -> d [color=red]
  "start node" -> a -> {b c}
  subgraph cluster_x { node [time=7]; e; d -> e }
  f [time=3, proc=2, queue=1, "rate:bus"=0.25]
  e -> f;
}
"#;

    #[test]
    fn reads_full_syntax() {
        let g = read_dot(EX).unwrap();
        let ids: Vec<&str> = g.ids().collect();
        assert_eq!(ids, vec!["start node", "a", "b", "c", "d", "e", "f"]);
        let t: Vec<f64> = g.times().to_vec();
        assert_eq!(t, vec![0.5, 2.0, 1.0, 1.0, 1.0, 7.0, 3.0]);
        assert_eq!(g.edge_count(), 7);
        assert_eq!(g.preds(3), &[1, 2]); // c <- a, b
        assert_eq!(g.preds(5), &[4]);
        assert_eq!(g.attrs(1).priority, Some(3));
        assert_eq!(g.attrs(1).extra["label"], Value::from("A \"quoted\""));
        assert_eq!(g.attrs(6).proc, Some(2));
        assert_eq!(g.attrs(6).queue, Some(1));
        assert_eq!(g.rate(6, "bus"), 0.25);
        assert_eq!(
            g.critical_path_ids(),
            vec!["start node", "a", "b", "c", "d", "e", "f"]
        );
        assert_eq!(g.span(), 0.5 + 2.0 + 1.0 + 1.0 + 1.0 + 7.0 + 3.0);
    }

    #[test]
    fn round_trip() {
        let g = read_dot(EX).unwrap();
        let s = write_dot(&g);
        let g2 = read_dot(&s).unwrap();
        assert_eq!(g, g2);
        assert_eq!(write_dot(&g2), s);
        assert!(
            s.contains(
                "  \"f\" [time=3.0, proc=2, queue=1, \"shape\"=\"box\", \"rate:bus\"=0.25];\n"
            ),
            "{s}"
        );
        // Exponent times survive.
        let g = read_dot("digraph { a [time=\"1e-300\"]; b [time=0.1]; a -> b }").unwrap();
        let g2 = read_dot(&write_dot(&g)).unwrap();
        assert_eq!(g2.time(0), 1e-300);
        assert_eq!(g, g2);
    }

    #[test]
    fn json_and_dot_agree() {
        let g = read_dot(EX).unwrap();
        let j = crate::read_json(&crate::write_json(&g)).unwrap();
        assert_eq!(j, g);
    }

    #[test]
    fn errors() {
        let e = read_dot("digraph {\n  a [time=1]\n  b\n  a -> b\n}").unwrap_err();
        assert_eq!(e.kind, ErrorKind::MissingTime);
        assert_eq!(e.task_id.as_deref(), Some("b"));
        assert_eq!(e.line_col(), Some((3, 3)));
        let g = read_dot_with(
            "digraph {\n  a [time=1]\n  b\n  a -> b\n}",
            "x",
            &DotOptions {
                default_time: Some(4.0),
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(g.time(1), 4.0);

        let e = read_dot("digraph { a [time=1]; b [time=1]; a -> b -> a }").unwrap_err();
        assert_eq!(e.kind, ErrorKind::Cycle);
        assert!(e.message.contains("a -> b -> a"), "{}", e.message);
        let e = read_dot("digraph { a [time=x1] }").unwrap_err();
        assert_eq!((e.kind, e.line_col()), (ErrorKind::BadTime, Some((1, 19))));
        let e = read_dot("digraph { a [time=-1] }").unwrap_err();
        assert_eq!(e.kind, ErrorKind::BadTime);
        let e = read_dot("digraph { a [time=1, proc=x] }").unwrap_err();
        assert_eq!(e.kind, ErrorKind::BadAttribute);
        let e = read_dot("digraph { a [time=1]; a -> a }").unwrap_err();
        assert_eq!(e.kind, ErrorKind::SelfLoop);
        let e = read_dot("graph { a -- b }").unwrap_err();
        assert_eq!((e.kind, e.line_col()), (ErrorKind::Syntax, Some((1, 1))));
        let e = read_dot("digraph { a -- b }").unwrap_err();
        assert_eq!((e.kind, e.line_col()), (ErrorKind::Syntax, Some((1, 13))));
        let e = read_dot("digraph {\n a [time=1\n").unwrap_err();
        assert_eq!(e.kind, ErrorKind::Syntax);
        let e = read_dot("digraph { a [time=\"1] }").unwrap_err();
        assert!(e.message.contains("unterminated"), "{}", e.message);
        let e = read_dot("digraph { /* x }").unwrap_err();
        assert!(e.message.contains("unterminated"), "{}", e.message);
        let deep = format!("digraph {{ {} }}", "{".repeat(200));
        let e = read_dot(&deep).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Limit);
        assert_eq!(e.reached, Some(Reached::new(Limit::Depth, 64)));
        let limited = |max_tasks, max_edges| DotOptions {
            default_time: Some(1.0),
            limits: Limits {
                max_tasks,
                max_edges,
                ..Limits::default()
            },
        };
        let e = read_dot_with("digraph { a -> b -> c }", "x", &limited(2, 10)).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Limit);
        assert_eq!(e.reached, Some(Reached::new(Limit::Tasks, 2)));
        assert_eq!(e.message, "more than 2 tasks, the limit");
        let e = read_dot_with("digraph { a -> b -> c }", "x", &limited(10, 1)).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Limit);
        assert_eq!(e.reached, Some(Reached::new(Limit::Edges, 1)));
        assert_eq!(e.message, "more than 1 edges, the limit");
        let e = read_dot("digraph { a -> b }").unwrap_err();
        assert_eq!((e.kind, e.reached), (ErrorKind::MissingTime, None));
        let e = read_dot("digraph { a [time=1] } extra").unwrap_err();
        assert_eq!(e.kind, ErrorKind::Syntax);
    }

    #[test]
    fn renders_with_miette() {
        let e = read_dot_with(
            "digraph {\n  a [time=1]\n  b\n}",
            "g.dot",
            &DotOptions::default(),
        )
        .unwrap_err();
        assert_eq!(e.span().map(|s| (s.offset(), s.len())), Some((25, 1)));
        assert_eq!(e.label(), "first mentioned here");
        let mut out = String::new();
        miette::NarratableReportHandler::new()
            .render_report(&mut out, &e)
            .unwrap();
        assert!(
            out.contains("node `b` has no `time` or `weight` attribute (at line 3, column 3)"),
            "{out}"
        );
        assert!(out.contains("g.dot"), "{out}");
        assert!(out.contains("first mentioned here"), "{out}");
        assert!(out.contains("add [time=...] to the node"), "{out}");
    }
}
