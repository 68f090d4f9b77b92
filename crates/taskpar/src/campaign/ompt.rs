//! The OMPT tool a campaign of OpenMP programs loads (`OMP_TOOL_LIBRARIES`): its C source,
//! embedded, built with a C compiler into a cache directory once per source and compiler.

use std::path::{Path, PathBuf};

use super::{Runtime, RuntimeKind};
use diag::{literal, Keyed};

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

impl diag::Advise for ToolError {
    /// What to install, or `{ompt-tool}` to give a built tool.
    fn advice(&self) -> Option<diag::Advice> {
        Some(diag::Advice::fix(match self {
            ToolError::Build(native::BuildError::Io { .. }) => {
                "check the cache directory's permissions, or give {ompt-tool} PATH"
            }
            _ => {
                "install clang and LLVM's OpenMP runtime with its OMPT header omp-tools.h \
                 (Debian: apt install clang libomp-dev), or give a built tool with {ompt-tool} \
                 PATH (clang -O2 -fPIC -shared -o libvates_ompt.so \
                 crates/bots/openmp/ompt/vates_ompt.c)"
            }
        }))
    }
}

/// The compiler and its arguments a `CC`-style setting `cc` names (`clang` when empty).
pub fn compiler(cc: &str) -> (String, Vec<String>) {
    let mut words = cc.split_whitespace().map(String::from);
    let program = words.next().unwrap_or_else(|| "clang".to_string());
    (program, words.collect())
}

/// The built tool at `path` as the runtime is to load it: made absolute (so that the runtime
/// opens that file); `{ompt-tool}` names the option that gives it.
///
/// # Errors
/// [`Keyed`]: a path that does not exist or is not a file.
pub fn given_tool(path: &Path) -> Result<PathBuf, Keyed> {
    let shown = literal(&path.display().to_string());
    let lib = std::fs::canonicalize(path).map_err(|e| {
        Keyed::fix(
            format!("{{ompt-tool}} `{shown}`: {}", literal(&e.to_string())),
            "give the path of the built tool (libvates_ompt.so), or leave {ompt-tool} out to \
             have vates build it",
        )
    })?;
    match lib.is_file() {
        true => Ok(lib),
        false => Err(Keyed::usage(format!(
            "{{ompt-tool}} `{shown}` is not a file: give the built tool (libvates_ompt.so)"
        ))),
    }
}

/// The tool built from [`SOURCE`] with the compiler a `CC`-style setting `cc` names
/// ([`compiler`]) in the cache `dir`, built now if missing, and then a note saying where;
/// `{ompt-tool}` and `{runtime}` name the options.
///
/// # Errors
/// [`Keyed`]: the tool cannot be built, with what to install.
pub fn cached_tool(cc: &str, dir: &Path) -> Result<(PathBuf, Option<String>), Keyed> {
    let (program, args) = compiler(cc);
    let (lib, built) = build_tool(&program, &args, dir).map_err(|e| {
        let help = diag::Advise::advice(&e).map(|a| a.fix).unwrap_or_default();
        match e {
            ToolError::Build(e @ native::BuildError::Io { .. }) => {
                Keyed::fix(literal(&e.to_string()), help)
            }
            e => Keyed::fix(
                format!(
                    "cannot build the OMPT tool for {{runtime}} openmp: {}",
                    literal(&e.to_string())
                ),
                help,
            ),
        }
    })?;
    let note = built.then(|| {
        format!(
            "built the OMPT tool (vates_ompt.c, with {program}) into {}; it is reused from there",
            lib.display()
        )
    });
    Ok((lib, note))
}

/// The runtime of `kind` on this machine and the note to tell (where the tool was built): for
/// OpenMP the OMPT tool `tool` ([`given_tool`]), else the one [`cached_tool`] builds with
/// the compiler and into the cache directory `setting` gives (asked only then); for DAG
/// Recorder the clock rate `clock_hz` (the one given, else this machine's), whose lack
/// `no_clock` says (a usage error, its inputs by key).
///
/// # Errors
/// [`Keyed`] from [`given_tool`] and [`cached_tool`], `no_clock`, or `setting`'s own.
pub fn recorder<E: From<Keyed>>(
    kind: RuntimeKind,
    tool: Option<&Path>,
    clock_hz: Option<f64>,
    no_clock: &str,
    setting: impl FnOnce() -> Result<(String, PathBuf), E>,
) -> Result<(Runtime, Option<String>), E> {
    Ok(match (kind, tool) {
        (RuntimeKind::Rayon, _) => (Runtime::Rayon, None),
        (RuntimeKind::OpenMp, Some(path)) => (
            Runtime::OpenMp {
                tool: given_tool(path)?,
            },
            None,
        ),
        (RuntimeKind::OpenMp, None) => {
            let (cc, dir) = setting()?;
            let (tool, built) = cached_tool(&cc, &dir)?;
            (Runtime::OpenMp { tool }, built)
        }
        (RuntimeKind::DagRecorder, _) => match clock_hz {
            Some(clock_hz) => (Runtime::DagRecorder { clock_hz }, None),
            None => return Err(Keyed::usage(no_clock).into()),
        },
    })
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
    fn the_compiler_is_the_first_word() {
        assert_eq!(compiler(""), ("clang".to_string(), vec![]));
        assert_eq!(
            compiler(" gcc -m64 "),
            ("gcc".to_string(), vec!["-m64".to_string()])
        );
    }

    #[test]
    fn a_recorder_is_found_or_refused() {
        let unasked = || -> Result<(String, PathBuf), Keyed> { unreachable!() };
        let found = recorder(RuntimeKind::DagRecorder, None, Some(2e9), "", unasked).unwrap();
        assert_eq!(found, (Runtime::DagRecorder { clock_hz: 2e9 }, None));
        let e = recorder(RuntimeKind::DagRecorder, None, None, "{clock-hz}", unasked);
        assert_eq!(e.unwrap_err(), Keyed::usage("{clock-hz}"));
        let e = given_tool(Path::new("/nonexistent/{n}.so")).unwrap_err();
        let said = diag::Advise::message(&e, &|k| Some(format!("--{k}")));
        assert!(
            said.starts_with("--ompt-tool `/nonexistent/{n}.so`: "),
            "{said}"
        );
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
