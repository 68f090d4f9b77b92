//! Timelines, metrics, and their exporters.
//!
//! Every vates engine that produces a schedule — the PAMELA simulator's resources, the task
//! graph scheduler's processors, a recorded run's workers — returns a [`Trace`]: named
//! [`Lane`]s and labelled [`Interval`]s on them, each [`Kind::Busy`], [`Kind::Overhead`] or
//! [`Kind::Wait`]. Everything downstream reads a `Trace`:
//!
//! * [`metrics`]: busy/overhead/wait/idle time and utilisation per lane, the parallelism
//!   profile, average parallelism;
//! * [`chrome`]: Chrome Trace Event JSON, which opens in Perfetto and `chrome://tracing`;
//! * [`gantt`]: an SVG Gantt chart that stays small for millions of intervals.
//!
//! Two exporters take other data: [`plot`] draws SVG line and scatter plots (speed-up curves,
//! sweeps), [`csv`] writes RFC 4180 tables, and [`text`] prints compact numbers and aligned
//! tables for people. All fallible operations report a [`TraceError`].
//!
//! ```
//! use trace::{chrome, gantt, metrics, Kind, Trace};
//!
//! let mut t = Trace::new("two processors");
//! let p0 = t.add_lane("P0", "processors");
//! let p1 = t.add_lane("P1", "processors");
//! t.push(p0, 0.0, 3.0, "fft[0]", Kind::Busy);
//! t.push(p0, 3.0, 4.0, "send", Kind::Overhead);
//! t.push(p1, 0.0, 1.0, "recv", Kind::Wait);
//! t.push(p1, 1.0, 2.0, "fft[1]", Kind::Busy);
//! t.validate()?;
//!
//! assert_eq!(t.makespan(), 4.0);
//! let stats = metrics::lane_stats(&t);
//! assert_eq!((stats[1].busy, stats[1].idle, stats[1].utilization), (1.0, 3.0, 0.25));
//! assert_eq!(
//!     metrics::parallelism_profile(&t),
//!     vec![(0.0, 1), (1.0, 2), (2.0, 1), (4.0, 0)]
//! );
//! assert_eq!(metrics::average_parallelism(&t), 1.25);
//!
//! // One model time unit = 1 ms in Perfetto.
//! let json = chrome::to_string(&t, 1000.0);
//! assert!(json.contains(r#""name":"fft[1]","cat":"busy","ph":"X","ts":1000.0,"dur":1000.0"#));
//!
//! let svg = gantt::render_svg(&t, &gantt::GanttOptions::default())?;
//! assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
//! # Ok::<(), trace::TraceError>(())
//! ```

pub mod chrome;
pub mod csv;
mod error;
pub mod gantt;
pub mod metrics;
mod num;
pub mod plot;
pub mod text;
mod timeline;

pub use error::TraceError;
pub use timeline::{Interval, Kind, Lane, LaneId, Trace};
