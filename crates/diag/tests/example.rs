#![allow(missing_docs)] // the crate front page's example, run as a test
use diag::{did_you_mean, suggest, Location};
use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme};

/// An error of some reader: a message and where it is.
#[derive(Debug)]
struct ReadError {
    message: String,
    help: Option<String>,
    at: Location,
}

impl std::error::Error for ReadError {}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (at {})", self.message, self.at.display())
    }
}

impl Diagnostic for ReadError {
    fn help<'a>(&'a self) -> Option<Box<dyn std::fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn std::fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(self.at.source_code())
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = miette::LabeledSpan> + '_>> {
        Some(Box::new(std::iter::once(self.at.labeled_span())))
    }
}

fn main() {
    // A one-line file of a million tasks with an unknown name near its end.
    let mut text = String::from("{\"tasks\": [");
    for i in 0..100_000 {
        text.push_str(&format!("{{\"id\": \"t{i}\"}}, "));
    }
    let at = text.len() + 10;
    text.push_str("{\"pred\": \"t9999x\"}]}");
    let name = &text[at..at + 6];
    assert_eq!(name, "t9999x");

    let known = (0..100_000).map(|i| format!("t{i}")).collect::<Vec<_>>();
    let hints = suggest(name, known.iter().map(String::as_str));
    assert_eq!(hints[0], "t9999");
    let err = ReadError {
        message: format!("unknown task `{name}`"),
        help: did_you_mean(&hints),
        at: Location::new("g.json", &text, at..at + 6, "no task has this id"),
    };
    // Line and column count characters from 1; the column is far past 65,535.
    assert_eq!(err.at.line_col(), (1, at + 1));
    assert!(err.at.source_code().text().len() < 1_000);

    let mut out = String::new();
    GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
        .render_report(&mut out, &err)
        .unwrap();
    // The rendering shows the file, line and column of the whole text, and a window of
    // the line, not the whole line.
    assert!(out.contains(&format!("[g.json:1:{}]", at + 1)), "{out}");
    assert!(out.contains("no task has this id"));
    assert!(out.contains("did you mean `t9999`"));
    assert!(out.len() < 2_000, "{}", out.len());
}
