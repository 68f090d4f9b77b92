//! The front end in one step: text (`.pam`) lexed and parsed ([`crate::syntax`]), then
//! checked and lowered ([`crate::check`]) to a [`Model`].

use crate::diag::{ErrorKind, ModelError};
use crate::model::{Model, SourceFile};
use crate::syntax::{lexer, parser, MAX_INPUT_BYTES};
#[cfg(doc)]
use crate::syntax::{MAX_NESTING, MAX_TOKENS};

/// Parses and checks a model.
///
/// `name` labels the text in diagnostics (usually the file name). The returned model's
/// [`Model::source`] holds both.
///
/// # Errors
/// A [`ModelError`] for the first problem found: [`ErrorKind::Syntax`] for malformed text,
/// the checker's kinds (undefined or duplicate names, arity, recursion, …) for a
/// well-formed but invalid model, and [`ErrorKind::Limit`] when the input exceeds
/// [`MAX_INPUT_BYTES`], [`MAX_TOKENS`] or [`MAX_NESTING`].
pub fn parse(name: &str, text: &str) -> Result<Model, Box<ModelError>> {
    if text.len() > MAX_INPUT_BYTES {
        return Err(Box::new(
            ModelError::new(
                ErrorKind::Limit,
                format!(
                    "`{name}` is {} bytes; models larger than {} MiB are not accepted",
                    text.len(),
                    MAX_INPUT_BYTES >> 20
                ),
            )
            .with_help("describe repetition with `seq`/`par` over a range instead of unrolling it"),
        ));
    }
    let source = SourceFile {
        name: name.to_string(),
        text: text.into(),
    };
    let toks = lexer::lex(text).map_err(|f| f.into_error(&source))?;
    // Parsing and checking recurse once per nesting level. Unoptimised builds use several
    // KiB of stack per level, more than a default 2 MiB thread has at MAX_NESTING, so a
    // model that may nest deeply is parsed on a thread of its own with a generous stack
    // (reserved, not committed, memory). Should spawning fail, it runs here.
    let work = |toks: Vec<lexer::Token>, source: SourceFile| {
        let file = parser::Parser::new(text, toks)
            .file()
            .map_err(|f| f.into_error(&source))?;
        crate::check::lower(&file, source)
    };
    if lexer::depth_bound(&toks) <= INLINE_DEPTH {
        return work(toks, source);
    }
    let job = std::sync::Mutex::new(Some((toks, source)));
    let take = || {
        job.lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .take()
    };
    std::thread::scope(|scope| {
        let spawned = std::thread::Builder::new()
            .name("pamela-parse".into())
            .stack_size(PARSE_STACK_BYTES)
            .spawn_scoped(scope, || take().map(|(toks, source)| work(toks, source)));
        let result = match spawned {
            Ok(handle) => match handle.join() {
                Ok(result) => result,
                Err(panic) => std::panic::resume_unwind(panic),
            },
            Err(_) => None,
        };
        // Spawning failed (the job is still there): do the work on this thread.
        result
            .or_else(|| take().map(|(toks, source)| work(toks, source)))
            .expect("the job runs exactly once")
    })
}

/// Models whose nesting bound ([`lexer::depth_bound`]) is at most this are parsed on the
/// caller's thread.
const INLINE_DEPTH: usize = 48;

/// Stack for the parser and checker thread: ample for [`MAX_NESTING`] levels in an
/// unoptimised build.
const PARSE_STACK_BYTES: usize = 64 << 20;
