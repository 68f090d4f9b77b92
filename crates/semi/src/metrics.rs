//! The paper's effectiveness metrics (§4.1): the prediction error E (eq. 4.9), its average Ē
//! over the validation points of one processor count (eq. 4.10), the conservative prediction
//! ratio R (eq. 4.8), and the per-processor-count tables of Tables II–VI.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Why a metric cannot be computed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum MetricError {
    /// The actual time is zero or negative: E and R are relative to it.
    #[error("the actual time {actual} s is not positive (E and R are relative to it)")]
    NonPositiveActual {
        /// The actual time.
        actual: f64,
    },
    /// A value is NaN or infinite.
    #[error("the {what} is not a finite number ({value})")]
    NotFinite {
        /// Which value: `actual time`, `predicted time`, `sampling time`, `estimating time`.
        what: &'static str,
        /// The value.
        value: f64,
    },
    /// A time spent sampling or estimating is negative.
    #[error("the {what} {value} s is negative")]
    NegativeTime {
        /// `sampling time` or `estimating time`.
        what: &'static str,
        /// The value.
        value: f64,
    },
    /// Sampling and estimating took no time at all: R would be infinite.
    #[error("sampling and estimating took no time: the prediction ratio is unbounded")]
    NoEffort,
    /// A row of a validation has no points.
    #[error("{row}: no validation points")]
    NoPoints {
        /// The row's label (its processor count).
        row: String,
    },
    /// A validation point is invalid.
    #[error("{row}, point {chi}: {reason}")]
    AtPoint {
        /// The row's label (its processor count).
        row: String,
        /// The point's application parameters χ.
        chi: String,
        /// What is wrong with it.
        reason: Box<MetricError>,
    },
}

/// The prediction error E = |actual − predicted| / actual (eq. 4.9), as a fraction (0.1 is
/// 10%).
///
/// # Errors
/// [`MetricError::NonPositiveActual`] or [`MetricError::NotFinite`].
pub fn error(actual: f64, predicted: f64) -> Result<f64, MetricError> {
    check_actual(actual)?;
    check_finite("predicted time", predicted)?;
    Ok(((actual - predicted) / actual).abs())
}

/// The average error Ē (eq. 4.10) over `(actual, predicted)` pairs: `Ok(None)` for no pairs.
///
/// # Errors
/// As [`error`], for the first invalid pair.
pub fn mean_error(pairs: &[(f64, f64)]) -> Result<Option<f64>, MetricError> {
    let errors = pairs
        .iter()
        .map(|&(actual, predicted)| error(actual, predicted))
        .collect::<Result<Vec<f64>, MetricError>>()?;
    Ok(mean(&errors))
}

/// The conservative prediction ratio R = actual / (sample + estimate) (eq. 4.8): how many
/// times longer the predicted run takes than sampling and predicting it did.
///
/// # Errors
/// [`MetricError::NonPositiveActual`], [`MetricError::NotFinite`],
/// [`MetricError::NegativeTime`], or [`MetricError::NoEffort`] when both times are zero.
pub fn conservative_ratio(actual: f64, sample: f64, estimate: f64) -> Result<f64, MetricError> {
    check_actual(actual)?;
    check_effort("sampling time", sample)?;
    check_effort("estimating time", estimate)?;
    let effort = sample + estimate;
    if effort > 0.0 {
        Ok(actual / effort)
    } else {
        Err(MetricError::NoEffort)
    }
}

/// The arithmetic mean, `None` for no values (for aggregating tables such as the paper's).
pub fn mean(values: &[f64]) -> Option<f64> {
    if values.is_empty() {
        None
    } else {
        Some(values.iter().sum::<f64>() / values.len() as f64)
    }
}

fn check_finite(what: &'static str, value: f64) -> Result<(), MetricError> {
    if value.is_finite() {
        Ok(())
    } else {
        Err(MetricError::NotFinite { what, value })
    }
}

fn check_actual(actual: f64) -> Result<(), MetricError> {
    check_finite("actual time", actual)?;
    if actual > 0.0 {
        Ok(())
    } else {
        Err(MetricError::NonPositiveActual { actual })
    }
}

fn check_effort(what: &'static str, value: f64) -> Result<(), MetricError> {
    check_finite(what, value)?;
    if value < 0.0 {
        Err(MetricError::NegativeTime { what, value })
    } else {
        Ok(())
    }
}

/// One validation point: a run at application parameters χ, measured and predicted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ValidationPoint {
    /// The application parameters χ, as the user writes them (`N=800`, `I=J=5, M=N=64`).
    pub chi: String,
    /// The measured run time T_actual (s).
    pub actual: f64,
    /// The predicted run time T_p (s).
    pub predicted: f64,
    /// The time spent estimating this point, T_estimate (s), sampling excluded.
    pub estimate_time: f64,
}

/// The validation points of one processor count, with the time its sample runs took.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ValidationRow {
    /// The processor count N.
    pub processors: u32,
    /// What distinguishes rows of the same N (the paper's `128 (vector)`), if anything.
    #[serde(default)]
    pub variant: Option<String>,
    /// The time spent collecting the sample data used at this N, T_sample (s).
    pub sample_time: f64,
    /// The validation points.
    pub points: Vec<ValidationPoint>,
}

impl ValidationRow {
    /// The row's label: the processor count, then the variant in parentheses.
    pub fn label(&self) -> String {
        match &self.variant {
            Some(variant) => format!("{} ({variant})", self.processors),
            None => self.processors.to_string(),
        }
    }
}

/// One row of a table in the form of the paper's Tables II–VI.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableRow {
    /// The processor count (with its variant), or the application parameters where a table
    /// is keyed by them (Table VI).
    pub label: String,
    /// Ē over the row's points, as a fraction.
    pub average_error: f64,
    /// The average R_conservative over the row's points (`None` where not reported).
    pub average_ratio: Option<f64>,
    /// The largest R_conservative over the row's points (`None` where not reported).
    pub max_ratio: Option<f64>,
}

/// A table in the form of the paper's Tables II–VI: per processor count, the average error,
/// the average and the largest conservative prediction ratio. Its [`fmt::Display`] is the
/// paper's column layout.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ValidationTable {
    /// The rows, in the order given.
    pub rows: Vec<TableRow>,
    /// The first column's heading when the rows are not processor counts (the parameter
    /// they are values of); `None`: the paper's "No. of processors".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heading: Option<String>,
}

impl ValidationTable {
    /// The table of `rows` of validation points: Ē, average R and max R per row.
    ///
    /// # Errors
    /// [`MetricError::NoPoints`] for a row without points, [`MetricError::AtPoint`] for an
    /// invalid point (or sampling time), naming the row and the point.
    pub fn from_validation(rows: &[ValidationRow]) -> Result<ValidationTable, MetricError> {
        let rows = rows
            .iter()
            .map(table_row)
            .collect::<Result<Vec<TableRow>, MetricError>>()?;
        Ok(ValidationTable {
            rows,
            heading: None,
        })
    }

    /// The average-error column, in row order.
    pub fn average_errors(&self) -> Vec<f64> {
        self.rows.iter().map(|row| row.average_error).collect()
    }

    /// The average-ratio column, rows without one left out.
    pub fn average_ratios(&self) -> Vec<f64> {
        self.rows
            .iter()
            .filter_map(|row| row.average_ratio)
            .collect()
    }

    /// The max-ratio column, rows without one left out.
    pub fn max_ratios(&self) -> Vec<f64> {
        self.rows.iter().filter_map(|row| row.max_ratio).collect()
    }

    /// The row with the largest average error (the first of equals), `None` for no rows.
    pub fn worst_row(&self) -> Option<&TableRow> {
        self.rows.iter().reduce(|worst, row| {
            if row.average_error > worst.average_error {
                row
            } else {
                worst
            }
        })
    }
}

/// The column headings of the paper's tables.
const HEADINGS: [&str; 4] = [
    "No. of processors",
    "Average error",
    "Prediction ratio (average)",
    "Prediction ratio (max)",
];

impl fmt::Display for ValidationTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cells: Vec<[String; 4]> = self.rows.iter().map(row_cells).collect();
        let widths: Vec<usize> = (0..HEADINGS.len())
            .map(|c| {
                cells.iter().map(|row| row[c].chars().count()).fold(
                    match (c, &self.heading) {
                        (0, Some(h)) => h.chars().count(),
                        _ => HEADINGS[c].len(),
                    },
                    usize::max,
                )
            })
            .collect();
        let mut headings = HEADINGS.map(String::from);
        if let Some(h) = &self.heading {
            headings[0].clone_from(h);
        }
        write_line(f, &headings, &widths)?;
        let rule: Vec<String> = widths.iter().map(|&w| "-".repeat(w)).collect();
        writeln!(f, "{}", rule.join("-|-"))?;
        cells.iter().try_for_each(|row| write_line(f, row, &widths))
    }
}

fn write_line(f: &mut fmt::Formatter<'_>, cells: &[String; 4], widths: &[usize]) -> fmt::Result {
    let padded: Vec<String> = cells
        .iter()
        .zip(widths)
        .map(|(cell, &width)| format!("{cell:<width$}"))
        .collect();
    writeln!(f, "{}", padded.join(" | ").trim_end())
}

fn row_cells(row: &TableRow) -> [String; 4] {
    let ratio = |r: Option<f64>| r.map_or_else(|| "-".to_string(), |r| format!("{r:.0}"));
    [
        row.label.clone(),
        format!("{:.2}%", row.average_error * 100.0),
        ratio(row.average_ratio),
        ratio(row.max_ratio),
    ]
}

/// E and R of one point.
struct PointMetrics {
    error: f64,
    ratio: f64,
}

fn point_metrics(point: &ValidationPoint, sample_time: f64) -> Result<PointMetrics, MetricError> {
    Ok(PointMetrics {
        error: error(point.actual, point.predicted)?,
        ratio: conservative_ratio(point.actual, sample_time, point.estimate_time)?,
    })
}

fn table_row(row: &ValidationRow) -> Result<TableRow, MetricError> {
    let label = row.label();
    let metrics = row
        .points
        .iter()
        .map(|point| {
            point_metrics(point, row.sample_time).map_err(|reason| MetricError::AtPoint {
                row: label.clone(),
                chi: point.chi.clone(),
                reason: Box::new(reason),
            })
        })
        .collect::<Result<Vec<PointMetrics>, MetricError>>()?;
    let errors: Vec<f64> = metrics.iter().map(|m| m.error).collect();
    let ratios: Vec<f64> = metrics.iter().map(|m| m.ratio).collect();
    let Some(average_error) = mean(&errors) else {
        return Err(MetricError::NoPoints { row: label });
    };
    Ok(TableRow {
        label,
        average_error,
        average_ratio: mean(&ratios),
        max_ratio: ratios.iter().copied().reduce(f64::max),
    })
}
