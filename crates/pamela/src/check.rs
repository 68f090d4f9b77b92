//! The checker: resolves names in a parsed model and lowers it to the [`Model`] IR, and
//! picks the root process ([`root`]).
//!
//! Checks, each reported as a [`ModelError`] pointing at the offending text:
//! - names: declarations unique (parameters, resources and processes share one namespace),
//!   every name used is declared (with a "did you mean" hint within edit distance 2), loop
//!   variables and process arguments shadow no parameter, argument or enclosing loop
//!   variable ([`ErrorKind::DuplicateName`], [`ErrorKind::UndefinedName`]);
//! - arity: process calls match the definition; family resources are used with an index and
//!   plain resources without ([`ErrorKind::Arity`]);
//! - recursion: no process calls itself, directly or not, and derived parameters do not
//!   depend on themselves ([`ErrorKind::Recursion`]);
//! - constants: where a value is known after substituting constant derived parameters, a
//!   multiplicity or family size is a positive integer ([`ErrorKind::Multiplicity`]), a
//!   parameter's lower bound is not above its upper bound ([`ErrorKind::Binding`]), and a
//!   resource index lies in the family — also for an index that is a loop variable (plus
//!   constants) over a constant range ([`ErrorKind::IndexOutOfRange`]);
//! - limits: term nesting through process calls stays within [`MAX_CALL_NESTING`].

use std::collections::{HashMap, HashSet};

use expr::{Cond, Expr, Name, Rational};
use num_traits::{One, Signed, ToPrimitive, Zero};

use crate::diag::{ErrorKind, ModelError};
use crate::model::{Loop, Model, Param, ProcId, Process, Resource, SourceFile, Term, TermKind};
use crate::syntax::ast::{self, Ex, ExKind, Func, Ident, MulOp, Span};
use crate::syntax::Fail;

/// The deepest nesting of terms the checker accepts when process calls are expanded
/// (each call adds its callee's body depth to the depth of the call site).
pub const MAX_CALL_NESTING: usize = 1024;

/// The root process: `name`, or `main` when `name` is `None`.
///
/// # Errors
/// [`ErrorKind::UndefinedName`] when there is no such process (the hint lists the
/// model's processes), [`ErrorKind::Arity`] when it takes arguments.
pub fn root(model: &Model, name: Option<&str>) -> Result<ProcId, Box<ModelError>> {
    let want = name.unwrap_or("main");
    let Some(id) = model.process(want) else {
        let names: Vec<&str> = model.processes.iter().map(|p| &*p.name).collect();
        let mut help = if names.is_empty() {
            "the model defines no processes; add one, e.g. `main = …;`".to_string()
        } else {
            format!("the model's processes are: {}", names.join(", "))
        };
        if let Some(s) = suggest(want, names.iter().copied()) {
            help = format!("did you mean `{s}`? {help}");
        } else if name.is_none() && !names.is_empty() {
            help.push_str("; pick one of them as the root, or define `main`");
        }
        return Err(Box::new(
            ModelError::new(
                if name.is_some() {
                    ErrorKind::UnknownRoot
                } else {
                    ErrorKind::UndefinedName
                },
                format!("the model has no process `{want}`"),
            )
            .with_help(help),
        ));
    };
    let p = &model.processes[id];
    if !p.args.is_empty() {
        let args: Vec<&str> = p.args.iter().map(|a| &**a).collect();
        return Err(Box::new(
            ModelError::new(
                ErrorKind::Arity,
                format!(
                    "the root process `{want}` takes {} argument(s) ({})",
                    args.len(),
                    args.join(", ")
                ),
            )
            .at(&model.source, p.span, "defined with arguments here")
            .with_help(format!(
                "a root process takes no arguments: define e.g. `process run = {want}(…);` and \
                 use `run` as the root"
            )),
        ));
    }
    Ok(id)
}

// ===== lowering ======================================================================

/// What a global name is declared as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Decl {
    Param,
    Resource,
    Process,
}

impl Decl {
    fn noun(self) -> &'static str {
        match self {
            Decl::Param => "a parameter",
            Decl::Resource => "a resource",
            Decl::Process => "a process",
        }
    }
}

/// A loop variable in scope.
#[derive(Clone, Debug)]
struct Local {
    name: Name,
    /// Over a constant non-empty range (and not tested by an enclosing `if`): its first
    /// and last value.
    range: Option<(Rational, Rational)>,
}

/// A process call found while lowering: callee, where, and the term depth of the site.
struct CallSite {
    callee: ProcId,
    span: Span,
    depth: usize,
}

struct Checker<'a> {
    file: &'a ast::File,
    source: SourceFile,
    globals: HashMap<Name, (Decl, usize, Span)>,
    /// Values of the parameters whose definitions are constant.
    consts: HashMap<Name, Rational>,
    /// Arguments of the current process.
    args: HashSet<Name>,
    /// Enclosing loop variables, outermost first, and the same names as a set.
    locals: Vec<Local>,
    loop_names: HashSet<Name>,
    /// Current term depth and the maximum seen in the current process.
    depth: usize,
    max_depth: usize,
    calls: Vec<CallSite>,
}

/// Resolves and checks a parsed file, producing the model.
pub(crate) fn lower(file: &ast::File, source: SourceFile) -> Result<Model, Box<ModelError>> {
    let mut ck = Checker {
        file,
        source,
        globals: HashMap::new(),
        consts: HashMap::new(),
        args: HashSet::new(),
        locals: Vec::new(),
        loop_names: HashSet::new(),
        depth: 0,
        max_depth: 0,
        calls: Vec::new(),
    };
    match ck.run() {
        Ok(m) => Ok(m),
        Err(f) => Err(f.into_error(&ck.source)),
    }
}

impl Checker<'_> {
    fn run(&mut self) -> Result<Model, Fail> {
        self.declare()?;
        let params = self.params()?;
        let resources = self.resources()?;
        let mut processes = Vec::with_capacity(self.file.processes.len());
        let mut sites = Vec::with_capacity(self.file.processes.len());
        let mut depths = Vec::with_capacity(self.file.processes.len());
        for p in &self.file.processes {
            let (proc_, calls, depth) = self.process(p)?;
            processes.push(proc_);
            sites.push(calls);
            depths.push(depth);
        }
        self.recursion_and_depth(&sites, &depths)?;
        Ok(Model {
            source: self.source.clone(),
            params,
            resources,
            processes,
        })
    }

    // ----- declarations --------------------------------------------------------------

    fn declare(&mut self) -> Result<(), Fail> {
        let f = self.file;
        let mut all: Vec<(&Ident, Decl, usize)> = Vec::new();
        all.extend(
            f.params
                .iter()
                .enumerate()
                .map(|(i, p)| (&p.name, Decl::Param, i)),
        );
        all.extend(
            f.resources
                .iter()
                .enumerate()
                .map(|(i, r)| (&r.name, Decl::Resource, i)),
        );
        all.extend(
            f.processes
                .iter()
                .enumerate()
                .map(|(i, p)| (&p.name, Decl::Process, i)),
        );
        all.sort_by_key(|(id, _, _)| id.span.start);
        for (id, kind, idx) in all {
            if let Some((prev, _, at)) = self.globals.get(&id.name) {
                let (line, _) = crate::syntax::parser::line_of(&self.source.text, at.start);
                return Err(Fail::at(
                    ErrorKind::DuplicateName,
                    format!("`{}` is declared twice", id.name),
                    id.span,
                    "declared again here",
                )
                .help(format!(
                    "`{}` is already {} (line {line}); parameters, resources and processes \
                     share one namespace, so rename one of them",
                    id.name,
                    prev.noun()
                )));
            }
            self.globals.insert(id.name.clone(), (kind, idx, id.span));
        }
        Ok(())
    }

    fn params(&mut self) -> Result<Vec<Param>, Fail> {
        let f = self.file;
        let mut out = Vec::with_capacity(f.params.len());
        for p in &f.params {
            let lower = p.lower.as_ref().map(|e| self.expr(e)).transpose()?;
            let upper = p.upper.as_ref().map(|e| self.expr(e)).transpose()?;
            let definition = p.definition.as_ref().map(|e| self.expr(e)).transpose()?;
            out.push(Param {
                name: p.name.name.clone(),
                integer: p.integer,
                lower,
                upper,
                definition,
                span: miette_span(p.span),
            });
        }
        // Derived parameters: no cycles; compute the constant ones in dependency order.
        let order = derived_order(&out).map_err(|cycle| {
            let first = &f.params[cycle[0]];
            let names: Vec<&str> = cycle.iter().map(|&i| &*out[i].name).collect();
            let def = first.definition.as_ref().map_or(first.span, |d| d.span);
            Fail::at(
                ErrorKind::Recursion,
                format!(
                    "derived parameters depend on themselves: {}",
                    names.join(" -> ")
                ),
                def,
                "this definition is part of the cycle",
            )
            .help(
                "a derived parameter must be computable from bound parameters; declare one \
                 of them without `= …` so it can be bound",
            )
        })?;
        for i in order {
            let Some(def) = &out[i].definition else {
                continue;
            };
            let consts = &self.consts;
            match eval_exact(def, &|n| consts.get(n).cloned()) {
                Ok(Some(v)) => {
                    self.consts.insert(out[i].name.clone(), v);
                }
                Ok(None) => {}
                Err(e) => {
                    let d = f.params[i]
                        .definition
                        .as_ref()
                        .map_or(f.params[i].span, |d| d.span);
                    return Err(Fail::at(
                        ErrorKind::Evaluation,
                        format!("cannot compute `{}`: {}", out[i].name, e.describe()),
                        d,
                        "here",
                    )
                    .help("fix the definition"));
                }
            }
        }
        // Bounds that are both constant must not contradict each other.
        for (p, decl) in out.iter().zip(&f.params) {
            let (Some(lo), Some(hi)) = (&p.lower, &p.upper) else {
                continue;
            };
            if let (Some(l), Some(h)) = (self.const_value(lo), self.const_value(hi)) {
                if l > h {
                    return Err(Fail::at(
                        ErrorKind::Binding,
                        format!(
                            "the range of `{}` is empty: lower bound {l} is above upper bound {h}",
                            p.name
                        ),
                        decl.span,
                        "empty range",
                    )
                    .help("swap the bounds or correct one of them"));
                }
            }
        }
        Ok(out)
    }

    /// The value of `e` if it is constant once constant parameters are substituted.
    fn const_value(&self, e: &Expr) -> Option<Rational> {
        eval_exact(e, &|n| self.consts.get(n).cloned())
            .ok()
            .flatten()
    }

    fn resources(&mut self) -> Result<Vec<Resource>, Fail> {
        let f = self.file;
        let mut out = Vec::with_capacity(f.resources.len());
        for r in &f.resources {
            let family = match &r.family {
                Some(e) => {
                    let x = self.expr(e)?;
                    self.positive_integer(&x, e.span, &r.name.name, "family size")?;
                    Some(x)
                }
                None => None,
            };
            let multiplicity = match &r.multiplicity {
                None => Some(Expr::int(1)),
                Some(ast::Mult::Inf) => None,
                Some(ast::Mult::Count(e)) => {
                    let x = self.expr(e)?;
                    self.positive_integer(&x, e.span, &r.name.name, "multiplicity")?;
                    Some(x)
                }
            };
            out.push(Resource {
                name: r.name.name.clone(),
                multiplicity,
                family,
                span: miette_span(r.span),
            });
        }
        Ok(out)
    }

    fn positive_integer(&self, x: &Expr, span: Span, name: &str, what: &str) -> Result<(), Fail> {
        if let Some(v) = self.const_value(x) {
            if !v.is_integer() || !v.is_positive() {
                let help = if what == "multiplicity" {
                    "a multiplicity is the number of servers: a positive integer, or `inf` for \
                     an infinite server"
                } else {
                    "a family `r[n]` has members r[0] .. r[n-1], so n must be a positive integer"
                };
                return Err(Fail::at(
                    ErrorKind::Multiplicity,
                    format!("the {what} of `{name}` is {v}, not a positive integer"),
                    span,
                    format!("{what} {v}"),
                )
                .help(help));
            }
        }
        Ok(())
    }

    // ----- processes -----------------------------------------------------------------

    fn process(&mut self, p: &ast::ProcessDecl) -> Result<(Process, Vec<CallSite>, usize), Fail> {
        self.locals.clear();
        self.loop_names.clear();
        self.args.clear();
        for a in &p.args {
            self.check_binder(a, "process argument")?;
            self.args.insert(a.name.clone());
        }
        self.depth = 0;
        self.max_depth = 0;
        self.calls.clear();
        let body = self.term(&p.body)?;
        self.args.clear();
        let calls = std::mem::take(&mut self.calls);
        Ok((
            Process {
                name: p.name.name.clone(),
                args: p.args.iter().map(|a| a.name.clone()).collect(),
                body,
                span: miette_span(p.name.span),
            },
            calls,
            self.max_depth,
        ))
    }

    /// A new loop variable or argument must not shadow a parameter, argument or enclosing
    /// loop variable.
    fn check_binder(&self, id: &Ident, what: &str) -> Result<(), Fail> {
        let clash = if self.args.contains(&id.name) {
            Some("a process argument")
        } else if self.loop_names.contains(&id.name) {
            Some("an enclosing loop variable")
        } else {
            match self.globals.get(&id.name) {
                Some((Decl::Param, _, _)) => Some("a parameter"),
                _ => None,
            }
        };
        if let Some(c) = clash {
            let fresh = self.fresh(&id.name);
            return Err(Fail::at(
                ErrorKind::DuplicateName,
                format!("the {what} `{}` shadows {c} of the same name", id.name),
                id.span,
                format!("`{}` is already {c}", id.name),
            )
            .help(format!("rename the {what}, e.g. to `{fresh}`")));
        }
        Ok(())
    }

    /// A name like `base` that is not in use.
    fn fresh(&self, base: &str) -> String {
        let base = if base.len() == 1 {
            base.to_ascii_lowercase()
        } else {
            base.to_string()
        };
        (2..)
            .map(|k| format!("{base}{k}"))
            .find(|n| !self.globals.contains_key(n.as_str()) && !self.is_local(n))
            .unwrap_or(base)
    }

    fn term(&mut self, t: &ast::Term) -> Result<Term, Fail> {
        let kind = match &t.kind {
            ast::TermKind::Skip => TermKind::Skip,
            ast::TermKind::Delay(e) => TermKind::Delay(self.expr(e)?),
            ast::TermKind::Use { res, index, time } => self.use_term(res, index.as_ref(), time)?,
            ast::TermKind::Compose(k, items) => {
                self.deeper();
                let mut out = Vec::with_capacity(items.len());
                for i in items {
                    out.push(self.term(i)?);
                }
                self.depth -= 1;
                TermKind::Compose(*k, out)
            }
            ast::TermKind::Loop {
                kind,
                var,
                lo,
                hi,
                body,
            } => {
                let lo_e = self.expr(lo)?;
                let hi_e = self.expr(hi)?;
                self.check_binder(var, "loop variable")?;
                let range = match (self.const_value(&lo_e), self.const_value(&hi_e)) {
                    (Some(a), Some(b)) => {
                        let (a, b) = (a.ceil(), b.floor());
                        (a <= b).then_some((a, b))
                    }
                    _ => None,
                };
                self.locals.push(Local {
                    name: var.name.clone(),
                    range,
                });
                self.loop_names.insert(var.name.clone());
                self.deeper();
                let body = self.term(body);
                self.depth -= 1;
                self.locals.pop();
                self.loop_names.remove(&var.name);
                TermKind::Loop(Loop {
                    kind: *kind,
                    var: var.name.clone(),
                    lo: lo_e,
                    hi: hi_e,
                    body: Box::new(body?),
                })
            }
            ast::TermKind::If { cond, then, els } => {
                let c = self.cond(cond)?;
                // Loop variables the condition tests may be restricted in the branches:
                // their full range no longer proves an index out of range.
                let saved: Vec<_> = self.locals.iter().map(|l| l.range.clone()).collect();
                let tested = c.free_vars();
                for l in &mut self.locals {
                    if tested.contains(&l.name) {
                        l.range = None;
                    }
                }
                self.deeper();
                let then = self.term(then);
                let els = match (&then, els) {
                    (Ok(_), Some(e)) => Some(self.term(e).map(Box::new)),
                    _ => None,
                };
                self.depth -= 1;
                for (l, r) in self.locals.iter_mut().zip(saved) {
                    l.range = r;
                }
                TermKind::If {
                    cond: c,
                    then: Box::new(then?),
                    els: els.transpose()?,
                }
            }
            ast::TermKind::Call { name, args } => self.call(name, args)?,
        };
        Ok(Term {
            kind,
            span: miette_span(t.span),
        })
    }

    /// Whether `n` is a process argument or loop variable in scope.
    fn is_local(&self, n: &str) -> bool {
        self.args.contains(n) || self.loop_names.contains(n)
    }

    fn deeper(&mut self) {
        self.depth += 1;
        self.max_depth = self.max_depth.max(self.depth);
    }

    fn use_term(&mut self, res: &Ident, index: Option<&Ex>, time: &Ex) -> Result<TermKind, Fail> {
        let id = match self.globals.get(&res.name) {
            Some((Decl::Resource, i, _)) => *i,
            Some((d, _, _)) => {
                return Err(Fail::at(
                    ErrorKind::UndefinedName,
                    format!("`{}` is {}, not a resource", res.name, d.noun()),
                    res.span,
                    "not a resource",
                )
                .help(self.resource_help(&res.name)))
            }
            None => {
                let mut help = self.resource_help(&res.name);
                if let Some((fam, idx)) = self.paper_index(&res.name) {
                    help = format!("indexed resources are written with brackets: `{fam}[{idx}]`");
                } else if let Some(s) = suggest(&res.name, self.names_of(Decl::Resource)) {
                    help = format!("did you mean `{s}`? {help}");
                }
                return Err(Fail::at(
                    ErrorKind::UndefinedName,
                    format!("undefined resource `{}`", res.name),
                    res.span,
                    "not declared",
                )
                .help(help));
            }
        };
        let decl = &self.file.resources[id];
        let index = match (&decl.family, index) {
            (Some(_), None) => {
                return Err(Fail::at(
                    ErrorKind::Arity,
                    format!("`{}` is a resource family and needs an index", res.name),
                    res.span,
                    "missing index",
                )
                .help(format!(
                    "use one member, e.g. `use({}[i], …)`; members are numbered from 0",
                    res.name
                )))
            }
            (None, Some(ix)) => {
                return Err(Fail::at(
                    ErrorKind::Arity,
                    format!("`{}` is a single resource and takes no index", res.name),
                    ix.span,
                    "unexpected index",
                )
                .help(format!(
                    "drop the index, or declare a family: `resource {}[n];`",
                    res.name
                )))
            }
            (None, None) => None,
            (Some(fam), Some(ix)) => {
                let e = self.expr(ix)?;
                let size = self.expr(fam)?;
                self.check_index(&res.name, &e, ix, &size)?;
                Some(e)
            }
        };
        Ok(TermKind::Use {
            res: id,
            index,
            time: self.expr(time)?,
        })
    }

    /// `cpu_p` for a family `cpu` and a name `p` in scope: the paper's subscript notation.
    fn paper_index(&self, name: &str) -> Option<(String, String)> {
        let (fam, idx) = name.rsplit_once('_')?;
        let is_family = matches!(self.globals.get(fam), Some((Decl::Resource, i, _))
            if self.file.resources[*i].family.is_some());
        (is_family && !idx.is_empty()).then(|| (fam.to_string(), idx.to_string()))
    }

    fn resource_help(&self, name: &str) -> String {
        let names: Vec<&str> = self.names_of(Decl::Resource).collect();
        if names.is_empty() {
            format!("declare it: `resource {name};`")
        } else {
            format!(
                "declare it with `resource {name};`; the model's resources are: {}",
                names.join(", ")
            )
        }
    }

    fn names_of(&self, kind: Decl) -> impl Iterator<Item = &str> + '_ {
        let f = self.file;
        let (a, b, c): (Vec<&Ident>, Vec<&Ident>, Vec<&Ident>) = (
            f.params.iter().map(|p| &p.name).collect(),
            f.resources.iter().map(|r| &r.name).collect(),
            f.processes.iter().map(|p| &p.name).collect(),
        );
        let v = match kind {
            Decl::Param => a,
            Decl::Resource => b,
            Decl::Process => c,
        };
        v.into_iter().map(|i| &*i.name)
    }

    /// Reports an index that certainly leaves the family `0 .. size-1`.
    fn check_index(&self, res: &str, e: &Expr, ix: &Ex, size: &Expr) -> Result<(), Fail> {
        let Some(n) = self.const_value(size) else {
            return Ok(());
        };
        let loops: HashMap<&str, (Rational, Rational)> = self
            .locals
            .iter()
            .filter_map(|l| l.range.clone().map(|r| (&*l.name, r)))
            .collect();
        let Some(iv) = interval(e, &self.consts, &loops) else {
            return Ok(());
        };
        let text = self
            .source
            .text
            .get(ix.span.start..ix.span.end)
            .unwrap_or("…");
        let last = &n - Rational::one();
        if iv.vars.is_empty() && !iv.lo.is_integer() {
            return Err(Fail::at(
                ErrorKind::IndexOutOfRange,
                format!("the index of `{res}` is {}, not an integer", iv.lo),
                ix.span,
                "non-integer index",
            )
            .help(format!(
                "members of `{res}` are numbered 0 .. {last}; round with `floor(…)` or `ceil(…)`"
            )));
        }
        if !iv.exact || (iv.lo >= Rational::zero() && iv.hi <= last) {
            return Ok(());
        }
        let members = format!("{res}[0] .. {res}[{last}]");
        let (message, label) = if iv.vars.is_empty() {
            (
                format!(
                    "index {} is out of range for `{res}`, whose members are {members}",
                    iv.lo
                ),
                format!("index {}", iv.lo),
            )
        } else {
            let vars: Vec<String> = iv
                .vars
                .iter()
                .map(|v| {
                    let (a, b) = &loops[&**v];
                    format!("{v} in {a}..={b}")
                })
                .collect();
            (
                format!(
                    "index `{text}` of `{res}` takes values {}..={} (for {}), outside its \
                     members {members}",
                    iv.lo,
                    iv.hi,
                    vars.join(", ")
                ),
                format!("ranges over {}..={}", iv.lo, iv.hi),
            )
        };
        let span = &iv.hi - &iv.lo;
        let literal = expr::number::parse_rational(text).is_ok();
        let help = if !literal && iv.lo >= Rational::one() && &iv.hi - Rational::one() <= last {
            format!("families are numbered from 0: write `{res}[{text} - 1]`")
        } else if span <= last && !iv.vars.is_empty() {
            format!(
                "families are numbered from 0 (`{res}` has {n} members); shift the loop range \
                 or the index"
            )
        } else {
            format!(
                "`{res}` has {n} members, numbered 0 .. {last}; declare it larger or fix the index"
            )
        };
        Err(Fail::at(ErrorKind::IndexOutOfRange, message, ix.span, label).help(help))
    }

    fn call(&mut self, name: &Ident, args: &[Ex]) -> Result<TermKind, Fail> {
        let id = match self.globals.get(&name.name) {
            Some((Decl::Process, i, _)) => *i,
            Some((Decl::Resource, _, _)) => {
                return Err(Fail::at(
                    ErrorKind::UndefinedName,
                    format!("`{}` is a resource, not a process", name.name),
                    name.span,
                    "not a process",
                )
                .help(format!(
                    "to hold the resource for a time, write `use({}, t)`",
                    name.name
                )))
            }
            Some((Decl::Param, _, _)) => {
                return Err(Fail::at(
                    ErrorKind::UndefinedName,
                    format!("`{}` is a parameter, not a process", name.name),
                    name.span,
                    "not a process",
                )
                .help(format!(
                    "to wait for a time, write `delay({})`; processes are defined with \
                     `process NAME = …;`",
                    name.name
                )))
            }
            None => {
                let local = self.is_local(&name.name);
                let mut help = if local {
                    format!("`{}` is a variable, not a process", name.name)
                } else {
                    format!("define it: `process {} = …;`", name.name)
                };
                if let Some(s) = suggest(&name.name, self.names_of(Decl::Process)) {
                    help = format!("did you mean `{s}`? {help}");
                }
                return Err(Fail::at(
                    ErrorKind::UndefinedName,
                    format!("undefined process `{}`", name.name),
                    name.span,
                    "not defined",
                )
                .help(help));
            }
        };
        let decl = &self.file.processes[id];
        if decl.args.len() != args.len() {
            let formals: Vec<&str> = decl.args.iter().map(|a| &*a.name).collect();
            let sig = if formals.is_empty() {
                decl.name.name.to_string()
            } else {
                format!("{}({})", decl.name.name, formals.join(", "))
            };
            let (line, _) = crate::syntax::parser::line_of(&self.source.text, decl.name.span.start);
            return Err(Fail::at(
                ErrorKind::Arity,
                format!(
                    "`{}` takes {} argument{} but {} {} given",
                    name.name,
                    formals.len(),
                    if formals.len() == 1 { "" } else { "s" },
                    args.len(),
                    if args.len() == 1 { "was" } else { "were" }
                ),
                name.span.to(name.span),
                format!("expects {}", formals.len()),
            )
            .help(format!("it is defined as `{sig}` at line {line}")));
        }
        let mut out = Vec::with_capacity(args.len());
        for a in args {
            out.push(self.expr(a)?);
        }
        self.calls.push(CallSite {
            callee: id,
            span: name.span,
            depth: self.depth,
        });
        Ok(TermKind::Call {
            proc: id,
            args: out,
        })
    }

    // ----- expressions ---------------------------------------------------------------

    fn expr(&self, e: &Ex) -> Result<Expr, Fail> {
        Ok(match &e.kind {
            ExKind::Num(v) => Expr::Num(v.clone()),
            ExKind::Name(n) => self.name(n, e.span)?,
            ExKind::Inf => {
                return Err(Fail::at(
                    ErrorKind::Syntax,
                    "`inf` is only allowed as a resource multiplicity",
                    e.span,
                    "not a value",
                )
                .help("write `resource r: inf;` for an infinite server, or `delay(t)`"))
            }
            ExKind::Neg(x) => negate(self.expr(x)?),
            ExKind::Sum(items) => {
                let mut out = Vec::with_capacity(items.len());
                for (neg, x) in items {
                    let v = self.expr(x)?;
                    out.push(if *neg { negate(v) } else { v });
                }
                Expr::Add(out)
            }
            ExKind::Product(items) => {
                let mut acc: Vec<Expr> = Vec::new();
                for (op, x) in items {
                    let v = self.expr(x)?;
                    match op {
                        MulOp::Mul => acc.push(v),
                        MulOp::Div => acc.push(Expr::Pow(Box::new(v), -1)),
                        MulOp::Mod => acc = vec![Expr::Mod(Box::new(product(acc)), Box::new(v))],
                        MulOp::IntDiv => {
                            acc = vec![Expr::Floor(Box::new(Expr::div(product(acc), v)))]
                        }
                    }
                }
                product(acc)
            }
            ExKind::Func(f, args) => self.func(*f, args, e.span)?,
            ExKind::Call(name) => return Err(self.unknown_function(name, false)),
            ExKind::Cmp(..) | ExKind::And(_) | ExKind::Or(_) | ExKind::Not(_) => {
                return Err(Fail::at(
                    ErrorKind::Syntax,
                    "expected a number, found a condition",
                    e.span,
                    "this is a condition",
                )
                .help(
                    "conditions only appear after `if`; use `min`/`max` to choose between values",
                ))
            }
        })
    }

    fn func(&self, f: Func, args: &[Ex], span: Span) -> Result<Expr, Fail> {
        let arity_ok = match f {
            Func::Min | Func::Max => !args.is_empty(),
            Func::Gcd => args.len() == 2,
            _ => args.len() == 1,
        };
        if !arity_ok {
            let want = match f {
                Func::Min | Func::Max => "at least 1 argument",
                Func::Gcd => "2 arguments",
                _ => "1 argument",
            };
            return Err(Fail::at(
                ErrorKind::Arity,
                format!("`{}` takes {want}, but {} were given", f.text(), args.len()),
                span,
                format!("takes {want}"),
            )
            .help(match f {
                Func::Gcd => "write `gcd(a, b)`",
                Func::Min | Func::Max => "write e.g. `max(a, b, c)`",
                _ => "pass exactly one argument",
            }));
        }
        if f == Func::Prob {
            return Err(Fail::at(
                ErrorKind::Syntax,
                "expected a number, found the condition `prob(…)`",
                span,
                "this is a condition",
            )
            .help("`prob(p)` is a stochastic condition: write `if prob(p) A else B`"));
        }
        let mut v = Vec::with_capacity(args.len());
        for a in args {
            v.push(self.expr(a)?);
        }
        let one = |mut v: Vec<Expr>| Box::new(v.pop().expect("arity checked"));
        Ok(match f {
            Func::Min => Expr::Min(v),
            Func::Max => Expr::Max(v),
            Func::Floor => Expr::Floor(one(v)),
            Func::Ceil => Expr::Ceil(one(v)),
            Func::Log => Expr::Log(one(v)),
            Func::Gcd => {
                let b = v.pop().expect("two");
                let a = v.pop().expect("two");
                Expr::Gcd(Box::new(a), Box::new(b))
            }
            Func::Prob => unreachable!("handled above"),
        })
    }

    fn unknown_function(&self, name: &Ident, in_cond: bool) -> Fail {
        const FUNCS: [&str; 7] = ["min", "max", "floor", "ceil", "gcd", "log", "prob"];
        let what = match self.globals.get(&name.name) {
            Some((Decl::Process, _, _)) => {
                return Fail::at(
                    ErrorKind::UndefinedName,
                    format!("`{}` is a process, not a function", name.name),
                    name.span,
                    "process used as a value",
                )
                .help("processes are terms: call them where a term is expected, e.g. `seq i in 1..=N f(i)`")
            }
            _ => {
                if in_cond {
                    "condition"
                } else {
                    "function"
                }
            }
        };
        let mut help = format!(
            "the functions are {}; a data-dependent condition such as `{}(i)` can be modelled \
             as a stochastic one, `prob(p)`, which holds with probability p",
            FUNCS.join(", "),
            name.name
        );
        if let Some(s) = suggest(&name.name, FUNCS.iter().copied()) {
            help = format!("did you mean `{s}`? {help}");
        }
        Fail::at(
            ErrorKind::UndefinedName,
            format!("unknown {what} `{}`", name.name),
            name.span,
            format!("unknown {what}"),
        )
        .help(help)
    }

    fn name(&self, n: &Name, span: Span) -> Result<Expr, Fail> {
        if self.is_local(n) {
            return Ok(Expr::Var(n.clone()));
        }
        match self.globals.get(n) {
            Some((Decl::Param, _, _)) => Ok(Expr::Var(n.clone())),
            Some((d, _, _)) => Err(Fail::at(
                ErrorKind::UndefinedName,
                format!("`{n}` is {}, not a value", d.noun()),
                span,
                "not a value",
            )
            .help(if *d == Decl::Resource {
                format!(
                    "a resource is held with `use({n}, t)`; values are parameters, loop \
                     variables and process arguments"
                )
            } else {
                "values are parameters, loop variables and process arguments".to_string()
            })),
            None => {
                let locals = self.locals.iter().map(|l| &*l.name);
                let args = self.args.iter().map(|a| &**a);
                let cands = locals.chain(args).chain(self.names_of(Decl::Param));
                let mut help = if self.locals.is_empty() && self.args.is_empty() {
                    format!("declare it: `param {n};`")
                } else {
                    format!(
                        "declare it with `param {n};`, or make it a loop variable or process \
                         argument"
                    )
                };
                if let Some(s) = suggest(n, cands) {
                    help = format!("did you mean `{s}`? {help}");
                }
                Err(Fail::at(
                    ErrorKind::UndefinedName,
                    format!("undefined name `{n}`"),
                    span,
                    "not declared",
                )
                .help(help))
            }
        }
    }

    fn cond(&self, e: &Ex) -> Result<Cond, Fail> {
        Ok(match &e.kind {
            ExKind::Cmp(op, a, b) => Cond::Cmp(*op, self.expr(a)?, self.expr(b)?),
            ExKind::And(items) => Cond::And(
                items
                    .iter()
                    .map(|c| self.cond(c))
                    .collect::<Result<_, _>>()?,
            ),
            ExKind::Or(items) => Cond::Or(
                items
                    .iter()
                    .map(|c| self.cond(c))
                    .collect::<Result<_, _>>()?,
            ),
            ExKind::Not(c) => Cond::Not(Box::new(self.cond(c)?)),
            ExKind::Func(Func::Prob, args) => {
                if args.len() != 1 {
                    return Err(Fail::at(
                        ErrorKind::Arity,
                        format!("`prob` takes 1 argument, but {} were given", args.len()),
                        e.span,
                        "takes 1 argument",
                    )
                    .help("write `prob(p)` with p in [0, 1]"));
                }
                Cond::Prob(self.expr(&args[0])?)
            }
            ExKind::Call(name) => return Err(self.unknown_function(name, true)),
            _ => {
                return Err(Fail::at(
                    ErrorKind::Syntax,
                    "expected a condition, found a number expression",
                    e.span,
                    "not a condition",
                )
                .help("compare it, e.g. `x != 0`, or use a stochastic condition `prob(p)`"))
            }
        })
    }

    // ----- whole-model checks --------------------------------------------------------

    fn recursion_and_depth(&self, sites: &[Vec<CallSite>], depths: &[usize]) -> Result<(), Fail> {
        let n = sites.len();
        let mut color = vec![0u8; n];
        let mut post = Vec::with_capacity(n);
        let main = self
            .file
            .processes
            .iter()
            .position(|p| &*p.name.name == "main");
        let roots = main.into_iter().chain(0..n);
        for r in roots {
            if color[r] != 0 {
                continue;
            }
            // Iterative DFS: (process, next call-site index).
            let mut stack: Vec<(usize, usize)> = vec![(r, 0)];
            color[r] = 1;
            while let Some(&mut (p, ref mut next)) = stack.last_mut() {
                if let Some(site) = sites[p].get(*next) {
                    *next += 1;
                    let q = site.callee;
                    match color[q] {
                        0 => {
                            color[q] = 1;
                            stack.push((q, 0));
                        }
                        1 => {
                            let mut path: Vec<&str> = stack
                                .iter()
                                .map(|(s, _)| &*self.file.processes[*s].name.name)
                                .collect();
                            path.push(&self.file.processes[q].name.name);
                            return Err(Fail::at(
                                ErrorKind::Recursion,
                                format!(
                                    "process `{}` is recursive: {}",
                                    self.file.processes[q].name.name,
                                    path.join(" -> ")
                                ),
                                site.span,
                                "this call closes the cycle",
                            )
                            .help(
                                "processes are expanded by substitution, so a recursive \
                                 definition never ends; express repetition with `seq`/`par` \
                                 over a range",
                            ));
                        }
                        _ => {}
                    }
                } else {
                    color[p] = 2;
                    post.push(p);
                    stack.pop();
                }
            }
        }
        // Effective nesting with calls expanded, callees first.
        let mut eff = vec![0usize; n];
        for &p in &post {
            let mut d = depths[p];
            for s in &sites[p] {
                d = d.max(s.depth.saturating_add(eff[s.callee]).saturating_add(1));
            }
            eff[p] = d;
            if d > MAX_CALL_NESTING {
                let decl = &self.file.processes[p];
                return Err(Fail::at(
                    ErrorKind::Limit,
                    format!(
                        "process `{}` nests {d} levels deep once its calls are expanded (limit \
                         {MAX_CALL_NESTING})",
                        decl.name.name
                    ),
                    decl.name.span,
                    "too deep",
                )
                .help("flatten the chain of process calls"));
            }
        }
        Ok(())
    }
}

/// The order in which derived parameters can be computed (dependencies first; every
/// parameter appears once), or a cycle among derived parameters (indices, the first
/// repeated at the end).
fn derived_order(params: &[Param]) -> Result<Vec<usize>, Vec<usize>> {
    let index: HashMap<&str, usize> = params
        .iter()
        .enumerate()
        .map(|(i, p)| (&*p.name, i))
        .collect();
    let deps: Vec<Vec<usize>> = params
        .iter()
        .map(|p| {
            p.definition.as_ref().map_or_else(Vec::new, |d| {
                d.free_vars()
                    .iter()
                    .filter_map(|v| index.get(&**v).copied())
                    .collect()
            })
        })
        .collect();
    let n = params.len();
    let mut color = vec![0u8; n];
    let mut order = Vec::with_capacity(n);
    for r in 0..n {
        if color[r] != 0 {
            continue;
        }
        let mut stack = vec![(r, 0usize)];
        color[r] = 1;
        while let Some(&mut (p, ref mut next)) = stack.last_mut() {
            if let Some(&q) = deps[p].get(*next) {
                *next += 1;
                match color[q] {
                    0 => {
                        color[q] = 1;
                        stack.push((q, 0));
                    }
                    1 => {
                        let from = stack.iter().position(|(s, _)| *s == q).unwrap_or(0);
                        let mut cycle: Vec<usize> = stack[from..].iter().map(|(s, _)| *s).collect();
                        cycle.push(q);
                        return Err(cycle);
                    }
                    _ => {}
                }
            } else {
                color[p] = 2;
                order.push(p);
                stack.pop();
            }
        }
    }
    Ok(order)
}

/// Public form of [`derived_order`] for the binder: the computation order of parameters.
pub(crate) fn param_order(params: &[Param]) -> Result<Vec<usize>, Vec<usize>> {
    derived_order(params)
}

fn negate(v: Expr) -> Expr {
    match v {
        Expr::Num(r) => Expr::Num(-r),
        v => Expr::Mul(vec![Expr::int(-1), v]),
    }
}

fn product(mut acc: Vec<Expr>) -> Expr {
    if acc.len() == 1 {
        acc.pop().expect("one factor")
    } else {
        Expr::Mul(acc)
    }
}

fn miette_span(s: Span) -> miette::SourceSpan {
    (s.start, s.len()).into()
}

// ===== suggestions ===================================================================

/// The known name closest to `name`, if one is close (see [`diag::suggest`]).
pub(crate) fn suggest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<String> {
    diag::suggest(name, candidates).into_iter().next()
}

// ===== exact evaluation ==============================================================

/// Why an exact evaluation failed (the evaluator's message).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct EvalError(String);

impl EvalError {
    /// What went wrong, for messages.
    pub(crate) fn describe(&self) -> String {
        self.0.clone()
    }
}

/// Bits allowed in a numerator or denominator during exact evaluation.
const MAX_BITS: u64 = 100_000;

/// Variable values from a closure, for the `expr` evaluators.
struct FnEnv<'a>(&'a dyn Fn(&str) -> Option<Rational>);

impl expr::eval::Env for FnEnv<'_> {
    fn lookup(&self, name: &str) -> Option<Rational> {
        (self.0)(name)
    }
}

impl expr::eval::EnvF64 for FnEnv<'_> {
    fn lookup(&self, name: &str) -> Option<f64> {
        (self.0)(name).and_then(|v| v.to_f64())
    }
}

/// Evaluates `e` exactly with variable values from `env` ([`expr::eval::eval_exact`]):
/// `Ok(None)` when a variable has no value. A value that is not rational (`log(2)`) is
/// approximated through `f64`.
pub(crate) fn eval_exact(
    e: &Expr,
    env: &dyn Fn(&str) -> Option<Rational>,
) -> Result<Option<Rational>, EvalError> {
    use expr::eval::{EvalError as E, EvalLimits};
    let limits = EvalLimits {
        max_exact_bits: 2 * MAX_BITS,
        ..EvalLimits::default()
    };
    match expr::eval::eval_exact(e, &FnEnv(env), &limits) {
        Ok(v) => Ok(Some(v)),
        Err(E::UnboundVariable { .. }) => Ok(None),
        Err(E::NotExact { .. }) => match expr::eval::eval_f64(e, &FnEnv(env), &limits) {
            Ok(x) => Rational::from_float(x)
                .map(Some)
                .ok_or_else(|| EvalError(format!("the value of `{e}` is not finite"))),
            Err(E::UnboundVariable { .. }) => Ok(None),
            Err(err) => Err(EvalError(err.to_string())),
        },
        Err(err) => Err(EvalError(err.to_string())),
    }
}

/// Whether a rational is small enough to keep computing with.
fn small(v: &Rational) -> bool {
    v.numer().bits() <= MAX_BITS && v.denom().bits() <= MAX_BITS
}

// ===== index ranges ==================================================================

/// The range of an index expression over the loop variables in scope.
#[derive(Clone, Debug)]
struct Interval {
    lo: Rational,
    hi: Rational,
    /// Both ends are attained for some values of the variables.
    exact: bool,
    /// Loop variables the value depends on.
    vars: Vec<Name>,
}

impl Interval {
    fn point(v: Rational) -> Interval {
        Interval {
            lo: v.clone(),
            hi: v,
            exact: true,
            vars: Vec::new(),
        }
    }
}

/// Combines the variable sets of two intervals; `false` when they share a variable (the
/// ends of a combination are then not necessarily attained).
fn merge_vars(a: &mut Vec<Name>, b: &[Name]) -> bool {
    let disjoint = !b.iter().any(|v| a.contains(v));
    for v in b {
        if !a.contains(v) {
            a.push(v.clone());
        }
    }
    disjoint
}

/// Interval evaluation of `e` with constant parameters `consts` and loop variables
/// ranging over `loops`; `None` when something else (an argument, a symbolic parameter)
/// is involved or an operation is not supported.
fn interval(
    e: &Expr,
    consts: &HashMap<Name, Rational>,
    loops: &HashMap<&str, (Rational, Rational)>,
) -> Option<Interval> {
    Some(match e {
        Expr::Num(r) => Interval::point(r.clone()),
        Expr::Var(n) => {
            if let Some((a, b)) = loops.get(&**n) {
                Interval {
                    lo: a.clone(),
                    hi: b.clone(),
                    exact: true,
                    vars: vec![n.clone()],
                }
            } else {
                Interval::point(consts.get(n)?.clone())
            }
        }
        Expr::Add(items) => {
            let mut acc = Interval::point(Rational::zero());
            for x in items {
                let iv = interval(x, consts, loops)?;
                acc.lo += iv.lo;
                acc.hi += iv.hi;
                acc.exact &= iv.exact && merge_vars(&mut acc.vars, &iv.vars);
                if !small(&acc.lo) || !small(&acc.hi) {
                    return None;
                }
            }
            acc
        }
        Expr::Mul(items) => {
            let mut acc = Interval::point(Rational::one());
            for x in items {
                let iv = interval(x, consts, loops)?;
                let c = [
                    &acc.lo * &iv.lo,
                    &acc.lo * &iv.hi,
                    &acc.hi * &iv.lo,
                    &acc.hi * &iv.hi,
                ];
                let lo = c.iter().min().cloned()?;
                let hi = c.iter().max().cloned()?;
                acc.exact &= iv.exact && merge_vars(&mut acc.vars, &iv.vars);
                acc.lo = lo;
                acc.hi = hi;
                if !small(&acc.lo) || !small(&acc.hi) {
                    return None;
                }
            }
            acc
        }
        Expr::Pow(x, -1) => {
            let iv = interval(x, consts, loops)?;
            if iv.lo <= Rational::zero() && iv.hi >= Rational::zero() {
                return None;
            }
            Interval {
                lo: iv.hi.recip(),
                hi: iv.lo.recip(),
                ..iv
            }
        }
        Expr::Pow(x, 1) => interval(x, consts, loops)?,
        Expr::Floor(x) => {
            let iv = interval(x, consts, loops)?;
            Interval {
                lo: iv.lo.floor(),
                hi: iv.hi.floor(),
                ..iv
            }
        }
        Expr::Ceil(x) => {
            let iv = interval(x, consts, loops)?;
            Interval {
                lo: iv.lo.ceil(),
                hi: iv.hi.ceil(),
                ..iv
            }
        }
        Expr::Mod(a, b) => {
            let a = interval(a, consts, loops)?;
            let b = interval(b, consts, loops)?;
            if !b.vars.is_empty() || !b.lo.is_positive() {
                return None;
            }
            let m = b.lo;
            let qa = (&a.lo / &m).floor();
            let qb = (&a.hi / &m).floor();
            if qa == qb {
                let shift = &qa * &m;
                Interval {
                    lo: &a.lo - &shift,
                    hi: &a.hi - &shift,
                    ..a
                }
            } else {
                Interval {
                    lo: Rational::zero(),
                    hi: m,
                    exact: false,
                    vars: a.vars,
                }
            }
        }
        _ => return None,
    })
}

// ===== printing ======================================================================

/// A compact rendering of `e` for messages: `N/P`, `tau_l + tau_s`, `floor(j/B)`.
pub(crate) fn show(e: &Expr) -> String {
    e.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_and_suggestions() {
        assert_eq!(suggest("Nn", ["N", "P"].into_iter()).as_deref(), Some("N"));
        assert_eq!(suggest("p", ["P"].into_iter()).as_deref(), Some("P"));
        assert_eq!(
            suggest("tau_z", ["tau_s", "tau_l"].into_iter()).as_deref(),
            Some("tau_s")
        );
        assert_eq!(suggest("a", ["b"].into_iter()), None);
    }

    #[test]
    fn show_is_compact() {
        let e = Expr::div(Expr::var("N"), Expr::var("P"));
        assert_eq!(show(&e), "N/P");
        let e = Expr::sub(Expr::var("N"), Expr::int(2)) * Expr::var("t");
        assert_eq!(show(&e), "(N - 2)*t");
        let e = Expr::Floor(Box::new(Expr::div(Expr::var("j"), Expr::var("B"))));
        assert_eq!(show(&e), "floor(j/B)");
    }

    #[test]
    fn exact_evaluation() {
        let env = |n: &str| (n == "N").then(|| Rational::from_integer(7.into()));
        let e = Expr::Mod(Box::new(Expr::var("N")), Box::new(Expr::int(3)));
        assert_eq!(eval_exact(&e, &env), Ok(Some(Rational::one())));
        let e = Expr::div(Expr::int(1), Expr::int(0));
        assert!(eval_exact(&e, &env)
            .unwrap_err()
            .describe()
            .contains("division by zero"));
        let e = Expr::Log(Box::new(Expr::int(2)));
        let v = eval_exact(&e, &env).unwrap().unwrap();
        assert!((v.to_f64().unwrap() - std::f64::consts::LN_2).abs() < 1e-12);
        assert_eq!(eval_exact(&Expr::var("Q"), &env), Ok(None));
    }
}
