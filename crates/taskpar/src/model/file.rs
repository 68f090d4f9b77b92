//! The model file: a trained [`Model`] as JSON with a `format` and a `version`, written and
//! read back (checked: another format or version, malformed JSON, a model whose parts do not
//! fit together are typed errors).

use super::fitted::{Coefs, Model, SubModel};

/// The `format` field of a model file.
pub const FORMAT: &str = "vates-taskpar-model";
/// The `version` field of the model files this build writes and reads.
pub const VERSION: u32 = 2;

/// Why a model file cannot be read.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ModelFileError {
    /// Not JSON.
    #[error("the model file is not valid JSON: {message} at line {line}, column {column}")]
    Json {
        /// The parser's message.
        message: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
    },
    /// JSON, but not a model file.
    #[error("not a taskpar model file: the `format` field is {found}, expected \"{FORMAT}\"")]
    Format {
        /// What the `format` field holds (`missing` when there is none).
        found: String,
    },
    /// A model file of another version.
    #[error("the model file has version {found}; this build reads version {VERSION} (train the model again)")]
    Version {
        /// The file's version (`missing` when there is none).
        found: String,
    },
    /// A model file whose fields are missing or of the wrong type.
    #[error("the model file is malformed: {message} at line {line}, column {column}")]
    Schema {
        /// The parser's message.
        message: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
    },
    /// A model file whose parts do not fit together.
    #[error("the model file is inconsistent: {0}")]
    Invalid(String),
}

/// The model as pretty-printed JSON.
pub fn to_json(model: &Model) -> String {
    // A model holds only strings and finite numbers: serialising cannot fail.
    serde_json::to_string_pretty(model).unwrap_or_default()
}

/// Whether `text` is a model file of any version (its `format` field is [`FORMAT`]): a
/// file a new model may replace.
pub fn is_model_file(text: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(text).is_ok_and(|v| v["format"] == FORMAT)
}

/// Reads a model from JSON text.
///
/// # Errors
/// [`ModelFileError`]: not JSON, not a model file, another version, missing or mistyped
/// fields, or parts that do not fit together (coefficients and features of different
/// lengths, a scale that is not positive).
pub fn from_json(text: &str) -> Result<Model, ModelFileError> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| ModelFileError::Json {
            message: strip_position(&e.to_string()),
            line: e.line(),
            column: e.column(),
        })?;
    let show = |v: Option<&serde_json::Value>| -> String {
        match v {
            None => "missing".into(),
            Some(v) => {
                let s = v.to_string();
                if s.len() > 60 {
                    format!("{}…", &s[..diag::floor_char_boundary(&s, 60)])
                } else {
                    s
                }
            }
        }
    };
    let format = value.get("format");
    if format.and_then(|f| f.as_str()) != Some(FORMAT) {
        return Err(ModelFileError::Format {
            found: show(format),
        });
    }
    let version = value.get("version");
    if version.and_then(|v| v.as_u64()) != Some(u64::from(VERSION)) {
        return Err(ModelFileError::Version {
            found: show(version),
        });
    }
    let model: Model = serde_json::from_str(text).map_err(|e| ModelFileError::Schema {
        message: strip_position(&e.to_string()),
        line: e.line(),
        column: e.column(),
    })?;
    validate(&model)?;
    Ok(model)
}

/// serde_json's message without its " at line L column C" (the error adds its own).
fn strip_position(msg: &str) -> String {
    match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg.to_string(),
    }
}

fn check_sub(name: &str, s: &SubModel) -> Result<(), ModelFileError> {
    let bad = |why: String| {
        Err(ModelFileError::Invalid(format!(
            "the {name} sub-model: {why}"
        )))
    };
    let k = s.features.len();
    if s.coefficients.len() != k || s.scales.len() != k {
        return bad(format!(
            "{k} features, {} coefficients, {} scales",
            s.coefficients.len(),
            s.scales.len()
        ));
    }
    if s.scales
        .iter()
        .chain([&s.target_scale])
        .any(|v| !(v.is_finite() && *v > 0.0))
    {
        return bad("a scale is not a positive number".into());
    }
    if s.coefficients
        .iter()
        .chain([&s.intercept, &s.alpha])
        .any(|v| !v.is_finite())
    {
        return bad("a coefficient is not a finite number".into());
    }
    Ok(())
}

fn check_coefs(name: &str, s: &SubModel, c: &Coefs) -> Result<(), ModelFileError> {
    if c.coefficients.len() != s.features.len() {
        return Err(ModelFileError::Invalid(format!(
            "a bootstrap replicate of the {name} sub-model has {} coefficients for {} features",
            c.coefficients.len(),
            s.features.len()
        )));
    }
    Ok(())
}

/// Checks that the parts of a model fit together.
fn validate(m: &Model) -> Result<(), ModelFileError> {
    for (name, s) in m.sub_models() {
        check_sub(name, s)?;
    }
    if m.no_work.features.iter().any(|f| f.uses_span()) && m.span.is_none() {
        return Err(ModelFileError::Invalid(
            "the no_work sub-model uses the span, and there is no span sub-model".into(),
        ));
    }
    let d = &m.domain;
    if !(d.n_min <= d.n_max && d.p_min <= d.p_max && d.n_min.is_finite() && d.n_max.is_finite()) {
        return Err(ModelFileError::Invalid(
            "the training domain is not a range".into(),
        ));
    }
    for r in &m.bootstrap {
        check_coefs("work_serial", &m.serial, &r.serial)?;
        check_coefs("create_task", &m.create_task, &r.create_task)?;
        check_coefs("wait_tasks", &m.wait_tasks, &r.wait_tasks)?;
        check_coefs("work", &m.work, &r.work)?;
        check_coefs("delay", &m.delay, &r.delay)?;
        check_coefs("no_work", &m.no_work, &r.no_work)?;
        match (&m.span, &r.span) {
            (Some(s), Some(c)) => check_coefs("span", s, c)?,
            (None, None) => {}
            _ => {
                return Err(ModelFileError::Invalid(
                    "a bootstrap replicate and the model disagree about the span".into(),
                ))
            }
        }
    }
    Ok(())
}
