//! Full instantiation (spec §2.3 step 1): a checked [`Model`] with values for its parameters
//! and coefficients becomes a [`Graph`]. Class threads are expanded into their instances,
//! counts and participants evaluated, and segment times computed.
//!
//! Θ (eq. 2.2) and the size of the instantiated graph are counted first, from the loop
//! bounds alone, and checked against [`Limits`] before anything is built. A loop whose body
//! does not use its variable stays a loop of the graph; one whose body does is unrolled.

use std::collections::HashMap;
use std::ops::Range;

use expr::eval::{eval_f64, EvalLimits};
use expr::{Expr, Name};
use sweep::{Limit, Reached};
use trace::text::num;

use crate::graph::{Barrier, Graph, Op, Size, Thread, ThreadId};
use crate::lang::{ErrorKind, Locate, LoopRange, Model, ModelError, Ref, Result, Spanned, Stmt};

/// Values for a model's parameters and coefficients.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Bindings {
    /// Parameter values (every parameter without a definition needs one).
    pub params: Vec<(String, f64)>,
    /// Coefficient values (every coefficient a segment uses needs one).
    pub coeffs: Vec<(String, f64)>,
}

/// Bounds on an instantiation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most steps of the traversal (Θ, segments, loop entries and exits).
    pub max_steps: u64,
    /// The most ops of the instantiated graph (unrolled loops count each iteration). An op
    /// and its share of the traversal take about 100 bytes (measured: 83 MB at 0.8 million
    /// ops, 316 MB at 3.2 million), so the default, 4 million, bounds a prediction near
    /// 400 MB.
    pub max_ops: u64,
    /// The most loop iterations the count before instantiation may walk (loops whose
    /// nested bounds depend on their variable).
    pub max_count_iterations: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_steps: 1 << 32,
            max_ops: 4_000_000,
            max_count_iterations: 10_000_000,
        }
    }
}

impl Limits {
    /// The default limits with the steps and ops given.
    pub fn with(max_steps: u64, max_ops: u64) -> Limits {
        Limits {
            max_steps,
            max_ops,
            ..Limits::default()
        }
    }
}

/// An instantiated model.
#[derive(Clone, Debug, PartialEq)]
pub struct Instance {
    /// The graph.
    pub graph: Graph,
    /// Θ and the traversal's steps (as [`Graph::size`]).
    pub size: Size,
    /// Every parameter's value, derived ones included, in declaration order.
    pub params: Vec<(String, f64)>,
    /// The loop entries and exits the paper counts in Θ ([`Count::loop_events`]).
    pub loop_events: u64,
    /// The class threads' instances: per class, its name and its instances' range of
    /// [`Graph::threads`] (the clusters eq. 2.5 may collapse).
    pub clusters: Vec<(String, Range<ThreadId>)>,
}

/// How much an instantiation builds and a traversal does, counted from the bounds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Count {
    /// Θ and steps.
    pub size: Size,
    /// Ops of the instantiated graph.
    pub ops: u64,
    /// The loop entry and exit events the paper counts in Θ (eq. 2.2, Table I lines 14–17):
    /// a loop's entry and its exit are each processed once per iteration, so a loop l adds
    /// 2·∏ Size over l and the loops around it (a branch's longer arm counted, as for
    /// [`Size::events`]). They are counted whether or not instantiation unrolls the loop.
    pub loop_events: u64,
}

impl Count {
    /// Θ as the paper counts it (eq. 2.2): the events of [`Size::events`] and the loop
    /// entries and exits ([`Count::loop_events`]).
    pub fn paper_theta(&self) -> u64 {
        self.size.events.saturating_add(self.loop_events)
    }
}

/// The variables of one scope: parameters, then the instance index and loop variables.
#[derive(Clone, Debug, Default)]
struct Env {
    vars: Vec<(Name, f64)>,
}

/// The hint of an instantiation over a limit (the front end names the option).
const RAISE: &str = "predict at smaller parameters, or raise the limit";

impl Env {
    /// The parameters' values as the outermost variables.
    fn of(params: &[(String, f64)]) -> Env {
        Env {
            vars: params
                .iter()
                .map(|(k, v)| (Name::from(k.as_str()), *v))
                .collect(),
        }
    }

    fn push(&mut self, name: &str, v: f64) {
        self.vars.push((Name::from(name), v));
    }

    fn set_last(&mut self, v: f64) {
        if let Some(last) = self.vars.last_mut() {
            last.1 = v;
        }
    }

    fn pop(&mut self) {
        self.vars.pop();
    }
}

struct Ctx<'a> {
    m: &'a Model,
    limits: Limits,
    coeffs: Vec<(Name, f64)>,
    /// First thread index and instance count of each declared thread, by name.
    threads: HashMap<&'a str, (ThreadId, usize)>,
    barriers: HashMap<&'a str, usize>,
    /// First index and length of each lock and channel array.
    locks: HashMap<&'a str, (usize, Option<usize>)>,
    channels: HashMap<&'a str, (usize, Option<usize>)>,
    walked: u64,
}

fn eval_error(m: &Model, span: Range<usize>, message: String) -> Box<ModelError> {
    ModelError::new(ErrorKind::Evaluation, message).at(&m.name, &m.text, span, "here")
}

impl<'a> Ctx<'a> {
    fn value(&self, e: &Spanned, env: &Env, what: &str) -> Result<f64> {
        let v = eval_with(&e.expr, &env.vars, &self.coeffs).map_err(|msg| {
            eval_error(
                self.m,
                e.span.clone(),
                format!("{what} cannot be computed: {msg}"),
            )
        })?;
        if !v.is_finite() {
            return Err(eval_error(
                self.m,
                e.span.clone(),
                format!("{what} is {v}, not a finite number"),
            ));
        }
        Ok(v)
    }

    /// A given parameter's value `v` is of its type and within its bounds.
    fn within_bounds(&self, p: &crate::lang::Param, v: f64, env: &Env) -> Result<()> {
        let name = &p.name.name;
        let refuse = |why: String| {
            ModelError::new(
                ErrorKind::Binding,
                format!("parameter `{name}` = {}: {why}", num(v)),
            )
            .at(&self.m.name, &self.m.text, p.span.clone(), "declared here")
            .help(format!("give `{name}` a value its declaration allows"))
        };
        if p.integer && v.fract() != 0.0 {
            return Err(refuse("it is declared `int`".to_string()));
        }
        if let Some(lo) = &p.min {
            let lo = self.value(lo, env, &format!("the lowest value of `{name}`"))?;
            if v < lo {
                return Err(refuse(format!("below its lowest value {}", num(lo))));
            }
        }
        if let Some(hi) = &p.max {
            let hi = self.value(hi, env, &format!("the highest value of `{name}`"))?;
            if v > hi {
                return Err(refuse(format!("above its highest value {}", num(hi))));
            }
        }
        Ok(())
    }

    /// A non-negative integer (a count, an index, a size).
    fn whole(&self, e: &Spanned, env: &Env, what: &str) -> Result<u64> {
        let v = self.value(e, env, what)?;
        if v > 2f64.powi(53) {
            return Err(eval_error(
                self.m,
                e.span.clone(),
                format!("{what} is {}, more than can be counted (2^53)", num(v)),
            ));
        }
        if v < 0.0 || v.fract() != 0.0 {
            return Err(eval_error(
                self.m,
                e.span.clone(),
                format!("{what} is {}; it must be a whole number ≥ 0", num(v)),
            )
            .help("round it with `floor(…)` or `ceil(…)`"));
        }
        Ok(v as u64)
    }

    /// One more loop iteration walked by `what` (a count before instantiation), refused
    /// past [`Limits::max_count_iterations`] at the loop `at` with `label`.
    fn walk(&mut self, at: &Range<usize>, what: &str, label: &str) -> Result<()> {
        self.walked += 1;
        if self.walked > self.limits.max_count_iterations {
            let reached = Reached::new(Limit::CountIterations, self.limits.max_count_iterations);
            return Err(ModelError::limit(
                reached,
                format!(
                    "{what} walks more than {} loop iterations",
                    self.limits.max_count_iterations
                ),
            )
            .at(&self.m.name, &self.m.text, at.clone(), label));
        }
        Ok(())
    }

    /// A branch's probability, in [0, 1].
    fn probability(&self, e: &Spanned, env: &Env) -> Result<f64> {
        let p = self.value(e, env, "the branch's probability")?;
        if !(0.0..=1.0).contains(&p) {
            return Err(eval_error(
                self.m,
                e.span.clone(),
                format!("the branch's probability is {p}; it must lie in [0, 1]"),
            ));
        }
        Ok(p)
    }

    /// A loop's first value and iteration count.
    fn iterations(&self, range: &LoopRange, env: &Env) -> Result<(f64, u64)> {
        match range {
            LoopRange::Count(c) => Ok((0.0, self.whole(c, env, "the loop's iteration count")?)),
            LoopRange::Var(_, from, to) => {
                let a = self.value(from, env, "the loop's first value")?;
                let b = self.value(to, env, "the loop's last value")?;
                if a.fract() != 0.0 || b.fract() != 0.0 {
                    return Err(eval_error(
                        self.m,
                        from.span.start..to.span.end,
                        format!(
                            "the loop runs from {} to {}; its bounds must be whole numbers",
                            num(a),
                            num(b)
                        ),
                    ));
                }
                Ok((a, if b < a { 0 } else { (b - a + 1.0) as u64 }))
            }
        }
    }

    /// A model over the ops limit: `what` is over `limits.max_ops`.
    fn over_ops(&self, what: String, limits: &Limits) -> Box<ModelError> {
        ModelError::limit(
            Reached::new(Limit::GraphOps, limits.max_ops),
            format!("{what} the limit of {} ops", limits.max_ops),
        )
        .help(RAISE)
    }

    /// Θ, steps and ops of `stmts` in `env`, from the bounds alone.
    fn count(&mut self, stmts: &[Stmt], env: &mut Env) -> Result<Count> {
        let mut c = Count::default();
        for s in stmts {
            let one = match s {
                Stmt::Compute { .. } => Count {
                    size: Size {
                        events: 0,
                        steps: 1,
                    },
                    ops: 1,
                    loop_events: 0,
                },
                Stmt::Loop { range, body, at } => {
                    let (first, n) = self.iterations(range, env)?;
                    let var = match range {
                        LoopRange::Var(v, ..) => Some(v.name.as_str()),
                        LoopRange::Count(_) => None,
                    };
                    let bounds_use = var.is_some_and(|v| bounds_use(body, v));
                    let body_uses = var.is_some_and(|v| uses(body, v));
                    if let Some(v) = var {
                        env.push(v, first);
                    }
                    let inner = if bounds_use {
                        // Nested bounds change with the variable: walk the iterations.
                        let mut sum = Count::default();
                        for k in 0..n {
                            // An error ends the count: the environment is dropped with it.
                            self.walk(
                                at,
                                "counting Θ",
                                "this loop's nested bounds change with its variable",
                            )?;
                            env.set_last(first + k as f64);
                            let b = self.count(body, env)?;
                            sum = add(sum, b);
                        }
                        sum
                    } else {
                        let b = self.count(body, env)?;
                        times(b, n)
                    };
                    if var.is_some() {
                        env.pop();
                    }
                    // The paper's loop entry and exit, once per iteration each.
                    let inner = Count {
                        loop_events: inner.loop_events.saturating_add(n.saturating_mul(2)),
                        ..inner
                    };
                    if body_uses {
                        // Unrolled: the iterations' ops, no loop control.
                        inner
                    } else {
                        // Kept: one op around its body; entry once, an exit per iteration.
                        let body_ops = inner.ops.checked_div(n).unwrap_or(0);
                        Count {
                            size: Size {
                                events: inner.size.events,
                                steps: inner.size.steps.saturating_add(n).saturating_add(1),
                            },
                            ops: body_ops.saturating_add(1),
                            loop_events: inner.loop_events,
                        }
                    }
                }
                Stmt::Critical(_, body) => {
                    let b = self.count(body, env)?;
                    add(
                        b,
                        Count {
                            size: Size {
                                events: 2,
                                steps: 2,
                            },
                            ops: 2,
                            loop_events: 0,
                        },
                    )
                }
                Stmt::Branch {
                    then, otherwise, ..
                } => {
                    let (a, b) = (self.count(then, env)?, self.count(otherwise, env)?);
                    Count {
                        size: Size {
                            events: a.size.events.max(b.size.events).saturating_add(1),
                            steps: a.size.steps.max(b.size.steps).saturating_add(2),
                        },
                        ops: a.ops.saturating_add(b.ops).saturating_add(1),
                        loop_events: a.loop_events.max(b.loop_events),
                    }
                }
                _ => Count {
                    size: Size {
                        events: 1,
                        steps: 1,
                    },
                    ops: 1,
                    loop_events: 0,
                },
            };
            c = add(c, one);
        }
        Ok(c)
    }

    fn index(&self, r: &Ref, env: &Env, len: usize, what: &str) -> Result<usize> {
        let Some(i) = &r.index else { return Ok(0) };
        let k = self.whole(i, env, &format!("the index of {what} `{}`", r.name.name))?;
        if k as usize >= len {
            return Err(eval_error(
                self.m,
                i.span.clone(),
                format!(
                    "index {k} of `{}` is out of range: it has {len}",
                    r.name.name
                ),
            ));
        }
        Ok(k as usize)
    }

    fn object(
        &self,
        table: &HashMap<&str, (usize, Option<usize>)>,
        r: &Ref,
        env: &Env,
        what: &str,
    ) -> Result<usize> {
        let (first, len) = table[r.name.name.as_str()];
        Ok(first + self.index(r, env, len.unwrap_or(1), what)?)
    }

    fn threads_of(&self, r: &Ref, env: &Env) -> Result<Vec<ThreadId>> {
        let (first, count) = self.threads[r.name.name.as_str()];
        match &r.index {
            Some(_) => Ok(vec![first + self.index(r, env, count, "the class")?]),
            None => Ok((first..first + count).collect()),
        }
    }

    fn build(&self, stmts: &[Stmt], env: &mut Env, out: &mut Vec<Op>) -> Result<()> {
        for s in stmts {
            match s {
                Stmt::Compute { name, cost } => {
                    let v =
                        self.value(cost, env, &format!("the time of segment `{}`", name.name))?;
                    if v < 0.0 {
                        return Err(eval_error(
                            self.m,
                            cost.span.clone(),
                            format!("segment `{}` takes {} s; a time is ≥ 0", name.name, num(v)),
                        ));
                    }
                    out.push(Op::Compute(v));
                }
                Stmt::Loop { range, body, .. } => {
                    let (first, n) = self.iterations(range, env)?;
                    match range {
                        LoopRange::Var(v, ..) if uses(body, &v.name) => {
                            env.push(&v.name, first);
                            for k in 0..n {
                                env.set_last(first + k as f64);
                                self.build(body, env, out)?;
                            }
                            env.pop();
                        }
                        LoopRange::Var(v, ..) => {
                            env.push(&v.name, first);
                            let mut inner = Vec::new();
                            self.build(body, env, &mut inner)?;
                            env.pop();
                            out.push(Op::Loop {
                                count: n,
                                body: inner,
                            });
                        }
                        LoopRange::Count(_) => {
                            let mut inner = Vec::new();
                            self.build(body, env, &mut inner)?;
                            out.push(Op::Loop {
                                count: n,
                                body: inner,
                            });
                        }
                    }
                }
                Stmt::Barrier(r) => out.push(Op::Barrier(self.barriers[r.name.name.as_str()])),
                Stmt::Lock(r) => {
                    out.push(Op::Lock(self.object(&self.locks, r, env, "the lock")?))
                }
                Stmt::Unlock(r) => {
                    out.push(Op::Unlock(self.object(&self.locks, r, env, "the lock")?))
                }
                Stmt::Critical(r, body) => {
                    let l = self.object(&self.locks, r, env, "the lock")?;
                    out.push(Op::Lock(l));
                    self.build(body, env, out)?;
                    out.push(Op::Unlock(l));
                }
                Stmt::Fork(r) => out.push(Op::Fork(self.threads_of(r, env)?)),
                Stmt::Join(r) => out.push(Op::Join(self.threads_of(r, env)?)),
                Stmt::Send(r, bytes) => {
                    let channel = self.object(&self.channels, r, env, "the channel")?;
                    let bytes = match bytes {
                        Some(b) => self.whole(b, env, "the message's size")?,
                        None => 0,
                    };
                    out.push(Op::Send { channel, bytes });
                }
                Stmt::Recv(r) => out.push(Op::Recv {
                    channel: self.object(&self.channels, r, env, "the channel")?,
                }),
                Stmt::Branch {
                    probability,
                    then,
                    otherwise,
                } => {
                    let p = self.probability(probability, env)?;
                    let (mut a, mut b) = (Vec::new(), Vec::new());
                    self.build(then, env, &mut a)?;
                    self.build(otherwise, env, &mut b)?;
                    out.push(Op::Branch {
                        probability: p,
                        then: a,
                        otherwise: b,
                    });
                }
                Stmt::Mark(_) => out.push(Op::Mark),
            }
        }
        Ok(())
    }
}

fn add(a: Count, b: Count) -> Count {
    Count {
        size: Size {
            events: a.size.events.saturating_add(b.size.events),
            steps: a.size.steps.saturating_add(b.size.steps),
        },
        ops: a.ops.saturating_add(b.ops),
        loop_events: a.loop_events.saturating_add(b.loop_events),
    }
}

fn times(a: Count, n: u64) -> Count {
    Count {
        size: Size {
            events: a.size.events.saturating_mul(n),
            steps: a.size.steps.saturating_mul(n),
        },
        ops: a.ops.saturating_mul(n),
        loop_events: a.loop_events.saturating_mul(n),
    }
}

/// `e` in `vars` then `coeffs`.
fn eval_with(
    e: &Expr,
    vars: &[(Name, f64)],
    coeffs: &[(Name, f64)],
) -> std::result::Result<f64, String> {
    struct Both<'a>(&'a [(Name, f64)], &'a [(Name, f64)]);
    impl expr::eval::EnvF64 for Both<'_> {
        fn lookup(&self, name: &str) -> Option<f64> {
            self.0
                .iter()
                .rev()
                .chain(self.1)
                .find(|(n, _)| &**n == name)
                .map(|(_, v)| *v)
        }
    }
    eval_f64(e, &Both(vars, coeffs), &EvalLimits::default()).map_err(|err| err.to_string())
}

/// Whether any expression in `stmts` uses `var`.
fn uses(stmts: &[Stmt], var: &str) -> bool {
    any_expr(
        stmts,
        &mut |e| e.expr.free_vars().iter().any(|v| &**v == var),
        true,
    )
}

/// Whether a nested loop bound or branch probability in `stmts` uses `var`.
fn bounds_use(stmts: &[Stmt], var: &str) -> bool {
    any_expr(
        stmts,
        &mut |e| e.expr.free_vars().iter().any(|v| &**v == var),
        false,
    )
}

/// Whether `f` holds for an expression of `stmts`: every expression when `all`, else only
/// loop bounds.
fn any_expr(stmts: &[Stmt], f: &mut impl FnMut(&Spanned) -> bool, all: bool) -> bool {
    stmts.iter().any(|s| match s {
        Stmt::Compute { cost, .. } => all && f(cost),
        Stmt::Loop { range, body, .. } => {
            let bound = match range {
                LoopRange::Count(c) => f(c),
                LoopRange::Var(_, a, b) => f(a) || f(b),
            };
            bound || any_expr(body, f, all)
        }
        Stmt::Branch {
            probability,
            then,
            otherwise,
        } => (all && f(probability)) || any_expr(then, f, all) || any_expr(otherwise, f, all),
        Stmt::Critical(r, body) => {
            (all && r.index.as_ref().is_some_and(&mut *f)) || any_expr(body, f, all)
        }
        Stmt::Send(r, b) => {
            all && (r.index.as_ref().is_some_and(&mut *f) || b.as_ref().is_some_and(&mut *f))
        }
        Stmt::Lock(r)
        | Stmt::Unlock(r)
        | Stmt::Fork(r)
        | Stmt::Join(r)
        | Stmt::Recv(r)
        | Stmt::Barrier(r) => all && r.index.as_ref().is_some_and(&mut *f),
        Stmt::Mark(_) => false,
    })
}

/// Counts Θ, the steps and the graph's size for `b`, without building anything.
///
/// # Errors
/// As [`instantiate`], but for the limits on steps and ops.
pub fn count(m: &Model, b: &Bindings, limits: &Limits) -> Result<(Count, Vec<(String, f64)>)> {
    let (mut ctx, params, sizes) = prepare(m, b, limits)?;
    let mut total = Count::default();
    for (t, &(first, n)) in m.threads.iter().zip(&sizes) {
        let _ = first;
        let mut env = Env::of(&params);
        match &t.class {
            Some((var, _)) => {
                env.push(&var.name, 0.0);
                if uses(&t.body, &var.name) {
                    for i in 0..n {
                        env.set_last(i as f64);
                        total = add(total, ctx.count(&t.body, &mut env)?);
                    }
                } else {
                    total = add(total, times(ctx.count(&t.body, &mut env)?, n as u64));
                }
            }
            None => total = add(total, ctx.count(&t.body, &mut env)?),
        }
    }
    // Each thread's end.
    let threads: usize = sizes.iter().map(|s| s.1).sum();
    total.size.steps = total.size.steps.saturating_add(threads as u64);
    Ok((total, params))
}

/// The parameters' values (derived ones computed), the name tables, and each declared
/// thread's first index and instance count.
#[allow(clippy::type_complexity)]
fn prepare<'a>(
    m: &'a Model,
    b: &Bindings,
    limits: &Limits,
) -> Result<(Ctx<'a>, Vec<(String, f64)>, Vec<(ThreadId, usize)>)> {
    let mut env = Env::default();
    let mut params = Vec::new();
    let mut missing = Vec::new();
    for (name, _) in &b.params {
        match m.params.iter().find(|p| &p.name.name == name) {
            None => {
                let known = m.params.iter().map(|p| p.name.name.as_str());
                let hint = diag::did_you_mean(&diag::suggest(name, known)).unwrap_or_else(|| {
                    "the model's parameters are the `param` declarations".to_string()
                });
                return Err(ModelError::new(
                    ErrorKind::Binding,
                    format!("the model has no parameter `{name}`"),
                )
                .help(hint));
            }
            Some(p) if p.value.is_some() => {
                return Err(ModelError::new(
                    ErrorKind::Binding,
                    format!(
                        "`{name}` is derived from other parameters and cannot be given a value"
                    ),
                )
                .at(&m.name, &m.text, p.name.span.clone(), "defined here"))
            }
            Some(_) => {}
        }
    }
    let ctx0 = Ctx {
        m,
        limits: *limits,
        coeffs: b
            .coeffs
            .iter()
            .map(|(k, v)| (Name::from(k.as_str()), *v))
            .collect(),
        threads: HashMap::new(),
        barriers: HashMap::new(),
        locks: HashMap::new(),
        channels: HashMap::new(),
        walked: 0,
    };
    for p in &m.params {
        let v = match &p.value {
            // Derived ones once every given one has a value.
            Some(_) if !missing.is_empty() => f64::NAN,
            Some(def) => ctx0.value(def, &env, &format!("parameter `{}`", p.name.name))?,
            None => match b.params.iter().find(|(k, _)| *k == p.name.name) {
                Some(&(_, v)) if v.is_finite() => v,
                Some(&(_, v)) => {
                    return Err(ModelError::new(
                        ErrorKind::Binding,
                        format!("parameter `{}` = {v} is not a finite number", p.name.name),
                    ))
                }
                None => {
                    missing.push(p.name.name.clone());
                    f64::NAN
                }
            },
        };
        env.push(&p.name.name, v);
        params.push((p.name.name.clone(), v));
    }
    if !missing.is_empty() {
        let list: Vec<String> = missing.iter().map(|n| format!("`{n}`")).collect();
        return Err(ModelError::new(
            ErrorKind::Binding,
            format!("parameters without a value: {}", list.join(", ")),
        )
        .missing(missing));
    }
    // Bounds once every parameter has a value (a bound may use an earlier one).
    for (p, (_, v)) in m.params.iter().zip(&params) {
        ctx0.within_bounds(p, *v, &env)?;
    }
    let mut ctx = ctx0;
    let mut sizes = Vec::new();
    let mut next = 0usize;
    for t in &m.threads {
        let n = match &t.class {
            Some((_, count)) => ctx.whole(
                count,
                &env,
                &format!("the instance count of `{}`", t.name.name),
            )? as usize,
            None => 1,
        };
        if n as u64 > limits.max_ops {
            let what = format!("`{}` has {n} instances, over", t.name.name);
            return Err(ctx.over_ops(what, limits));
        }
        ctx.threads.insert(&t.name.name, (next, n));
        sizes.push((next, n));
        next += n;
    }
    for (i, bd) in m.barriers.iter().enumerate() {
        ctx.barriers.insert(&bd.name.name, i);
    }
    let arrays = |decls: &'a [crate::lang::ArrayDecl],
                  ctx: &Ctx<'a>|
     -> Result<HashMap<&'a str, (usize, Option<usize>)>> {
        let mut table = HashMap::new();
        let mut at = 0usize;
        for d in decls {
            let len = match &d.size {
                Some(s) => {
                    Some(ctx.whole(s, &env, &format!("the length of `{}`", d.name.name))? as usize)
                }
                None => None,
            };
            table.insert(d.name.name.as_str(), (at, len));
            at += len.unwrap_or(1);
            if at as u64 > limits.max_ops {
                let what = format!("`{}` is longer than", d.name.name);
                return Err(ctx.over_ops(what, limits));
            }
        }
        Ok(table)
    };
    ctx.locks = arrays(&m.locks, &ctx)?;
    ctx.channels = arrays(&m.channels, &ctx)?;
    Ok((ctx, params, sizes))
}

/// Instantiates `m` with `b`: Θ and the graph's size are counted and checked against
/// `limits` first, then the graph is built.
///
/// # Errors
/// A [`ModelError`]: a parameter without a value (listed in `missing`) or unknown, a
/// coefficient without a value, a count or index that is not a whole number in range, a
/// negative time, a probability outside [0, 1], or a limit (the message gives Θ).
pub fn instantiate(m: &Model, b: &Bindings, limits: &Limits) -> Result<Instance> {
    let (counted, params) = count(m, b, limits)?;
    let unbound: Vec<String> = m
        .coeffs
        .iter()
        .map(|c| c.name.clone())
        .filter(|c| !b.coeffs.iter().any(|(k, _)| k == c))
        .filter(|c| !crate::lang::segments_using(m, c).is_empty())
        .collect();
    if !unbound.is_empty() {
        let list: Vec<String> = unbound.iter().map(|n| format!("`{n}`")).collect();
        let mut e = ModelError::new(
            ErrorKind::Binding,
            format!("coefficients without a value: {}", list.join(", ")),
        );
        e.missing_coeffs = unbound;
        return Err(e);
    }
    if counted.size.steps > limits.max_steps || counted.ops > limits.max_ops {
        // The first limit it is over (both may be: the message gives both counts).
        let reached = if counted.size.steps > limits.max_steps {
            Reached::new(Limit::TraversalSteps, limits.max_steps)
        } else {
            Reached::new(Limit::GraphOps, limits.max_ops)
        };
        return Err(ModelError::limit(
            reached,
            format!(
                "the instantiated graph has Θ = {} event processings, {} steps and {} ops, over the limits of {} steps and {} ops",
                counted.size.events, counted.size.steps, counted.ops, limits.max_steps, limits.max_ops
            ),
        )
        .help(RAISE));
    }
    let (ctx, _, sizes) = prepare(m, b, limits)?;
    let mut threads = Vec::new();
    let mut clusters = Vec::new();
    for (t, &(_, n)) in m.threads.iter().zip(&sizes) {
        if t.class.is_some() {
            clusters.push((t.name.name.clone(), threads.len()..threads.len() + n));
        }
        let mut env = Env::of(&params);
        if let Some((var, _)) = &t.class {
            env.push(&var.name, 0.0);
        }
        for i in 0..n {
            if t.class.is_some() {
                env.set_last(i as f64);
            }
            let mut ops = Vec::new();
            ctx.build(&t.body, &mut env, &mut ops)?;
            threads.push(Thread {
                name: if t.class.is_some() {
                    format!("{}[{i}]", t.name.name)
                } else {
                    t.name.name.clone()
                },
                ops,
                stands_for: 1,
            });
        }
    }
    let mut barriers = Vec::new();
    let env = Env::of(&params);
    for bd in &m.barriers {
        let n = ctx.whole(
            &bd.participants,
            &env,
            &format!("the participants of barrier `{}`", bd.name.name),
        )?;
        barriers.push(Barrier {
            name: bd.name.name.clone(),
            participants: n as usize,
        });
    }
    let names = |decls: &[crate::lang::ArrayDecl],
                 table: &HashMap<&str, (usize, Option<usize>)>|
     -> Vec<String> {
        let mut out = Vec::new();
        for d in decls {
            match table[d.name.name.as_str()].1 {
                Some(len) => out.extend((0..len).map(|i| format!("{}[{i}]", d.name.name))),
                None => out.push(d.name.name.clone()),
            }
        }
        out
    };
    let graph = Graph {
        threads,
        barriers,
        locks: names(&m.locks, &ctx.locks),
        channels: names(&m.channels, &ctx.channels),
    };
    // The count's size is the graph's (a test checks it): no second pass.
    Ok(Instance {
        graph,
        size: counted.size,
        params,
        loop_events: counted.loop_events,
        clusters,
    })
}

/// What one segment costs over a whole run, as a linear function of the coefficients:
/// `base + Σ terms[g].1 · c_g`, summed over every thread and iteration that runs it (a
/// branch's arms weighted by their probabilities).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SegmentTerms {
    /// The segment's name (`compute NAME = …`).
    pub name: String,
    /// The part that no coefficient multiplies.
    pub base: f64,
    /// Per coefficient the segment uses: the sum of its factor, 𝓕_g of the paper.
    pub terms: Vec<(String, f64)>,
    /// How many times the segment runs (expected, with branches).
    pub runs: f64,
}

impl Ctx<'_> {
    /// The cost of `cost` split into its coefficient-free part and each coefficient's
    /// factor, checking that it is linear in them.
    fn split(&mut self, name: &str, cost: &Spanned, env: &Env) -> Result<(f64, Vec<(usize, f64)>)> {
        let used: Vec<usize> = (0..self.coeffs.len())
            .filter(|&g| cost.expr.free_vars().iter().any(|v| *v == self.coeffs[g].0))
            .collect();
        for c in &mut self.coeffs {
            c.1 = 0.0;
        }
        let what = format!("the time of segment `{name}`");
        let base = self.value(cost, env, &what)?;
        let mut factors = Vec::with_capacity(used.len());
        for &g in &used {
            self.coeffs[g].1 = 1.0;
            let one = self.value(cost, env, &what)? - base;
            self.coeffs[g].1 = 2.0;
            let two = self.value(cost, env, &what)? - base;
            self.coeffs[g].1 = 0.0;
            if (two - 2.0 * one).abs()
                > 1e-9 * (two.abs() + one.abs() + base.abs()).max(f64::MIN_POSITIVE)
            {
                let coeff = self.coeffs[g].0.to_string();
                return Err(ModelError::new(
                    ErrorKind::Evaluation,
                    format!("the time of segment `{name}` is not linear in the coefficient `{coeff}`"),
                )
                .at(&self.m.name, &self.m.text, cost.span.clone(), "here")
                .help("samples fit a sum of terms, each a coefficient times a function of the parameters"));
            }
            factors.push((g, one));
        }
        Ok((base, factors))
    }

    /// Adds `stmts`, run `weight` times, to `acc`.
    fn tally(
        &mut self,
        stmts: &[Stmt],
        env: &mut Env,
        weight: f64,
        acc: &mut Vec<SegmentTerms>,
    ) -> Result<()> {
        for s in stmts {
            match s {
                Stmt::Compute { name, cost } => {
                    let (base, factors) = self.split(&name.name, cost, env)?;
                    let slot = match acc.iter().position(|t| t.name == name.name) {
                        Some(i) => i,
                        None => {
                            acc.push(SegmentTerms {
                                name: name.name.clone(),
                                ..SegmentTerms::default()
                            });
                            acc.len() - 1
                        }
                    };
                    let t = &mut acc[slot];
                    t.base += weight * base;
                    t.runs += weight;
                    for (g, f) in factors {
                        let coeff = self.coeffs[g].0.to_string();
                        match t.terms.iter_mut().find(|(c, _)| *c == coeff) {
                            Some(term) => term.1 += weight * f,
                            None => t.terms.push((coeff, weight * f)),
                        }
                    }
                }
                Stmt::Loop { range, body, at } => {
                    let (first, n) = self.iterations(range, env)?;
                    match range {
                        LoopRange::Var(v, ..) if uses(body, &v.name) => {
                            env.push(&v.name, first);
                            for k in 0..n {
                                self.walk(
                                    at,
                                    "summing the segments",
                                    "this loop's body uses its variable",
                                )?;
                                env.set_last(first + k as f64);
                                self.tally(body, env, weight, acc)?;
                            }
                            env.pop();
                        }
                        _ => self.tally(body, env, weight * n as f64, acc)?,
                    }
                }
                Stmt::Critical(_, body) => self.tally(body, env, weight, acc)?,
                Stmt::Branch {
                    probability,
                    then,
                    otherwise,
                } => {
                    let p = self.probability(probability, env)?;
                    self.tally(then, env, weight * p, acc)?;
                    self.tally(otherwise, env, weight * (1.0 - p), acc)?;
                }
                _ => {}
            }
        }
        Ok(())
    }
}

/// Every segment's cost over a run at the parameters of `b` as a linear function of the
/// coefficients (the coefficients' values in `b` are not used): the columns of the fit of
/// the coefficients from sample runs.
///
/// # Errors
/// As [`instantiate`]; also a segment time that is not linear in a coefficient.
pub fn segment_terms(m: &Model, b: &Bindings, limits: &Limits) -> Result<Vec<SegmentTerms>> {
    let unit = Bindings {
        params: b.params.clone(),
        coeffs: m.coeffs.iter().map(|c| (c.name.clone(), 0.0)).collect(),
    };
    let (mut ctx, params, sizes) = prepare(m, &unit, limits)?;
    let mut acc = Vec::new();
    for (t, &(_, n)) in m.threads.iter().zip(&sizes) {
        let mut env = Env::of(&params);
        match &t.class {
            Some((var, _)) if uses(&t.body, &var.name) => {
                env.push(&var.name, 0.0);
                for i in 0..n {
                    env.set_last(i as f64);
                    ctx.tally(&t.body, &mut env, 1.0, &mut acc)?;
                }
            }
            _ => ctx.tally(&t.body, &mut env, n as f64, &mut acc)?,
        }
    }
    Ok(acc)
}

/// The model's working set at the parameters of `b` (its `memory` declaration), in bytes;
/// `None` when it declares none.
///
/// # Errors
/// As [`instantiate`]'s parameter errors; a working set that is not a finite number ≥ 0.
pub fn working_set(m: &Model, b: &Bindings) -> Result<Option<f64>> {
    let Some(mem) = &m.memory else {
        return Ok(None);
    };
    let (ctx, params, _) = prepare(m, b, &Limits::default())?;
    let env = Env::of(&params);
    let v = ctx.value(mem, &env, "the working set")?;
    if v < 0.0 {
        return Err(eval_error(
            m,
            mem.span.clone(),
            format!("the working set is {} bytes; it is ≥ 0", num(v)),
        ));
    }
    Ok(Some(v))
}
