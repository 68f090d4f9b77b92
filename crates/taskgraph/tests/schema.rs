//! `docs/taskgraph.schema.json` and the JSON reader agree: the schema's examples, the example
//! files and everything `write_json` produces validate against the schema (with a minimal
//! validator for the keywords the schema uses) and are accepted by the reader; instances
//! the schema rejects are rejected by the reader too.

use serde_json::Value;
use taskgraph::gen::{self, GenKind, GenOptions, TimeDist};
use taskgraph::{read_json, write_json, ErrorKind};

fn schema() -> Value {
    let p = format!(
        "{}/../../docs/taskgraph.schema.json",
        env!("CARGO_MANIFEST_DIR")
    );
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

fn data(name: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// Validates `v` against `s` for the keywords used by the schema; returns the first
/// violation as a path.
fn validate(root: &Value, s: &Value, v: &Value, path: &str) -> Result<(), String> {
    if let Some(r) = s.get("$ref").and_then(Value::as_str) {
        let name = r.strip_prefix("#/$defs/").expect("local ref");
        return validate(root, &root["$defs"][name], v, path);
    }
    if let Some(t) = s.get("type").and_then(Value::as_str) {
        let ok = match t {
            "object" => v.is_object(),
            "array" => v.is_array(),
            "string" => v.is_string(),
            "number" => v.is_number(),
            "integer" => v.is_i64() || v.is_u64(),
            _ => panic!("unsupported type {t}"),
        };
        if !ok {
            return Err(format!("{path}: not {t}"));
        }
    }
    if let (Some(m), Some(x)) = (s.get("minimum").and_then(Value::as_f64), v.as_f64()) {
        if x < m {
            return Err(format!("{path}: below {m}"));
        }
    }
    if let (Some(m), Some(x)) = (s.get("minLength").and_then(Value::as_u64), v.as_str()) {
        if (x.chars().count() as u64) < m {
            return Err(format!("{path}: shorter than {m}"));
        }
    }
    if let Some(o) = v.as_object() {
        for r in s
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if !o.contains_key(r.as_str().unwrap()) {
                return Err(format!("{path}: missing {r}"));
            }
        }
        let props = s.get("properties").and_then(Value::as_object);
        for (k, x) in o {
            match props.and_then(|p| p.get(k)) {
                Some(ps) => validate(root, ps, x, &format!("{path}.{k}"))?,
                None => match s.get("additionalProperties") {
                    Some(Value::Bool(false)) => return Err(format!("{path}: extra key {k}")),
                    Some(a @ Value::Object(_)) => validate(root, a, x, &format!("{path}.{k}"))?,
                    _ => {}
                },
            }
        }
    }
    if let (Some(items), Some(a)) = (s.get("items"), v.as_array()) {
        for (i, x) in a.iter().enumerate() {
            validate(root, items, x, &format!("{path}[{i}]"))?;
        }
    }
    Ok(())
}

fn check_valid(text: &str) {
    let s = schema();
    let v: Value = serde_json::from_str(text).unwrap();
    validate(&s, &s, &v, "$").unwrap();
    read_json(text).unwrap();
}

#[test]
fn schema_examples_validate_and_read() {
    let s = schema();
    let ex = s["examples"].as_array().unwrap();
    assert_eq!(ex.len(), 2);
    for e in ex {
        check_valid(&e.to_string());
    }
    let g = read_json(&ex[1].to_string()).unwrap();
    assert_eq!(g.roots().len(), 2);
    assert_eq!(g.span(), 4.5 + 0.5);
    assert_eq!(g.attrs(2).extra["label"], Value::from("worker 2"));
}

#[test]
fn schema_task_keys_match_reader() {
    let s = schema();
    let task = &s["$defs"]["task"];
    let mut keys: Vec<&str> = task["properties"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort();
    assert_eq!(keys, vec!["attrs", "id", "preds", "rate", "time"]);
    assert_eq!(task["required"], serde_json::json!(["id", "time"]));
    assert_eq!(s["$schema"], "https://json-schema.org/draft/2020-12/schema");
}

#[test]
fn example_file_and_writer_output_validate() {
    let text = data("issue-example.json");
    check_valid(&text);
    let g = read_json(&text).unwrap();
    assert_eq!(g.len(), 4);
    assert_eq!(g.span(), 6.5);
    assert_eq!(g.rate(2, "mem"), 0.5);
    check_valid(&write_json(&g));
    for kind in [
        GenKind::Layered,
        GenKind::ForkJoin,
        GenKind::Wavefront,
        GenKind::SeriesParallel,
    ] {
        let o = GenOptions {
            tasks: 60,
            width: 5,
            degree: 2.5,
            time: TimeDist::Exp(2.0),
            seed: 3,
            ..Default::default()
        };
        let g = gen::generate(kind, &o).unwrap();
        check_valid(&write_json(&g));
    }
}

#[test]
fn schema_violations_are_rejected_by_the_reader() {
    let s = schema();
    let bad = [
        (r#"{"task": []}"#, ErrorKind::Syntax),
        (r#"{"tasks": [{"id": "a"}]}"#, ErrorKind::MissingTime),
        (
            r#"{"tasks": [{"id": "a", "time": -1}]}"#,
            ErrorKind::BadTime,
        ),
        (
            r#"{"tasks": [{"id": "a", "time": "1"}]}"#,
            ErrorKind::Syntax,
        ),
        (
            r#"{"tasks": [{"id": "a", "time": 1, "extra": 0}]}"#,
            ErrorKind::Syntax,
        ),
        (r#"{"tasks": [{"id": "", "time": 1}]}"#, ErrorKind::Syntax),
        (
            r#"{"tasks": [{"id": "a", "time": 1, "rate": {"bus": -1}}]}"#,
            ErrorKind::BadRate,
        ),
        (
            r#"{"tasks": [{"id": "a", "time": 1, "attrs": {"proc": 1.5}}]}"#,
            ErrorKind::BadAttribute,
        ),
        (
            r#"{"tasks": [{"id": "a", "time": 1, "preds": [1]}]}"#,
            ErrorKind::Syntax,
        ),
    ];
    for (text, kind) in bad {
        let v: Value = serde_json::from_str(text).unwrap();
        assert!(validate(&s, &s, &v, "$").is_err(), "schema accepts {text}");
        assert_eq!(read_json(text).unwrap_err().kind, kind, "{text}");
    }
}
