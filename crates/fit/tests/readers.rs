//! The measurement readers on malformed input: every error class is named with its line and
//! column, and no input (random bytes, any truncation of a valid file) makes a reader panic.

use fit::read::csv::CsvOptions;
use fit::read::{csv, jsonl, text, ReadErrorKind};
use proptest::prelude::*;

const TEXT: &str = "# comment\nPARAMETER p n\nPOINTS (1 2) (2 2) ( 4 2 )\nREGION main\nMETRIC time\nDATA 1 1.1\nDATA 2 2.2\nDATA 4.5\n";
const JSONL: &str = "{\"params\": {\"p\": 1}, \"value\": [1, 1.1], \"callpath\": \"a\"}\n{\"params\": {\"p\": 2}, \"value\": 2}\n";
const CSV: &str = "p,n,time\n1,10,1.5\n1,10,1.6\n2,10,2.9\n";

fn kind_of(r: Result<fit::read::Experiment, fit::read::ReadError>) -> (ReadErrorKind, String) {
    let e = r.expect_err("an error");
    (e.kind, e.message)
}

#[test]
fn valid_files_read() {
    let e = text::read("t.txt", TEXT).unwrap();
    assert_eq!(e.parameters, ["p", "n"]);
    assert_eq!(e.series[0].measurements.len(), 3);
    assert_eq!(e.series[0].measurements[0].values, [1.0, 1.1]);
    assert_eq!(e.series[0].measurements[2].point, [4.0, 2.0]);
    let e = jsonl::read("t.jsonl", JSONL).unwrap();
    assert_eq!(e.series[0].callpath, "a");
    assert_eq!(e.series[1].callpath, "<root>");
    let e = csv::read("t.csv", CSV, &CsvOptions::default()).unwrap();
    assert_eq!(e.parameters, ["p", "n"]);
    assert_eq!(e.series[0].metric, "time");
    assert_eq!(
        e.series[0].measurements[0].values,
        [1.5, 1.6],
        "repetitions merge"
    );
}

#[test]
fn every_error_class_is_located() {
    let cases: [(&str, ReadErrorKind, &str); 9] = [
        (
            "PARAMETER p\nPOINTS 1 2\nDATA 1\nDATA x\n",
            ReadErrorKind::NotANumber,
            "t:4:6",
        ),
        (
            "PARAMETER p\nPOINTS 1 2\nDATA 1\nDATA inf\n",
            ReadErrorKind::NotFinite,
            "t:4:6",
        ),
        (
            "PARAMETER p\nPOINTS 1 2\nDATA 1\n",
            ReadErrorKind::Mismatch,
            "t:3:1",
        ),
        (
            "PARAMETER p q\nPOINTS (1 2) (3)\nDATA 1\n",
            ReadErrorKind::Mismatch,
            "t:2:14",
        ),
        (
            "PARAMETER p q\nPOINTS 1 2\n",
            ReadErrorKind::Mismatch,
            "t:2:1",
        ),
        ("PARAMETER p\nPOINTS 1 (2\n", ReadErrorKind::Syntax, "t:2:8"),
        ("POINTS 1 2\n", ReadErrorKind::Syntax, "t:1:1"),
        ("PARAMETR p\n", ReadErrorKind::Syntax, "t:1:1"),
        ("# nothing\n", ReadErrorKind::Empty, "t:"),
    ];
    for (src, kind, at) in cases {
        let (k, msg) = kind_of(text::read("t", src));
        assert_eq!(k, kind, "{src:?}: {msg}");
        assert!(msg.starts_with(at), "{src:?}: {msg}");
    }
    let (k, msg) = kind_of(jsonl::read("j", "{\"params\": {\"p\": 1}}\n"));
    assert!(
        k == ReadErrorKind::Syntax && msg.contains("j:1:1") && msg.contains("value"),
        "{msg}"
    );
    let (k, msg) = kind_of(jsonl::read(
        "j",
        "{\"params\": {\"p\": 1}, \"value\": 1}\n{\"params\": {\"q\": 1}, \"value\": 1}\n",
    ));
    assert!(
        k == ReadErrorKind::Mismatch && msg.contains("j:2:1"),
        "{msg}"
    );
    let (k, msg) = kind_of(jsonl::read(
        "j",
        "{\"params\": {\"p\": \"x\"}, \"value\": 1}\n",
    ));
    assert!(k == ReadErrorKind::NotANumber, "{msg}");
    let (k, msg) = kind_of(csv::read("c", "p,t\n1,2,3\n", &CsvOptions::default()));
    assert!(
        k == ReadErrorKind::Mismatch && msg.contains("c:2:1"),
        "{msg}"
    );
    let (k, msg) = kind_of(csv::read("c", "p,t\n1,x\n", &CsvOptions::default()));
    assert!(
        k == ReadErrorKind::NotANumber && msg.contains("c:2:3"),
        "{msg}"
    );
    let opts = CsvOptions {
        params: vec!["q".into()],
        ..CsvOptions::default()
    };
    let (k, msg) = kind_of(csv::read("c", "p,t\n1,2\n", &opts));
    assert!(
        k == ReadErrorKind::UnknownName && msg.contains("`q`"),
        "{msg}"
    );
    let (k, _) = kind_of(csv::read("c", "p,t\n", &CsvOptions::default()));
    assert_eq!(k, ReadErrorKind::Empty);
    let (k, _) = kind_of(csv::read("c", "t\n1\n", &CsvOptions::default()));
    assert_eq!(k, ReadErrorKind::Mismatch, "one column: no parameter");
}

fn read_all(bytes: &[u8]) {
    let s = String::from_utf8_lossy(bytes);
    let _ = text::read("f", &s);
    let _ = jsonl::read("f", &s);
    let _ = csv::read("f", &s, &CsvOptions::default());
}

#[test]
fn every_truncation_of_a_valid_file_reads_or_errs() {
    for src in [TEXT, JSONL, CSV] {
        for (i, _) in src.char_indices() {
            read_all(&src.as_bytes()[..i]);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        read_all(&bytes);
    }

    #[test]
    fn random_edits_of_valid_files_never_panic(
        which in 0usize..3,
        at in 0usize..200,
        insert in "[ ()\n,{}\":0-9a-zA-Z.eE+-]{0,12}",
    ) {
        let src = [TEXT, JSONL, CSV][which];
        let cut = at.min(src.len());
        let cut = (0..=cut).rev().find(|&i| src.is_char_boundary(i)).unwrap_or(0);
        let edited = format!("{}{}{}", &src[..cut], insert, &src[cut..]);
        read_all(edited.as_bytes());
    }
}

/// A 100 kB token: the message quotes 40 characters and the caret spans at most 80 bytes.
#[test]
fn huge_tokens_make_short_messages() {
    let long = "9".repeat(100_000);
    let src = format!("PARAMETER p\nPOINTS 1 2\nDATA {long}\nDATA 2\n");
    let e = text::read("t", &src).unwrap_err();
    assert!(e.message.len() < 200, "{}", e.message.len());
    let span = e.location.as_ref().unwrap().span();
    assert!(span.len() <= 80, "{span:?}");
    let src = format!("p,t\n1,{long}\n");
    let e = csv::read("c", &src, &CsvOptions::default()).unwrap_err();
    assert!(e.message.len() < 200, "{}", e.message.len());
}

/// A constant column is not a parameter: with one run per point the metric guess falls back
/// to the last column.
#[test]
fn the_metric_guess_needs_a_varying_design() {
    let e = csv::read("c", "p,t\n1,5\n2,5\n4,5\n8,5\n", &CsvOptions::default()).unwrap();
    assert_eq!(e.parameters, ["p"]);
    assert_eq!(e.series[0].metric, "t");
}

#[test]
fn formats_are_guessed_from_extension_then_content() {
    use fit::read::Format;
    assert_eq!(Format::guess(Some("txt"), "p,t"), Format::Text);
    assert_eq!(Format::guess(Some("csv"), "PARAMETER p"), Format::Csv);
    assert_eq!(Format::guess(None, "# c\n{\"params\": {}}"), Format::Jsonl);
    assert_eq!(Format::guess(Some("dat"), "\nPARAMETER p"), Format::Text);
    assert_eq!(Format::guess(None, "p,t\n1,2"), Format::Csv);
}

#[test]
fn points_and_series_selection() {
    use fit::run::parse_point;
    let names = ["p".to_string(), "n".to_string()];
    assert_eq!(parse_point("n=10, p=4", &names).unwrap(), [4.0, 10.0]);
    assert!(parse_point("p=4", &names)
        .unwrap_err()
        .contains("no value for `n`"));
    assert!(parse_point("q=4,n=1", &names)
        .unwrap_err()
        .contains("no parameter `q`"));
    assert!(parse_point("p=x,n=1", &names)
        .unwrap_err()
        .contains("not a finite number"));
    assert!(parse_point("p", &names).unwrap_err().contains("NAME=VALUE"));
    let mut e = text::read("t", TEXT).unwrap();
    assert_eq!(e.callpaths(), ["main"]);
    assert!(e.clone().select(Some("main"), &["time".into()]).is_ok());
    let err = e.select(Some("mian"), &[]).unwrap_err();
    assert!(
        err.contains("`main`") && err.contains("did you mean"),
        "{err}"
    );
}

/// A column name given twice is refused at its second place in the header (line 1, its
/// column), also when `--metric` names it (the two columns were read as one series).
#[test]
fn a_duplicated_column_name_is_refused_at_the_second() {
    let text = "p,time,time\n1,1,2\n2,2,3\n";
    for metrics in [vec![], vec!["time".to_string()]] {
        let opts = CsvOptions {
            metrics,
            ..CsvOptions::default()
        };
        let (k, msg) = kind_of(csv::read("c", text, &opts));
        assert_eq!(k, ReadErrorKind::Mismatch, "{msg}");
        assert!(
            msg.starts_with("c:1:8:") && msg.contains("`time` appears twice: columns 2 and 3"),
            "{msg}"
        );
    }
    let err = csv::columns("c", text, &["p".into(), "time".into()]).expect_err("refused");
    assert!(err.message.starts_with("c:1:8:"), "{}", err.message);
}

/// A subnormal value (finite, nonzero, below the smallest normal double) is refused in
/// every reader with its place and the reason, not as "not finite".
#[test]
fn a_subnormal_value_is_refused_where_it_is() {
    let (k, msg) = kind_of(csv::read(
        "c",
        "p,t\n1,1e-320\n2,2\n",
        &CsvOptions::default(),
    ));
    assert_eq!(k, ReadErrorKind::OutOfRange, "{msg}");
    assert!(
        msg.starts_with("c:2:3:") && msg.contains("`1e-320` in column `t` is too small to model"),
        "{msg}"
    );
    let (k, msg) = kind_of(text::read(
        "t",
        "PARAMETER p\nPOINTS 1 2\nDATA 1\nDATA 4e-324\n",
    ));
    assert_eq!(k, ReadErrorKind::OutOfRange, "{msg}");
    assert!(
        msg.starts_with("t:4:6:") && msg.contains("2.2e-308"),
        "{msg}"
    );
    let (k, msg) = kind_of(jsonl::read(
        "j",
        "{\"params\": {\"p\": 1}, \"value\": 1e-310}\n",
    ));
    assert_eq!(k, ReadErrorKind::OutOfRange, "{msg}");
    assert!(
        msg.starts_with("j:1:1:") && msg.contains("too small"),
        "{msg}"
    );
    // Zero and the smallest normal double are values.
    let e = csv::read(
        "c",
        "p,t\n1,0\n2,2.2250738585072014e-308\n",
        &CsvOptions::default(),
    )
    .unwrap();
    assert_eq!(e.series[0].measurements[1].values, [f64::MIN_POSITIVE]);
}
