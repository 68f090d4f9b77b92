//! The README's example output is the program's: every fenced block that starts with
//! `$ vates …` is run, and its standard output (or, for a failing example, its standard
//! error) must be the rest of the block (defect: README blocks had drifted from the program).

mod common;

use std::path::Path;

/// The `$ vates …` blocks of the README: (command line, expected output).
fn blocks(readme: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = readme;
    while let Some(i) = rest.find("```\n$ vates ") {
        let body = &rest[i + 4..];
        let end = body.find("\n```").expect("closed block");
        let block = &body[..end];
        let (cmd, expected) = block.split_once('\n').unwrap_or((block, ""));
        out.push((cmd[2..].to_string(), expected.to_string()));
        rest = &body[end..];
    }
    out
}

#[cfg(unix)]
#[test]
fn readme_output_blocks_are_what_vates_prints() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README");
    let dir = common::tempdir("readme");
    std::os::unix::fs::symlink(root.join("examples"), dir.join("examples")).expect("link");
    // The error example's model.
    std::fs::write(
        dir.join("bad.pam"),
        "param N: int >= 1;\nresource s;\nmain = par p in 1..=N { use(s, 1) ;; };\n",
    )
    .unwrap();
    let blocks = blocks(&readme);
    assert!(blocks.len() >= 7, "{blocks:?}");
    for (cmd, expected) in blocks {
        let args: Vec<&str> = cmd.split_whitespace().skip(1).collect();
        let out = common::vates()
            .args(&args)
            .current_dir(&dir)
            .env("NO_COLOR", "1")
            .output()
            .expect("runs");
        let shown = if out.status.success() {
            out.stdout
        } else {
            out.stderr
        };
        let shown = String::from_utf8(shown).expect("UTF-8");
        assert_eq!(
            shown.trim_end(),
            expected.trim_end(),
            "README block `{cmd}`"
        );
    }
}
