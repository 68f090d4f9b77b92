//! The parsed model: declarations and thread bodies, every name and expression with its
//! byte range in the text.

use std::ops::Range;

use expr::Expr;

/// An expression and where it is written.
#[derive(Clone, Debug, PartialEq)]
pub struct Spanned {
    /// The expression.
    pub expr: Expr,
    /// Its bytes in the model text.
    pub span: Range<usize>,
}

/// A name and where it is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    /// The name.
    pub name: String,
    /// Its bytes in the model text.
    pub span: Range<usize>,
}

/// `param N;`, `param N: int >= 2;`, `param P in 1..=64;` or `param B = N / P;` (derived).
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// The name.
    pub name: Ident,
    /// The definition of a derived parameter.
    pub value: Option<Spanned>,
    /// A given value must be a whole number (`: int`).
    pub integer: bool,
    /// The lowest value a given value may take (`>= e`, `in e..=…`).
    pub min: Option<Spanned>,
    /// The highest (`<= e`, `in …..=e`).
    pub max: Option<Spanned>,
    /// The declaration, from the name to its `;`.
    pub span: Range<usize>,
}

/// `barrier step(P);`: a barrier and its participants.
#[derive(Clone, Debug, PartialEq)]
pub struct BarrierDecl {
    /// The name.
    pub name: Ident,
    /// How many threads meet at it.
    pub participants: Spanned,
}

/// `lock l;`, `lock row[N];`, `channel c;`, `channel ring[P];`: one object or an array.
#[derive(Clone, Debug, PartialEq)]
pub struct ArrayDecl {
    /// The name.
    pub name: Ident,
    /// The array's length (`None`: a single object).
    pub size: Option<Spanned>,
}

/// `thread main { … }`, or `class worker[i in P] { … }`: a class thread of P instances
/// `worker[0]` … `worker[P-1]`, `i` the instance's index in its body.
#[derive(Clone, Debug, PartialEq)]
pub struct ThreadDecl {
    /// The name.
    pub name: Ident,
    /// A class thread's index variable and instance count.
    pub class: Option<(Ident, Spanned)>,
    /// The body.
    pub body: Vec<Stmt>,
}

/// A reference to a barrier, lock, channel or thread, with an index for an array or a class
/// instance.
#[derive(Clone, Debug, PartialEq)]
pub struct Ref {
    /// The name.
    pub name: Ident,
    /// The index.
    pub index: Option<Spanned>,
}

/// A loop's iterations: `loop k in A..=B` or `loop COUNT`.
#[derive(Clone, Debug, PartialEq)]
pub enum LoopRange {
    /// `k in A..=B`: B − A + 1 iterations (none when B < A), `k` from A up.
    Var(Ident, Spanned, Spanned),
    /// COUNT iterations.
    Count(Spanned),
}

/// One statement of a thread body.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// `compute NAME = SECONDS;`: a segment.
    Compute {
        /// The segment's name (samples give times by it).
        name: Ident,
        /// Its time in seconds.
        cost: Spanned,
    },
    /// `loop … { … }`.
    Loop {
        /// Where the word `loop` is.
        at: Range<usize>,
        /// The iterations.
        range: LoopRange,
        /// The body.
        body: Vec<Stmt>,
    },
    /// `barrier NAME;`
    Barrier(Ref),
    /// `lock NAME;`
    Lock(Ref),
    /// `unlock NAME;`
    Unlock(Ref),
    /// `critical NAME { … }`: lock, body, unlock.
    Critical(Ref, Vec<Stmt>),
    /// `fork NAME;` (a thread, a class's every instance, or `NAME[i]` one instance).
    Fork(Ref),
    /// `join NAME;`
    Join(Ref),
    /// `send CHANNEL [BYTES];`
    Send(Ref, Option<Spanned>),
    /// `recv CHANNEL;`
    Recv(Ref),
    /// `branch PROBABILITY { … } [else { … }]`.
    Branch {
        /// The probability of the first block.
        probability: Spanned,
        /// Taken with the probability.
        then: Vec<Stmt>,
        /// Taken otherwise.
        otherwise: Vec<Stmt>,
    },
    /// `mark NAME;`: a named point.
    Mark(Ident),
}

/// A parsed model.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Model {
    /// The file name (for messages).
    pub name: String,
    /// The text.
    pub text: String,
    /// Parameters, in order (a derived one may use those before it).
    pub params: Vec<Param>,
    /// Coefficients.
    pub coeffs: Vec<Ident>,
    /// Barriers.
    pub barriers: Vec<BarrierDecl>,
    /// Locks.
    pub locks: Vec<ArrayDecl>,
    /// Channels.
    pub channels: Vec<ArrayDecl>,
    /// Threads and class threads.
    pub threads: Vec<ThreadDecl>,
    /// `memory BYTES;`: the program's working set, for the cache-level warning.
    pub memory: Option<Spanned>,
}
