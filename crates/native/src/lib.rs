//! Native helpers that vates builds at run time from sources it embeds: the OMPT tool an
//! OpenMP campaign loads, the MPI collective benchmark `probe --mpi` runs, the Fortran
//! fragments of the micro-analysis. One mechanism for all of them:
//!
//! * the output's name carries a hash of the source, the compiler and its flags, so a
//!   changed source or compiler builds a new file and an unchanged one is reused;
//! * the build writes files of its own process and renames the result into place, so a
//!   concurrent build never runs or loads half a binary;
//! * a missing compiler, a failed compile (with its standard error) and a cache that
//!   cannot be written are told apart in [`BuildError`].
//!
//! ```
#![doc = include_str!("../tests/example.rs")]
//! ```

use std::path::{Path, PathBuf};
use std::process::Command;

/// What to build.
#[derive(Clone, Debug)]
pub struct Build<'a> {
    /// The source text.
    pub source: &'a str,
    /// The source file's name, whose extension tells the compiler the language
    /// (`vates_ompt.c`, `fragment.f`).
    pub source_name: &'a str,
    /// The output's name before the hash: `libvates_ompt` gives `libvates_ompt-<hash>`.
    pub output_stem: &'a str,
    /// The output's extension, with its dot (`.so`), or empty for a program.
    pub output_ext: &'a str,
    /// The compiler (`cc`, `clang`, `mpicc`, `gfortran`).
    pub program: &'a str,
    /// The compiler's arguments before `-o OUTPUT SOURCE` (`-O2`, `-fPIC`, `-shared`, …).
    pub args: &'a [String],
    /// The cache directory (created if missing).
    pub dir: &'a Path,
}

/// A built file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Built {
    /// Its path in the cache.
    pub path: PathBuf,
    /// Whether it was compiled now (`false`: found in the cache).
    pub compiled: bool,
}

/// Why a build failed.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// The compiler could not be started.
    #[error("`{program}` is not installed (or not on PATH)")]
    NoCompiler {
        /// The compiler.
        program: String,
    },
    /// The compiler ran and failed.
    #[error("`{program}` failed ({status}):\n{stderr}")]
    Failed {
        /// The compiler.
        program: String,
        /// Its exit status.
        status: String,
        /// Its standard error.
        stderr: String,
    },
    /// A file of the cache could not be written or moved.
    #[error("cannot {action} `{}`: {error}", path.display())]
    Io {
        /// What was done.
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        error: std::io::Error,
    },
}

/// Builds `b`: the cached output if it exists, else compiled now into the cache.
///
/// # Errors
/// [`BuildError`]: no compiler, a failed compile, a cache that cannot be written.
pub fn build(b: &Build<'_>) -> Result<Built, BuildError> {
    let key = fnv1a(
        [b.source.as_bytes(), b"\0", b.program.as_bytes()]
            .into_iter()
            .chain(b.args.iter().flat_map(|a| [b"\0".as_slice(), a.as_bytes()])),
    );
    let path = b
        .dir
        .join(format!("{}-{key:016x}{}", b.output_stem, b.output_ext));
    if path.is_file() {
        return Ok(Built {
            path,
            compiled: false,
        });
    }
    std::fs::create_dir_all(b.dir).map_err(io("create", b.dir))?;
    let id = std::process::id();
    // The source keeps its name (compilers read the language from the extension) in a
    // directory of this process's own.
    let work = b.dir.join(format!(".build-{id}"));
    std::fs::create_dir_all(&work).map_err(io("create", &work))?;
    let src = work.join(b.source_name);
    let tmp = work.join(format!("{}{}", b.output_stem, b.output_ext));
    let result = std::fs::write(&src, b.source)
        .map_err(io("write", &src))
        .and_then(|()| compile(b, &src, &tmp))
        .and_then(|()| std::fs::rename(&tmp, &path).map_err(io("move the build to", &path)));
    let _ = std::fs::remove_dir_all(&work);
    result.map(|()| Built {
        path,
        compiled: true,
    })
}

fn io(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> BuildError {
    let path = path.to_path_buf();
    move |error| BuildError::Io {
        action,
        path,
        error,
    }
}

fn compile(b: &Build<'_>, src: &Path, out: &Path) -> Result<(), BuildError> {
    let output = Command::new(b.program)
        .args(b.args)
        .arg("-o")
        .arg(out)
        .arg(src)
        .output()
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => BuildError::NoCompiler {
                program: b.program.to_string(),
            },
            _ => BuildError::Io {
                action: "run",
                path: PathBuf::from(b.program),
                error: e,
            },
        })?;
    if output.status.success() {
        return Ok(());
    }
    Err(BuildError::Failed {
        program: b.program.to_string(),
        status: output.status.to_string(),
        stderr: String::from_utf8_lossy(&output.stderr)
            .trim_end()
            .to_string(),
    })
}

/// The 64-bit FNV-1a hash of the concatenated `parts` (the cache key).
fn fnv1a<'a>(parts: impl IntoIterator<Item = &'a [u8]>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &byte in part {
            h ^= u64::from(byte);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// Whether `program` can be started (it is on `PATH`, or a path to an executable file).
pub fn available(program: &str) -> bool {
    let p = Path::new(program);
    if p.components().count() > 1 {
        return p.is_file();
    }
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|d| d.join(program).is_file()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_follows_the_source_and_the_compiler() {
        assert_eq!(fnv1a([&b""[..]]), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a([&b"a"[..]]), 0xaf63_dc4c_8601_ec8c);
        assert_ne!(fnv1a([&b"ab"[..], b"c"]), fnv1a([&b"ab"[..], b"d"]));
    }

    #[test]
    fn a_missing_compiler_is_named() {
        let dir = std::env::temp_dir().join(format!("vates-native-{}", std::process::id()));
        let b = Build {
            source: "int main(void) { return 0; }\n",
            source_name: "x.c",
            output_stem: "x",
            output_ext: "",
            program: "/nonexistent/cc",
            args: &[],
            dir: &dir,
        };
        let e = build(&b).unwrap_err();
        assert!(
            matches!(e, BuildError::NoCompiler { ref program } if program == "/nonexistent/cc")
        );
        assert!(!available("/nonexistent/cc"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
