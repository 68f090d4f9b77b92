//! The experiments that characterise a platform (section 2.2): single-statement loops whose
//! counts follow the pattern of Eq 2.1's coefficient matrix (an integer block and a REAL
//! block, every row with the loop overhead), twelve fragments of rank 9, and the empty
//! kernel whose time (a call and the repetition loop) is subtracted from every measurement.

use super::super::fragments::Source;

/// The empty kernel: its time is the overhead of one call in the timing loop.
pub const EMPTY: Source = Source {
    name: "empty",
    title: "no statement: the call and repetition overhead",
    text: "CONTINUE\n",
};

/// The experiments, each one loop over `I = 1, N` (Eq 2.1's rows, left: integer block,
/// right: REAL block).
pub const EXPERIMENTS: [Source; 12] = [
    Source {
        name: "loop",
        title: "loopoh",
        text: "DO I = 1, N\n  CONTINUE\nEND DO\n",
    },
    Source {
        name: "storeI",
        title: "loopoh + storeI",
        text: "DO I = 1, N\n  K(I) = M\nEND DO\n",
    },
    Source {
        name: "storeI+addI",
        title: "loopoh + storeI + addI",
        text: "DO I = 1, N\n  K(I) = M + L\nEND DO\n",
    },
    Source {
        name: "copyI",
        title: "loopoh + loadI + storeI",
        text: "DO I = 1, N\n  K(I) = L(I)\nEND DO\n",
    },
    Source {
        name: "loadI",
        title: "loopoh + loadI",
        text: "DO I = 1, N\n  M = L(I)\nEND DO\n",
    },
    Source {
        name: "addI",
        title: "loopoh + 2 loadI + storeI + addI",
        text: "DO I = 1, N\n  K(I) = L(I) + J(I)\nEND DO\n",
    },
    Source {
        name: "multI",
        title: "loopoh + 2 loadI + storeI + multI",
        text: "DO I = 1, N\n  K(I) = L(I) * J(I)\nEND DO\n",
    },
    Source {
        name: "storeR",
        title: "loopoh + storeR",
        text: "DO I = 1, N\n  X(I) = S\nEND DO\n",
    },
    Source {
        name: "copyR",
        title: "loopoh + loadR + storeR",
        text: "DO I = 1, N\n  X(I) = Y(I)\nEND DO\n",
    },
    Source {
        name: "loadR",
        title: "loopoh + loadR",
        text: "DO I = 1, N\n  S = Y(I)\nEND DO\n",
    },
    Source {
        name: "addR",
        title: "loopoh + 2 loadR + storeR + addR",
        text: "DO I = 1, N\n  X(I) = Y(I) + Z(I)\nEND DO\n",
    },
    Source {
        name: "multR",
        title: "loopoh + 2 loadR + storeR + multR",
        text: "DO I = 1, N\n  X(I) = Y(I) * Z(I)\nEND DO\n",
    },
];
