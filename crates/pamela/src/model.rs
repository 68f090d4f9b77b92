//! The checked PAMELA model: the intermediate representation produced by
//! [`crate::front::parse`] and consumed by [`crate::bound`] and [`crate::sim`].
//!
//! Names are resolved: resources and processes are referred to by index, expressions are
//! [`expr::Expr`] trees whose free variables are parameters, loop variables and process
//! arguments. Every term keeps its source span for diagnostics.

use expr::{Cond, Expr, Name};
use miette::SourceSpan;

/// Index of a resource in [`Model::resources`].
pub type ResId = usize;
/// Index of a process in [`Model::processes`].
pub type ProcId = usize;

/// A checked model.
#[derive(Clone, Debug)]
pub struct Model {
    /// File name and text, for rendering diagnostics that point into the model.
    pub source: SourceFile,
    /// Parameters in declaration order.
    pub params: Vec<Param>,
    /// Resources in declaration order.
    pub resources: Vec<Resource>,
    /// Processes in declaration order, including `main`.
    pub processes: Vec<Process>,
}

/// The model's source text and file name.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// File name as given by the user (or a label such as `<demo:mrm>`).
    pub name: String,
    /// The full text.
    pub text: std::sync::Arc<str>,
}

/// `param N: int >= 1;`, `param tau >= 0;`, `param B = N / P;`.
#[derive(Clone, Debug)]
pub struct Param {
    /// Its name.
    pub name: Name,
    /// Declared `int`.
    pub integer: bool,
    /// `>= e` (inclusive lower bound), if declared.
    pub lower: Option<Expr>,
    /// `<= e` (inclusive upper bound), if declared.
    pub upper: Option<Expr>,
    /// `= e`: a derived parameter, computed from the others and never bound directly.
    pub definition: Option<Expr>,
    /// Where it is declared.
    pub span: SourceSpan,
}

/// `resource s;`, `resource pool: 4;`, `resource cpu[P];`, `resource net: inf;`.
#[derive(Clone, Debug)]
pub struct Resource {
    /// Its name.
    pub name: Name,
    /// Servers per resource (per family member); `None` is an infinite server.
    pub multiplicity: Option<Expr>,
    /// For a family `r[n]`, the member count `n`: members are `r[0] .. r[n-1]`.
    pub family: Option<Expr>,
    /// Where it is declared.
    pub span: SourceSpan,
}

/// `process name(a, b) = term;` or `main = term;`.
#[derive(Clone, Debug)]
pub struct Process {
    /// Its name.
    pub name: Name,
    /// Formal arguments, bound by substitution at each call.
    pub args: Vec<Name>,
    /// The body.
    pub body: Term,
    /// Where it is declared.
    pub span: SourceSpan,
}

/// A process term with its source span.
#[derive(Clone, Debug)]
pub struct Term {
    /// What it is.
    pub kind: TermKind,
    /// Where it is written.
    pub span: SourceSpan,
}

/// `seq` or `par`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Compose {
    /// Sequential composition (`;`, `seq v in a..=b`).
    Seq,
    /// Parallel fork/join composition (`||`, `par v in a..=b`).
    Par,
}

/// The kinds of process term.
#[derive(Clone, Debug)]
pub enum TermKind {
    /// Does nothing, takes no time.
    Skip,
    /// `use(r, t)` or `use(r[i], t)`: hold one server of the resource for `t`.
    Use {
        /// The resource.
        res: ResId,
        /// Member index for a family (`None` for a plain resource).
        index: Option<Expr>,
        /// Service time.
        time: Expr,
    },
    /// `delay(t)`: take `t` without contention.
    Delay(Expr),
    /// `A ; B ; …` or `A || B || …`.
    Compose(Compose, Vec<Term>),
    /// `seq v in lo..=hi BODY` or `par v in lo..=hi BODY` (empty range: skip).
    Loop(Loop),
    /// `if c A else B`.
    If {
        /// The condition (may be stochastic).
        cond: Cond,
        /// Runs where the condition holds.
        then: Box<Term>,
        /// Runs elsewhere (`None`: skip).
        els: Option<Box<Term>>,
    },
    /// `name(args)`: the process body with its arguments substituted.
    Call {
        /// The called process.
        proc: ProcId,
        /// Actual arguments, one per formal.
        args: Vec<Expr>,
    },
}

/// A replicated term: `seq v in lo..=hi BODY` or `par v in lo..=hi BODY`.
#[derive(Clone, Debug)]
pub struct Loop {
    /// Sequential or parallel replication.
    pub kind: Compose,
    /// The loop variable, bound in `body`.
    pub var: Name,
    /// First index (inclusive).
    pub lo: Expr,
    /// Last index (inclusive).
    pub hi: Expr,
    /// The replicated term.
    pub body: Box<Term>,
}

impl Model {
    /// The process named `name`.
    pub fn process(&self, name: &str) -> Option<ProcId> {
        self.processes.iter().position(|p| &*p.name == name)
    }

    /// The parameter named `name`.
    pub fn param(&self, name: &str) -> Option<&Param> {
        self.params.iter().find(|p| &*p.name == name)
    }

    /// The resource named `name`.
    pub fn resource(&self, name: &str) -> Option<ResId> {
        self.resources.iter().position(|r| &*r.name == name)
    }

    /// The facts about parameters the simplifier may use (integrality, bounds, definitions).
    pub fn assumptions(&self) -> expr::Assumptions {
        let mut a = expr::Assumptions::new();
        for p in &self.params {
            a.set(
                &p.name,
                expr::VarInfo {
                    integer: p.integer,
                    lower: p.lower.clone(),
                    upper: p.upper.clone(),
                    definition: p.definition.clone(),
                },
            );
        }
        a
    }
}

/// Values for every parameter of a model (derived ones included), exact.
///
/// Made by [`Model::bind`], which checks the given values against the declarations
/// (integrality, bounds) and computes derived parameters.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Binding {
    /// Parameter values by name.
    pub values: std::collections::BTreeMap<Name, expr::Rational>,
}

impl Binding {
    /// The value of `name`, if bound.
    pub fn get(&self, name: &str) -> Option<&expr::Rational> {
        self.values.get(name)
    }

    /// The value of `name` as `f64`, if bound.
    pub fn get_f64(&self, name: &str) -> Option<f64> {
        use num_traits::ToPrimitive;
        self.values.get(name).and_then(|r| r.to_f64())
    }
}

impl Term {
    /// The term with each `(name, value)` substituted for the free occurrences of `name`
    /// (process-call semantics), renaming loop variables that would capture a free variable
    /// of a value.
    pub fn substitute(&self, pairs: &[(Name, Expr)]) -> Term {
        let free: std::collections::BTreeSet<Name> =
            pairs.iter().flat_map(|(_, v)| v.free_vars()).collect();
        self.subst(pairs, &free)
    }

    fn subst(&self, pairs: &[(Name, Expr)], free: &std::collections::BTreeSet<Name>) -> Term {
        let e = |x: &Expr| x.substitute_all(pairs);
        let kind = match &self.kind {
            TermKind::Skip => TermKind::Skip,
            TermKind::Use { res, index, time } => TermKind::Use {
                res: *res,
                index: index.as_ref().map(e),
                time: e(time),
            },
            TermKind::Delay(t) => TermKind::Delay(e(t)),
            TermKind::Compose(k, items) => {
                TermKind::Compose(*k, items.iter().map(|t| t.subst(pairs, free)).collect())
            }
            TermKind::Loop(l) => {
                // The loop variable hides any pair of the same name inside the body.
                let inner: Vec<(Name, Expr)> =
                    pairs.iter().filter(|(n, _)| *n != l.var).cloned().collect();
                let (var, body) = if free.contains(&l.var) {
                    let fresh = expr::node::fresh_name(&l.var, |n| {
                        free.iter().any(|f| &**f == n) || pairs.iter().any(|(p, _)| &**p == n)
                    });
                    let renamed = l
                        .body
                        .substitute(&[(l.var.clone(), Expr::Var(fresh.clone()))]);
                    (fresh, renamed)
                } else {
                    (l.var.clone(), (*l.body).clone())
                };
                TermKind::Loop(Loop {
                    kind: l.kind,
                    var,
                    lo: e(&l.lo),
                    hi: e(&l.hi),
                    body: Box::new(body.subst(&inner, free)),
                })
            }
            TermKind::If { cond, then, els } => TermKind::If {
                cond: cond.substitute_all(pairs),
                then: Box::new(then.subst(pairs, free)),
                els: els.as_ref().map(|t| Box::new(t.subst(pairs, free))),
            },
            TermKind::Call { proc, args } => TermKind::Call {
                proc: *proc,
                args: args.iter().map(e).collect(),
            },
        };
        Term {
            kind,
            span: self.span,
        }
    }
}

impl Model {
    /// `e` with every derived parameter (`param B = N / P;`) replaced by its definition,
    /// repeatedly, so that only bindable parameters are left (for evaluating a bound over a
    /// grid of the bindable ones).
    pub fn inline_derived(&self, e: &Expr) -> Expr {
        let mut e = e.clone();
        for _ in 0..=self.params.len() {
            let mut changed = false;
            for p in &self.params {
                if let Some(def) = &p.definition {
                    if e.depends_on(&p.name) {
                        e = e.substitute(&p.name, def);
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        e
    }
}

impl Model {
    /// Whether any process contains a stochastic `prob(p)` condition. For such models the
    /// bound is on the expected run time (T^l is convex in the branch outcomes, so
    /// `E[T] >= T^l` by Jensen's inequality), while single simulated runs vary with the seed.
    pub fn is_stochastic(&self) -> bool {
        fn term(t: &Term) -> bool {
            match &t.kind {
                TermKind::If { cond, then, els } => {
                    cond.is_stochastic() || term(then) || els.as_deref().is_some_and(term)
                }
                TermKind::Compose(_, items) => items.iter().any(term),
                TermKind::Loop(l) => term(&l.body),
                _ => false,
            }
        }
        self.processes.iter().any(|p| term(&p.body))
    }
}
