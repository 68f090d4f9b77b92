//! Fast `f64` evaluation for hot loops: an expression is compiled once into a flat
//! instruction array for a small stack machine, then evaluated many times over a slot array
//! (`vals[i]` is the value of `slots[i]`).
//!
//! Evaluation does no heap allocation and no name lookups, and agrees with
//! [`crate::eval::eval_f64`] bit for bit (both use the same primitives, in the same order),
//! including which error is reported. [`Compiled::eval`] may be called from many threads at
//! once; it keeps its working memory on the call stack (or, for large programs, in a
//! thread-local buffer). [`Compiled::eval_with`] takes an explicit [`Scratch`] instead.
//!
//! ```
//! use expr::compile::Compiled;
//! use expr::{Expr, Name};
//! let e = Expr::var("N")
//!     * Expr::max(vec![
//!         Expr::var("P") * Expr::var("tau_s"),
//!         Expr::var("tau_l") + Expr::var("tau_s"),
//!     ]);
//! let slots: Vec<Name> = ["N", "P", "tau_s", "tau_l"].into_iter().map(Name::from).collect();
//! let c = Compiled::new(&e, &slots).unwrap();
//! assert_eq!(c.eval(&[1000.0, 4.0, 1.0, 2.0]).unwrap(), 4000.0);
//! ```

use crate::eval::{fops, EvalError, EvalLimits, Fault};
use crate::node::{CmpOp, Cond, Expr, Fold, FoldOp, Name};
use crate::number::to_f64;
use std::cell::RefCell;
use std::fmt;

/// A binary arithmetic operation.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Bin {
    Add,
    Mul,
    Div,
    Min,
    Max,
}

/// One instruction. Stack effects are noted as `(pops → pushes)`.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Op {
    /// `(0 → 1)` a constant.
    Const(f64),
    /// `(0 → 1)` `vals[i]`.
    Slot(u32),
    /// `(0 → 1)` register `i` (a fold variable).
    Reg(u32),
    /// `(2 → 1)` `a + b`.
    Add,
    /// `(2 → 1)` `a * b`.
    Mul,
    /// `(2 → 1)` `a / b`.
    Div,
    /// `(2 → 1)` `min(a, b)`.
    Min,
    /// `(2 → 1)` `max(a, b)`.
    Max,
    /// `(1 → 1)` `top + c`.
    AddC(f64),
    /// `(1 → 1)` `top * c`.
    MulC(f64),
    /// `(1 → 1)` `top / c`.
    DivC(f64),
    /// `(1 → 1)` `min(top, c)`.
    MinC(f64),
    /// `(1 → 1)` `max(top, c)`.
    MaxC(f64),
    /// `(1 → 1)` `top + vals[i]`.
    AddS(u32),
    /// `(1 → 1)` `top * vals[i]`.
    MulS(u32),
    /// `(1 → 1)` `top / vals[i]`.
    DivS(u32),
    /// `(1 → 1)` `min(top, vals[i])`.
    MinS(u32),
    /// `(1 → 1)` `max(top, vals[i])`.
    MaxS(u32),
    /// `(1 → 1)` `top + register i`.
    AddR(u32),
    /// `(1 → 1)` `top * register i`.
    MulR(u32),
    /// `(1 → 1)` `top / register i`.
    DivR(u32),
    /// `(1 → 1)` `min(top, register i)`.
    MinR(u32),
    /// `(1 → 1)` `max(top, register i)`.
    MaxR(u32),
    /// `(2 → 1)` `a / b^k`, `k >= 2`.
    DivPow(i32),
    /// `(1 → 1)` `top^k`, `k >= 0`.
    Pow(i32),
    /// `(1 → 1)`.
    Floor,
    /// `(1 → 1)`.
    Ceil,
    /// `(1 → 1)`.
    Log,
    /// `(1 → 1)`.
    Log2,
    /// `(2 → 1)` the real power `a^b`.
    Power,
    /// `(2 → 1)`.
    Mod,
    /// `(2 → 1)`.
    Gcd,
    /// `(2 → 1)` 1.0 if the comparison holds, else 0.0.
    Cmp(CmpOp),
    /// `(1 → 1)` checks a probability; with `sample` and a coin, replaces it by a coin flip.
    Prob { sample: bool },
    /// `(1 → 1)` `1 - top`.
    Complement,
    /// `(1 → 1)` jumps to the target when top is 0 (`and` decided false, or `or` decided
    /// true while its running complement product is on the stack).
    JumpIfZero(u32),
    /// `(2 → 1)` `a * b` without a finiteness check (probabilities).
    AndMul,
    /// `(2 → 1)` `q * (1 - p)`.
    OrMul,
    /// `(1 → 0 or 1)` pops `p` into register `reg`; when `p == 0` pushes a 0.0 placeholder
    /// for the then-branch and jumps to the else-branch.
    IfBegin { reg: u32, skip: u32 },
    /// `(0 → 0)` jumps past the else-branch when register `reg` is 1.
    IfMid { reg: u32, end: u32 },
    /// `(2 → 1)` `p*a + (1-p)*b`.
    IfBlend { reg: u32 },
    /// `(2 → 0 or 1)` pops `lo, hi`; for an empty range pushes 0 and jumps to `end`; else
    /// sets up registers `base..base+5` (variable, accumulator, index, count, first).
    FoldInit { op: FoldOp, base: u32, end: u32 },
    /// `(1 → 0 or 1)` folds the body value; loops back to `body` or pushes the result.
    FoldStep { op: FoldOp, base: u32, body: u32 },
    /// Fails with [`EvalError::NonFinite`] (a constant beyond `f64` range).
    Fail,
}

impl Bin {
    /// The instruction applying `self` to the two top stack values.
    fn stack(self) -> Op {
        match self {
            Bin::Add => Op::Add,
            Bin::Mul => Op::Mul,
            Bin::Div => Op::Div,
            Bin::Min => Op::Min,
            Bin::Max => Op::Max,
        }
    }

    /// The instruction applying `self` to the top of stack and a single-instruction operand,
    /// if the operand is a constant, slot or register load.
    fn fused(self, operand: Op) -> Option<Op> {
        Some(match (self, operand) {
            (Bin::Add, Op::Const(c)) => Op::AddC(c),
            (Bin::Mul, Op::Const(c)) => Op::MulC(c),
            (Bin::Div, Op::Const(c)) => Op::DivC(c),
            (Bin::Min, Op::Const(c)) => Op::MinC(c),
            (Bin::Max, Op::Const(c)) => Op::MaxC(c),
            (Bin::Add, Op::Slot(i)) => Op::AddS(i),
            (Bin::Mul, Op::Slot(i)) => Op::MulS(i),
            (Bin::Div, Op::Slot(i)) => Op::DivS(i),
            (Bin::Min, Op::Slot(i)) => Op::MinS(i),
            (Bin::Max, Op::Slot(i)) => Op::MaxS(i),
            (Bin::Add, Op::Reg(i)) => Op::AddR(i),
            (Bin::Mul, Op::Reg(i)) => Op::MulR(i),
            (Bin::Div, Op::Reg(i)) => Op::DivR(i),
            (Bin::Min, Op::Reg(i)) => Op::MinR(i),
            (Bin::Max, Op::Reg(i)) => Op::MaxR(i),
            _ => return None,
        })
    }
}

impl Op {
    /// Whether the instruction needs the general interpreter (jumps, `prob`, folds).
    fn is_control(&self) -> bool {
        matches!(
            self,
            Op::Prob { .. }
                | Op::JumpIfZero(_)
                | Op::IfBegin { .. }
                | Op::IfMid { .. }
                | Op::IfBlend { .. }
                | Op::FoldInit { .. }
                | Op::FoldStep { .. }
        )
    }
}

/// Fold register offsets.
const F_VAR: u32 = 0;
const F_ACC: u32 = 1;
const F_K: u32 = 2;
const F_COUNT: u32 = 3;
const F_FIRST: u32 = 4;
const F_REGS: u32 = 5;

/// Working memory for an evaluation beyond which [`Compiled::eval`] uses a thread-local
/// buffer instead of the call stack.
const STACK_BUF: usize = 32;

/// Programs needing at most this much working memory get a smaller (cheaper) stack buffer.
const SMALL_BUF: usize = 8;

/// The root a program was compiled from, kept to name sub-expressions in errors.
#[derive(Clone, Debug)]
enum Root {
    E(Expr),
    C(Cond),
}

#[derive(Clone, Copy)]
enum NodeRef<'a> {
    E(&'a Expr),
    C(&'a Cond),
}

impl fmt::Display for NodeRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NodeRef::E(e) => e.fmt(f),
            NodeRef::C(c) => c.fmt(f),
        }
    }
}

/// The `n`-th node of `root` in the pre-order the compiler numbers nodes in.
fn nth_node(root: NodeRef<'_>, n: u32) -> Option<NodeRef<'_>> {
    let mut stack = vec![root];
    let mut i = 0u32;
    while let Some(node) = stack.pop() {
        if i == n {
            return Some(node);
        }
        i += 1;
        let mut kids: Vec<NodeRef<'_>> = Vec::new();
        match node {
            NodeRef::E(e) => match e {
                Expr::Num(_) | Expr::Var(_) => {}
                Expr::Add(v) | Expr::Mul(v) | Expr::Min(v) | Expr::Max(v) => {
                    kids.extend(v.iter().map(NodeRef::E))
                }
                Expr::Pow(a, _) | Expr::Floor(a) | Expr::Ceil(a) | Expr::Log(a) | Expr::Log2(a) => {
                    kids.push(NodeRef::E(a))
                }
                Expr::Mod(a, b) | Expr::Gcd(a, b) | Expr::Power(a, b) => {
                    kids.push(NodeRef::E(a));
                    kids.push(NodeRef::E(b));
                }
                Expr::Fold(fd) => {
                    kids.push(NodeRef::E(&fd.lo));
                    kids.push(NodeRef::E(&fd.hi));
                    kids.push(NodeRef::E(&fd.body));
                }
                Expr::If(c, a, b) => {
                    kids.push(NodeRef::C(c));
                    kids.push(NodeRef::E(a));
                    kids.push(NodeRef::E(b));
                }
            },
            NodeRef::C(c) => match c {
                Cond::Const(_) => {}
                Cond::Cmp(_, a, b) => {
                    kids.push(NodeRef::E(a));
                    kids.push(NodeRef::E(b));
                }
                Cond::And(v) | Cond::Or(v) => kids.extend(v.iter().map(NodeRef::C)),
                Cond::Not(x) => kids.push(NodeRef::C(x)),
                Cond::Prob(p) => kids.push(NodeRef::E(p)),
            },
        }
        stack.extend(kids.into_iter().rev());
    }
    None
}

/// Reusable working memory for [`Compiled::eval_with`] and friends.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    mem: Vec<f64>,
}

impl Scratch {
    /// Empty scratch space; it grows to what the largest program needs.
    pub fn new() -> Self {
        Self::default()
    }
}

thread_local! {
    static SCRATCH: RefCell<Vec<f64>> = const { RefCell::new(Vec::new()) };
}

/// Pushes `$v` onto the stack `$mem[..$s]`.
macro_rules! push {
    ($mem:ident, $s:ident, $v:expr) => {{
        $mem[$s] = $v;
        $s += 1;
    }};
}

/// Pops the top `b` of the stack `$mem[..$s]` and replaces the value below it, `a`, by
/// `$f(a, b)`, unwrapped by `$check!` where given.
macro_rules! pop_apply {
    ($mem:ident, $s:ident, $check:ident!($f:path)) => {{
        $s -= 1;
        $mem[$s - 1] = $check!($f($mem[$s - 1], $mem[$s]));
    }};
    ($mem:ident, $s:ident, $f:path) => {{
        $s -= 1;
        $mem[$s - 1] = $f($mem[$s - 1], $mem[$s]);
    }};
}

/// Expands to a `match` on `$op` executing the stack-only instructions (everything but
/// jumps, `prob` and folds) with error checks, followed by the caller's arms for the control
/// instructions: one dispatch per instruction. `$mem` holds the registers and then the
/// stack, whose next free cell is `$s`; `$check!` unwraps a `Result<f64, Fault>`.
macro_rules! checked_dispatch {
    ($op:expr, $mem:ident, $s:ident, $vals:ident, $check:ident, { $($control:tt)* }) => {
        match $op {
            Op::Const(c) => push!($mem, $s, c),
            Op::Slot(i) => push!($mem, $s, $vals[i as usize]),
            Op::Reg(i) => push!($mem, $s, $mem[i as usize]),
            Op::Add => pop_apply!($mem, $s, $check!(fops::add)),
            Op::AddC(c) => $mem[$s - 1] = $check!(fops::add($mem[$s - 1], c)),
            Op::AddS(i) => $mem[$s - 1] = $check!(fops::add($mem[$s - 1], $vals[i as usize])),
            Op::AddR(i) => $mem[$s - 1] = $check!(fops::add($mem[$s - 1], $mem[i as usize])),
            Op::Mul => pop_apply!($mem, $s, $check!(fops::mul)),
            Op::MulC(c) => $mem[$s - 1] = $check!(fops::mul($mem[$s - 1], c)),
            Op::MulS(i) => $mem[$s - 1] = $check!(fops::mul($mem[$s - 1], $vals[i as usize])),
            Op::MulR(i) => $mem[$s - 1] = $check!(fops::mul($mem[$s - 1], $mem[i as usize])),
            Op::Div => pop_apply!($mem, $s, $check!(fops::div)),
            Op::DivC(c) => $mem[$s - 1] = $check!(fops::div($mem[$s - 1], c)),
            Op::DivS(i) => $mem[$s - 1] = $check!(fops::div($mem[$s - 1], $vals[i as usize])),
            Op::DivR(i) => $mem[$s - 1] = $check!(fops::div($mem[$s - 1], $mem[i as usize])),
            Op::Min => pop_apply!($mem, $s, fops::min),
            Op::MinC(c) => $mem[$s - 1] = fops::min($mem[$s - 1], c),
            Op::MinS(i) => $mem[$s - 1] = fops::min($mem[$s - 1], $vals[i as usize]),
            Op::MinR(i) => $mem[$s - 1] = fops::min($mem[$s - 1], $mem[i as usize]),
            Op::Max => pop_apply!($mem, $s, fops::max),
            Op::MaxC(c) => $mem[$s - 1] = fops::max($mem[$s - 1], c),
            Op::MaxS(i) => $mem[$s - 1] = fops::max($mem[$s - 1], $vals[i as usize]),
            Op::MaxR(i) => $mem[$s - 1] = fops::max($mem[$s - 1], $mem[i as usize]),
            Op::DivPow(k) => {
                $s -= 1;
                $mem[$s - 1] = $check!(fops::div_pow($mem[$s - 1], $mem[$s], k));
            }
            Op::Pow(k) => $mem[$s - 1] = $check!(fops::pow($mem[$s - 1], k)),
            Op::Floor => $mem[$s - 1] = $mem[$s - 1].floor(),
            Op::Ceil => $mem[$s - 1] = $mem[$s - 1].ceil(),
            Op::Log => $mem[$s - 1] = $check!(fops::log($mem[$s - 1])),
            Op::Log2 => $mem[$s - 1] = $check!(fops::log2($mem[$s - 1])),
            Op::Power => pop_apply!($mem, $s, $check!(fops::power)),
            Op::Mod => pop_apply!($mem, $s, $check!(fops::modulo)),
            Op::Gcd => pop_apply!($mem, $s, $check!(fops::gcd)),
            Op::Cmp(cmp) => {
                $s -= 1;
                $mem[$s - 1] = if cmp.holds(&$mem[$s - 1], &$mem[$s]) {
                    1.0
                } else {
                    0.0
                };
            }
            Op::Complement => $mem[$s - 1] = 1.0 - $mem[$s - 1],
            Op::AndMul => {
                $s -= 1;
                $mem[$s - 1] *= $mem[$s];
            }
            Op::OrMul => {
                $s -= 1;
                $mem[$s - 1] *= 1.0 - $mem[$s];
            }
            Op::Fail => $check!(Err(Fault::NonFinite)),
            $($control)*
        }
    };
}

/// A compiled program (shared by [`Compiled`] and [`CompiledCond`]).
#[derive(Clone, Debug)]
struct Program {
    code: Vec<Op>,
    /// For each instruction, the pre-order index of the node it reports errors for.
    src: Vec<u32>,
    slots: Vec<Name>,
    /// Slots read by the program (their values must be finite).
    used: Vec<u32>,
    /// Whether every slot is read (then all values are checked in one sweep).
    all_used: bool,
    /// Whether the program is straight-line arithmetic (no jumps, folds or `prob`), which
    /// [`Program::run_simple`] executes.
    simple: bool,
    nregs: usize,
    max_stack: usize,
    limits: EvalLimits,
    root: Root,
}

impl Program {
    /// Compiles over `slots` what `emit` writes; `emit` returns the source it compiled.
    fn compile(
        slots: &[Name],
        limits: EvalLimits,
        emit: impl FnOnce(&mut Compiler<'_>) -> Result<Root, EvalError>,
    ) -> Result<Program, EvalError> {
        let mut c = Compiler::new(slots);
        let root = emit(&mut c)?;
        Ok(c.finish(root, limits))
    }

    fn mem_len(&self) -> usize {
        self.nregs + self.max_stack
    }

    #[cold]
    #[inline(never)]
    fn error(&self, fault: Fault, pc: usize) -> EvalError {
        let root = match &self.root {
            Root::E(e) => NodeRef::E(e),
            Root::C(c) => NodeRef::C(c),
        };
        let node = self
            .src
            .get(pc)
            .and_then(|&n| nth_node(root, n))
            .unwrap_or(root);
        fault.at(&node)
    }

    /// Checks that `vals` has a value for every slot and, unless the straight-line
    /// interpreter (which checks them as it goes) will run, that the values it reads are
    /// finite.
    #[inline]
    fn check_vals(&self, vals: &[f64]) -> Result<(), EvalError> {
        let n = self.slots.len();
        if vals.len() < n {
            return Err(EvalError::UnboundVariable {
                name: self.slots[vals.len()].clone(),
            });
        }
        if self.simple {
            Ok(())
        } else {
            self.check_used(vals)
        }
    }

    /// Checks that the values of the slots the program reads are finite.
    fn check_used(&self, vals: &[f64]) -> Result<(), EvalError> {
        let ok = if self.all_used {
            vals[..self.slots.len()]
                .iter()
                .fold(true, |ok, v| ok & v.is_finite())
        } else {
            self.used.iter().all(|&s| vals[s as usize].is_finite())
        };
        if ok {
            Ok(())
        } else {
            Err(self.bad_value(vals))
        }
    }

    #[cold]
    #[inline(never)]
    fn bad_value(&self, vals: &[f64]) -> EvalError {
        let s = self
            .used
            .iter()
            .copied()
            .find(|&s| !vals[s as usize].is_finite())
            .unwrap_or(0) as usize;
        Fault::NonFinite.at(&self.slots[s])
    }

    /// Runs with working memory from the call stack or a thread-local buffer.
    fn run_auto(
        &self,
        vals: &[f64],
        coin: Option<&mut dyn FnMut(f64) -> bool>,
    ) -> Result<f64, EvalError> {
        self.check_vals(vals)?;
        let need = self.mem_len();
        if need <= SMALL_BUF {
            let mut buf = [0.0f64; SMALL_BUF];
            return self.run(vals, &mut buf[..need], coin);
        }
        if need <= STACK_BUF {
            let mut buf = [0.0f64; STACK_BUF];
            return self.run(vals, &mut buf[..need], coin);
        }
        SCRATCH.with(|cell| match cell.try_borrow_mut() {
            Ok(mut mem) => {
                if mem.len() < need {
                    mem.resize(need, 0.0);
                }
                self.run(vals, &mut mem[..need], coin)
            }
            // Re-entered (e.g. from a coin closure): use fresh memory.
            Err(_) => self.run(vals, &mut vec![0.0; need], coin),
        })
    }

    fn run_with(
        &self,
        vals: &[f64],
        scratch: &mut Scratch,
        coin: Option<&mut dyn FnMut(f64) -> bool>,
    ) -> Result<f64, EvalError> {
        self.check_vals(vals)?;
        let need = self.mem_len();
        if scratch.mem.len() < need {
            scratch.mem.resize(need, 0.0);
        }
        self.run(vals, &mut scratch.mem[..need], coin)
    }

    /// The interpreter for straight-line programs: one loop over the instructions without
    /// per-operation error checks. If anything failed, the checked general interpreter runs
    /// the program again to report the error precisely.
    #[inline(never)]
    fn run_simple(&self, vals: &[f64], mem: &mut [f64]) -> Result<f64, EvalError> {
        let mut sp = 0;
        let mut chk = 0.0;
        for &op in &self.code {
            arith_fast(op, mem, &mut sp, vals, &mut chk);
        }
        if chk == 0.0 {
            Ok(mem[sp - 1])
        } else {
            self.check_used(vals)?;
            self.run_general(vals, mem, None)
        }
    }

    /// Runs the program; `mem` holds the registers followed by the stack.
    #[inline]
    fn run(
        &self,
        vals: &[f64],
        mem: &mut [f64],
        coin: Option<&mut dyn FnMut(f64) -> bool>,
    ) -> Result<f64, EvalError> {
        if self.simple {
            self.run_simple(vals, mem)
        } else {
            self.run_general(vals, mem, coin)
        }
    }

    /// The general interpreter.
    #[inline(never)]
    fn run_general(
        &self,
        vals: &[f64],
        mem: &mut [f64],
        mut coin: Option<&mut dyn FnMut(f64) -> bool>,
    ) -> Result<f64, EvalError> {
        let code = &self.code[..];
        let limit = self.limits.max_fold_iterations;
        let mut used = 0u64;
        let mut sp = self.nregs; // next free stack cell
        let mut pc = 0usize;
        macro_rules! fail {
            ($fault:expr) => {
                return Err(self.error($fault, pc))
            };
        }
        macro_rules! check {
            ($r:expr) => {
                match $r {
                    Ok(v) => v,
                    Err(f) => fail!(f),
                }
            };
        }
        while pc < code.len() {
            checked_dispatch!(code[pc], mem, sp, vals, check, {
                Op::Prob { sample } => {
                    let p = check!(fops::prob(mem[sp - 1]));
                    if sample && p > 0.0 && p < 1.0 {
                        if let Some(flip) = coin.as_mut() {
                            mem[sp - 1] = if flip(p) { 1.0 } else { 0.0 };
                        }
                    }
                }
                Op::JumpIfZero(t) => {
                    if mem[sp - 1] == 0.0 {
                        pc = t as usize;
                        continue;
                    }
                }
                Op::IfBegin { reg, skip } => {
                    let p = mem[sp - 1];
                    mem[reg as usize] = p;
                    if p == 0.0 {
                        mem[sp - 1] = 0.0;
                        pc = skip as usize;
                        continue;
                    }
                    sp -= 1;
                }
                Op::IfMid { reg, end } => {
                    if mem[reg as usize] == 1.0 {
                        pc = end as usize;
                        continue;
                    }
                }
                Op::IfBlend { reg } => {
                    sp -= 1;
                    let p = mem[reg as usize];
                    mem[sp - 1] = if p == 0.0 {
                        mem[sp]
                    } else {
                        check!(fops::blend(p, mem[sp - 1], mem[sp]))
                    };
                }
                Op::FoldInit { op, base, end } => {
                    sp -= 2;
                    let (lo, hi) = (mem[sp], mem[sp + 1]);
                    match check!(fops::fold_range(lo, hi, &mut used, limit)) {
                        None => {
                            mem[sp] = 0.0;
                            sp += 1;
                            pc = end as usize;
                            continue;
                        }
                        Some((first, count)) => {
                            let b = base as usize;
                            mem[b + F_VAR as usize] = first;
                            mem[b + F_ACC as usize] = fops::fold_init(op);
                            mem[b + F_K as usize] = 0.0;
                            mem[b + F_COUNT as usize] = count as f64;
                            mem[b + F_FIRST as usize] = first;
                        }
                    }
                }
                Op::FoldStep { op, base, body } => {
                    sp -= 1;
                    let v = mem[sp];
                    let b = base as usize;
                    let acc = check!(fops::fold_step(op, mem[b + F_ACC as usize], v));
                    let k = mem[b + F_K as usize] + 1.0;
                    if k < mem[b + F_COUNT as usize] {
                        mem[b + F_ACC as usize] = acc;
                        mem[b + F_K as usize] = k;
                        mem[b + F_VAR as usize] = mem[b + F_FIRST as usize] + k;
                        pc = body as usize;
                        continue;
                    }
                    mem[sp] = acc;
                    sp += 1;
                }
            });
            pc += 1;
        }
        Ok(mem[sp - 1])
    }
}

/// Executes one instruction of a straight-line program without per-operation error
/// checks. Instead, every value that could be infinite or NaN (results of `+ * /`, powers,
/// `log`, `log2`, `mod`, and slot values) is folded into `*chk` as `x - x`, which is `0` for
/// finite `x` and NaN otherwise; a fractional `gcd` operand, a real power outside its domain
/// or an instruction that does not belong here makes it NaN too. So `*chk == 0` at the end exactly when the checked interpreter would
/// have succeeded, and then the values computed are those of [`checked_dispatch`], bit for
/// bit.
#[inline(always)]
fn arith_fast(op: Op, mem: &mut [f64], sp: &mut usize, vals: &[f64], chk: &mut f64) {
    let mut s = *sp;
    // `r - r` is deliberate: 0 for finite `r`, NaN otherwise.
    #[allow(clippy::eq_op)]
    let mut fin = |r: f64| {
        *chk += r - r;
        r
    };
    match op {
        Op::Const(c) => {
            mem[s] = c;
            s += 1;
        }
        Op::Slot(i) => {
            mem[s] = fin(vals[i as usize]);
            s += 1;
        }
        Op::Add => {
            s -= 1;
            mem[s - 1] = fin(mem[s - 1] + mem[s]);
        }
        Op::AddC(c) => mem[s - 1] = fin(mem[s - 1] + c),
        Op::AddS(i) => mem[s - 1] = fin(mem[s - 1] + vals[i as usize]),
        Op::Mul => {
            s -= 1;
            mem[s - 1] = fin(mem[s - 1] * mem[s]);
        }
        Op::MulC(c) => mem[s - 1] = fin(mem[s - 1] * c),
        Op::MulS(i) => mem[s - 1] = fin(mem[s - 1] * vals[i as usize]),
        // A zero divisor gives an infinite or NaN quotient, so `fin` catches it.
        Op::Div => {
            s -= 1;
            mem[s - 1] = fin(mem[s - 1] / mem[s]);
        }
        Op::DivC(c) => mem[s - 1] = fin(mem[s - 1] / c),
        Op::DivS(i) => {
            // x / inf would be a finite 0: check the divisor itself.
            let d = fin(vals[i as usize]);
            mem[s - 1] = fin(mem[s - 1] / d);
        }
        Op::Min => {
            s -= 1;
            mem[s - 1] = fops::min(mem[s - 1], mem[s]);
        }
        Op::MinC(c) => mem[s - 1] = fops::min(mem[s - 1], c),
        Op::MinS(i) => mem[s - 1] = fops::min(mem[s - 1], fin(vals[i as usize])),
        Op::Max => {
            s -= 1;
            mem[s - 1] = fops::max(mem[s - 1], mem[s]);
        }
        Op::MaxC(c) => mem[s - 1] = fops::max(mem[s - 1], c),
        Op::MaxS(i) => mem[s - 1] = fops::max(mem[s - 1], fin(vals[i as usize])),
        Op::DivPow(k) => {
            s -= 1;
            let d = mem[s].powi(k);
            // A zero (or underflowed) or infinite power fails like the checked division.
            let d = fin(if d == 0.0 { f64::NAN } else { d });
            mem[s - 1] = fin(mem[s - 1] / d);
        }
        Op::Pow(k) => mem[s - 1] = fin(mem[s - 1].powi(k)),
        Op::Floor => mem[s - 1] = mem[s - 1].floor(),
        Op::Ceil => mem[s - 1] = mem[s - 1].ceil(),
        // ln of 0 is -inf and of a negative number NaN.
        Op::Log => mem[s - 1] = fin(mem[s - 1].ln()),
        Op::Log2 => mem[s - 1] = fin(mem[s - 1].log2()),
        // The checked primitive itself: its domain errors (a negative base with a fractional
        // exponent, 0 to a negative power) make the check fail.
        Op::Power => {
            s -= 1;
            mem[s - 1] = match fops::power(mem[s - 1], mem[s]) {
                Ok(v) => v,
                Err(_) => {
                    *chk = f64::NAN;
                    0.0
                }
            };
        }
        Op::Mod => {
            s -= 1;
            mem[s - 1] = fin(fops::modulo_raw(mem[s - 1], mem[s]));
        }
        Op::Gcd => {
            s -= 1;
            let (a, b) = (mem[s - 1], mem[s]);
            if a.fract() != 0.0 || b.fract() != 0.0 {
                *chk = f64::NAN;
            }
            mem[s - 1] = fops::gcd_raw(a, b);
        }
        Op::Cmp(cmp) => {
            s -= 1;
            mem[s - 1] = if cmp.holds(&mem[s - 1], &mem[s]) {
                1.0
            } else {
                0.0
            };
        }
        Op::Complement => mem[s - 1] = 1.0 - mem[s - 1],
        Op::AndMul => {
            s -= 1;
            mem[s - 1] *= mem[s];
        }
        Op::OrMul => {
            s -= 1;
            mem[s - 1] *= 1.0 - mem[s];
        }
        // Registers and control instructions never occur in straight-line programs; `Fail`
        // always fails. Either way the checked interpreter takes over.
        _ => {
            *chk = f64::NAN;
            mem[s] = 0.0;
            s += 1;
        }
    }
    *sp = s;
}

/// Compiler state.
struct Compiler<'a> {
    slots: &'a [Name],
    code: Vec<Op>,
    src: Vec<u32>,
    used: Vec<u32>,
    nregs: u32,
    depth: usize,
    max_depth: usize,
    next_id: u32,
    /// Fold variables in scope, innermost last, with their registers.
    scope: Vec<(Name, u32)>,
}

impl<'a> Compiler<'a> {
    fn new(slots: &'a [Name]) -> Self {
        Compiler {
            slots,
            code: Vec::new(),
            src: Vec::new(),
            used: Vec::new(),
            nregs: 0,
            depth: 0,
            max_depth: 0,
            next_id: 0,
            scope: Vec::new(),
        }
    }

    fn id(&mut self) -> u32 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    /// Emits `op`, attributing errors to node `id`, with net stack effect `delta`.
    fn emit(&mut self, op: Op, id: u32, delta: isize) -> usize {
        self.code.push(op);
        self.src.push(id);
        self.depth = self.depth.saturating_add_signed(delta);
        self.max_depth = self.max_depth.max(self.depth);
        self.code.len() - 1
    }

    fn here(&self) -> u32 {
        self.code.len() as u32
    }

    fn regs(&mut self, n: u32) -> u32 {
        let r = self.nregs;
        self.nregs += n;
        r
    }

    /// Emits `op` applied to the top of stack and a right operand compiled from `rhs`,
    /// fusing single-instruction operands into the operation.
    fn binary(&mut self, op: Bin, rhs: &Expr, id: u32) -> Result<(), EvalError> {
        let start = self.code.len();
        self.expr(rhs)?;
        if self.code.len() == start + 1 {
            if let Some(f) = op.fused(self.code[start]) {
                self.code[start] = f;
                self.src[start] = id;
                self.depth -= 1;
                return Ok(());
            }
        }
        self.emit(op.stack(), id, -1);
        Ok(())
    }

    /// Compiles `e` to code that pushes its value. Dispatches to small functions so that
    /// deep trees use little stack per level.
    fn expr(&mut self, e: &Expr) -> Result<(), EvalError> {
        let id = self.id();
        match e {
            Expr::Num(r) => {
                let v = to_f64(r);
                let op = if v.is_finite() {
                    Op::Const(v)
                } else {
                    Op::Fail
                };
                self.emit(op, id, 1);
                Ok(())
            }
            Expr::Var(n) => self.var(n, id),
            Expr::Add(v) => self.chain(v, Bin::Add, id),
            Expr::Min(v) => self.chain(v, Bin::Min, id),
            Expr::Max(v) => self.chain(v, Bin::Max, id),
            Expr::Mul(v) => self.mul(v, id),
            Expr::Pow(b, k) if *k < 0 => {
                self.emit(Op::Const(1.0), id, 1);
                self.divide(b, *k, id)
            }
            Expr::Pow(b, k) => self.unary(b, Op::Pow(*k), id),
            Expr::Floor(a) => self.unary(a, Op::Floor, id),
            Expr::Ceil(a) => self.unary(a, Op::Ceil, id),
            Expr::Log(a) => self.unary(a, Op::Log, id),
            Expr::Log2(a) => self.unary(a, Op::Log2, id),
            Expr::Power(b, x) => self.pair(b, x, Op::Power, id),
            Expr::Mod(a, b) => self.pair(a, b, Op::Mod, id),
            Expr::Gcd(a, b) => self.pair(a, b, Op::Gcd, id),
            Expr::Fold(fd) => self.fold(fd, id),
            Expr::If(c, a, b) => self.ite(c, a, b, id),
        }
    }

    #[inline(never)]
    fn var(&mut self, n: &Name, id: u32) -> Result<(), EvalError> {
        if let Some((_, reg)) = self.scope.iter().rev().find(|(v, _)| v == n) {
            let reg = *reg;
            self.emit(Op::Reg(reg), id, 1);
        } else if let Some(i) = self.slots.iter().position(|s| s == n) {
            let i = i as u32;
            if !self.used.contains(&i) {
                self.used.push(i);
            }
            self.emit(Op::Slot(i), id, 1);
        } else {
            return Err(EvalError::UnboundVariable { name: n.clone() });
        }
        Ok(())
    }

    #[inline(never)]
    fn chain(&mut self, v: &[Expr], op: Bin, id: u32) -> Result<(), EvalError> {
        match v.split_first() {
            None => {
                self.emit(Op::Const(0.0), id, 1);
            }
            Some((first, rest)) => {
                self.expr(first)?;
                for t in rest {
                    self.binary(op, t, id)?;
                }
            }
        }
        Ok(())
    }

    #[inline(never)]
    fn mul(&mut self, v: &[Expr], id: u32) -> Result<(), EvalError> {
        if v.is_empty() {
            self.emit(Op::Const(1.0), id, 1);
        }
        for (i, f) in v.iter().enumerate() {
            match f {
                Expr::Pow(b, k) if *k < 0 => {
                    // The power node itself gets a number, like every node.
                    let _pow_id = self.id();
                    if i == 0 {
                        self.emit(Op::Const(1.0), id, 1);
                    }
                    self.divide(b, *k, id)?;
                }
                _ if i == 0 => self.expr(f)?,
                _ => self.binary(Bin::Mul, f, id)?,
            }
        }
        Ok(())
    }

    #[inline(never)]
    fn unary(&mut self, a: &Expr, op: Op, id: u32) -> Result<(), EvalError> {
        self.expr(a)?;
        self.emit(op, id, 0);
        Ok(())
    }

    #[inline(never)]
    fn pair(&mut self, a: &Expr, b: &Expr, op: Op, id: u32) -> Result<(), EvalError> {
        self.expr(a)?;
        self.expr(b)?;
        self.emit(op, id, -1);
        Ok(())
    }

    #[inline(never)]
    fn fold(&mut self, fd: &Fold, id: u32) -> Result<(), EvalError> {
        self.expr(&fd.lo)?;
        self.expr(&fd.hi)?;
        let base = self.regs(F_REGS);
        let init = self.emit(
            Op::FoldInit {
                op: fd.op,
                base,
                end: 0,
            },
            id,
            -2,
        );
        let body = self.here();
        self.scope.push((fd.var.clone(), base + F_VAR));
        let r = self.expr(&fd.body);
        self.scope.pop();
        r?;
        // FoldStep pops the body value and finally pushes the result.
        self.emit(
            Op::FoldStep {
                op: fd.op,
                base,
                body,
            },
            id,
            0,
        );
        let end = self.here();
        self.code[init] = Op::FoldInit {
            op: fd.op,
            base,
            end,
        };
        Ok(())
    }

    #[inline(never)]
    fn ite(&mut self, c: &Cond, a: &Expr, b: &Expr, id: u32) -> Result<(), EvalError> {
        self.cond(c, false)?;
        let reg = self.regs(1);
        // After IfBegin the probability is gone; the then-branch (or a 0.0 placeholder)
        // comes next.
        let begin = self.emit(Op::IfBegin { reg, skip: 0 }, id, -1);
        self.expr(a)?;
        let mid = self.emit(Op::IfMid { reg, end: 0 }, id, 0);
        let skip = self.here();
        self.expr(b)?;
        self.emit(Op::IfBlend { reg }, id, -1);
        let end = self.here();
        self.code[begin] = Op::IfBegin { reg, skip };
        self.code[mid] = Op::IfMid { reg, end };
        Ok(())
    }

    /// Divides the top of stack by `b^(-k)` (`k < 0`).
    fn divide(&mut self, b: &Expr, k: i32, id: u32) -> Result<(), EvalError> {
        if k == -1 {
            self.binary(Bin::Div, b, id)
        } else {
            self.expr(b)?;
            self.emit(Op::DivPow(k.saturating_neg()), id, -1);
            Ok(())
        }
    }

    /// Compiles a condition to code that pushes its probability (or, with `sample`, a coin
    /// flip for each `prob(p)` of the condition itself).
    fn cond(&mut self, c: &Cond, sample: bool) -> Result<(), EvalError> {
        let id = self.id();
        match c {
            Cond::Const(b) => {
                self.emit(Op::Const(if *b { 1.0 } else { 0.0 }), id, 1);
            }
            Cond::Cmp(op, a, b) => {
                self.expr(a)?;
                self.expr(b)?;
                self.emit(Op::Cmp(*op), id, -1);
            }
            Cond::And(v) => match v.split_first() {
                None => {
                    self.emit(Op::Const(1.0), id, 1);
                }
                Some((first, rest)) => {
                    self.cond(first, sample)?;
                    let mut jumps = Vec::new();
                    for x in rest {
                        jumps.push(self.emit(Op::JumpIfZero(0), id, 0));
                        self.cond(x, sample)?;
                        self.emit(Op::AndMul, id, -1);
                    }
                    let end = self.here();
                    for j in jumps {
                        self.code[j] = Op::JumpIfZero(end);
                    }
                }
            },
            Cond::Or(v) => match v.split_first() {
                None => {
                    self.emit(Op::Const(0.0), id, 1);
                }
                Some((first, rest)) => {
                    // Keep the probability that no operand holds; stop when it is 0.
                    self.cond(first, sample)?;
                    self.emit(Op::Complement, id, 0);
                    let mut jumps = Vec::new();
                    for x in rest {
                        jumps.push(self.emit(Op::JumpIfZero(0), id, 0));
                        self.cond(x, sample)?;
                        self.emit(Op::OrMul, id, -1);
                    }
                    let end = self.here();
                    for j in jumps {
                        self.code[j] = Op::JumpIfZero(end);
                    }
                    self.emit(Op::Complement, id, 0);
                }
            },
            Cond::Not(x) => {
                self.cond(x, sample)?;
                self.emit(Op::Complement, id, 0);
            }
            Cond::Prob(p) => {
                self.expr(p)?;
                self.emit(Op::Prob { sample }, id, 0);
            }
        }
        Ok(())
    }

    fn finish(self, root: Root, limits: EvalLimits) -> Program {
        let simple = self.nregs == 0 && !self.code.iter().any(Op::is_control);
        Program {
            code: self.code,
            src: self.src,
            slots: self.slots.to_vec(),
            all_used: self.used.len() == self.slots.len(),
            simple,
            used: self.used,
            nregs: self.nregs as usize,
            max_stack: self.max_depth.max(1),
            limits,
            root,
        }
    }
}

/// An expression compiled for fast `f64` evaluation over a slot array.
#[derive(Clone, Debug)]
pub struct Compiled {
    prog: Program,
}

impl Compiled {
    /// Compiles `e`; `slots[i]` names the value `vals[i]` of later evaluations.
    /// Fold iterations are limited by [`EvalLimits::default`].
    ///
    /// # Errors
    /// [`EvalError::UnboundVariable`] for a free variable of `e` not in `slots`.
    pub fn new(e: &Expr, slots: &[Name]) -> Result<Compiled, EvalError> {
        Compiled::with_limits(e, slots, EvalLimits::default())
    }

    /// [`Compiled::new`] with explicit limits (only `max_fold_iterations` applies).
    pub fn with_limits(
        e: &Expr,
        slots: &[Name],
        limits: EvalLimits,
    ) -> Result<Compiled, EvalError> {
        let prog = Program::compile(slots, limits, |c| {
            c.expr(e)?;
            Ok(Root::E(e.clone()))
        })?;
        Ok(Compiled { prog })
    }

    /// Evaluates with `vals[i]` the value of `slots[i]`; the same result and errors as
    /// [`crate::eval::eval_f64`].
    ///
    /// # Errors
    /// Every [`EvalError`] of `f64` evaluation; [`EvalError::UnboundVariable`] when `vals` is
    /// shorter than `slots`.
    pub fn eval(&self, vals: &[f64]) -> Result<f64, EvalError> {
        self.prog.run_auto(vals, None)
    }

    /// [`Compiled::eval`] with caller-provided working memory.
    pub fn eval_with(&self, vals: &[f64], scratch: &mut Scratch) -> Result<f64, EvalError> {
        self.prog.run_with(vals, scratch, None)
    }

    /// The slot names, in order.
    pub fn slots(&self) -> &[Name] {
        &self.prog.slots
    }

    /// Number of instructions (a measure of evaluation cost without folds).
    pub fn len(&self) -> usize {
        self.prog.code.len()
    }

    /// Whether the program is empty (never: every expression yields an instruction).
    pub fn is_empty(&self) -> bool {
        self.prog.code.is_empty()
    }
}

/// A condition compiled for fast evaluation over a slot array.
#[derive(Clone, Debug)]
pub struct CompiledCond {
    prog: Program,
}

impl CompiledCond {
    /// Compiles `c`; `slots[i]` names the value `vals[i]` of later evaluations.
    ///
    /// # Errors
    /// [`EvalError::UnboundVariable`] for a free variable of `c` not in `slots`.
    pub fn new(c: &Cond, slots: &[Name]) -> Result<CompiledCond, EvalError> {
        CompiledCond::with_limits(c, slots, EvalLimits::default())
    }

    /// [`CompiledCond::new`] with explicit limits (only `max_fold_iterations` applies).
    pub fn with_limits(
        c: &Cond,
        slots: &[Name],
        limits: EvalLimits,
    ) -> Result<CompiledCond, EvalError> {
        let prog = Program::compile(slots, limits, |comp| {
            comp.cond(c, true)?;
            Ok(Root::C(c.clone()))
        })?;
        Ok(CompiledCond { prog })
    }

    /// The probability that the condition holds (as
    /// [`crate::eval::cond_probability_f64`]).
    pub fn probability(&self, vals: &[f64]) -> Result<f64, EvalError> {
        self.prog.run_auto(vals, None)
    }

    /// [`CompiledCond::probability`] with caller-provided working memory.
    pub fn probability_with(&self, vals: &[f64], scratch: &mut Scratch) -> Result<f64, EvalError> {
        self.prog.run_with(vals, scratch, None)
    }

    /// One random outcome: each `prob(p)` of the condition with `0 < p < 1` is decided by
    /// an independent call `coin(p)` (which returns true with probability `p`); `prob(0)` and
    /// `prob(1)` need no coin. `and`/`or` stop at the first operand that decides them, so
    /// later operands draw no coin. A `prob` inside an expression operand (an `if` within a
    /// comparison) still counts as its expectation.
    pub fn sample(
        &self,
        vals: &[f64],
        coin: &mut dyn FnMut(f64) -> bool,
    ) -> Result<bool, EvalError> {
        Ok(self.prog.run_auto(vals, Some(coin))? != 0.0)
    }

    /// [`CompiledCond::sample`] with caller-provided working memory.
    pub fn sample_with(
        &self,
        vals: &[f64],
        scratch: &mut Scratch,
        coin: &mut dyn FnMut(f64) -> bool,
    ) -> Result<bool, EvalError> {
        Ok(self.prog.run_with(vals, scratch, Some(coin))? != 0.0)
    }

    /// The slot names, in order.
    pub fn slots(&self) -> &[Name] {
        &self.prog.slots
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::eval_f64;
    use std::collections::BTreeMap;

    fn names(v: &[&str]) -> Vec<Name> {
        v.iter().map(|s| Name::from(*s)).collect()
    }

    fn closed_form() -> Expr {
        Expr::var("N")
            * Expr::max(vec![
                Expr::var("P") * Expr::var("tau_s"),
                Expr::var("tau_l") + Expr::var("tau_s"),
            ])
    }

    #[test]
    fn closed_form_is_fused_and_small() {
        let c = Compiled::new(&closed_form(), &names(&["N", "P", "tau_s", "tau_l"])).unwrap();
        assert_eq!(
            c.prog.code,
            vec![
                Op::Slot(0),
                Op::Slot(1),
                Op::MulS(2),
                Op::Slot(3),
                Op::AddS(2),
                Op::Max,
                Op::Mul
            ]
        );
        assert_eq!(c.len(), 7);
        assert_eq!(c.eval(&[10.0, 3.0, 2.0, 1.0]).unwrap(), 60.0);
        assert_eq!(c.eval(&[10.0, 1.0, 2.0, 1.0]).unwrap(), 30.0);
    }

    #[test]
    fn missing_values_and_unknown_names() {
        let err = Compiled::new(&closed_form(), &names(&["N", "P"])).unwrap_err();
        assert_eq!(
            err,
            EvalError::UnboundVariable {
                name: "tau_s".into()
            }
        );
        let c = Compiled::new(&closed_form(), &names(&["N", "P", "tau_s", "tau_l"])).unwrap();
        assert_eq!(
            c.eval(&[1.0, 2.0]).unwrap_err(),
            EvalError::UnboundVariable {
                name: "tau_s".into()
            }
        );
        assert!(matches!(
            c.eval(&[1.0, f64::NAN, 1.0, 1.0]),
            Err(EvalError::NonFinite { .. })
        ));
    }

    #[test]
    fn errors_name_the_sub_expression() {
        let e = Expr::int(1) + Expr::var("N") / (Expr::var("P") - Expr::int(4));
        let c = Compiled::new(&e, &names(&["N", "P"])).unwrap();
        let err = c.eval(&[1.0, 4.0]).unwrap_err();
        assert_eq!(err.to_string(), "division by zero in `N/(P - 4)`");
        let env: BTreeMap<Name, f64> = [("N".into(), 1.0), ("P".into(), 4.0)].into();
        assert_eq!(eval_f64(&e, &env, &EvalLimits::default()).unwrap_err(), err);
    }

    #[test]
    fn straight_line_fast_path_reports_what_the_tree_reports() {
        let x = || Expr::var("x");
        let y = || Expr::var("y");
        let cases: Vec<(Expr, f64, f64)> = vec![
            (x() / y(), 1.0, f64::INFINITY),
            (x() / y(), 1.0, 0.0),
            (x() / y(), 0.0, 0.0),
            (Expr::max(vec![x(), y()]), 1.0, f64::NAN),
            (Expr::min(vec![x(), y()]), 1.0, f64::INFINITY),
            (Expr::Pow(Box::new(x()), -2), 1e-200, 0.0),
            (Expr::Pow(Box::new(x()), -2), 0.0, 0.0),
            (Expr::Pow(Box::new(x()), 3), 1e200, 0.0),
            (x() * y() * Expr::int(0), 1e200, 1e200),
            (Expr::Gcd(Box::new(x()), Box::new(Expr::int(2))), 1.5, 0.0),
            (Expr::Log(Box::new(x())), 0.0, 0.0),
            (Expr::Log(Box::new(x())), -1.0, 0.0),
            (Expr::log2(x()), 0.0, 0.0),
            (Expr::log2(x()), -1.0, 0.0),
            (Expr::power(x(), y()), -4.0, 0.5),
            (Expr::power(x(), y()), 0.0, -0.5),
            (Expr::power(x(), y()), 0.0, -1.0),
            (Expr::power(x(), y()), 0.0, -2.0),
            (Expr::power(x(), y()), 10.0, 400.0),
            (Expr::power(x(), y()), 0.5, -2000.5),
            (Expr::power(x(), y()), 1.0, f64::NAN),
            (Expr::Mod(Box::new(x()), Box::new(y())), 1.0, 0.0),
            (
                Expr::Num(crate::number::parse_rational("1e400").unwrap()) * Expr::int(0),
                0.0,
                0.0,
            ),
        ];
        let slots = names(&["x", "y"]);
        for (e, xv, yv) in cases {
            let c = Compiled::new(&e, &slots).unwrap();
            assert!(c.prog.simple, "`{e}` is straight-line");
            let env: BTreeMap<Name, f64> = [("x".into(), xv), ("y".into(), yv)].into();
            let tree = eval_f64(&e, &env, &EvalLimits::default());
            assert!(tree.is_err(), "`{e}` at x={xv}, y={yv} should fail");
            assert_eq!(c.eval(&[xv, yv]), tree, "`{e}` at x={xv}, y={yv}");
        }
    }

    #[test]
    fn real_powers_and_binary_logarithms_match_the_tree() {
        let (x, y) = (|| Expr::var("x"), || Expr::var("y"));
        let exprs = [
            Expr::power(x(), y()),
            Expr::power(x(), Expr::ratio(3, 2)) * y(),
            y() / Expr::power(x(), Expr::ratio(1, 3)),
            Expr::power(Expr::int(2), y()) + Expr::log2(x()),
            Expr::log2(x() * y()) * Expr::power(x(), Expr::log2(Expr::int(7))),
            Expr::power(Expr::power(x(), y()), y()),
        ];
        let points = [-4.0, -1.5, -1.0, 0.0, 0.5, 1.0, 2.0, 3.0, 1e5];
        let slots = names(&["x", "y"]);
        let mut seen = (0, 0);
        for e in &exprs {
            let c = Compiled::new(e, &slots).unwrap();
            assert!(c.prog.simple, "`{e}` is straight-line");
            for xv in points {
                for yv in points {
                    let env: BTreeMap<Name, f64> = [("x".into(), xv), ("y".into(), yv)].into();
                    let tree = eval_f64(e, &env, &EvalLimits::default());
                    if tree.is_ok() {
                        seen.0 += 1;
                    } else {
                        seen.1 += 1;
                    }
                    assert_eq!(c.eval(&[xv, yv]), tree, "`{e}` at x={xv}, y={yv}");
                    let mut s = Scratch::new();
                    assert_eq!(c.eval_with(&[xv, yv], &mut s), tree);
                }
            }
        }
        assert!(
            seen.0 > 100 && seen.1 > 100,
            "values and errors both: {seen:?}"
        );
        // Inside a fold (the general interpreter).
        let e = Expr::sum_over(
            "i",
            Expr::int(1),
            y(),
            Expr::power(x(), Expr::var("i") / y()),
        );
        let c = Compiled::new(&e, &slots).unwrap();
        assert!(!c.prog.simple);
        for (xv, yv) in [(2.0, 4.0), (-2.0, 4.0), (-2.0, 1.0), (0.0, 3.0)] {
            let env: BTreeMap<Name, f64> = [("x".into(), xv), ("y".into(), yv)].into();
            let tree = eval_f64(&e, &env, &EvalLimits::default());
            assert_eq!(c.eval(&[xv, yv]), tree, "`{e}` at x={xv}, y={yv}");
        }
    }

    #[test]
    fn large_programs_use_thread_local_memory() {
        // Deeply right-nested sum: needs a deep stack.
        let mut e = Expr::var("x");
        for i in 0..100 {
            e = Expr::Add(vec![Expr::var("x"), Expr::Mul(vec![Expr::int(i), e])]);
        }
        let c = Compiled::new(&e, &names(&["x"])).unwrap();
        assert!(c.prog.mem_len() > STACK_BUF);
        let env: BTreeMap<Name, f64> = [("x".into(), 0.5)].into();
        let want = eval_f64(&e, &env, &EvalLimits::default()).unwrap();
        assert_eq!(c.eval(&[0.5]).unwrap(), want);
        let mut s = Scratch::new();
        assert_eq!(c.eval_with(&[0.5], &mut s).unwrap(), want);
    }

    #[test]
    fn sampling_short_circuits_and_uses_the_coin() {
        let c = Cond::Or(vec![
            Cond::Prob(Expr::ratio(1, 4)),
            Cond::And(vec![
                Cond::Prob(Expr::ratio(1, 2)),
                Cond::cmp(CmpOp::Gt, Expr::var("x"), Expr::int(0)),
            ]),
        ]);
        let cc = CompiledCond::new(&c, &names(&["x"])).unwrap();
        assert!((cc.probability(&[1.0]).unwrap() - (1.0 - 0.75 * 0.5)).abs() < 1e-15);
        let mut asked = Vec::new();
        let mut coin = |p: f64| {
            asked.push(p);
            true
        };
        assert!(cc.sample(&[1.0], &mut coin).unwrap());
        assert_eq!(asked, vec![0.25], "or stops at the first true operand");
        let mut asked = Vec::new();
        let mut coin = |p: f64| {
            asked.push(p);
            false
        };
        assert!(!cc.sample(&[1.0], &mut coin).unwrap());
        assert_eq!(
            asked,
            vec![0.25, 0.5],
            "and stops at the first false operand"
        );
    }
}
