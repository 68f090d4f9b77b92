//! The output of an OSU micro-benchmark latency test (`osu_bcast`, `osu_allreduce`,
//! `osu_barrier`, `osu_latency`, …, with or without `-f`) as a measurement table.
//!
//! ```text
//! # OSU MPI Broadcast Latency Test v7.3
//! # Datatype: MPI_CHAR.
//! # Size       Avg Latency(us)
//! 1                       2.01
//! 2                       1.97
//! ```
//!
//! The output does not say how many processes ran, so the caller gives `p`. Sizes are in
//! bytes, times in µs; the average latency is the time (the OSU tests average over their
//! iterations and processes).

use fit::read::{ReadError, ReadErrorKind};

use crate::table::{op_name, Row, Table, MAX_P};

/// The operation an OSU test's title names: `OSU MPI Broadcast Latency Test v7.3` →
/// `broadcast`; `OSU MPI Latency Test` (point to point) → `send-receive`.
fn op_of_title(title: &str) -> Option<String> {
    let t = title.trim().trim_start_matches('#').trim();
    let rest = t.strip_prefix("OSU MPI")?.trim();
    let name = rest[..rest.find("Latency Test")?].trim();
    Some(match name {
        "" => "send-receive".to_string(),
        "All-to-All Personalized Exchange" | "All-to-All" | "Alltoall" => "alltoall".into(),
        other => op_name(other),
    })
}

/// Reads an OSU latency test's output (`name` for messages) run on `p` processes.
///
/// # Errors
/// A located [`ReadError`]: no OSU title, a title of a test that is not a latency test
/// (bandwidth, message rate), a data line whose fields are not numbers, a latency that is
/// not > 0, a `p` outside 1..=[`MAX_P`], or no data lines.
pub fn read(name: &str, text: &str, p: u32) -> Result<Table, ReadError> {
    let src = (name, text);
    if !(1..=MAX_P).contains(&p) {
        return Err(ReadError::whole(
            ReadErrorKind::OutOfRange,
            name,
            format!("{p} is not a process count"),
        )
        .help(format!(
            "give the number of processes the test ran on, 1 to {MAX_P}"
        )));
    }
    let mut op = None;
    let mut with_size = true;
    let mut table = Table::new("µs", "bytes");
    for (at, line) in fit::read::lines(text) {
        let l = line.trim();
        if l.is_empty() {
            continue;
        }
        if let Some(comment) = l.strip_prefix('#') {
            let c = comment.trim();
            if c.starts_with("OSU MPI") {
                op = Some(op_of_title(c).ok_or_else(|| {
                    ReadError::at(ReadErrorKind::Syntax, src, at..at + l.len(), "not an OSU latency test")
                        .help("vates models times: give the output of a latency test (osu_bcast, osu_barrier, osu_latency, …), not of a bandwidth or message-rate test")
                })?);
            } else if c.starts_with("Avg Latency") || c.starts_with("Avg. Latency") {
                with_size = false;
            } else if c.starts_with("Size") {
                with_size = true;
            }
            continue;
        }
        let Some(op) = op.as_ref() else {
            return Err(ReadError::at(
                ReadErrorKind::Syntax,
                src,
                at..at + l.len(),
                "a data line before the test's `# OSU MPI … Latency Test` title",
            )
            .help("give the whole output of one OSU latency test, title included"));
        };
        let fields: Vec<(usize, &str)> = l
            .split_whitespace()
            .map(|f| (at + (f.as_ptr() as usize - line.as_ptr() as usize), f))
            .collect();
        let (d, t_at) = if with_size {
            let (fa, f) = fields[0];
            let d = fit::read::number_at(src, fa..fa + f.len(), f, "Size")?;
            (Some(d), 1)
        } else {
            (None, 0)
        };
        let Some(&(ta, tf)) = fields.get(t_at) else {
            return Err(ReadError::at(
                ReadErrorKind::Mismatch,
                src,
                at..at + l.len(),
                "the line has a size but no latency",
            )
            .help("each data line is a size and its latency"));
        };
        let time = fit::read::number_at(src, ta..ta + tf.len(), tf, "Avg Latency(us)")?;
        if time <= 0.0 || d.is_some_and(|d| d < 0.0) {
            return Err(ReadError::at(
                ReadErrorKind::OutOfRange,
                src,
                at..at + l.len(),
                "a latency that is not > 0 or a negative size",
            )
            .help("the OSU tests print positive latencies; was the output edited?"));
        }
        table.rows.push(Row {
            platform: String::new(),
            op: op.clone(),
            p,
            d,
            time,
            shared: false,
        });
    }
    if table.rows.is_empty() {
        return Err(ReadError::whole(
            ReadErrorKind::Empty,
            name,
            "no measurements: not the output of an OSU latency test",
        )
        .help("run e.g. `mpirun -np 2 osu_bcast > bcast.txt` and give that file"));
    }
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_collective_and_a_barrier() {
        let t = read(
            "bcast.txt",
            "# OSU MPI Broadcast Latency Test v7.3\n# Datatype: MPI_CHAR.\n\
             # Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations\n\
             1                       2.01              1.90              2.10        1000\n\
             2                       1.97              1.80              2.00        1000\n",
            4,
        )
        .unwrap();
        assert_eq!(t.rows.len(), 2);
        assert_eq!(t.rows[0].op, "broadcast");
        assert_eq!(
            (t.rows[1].p, t.rows[1].d, t.rows[1].time),
            (4, Some(2.0), 1.97)
        );
        let b = read(
            "b.txt",
            "# OSU MPI Barrier Latency Test v7.3\n# Avg Latency(us)\n             2.14\n",
            2,
        )
        .unwrap();
        assert_eq!((b.rows[0].op.as_str(), b.rows[0].d), ("barrier", None));
        let l = read(
            "l.txt",
            "# OSU MPI Latency Test v7.3\n# Size Latency (us)\n0 0.21\n",
            2,
        )
        .unwrap();
        assert_eq!(l.rows[0].op, "send-receive");
    }

    #[test]
    fn refuses_what_it_cannot_read() {
        let e = read("x", "# OSU MPI Bandwidth Test v7.3\n1 2\n", 2).unwrap_err();
        assert!(
            e.message.contains("x:1:1: not an OSU latency test"),
            "{}",
            e.message
        );
        let e = read("x", "1 2\n", 2).unwrap_err();
        assert!(e.message.contains("before the test's"), "{}", e.message);
        let e = read("x", "# OSU MPI Gather Latency Test\n# Size Avg\n1 abc\n", 2).unwrap_err();
        assert!(e.message.starts_with("x:3:3: `abc`"), "{}", e.message);
        assert!(read("x", "", 2).is_err());
        assert!(read("x", "# OSU MPI Gather Latency Test\n1 2\n", 0).is_err());
    }
}
