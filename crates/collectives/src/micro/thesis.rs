//! Chapter 2's printed numbers, transcribed from the seed (line numbers in the comments),
//! with the OCR readings of `bench/macdonald/NOTES.md` §6: the data the tests reproduce the
//! derived tables from, and the figures a measurement here is set beside.

/// The three platforms, in the tables' column order.
pub const PLATFORMS: [&str; 3] = ["SUN 4/50", "DEC 3300L", "SGI Indigo2"];

diag::choices! {
    /// The three platforms by name, in [`PLATFORMS`]' order.
    pub enum Platform {
        /// SUN 4/50.
        Sun = "sun": "SUN 4/50",
        /// DEC 3300L.
        Dec = "dec": "DEC 3300L",
        /// SGI Indigo2.
        Sgi = "sgi": "SGI Indigo2",
    }
}

impl Platform {
    /// Its name in the tables ([`PLATFORMS`]) and its operation times ([`times`]).
    pub fn times(self, optimised: bool) -> (&'static str, super::OpTimes) {
        let i = self as usize;
        (PLATFORMS[i], times(i, optimised).expect("three platforms"))
    }
}

/// The vector lengths of Tables 2-7 and 2-14.
pub const LENGTHS: [i64; 5] = [10, 100, 1000, 10_000, 100_000];

/// Table 2-5 (lines 2090–2106): basic operation times in µs for unoptimised code, per
/// operation in Table 2-3's order, per platform. OCR: `0,0305` is 0.0305; `IoadR`, `muItR`
/// are loadR and multR.
pub const TABLE_2_5: [[f64; 3]; 9] = [
    [0.518, 0.273, 0.230],
    [0.168, 0.244, 0.0305],
    [0.159, 0.159, 0.0188],
    [0.0905, 0.0325, 0.00297],
    [4.42, 0.156, 0.0680],
    [0.135, 0.201, 0.0255],
    [0.235, 0.172, 0.0326],
    [0.0108, 0.106, 0.00744],
    [0.00916, 0.116, 0.0208],
];

/// Table 2-13 (lines 2607–2623): basic operation times in µs for optimised code (`0,0504`
/// is 0.0504).
pub const TABLE_2_13: [[f64; 3]; 9] = [
    [0.0972, 0.0232, 0.0222],
    [0.0367, 0.0250, 0.0148],
    [0.109, -0.00136, 0.0112],
    [0.0566, 0.0175, 0.0113],
    [4.41, 0.132, 0.0754],
    [0.0342, 0.0220, 0.00226],
    [0.179, 0.0637, 0.0236],
    [0.185, 0.0501, 0.0393],
    [0.186, 0.0504, 0.0433],
];

/// Table 2-6 (lines 2202–2218) as printed: per operation (Table 2-3's order) and fragment
/// A–F, `(a, b)` meaning `a·n + b`. Column E's loopoh is printed "n − 2" and storeR
/// "n − 1"; the mapping gives n − 1 and n (see `NOTES.md` §6).
pub const TABLE_2_6: [[(i64, i64); 6]; 9] = [
    [(1, 0), (1, 0), (1, -1), (1, 0), (1, -2), (2, 0)],
    [(0, 0); 6],
    [(0, 0); 6],
    [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (2, 0)],
    [(0, 0); 6],
    [(3, 0), (2, 0), (3, -3), (9, 0), (2, -1), (6, 0)],
    [(1, 0), (0, 0), (1, -1), (1, 0), (1, -1), (2, 0)],
    [(2, 0), (1, 0), (1, -1), (8, 0), (1, -1), (4, 0)],
    [(3, 0), (1, 0), (1, -1), (8, 0), (0, 0), (2, 0)],
];

/// Table 2-10 (lines 2467–2477): flop counts of A–F, `(a, b)` meaning `a·n + b`.
pub const TABLE_2_10: [(i64, i64); 6] = [(5, 0), (2, 0), (2, 0), (16, 0), (1, -1), (6, 0)];

/// Table 2-7 (lines 2310–2368): signed prediction differences (%), unoptimised code, per
/// fragment A–F, per vector length of [`LENGTHS`], per platform.
pub const TABLE_2_7: [[[f64; 3]; 5]; 6] = [
    [
        [-18., -14., -3.],
        [-16., -11., 2.],
        [-15., -11., -1.],
        [-25., -13., -15.],
        [-24., -26., -25.],
    ],
    [
        [-17., -18., 2.],
        [-8., -12., 11.],
        [-6., -13., 11.],
        [-20., -15., -10.],
        [-21., -29., -33.],
    ],
    [
        [19., 28., 17.],
        [31., 41., 26.],
        [33., 43., 21.],
        [3., 10., -4.],
        [1., 9., -19.],
    ],
    [
        [-31., 31., -5.],
        [-30., 33., -3.],
        [-29., 34., -5.],
        [-35., 22., -18.],
        [-35., 22., -31.],
    ],
    [
        [26., 16., 55.],
        [40., 29., 74.],
        [41., 30., 76.],
        [14., 5., 26.],
        [9., 1., 8.],
    ],
    [
        [-1., 9., -17.],
        [4., 14., -14.],
        [4., 14., -16.],
        [-10., -1., -30.],
        [-14., -5., -38.],
    ],
];

/// Table 2-14 (lines 2662–2720): optimised code. OCR: D 100000 SUN `-4-43` is +43, F 100
/// SUN `-4-46` is +46, C 10000 DEC `754` is −54, the row printed `B 1000` is E 1000, B 100
/// DEC `-0` is 0.
pub const TABLE_2_14: [[[f64; 3]; 5]; 6] = [
    [
        [16., 73., 55.],
        [24., 203., 108.],
        [24., 52., 96.],
        [4., 5., 47.],
        [2., -36., 28.],
    ],
    [
        [51., -32., 28.],
        [72., 0., 103.],
        [67., -36., 108.],
        [7., -51., 18.],
        [-5., -67., -38.],
    ],
    [
        [9., -25., 17.],
        [19., -18., 69.],
        [21., -40., 60.],
        [-21., -54., 9.],
        [-25., -71., -13.],
    ],
    [
        [63., 154., 40.],
        [65., 270., 44.],
        [65., 139., 39.],
        [43., 98., 26.],
        [43., 42., 8.],
    ],
    [
        [8., -3., 17.],
        [17., 8., 87.],
        [19., -25., 98.],
        [-21., -52., 15.],
        [-24., -72., 15.],
    ],
    [
        [40., -12., 39.],
        [46., 0., 80.],
        [45., -19., 74.],
        [14., -29., 30.],
        [0., -61., 11.],
    ],
];

/// A printed summary row: maximum, minimum, average magnitude, SD of the magnitudes (%).
pub type Printed = [f64; 4];

/// Table 2-8 (lines 2381–2387): Table 2-7 by fragment A–F.
pub const TABLE_2_8: [Printed; 6] = [
    [2., -26., 15., 8.],
    [11., -33., 15., 8.],
    [43., -19., 20., 31.],
    [34., -35., 24., 11.],
    [76., 1., 30., 23.],
    [14., -38., 13., 10.],
];

/// Table 2-9 (lines 2397–2403): Table 2-7 by platform (`-i-43` is +43).
pub const TABLE_2_9: [Printed; 3] = [
    [41., -35., 19., 12.],
    [43., -29., 19., 11.],
    [76., -38., 21., 19.],
];

/// Table 2-15 (lines 2727–2733): Table 2-14 by fragment.
pub const TABLE_2_15: [Printed; 6] = [
    [203., -36., 51., 51.],
    [108., -67., 45., 32.],
    [69., -71., 31., 21.],
    [270., 8., 76., 65.],
    [98., -72., 32., 29.],
    [80., -61., 33., 24.],
];

/// Table 2-16 (lines 2753–2759): Table 2-14 by platform.
pub const TABLE_2_16: [Printed; 3] = [
    [72., -25., 29., 21.],
    [270., -72., 58., 60.],
    [108., -38., 47., 32.],
];

/// Table 2-11 (lines 2530–2536): the Mflop/s baseline, unoptimised, by platform.
pub const TABLE_2_11: [Printed; 3] = [
    [254., -30., 84., 77.],
    [251., -30., 73., 76.],
    [201., -53., 51., 59.],
];

/// Table 2-17 (lines 2768–2774): the Mflop/s baseline, optimised, by platform.
pub const TABLE_2_17: [Printed; 3] = [
    [119., -53., 47., 38.],
    [569., -77., 99., 135.],
    [111., -40., 42., 29.],
];

/// Table 2-1 (lines 1755–1763): geometric-mean Mflop/s of the Livermore Loops, minimal
/// optimisation, per platform.
pub const TABLE_2_1_GEOMEAN: [f64; 3] = [1.51, 1.52, 7.17];

/// Table 2-12 (lines 2544–2552): geometric-mean Mflop/s, maximal optimisation (`1,41` in the
/// SUN minimum row is a decimal comma; the means read cleanly).
pub const TABLE_2_12_GEOMEAN: [f64; 3] = [4.10, 12.77, 18.85];

/// The operation times of platform `i` of [`PLATFORMS`] (Table 2-5, or Table 2-13 when
/// `optimised`), in seconds; `None` past the three platforms.
pub fn times(i: usize, optimised: bool) -> Option<super::OpTimes> {
    let table = if optimised { &TABLE_2_13 } else { &TABLE_2_5 };
    (i < PLATFORMS.len()).then(|| super::OpTimes::from_micros(table.map(|r| r[i])))
}
