//! The OMPT tool a campaign of OpenMP programs loads (`OMP_TOOL_LIBRARIES`): its C source,
//! embedded, built with a C compiler into a cache directory once per source and compiler.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The tool's source (`crates/bots/openmp/ompt/vates_ompt.c`), as this build embeds it.
pub const SOURCE: &str = include_str!("../../../bots/openmp/ompt/vates_ompt.c");

/// Why the tool could not be built.
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    /// The compiler could not be started.
    #[error("`{program}` is not installed (or not on PATH)")]
    NoCompiler {
        /// The compiler.
        program: String,
    },
    /// The compiler ran and failed for want of the OMPT header.
    #[error("the OMPT header omp-tools.h is missing")]
    NoHeader,
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

/// The tool built from [`SOURCE`] with `program args…` in `dir`: the cached library if it
/// exists (`false`), else built now (`true`), through files of this process's own renamed
/// into place, so that a concurrent build never loads half a library.
///
/// # Errors
/// [`ToolError`]: no compiler, no OMPT header, a failed compile, a cache that cannot be
/// written.
pub fn build_tool(
    program: &str,
    args: &[String],
    dir: &Path,
) -> Result<(PathBuf, bool), ToolError> {
    let key = fnv1a(
        [SOURCE.as_bytes(), b"\0", program.as_bytes()]
            .into_iter()
            .chain(args.iter().map(|a| a.as_bytes())),
    );
    let lib = dir.join(format!("libvates_ompt-{key:016x}.so"));
    if lib.is_file() {
        return Ok((lib, false));
    }
    let io = |action, path: &Path| {
        let path = path.to_path_buf();
        move |error| ToolError::Io {
            action,
            path,
            error,
        }
    };
    std::fs::create_dir_all(dir).map_err(io("create", dir))?;
    let id = std::process::id();
    let src = dir.join(format!("vates_ompt-{id}.c"));
    let tmp = dir.join(format!("libvates_ompt-{id}.so.tmp"));
    let result = std::fs::write(&src, SOURCE)
        .map_err(io("write", &src))
        .and_then(|()| compile(program, args, &src, &tmp))
        .and_then(|()| std::fs::rename(&tmp, &lib).map_err(io("move the tool to", &lib)));
    let _ = std::fs::remove_file(&src);
    let _ = std::fs::remove_file(&tmp);
    result.map(|()| (lib, true))
}

fn compile(program: &str, args: &[String], src: &Path, out: &Path) -> Result<(), ToolError> {
    let output = Command::new(program)
        .args(args)
        .args(["-O2", "-fPIC", "-shared", "-o"])
        .arg(out)
        .arg(src)
        .output()
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => ToolError::NoCompiler {
                program: program.to_string(),
            },
            _ => ToolError::Io {
                action: "run",
                path: PathBuf::from(program),
                error: e,
            },
        })?;
    if output.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    if stderr.contains("omp-tools.h") {
        return Err(ToolError::NoHeader);
    }
    Err(ToolError::Failed {
        program: program.to_string(),
        status: output.status.to_string(),
        stderr: stderr.trim_end().to_string(),
    })
}

/// The 64-bit FNV-1a hash of the concatenated `parts` (the cache key: a changed source or
/// compiler gives another file).
fn fnv1a<'a>(parts: impl IntoIterator<Item = &'a [u8]>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &b in part {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_follows_the_source_and_the_compiler() {
        assert_eq!(fnv1a([&b""[..]]), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a([&b"a"[..]]), 0xaf63_dc4c_8601_ec8c);
        assert_ne!(fnv1a([&b"ab"[..], b"c"]), fnv1a([&b"ab"[..], b"d"]));
        assert!(SOURCE.contains("ompt_start_tool"));
    }

    #[test]
    fn a_missing_compiler_is_named() {
        let dir = std::env::temp_dir().join(format!("vates-ompt-{}", std::process::id()));
        let e = build_tool("/nonexistent/cc", &[], &dir).unwrap_err();
        assert!(matches!(e, ToolError::NoCompiler { ref program } if program == "/nonexistent/cc"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
