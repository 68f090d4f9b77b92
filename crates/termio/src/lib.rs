//! What the `vates` command line needs that is neither a flag nor glue: input files read
//! under a size limit (binary data and bad UTF-8 refused with the byte that is wrong),
//! output files checked before a long run, the errors of both as messages with a hint,
//! progress bars that appear only on long runs at a terminal, and the outputs of a sweep
//! (text table, CSV, JSON, plot) wired once.
//!
//! The engines never use this crate: they return typed results; only the binary (`cli`)
//! does, and this crate names no flag (the binary turns its errors into messages that do).
//!
//! ```
//! let dir = std::env::temp_dir().join(format!("termio-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let path = dir.join("model.pam");
//! termio::files::write_file(&path, b"main = skip;").unwrap();
//! let text = termio::files::read_text(&path, 1 << 20, "a model file", "").unwrap();
//! assert_eq!(text, "main = skip;");
//! // A directory, a binary file or a file over the limit is refused with a hint.
//! let e = termio::files::read_text(&dir, 1 << 20, "a model file", "").unwrap_err();
//! assert!(e.to_string().contains("is a directory"));
//! let e = termio::files::read_text(&path, 4, "a model file", "").unwrap_err();
//! assert!(e.to_string().contains("larger than 4 bytes"));
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```

pub mod error;
pub mod files;
pub mod interrupt;
pub mod progress;
pub mod sweep_out;

pub use error::{Diag, Error, Result};
