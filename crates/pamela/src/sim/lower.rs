//! Lowering a checked [`Model`] into the simulator's flat program.
//!
//! Each process body is lowered once, whatever the number of call sites, into [`Node`]s
//! addressed by index. Names are resolved to slots of a per-process *frame*: the formal
//! arguments occupy slots `0 .. nargs`, and a loop variable at loop-nesting depth `d`
//! occupies slot `nargs + d` (sibling loops share slots). Parameters become constants.
//! Resource multiplicities and family sizes are evaluated here, once.

use super::eval::{snap, Cnd, Ev, Resolver};
use crate::diag::{ErrorKind, ModelError};
use crate::model::{Binding, Compose, Model, ProcId, Term, TermKind};
use expr::Name;
use miette::SourceSpan;

/// "No node" / "no thread" marker.
pub(crate) const NONE: u32 = u32::MAX;

/// Family members (over all resources) the simulator will allocate state for.
pub const MAX_MEMBERS: u64 = 4_000_000;

/// One instruction of the lowered program.
#[derive(Debug)]
pub(crate) enum Node {
    Skip,
    Delay {
        time: Ev,
    },
    Use {
        res: u32,
        index: Option<Ev>,
        time: Ev,
    },
    /// Children are `kids[first .. first + len]`.
    Seq {
        first: u32,
        len: u32,
    },
    Par {
        first: u32,
        len: u32,
        /// Index into [`Program::scopes`]: the scope the children are spawned in.
        scope: u32,
    },
    Loop {
        par: bool,
        slot: u32,
        lo: Ev,
        hi: Ev,
        body: u32,
        /// For a `par` loop, index into [`Program::scopes`] of the scope the children are
        /// spawned in (with the loop variable); `NONE` for a `seq` loop.
        scope: u32,
    },
    If {
        cond: Cnd,
        then: u32,
        els: u32,
    },
    Call {
        body: u32,
        frame: u32,
        args: Box<[Ev]>,
    },
}

/// A resource after evaluating its declaration.
#[derive(Debug)]
pub(crate) struct ResInfo {
    pub name: String,
    /// Index of member 0 in the flat member arrays.
    pub first: u32,
    /// Number of members (1 for a plain resource).
    pub members: u32,
    /// Declared as a family `r[n]`.
    pub family: bool,
    /// Servers per member; `None`: infinite.
    pub multiplicity: Option<u64>,
}

/// What a trace lane name needs to know about the place where a thread is spawned: the
/// process whose body holds the `par`, and the variables of its frame there.
#[derive(Debug)]
pub(crate) struct Scope {
    pub process: Name,
    /// Variable names by frame slot (arguments, then enclosing loop variables).
    pub vars: Vec<Name>,
}

/// The lowered model.
#[derive(Debug)]
pub(crate) struct Program {
    pub nodes: Vec<Node>,
    pub spans: Vec<SourceSpan>,
    /// Spawn scopes of `par` nodes and of the root, for trace lane names.
    pub scopes: Vec<Scope>,
    pub kids: Vec<u32>,
    pub res: Vec<ResInfo>,
    /// Total number of family members.
    pub members: u32,
    /// Root body node, frame size and spawn scope.
    pub root: u32,
    pub root_frame: u32,
    pub root_scope: u32,
}

struct Lowerer<'a> {
    model: &'a Model,
    binding: &'a Binding,
    prog: Program,
    /// Per process: lowered (body node, frame size), or `None` while in progress.
    procs: Vec<Option<Option<(u32, u32)>>>,
    /// The process being lowered.
    current: ProcId,
}

fn err(
    model: &Model,
    kind: ErrorKind,
    span: SourceSpan,
    msg: String,
    label: &str,
) -> Box<ModelError> {
    Box::new(ModelError::new(kind, msg).at(&model.source, span, label))
}

/// Lowers `model` with `root` as the entry process.
pub(crate) fn lower(
    model: &Model,
    root: ProcId,
    binding: &Binding,
) -> Result<Program, Box<ModelError>> {
    let Some(rp) = model.processes.get(root) else {
        return Err(Box::new(ModelError::new(
            ErrorKind::UndefinedName,
            format!("no process with index {root}"),
        )));
    };
    if !rp.args.is_empty() {
        return Err(err(
            model,
            ErrorKind::Arity,
            rp.span,
            format!(
                "process `{}` takes {} argument(s); only a process without arguments can be simulated",
                rp.name,
                rp.args.len()
            ),
            "simulated process",
        ));
    }
    for p in &model.params {
        if binding.get(&p.name).is_none() {
            return Err(err(
                model,
                ErrorKind::Binding,
                p.span,
                format!("parameter `{}` has no value", p.name),
                "declared here",
            )
            .with_help("the simulator needs a value for every parameter")
            .with_missing([&*p.name])
            .into());
        }
    }
    let mut l = Lowerer {
        model,
        binding,
        prog: Program {
            nodes: Vec::new(),
            spans: Vec::new(),
            scopes: Vec::new(),
            kids: Vec::new(),
            res: Vec::new(),
            members: 0,
            root: 0,
            root_frame: 0,
            root_scope: 0,
        },
        procs: vec![None; model.processes.len()],
        current: root,
    };
    l.resources()?;
    let (body, frame) = l.process(root, rp.span)?;
    l.prog.root = body;
    l.prog.root_frame = frame;
    l.prog.root_scope = l.scope(root, &[]);
    Ok(l.prog)
}

impl Lowerer<'_> {
    fn resources(&mut self) -> Result<(), Box<ModelError>> {
        let model = self.model;
        let mut total: u64 = 0;
        for r in &model.resources {
            let res = Resolver {
                scope: &[],
                params: &self.binding.values,
            };
            let positive_int = |e: &expr::Expr, what: &str| -> Result<u64, Box<ModelError>> {
                let v = res.expr(e).and_then(|ev| ev.eval(&[])).map_err(|m| {
                    err(
                        model,
                        ErrorKind::Evaluation,
                        r.span,
                        m,
                        "in this declaration",
                    )
                })?;
                let s = snap(v);
                if !(s.is_finite() && s >= 1.0 && s.fract() == 0.0 && s < 9.0e15) {
                    return Err(err(
                        model,
                        ErrorKind::Multiplicity,
                        r.span,
                        format!(
                            "the {what} of resource `{}` is {v}, not a positive integer",
                            r.name
                        ),
                        "declared here",
                    ));
                }
                Ok(s as u64)
            };
            let multiplicity = match &r.multiplicity {
                Some(e) => Some(positive_int(e, "multiplicity")?),
                None => None,
            };
            let members = match &r.family {
                Some(e) => positive_int(e, "family size")?,
                None => 1,
            };
            total += members;
            if total > MAX_MEMBERS {
                return Err(err(
                    model,
                    ErrorKind::Limit,
                    r.span,
                    format!(
                        "resource families have more than {MAX_MEMBERS} members in total; the simulator keeps state per member"
                    ),
                    "this family",
                ));
            }
            self.prog.res.push(ResInfo {
                name: r.name.to_string(),
                first: (total - members) as u32,
                members: members as u32,
                family: r.family.is_some(),
                multiplicity,
            });
        }
        self.prog.members = total as u32;
        Ok(())
    }

    /// Lowers process `p` once; returns its body node and frame size.
    fn process(&mut self, p: ProcId, call_span: SourceSpan) -> Result<(u32, u32), Box<ModelError>> {
        match self.procs[p] {
            Some(Some(done)) => return Ok(done),
            Some(None) => {
                return Err(err(
                    self.model,
                    ErrorKind::Recursion,
                    call_span,
                    format!("process `{}` calls itself", self.model.processes[p].name),
                    "recursive call",
                ))
            }
            None => {}
        }
        self.procs[p] = Some(None);
        let proc = &self.model.processes[p];
        let mut scope: Vec<Name> = proc.args.clone();
        let mut frame = scope.len() as u32;
        let caller = std::mem::replace(&mut self.current, p);
        let body = self.term(&proc.body, &mut scope, &mut frame);
        self.current = caller;
        let body = body?;
        let done = (body, frame);
        self.procs[p] = Some(Some(done));
        Ok(done)
    }

    /// Records a spawn scope: process `p` with frame variables `vars`.
    fn scope(&mut self, p: ProcId, vars: &[Name]) -> u32 {
        let id = self.prog.scopes.len() as u32;
        self.prog.scopes.push(Scope {
            process: self.model.processes[p].name.clone(),
            vars: vars.to_vec(),
        });
        id
    }

    fn push(&mut self, node: Node, span: SourceSpan) -> u32 {
        let id = self.prog.nodes.len() as u32;
        self.prog.nodes.push(node);
        self.prog.spans.push(span);
        id
    }

    fn ev(&self, e: &expr::Expr, scope: &[Name], span: SourceSpan) -> Result<Ev, Box<ModelError>> {
        Resolver {
            scope,
            params: &self.binding.values,
        }
        .expr(e)
        .map_err(|m| err(self.model, ErrorKind::UndefinedName, span, m, "here"))
    }

    fn term(
        &mut self,
        t: &Term,
        scope: &mut Vec<Name>,
        frame: &mut u32,
    ) -> Result<u32, Box<ModelError>> {
        let span = t.span;
        let node = match &t.kind {
            TermKind::Skip => Node::Skip,
            TermKind::Delay(e) => Node::Delay {
                time: self.ev(e, scope, span)?,
            },
            TermKind::Use { res, index, time } => {
                let Some(info) = self.prog.res.get(*res) else {
                    return Err(err(
                        self.model,
                        ErrorKind::UndefinedName,
                        span,
                        format!("no resource with index {res}"),
                        "here",
                    ));
                };
                if info.family != index.is_some() {
                    return Err(err(
                        self.model,
                        ErrorKind::Arity,
                        span,
                        format!(
                            "resource `{}` is {}declared as a family",
                            info.name,
                            if info.family { "" } else { "not " }
                        ),
                        "here",
                    ));
                }
                let index = match index {
                    Some(e) => Some(self.ev(e, scope, span)?),
                    None => None,
                };
                let time = self.ev(time, scope, span)?;
                return Ok(self.push(
                    Node::Use {
                        res: *res as u32,
                        index,
                        time,
                    },
                    span,
                ));
            }
            TermKind::Compose(kind, items) => {
                let mut ids = Vec::with_capacity(items.len());
                for it in items {
                    ids.push(self.term(it, scope, frame)?);
                }
                let first = self.prog.kids.len() as u32;
                let len = ids.len() as u32;
                self.prog.kids.extend(ids);
                match kind {
                    Compose::Seq => Node::Seq { first, len },
                    Compose::Par => Node::Par {
                        first,
                        len,
                        scope: self.scope(self.current, scope),
                    },
                }
            }
            TermKind::Loop(l) => {
                let lo = self.ev(&l.lo, scope, span)?;
                let hi = self.ev(&l.hi, scope, span)?;
                let slot = scope.len() as u32;
                scope.push(l.var.clone());
                *frame = (*frame).max(scope.len() as u32);
                let par = l.kind == Compose::Par;
                let spawn = if par {
                    self.scope(self.current, scope)
                } else {
                    NONE
                };
                let body = self.term(&l.body, scope, frame);
                scope.pop();
                Node::Loop {
                    par,
                    slot,
                    lo,
                    hi,
                    body: body?,
                    scope: spawn,
                }
            }
            TermKind::If { cond, then, els } => {
                let c = Resolver {
                    scope,
                    params: &self.binding.values,
                }
                .cond(cond)
                .map_err(|m| err(self.model, ErrorKind::UndefinedName, span, m, "here"))?;
                let then = self.term(then, scope, frame)?;
                let els = match els {
                    Some(e) => self.term(e, scope, frame)?,
                    None => NONE,
                };
                Node::If { cond: c, then, els }
            }
            TermKind::Call { proc, args } => {
                let Some(callee) = self.model.processes.get(*proc) else {
                    return Err(err(
                        self.model,
                        ErrorKind::UndefinedName,
                        span,
                        format!("no process with index {proc}"),
                        "here",
                    ));
                };
                if callee.args.len() != args.len() {
                    return Err(err(
                        self.model,
                        ErrorKind::Arity,
                        span,
                        format!(
                            "process `{}` takes {} argument(s), called with {}",
                            callee.name,
                            callee.args.len(),
                            args.len()
                        ),
                        "here",
                    ));
                }
                let args = args
                    .iter()
                    .map(|a| self.ev(a, scope, span))
                    .collect::<Result<Box<[Ev]>, _>>()?;
                let (body, callee_frame) = self.process(*proc, span)?;
                Node::Call {
                    body,
                    frame: callee_frame,
                    args,
                }
            }
        };
        Ok(self.push(node, span))
    }
}
