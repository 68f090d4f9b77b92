//! The fast path of the DOT reader: a scanner for the flat shape that [`super::write_dot`]
//! and most tools write —
//!
//! ```text
//! digraph name {
//!   "t0" [time=8.5];
//!   t1 [weight="2"];
//!   "t0" -> "t1";
//! }
//! ```
//!
//! node statements with one `time` or `weight` attribute, single edges without attributes,
//! quoted ids without escapes or plain ASCII identifiers, optional `;`. It accepts only
//! input it can read exactly as the general parser would; anything else (comments,
//! defaults, chains, subgraphs, ports, other attributes, numerals as ids, escapes, anything
//! malformed, a limit reached) makes it give up, and the general parser reads the file and
//! reports any error. Both fill the same [`Nodes`] table, so nodes are numbered alike.

use std::borrow::Cow;

use super::{Attrs, Node, Nodes};
use crate::graph::Limits;

/// The nodes (in order of first mention) and the edges of a DOT text.
pub(super) type Read<'a> = (Vec<Node<'a>>, Vec<(u32, u32)>);

/// The nodes and edges of `text`, or `None` when the text is not of the flat shape.
pub(super) fn scan<'a>(text: &'a str, limits: &Limits) -> Option<Read<'a>> {
    let mut s = Scanner {
        text,
        b: text.as_bytes(),
        i: 0,
    };
    s.ws();
    let mut word = s.plain()?;
    if word.eq_ignore_ascii_case("strict") {
        s.ws();
        word = s.plain()?;
    }
    if !word.eq_ignore_ascii_case("digraph") {
        return None;
    }
    s.ws();
    if s.peek() != Some(b'{') {
        s.id()?;
        s.ws();
    }
    s.eat(b'{')?;
    let mut nodes = Nodes::new(limits);
    // About one edge per 30 bytes and one node per 150 in `write_dot`'s layout.
    let mut edges = Vec::with_capacity((text.len() / 30).min(limits.max_edges));
    nodes
        .nodes
        .reserve((text.len() / 150).min(limits.max_tasks));
    loop {
        s.ws();
        match s.peek()? {
            b'}' => {
                s.i += 1;
                s.ws();
                return (s.i == s.b.len()).then_some((nodes.nodes, edges));
            }
            b';' => {
                s.i += 1;
                continue;
            }
            _ => {}
        }
        let (id, start, end) = s.id()?;
        let a = nodes.get_or_add(Cow::Borrowed(id), start, end, None).ok()?;
        s.ws();
        match s.peek()? {
            b'[' => {
                let attr = s.time_attr()?;
                let attrs = &mut nodes.nodes[a as usize].attrs;
                // `time` and `weight` are aliases: the last one given is the time.
                attrs.clear();
                attrs.push(attr);
            }
            b'-' => {
                s.eat(b'-')?;
                s.eat(b'>')?;
                s.ws();
                let (id, start, end) = s.id()?;
                let b = nodes.get_or_add(Cow::Borrowed(id), start, end, None).ok()?;
                if edges.len() >= limits.max_edges {
                    return None;
                }
                edges.push((a, b));
                s.ws();
                // Chains and edge attributes are for the general parser.
                if matches!(s.peek()?, b'-' | b'[') {
                    return None;
                }
            }
            // `=` (a graph attribute) and anything unexpected.
            b'=' => return None,
            _ => {}
        }
    }
}

struct Scanner<'a> {
    text: &'a str,
    b: &'a [u8],
    i: usize,
}

/// The keywords, which the general parser reads as statements, not node ids.
const KEYWORDS: [&str; 6] = ["strict", "graph", "digraph", "node", "edge", "subgraph"];

impl<'a> Scanner<'a> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn ws(&mut self) {
        while self.i < self.b.len() && self.b[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> Option<()> {
        (self.peek()? == c).then(|| self.i += 1)
    }

    /// A plain identifier `[A-Za-z_][A-Za-z0-9_]*` (not followed by a non-ASCII byte, which
    /// the general lexer would take into the id).
    fn plain(&mut self) -> Option<&'a str> {
        let start = self.i;
        let c = self.peek()?;
        if !(c == b'_' || c.is_ascii_alphabetic()) {
            return None;
        }
        while self.i < self.b.len()
            && (self.b[self.i] == b'_' || self.b[self.i].is_ascii_alphanumeric())
        {
            self.i += 1;
        }
        if self.peek().is_some_and(|c| c >= 0x80) {
            return None;
        }
        Some(&self.text[start..self.i])
    }

    /// A quoted string without escapes: its contents.
    fn quoted(&mut self) -> Option<&'a str> {
        self.eat(b'"')?;
        let body = self.i;
        let k = self.b[body..]
            .iter()
            .position(|&c| c == b'"' || c == b'\\')?;
        if self.b[body + k] != b'"' {
            return None;
        }
        self.i = body + k + 1;
        Some(&self.text[body..body + k])
    }

    /// A node id: quoted, or a plain identifier that is not a keyword; with its span.
    fn id(&mut self) -> Option<(&'a str, usize, usize)> {
        let start = self.i;
        let id = if self.peek()? == b'"' {
            self.quoted()?
        } else {
            let w = self.plain()?;
            if KEYWORDS.iter().any(|k| w.eq_ignore_ascii_case(k)) {
                return None;
            }
            w
        };
        Some((id, start, self.i))
    }

    /// A numeral `-?[0-9.]+`, not followed by a letter or `_` (the general lexer's error).
    fn numeral(&mut self) -> Option<&'a str> {
        let start = self.i;
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        let digits = self.i;
        while self.i < self.b.len() && (self.b[self.i].is_ascii_digit() || self.b[self.i] == b'.') {
            self.i += 1;
        }
        if self.i == digits
            || self
                .peek()
                .is_some_and(|c| c == b'_' || c.is_ascii_alphabetic())
        {
            return None;
        }
        Some(&self.text[start..self.i])
    }

    /// `[time=V]` or `[weight=V]`, with an optional `,` or `;` before the `]`: the attribute
    /// with the value's span.
    fn time_attr(&mut self) -> Option<<Attrs<'a> as IntoIterator>::Item> {
        self.eat(b'[')?;
        self.ws();
        let key = self.plain()?;
        if key != "time" && key != "weight" {
            return None;
        }
        self.ws();
        self.eat(b'=')?;
        self.ws();
        let start = self.i;
        let value = if self.peek()? == b'"' {
            self.quoted()?
        } else {
            self.numeral()?
        };
        let end = self.i;
        self.ws();
        if matches!(self.peek()?, b',' | b';') {
            self.i += 1;
            self.ws();
        }
        self.eat(b']')?;
        Some((Cow::Borrowed(key), (Cow::Borrowed(value), start, end)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dot::{read_dot_with, DotOptions, Lexer, Parser};
    use proptest::prelude::*;

    /// Nodes (id, span, attributes) and edges, as a parser read them.
    type Parsed<'a> = (Vec<(String, usize, usize, Attrs<'a>)>, Vec<(u32, u32)>);

    /// The general parser's nodes and edges.
    fn general(text: &str) -> Parsed<'_> {
        let limits = Limits::default();
        let mut p = Parser {
            lex: Lexer {
                text,
                pos: 0,
                peeked: None,
            },
            name: "t",
            nodes: Nodes::new(&limits),
            edges: Vec::new(),
            defaults: Vec::new(),
            limits,
        };
        p.graph().expect("general parser");
        let nodes = p
            .nodes
            .nodes
            .into_iter()
            .map(|n| (n.id.into_owned(), n.start, n.end, n.attrs))
            .collect();
        (nodes, p.edges)
    }

    fn fast(text: &str) -> Option<Parsed<'_>> {
        let (nodes, edges) = scan(text, &Limits::default())?;
        let nodes = nodes
            .into_iter()
            .map(|n| (n.id.into_owned(), n.start, n.end, n.attrs))
            .collect();
        Some((nodes, edges))
    }

    #[test]
    fn reads_what_write_dot_writes_as_the_general_parser_does() {
        let g = crate::gen::generate(
            crate::gen::GenKind::Layered,
            &crate::gen::GenOptions {
                tasks: 300,
                ..crate::gen::GenOptions::default()
            },
        )
        .expect("generated");
        let text = super::super::write_dot(&g);
        assert_eq!(fast(&text).expect("flat shape"), general(&text));
    }

    #[test]
    fn gives_up_on_everything_else() {
        for text in [
            "digraph { a [time=1] // comment\n }",
            "digraph { node [time=1]; a }",
            "digraph { a -> b -> c }",
            "digraph { a -> b [w=1] }",
            "digraph { a [time=1, proc=2] }",
            "digraph { a [label=x] }",
            "digraph { 1 -> 2 }",
            "digraph { \"a\\\"b\" [time=1] }",
            "digraph { a:p -> b }",
            "digraph { subgraph { a } }",
            "digraph { rankdir = LR }",
            "digraph { node }",
            "digraph { a [time=1e5] }",
            "digraph { é [time=1] }",
            "graph { a -- b }",
            "digraph { a [time=1] } x",
            "digraph { a [time=1]",
        ] {
            assert!(fast(text).is_none(), "{text}");
        }
    }

    #[test]
    fn repeated_statements_and_aliases_match() {
        let text =
            "strict digraph \"g\" {\n a [time=1]; b [weight=\"2\"]\n a -> b;; a [weight=3]\n\
                    b [time = 4 ;] c -> a c [time=5]\n}\n";
        assert_eq!(fast(text).expect("flat"), general(text));
        let g = read_dot_with(text, "t", &DotOptions::default()).expect("reads");
        assert_eq!(g.time(0), 3.0);
        assert_eq!(g.time(1), 4.0);
    }

    #[test]
    fn errors_are_the_general_parsers() {
        // A bad time is reported at the value, a missing one at the node, as before.
        let e = read_dot_with("digraph { a [time=x] }", "t", &DotOptions::default())
            .expect_err("bad time");
        assert!(e.to_string().contains("time `x`, not a number"), "{e}");
        let e = read_dot_with("digraph { a [time=\"x\"] }", "t", &DotOptions::default())
            .expect_err("bad time");
        assert!(e.to_string().contains("not a number"), "{e}");
        let e = read_dot_with(
            "digraph { a -> b; a [time=1] }",
            "t",
            &DotOptions::default(),
        )
        .expect_err("no time");
        assert!(e.to_string().contains("node `b` has no `time`"), "{e}");
    }

    #[test]
    fn ids_found_by_their_digits_are_the_same_ids() {
        let mut nodes = Nodes::new(&Limits::default());
        let mut at = |id: &'static str| {
            nodes
                .get_or_add(Cow::Borrowed(id), 0, 0, None)
                .expect("within limits")
        };
        let ids = [
            "t0", "t1", "x1", "t01", "t2", "1", "t1", "t", "t2", "x1", "t3",
        ];
        let got: Vec<u32> = ids.iter().map(|id| at(id)).collect();
        assert_eq!(got, [0, 1, 2, 3, 4, 5, 1, 6, 4, 2, 7]);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Random flat files: the scanner reads them exactly as the general parser.
        #[test]
        fn random_flat_files_agree(
            stmts in prop::collection::vec((0u8..3, 0usize..12, 0usize..12, 0u32..100, any::<bool>()), 0..40),
            quoted in any::<bool>(),
        ) {
            let name = |k: usize| if quoted { format!("\"n{k}\"") } else { format!("v_{k}") };
            let mut text = String::from("digraph {\n");
            for (kind, a, b, t, semi) in stmts {
                match kind {
                    0 => text.push_str(&format!("  {} [time={}.5]", name(a), t)),
                    1 => text.push_str(&format!("  {} [weight=\"{}\"]", name(a), t)),
                    _ => text.push_str(&format!("  {} -> {}", name(a), name(b))),
                }
                text.push_str(if semi { ";\n" } else { "\n" });
            }
            text.push('}');
            prop_assert_eq!(fast(&text).expect("flat"), general(&text));
        }
    }
}
