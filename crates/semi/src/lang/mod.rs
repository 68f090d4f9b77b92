//! The thread-graph language: a program's threads, loops, segments and events as text.
//!
//! ```
//! let m = semi::lang::parse(
//!     "ge.tg",
//!     "param N; param P; coeff c_elim;
//!      barrier step(P);
//!      class worker[i in P] {
//!          loop k in 1..=N-1 {
//!              compute elim = c_elim * (N - k)^2 / P;
//!              barrier step;
//!          }
//!      }",
//! )
//! .unwrap();
//! assert_eq!(m.threads.len(), 1);
//! ```
//!
//! # The language
//!
//! ```text
//! model  := item*
//! item   := 'param' NAME [':' ('int'|'real')] [bound] ';'   -- given at instantiation
//!         | 'param' NAME '=' expr ';'             -- derived
//!         | 'coeff' NAME {',' NAME} ';'           -- fitted from samples, or given
//!         | 'barrier' NAME '(' expr ')' ';'       -- and its number of participants
//!         | 'lock' NAME ['[' expr ']'] ';'        -- one lock or an array of them
//!         | 'channel' NAME ['[' expr ']'] ';'     -- one channel or an array
//!         | 'memory' expr ';'                     -- the working set in bytes (for the
//!                                                 -- cache-level warning)
//!         | 'thread' NAME block                   -- one thread
//!         | 'class' NAME '[' NAME 'in' expr ']' block   -- a class thread: instances
//!                                                 -- NAME[0] … NAME[count-1], the index
//!                                                 -- variable bound in the body
//! block  := '{' stmt* '}'
//! stmt   := 'compute' NAME '=' expr ';'           -- a segment; its time in seconds
//!         | 'loop' NAME 'in' expr '..=' expr block    -- the variable from first to last
//!         | 'loop' expr block                     -- a count
//!         | 'barrier' NAME ';'
//!         | 'lock' ref ';' | 'unlock' ref ';' | 'critical' ref block
//!         | 'fork' ref ';' | 'join' ref ';'       -- a thread, a class (every instance)
//!                                                 -- or one instance NAME[i]
//!         | 'send' ref [expr] ';' | 'recv' ref ';'    -- a message and its size in bytes
//!         | 'branch' expr block ['else' block]    -- the first block with probability expr
//!         | 'mark' NAME ';'                       -- a named point
//! ref    := NAME ['[' expr ']']
//! bound  := '>=' expr | '<=' expr | 'in' expr '..=' expr   -- a given value outside is refused
//! ```
//!
//! Expressions are the `expr` crate's arithmetic (`+ - * / ^`, `min`, `max`, `floor`,
//! `ceil`, `log2`, …). A parameter's definition and bounds use the parameters before it; a
//! barrier's participants, an array's length and a class's instance count use parameters;
//! loop bounds, indices, sizes and probabilities add the instance index and the enclosing
//! loop variables; a segment's time adds the coefficients, and is linear in them (a sum of
//! terms, each a coefficient times a function of the rest). A lock belongs to the thread
//! that took it. Threads that no `fork` starts begin at time 0. Comments are `// …` and
//! `/* … */`.

mod ast;
mod check;
mod error;
mod parser;

pub use ast::{
    ArrayDecl, BarrierDecl, Ident, LoopRange, Model, Param, Ref, Spanned, Stmt, ThreadDecl,
};
pub use error::{ErrorKind, Locate, ModelError, Result};
pub use parser::MAX_DEPTH;

/// The largest model text accepted, in bytes (16 MiB).
pub const MAX_INPUT_BYTES: usize = 16 << 20;

/// Parses and checks a model (`name` names it in messages).
///
/// # Errors
/// A [`ModelError`] located in the text: a syntax error, an undefined or duplicate name, a
/// name used as the wrong kind of thing, or a text over [`MAX_INPUT_BYTES`].
pub fn parse(name: &str, text: &str) -> Result<Model> {
    if text.len() > MAX_INPUT_BYTES {
        return Err(ModelError::limit(
            sweep::Reached::new(sweep::Limit::InputBytes, MAX_INPUT_BYTES as u64),
            format!(
                "the model is {} bytes, over the limit of {MAX_INPUT_BYTES}",
                text.len()
            ),
        ));
    }
    let m = parser::parse(name, text)?;
    check::check(&m)?;
    Ok(m)
}

/// The model's parameters that are given rather than derived: the columns of a samples or
/// measurements file.
pub fn given_params(model: &Model) -> Vec<String> {
    model
        .params
        .iter()
        .filter(|p| p.value.is_none())
        .map(|p| p.name.name.clone())
        .collect()
}

/// The names of the model's segments, in order of appearance.
pub fn model_segments(model: &Model) -> Vec<&str> {
    fn go<'a>(stmts: &'a [crate::lang::Stmt], out: &mut Vec<&'a str>) {
        use crate::lang::Stmt;
        for s in stmts {
            match s {
                Stmt::Compute { name, .. } if !out.contains(&name.name.as_str()) => {
                    out.push(&name.name);
                }
                Stmt::Loop { body, .. } | Stmt::Critical(_, body) => go(body, out),
                Stmt::Branch {
                    then, otherwise, ..
                } => {
                    go(then, out);
                    go(otherwise, out);
                }
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    for t in &model.threads {
        go(&t.body, &mut out);
    }
    out
}

/// The segments whose time uses coefficient `coeff` (`segment `x``).
pub fn segments_using(model: &Model, coeff: &str) -> Vec<String> {
    fn go(stmts: &[crate::lang::Stmt], coeff: &str, out: &mut Vec<String>) {
        use crate::lang::Stmt;
        for s in stmts {
            match s {
                Stmt::Compute { name, cost } => {
                    let seg = format!("segment `{}`", name.name);
                    if cost.expr.free_vars().iter().any(|v| &**v == coeff) && !out.contains(&seg) {
                        out.push(seg);
                    }
                }
                Stmt::Loop { body, .. } | Stmt::Critical(_, body) => go(body, coeff, out),
                Stmt::Branch {
                    then, otherwise, ..
                } => {
                    go(then, coeff, out);
                    go(otherwise, coeff, out);
                }
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    for t in &model.threads {
        go(&t.body, coeff, &mut out);
    }
    out
}
