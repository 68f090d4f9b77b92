//! A sweep drawn as line plots: one swept parameter on the x axis, a line per chosen column,
//! and a group of lines per combination of the other swept parameters.

use std::collections::BTreeMap;
use std::io;

use trace::plot::{LinePlot, Series};
use trace::TraceError;

use crate::run::{Block, Header, Sink};

/// What to draw.
#[derive(Clone, Debug)]
pub struct LinesConfig {
    /// The axis on the x axis; `None`: the first swept axis.
    pub x_axis: Option<usize>,
    /// The lines: a column and its legend, drawn in this order (later lines on top).
    pub series: Vec<LineSpec>,
    /// At most this many groups (combinations of the other swept parameters); further
    /// groups are left out ([`Lines::dropped_groups`]).
    pub max_groups: usize,
    /// At most about this many points per line: longer axes are thinned evenly, the last
    /// value always kept.
    pub max_points: u64,
}

impl Default for LinesConfig {
    fn default() -> Self {
        LinesConfig {
            x_axis: None,
            series: Vec::new(),
            max_groups: 5,
            max_points: 1000,
        }
    }
}

/// One line of each group.
#[derive(Clone, Debug)]
pub struct LineSpec {
    /// The column drawn.
    pub column: usize,
    /// Its legend (the group's values are added after it).
    pub label: String,
    /// Drawn only when there is a single group (parts of a total that would crowd a plot of
    /// several groups).
    pub single_group_only: bool,
}

impl LineSpec {
    /// Column `column`, labelled `label`, drawn in every group.
    pub fn new(column: usize, label: impl Into<String>) -> Self {
        LineSpec {
            column,
            label: label.into(),
            single_group_only: false,
        }
    }

    /// The same line, drawn only when the plot has one group.
    pub fn single_group_only(mut self) -> Self {
        self.single_group_only = true;
        self
    }
}

/// A group's label and, per series, its points.
type Group = (String, Vec<Vec<(f64, f64)>>);

/// Collects the lines of a plot while a sweep runs; [`Lines::render_svg`] draws them.
#[derive(Clone, Debug)]
pub struct Lines {
    config: LinesConfig,
    x_axis: Option<usize>,
    others: Vec<usize>,
    thin: u64,
    /// Per group (by the mixed-radix index of its values): its label and, per series, the
    /// points.
    groups: BTreeMap<u64, Group>,
    dropped: bool,
}

impl Lines {
    /// A plot drawn as `config` says.
    pub fn new(config: LinesConfig) -> Self {
        Lines {
            config,
            x_axis: None,
            others: Vec::new(),
            thin: 1,
            groups: BTreeMap::new(),
            dropped: false,
        }
    }

    /// Whether some groups were left out (more than `max_groups`).
    pub fn dropped_groups(&self) -> bool {
        self.dropped
    }

    /// The most groups drawn.
    pub fn max_groups(&self) -> usize {
        self.config.max_groups
    }

    /// The x axis chosen, if any axis is swept.
    pub fn x_axis(&self) -> Option<usize> {
        self.x_axis
    }

    /// The lines drawn, in order: each group's series, labelled `series (group values)`;
    /// lines without a point are left out.
    pub fn series(&self) -> Vec<Series> {
        let single = self.groups.len() == 1;
        let mut series = Vec::new();
        for (label, lines) in self.groups.values() {
            let suffix = if label.is_empty() {
                String::new()
            } else {
                format!(" ({label})")
            };
            for (spec, pts) in self.config.series.iter().zip(lines) {
                if (spec.single_group_only && !single) || pts.is_empty() {
                    continue;
                }
                series.push(Series::new(format!("{}{suffix}", spec.label), pts.clone()));
            }
        }
        series
    }

    /// The plot as SVG: `width` × `height` pixels, with these titles.
    ///
    /// # Errors
    /// When the plotting back end fails.
    pub fn render_svg(
        &self,
        title: &str,
        x_label: &str,
        y_label: &str,
        (width, height): (u32, u32),
    ) -> Result<String, TraceError> {
        LinePlot {
            shade_from: None,
            title: title.to_string(),
            x_label: x_label.to_string(),
            y_label: y_label.to_string(),
            series: self.series(),
            log_x: false,
            log_y: false,
        }
        .render_svg(width, height)
    }
}

impl Sink for Lines {
    fn begin(&mut self, header: &Header<'_>) -> io::Result<()> {
        let axes = header.space.axes();
        self.x_axis = self
            .config
            .x_axis
            .or_else(|| axes.iter().position(|a| a.is_swept()));
        self.others = (0..axes.len())
            .filter(|&a| Some(a) != self.x_axis && axes[a].is_swept())
            .collect();
        let xn = self.x_axis.map_or(1, |a| axes[a].len());
        self.thin = xn.div_ceil(self.config.max_points.max(1)).max(1);
        Ok(())
    }

    fn block(&mut self, header: &Header<'_>, block: &Block<'_>) -> io::Result<()> {
        let space = header.space;
        let axes = space.axes();
        for i in 0..block.len() {
            let p = block.start + i as u64;
            let params = block.params(i);
            let (x, xi, xn) = match self.x_axis {
                Some(a) => (params[a], space.index(p, a), axes[a].len()),
                None => (p as f64, 0, 1),
            };
            if xi % self.thin != 0 && xi != xn - 1 {
                continue;
            }
            let mut g = 0u64;
            for &a in &self.others {
                g = g * axes[a].len() + space.index(p, a);
            }
            if !self.groups.contains_key(&g) && self.groups.len() >= self.config.max_groups {
                self.dropped = true;
                continue;
            }
            let others = &self.others;
            let nseries = self.config.series.len();
            let (_, lines) = self.groups.entry(g).or_insert_with(|| {
                let label = others
                    .iter()
                    .map(|&a| format!("{}={}", axes[a].name(), trace::text::num(params[a])))
                    .collect::<Vec<_>>()
                    .join(", ");
                (label, vec![Vec::new(); nseries])
            });
            let values = block.values(i);
            for (spec, line) in self.config.series.iter().zip(lines.iter_mut()) {
                let y = values[spec.column];
                if y.is_finite() {
                    line.push((x, y));
                }
            }
        }
        Ok(())
    }
}
