//! Import of the Standard Task Graph (STG) format of the Kasahara lab
//! (<https://www.kasahara.cs.waseda.ac.jp/schedule/format_e.html>), without communication
//! costs.
//!
//! The first number is n, the number of real tasks **excluding** the two dummy tasks. Then
//! follow n + 2 task records numbered 0 ..= n + 1: `id time npreds pred...`, where task 0 is
//! the dummy entry and task n + 1 the dummy exit (both of time 0). After the records, lines
//! starting with `#` hold free-form information and are ignored. Records are read as a stream
//! of whitespace-separated numbers, so a record may wrap across lines; record k must carry
//! the number k. Ids are the task numbers as text. By default the dummy tasks are kept (they
//! take no time); [`StgOptions::drop_dummies`] removes them and their edges.

use crate::error::{ErrorKind, GraphError};
use crate::graph::{Limits, TaskGraph, TaskGraphBuilder};
use sweep::{Limit, Reached};

/// Options for [`read_stg_with`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StgOptions {
    /// Leave out the dummy entry (0) and exit (n + 1) tasks and their edges.
    pub drop_dummies: bool,
    /// Size limits.
    pub limits: Limits,
}

/// Reads an STG file with default options.
///
/// ```
/// let g = taskgraph::stg::read_stg("2\n0 0 0\n1 5 1 0\n2 3 1 0\n3 0 2 1 2\n# info\n").unwrap();
/// assert_eq!(g.len(), 4);
/// assert_eq!(g.span(), 5.0);
/// ```
pub fn read_stg(text: &str) -> Result<TaskGraph, GraphError> {
    read_stg_with(text, "<stg>", &StgOptions::default())
}

struct Toks<'a> {
    text: &'a str,
    pos: usize,
    name: &'a str,
}

impl<'a> Toks<'a> {
    /// Next number token (skipping whitespace); `None` at the end or at a `#` line.
    fn next(&mut self) -> Option<(&'a str, usize)> {
        let b = self.text.as_bytes();
        while self.pos < b.len() && b[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        if self.pos >= b.len() || b[self.pos] == b'#' {
            return None;
        }
        let s = self.pos;
        while self.pos < b.len() && !b[self.pos].is_ascii_whitespace() && b[self.pos] != b'#' {
            self.pos += 1;
        }
        Some((&self.text[s..self.pos], s))
    }

    fn err(&self, kind: ErrorKind, msg: String, at: usize, len: usize) -> GraphError {
        GraphError::new(kind, msg).at(self.name, self.text, at, at + len, "here")
    }

    fn eof(&self, what: &str) -> GraphError {
        let at = self.pos.min(self.text.len());
        self.err(
            ErrorKind::Syntax,
            format!("expected {what}, found the end of the task list"),
            at,
            0,
        )
        .with_help(
            "an STG file holds n, then n + 2 records `id time npreds pred...` (tasks 0 ..= n + 1)",
        )
    }

    fn uint(&mut self, what: &str) -> Result<(usize, usize), GraphError> {
        let (t, at) = self.next().ok_or_else(|| self.eof(what))?;
        t.parse::<usize>().map(|v| (v, at)).map_err(|_| {
            self.err(
                ErrorKind::Syntax,
                format!("expected {what} (a non-negative integer), found `{t}`"),
                at,
                t.len(),
            )
        })
    }
}

/// Reads an STG file; `name` names the input in diagnostics.
pub fn read_stg_with(text: &str, name: &str, opts: &StgOptions) -> Result<TaskGraph, GraphError> {
    opts.limits.check_bytes(text.len())?;
    let mut tk = Toks { text, pos: 0, name };
    let (n, at) = tk.uint("the number of tasks")?;
    let total = n
        .checked_add(2)
        .filter(|&t| t <= opts.limits.max_tasks)
        .ok_or_else(|| {
            tk.err(
                ErrorKind::Limit,
                format!(
                    "{n} tasks, more than the limit of {}",
                    opts.limits.max_tasks
                ),
                at,
                0,
            )
            .with_reached(Reached::new(Limit::Tasks, opts.limits.max_tasks as u64))
        })?;
    // Each record needs at least 6 bytes ("k t 0\n"), so the text bounds the real count.
    if total > text.len() / 4 + 2 {
        return Err(tk.err(
            ErrorKind::Syntax,
            format!("the file announces {n} tasks but is too short to hold them"),
            at,
            0,
        ));
    }
    let drop = opts.drop_dummies;
    let mut b = TaskGraphBuilder::with_limits(opts.limits);
    let mut preds: Vec<(u32, u32, usize, usize)> = Vec::new();
    let mut idx: Vec<u32> = Vec::with_capacity(total);
    let mut name_buf = String::new();
    for k in 0..total {
        let (id, at) = tk.uint(&format!("the number of task {k}"))?;
        if id != k {
            return Err(tk.err(
                ErrorKind::Syntax,
                format!("expected task number {k}, found {id}"),
                at,
                id.to_string().len(),
            )
            .with_help("records must be numbered 0, 1, ..., n + 1 in order; STG files with communication costs are not supported"));
        }
        let (tt, tat) = tk.next().ok_or_else(|| tk.eof("a task time"))?;
        let time = tt.parse::<f64>().map_err(|_| {
            tk.err(
                ErrorKind::BadTime,
                format!("task {k}: time `{tt}` is not a number"),
                tat,
                tt.len(),
            )
        })?;
        let (np, _) = tk.uint(&format!("the predecessor count of task {k}"))?;
        let dummy = k == 0 || k == total - 1;
        if drop && dummy {
            idx.push(u32::MAX);
        } else {
            name_buf.clear();
            name_buf.push_str(&k.to_string());
            idx.push(b.task(&name_buf, time));
            if !(time.is_finite() && time >= 0.0) {
                return Err(tk.err(
                    ErrorKind::BadTime,
                    format!("task {k} has time {time}; times must be finite and >= 0"),
                    tat,
                    tt.len(),
                ));
            }
        }
        for _ in 0..np {
            let (p, pat) = tk.uint(&format!("a predecessor of task {k}"))?;
            if p >= total {
                return Err(tk.err(
                    ErrorKind::UnknownTask,
                    format!(
                        "task {k} has predecessor {p}, but tasks are numbered 0 ..= {}",
                        total - 1
                    ),
                    pat,
                    p.to_string().len(),
                ));
            }
            if preds.len() >= opts.limits.max_edges {
                return Err(tk
                    .err(
                        ErrorKind::Limit,
                        format!("more than {} edges, the limit", opts.limits.max_edges),
                        pat,
                        0,
                    )
                    .with_reached(Reached::new(Limit::Edges, opts.limits.max_edges as u64)));
            }
            preds.push((p as u32, k as u32, pat, p.to_string().len()));
        }
    }
    if let Some((t, at)) = tk.next() {
        return Err(tk
            .err(
                ErrorKind::Syntax,
                format!(
                    "unexpected `{t}` after the last task record (task {})",
                    total - 1
                ),
                at,
                t.len(),
            )
            .with_help(
                "the first number must be n, the number of tasks without the two dummy tasks",
            ));
    }
    for &(p, k, pat, plen) in &preds {
        let (a, c) = (idx[p as usize], idx[k as usize]);
        if a == u32::MAX || c == u32::MAX {
            continue; // an edge of a dropped dummy task
        }
        if a == c {
            return Err(tk.err(
                ErrorKind::SelfLoop,
                format!("task {k} is its own predecessor"),
                pat,
                plen,
            ));
        }
        b.edge(a, c);
    }
    b.build().map_err(|e| {
        let Some(t) = e.task else { return e };
        let Some(k) = idx.iter().position(|&x| x == t) else {
            return e;
        };
        match preds.iter().find(|x| x.1 as usize == k) {
            Some(&(_, _, pat, plen)) => {
                e.at(name, text, pat, pat + plen, "predecessor of this task")
            }
            None => e,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example of the Standard Task Graph Set pages (10 tasks + 2 dummies).
    const EX: &str = "10
0 0 0
1 3 1 0
2 3 1 1
3 4 1 1
4 2 1 1
5 1 1 2
6 10 1 2
7 20 2 3 4
8 7 2 5 6
9 5 2 6 7
10 8 2 8 9
11 0 1 10
# Standard Task Graph Set Project
#   Tasks             : 10 (+dummy tasks : 2)
#   Edges             : 13 (+dummy edges : 2)
";

    #[test]
    fn reads_example() {
        let g = read_stg(EX).unwrap();
        assert_eq!(g.len(), 12);
        assert_eq!(g.edge_count(), 15);
        assert_eq!(g.work(), 63.0);
        // 0 -> 1 -> 3 -> 7 -> 9 -> 10 -> 11: 3 + 4 + 20 + 5 + 8.
        assert_eq!(g.span(), 40.0);
        assert_eq!(
            g.critical_path_ids(),
            vec!["0", "1", "3", "7", "9", "10", "11"]
        );
        let d = read_stg_with(
            EX,
            "x",
            &StgOptions {
                drop_dummies: true,
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(d.len(), 10);
        assert_eq!(d.edge_count(), 13);
        assert_eq!(d.span(), 40.0);
        assert_eq!(d.id(0), "1");
    }

    #[test]
    fn errors() {
        let e = read_stg("1\n0 0 0\n1 5 1 0\n").unwrap_err();
        assert_eq!((e.kind, e.line_col()), (ErrorKind::Syntax, Some((4, 1))));
        let e = read_stg("1\n0 0 0\n2 5 1 0\n2 0 1 1\n").unwrap_err();
        assert_eq!((e.kind, e.line_col()), (ErrorKind::Syntax, Some((3, 1))));
        let e = read_stg("1\n0 0 0\n1 x 1 0\n2 0 1 1\n").unwrap_err();
        assert_eq!((e.kind, e.line_col()), (ErrorKind::BadTime, Some((3, 3))));
        let e = read_stg("1\n0 0 0\n1 -5 1 0\n2 0 1 1\n").unwrap_err();
        assert_eq!(e.kind, ErrorKind::BadTime);
        let e = read_stg("1\n0 0 0\n1 5 1 9\n2 0 1 1\n").unwrap_err();
        assert_eq!(
            (e.kind, e.line_col()),
            (ErrorKind::UnknownTask, Some((3, 7)))
        );
        let e = read_stg("1\n0 0 0\n1 5 1 1\n2 0 1 1\n").unwrap_err();
        assert_eq!(e.kind, ErrorKind::SelfLoop);
        let e = read_stg("2\n0 0 1 2\n1 5 1 0\n2 0 1 1\n3 0 1 2\n").unwrap_err();
        assert_eq!(e.kind, ErrorKind::Cycle);
        let e = read_stg("1\n0 0 0\n1 5 1 0\n2 0 1 1\n3 0 0\n").unwrap_err();
        assert_eq!(e.kind, ErrorKind::Syntax);
        let e = read_stg("99999999999\n0 0 0").unwrap_err();
        assert_eq!(e.kind, ErrorKind::Limit);
        assert_eq!(
            e.reached,
            Some(Reached::new(
                Limit::Tasks,
                Limits::default().max_tasks as u64
            ))
        );
        let few_edges = StgOptions {
            limits: Limits {
                max_edges: 1,
                ..Limits::default()
            },
            ..StgOptions::default()
        };
        let e = read_stg_with(EX, "x", &few_edges).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Limit);
        assert_eq!(e.reached, Some(Reached::new(Limit::Edges, 1)));
        assert!(
            e.message.starts_with("more than 1 edges, the limit"),
            "{}",
            e.message
        );
        let e = read_stg("1000000\n0 0 0").unwrap_err();
        assert_eq!(e.kind, ErrorKind::Syntax);
        assert_eq!(read_stg("").unwrap_err().kind, ErrorKind::Syntax);
    }
}
