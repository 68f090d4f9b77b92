//! A machine profile as aligned text for people: every measurement's median with its spread,
//! the cache boundaries beside what the system reports, the bandwidth.

use std::fmt::Write as _;

use crate::{Profile, SizePoint, Stat, ThreadPoint};

/// The profile as text: a header naming the host, one table per measurement (medians with
/// minimum and maximum, in ns, µs or ms; sizes in B, KiB, MiB; bandwidth in GB/s), the cache
/// boundaries measured beside the caches the system reports.
pub fn profile_text(p: &Profile) -> String {
    let mut out = header(p);
    out.push('\n');
    out.push_str(&single_events(p));
    out.push('\n');
    out.push_str(&thread_table(
        "barrier episode (std::sync::Barrier, pre-synchronised arrival)",
        &p.barrier,
    ));
    out.push('\n');
    out.push_str(&thread_table(
        "fork and join of empty threads (std::thread::scope)",
        &p.fork_join,
    ));
    out.push('\n');
    out.push_str(&size_table(
        "message, one way (std::sync::mpsc ping-pong; the receiver touches every cache line)",
        "message",
        &p.channel,
    ));
    out.push('\n');
    out.push_str(&latency_table(p));
    out.push('\n');
    out.push_str(&boundary_table(p));
    out.push('\n');
    out.push_str(&bandwidth_table(p));
    out
}

/// The host and how the probe ran.
fn header(p: &Profile) -> String {
    let m = &p.machine;
    let mut host = m.cpu_model.clone().unwrap_or_else(|| "unknown CPU".into());
    if let Some(mhz) = m.cpu_mhz {
        let _ = write!(host, " at {mhz:.0} MHz");
    }
    let s = &p.settings;
    format!(
        "machine profile (version {}): {host}, {} cores, {} {}\n{} probe: {} repetitions of \
         about {} per point\n",
        p.version,
        m.cores,
        m.arch,
        m.os,
        if s.quick { "quick" } else { "full" },
        s.repetitions,
        time(s.repetition_s),
    )
}

/// Clock, lock, atomic and `rayon::join`.
fn single_events(p: &Profile) -> String {
    let rayon = format!(
        "rayon::join, empty closures ({} workers)",
        p.rayon_join.threads
    );
    let rows = [
        ("clock read (Instant::now)", &p.timer),
        ("lock + unlock (Mutex, uncontended)", &p.lock),
        ("atomic fetch_add (uncontended)", &p.atomic),
        (rayon.as_str(), &p.rayon_join.time),
    ];
    let mut t = Table::new(&["event", "median", "min – max", "reps", "ops/rep"]);
    for (name, s) in rows {
        t.row(stat_cells(name.to_string(), s));
    }
    t.render()
}

/// A time table by thread count.
fn thread_table(title: &str, points: &[ThreadPoint]) -> String {
    let mut t = Table::new(&["threads", "median", "min – max", "reps", "ops/rep"]);
    for pt in points {
        t.row(stat_cells(pt.threads.to_string(), &pt.time));
    }
    format!("{title}\n{}", t.render())
}

/// A time table by size.
fn size_table(title: &str, key: &str, points: &[SizePoint]) -> String {
    let mut t = Table::new(&[key, "median", "min – max", "reps", "ops/rep"]);
    for pt in points {
        t.row(stat_cells(bytes_text(pt.bytes), &pt.time));
    }
    format!("{title}\n{}", t.render())
}

/// The pointer chase with the level each working set falls in.
fn latency_table(p: &Profile) -> String {
    let mut t = Table::new(&["working set", "median", "min – max", "reps", "level"]);
    for pt in &p.memory.latency {
        let mut cells = stat_cells(bytes_text(pt.bytes), &pt.time);
        cells[4] = level_name(p.cache_level(pt.bytes), p.memory.boundaries.len());
        t.row(cells);
    }
    format!(
        "load latency (pointer chase over a random cycle, one line per load)\n{}",
        t.render()
    )
}

/// `L1`, `L2`, … or `memory` for the level past the last boundary.
fn level_name(level: usize, boundaries: usize) -> String {
    if level > boundaries {
        "memory".into()
    } else {
        format!("L{level}")
    }
}

/// Measured boundaries beside the data caches the system reports, level by level.
fn boundary_table(p: &Profile) -> String {
    let sys: Vec<_> = p.machine.data_caches().collect();
    let levels = p
        .memory
        .boundaries
        .len()
        .max(sys.iter().map(|c| c.level as usize).max().unwrap_or(0));
    let mut t = Table::new(&["level", "fits", "slower from", "latency", "system reports"]);
    for level in 1..=levels {
        let b = p.memory.boundaries.iter().find(|b| b.level == level);
        let reported: Vec<String> = sys
            .iter()
            .filter(|c| c.level as usize == level)
            .map(|c| format!("{} {}", bytes_text(c.size_bytes), c.kind.to_lowercase()))
            .collect();
        t.row(vec![
            format!("L{level}"),
            b.map_or("-".into(), |b| bytes_text(b.fits_bytes)),
            b.map_or("-".into(), |b| bytes_text(b.jump_bytes)),
            b.map_or("-".into(), |b| {
                format!("{} → {}", time(b.before_s), time(b.after_s))
            }),
            if reported.is_empty() {
                "-".into()
            } else {
                reported.join(", ")
            },
        ]);
    }
    format!(
        "cache boundaries (where the latency rises above {}× the level's plateau)\n{}",
        p.settings.jump_factor,
        t.render()
    )
}

/// Read bandwidth by thread count.
fn bandwidth_table(p: &Profile) -> String {
    let mut t = Table::new(&["threads", "median", "min – max"]);
    for pt in &p.bandwidth.points {
        let r = &pt.rate;
        t.row(vec![
            pt.threads.to_string(),
            format!("{} GB/s", sig3(r.median_bytes_per_s / 1e9)),
            format!(
                "{} – {} GB/s",
                sig3(r.min_bytes_per_s / 1e9),
                sig3(r.max_bytes_per_s / 1e9)
            ),
        ]);
    }
    format!(
        "memory read bandwidth ({} array, one slice per thread)\n{}",
        bytes_text(p.bandwidth.array_bytes),
        t.render()
    )
}

/// The cells of a timed row: name, median, spread in the median's unit, repetitions,
/// operations per repetition.
fn stat_cells(name: String, s: &Stat) -> Vec<String> {
    let (scale, unit) = time_unit(s.median_s);
    vec![
        name,
        format!("{} {unit}", sig3(s.median_s * scale)),
        format!(
            "{} – {} {unit}",
            sig3(s.min_s * scale),
            sig3(s.max_s * scale)
        ),
        s.repetitions.to_string(),
        s.ops_per_repetition.to_string(),
    ]
}

/// The factor and unit a time of `s` seconds reads best in.
fn time_unit(s: f64) -> (f64, &'static str) {
    if s < 1e-6 {
        (1e9, "ns")
    } else if s < 1e-3 {
        (1e6, "µs")
    } else if s < 1.0 {
        (1e3, "ms")
    } else {
        (1.0, "s")
    }
}

/// A time with its unit: `3.42 µs`.
pub(crate) fn time(s: f64) -> String {
    let (scale, unit) = time_unit(s);
    format!("{} {unit}", sig3(s * scale))
}

/// Three significant digits (at least the integer part).
fn sig3(x: f64) -> String {
    let a = x.abs();
    if a >= 100.0 {
        format!("{x:.0}")
    } else if a >= 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    }
}

/// A size in B, KiB, MiB or GiB (exact for whole multiples, else one decimal).
pub fn bytes_text(b: u64) -> String {
    const UNITS: [(u64, &str); 3] = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")];
    for (size, unit) in UNITS {
        if b >= size {
            return if b.is_multiple_of(size) {
                format!("{} {unit}", b / size)
            } else {
                format!("{:.1} {unit}", b as f64 / size as f64)
            };
        }
    }
    format!("{b} B")
}

/// An aligned text table: the first column left-aligned, the others right-aligned.
struct Table {
    rows: Vec<Vec<String>>,
}

impl Table {
    fn new(header: &[&str]) -> Self {
        Table {
            rows: vec![header.iter().map(|h| h.to_string()).collect()],
        }
    }

    fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    fn render(&self) -> String {
        let columns = self.rows.iter().map(Vec::len).max().unwrap_or(0);
        let width = |c: usize| {
            self.rows
                .iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        };
        let widths: Vec<usize> = (0..columns).map(width).collect();
        let mut out = String::new();
        for row in &self.rows {
            let mut line = String::from("  ");
            for (c, cell) in row.iter().enumerate() {
                let pad = widths[c].saturating_sub(cell.chars().count());
                if c == 0 {
                    let _ = write!(line, "{cell}{}", " ".repeat(pad));
                } else {
                    let _ = write!(line, "   {}{cell}", " ".repeat(pad));
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_times_read_well() {
        assert_eq!(bytes_text(8), "8 B");
        assert_eq!(bytes_text(2048), "2 KiB");
        assert_eq!(bytes_text(256 << 20), "256 MiB");
        assert_eq!(bytes_text(1536), "1.5 KiB");
        assert_eq!(time(3.4567e-6), "3.46 µs");
        assert_eq!(time(1.234e-9), "1.23 ns");
        assert_eq!(time(0.0123), "12.3 ms");
    }

    #[test]
    fn tables_align_their_columns() {
        let mut t = Table::new(&["a", "bb"]);
        t.row(vec!["long name".into(), "1".into()]);
        assert_eq!(t.render(), "  a           bb\n  long name    1\n");
    }
}
