//! Reading a study's and a cell's files: regular files only, up to a limit whatever the
//! file is (a device never ends), text only.

use std::io::Read;
use std::path::Path;

/// The text of the regular file `path`: refused when it is not a regular file, holds more
/// than `limit` bytes, holds a NUL byte or is not UTF-8 (each an
/// [`std::io::ErrorKind::InvalidData`] error saying which, and where).
///
/// # Errors
/// The system's error reading it, or one of those refusals.
pub fn read(path: &Path, limit: u64) -> std::io::Result<String> {
    let refuse = |why: String| std::io::Error::new(std::io::ErrorKind::InvalidData, why);
    if path.exists() && !path.is_file() {
        return Err(refuse("not a regular file".into()));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(limit + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(refuse(format!(
            "larger than {limit} bytes, the limit for this file"
        )));
    }
    if let Some(at) = bytes.iter().position(|&b| b == 0) {
        return Err(refuse(format!("not a text file (a NUL byte at byte {at})")));
    }
    String::from_utf8(bytes).map_err(|e| {
        refuse(format!(
            "not UTF-8 text (an invalid byte at byte {})",
            e.utf8_error().valid_up_to()
        ))
    })
}
