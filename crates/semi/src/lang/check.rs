//! Name checks: every name declared once, every use of the right kind, every variable of an
//! expression in scope there.

use std::collections::HashMap;
use std::ops::Range;

use expr::{Expr, FoldOp, Name};

use super::ast::{Ident, LoopRange, Model, Ref, Spanned, Stmt};
use super::error::{ErrorKind, Locate, ModelError, Result};

/// What a global name is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Param,
    Coeff,
    Barrier,
    Lock { array: bool },
    Channel { array: bool },
    Thread { class: bool },
}

impl Kind {
    fn noun(self) -> &'static str {
        match self {
            Kind::Param => "a parameter",
            Kind::Coeff => "a coefficient",
            Kind::Barrier => "a barrier",
            Kind::Lock { .. } => "a lock",
            Kind::Channel { .. } => "a channel",
            Kind::Thread { class: false } => "a thread",
            Kind::Thread { class: true } => "a class thread",
        }
    }
}

struct Checker<'a> {
    m: &'a Model,
    globals: HashMap<&'a str, (Kind, Range<usize>)>,
}

/// The degree of `e` in the coefficients (0: free of them, 1: linear), or what makes it
/// not linear.
fn coeff_degree(
    e: &Expr,
    is_coeff: &dyn Fn(&Name) -> bool,
) -> std::result::Result<u8, &'static str> {
    let has = |x: &Expr| x.free_vars().iter().any(is_coeff);
    match e {
        Expr::Num(_) => Ok(0),
        Expr::Var(v) => Ok(u8::from(is_coeff(v))),
        Expr::Add(xs) => xs
            .iter()
            .try_fold(0, |d, x| Ok(d.max(coeff_degree(x, is_coeff)?))),
        Expr::Mul(xs) => {
            let mut d = 0;
            for x in xs {
                d += coeff_degree(x, is_coeff)?;
                if d > 1 {
                    return Err("it multiplies coefficients together");
                }
            }
            Ok(d)
        }
        Expr::Pow(b, k) => match (coeff_degree(b, is_coeff)?, *k) {
            (0, _) => Ok(0),
            (_, 1) => Ok(1),
            (_, k) if k < 0 => Err("it divides by a coefficient"),
            _ => Err("it raises a coefficient to a power"),
        },
        Expr::Fold(f) if f.op == FoldOp::Sum && !has(&f.lo) && !has(&f.hi) => {
            coeff_degree(&f.body, is_coeff)
        }
        Expr::If(c, a, b) if !c.free_vars().iter().any(is_coeff) => {
            Ok(coeff_degree(a, is_coeff)?.max(coeff_degree(b, is_coeff)?))
        }
        other if has(other) => Err("a coefficient is inside a function or a condition"),
        _ => Ok(0),
    }
}

pub(crate) fn check(m: &Model) -> Result<()> {
    let mut c = Checker {
        m,
        globals: HashMap::new(),
    };
    for (i, p) in m.params.iter().enumerate() {
        // A derived parameter's definition and a parameter's bounds use the parameters
        // before it.
        let before: Vec<&str> = m.params[..i].iter().map(|q| q.name.name.as_str()).collect();
        for e in [&p.value, &p.min, &p.max].into_iter().flatten() {
            c.vars(
                e,
                &before,
                "a parameter's definition and bounds may use the parameters before it",
            )?;
        }
        c.declare(&p.name, Kind::Param)?;
    }
    for k in &m.coeffs {
        c.declare(k, Kind::Coeff)?;
    }
    let params: Vec<&str> = m.params.iter().map(|p| p.name.name.as_str()).collect();
    if let Some(mem) = &m.memory {
        c.vars(mem, &params, "the working set uses parameters")?;
    }
    for b in &m.barriers {
        c.declare(&b.name, Kind::Barrier)?;
        c.vars(
            &b.participants,
            &params,
            "a barrier's participants use parameters",
        )?;
    }
    for l in &m.locks {
        c.declare(
            &l.name,
            Kind::Lock {
                array: l.size.is_some(),
            },
        )?;
        if let Some(s) = &l.size {
            c.vars(s, &params, "an array's length uses parameters")?;
        }
    }
    for ch in &m.channels {
        c.declare(
            &ch.name,
            Kind::Channel {
                array: ch.size.is_some(),
            },
        )?;
        if let Some(s) = &ch.size {
            c.vars(s, &params, "an array's length uses parameters")?;
        }
    }
    for t in &m.threads {
        c.declare(
            &t.name,
            Kind::Thread {
                class: t.class.is_some(),
            },
        )?;
    }
    for t in &m.threads {
        let mut scope: Vec<&str> = params.clone();
        if let Some((var, count)) = &t.class {
            c.vars(count, &params, "a class's instance count uses parameters")?;
            c.fresh(var, &scope)?;
            scope.push(&var.name);
        }
        c.block(&t.body, &mut scope)?;
    }
    if m.threads.is_empty() {
        let end = m.text.trim_end().len();
        return Err(c
            .error(
                ErrorKind::Syntax,
                end..end,
                "the model has no threads, so nothing runs".to_string(),
                "the model ends here",
            )
            .help("declare a thread: `thread main { compute work = c * N; }`"));
    }
    Ok(())
}

impl<'a> Checker<'a> {
    fn error(
        &self,
        kind: ErrorKind,
        span: Range<usize>,
        message: String,
        label: &str,
    ) -> Box<ModelError> {
        ModelError::new(kind, message).at(&self.m.name, &self.m.text, span, label)
    }

    fn declare(&mut self, id: &'a Ident, kind: Kind) -> Result<()> {
        if let Some((k, first)) = self.globals.get(id.name.as_str()) {
            let (line, _) = diag::line_col(&self.m.text, first.start);
            return Err(self
                .error(
                    ErrorKind::DuplicateName,
                    id.span.clone(),
                    format!("`{}` is declared twice (first as {} on line {line})", id.name, k.noun()),
                    "declared again",
                )
                .help("give each parameter, coefficient, barrier, lock, channel and thread its own name"));
        }
        self.globals.insert(&id.name, (kind, id.span.clone()));
        Ok(())
    }

    /// A loop or instance variable must not hide another name.
    fn fresh(&self, var: &Ident, scope: &[&str]) -> Result<()> {
        if scope.contains(&var.name.as_str()) || self.globals.contains_key(var.name.as_str()) {
            return Err(self
                .error(
                    ErrorKind::DuplicateName,
                    var.span.clone(),
                    format!("the variable `{}` hides another name", var.name),
                    "already a name",
                )
                .help("rename the variable"));
        }
        Ok(())
    }

    /// Every variable of `e` is in `allowed` (coefficients too when `coeffs`).
    fn vars_with(&self, e: &Spanned, allowed: &[&str], coeffs: bool, rule: &str) -> Result<()> {
        for v in e.expr.free_vars() {
            let name: &str = &v;
            if allowed.contains(&name) {
                continue;
            }
            let at = e.span.clone();
            let kind = self.globals.get(name).map(|g| g.0);
            if kind == Some(Kind::Coeff) && coeffs {
                continue;
            }
            return Err(match kind {
                Some(k) => self
                    .error(
                        ErrorKind::Misuse,
                        at,
                        format!("`{name}` is {} and cannot be used here", k.noun()),
                        "in this expression",
                    )
                    .help(rule.to_string()),
                None => {
                    let known = allowed.iter().copied().chain(
                        self.m
                            .coeffs
                            .iter()
                            .map(|c| c.name.as_str())
                            .filter(|_| coeffs),
                    );
                    let hint = diag::did_you_mean(&diag::suggest(name, known))
                        .unwrap_or_else(|| format!("declare it with `param {name};`"));
                    self.error(
                        ErrorKind::UndefinedName,
                        at,
                        format!("`{name}` is not declared"),
                        "in this expression",
                    )
                    .help(hint)
                }
            });
        }
        Ok(())
    }

    /// A segment's time is linear in the coefficients: a sum of terms, each a coefficient
    /// times a function of the parameters, as the samples' fit needs.
    fn linear(&self, segment: &str, cost: &Spanned) -> Result<()> {
        let is_coeff = |v: &Name| self.globals.get(&**v).map(|g| g.0) == Some(Kind::Coeff);
        match coeff_degree(&cost.expr, &is_coeff) {
            Ok(_) => Ok(()),
            Err(why) => Err(self
                .error(
                    ErrorKind::Misuse,
                    cost.span.clone(),
                    format!("the time of segment `{segment}` is not linear in the coefficients: {why}"),
                    "in this expression",
                )
                .help("write the time as a sum of terms, each a coefficient times a function of the parameters (c_a * N^2 + c_b * N)")),
        }
    }

    fn vars(&self, e: &Spanned, allowed: &[&str], rule: &str) -> Result<()> {
        self.vars_with(e, allowed, false, rule)
    }

    fn reference(
        &self,
        r: &Ref,
        want: fn(Kind) -> bool,
        noun: &str,
        scope: &[&str],
    ) -> Result<Kind> {
        let name = r.name.name.as_str();
        let Some(&(kind, _)) = self.globals.get(name) else {
            let known = self
                .globals
                .iter()
                .filter(|(_, (k, _))| want(*k))
                .map(|(n, _)| *n);
            let hint = diag::did_you_mean(&diag::suggest(name, known))
                .unwrap_or_else(|| format!("declare {noun} `{name}`"));
            return Err(self
                .error(
                    ErrorKind::UndefinedName,
                    r.name.span.clone(),
                    format!("`{name}` is not declared"),
                    "unknown",
                )
                .help(hint));
        };
        if !want(kind) {
            return Err(self.error(
                ErrorKind::Misuse,
                r.name.span.clone(),
                format!("`{name}` is {}, not {noun}", kind.noun()),
                "here",
            ));
        }
        let indexable = matches!(
            kind,
            Kind::Lock { array: true }
                | Kind::Channel { array: true }
                | Kind::Thread { class: true }
        );
        match &r.index {
            Some(i) if !indexable => {
                return Err(self.error(
                    ErrorKind::Misuse,
                    i.span.clone(),
                    format!("`{name}` is not an array or a class, so it takes no index"),
                    "an index",
                ))
            }
            Some(i) => self.vars(
                i,
                scope,
                "an index uses parameters, the instance index and loop variables",
            )?,
            None if matches!(
                kind,
                Kind::Lock { array: true } | Kind::Channel { array: true }
            ) =>
            {
                return Err(self
                    .error(
                        ErrorKind::Misuse,
                        r.name.span.clone(),
                        format!("`{name}` is an array: say which one"),
                        "needs an index",
                    )
                    .help(format!("write `{name}[…]`")))
            }
            None => {}
        }
        Ok(kind)
    }

    fn block(&self, stmts: &'a [Stmt], scope: &mut Vec<&'a str>) -> Result<()> {
        const IN_LOOP: &str =
            "loop bounds use parameters, the instance index and enclosing loop variables";
        for s in stmts {
            match s {
                Stmt::Compute { name, cost } => {
                    self.vars_with(
                        cost,
                        scope,
                        true,
                        "a segment's time uses parameters, coefficients, the instance index and loop variables",
                    )?;
                    self.linear(&name.name, cost)?;
                }
                Stmt::Loop { range, body, .. } => match range {
                    LoopRange::Count(c) => {
                        self.vars(c, scope, IN_LOOP)?;
                        self.block(body, scope)?;
                    }
                    LoopRange::Var(var, from, to) => {
                        self.vars(from, scope, IN_LOOP)?;
                        self.vars(to, scope, IN_LOOP)?;
                        self.fresh(var, scope)?;
                        scope.push(&var.name);
                        self.block(body, scope)?;
                        scope.pop();
                    }
                },
                Stmt::Barrier(r) => {
                    self.reference(r, |k| k == Kind::Barrier, "a barrier", scope)?;
                }
                Stmt::Lock(r) | Stmt::Unlock(r) => {
                    self.reference(r, |k| matches!(k, Kind::Lock { .. }), "a lock", scope)?;
                }
                Stmt::Critical(r, body) => {
                    self.reference(r, |k| matches!(k, Kind::Lock { .. }), "a lock", scope)?;
                    self.block(body, scope)?;
                }
                Stmt::Fork(r) | Stmt::Join(r) => {
                    self.reference(r, |k| matches!(k, Kind::Thread { .. }), "a thread", scope)?;
                }
                Stmt::Send(r, bytes) => {
                    self.reference(r, |k| matches!(k, Kind::Channel { .. }), "a channel", scope)?;
                    if let Some(b) = bytes {
                        self.vars(
                            b,
                            scope,
                            "a message size uses parameters, the instance index and loop variables",
                        )?;
                    }
                }
                Stmt::Recv(r) => {
                    self.reference(r, |k| matches!(k, Kind::Channel { .. }), "a channel", scope)?;
                }
                Stmt::Branch {
                    probability,
                    then,
                    otherwise,
                } => {
                    self.vars(
                        probability,
                        scope,
                        "a probability uses parameters, the instance index and loop variables",
                    )?;
                    self.block(then, scope)?;
                    self.block(otherwise, scope)?;
                }
                Stmt::Mark(_) => {}
            }
        }
        Ok(())
    }
}
