//! Which reader a measurement table needs, told by its content, and the one call that
//! reads any of them.

use fit::read::ReadError;

use crate::table::{read_csv, Table};

/// The formats a measurement table is read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// CSV `op,p,d,time` ([`read_csv`]).
    Csv,
    /// An OSU latency test's output ([`crate::osu::read`]).
    Osu,
    /// IMB-MPI1's output ([`crate::imb::read`]).
    Imb,
}

impl Source {
    /// The format of `text` by its content: an OSU title, an IMB section, else CSV.
    pub fn sniff(text: &str) -> Source {
        let head: String = text.lines().take(40).collect::<Vec<_>>().join("\n");
        if head
            .lines()
            .any(|l| l.trim_start().starts_with("# OSU MPI"))
        {
            Source::Osu
        } else if text.contains("# Benchmarking") || head.contains("Intel(R) MPI Benchmarks") {
            Source::Imb
        } else {
            Source::Csv
        }
    }
}

/// Reads a table in `source`'s format; `osu_p` is the process count of an OSU output (its
/// text does not say; 0 if unknown is refused by [`crate::osu::read`]).
///
/// # Errors
/// The reader's located [`ReadError`].
pub fn read(source: Source, name: &str, text: &str, osu_p: u32) -> Result<Table, ReadError> {
    match source {
        Source::Csv => read_csv(name, text),
        Source::Osu => crate::osu::read(name, text, osu_p),
        Source::Imb => crate::imb::read(name, text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_told_by_their_content() {
        assert_eq!(Source::sniff("op,p,d,time\n"), Source::Csv);
        assert_eq!(
            Source::sniff("# OSU MPI Barrier Latency Test v7.3\n"),
            Source::Osu
        );
        assert_eq!(Source::sniff("#---\n# Benchmarking Bcast\n"), Source::Imb);
        let mut a = crate::table::read_csv("a", "op,p,d,time\nx,2,1,1\n").unwrap();
        let b = crate::imb::read(
            "b",
            "# Benchmarking Bcast\n# #processes = 2\n #bytes t_avg[usec]\n 4 1\n",
        )
        .unwrap();
        assert!(a.merge(b).unwrap_err().contains("bytes"));
    }
}
