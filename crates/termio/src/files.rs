//! Input files read under a size limit, and output files checked before a long run and
//! written.
//!
//! A text input is refused, with the byte that is wrong, when it is binary (a NUL byte, seen
//! in its first block, so `/dev/zero` costs nothing), larger than the limit (never read past
//! it), a directory, or not UTF-8 (with the line and column of the first bad byte).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use crate::error::{Diag, Error, Result};

/// Reads the text file `path` (`what` names its kind in messages, e.g. "a model file
/// (`.pam`)"), refusing one larger than `limit` bytes without reading past the limit (so
/// `/dev/zero` costs nothing), and naming the first byte that is not UTF-8. `too_large` is
/// appended to the hint for a file over the limit (e.g. the binary's advice for models).
pub fn read_text(path: &Path, limit: usize, what: &str, too_large: &str) -> Result<String> {
    let bytes = read_checked(path, limit, what, too_large, &|_| false)?;
    utf8(path, bytes, what)
}

/// Reads the file `path` as bytes that are text (as [`read_text`], binary data refused at
/// its first block) unless `binary(first bytes)` says they begin a binary format the caller
/// also reads (a recorded DAG file beside the task-graph text formats).
pub fn read_text_unless(
    path: &Path,
    limit: usize,
    what: &str,
    binary: &dyn Fn(&[u8]) -> bool,
) -> Result<Vec<u8>> {
    read_checked(path, limit, what, "", binary)
}

/// The first block of a text file, checked before the rest is read.
const FIRST_BLOCK: u64 = 1 << 16;

/// Reads `path` with [`read_text`]'s limit and messages as bytes; a NUL byte (binary data,
/// `/dev/zero`) is refused as soon as it is read (in the first block of a regular file, in
/// any chunk of a pipe or a device), unless `binary` says the bytes begin a binary format
/// the caller reads.
fn read_checked(
    path: &Path,
    limit: usize,
    what: &str,
    too_large: &str,
    binary_format: &dyn Fn(&[u8]) -> bool,
) -> Result<Vec<u8>> {
    let text = |head: &[u8]| !binary_format(head);
    let binary = |at: usize| {
        Error::from(Diag::with_help(
            format!(
                "`{}` is not a text file: byte {at} is 0x00 (NUL), which text never holds",
                path.display()
            ),
            format!("give the path of {what}, a text file"),
        ))
    };
    let file = std::fs::File::open(path).map_err(|e| Error::read(path, &e))?;
    let meta = file.metadata().ok();
    if meta.as_ref().is_some_and(|m| m.is_dir()) {
        return Err(Error::from(Diag::with_help(
            format!("cannot read `{}`: it is a directory", path.display()),
            format!("give the path of {what}"),
        )));
    }
    // A regular file's size is known: read it into a buffer of that size at once (a growing
    // buffer would copy a 100 MB file several times).
    let size = meta.filter(|m| m.is_file()).map(|m| m.len());
    let cap = limit as u64 + 1;
    let mut input = file.take(cap);
    let mut bytes = Vec::new();
    match size {
        Some(size) => {
            bytes
                .try_reserve_exact(size.min(cap) as usize + 1)
                .map_err(|_| Error::read(path, &std::io::ErrorKind::OutOfMemory.into()))?;
            (&mut input)
                .take(FIRST_BLOCK)
                .read_to_end(&mut bytes)
                .map_err(|e| Error::read(path, &e))?;
            if let Some(at) = bytes.iter().position(|&b| b == 0).filter(|_| text(&bytes)) {
                return Err(binary(at));
            }
            input.read_to_end(&mut bytes)
        }
        // A pipe or a device: read in chunks, never holding more than the limit (a doubling
        // buffer would ask for twice the limit just before refusing it).
        None => read_bounded(&mut input, &mut bytes, cap as usize, &text),
    }
    .map_err(|e| match e.kind() {
        std::io::ErrorKind::InvalidData => match bytes.iter().position(|&b| b == 0) {
            Some(at) => binary(at),
            None => Error::read(path, &e),
        },
        _ => Error::read(path, &e),
    })?;
    if let Some(at) = bytes.iter().position(|&b| b == 0).filter(|_| text(&bytes)) {
        return Err(binary(at));
    }
    if bytes.len() > limit {
        return Err(Error::from(Diag::with_help(
            format!(
                "`{}` is larger than {}, the limit for {what}",
                path.display(),
                show_bytes(limit)
            ),
            format!("check that this is the right file{too_large}"),
        )));
    }
    Ok(bytes)
}

/// `bytes` of `path` as UTF-8 text, or an error naming the first byte that is not.
pub fn utf8(path: &Path, bytes: Vec<u8>, what: &str) -> Result<String> {
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        let (line, col) = std::str::from_utf8(&bytes[..at])
            .map(|t| diag::line_col(t, at))
            .unwrap_or((0, 0));
        Error::from(Diag::with_help(
            format!(
                "`{}` is not UTF-8 text: byte 0x{:02x} at offset {at} (line {line}, column {col}) \
                 is not valid UTF-8",
                path.display(),
                bytes[at]
            ),
            format!(
                "vates reads {what} as UTF-8; convert it (e.g. `iconv -f latin1 -t utf-8`), or \
                 check that this is the right file"
            ),
        ))
    })
}

/// Reads all of `input` into `out`, growing it at most to `cap` bytes.
fn read_bounded(
    input: &mut impl Read,
    out: &mut Vec<u8>,
    cap: usize,
    text: &dyn Fn(&[u8]) -> bool,
) -> std::io::Result<usize> {
    let mut chunk = vec![0u8; 1 << 16];
    loop {
        let n = match input.read(&mut chunk) {
            Ok(0) => return Ok(out.len()),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if out.len() + n > out.capacity() {
            let want = (out.capacity() * 2)
                .max(out.len() + n)
                .min(cap.max(out.len() + n));
            out.try_reserve_exact(want - out.len())
                .map_err(|_| std::io::Error::from(std::io::ErrorKind::OutOfMemory))?;
        }
        out.extend_from_slice(&chunk[..n]);
        if chunk[..n].contains(&0) && text(out) {
            return Err(std::io::ErrorKind::InvalidData.into());
        }
    }
}

/// `1 GiB`, `16 MiB`, `1 KiB` or `123 bytes`.
fn show_bytes(n: usize) -> String {
    if n >= 1 << 30 && n.is_multiple_of(1 << 30) {
        format!("{} GiB", n >> 30)
    } else if n >= 1 << 20 && n.is_multiple_of(1 << 20) {
        format!("{} MiB", n >> 20)
    } else if n >= 1 << 10 && n.is_multiple_of(1 << 10) {
        format!("{} KiB", n >> 10)
    } else {
        format!("{n} bytes")
    }
}

/// [`check_output`] of each output file asked for.
///
/// # Errors
/// The first that cannot be written.
pub fn check_outputs<'a>(paths: impl IntoIterator<Item = &'a Option<PathBuf>>) -> Result<()> {
    paths
        .into_iter()
        .flatten()
        .try_for_each(|p| check_output(p))
}

/// [`write_file`] of `contents` to `path` when both are there: an output file asked for
/// and the output made.
///
/// # Errors
/// As [`write_file`].
pub fn write_given(path: Option<&Path>, contents: Option<&str>) -> Result<()> {
    match (path, contents) {
        (Some(path), Some(contents)) => write_file(path, contents.as_bytes()),
        _ => Ok(()),
    }
}

/// Checks, before any work, that `path` can be created as an output file: its directory
/// exists and it is not itself a directory. The error is the one writing would give.
pub fn check_output(path: &Path) -> Result<()> {
    use std::io::ErrorKind;
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    if dir.is_some_and(|d| !d.is_dir()) {
        return Err(Error::write(
            path,
            &std::io::Error::from(ErrorKind::NotFound),
        ));
    }
    if path.is_dir() {
        return Err(Error::write(
            path,
            &std::io::Error::other("it is a directory"),
        ));
    }
    // Opened for writing without truncating (`/proc/x`, a read-only file, a full disk's
    // quota show here, before a long run); a file made only for the check is removed.
    let existed = path.exists();
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| Error::write(path, &e))?;
    if !existed {
        let _ = std::fs::remove_file(path);
    }
    Ok(())
}

/// Why an existing file is kept rather than replaced by an output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// It is the command's input.
    IsInput,
    /// It is not a file of the kind the command writes.
    Foreign,
}

/// Checks that an output may go to `path` ([`check_output`]) and, if the file exists, that
/// it is neither `input` nor anything but a file of the kind written (`ours` of its first
/// `limit` bytes): another file is kept.
///
/// # Errors
/// An output path that cannot be created or written.
pub fn replaceable(
    path: &Path,
    input: &Path,
    limit: usize,
    ours: impl Fn(&str) -> bool,
) -> Result<Option<Keep>> {
    check_output(path)?;
    if !path.exists() {
        return Ok(None);
    }
    let canonical = |p: &Path| std::fs::canonicalize(p).ok();
    if canonical(path).is_some_and(|a| canonical(input) == Some(a)) {
        return Ok(Some(Keep::IsInput));
    }
    let text = std::fs::File::open(path).and_then(|f| {
        let mut text = String::new();
        f.take(limit as u64).read_to_string(&mut text).map(|_| text)
    });
    Ok((!text.is_ok_and(|t| ours(&t))).then_some(Keep::Foreign))
}

/// Writes `bytes` to `path`; the error names the path.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    std::fs::write(path, bytes).map_err(|e| Error::write(path, &e))
}

/// Writes `bytes` to `path`, or to `out` when `path` is absent or `-` (standard output).
///
/// # Errors
/// A file that cannot be written (the error names it), `out` closed.
pub fn write_or_stdout(path: Option<&Path>, bytes: &[u8], out: &mut dyn Write) -> Result<()> {
    match path {
        Some(p) if p.as_os_str() != "-" => write_file(p, bytes),
        _ => out.write_all(bytes).map_err(Error::Stdout),
    }
}

/// An output file opened for writing before a long run (so an unwritable path fails at
/// once, not after the run) and written when the run is done; an existing file keeps its
/// contents until then. Dropped unwritten (the run stopped), a file the run created is
/// removed again.
pub struct Reserved {
    path: std::path::PathBuf,
    file: std::fs::File,
    /// Whether opening created the file and nothing was written to it yet (removed when
    /// dropped).
    created: bool,
}

impl Drop for Reserved {
    fn drop(&mut self) {
        if self.created {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

impl Reserved {
    /// Opens `path` for writing without truncating it: an existing profile stays as it is
    /// until the new one is written.
    ///
    /// # Errors
    /// A path that cannot be created or opened for writing.
    pub fn open(path: &std::path::Path) -> Result<Reserved> {
        check_output(path)?;
        let existed = path.exists();
        let file = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(|e| Error::write(path, &e))?;
        Ok(Reserved {
            path: path.to_path_buf(),
            file,
            created: !existed,
        })
    }

    /// Replaces the file's contents with `bytes`.
    ///
    /// # Errors
    /// A failed write (the error names the path).
    pub fn write(mut self, bytes: &[u8]) -> Result<()> {
        self.created = false;
        let fail = |e: std::io::Error| Error::write(&self.path, &e);
        // A regular file is emptied first; a device or pipe (`-o /dev/stdout`) has no length.
        if self.file.metadata().is_ok_and(|m| m.is_file()) {
            self.file.set_len(0).map_err(fail)?;
        }
        self.file.write_all(bytes).map_err(fail)?;
        self.file.flush().map_err(fail)
    }

    /// The run stopped: a file this run created is removed, an existing one kept (as when
    /// it is dropped).
    pub fn abandon(self) {}
}

/// vates' cache directory, where native helpers built at run time are kept:
/// `$XDG_CACHE_HOME/vates` (an absolute path), else `~/.cache/vates`.
///
/// # Errors
/// When neither variable is set, an error saying so; `fix` is its hint (how to do without).
pub fn cache_dir(fix: &str) -> Result<std::path::PathBuf> {
    use std::path::PathBuf;
    std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|v| !v.is_empty())
                .map(|h| PathBuf::from(h).join(".cache"))
        })
        .map(|base| base.join("vates"))
        .ok_or_else(|| {
            Diag::with_help(
                "no cache directory: neither XDG_CACHE_HOME nor HOME is set",
                fix,
            )
            .into()
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("termio-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    #[test]
    fn binary_data_is_refused_at_the_byte_that_is_nul() {
        let p = scratch("nul.txt");
        std::fs::write(&p, b"abc\0def").unwrap();
        let e = read_text(&p, 1 << 20, "a model file", "").unwrap_err();
        assert!(e.to_string().contains("byte 3 is 0x00"), "{e}");
        // The caller's binary format is read as bytes.
        let b = read_text_unless(&p, 1 << 20, "a graph", &|h| h.starts_with(b"abc")).unwrap();
        assert_eq!(b, b"abc\0def");
    }

    #[test]
    fn a_device_of_endless_zeros_costs_one_block() {
        let e = read_text(Path::new("/dev/zero"), 1 << 30, "a CSV file", "").unwrap_err();
        assert!(e.to_string().contains("not a text file"), "{e}");
    }

    #[test]
    fn bad_utf8_is_named_by_line_and_column() {
        let p = scratch("latin1.txt");
        std::fs::write(&p, b"ok\nab\xe9").unwrap();
        let e = read_text(&p, 1 << 20, "a CSV file", "").unwrap_err();
        assert!(
            e.to_string()
                .contains("0xe9 at offset 5 (line 2, column 3)"),
            "{e}"
        );
    }

    #[test]
    fn a_file_over_the_limit_is_refused_with_the_advice() {
        let p = scratch("big.txt");
        std::fs::write(&p, "x".repeat(2048)).unwrap();
        let Error::Diag(d) = read_text(&p, 1024, "a model", "; write it shorter").unwrap_err()
        else {
            panic!("a diagnostic")
        };
        assert!(d.message.contains("larger than 1 KiB"), "{}", d.message);
        assert!(d.help.unwrap().ends_with("write it shorter"));
    }

    #[test]
    fn a_reserved_file_keeps_its_contents_until_written() {
        let p = scratch("profile.json");
        std::fs::write(&p, "old").unwrap();
        let r = Reserved::open(&p).unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "old");
        r.write(b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "new");
        // A file the run created is removed when the run stops; an existing one is kept.
        let q = scratch("fresh.json");
        let _ = std::fs::remove_file(&q);
        Reserved::open(&q).unwrap().abandon();
        assert!(!q.exists());
        drop(Reserved::open(&q).unwrap());
        assert!(!q.exists());
        Reserved::open(&p).unwrap().abandon();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "new");
        assert!(Reserved::open(Path::new("/proc/no/such.json")).is_err());
    }

    #[test]
    fn an_output_replaces_only_a_file_of_its_kind() {
        let out = scratch("model.json");
        let input = scratch("train.csv");
        std::fs::write(&input, "n,p,time\n").unwrap();
        let _ = std::fs::remove_file(&out);
        let ours = |t: &str| t.starts_with("{\"format\": \"model\"");
        assert_eq!(replaceable(&out, &input, 1 << 10, ours).unwrap(), None);
        std::fs::write(&out, "{\"format\": \"model\"}").unwrap();
        assert_eq!(replaceable(&out, &input, 1 << 10, ours).unwrap(), None);
        std::fs::write(&out, "notes I keep").unwrap();
        assert_eq!(
            replaceable(&out, &input, 1 << 10, ours).unwrap(),
            Some(Keep::Foreign)
        );
        assert_eq!(
            replaceable(&input, &input, 1 << 10, |_| true).unwrap(),
            Some(Keep::IsInput)
        );
    }

    #[test]
    fn outputs_asked_for_are_checked_and_written_when_made() {
        let p = scratch("given.txt");
        let missing = Some(Path::new("/nonexistent-dir/x.svg").to_path_buf());
        assert!(check_outputs([&None, &Some(p.clone())]).is_ok());
        assert!(check_outputs([&Some(p.clone()), &missing]).is_err());
        write_given(Some(&p), None).unwrap();
        write_given(None, Some("x")).unwrap();
        write_given(Some(&p), Some("made")).unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "made");
    }
}
