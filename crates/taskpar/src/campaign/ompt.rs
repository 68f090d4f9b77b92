//! The OMPT tool a campaign of OpenMP programs loads (`OMP_TOOL_LIBRARIES`): its C source,
//! embedded, built with a C compiler into a cache directory once per source and compiler.

use std::path::{Path, PathBuf};

/// The tool's source (`crates/bots/openmp/ompt/vates_ompt.c`), as this build embeds it.
pub const SOURCE: &str = include_str!("../../../bots/openmp/ompt/vates_ompt.c");

/// Why the tool could not be built.
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    /// The compiler ran and failed for want of the OMPT header.
    #[error("the OMPT header omp-tools.h is missing")]
    NoHeader,
    /// Any other failure of the build (no compiler, a failed compile, the cache).
    #[error(transparent)]
    Build(#[from] native::BuildError),
}

/// The tool built from [`SOURCE`] with `program args…` in `dir` by [`native::build`]: the
/// cached library if it exists (`false`), else built now (`true`).
///
/// # Errors
/// [`ToolError`]: no compiler, no OMPT header, a failed compile, a cache that cannot be
/// written.
pub fn build_tool(
    program: &str,
    args: &[String],
    dir: &Path,
) -> Result<(PathBuf, bool), ToolError> {
    let mut all = args.to_vec();
    all.extend(["-O2", "-fPIC", "-shared"].map(String::from));
    let built = native::build(&native::Build {
        source: SOURCE,
        source_name: "vates_ompt.c",
        output_stem: "libvates_ompt",
        output_ext: ".so",
        program,
        args: &all,
        dir,
    })
    .map_err(|e| match e {
        native::BuildError::Failed { ref stderr, .. } if stderr.contains("omp-tools.h") => {
            ToolError::NoHeader
        }
        e => ToolError::Build(e),
    })?;
    Ok((built.path, built.compiled))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_source_is_the_tool() {
        assert!(SOURCE.contains("ompt_start_tool"));
    }

    #[test]
    fn a_missing_compiler_is_named() {
        let dir = std::env::temp_dir().join(format!("vates-ompt-{}", std::process::id()));
        let e = build_tool("/nonexistent/cc", &[], &dir).unwrap_err();
        assert!(matches!(
            e,
            ToolError::Build(native::BuildError::NoCompiler { ref program })
                if program == "/nonexistent/cc"
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
