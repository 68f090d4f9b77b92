#![allow(missing_docs)] // the crate front page's example, run as a test
use collectives::{fit_table, read_csv, Fitting, Options};

fn main() {
    // Table 3-3 of the thesis: barrier times (µs) on SUN IPX workstations, p = 2..8.
    let table = read_csv(
        "table_3_3.csv",
        "platform,op,p,d,time\n\
         WS,barrier,2,,8219\nWS,barrier,3,,12330\nWS,barrier,4,,14614\nWS,barrier,5,,17312\n\
         WS,barrier,6,,20261\nWS,barrier,7,,20995\nWS,barrier,8,,26690\n",
    )
    .unwrap();
    // Least squares of absolute times, as the thesis fitted.
    let opts = Options {
        fitting: Fitting::Absolute,
        ..Options::default()
    };
    let models = fit_table(&table, &opts);
    let best = models[0].best().unwrap();
    // Eq. 3.8: t = 3205 + 2800·p µs (the print's 2305 is a transposition), chosen over
    // the constant and logarithmic forms, 4% average prediction difference.
    assert_eq!(best.form.name, "linear");
    assert_eq!(best.coefficients()[0].round(), 3205.0);
    assert_eq!(best.coefficients()[1].round(), 2800.0);
    assert_eq!(best.fitted.mean.round(), 4.0);
    println!("{}", best.model(0.0).display(&["p".into(), "d".into()]));
}
