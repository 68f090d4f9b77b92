//! The parser: text to [`Model`], by recursive descent over the characters. Expressions are
//! cut out of the text (up to the `;`, `{`, `..=`, `]` or `)` that ends them, brackets
//! balanced) and read by the `expr` crate, whose error offsets are moved to the model's.

use std::ops::Range;

use super::ast::{
    ArrayDecl, BarrierDecl, Ident, LoopRange, Model, Param, Ref, Spanned, Stmt, ThreadDecl,
};
use super::error::{ErrorKind, Locate, ModelError, Result};

/// The deepest nesting of blocks.
pub const MAX_DEPTH: usize = 64;

/// The words that start declarations and statements.
const KEYWORDS: [&str; 17] = [
    "param", "coeff", "barrier", "lock", "channel", "thread", "class", "compute", "loop", "unlock",
    "critical", "fork", "join", "send", "recv", "branch", "mark",
];

struct Parser<'a> {
    name: &'a str,
    text: &'a str,
    pos: usize,
    depth: usize,
}

/// Parses model text (named `name` in messages).
///
/// # Errors
/// A [`ModelError`] of kind [`ErrorKind::Syntax`] at the first problem.
pub(crate) fn parse(name: &str, text: &str) -> Result<Model> {
    let mut p = Parser {
        name,
        text,
        // A UTF-8 byte-order mark (editors on Windows write one) is not part of the model:
        // skipped, the spans still count from the file's first byte.
        pos: if text.starts_with('\u{feff}') { 3 } else { 0 },
        depth: 0,
    };
    let mut m = Model {
        name: name.to_string(),
        text: text.to_string(),
        ..Model::default()
    };
    loop {
        p.skip();
        if p.pos >= text.len() {
            return Ok(m);
        }
        p.item(&mut m)?;
    }
}

impl<'a> Parser<'a> {
    fn error(
        &self,
        range: Range<usize>,
        message: impl Into<String>,
        label: &str,
    ) -> Box<ModelError> {
        ModelError::new(ErrorKind::Syntax, message).at(self.name, self.text, range, label)
    }

    fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    /// Skips white space and comments.
    fn skip(&mut self) {
        loop {
            let r = self.rest();
            let trimmed = r.trim_start();
            self.pos += r.len() - trimmed.len();
            if trimmed.starts_with("//") {
                self.pos += trimmed.find('\n').unwrap_or(trimmed.len());
            } else if let Some(body) = trimmed.strip_prefix("/*") {
                match body.find("*/") {
                    Some(e) => self.pos += e + 4,
                    None => {
                        // Reported by the caller as an unterminated comment at its start.
                        self.pos = self.text.len();
                        return;
                    }
                }
            } else {
                return;
            }
        }
    }

    fn unterminated_comment(&self) -> Option<Box<ModelError>> {
        let mut i = 0;
        let t = self.text;
        while let Some(k) = t[i..].find("/*") {
            let start = i + k;
            // A `/*` inside a line comment does not open one.
            let line_start = t[..start].rfind('\n').map_or(0, |n| n + 1);
            if t[line_start..start].contains("//") {
                i = start + 2;
                continue;
            }
            match t[start + 2..].find("*/") {
                Some(e) => i = start + 2 + e + 2,
                None => {
                    return Some(
                        self.error(
                            start..start + 2,
                            "this comment is never closed",
                            "opened here",
                        )
                        .help("close it with `*/`"),
                    )
                }
            }
        }
        None
    }

    /// The next word (letters, digits, `_`; not starting with a digit), if any.
    fn word(&mut self) -> Option<Ident> {
        self.skip();
        let r = self.rest();
        let len = r
            .char_indices()
            .find(|&(i, c)| !(c.is_ascii_alphabetic() || c == '_' || (i > 0 && c.is_ascii_digit())))
            .map_or(r.len(), |(i, _)| i);
        if len == 0 {
            return None;
        }
        let start = self.pos;
        self.pos += len;
        Some(Ident {
            name: r[..len].to_string(),
            span: start..self.pos,
        })
    }

    /// A name that is not a keyword.
    fn name(&mut self, what: &str) -> Result<Ident> {
        let at = self.pos;
        match self.word() {
            Some(id) if KEYWORDS.contains(&id.name.as_str()) => Err(self.error(
                id.span.clone(),
                format!("`{}` is a keyword and cannot name {what}", id.name),
                "a keyword",
            )),
            Some(id) => Ok(id),
            None => Err(self.found(at, &format!("{what} (a name)"))),
        }
    }

    /// An error: `expected` was expected at the next character.
    fn found(&mut self, _at: usize, expected: &str) -> Box<ModelError> {
        if let Some(e) = self.unterminated_comment() {
            return e;
        }
        self.skip();
        let r = self.rest();
        match r.chars().next() {
            None => self.error(
                self.pos..self.pos,
                format!("expected {expected}, found the end of the model"),
                "here",
            ),
            Some(c) => {
                let len = r
                    .char_indices()
                    .find(|&(i, ch)| i > 0 && !(ch.is_ascii_alphanumeric() || ch == '_'))
                    .map_or(r.len(), |(i, _)| i)
                    .max(c.len_utf8());
                let len = if c.is_ascii_alphanumeric() || c == '_' {
                    len
                } else {
                    c.len_utf8()
                };
                let shown = diag::short(&r[..len]);
                self.error(
                    self.pos..self.pos + len,
                    format!("expected {expected}, found `{shown}`"),
                    "here",
                )
            }
        }
    }

    fn eat(&mut self, token: &str) -> bool {
        self.skip();
        if self.rest().starts_with(token) {
            self.pos += token.len();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, token: &str) -> Result<()> {
        let at = self.pos;
        if self.eat(token) {
            Ok(())
        } else {
            Err(self.found(at, &format!("`{token}`")))
        }
    }

    fn keyword(&mut self, word: &str) -> bool {
        self.skip();
        let r = self.rest();
        if r.starts_with(word)
            && !r[word.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
        {
            self.pos += word.len();
            true
        } else {
            false
        }
    }

    /// An expression up to (not including) the first of `ends` outside brackets, or an
    /// unmatched `)` or `]`.
    fn expr(&mut self, ends: &[&str], what: &str) -> Result<Spanned> {
        self.skip();
        let start = self.pos;
        let bytes = self.text.as_bytes();
        let mut i = start;
        let mut depth = 0usize;
        while i < bytes.len() {
            let r = &self.text[i..];
            if depth == 0 && ends.iter().any(|e| r.starts_with(e)) {
                break;
            }
            match bytes[i] {
                b'(' | b'[' => depth += 1,
                b')' | b']' if depth == 0 => break,
                b')' | b']' => depth -= 1,
                b';' | b'{' | b'}' => break,
                _ => {}
            }
            i += 1;
        }
        let raw = &self.text[start..i];
        let trimmed_len = raw.trim_end().len();
        let end = start + trimmed_len;
        if trimmed_len == 0 {
            return Err(self.found(start, what));
        }
        let expr = expr::parse(&self.text[start..end]).map_err(|e| {
            if e.start >= end - start && i < bytes.len() {
                // The expression stopped early: point at what stopped it.
                let c = self.text[i..].chars().next().unwrap_or(' ');
                let message = e.message.replace("the end of the input", &format!("`{c}`"));
                return self.error(i..i + c.len_utf8(), format!("{what}: {message}"), "here");
            }
            self.error(
                start + e.start..start + e.end.max(e.start),
                format!("{what}: {}", e.message),
                "here",
            )
        })?;
        self.pos = end;
        Ok(Spanned {
            expr,
            span: start..end,
        })
    }

    fn reference(&mut self, what: &str) -> Result<Ref> {
        let name = self.name(what)?;
        let index = if self.eat("[") {
            let e = self.expr(&["]"], "an index")?;
            self.expect("]")?;
            Some(e)
        } else {
            None
        };
        Ok(Ref { name, index })
    }

    fn item(&mut self, m: &mut Model) -> Result<()> {
        let at = self.pos;
        if self.keyword("param") {
            let name = self.name("the parameter")?;
            let integer = if self.eat(":") {
                let at = self.pos;
                if self.keyword("int") {
                    true
                } else if self.keyword("real") {
                    false
                } else {
                    return Err(self.found(at, "`int` or `real` (as in `param N: int >= 1;`)"));
                }
            } else {
                false
            };
            let (mut min, mut max) = (None, None);
            if self.eat(">=") {
                min = Some(self.expr(&[], "the parameter's lowest value")?);
            } else if self.eat("<=") {
                max = Some(self.expr(&[], "the parameter's highest value")?);
            } else if self.keyword("in") {
                min = Some(self.expr(&["..="], "the parameter's lowest value")?);
                self.expect("..=")?;
                max = Some(self.expr(&[], "the parameter's highest value")?);
            }
            let value = if self.eat("=") {
                let at = self.pos;
                if integer || min.is_some() || max.is_some() {
                    return Err(self.error(
                        at..at,
                        "a derived parameter takes no type or bounds",
                        "here",
                    ));
                }
                Some(self.expr(&[], "the parameter's definition")?)
            } else {
                None
            };
            let span = name.span.start..self.pos;
            self.expect(";")?;
            m.params.push(Param {
                name,
                value,
                integer,
                min,
                max,
                span,
            });
        } else if self.keyword("coeff") {
            loop {
                m.coeffs.push(self.name("the coefficient")?);
                if !self.eat(",") {
                    break;
                }
            }
            self.expect(";")?;
        } else if self.keyword("barrier") {
            let name = self.name("the barrier")?;
            self.expect("(")?;
            let participants = self.expr(&[], "the number of participants")?;
            self.expect(")")?;
            self.expect(";")?;
            m.barriers.push(BarrierDecl { name, participants });
        } else if self.keyword("memory") {
            let e = self.expr(&[], "the working set in bytes")?;
            self.expect(";")?;
            if m.memory.is_some() {
                return Err(self.error(e.span, "the working set is declared twice", "again"));
            }
            m.memory = Some(e);
        } else if self.keyword("lock") {
            let d = self.array("the lock")?;
            m.locks.push(d);
        } else if self.keyword("channel") {
            let d = self.array("the channel")?;
            m.channels.push(d);
        } else if self.keyword("thread") {
            let name = self.name("the thread")?;
            let body = self.block()?;
            m.threads.push(ThreadDecl {
                name,
                class: None,
                body,
            });
        } else if self.keyword("class") {
            let name = self.name("the class thread")?;
            self.expect("[")?;
            let var = self.name("the instance index")?;
            if !self.keyword("in") {
                return Err(self.found(at, "`in` (as in `class worker[i in P]`)"));
            }
            let count = self.expr(&["]"], "the number of instances")?;
            self.expect("]")?;
            let body = self.block()?;
            m.threads.push(ThreadDecl {
                name,
                class: Some((var, count)),
                body,
            });
        } else {
            return Err(self
                .found(at, "a declaration (`param`, `coeff`, `barrier`, `lock`, `channel`, `memory`, `thread` or `class`)"));
        }
        Ok(())
    }

    fn array(&mut self, what: &str) -> Result<ArrayDecl> {
        let name = self.name(what)?;
        let size = if self.eat("[") {
            let e = self.expr(&["]"], "the array's length")?;
            self.expect("]")?;
            Some(e)
        } else {
            None
        };
        self.expect(";")?;
        Ok(ArrayDecl { name, size })
    }

    fn block(&mut self) -> Result<Vec<Stmt>> {
        let open = self.pos;
        self.expect("{")?;
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error(
                open..self.pos,
                format!("blocks are nested more than {MAX_DEPTH} deep"),
                "too deep",
            ));
        }
        let mut out = Vec::new();
        loop {
            if self.eat("}") {
                self.depth -= 1;
                return Ok(out);
            }
            self.skip();
            if self.pos >= self.text.len() {
                if let Some(e) = self.unterminated_comment() {
                    return Err(e);
                }
                return Err(self
                    .error(open..open + 1, "this block is never closed", "opened here")
                    .help("close it with `}`"));
            }
            out.push(self.stmt()?);
        }
    }

    fn stmt(&mut self) -> Result<Stmt> {
        let at = self.pos;
        let s = if self.keyword("compute") {
            let name = self.name("the segment")?;
            self.expect("=")?;
            let cost = self.expr(&[], "the segment's time")?;
            self.expect(";")?;
            Stmt::Compute { name, cost }
        } else if self.keyword("loop") {
            let start = self.pos;
            let save = self.pos;
            // `loop k in A..=B` or `loop COUNT`.
            let range = match self.word() {
                Some(var) if self.keyword("in") => {
                    let from = self.expr(&["..="], "the loop's first value")?;
                    self.expect("..=")?;
                    let to = self.expr(&[], "the loop's last value")?;
                    LoopRange::Var(var, from, to)
                }
                _ => {
                    self.pos = save;
                    LoopRange::Count(self.expr(&[], "the loop's iteration count")?)
                }
            };
            let body = self.block()?;
            Stmt::Loop {
                at: at..start,
                range,
                body,
            }
        } else if self.keyword("barrier") {
            let r = self.reference("the barrier")?;
            self.expect(";")?;
            Stmt::Barrier(r)
        } else if self.keyword("lock") {
            let r = self.reference("the lock")?;
            self.expect(";")?;
            Stmt::Lock(r)
        } else if self.keyword("unlock") {
            let r = self.reference("the lock")?;
            self.expect(";")?;
            Stmt::Unlock(r)
        } else if self.keyword("critical") {
            let r = self.reference("the lock")?;
            Stmt::Critical(r, self.block()?)
        } else if self.keyword("fork") {
            let r = self.reference("the thread")?;
            self.expect(";")?;
            Stmt::Fork(r)
        } else if self.keyword("join") {
            let r = self.reference("the thread")?;
            self.expect(";")?;
            Stmt::Join(r)
        } else if self.keyword("send") {
            let r = self.reference("the channel")?;
            self.skip();
            let bytes = if self.rest().starts_with(';') {
                None
            } else {
                Some(self.expr(&[], "the message's size in bytes")?)
            };
            self.expect(";")?;
            Stmt::Send(r, bytes)
        } else if self.keyword("recv") {
            let r = self.reference("the channel")?;
            self.expect(";")?;
            Stmt::Recv(r)
        } else if self.keyword("branch") {
            let probability = self.expr(&[], "the branch's probability")?;
            let then = self.block()?;
            let otherwise = if self.keyword("else") {
                self.block()?
            } else {
                Vec::new()
            };
            Stmt::Branch {
                probability,
                then,
                otherwise,
            }
        } else if self.keyword("mark") {
            let name = self.name("the mark")?;
            self.expect(";")?;
            Stmt::Mark(name)
        } else {
            return Err(self.found(
                at,
                "a statement (`compute`, `loop`, `barrier`, `lock`, `unlock`, `critical`, `fork`, `join`, `send`, `recv`, `branch`, `mark`) or `}`",
            ));
        };
        Ok(s)
    }
}
