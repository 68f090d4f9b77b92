//! The thesis' six code fragments A–F (section 2.3: modified Livermore Loops 1, 3, 5, 7, 11
//! and 19, single-precision REAL, the loop bound `N` a parameter), in fixed form as the
//! thesis prints them (continuations marked in column 6).

/// A named fragment of Fortran.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Source {
    /// The name: `A` … `F` for the thesis' fragments.
    pub name: &'static str,
    /// What it is.
    pub title: &'static str,
    /// The Fortran text, fixed form.
    pub text: &'static str,
}

/// Fragment A, Livermore Loop 1 (hydrodynamics).
pub const A: Source = Source {
    name: "A",
    title: "Livermore Loop 1, hydro fragment",
    text: "      DO I = 1, N
        X(I) = Q + (Y(I) * ((R * Z(I+10)) +
     &         (T * Z(I+11))))
      END DO
",
};

/// Fragment B, Livermore Loop 3 (inner product).
pub const B: Source = Source {
    name: "B",
    title: "Livermore Loop 3, inner product",
    text: "      Q = 0.0
      DO I = 1, N
        Q = Q + (Z(I) * X(I))
      END DO
",
};

/// Fragment C, Livermore Loop 5 (tridiagonal elimination).
pub const C: Source = Source {
    name: "C",
    title: "Livermore Loop 5, tridiagonal elimination",
    text: "      DO I = 2, N
        X(I) = Z(I) * (Y(I) - X(I-1))
      END DO
",
};

/// Fragment D, Livermore Loop 7 (equation of state).
pub const D: Source = Source {
    name: "D",
    title: "Livermore Loop 7, equation of state",
    text: "      DO I = 1, N
        X(I) = U(I) + (R * (Z(I) + (R * Y(I)))) +
     &    (T * (U(I+3) + (R * (U(I+2) +
     &    (R * U(I+1)))))) +
     &    (T * (U(I+6) + (R * (U(I+5) +
     &    (R * U(I+4))))))
      END DO
",
};

/// Fragment E, Livermore Loop 11 (prefix sum).
pub const E: Source = Source {
    name: "E",
    title: "Livermore Loop 11, prefix sum",
    text: "      X(1) = Y(1)
      DO I = 2, N
        X(I) = X(I-1) + Y(I)
      END DO
",
};

/// Fragment F, Livermore Loop 19 (general linear recurrence).
pub const F: Source = Source {
    name: "F",
    title: "Livermore Loop 19, general linear recurrence",
    text: "      DO I = 1, N
        B(I) = T(I) + S * U(I)
        S = B(I) - S
      END DO
      DO I = 1, N
        K = N - I + 1
        B(K) = T(K) + S * U(K)
        S = B(K) - S
      END DO
",
};

/// The six fragments in the thesis' order.
pub const THESIS: [Source; 6] = [A, B, C, D, E, F];
