#![allow(missing_docs)] // the crate front page's example, run as a test
use native::{available, build, Build, BuildError};

fn main() -> Result<(), BuildError> {
    if !available("cc") {
        println!("skipped: no C compiler `cc` (Debian package gcc)");
        return Ok(());
    }
    let dir = std::env::temp_dir().join(format!("native-example-{}", std::process::id()));
    let b = Build {
        source: "int main(void) { return 7; }\n",
        source_name: "seven.c",
        output_stem: "seven",
        output_ext: "",
        program: "cc",
        args: &["-O2".to_string()],
        dir: &dir,
    };
    let first = build(&b)?;
    assert!(first.compiled);
    let status = std::process::Command::new(&first.path).status().unwrap();
    assert_eq!(status.code(), Some(7));
    // The same source, compiler and flags: the cached program, not compiled again.
    let again = build(&b)?;
    assert_eq!((again.path.clone(), again.compiled), (first.path, false));
    // A compile error carries the compiler's message.
    let broken = Build {
        source: "int main(void) { return }\n",
        ..b
    };
    assert!(
        matches!(build(&broken), Err(BuildError::Failed { stderr, .. }) if stderr.contains("error"))
    );
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
