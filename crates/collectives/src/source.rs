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

/// Why a measurement table cannot be added to the others.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// An OSU output without its process count.
    #[error("`{name}` is the output of an OSU test, which does not say how many processes ran")]
    OsuNeedsP {
        /// The file's name.
        name: String,
    },
    /// The text is malformed.
    #[error(transparent)]
    Read(ReadError),
    /// Its units differ from the tables' before it.
    #[error("`{name}`: {message}")]
    Units {
        /// The file's name.
        name: String,
        /// Which units.
        message: String,
    },
}

impl diag::Advise for TableError {
    /// The process count to give (usage), or to fit tables of one unit together; a read
    /// error is located and has none.
    fn advice(&self) -> Option<diag::Advice> {
        match self {
            TableError::OsuNeedsP { .. } => Some(diag::Advice::usage("give it with {osu-np} P")),
            TableError::Read(_) => None,
            TableError::Units { .. } => Some(diag::Advice::fix(
                "fit tables of one unit together (the thesis' tables and `probe {mpi}` count \
                 integers; OSU and IMB count bytes)",
            )),
        }
    }
}

impl Table {
    /// Reads the table `text` (named `name`) in the format its content tells
    /// ([`Source::sniff`]) and appends its rows; `osu_p` is the process count of an OSU
    /// output.
    ///
    /// # Errors
    /// A [`TableError`].
    pub fn add(&mut self, name: &str, text: &str, osu_p: Option<u32>) -> Result<(), TableError> {
        let source = Source::sniff(text);
        if source == Source::Osu && osu_p.is_none() {
            return Err(TableError::OsuNeedsP {
                name: name.to_string(),
            });
        }
        let t = read(source, name, text, osu_p.unwrap_or(0)).map_err(TableError::Read)?;
        self.merge(t).map_err(|message| TableError::Units {
            name: name.to_string(),
            message,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_added_by_their_content_and_refused_with_advice() {
        use diag::Advise;
        let mut t = Table::new("", "");
        let osu = "# OSU MPI Barrier Latency Test v7.3\n# Size Avg Latency(us)\n0 1.5\n";
        let e = t.add("o.txt", osu, None).unwrap_err();
        assert!(matches!(e, TableError::OsuNeedsP { .. }));
        assert_eq!(e.advice().unwrap().fix, "give it with {osu-np} P");
        t.add("a.csv", "op,p,d,time\nx,2,1,1\n", None).unwrap();
        let imb = "# Benchmarking Bcast\n# #processes = 2\n #bytes t_avg[usec]\n 4 1\n";
        let e = t.add("b.txt", imb, None).unwrap_err();
        assert!(e.to_string().starts_with("`b.txt`: sizes in bytes"), "{e}");
        assert!(!e.advice().unwrap().usage);
        assert!(matches!(
            t.add("c.csv", "op,p\n", None),
            Err(TableError::Read(_))
        ));
        assert_eq!(t.rows.len(), 1);
    }

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
