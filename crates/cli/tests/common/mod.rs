//! Helpers shared by the CLI test files.
#![allow(dead_code)] // each test file uses a subset

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

/// Path of an example file under `examples/<dir>/`.
pub fn example_in(dir: &str, name: &str) -> String {
    let p: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "..",
        "..",
        "examples",
        dir,
        name,
    ]
    .iter()
    .collect();
    p.display().to_string()
}

/// The `vates` binary under test.
pub fn vates() -> Command {
    Command::cargo_bin("vates").expect("the vates binary is built")
}

/// A temporary directory for one test, removed with its contents when dropped.
pub struct TempDir(PathBuf);

impl std::ops::Deref for TempDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for TempDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A fresh temporary directory for one test.
pub fn tempdir(tag: &str) -> TempDir {
    let d = std::env::temp_dir().join(format!("vates-test-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    TempDir(d)
}

/// Runs `vates args…`, expects success and returns standard output.
pub fn stdout<S: AsRef<str> + std::fmt::Debug>(args: &[S]) -> String {
    let out = vates()
        .args(args.iter().map(AsRef::as_ref))
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "vates {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// Runs `vates args…`, expects exit code `code` and returns (standard output, standard
/// error): for runs that print results and still fail (a table with rows at a limit).
pub fn output_with_code<S: AsRef<str> + std::fmt::Debug>(
    args: &[S],
    code: i32,
) -> (String, String) {
    let out = vates()
        .args(args.iter().map(AsRef::as_ref))
        .output()
        .expect("runs");
    assert_eq!(
        out.status.code(),
        Some(code),
        "vates {args:?}: stderr {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8(out.stdout).expect("UTF-8"),
        String::from_utf8(out.stderr).expect("UTF-8"),
    )
}

/// Runs `vates args…`, expects exit code `code` and returns standard error.
pub fn fails<S: AsRef<str> + std::fmt::Debug>(args: &[S], code: i32) -> String {
    let out = vates()
        .args(args.iter().map(AsRef::as_ref))
        .output()
        .expect("runs");
    assert_eq!(
        out.status.code(),
        Some(code),
        "vates {args:?}: stdout {} stderr {}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stderr).expect("UTF-8")
}

/// Runs `vates args…`, expects success and parses standard output as JSON.
pub fn json(args: &[&str]) -> Value {
    serde_json::from_str(&stdout(args)).expect("stdout is JSON")
}

/// The coefficients of `examples/semi/ge.tg` given with `-C` instead of samples (every
/// segment 1 ns per element).
pub const GE_COEFFS: [&str; 8] = [
    "-C",
    "c_init=1e-9",
    "-C",
    "c_pivot=1e-9",
    "-C",
    "c_elim=1e-9",
    "-C",
    "c_solve=1e-9",
];
