//! The parser of Table 2-2's subset: statements from [`super::source`], tokens from
//! `lex`, DO loops nested by an explicit stack (closed by END DO or by their
//! labelled terminal statement), expressions by precedence with a depth limit.

use super::ast::{BinOp, Expr, Program, Ref, Stmt, Type};
use super::error::{SourceError, SourceErrorKind};
use super::lex::{tokens, Tok};
use super::source::{statements, Form, Limits, Statement};
use std::collections::BTreeMap;
use std::ops::Range;

/// Statements of full Fortran that are not in the subset, named in the error.
const OUTSIDE: &[&str] = &[
    "IF",
    "GOTO",
    "GO",
    "CALL",
    "PROGRAM",
    "SUBROUTINE",
    "FUNCTION",
    "PRINT",
    "WRITE",
    "READ",
    "DIMENSION",
    "PARAMETER",
    "COMMON",
    "DATA",
    "IMPLICIT",
    "STOP",
    "RETURN",
    "DOUBLE",
    "LOGICAL",
    "COMPLEX",
    "CHARACTER",
    "ELSE",
    "ENDIF",
    "SAVE",
    "EXTERNAL",
    "EQUIVALENCE",
];

/// Intrinsic functions: `SQRT(X)` would otherwise read as an array element.
const INTRINSICS: &[&str] = &[
    "ABS", "SQRT", "EXP", "LOG", "LOG10", "SIN", "COS", "TAN", "ATAN", "MIN", "MAX", "MOD", "REAL",
    "FLOAT", "INT", "NINT", "DBLE", "SIGN", "AMAX1", "AMIN1", "MAX0", "MIN0", "IABS",
];

/// Parses a fragment of the Fortran 77 subset of Table 2-2 named `name` (for messages).
///
/// # Errors
/// A located [`SourceError`]: a syntax error, Fortran outside the subset, an unclosed DO,
/// a limit of `limits` reached.
pub fn parse(name: &str, text: &str, form: Form, limits: &Limits) -> Result<Program, SourceError> {
    let src = (name, text);
    let stmts = statements(src, form, limits)?;
    let mut declared = BTreeMap::new();
    // The open loops: the DO's fields and the statements of its body so far.
    struct Open {
        var: String,
        lo: Expr,
        hi: Expr,
        label: Option<u32>,
        span: Range<usize>,
        body: Vec<Stmt>,
    }
    // A closed loop becomes a DO statement of the loop around it, or of the program.
    fn close(open: Open, stack: &mut [Open], top: &mut Vec<Stmt>) {
        let done = Stmt::Do {
            var: open.var,
            lo: open.lo,
            hi: open.hi,
            body: open.body,
            span: open.span,
        };
        match stack.last_mut() {
            Some(o) => o.body.push(done),
            None => top.push(done),
        }
    }
    let mut stack: Vec<Open> = Vec::new();
    let mut top: Vec<Stmt> = Vec::new();
    let mut executable = false;
    for st in &stmts {
        let toks = tokens(src, st)?;
        let mut p = Cursor {
            src,
            st,
            toks: &toks,
            pos: 0,
            depth: 0,
            max_depth: limits.max_expr_depth,
        };
        let word = |k: usize| match toks.get(k) {
            Some((Tok::Name(n), _)) => Some(n.as_str()),
            _ => None,
        };
        let has_equals = toks.iter().any(|(t, _)| *t == Tok::Punct('='));
        let stmt: Option<Stmt> = match (word(0), word(1)) {
            (Some("DO"), _) if matches!(toks.get(1), Some((Tok::Name(_) | Tok::Int(_), _))) => {
                p.pos = 1;
                let label = match toks.get(1) {
                    Some((Tok::Int(v), r)) => {
                        p.pos = 2;
                        if *v < 1 || *v > 99_999 {
                            return Err(p.error_at(
                                SourceErrorKind::Syntax,
                                r.clone(),
                                "a DO label must be from 1 to 99999",
                                "write DO 10 I = 1, N … 10 CONTINUE, or DO I = 1, N … END DO",
                            ));
                        }
                        // Fortran 77 allows a comma after the label.
                        if matches!(toks.get(2), Some((Tok::Punct(','), _))) {
                            p.pos = 3;
                        }
                        Some(*v as u32)
                    }
                    _ => None,
                };
                let (var, _) = p.name("a loop variable after DO")?;
                p.expect('=', "`=` after the loop variable")?;
                let lo = p.expr()?;
                p.expect(',', "`,` between the loop's bounds")?;
                let hi = p.expr()?;
                if let Some((Tok::Punct(','), r)) = p.peek() {
                    return Err(p.error_at(
                        SourceErrorKind::Unsupported,
                        r,
                        "a DO step is not in the subset of Table 2-2",
                        "the mapping counts E2 - E1 + 1 iterations; write the loop with step 1",
                    ));
                }
                p.end()?;
                if stack.len() == limits.max_loop_depth {
                    return Err(p.error_at(
                        SourceErrorKind::Limit,
                        0..st.text.len(),
                        &format!(
                            "DO loops nested deeper than {} (max_loop_depth)",
                            limits.max_loop_depth
                        ),
                        "flatten the nest, or raise Limits::max_loop_depth",
                    ));
                }
                stack.push(Open {
                    var,
                    lo,
                    hi,
                    label,
                    span: st.whole(),
                    body: Vec::new(),
                });
                executable = true;
                // A labelled DO statement cannot be its own terminal statement.
                continue;
            }
            (Some("ENDDO"), None) | (Some("END"), Some("DO")) => {
                let n = if word(0) == Some("ENDDO") { 1 } else { 2 };
                p.pos = n;
                p.end()?;
                let Some(open) = stack.pop() else {
                    return Err(p.error_at(
                        SourceErrorKind::Unclosed,
                        0..st.text.len(),
                        "END DO without a DO",
                        "remove it, or open the loop with DO I = 1, N",
                    ));
                };
                if let Some(l) = open.label {
                    if st.label.as_ref().map(|x| x.0) != Some(l) {
                        return Err(p.error_at(
                            SourceErrorKind::Unclosed,
                            0..st.text.len(),
                            &format!("END DO closes a DO that ends at label {l}"),
                            &format!("label this END DO {l}, or end the loop with {l} CONTINUE"),
                        ));
                    }
                }
                close(open, &mut stack, &mut top);
                continue;
            }
            (Some("END"), None) => {
                return Err(p.error_at(
                    SourceErrorKind::Unsupported,
                    0..st.text.len(),
                    "END (of a program unit) is not in the subset of Table 2-2",
                    "a fragment is a list of statements; close loops with END DO",
                ));
            }
            (Some("CONTINUE"), None) => {
                p.pos = 1;
                p.end()?;
                Some(Stmt::Continue)
            }
            (Some(kw @ ("INTEGER" | "REAL")), Some(_)) => {
                if executable {
                    return Err(p.error_at(
                        SourceErrorKind::Syntax,
                        0..st.text.len(),
                        &format!("{kw} declaration after the first executable statement"),
                        "declare types before the statements of the fragment",
                    ));
                }
                let ty = if kw == "INTEGER" {
                    Type::Integer
                } else {
                    Type::Real
                };
                p.pos = 1;
                loop {
                    let (n, r) = p.name("a name to declare")?;
                    // Dimensions are accepted and not needed: subscripts are not costed.
                    if let Some((Tok::Punct('('), _)) = p.peek() {
                        p.subscripts()?;
                    }
                    let r = st.source(r);
                    if declared.insert(n.clone(), (ty, r.clone())).is_some() {
                        return Err(SourceError::at(
                            SourceErrorKind::Name,
                            src,
                            r,
                            format!("{n} is declared twice"),
                        )
                        .help("declare each name once"));
                    }
                    match p.peek() {
                        Some((Tok::Punct(','), _)) => p.pos += 1,
                        _ => break,
                    }
                }
                p.end()?;
                continue;
            }
            (Some(kw), _)
                if OUTSIDE.contains(&kw)
                    && (!has_equals
                        || (kw == "IF" && matches!(toks.get(1), Some((Tok::Punct('('), _))))) =>
            {
                return Err(p.error_at(
                    SourceErrorKind::Unsupported,
                    toks[0].1.clone(),
                    &format!("{kw} is not in the subset of Table 2-2"),
                    "the subset has assignments, DO loops (END DO or a labelled CONTINUE), INTEGER and REAL declarations",
                ));
            }
            _ => {
                let target = p.reference()?;
                p.expect('=', "`=` of an assignment")?;
                let value = p.expr()?;
                p.end()?;
                Some(Stmt::Assign {
                    target,
                    value,
                    span: st.whole(),
                })
            }
        };
        executable = true;
        if let Some(s) = stmt {
            match stack.last_mut() {
                Some(o) => o.body.push(s),
                None => top.push(s),
            }
        }
        // A labelled statement ends every innermost DO that names its label.
        if let Some((l, r)) = &st.label {
            while stack.last().is_some_and(|o| o.label == Some(*l)) {
                let open = stack.pop().expect("checked by is_some_and");
                close(open, &mut stack, &mut top);
            }
            if stack.iter().any(|o| o.label == Some(*l)) {
                return Err(SourceError::at(
                    SourceErrorKind::Unclosed,
                    src,
                    r.clone(),
                    format!("label {l} ends an outer DO while an inner one is open"),
                )
                .help("close the inner loop first: loops nest"));
            }
        }
    }
    if let Some(open) = stack.pop() {
        let closing = match open.label {
            Some(l) => format!("{l} CONTINUE"),
            None => "END DO".to_string(),
        };
        return Err(SourceError::at(
            SourceErrorKind::Unclosed,
            src,
            open.span.clone(),
            format!("DO {} has no {closing}", open.var),
        )
        .help(format!("end the loop with {closing}")));
    }
    Ok(Program {
        declared,
        body: top,
    })
}

/// A position in one statement's tokens.
struct Cursor<'a> {
    src: (&'a str, &'a str),
    st: &'a Statement,
    toks: &'a [(Tok, Range<usize>)],
    pos: usize,
    depth: usize,
    max_depth: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<(&Tok, Range<usize>)> {
        self.toks.get(self.pos).map(|(t, r)| (t, r.clone()))
    }

    /// The range of the current token, or the end of the statement.
    fn here(&self) -> Range<usize> {
        match self.toks.get(self.pos) {
            Some((_, r)) => r.clone(),
            None => {
                let n = self.st.text.trim_end().len();
                n.saturating_sub(1)..n
            }
        }
    }

    fn error_at(
        &self,
        kind: SourceErrorKind,
        r: Range<usize>,
        msg: &str,
        help: &str,
    ) -> SourceError {
        SourceError::at(kind, self.src, self.st.source(r), msg).help(help)
    }

    fn found(&self) -> String {
        match self.peek() {
            None => "the end of the statement".into(),
            Some((Tok::Name(n), _)) => diag::short(n),
            Some((Tok::Int(v), _)) => v.to_string(),
            Some((Tok::Real(t), _)) => diag::short(t),
            Some((Tok::Punct(c), _)) => format!("`{c}`"),
        }
    }

    fn expect(&mut self, c: char, what: &str) -> Result<(), SourceError> {
        match self.peek() {
            Some((Tok::Punct(x), _)) if *x == c => {
                self.pos += 1;
                Ok(())
            }
            _ => Err(self.error_at(
                SourceErrorKind::Syntax,
                self.here(),
                &format!("expected {what}, found {}", self.found()),
                "statements are NAME = expression, NAME(subscripts) = expression, DO I = first, last, END DO",
            )),
        }
    }

    fn end(&self) -> Result<(), SourceError> {
        if self.pos < self.toks.len() {
            return Err(self.error_at(
                SourceErrorKind::Syntax,
                self.here(),
                &format!("unexpected {} after the statement", self.found()),
                "one statement per line; continue a long one with & (or a mark in column 6)",
            ));
        }
        Ok(())
    }

    fn name(&mut self, what: &str) -> Result<(String, Range<usize>), SourceError> {
        match self.peek() {
            Some((Tok::Name(n), r)) => {
                let n = n.clone();
                self.pos += 1;
                Ok((n, r))
            }
            _ => Err(self.error_at(
                SourceErrorKind::Syntax,
                self.here(),
                &format!("expected {what}, found {}", self.found()),
                "a name starts with a letter",
            )),
        }
    }

    /// A scalar or an array element.
    fn reference(&mut self) -> Result<Ref, SourceError> {
        let (name, r) = self.name("a name")?;
        let mut span = r.clone();
        let mut subscripts = Vec::new();
        if let Some((Tok::Punct('('), _)) = self.peek() {
            if INTRINSICS.contains(&name.as_str()) {
                return Err(self.error_at(
                    SourceErrorKind::Unsupported,
                    r,
                    &format!("the function {name} is not in the subset of Table 2-2"),
                    "the subset has + - * / only; a name with parentheses is an array element",
                ));
            }
            subscripts = self.subscripts()?;
            span.end = self.toks[self.pos - 1].1.end;
        }
        Ok(Ref {
            name,
            subscripts,
            span: self.st.source(span),
        })
    }

    /// `( e1, e2, … )`.
    fn subscripts(&mut self) -> Result<Vec<Expr>, SourceError> {
        self.expect('(', "`(`")?;
        let mut out = vec![self.expr()?];
        while let Some((Tok::Punct(','), _)) = self.peek() {
            self.pos += 1;
            if out.len() == 7 {
                return Err(self.error_at(
                    SourceErrorKind::Syntax,
                    self.here(),
                    "more than 7 subscripts",
                    "Fortran arrays have at most 7 dimensions",
                ));
            }
            out.push(self.expr()?);
        }
        self.expect(')', "`)` or `,` in the subscripts")?;
        Ok(out)
    }

    fn deeper(&mut self) -> Result<(), SourceError> {
        self.depth += 1;
        if self.depth > self.max_depth {
            return Err(self.error_at(
                SourceErrorKind::Limit,
                self.here(),
                &format!(
                    "an expression nested deeper than {} (max_expr_depth)",
                    self.max_depth
                ),
                "split the expression, or raise Limits::max_expr_depth",
            ));
        }
        Ok(())
    }

    /// `[+|-] term {(+|-) term}`.
    fn expr(&mut self) -> Result<Expr, SourceError> {
        self.deeper()?;
        let start = self.here().start;
        let mut left = match self.peek() {
            Some((Tok::Punct(c @ ('+' | '-')), _)) => {
                let neg = *c == '-';
                self.pos += 1;
                let t = self.term()?;
                if neg {
                    let span = self.st.source(start..self.toks[self.pos - 1].1.end);
                    Expr::Neg(Box::new(t), span)
                } else {
                    t
                }
            }
            _ => self.term()?,
        };
        while let Some((Tok::Punct(c @ ('+' | '-')), _)) = self.peek() {
            let op = if *c == '+' { BinOp::Add } else { BinOp::Sub };
            self.pos += 1;
            let right = self.term()?;
            let span = self.st.source(start..self.toks[self.pos - 1].1.end);
            left = Expr::Bin(op, Box::new(left), Box::new(right), span);
        }
        self.depth -= 1;
        Ok(left)
    }

    /// `factor {(*|/) factor}`.
    fn term(&mut self) -> Result<Expr, SourceError> {
        let start = self.here().start;
        let mut left = self.factor()?;
        while let Some((Tok::Punct(c @ ('*' | '/')), _)) = self.peek() {
            let op = if *c == '*' { BinOp::Mul } else { BinOp::Div };
            self.pos += 1;
            let right = self.factor()?;
            let span = self.st.source(start..self.toks[self.pos - 1].1.end);
            left = Expr::Bin(op, Box::new(left), Box::new(right), span);
        }
        Ok(left)
    }

    fn factor(&mut self) -> Result<Expr, SourceError> {
        match self.peek() {
            Some((Tok::Int(v), r)) => {
                let v = *v;
                self.pos += 1;
                Ok(Expr::Int(v, self.st.source(r)))
            }
            Some((Tok::Real(t), r)) => {
                let t = t.clone();
                self.pos += 1;
                Ok(Expr::Real(t, self.st.source(r)))
            }
            Some((Tok::Name(_), _)) => Ok(Expr::Ref(self.reference()?)),
            Some((Tok::Punct('('), r)) => {
                self.pos += 1;
                let inner = self.expr()?;
                self.expect(')', "`)`")?;
                let span = self.st.source(r.start..self.toks[self.pos - 1].1.end);
                Ok(Expr::Paren(Box::new(inner), span))
            }
            Some((Tok::Punct(c @ ('+' | '-')), _)) => {
                let c = *c;
                Err(self.error_at(
                    SourceErrorKind::Syntax,
                    self.here(),
                    &format!("a sign `{c}` after an operator"),
                    "Fortran needs parentheses around a signed operand: A*(-B)",
                ))
            }
            _ => Err(self.error_at(
                SourceErrorKind::Syntax,
                self.here(),
                &format!("expected a name, a constant or `(`, found {}", self.found()),
                "an operand is a name, an array element, a constant or a parenthesised expression",
            )),
        }
    }
}
