//! The symbolic lower bound T^l (van Gemund, eqs. 1–5) with the critical path φ, the
//! contention bound ω and the contention index θ = ln(ω/φ).
//!
//! Each term is summarised bottom-up as (φ, T^l, δ) where δ maps every finite resource to
//! its total service demand:
//! - `use(r, t)`: φ = T^l = t, δ_r = t; `delay(t)`: φ = T^l = t, no demand;
//! - `A ; B`: φ, T^l and δ add;
//! - `A || B`: φ = max, δ adds, T^l = max(T^l(A), T^l(B), ω(δ)) where
//!   ω(δ) = max over resources of δ_r / |r|;
//! - `seq v in a..=b`: sums over v; `par v in a..=b`: maxima over v for φ and T^l, sums for δ,
//!   and the ω term (the n-ary forms of the spec, §3.4);
//! - `if c A else B`: each quantity is `if(c, ·, ·)` (eq. 1), reduced later by counting over
//!   loop indices or, for `prob(p)`, by expectation;
//! - calls: the callee's body with the actual arguments substituted, analysed once per
//!   distinct call.
//!
//! For a resource family `r[n]` the demand is a function of the member: a use of `r[e]`
//! contributes `if(e == #r, t, 0)`, and ω takes `max_{#r = 0}^{n-1}` of the member's demand.
//! Every quantity is simplified as it is built, so the paper's models come out in closed form
//! (see `expr::simplify`); anything not reducible stays an evaluable fold.

use crate::diag::{ErrorKind, ModelError, Result};
use crate::model::{Binding, Compose, Model, ProcId, ResId, Term, TermKind};
use expr::simplify::Simplifier;
use expr::{Cond, Expr, FoldOp, Name};
use std::collections::BTreeMap;

/// Most process calls one analysis expands (each distinct call is analysed once).
pub const MAX_CALLS: usize = 100_000;

/// Largest expression (in nodes) the analysis builds before giving up with a limit error.
pub const MAX_EXPR_SIZE: usize = 200_000;

/// The symbolic results for one root process.
#[derive(Clone, Debug)]
pub struct BoundReport {
    /// The lower bound T^l.
    pub tl: Expr,
    /// The critical path φ (mutual exclusion ignored).
    pub phi: Expr,
    /// The contention bound ω of the whole model (condition synchronisation ignored).
    pub omega: Expr,
    /// Per finite resource: its whole-model contention term δ_r/|r| (for a family, the
    /// busiest member's).
    pub resources: Vec<ResourceTerm>,
    /// Where the model is invalid: positive at values for which some `use` or `delay` has
    /// a negative time or a family index out of range or not an integer (the simulator
    /// rejects those), 0 where every instance is valid. [`BoundReport::evaluate`] checks it.
    pub invalid: Expr,
}

/// One resource's contention term.
#[derive(Clone, Debug)]
pub struct ResourceTerm {
    /// The resource's name.
    pub name: String,
    /// `δ_r / |r|` over the whole model.
    pub omega: Expr,
}

/// What limits T^l at the root: the critical path or a resource.
#[derive(Clone, Debug, PartialEq)]
pub enum Binds {
    /// φ ≥ every resource's ω: condition synchronisation dominates.
    CriticalPath,
    /// This resource's ω is the largest term and exceeds φ.
    Resource(String),
}

impl std::fmt::Display for Binds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Binds::CriticalPath => f.write_str("critical path"),
            Binds::Resource(r) => write!(f, "resource {r}"),
        }
    }
}

/// Numbers for a fully bound report.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluated {
    /// T^l.
    pub tl: f64,
    /// φ.
    pub phi: f64,
    /// ω.
    pub omega: f64,
    /// θ = ln(ω/φ) (natural log, spec §3.7); infinite when φ or ω is 0.
    pub theta: f64,
    /// Which term binds.
    pub binds: Binds,
    /// Each resource's ω_r.
    pub resources: Vec<(String, f64)>,
}

#[derive(Clone)]
struct Summary {
    phi: Expr,
    tl: Expr,
    demand: BTreeMap<ResId, Expr>,
    /// Positive where some instance is one the simulator rejects (a negative time, a family
    /// index out of range or not an integer); 0 where every instance is valid.
    bad: Expr,
}

impl Summary {
    fn zero() -> Self {
        Summary {
            phi: Expr::zero(),
            tl: Expr::zero(),
            demand: BTreeMap::new(),
            bad: Expr::zero(),
        }
    }
}

/// Computes T^l, φ, ω and per-resource contention for the process `root`, with every
/// parameter symbolic.
pub fn bound(model: &Model, root: ProcId) -> Result<BoundReport> {
    let mut a = Analyzer::new(model);
    let body = &model.processes[root].body;
    let s = a.term(body)?;
    let omega_terms = a.omega_terms(&s.demand);
    let omega = a.simplify(&Expr::max(
        std::iter::once(Expr::zero())
            .chain(omega_terms.iter().map(|(_, e)| e.clone()))
            .collect(),
    ))?;
    let resources = omega_terms
        .into_iter()
        .map(|(r, e)| ResourceTerm {
            name: model.resources[r].name.to_string(),
            omega: e,
        })
        .collect();
    Ok(BoundReport {
        tl: s.tl,
        phi: s.phi,
        omega,
        resources,
        invalid: s.bad,
    })
}

impl BoundReport {
    /// Whether T^l is in closed form: no sum or maximum over a range left.
    pub fn is_closed_form(&self) -> bool {
        !self.tl.has_fold()
    }

    /// The report with the given parameter values substituted and simplified again.
    /// Unbound parameters stay symbolic.
    pub fn substitute(&self, model: &Model, values: &Binding) -> BoundReport {
        let pairs: Vec<(Name, Expr)> = values
            .values
            .iter()
            .map(|(k, v)| (k.clone(), Expr::Num(v.clone())))
            .collect();
        let mut s = member_simplifier(model);
        let mut sub = |e: &Expr| s.simplify(&e.substitute_all(&pairs));
        BoundReport {
            tl: sub(&self.tl),
            phi: sub(&self.phi),
            omega: sub(&self.omega),
            resources: self
                .resources
                .iter()
                .map(|r| ResourceTerm {
                    name: r.name.clone(),
                    omega: sub(&r.omega),
                })
                .collect(),
            invalid: sub(&self.invalid),
        }
    }

    /// Evaluates every quantity with the given values (every free name must be bound).
    pub fn evaluate(&self, values: &Binding) -> Result<Evaluated> {
        let env: BTreeMap<Name, f64> = values
            .values
            .keys()
            .filter_map(|k| values.get_f64(k).map(|x| (k.clone(), x)))
            .collect();
        let ev = |what: &str, e: &Expr| -> Result<f64> {
            expr::eval::eval_f64(e, &env, &expr::eval::EvalLimits::default()).map_err(|err| {
                let e = ModelError::new(
                    ErrorKind::Evaluation,
                    format!("cannot evaluate {what}: {err}"),
                );
                Box::new(match &err {
                    expr::eval::EvalError::UnboundVariable { name } => e
                        .with_help("a number needs a value for every parameter")
                        .with_missing([name.to_string()]),
                    _ => e.with_help(
                        "the model is undefined at these values (the simulator rejects them \
                         too); change the values, or guard the expression with `if`",
                    ),
                })
            })
        };
        let invalid = ev("the model's validity", &self.invalid)?;
        if invalid > 0.0 {
            return Err(Box::new(
                ModelError::new(
                    ErrorKind::Evaluation,
                    "the model is invalid at these values: a `use` or `delay` time is negative, \
                     or a family index is out of range or not an integer",
                )
                .with_help(
                    "the simulator rejects these values too (and names the term); change the \
                     values or the model",
                ),
            ));
        }
        let tl = ev("T^l", &self.tl)?;
        let phi = ev("phi", &self.phi)?;
        let omega = ev("omega", &self.omega)?;
        let mut resources = Vec::with_capacity(self.resources.len());
        for r in &self.resources {
            resources.push((
                r.name.clone(),
                ev(&format!("omega of {}", r.name), &r.omega)?,
            ));
        }
        let binds = match resources
            .iter()
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .filter(|(_, w)| *w > phi)
        {
            Some((name, _)) => Binds::Resource(name.clone()),
            None => Binds::CriticalPath,
        };
        let theta = (omega / phi).ln();
        Ok(Evaluated {
            tl,
            phi,
            omega,
            theta,
            binds,
            resources,
        })
    }
}

/// The member variable of a family's demand function.
fn member_var(model: &Model, r: ResId) -> Name {
    Name::from(format!("#{}", model.resources[r].name).as_str())
}

fn member_simplifier(model: &Model) -> Simplifier {
    let mut s = Simplifier::new(model.assumptions());
    for (r, res) in model.resources.iter().enumerate() {
        if res.family.is_some() {
            s.declare_member_var(&member_var(model, r));
        }
    }
    s
}

/// An analysed call: process, simplified arguments, facts about the names in them, result.
type CallEntry = (
    ProcId,
    Vec<Expr>,
    Vec<(Name, Option<expr::VarInfo>)>,
    Summary,
);

struct Analyzer<'m> {
    model: &'m Model,
    s: Simplifier,
    /// Analysed calls: (process, simplified arguments, facts about their names, summary).
    memo: Vec<CallEntry>,
    /// Calls analysed so far (bounded by [`MAX_CALLS`]).
    work: usize,
}

impl<'m> Analyzer<'m> {
    fn new(model: &'m Model) -> Self {
        Analyzer {
            model,
            s: member_simplifier(model),
            memo: Vec::new(),
            work: 0,
        }
    }

    fn simplify(&mut self, e: &Expr) -> Result<Expr> {
        let out = self.s.simplify(e);
        if out.size() > MAX_EXPR_SIZE {
            return Err(Box::new(
                ModelError::new(
                    ErrorKind::Limit,
                    format!(
                        "the bound expression grew past {MAX_EXPR_SIZE} nodes without reducing"
                    ),
                )
                .with_help("give some parameters values, or simplify the model"),
            ));
        }
        Ok(out)
    }

    fn term(&mut self, t: &Term) -> Result<Summary> {
        match &t.kind {
            TermKind::Skip => Ok(Summary::zero()),
            TermKind::Delay(d) => {
                let d = self.simplify(d)?;
                let bad =
                    self.invalid(vec![Cond::cmp(expr::CmpOp::Ge, d.clone(), Expr::zero())])?;
                Ok(Summary {
                    phi: d.clone(),
                    tl: d,
                    demand: BTreeMap::new(),
                    bad,
                })
            }
            TermKind::Use { res, index, time } => {
                let t = self.simplify(time)?;
                let mut valid = vec![Cond::cmp(expr::CmpOp::Ge, t.clone(), Expr::zero())];
                let r = &self.model.resources[*res];
                if let (Some(ix), Some(n)) = (index, &r.family) {
                    let ix = self.simplify(ix)?;
                    valid.push(Cond::cmp(expr::CmpOp::Ge, ix.clone(), Expr::zero()));
                    valid.push(Cond::cmp(
                        expr::CmpOp::Le,
                        ix.clone(),
                        n.clone() - Expr::one(),
                    ));
                    valid.push(Cond::cmp(
                        expr::CmpOp::Eq,
                        Expr::Floor(Box::new(ix.clone())),
                        ix,
                    ));
                }
                let bad = self.invalid(valid)?;
                let mut demand = BTreeMap::new();
                if r.multiplicity.is_some() {
                    let d = match index {
                        Some(ix) if r.family.is_some() => {
                            let ix = self.simplify(ix)?;
                            let m = Expr::Var(member_var(self.model, *res));
                            self.simplify(&Expr::ite(
                                Cond::cmp(expr::CmpOp::Eq, ix, m),
                                t.clone(),
                                Expr::zero(),
                            ))?
                        }
                        _ => t.clone(),
                    };
                    demand.insert(*res, d);
                }
                Ok(Summary {
                    phi: t.clone(),
                    tl: t,
                    demand,
                    bad,
                })
            }
            TermKind::Compose(kind, items) => {
                let parts = items
                    .iter()
                    .map(|x| self.term(x))
                    .collect::<Result<Vec<_>>>()?;
                self.compose(*kind, parts)
            }
            TermKind::Loop(l) => {
                let lo = self.simplify(&l.lo)?;
                let hi = self.simplify(&l.hi)?;
                self.s.push_range(&l.var, &lo, &hi);
                let inner = self.term(&l.body);
                self.s.pop_var();
                let inner = inner?;
                self.replicate(l.kind, &l.var, &lo, &hi, inner)
            }
            TermKind::If { cond, then, els } => {
                let c = self.s.cond(cond);
                let a = self.term(then)?;
                let b = match els {
                    Some(e) => self.term(e)?,
                    None => Summary::zero(),
                };
                let ite = |x: &Expr, y: &Expr| Expr::ite(c.clone(), x.clone(), y.clone());
                let mut demand = BTreeMap::new();
                let keys: Vec<ResId> = a.demand.keys().chain(b.demand.keys()).copied().collect();
                for r in keys {
                    let z = Expr::zero();
                    let x = a.demand.get(&r).unwrap_or(&z);
                    let y = b.demand.get(&r).unwrap_or(&z);
                    let d = self.simplify(&ite(x, y))?;
                    demand.insert(r, d);
                }
                Ok(Summary {
                    phi: self.simplify(&ite(&a.phi, &b.phi))?,
                    tl: self.simplify(&ite(&a.tl, &b.tl))?,
                    demand,
                    bad: self.simplify(&ite(&a.bad, &b.bad))?,
                })
            }
            TermKind::Call { proc, args } => self.call(*proc, args),
        }
    }

    /// A call: the callee's body with the arguments substituted (the language's
    /// substitution semantics), analysed once per distinct (arguments, facts about the
    /// names in them).
    fn call(&mut self, proc: ProcId, args: &[Expr]) -> Result<Summary> {
        self.work += 1;
        if self.work > MAX_CALLS {
            return Err(Box::new(
                ModelError::new(
                    ErrorKind::Limit,
                    format!("more than {MAX_CALLS} process calls to analyse"),
                )
                .with_help(
                    "the call tree grows exponentially; share sub-processes or bind parameters",
                ),
            ));
        }
        let args = args
            .iter()
            .map(|a| self.simplify(a))
            .collect::<Result<Vec<_>>>()?;
        let facts: Vec<(Name, Option<expr::VarInfo>)> = args
            .iter()
            .flat_map(|a| a.free_vars())
            .map(|n| {
                let info = self.s.assumptions().get(&n).cloned();
                (n, info)
            })
            .collect();
        if let Some((_, _, _, s)) = self
            .memo
            .iter()
            .find(|(p, a, f, _)| *p == proc && *a == args && *f == facts)
        {
            return Ok(s.clone());
        }
        let callee = &self.model.processes[proc];
        let pairs: Vec<(Name, Expr)> = callee
            .args
            .iter()
            .cloned()
            .zip(args.iter().cloned())
            .collect();
        let body = callee.body.substitute(&pairs);
        let out = self.term(&body)?;
        self.memo.push((proc, args, facts, out.clone()));
        Ok(out)
    }

    fn compose(&mut self, kind: Compose, parts: Vec<Summary>) -> Result<Summary> {
        let mut demand: BTreeMap<ResId, Vec<Expr>> = BTreeMap::new();
        let mut phis = Vec::with_capacity(parts.len());
        let mut tls = Vec::with_capacity(parts.len());
        let mut bads = vec![Expr::zero()];
        for p in parts {
            phis.push(p.phi);
            tls.push(p.tl);
            bads.push(p.bad);
            for (r, d) in p.demand {
                demand.entry(r).or_default().push(d);
            }
        }
        let mut total = BTreeMap::new();
        for (r, ds) in demand {
            total.insert(r, self.simplify(&Expr::Add(ds))?);
        }
        let (phi, tl) = match kind {
            Compose::Seq => (Expr::Add(phis), Expr::Add(tls)),
            Compose::Par => {
                let mut all = tls;
                all.extend(self.omega_terms(&total).into_iter().map(|(_, e)| e));
                all.push(Expr::zero());
                phis.push(Expr::zero());
                (Expr::Max(phis), Expr::Max(all))
            }
        };
        Ok(Summary {
            phi: self.simplify(&phi)?,
            tl: self.simplify(&tl)?,
            demand: total,
            bad: self.simplify(&Expr::Max(bads))?,
        })
    }

    fn replicate(
        &mut self,
        kind: Compose,
        var: &str,
        lo: &Expr,
        hi: &Expr,
        s: Summary,
    ) -> Result<Summary> {
        let over =
            |op: FoldOp, body: &Expr| Expr::fold(op, var, lo.clone(), hi.clone(), body.clone());
        let mut demand = BTreeMap::new();
        for (r, d) in &s.demand {
            demand.insert(*r, self.simplify(&over(FoldOp::Sum, d))?);
        }
        let (phi, tl) = match kind {
            Compose::Seq => (over(FoldOp::Sum, &s.phi), over(FoldOp::Sum, &s.tl)),
            Compose::Par => {
                let mut all = vec![over(FoldOp::Max, &s.tl)];
                all.extend(self.omega_terms(&demand).into_iter().map(|(_, e)| e));
                (over(FoldOp::Max, &s.phi), Expr::Max(all))
            }
        };
        // An empty range has no instance, so nothing invalid: max(0, …).
        let bad = Expr::max(vec![Expr::zero(), over(FoldOp::Max, &s.bad)]);
        Ok(Summary {
            phi: self.simplify(&phi)?,
            tl: self.simplify(&tl)?,
            demand,
            bad: self.simplify(&bad)?,
        })
    }

    /// 1 where one of the conditions `valid` fails, 0 where all hold, simplified (usually
    /// to 0: `param tau >= 0` makes `tau >= 0` provable).
    fn invalid(&mut self, valid: Vec<Cond>) -> Result<Expr> {
        self.simplify(&Expr::ite(Cond::And(valid), Expr::zero(), Expr::one()))
    }

    /// `δ_r / |r|` per resource (the busiest member's, for a family), simplified.
    fn omega_terms(&mut self, demand: &BTreeMap<ResId, Expr>) -> Vec<(ResId, Expr)> {
        let mut out = Vec::with_capacity(demand.len());
        for (r, d) in demand {
            let res = &self.model.resources[*r];
            let Some(mult) = &res.multiplicity else {
                continue;
            };
            let busiest = match &res.family {
                Some(n) => Expr::max_over(
                    &member_var(self.model, *r),
                    Expr::zero(),
                    n.clone() - Expr::one(),
                    d.clone(),
                ),
                None => d.clone(),
            };
            let e = self.s.simplify(&Expr::div(busiest, mult.clone()));
            out.push((*r, e));
        }
        out
    }
}
