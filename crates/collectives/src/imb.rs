//! The output of the Intel MPI Benchmarks (`IMB-MPI1`) as a measurement table: each
//! `# Benchmarking NAME` / `# #processes = P` section's rows become rows of the table.
//!
//! ```text
//! #----------------------------------------------------------------
//! # Benchmarking Allreduce
//! # #processes = 2
//! #----------------------------------------------------------------
//!        #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]
//!             0         1000         0.03         0.04         0.03
//!             4         1000         0.78         0.80         0.79
//! ```
//!
//! Sizes are in bytes, times in µs. The time is `t_avg[usec]` (the mean over processes of
//! each one's mean over the repetitions), or `t[usec]` where the benchmark prints only that
//! (PingPong, PingPing: half a round trip).

use fit::read::{ReadError, ReadErrorKind};

use crate::table::{op_name, Row, Table, MAX_P};

/// Reads an IMB-MPI1 output (`name` for messages).
///
/// # Errors
/// A located [`ReadError`]: a section without its `#processes` line, a column header
/// without a time column, a data line whose fields are not numbers, a process count outside
/// 1..=[`MAX_P`], a time that is not > 0, or no data at all.
pub fn read(name: &str, text: &str) -> Result<Table, ReadError> {
    let src = (name, text);
    let mut table = Table::new("µs", "bytes");
    let mut op: Option<String> = None;
    let mut p: Option<u32> = None;
    // Column indices of the current section: bytes (if any) and time.
    let mut cols: Option<(Option<usize>, usize)> = None;
    for (at, line) in fit::read::lines(text) {
        let l = line.trim();
        let here = at + (line.len() - line.trim_start().len())..at + line.trim_end().len();
        if l.is_empty() {
            continue;
        }
        if let Some(c) = l.strip_prefix('#') {
            let c = c.trim();
            if let Some(b) = c.strip_prefix("Benchmarking") {
                op = Some(op_name(match b.trim() {
                    "PingPong" => "ping-pong",
                    "PingPing" => "ping-ping",
                    other => other,
                }));
                p = None;
                cols = None;
            } else if let Some(n) = c.strip_prefix("#processes =") {
                let n = n.trim();
                let v = fit::read::number_at(src, here.clone(), n, "#processes")?;
                if v.fract() != 0.0 || !(1.0..=f64::from(MAX_P)).contains(&v) {
                    return Err(ReadError::at(
                        ReadErrorKind::OutOfRange,
                        src,
                        here,
                        format!("#processes = {} is not a process count", diag::short(n)),
                    )
                    .help(format!(
                        "a process count is a whole number from 1 to {MAX_P}"
                    )));
                }
                p = Some(v as u32);
            } else if l.starts_with("#bytes") || l.starts_with("#repetitions") {
                let heads: Vec<&str> = l.split_whitespace().collect();
                let bytes = heads.iter().position(|h| *h == "#bytes");
                let time = heads
                    .iter()
                    .position(|h| *h == "t_avg[usec]")
                    .or_else(|| heads.iter().position(|h| *h == "t[usec]"))
                    .ok_or_else(|| {
                        ReadError::at(
                            ReadErrorKind::Syntax,
                            src,
                            here.clone(),
                            "the column header has no t_avg[usec] or t[usec] column",
                        )
                        .help("give the output of IMB-MPI1's latency benchmarks, unedited")
                    })?;
                cols = Some((bytes, time));
            }
            continue;
        }
        let (Some(op), Some((bytes, time))) = (op.as_ref(), cols) else {
            // Text outside a benchmark's table (the preamble, notes) is not data.
            continue;
        };
        let Some(p) = p else {
            return Err(ReadError::at(
                ReadErrorKind::Syntax,
                src,
                here,
                format!("the `{op}` section has no `# #processes = P` line"),
            )
            .help("give IMB-MPI1's output unedited: each section names its process count"));
        };
        let fields: Vec<&str> = l.split_whitespace().collect();
        let field = |j: usize, what: &str| -> Result<f64, ReadError> {
            let f = fields.get(j).ok_or_else(|| {
                ReadError::at(
                    ReadErrorKind::Mismatch,
                    src,
                    here.clone(),
                    format!("the line has no {what} field"),
                )
                .help("each data line has one field per column of its header")
            })?;
            fit::read::number_at(src, here.clone(), f, what)
        };
        let d = bytes.map(|j| field(j, "#bytes")).transpose()?;
        let t = field(time, "time")?;
        if t <= 0.0 || d.is_some_and(|d| d < 0.0) {
            return Err(ReadError::at(
                ReadErrorKind::OutOfRange,
                src,
                here,
                "a time that is not > 0 or a negative size",
            )
            .help("IMB prints positive times; was the output edited?"));
        }
        table.rows.push(Row {
            platform: String::new(),
            op: op.clone(),
            p,
            d,
            time: t,
            shared: false,
        });
    }
    if table.rows.is_empty() {
        return Err(ReadError::whole(
            ReadErrorKind::Empty,
            name,
            "no measurements: no `# Benchmarking` section with data",
        )
        .help("run e.g. `mpirun -np 2 IMB-MPI1 Bcast Barrier > imb.txt` and give that file"));
    }
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;

    const OUT: &str = "\
#------------------------------------------------------------
#    Intel(R) MPI Benchmarks 2021.3, MPI-1 part
#------------------------------------------------------------
# List of Benchmarks to run:
# PingPong
# Barrier

#---------------------------------------------------
# Benchmarking PingPong
# #processes = 2
#---------------------------------------------------
       #bytes #repetitions      t[usec]   Mbytes/sec
            0         1000         0.18         0.00
            1         1000         0.19         5.26

#----------------------------------------------------------------
# Benchmarking Barrier
# #processes = 2
#----------------------------------------------------------------
 #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]
         1000         0.10         0.12         0.11

#----------------------------------------------------------------
# Benchmarking Bcast
# #processes = 4
#----------------------------------------------------------------
       #bytes #repetitions  t_min[usec]  t_max[usec]  t_avg[usec]
            4         1000         0.50         0.70         0.60
";

    #[test]
    fn reads_every_section() {
        let t = read("imb.txt", OUT).unwrap();
        let got: Vec<(&str, u32, Option<f64>, f64)> = t
            .rows
            .iter()
            .map(|r| (r.op.as_str(), r.p, r.d, r.time))
            .collect();
        assert_eq!(
            got,
            vec![
                ("ping-pong", 2, Some(0.0), 0.18),
                ("ping-pong", 2, Some(1.0), 0.19),
                ("barrier", 2, None, 0.11),
                ("broadcast", 4, Some(4.0), 0.60),
            ]
        );
        assert_eq!(t.size_unit, "bytes");
    }

    #[test]
    fn refuses_what_it_cannot_read() {
        let e = read(
            "x",
            "# Benchmarking Bcast\n #bytes #repetitions t_avg[usec]\n 4 10 1\n",
        )
        .unwrap_err();
        assert!(
            e.message.contains("x:3:2: the `broadcast` section has no"),
            "{}",
            e.message
        );
        let e = read(
            "x",
            "# Benchmarking Bcast\n# #processes = 2\n #bytes t_min[usec]\n",
        )
        .unwrap_err();
        assert!(e.message.contains("no t_avg[usec]"), "{}", e.message);
        let e = read("x", "# Benchmarking Bcast\n# #processes = 0\n").unwrap_err();
        assert!(e.message.contains("not a process count"), "{}", e.message);
        let e = read(
            "x",
            "# Benchmarking Bcast\n# #processes = 2\n #bytes t_avg[usec]\n 4 x\n",
        )
        .unwrap_err();
        assert!(e.message.contains("`x` in column `time`"), "{}", e.message);
        assert!(read("x", "hello\n").is_err());
    }
}
