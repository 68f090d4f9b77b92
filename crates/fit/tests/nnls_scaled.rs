//! Non-negative least squares on columns of very different scales (a constant in units of
//! 10^-9 beside a slope in units of 10^6, as a thread graph's coefficients are): the
//! optimum computed by hand, where the unscaled active set used to cycle.

use fit::{least_squares, nnls, Design, NnlsOptions};

#[test]
fn badly_scaled_columns_reach_the_hand_computed_optimum() {
    let c1 = vec![1e-9; 3];
    let c2 = vec![1e6, 2e6, 3e6];
    let b = [3.0, 2.0, 1.0];
    let a = Design::from_columns(&[c1, c2]).unwrap();
    // Unconstrained: b = 4 − 1·k, so the slope's coefficient is −10^-6 < 0.
    let ls = least_squares(&a, &b).unwrap();
    assert!((ls.coefficients[1] + 1e-6).abs() < 1e-15);
    // Constrained: the slope is held at 0 and the constant takes the mean, 2 / 10^-9.
    let nn = nnls(&a, &b, &NnlsOptions::default()).unwrap();
    assert_eq!(nn.x[1], 0.0);
    assert!((nn.x[0] - 2e9).abs() < 1e-6 * 2e9, "{:?}", nn.x);
    // ‖b − 2‖ = √2.
    assert!((nn.rnorm - 2f64.sqrt()).abs() < 1e-9);
}
