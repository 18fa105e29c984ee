//! `congresses/filters.json`, `training/filters.json` and `courses/filters.json`.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::check::{join, Check, Res};

/// A filter option as written: the value is a text or a number.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OptionIn {
    value: ValueIn,
    label: String,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum ValueIn {
    Text(String),
    Number(serde_json::Number),
}

/// A filter option as served: the value is always a text.
#[derive(Serialize)]
struct ServedOption {
    value: String,
    label: String,
}

/// Filter options: `{kind: [{value, label}]}`; values are served as text, kinds in name order.
pub(super) fn read_filters(dir: &Path, file: &str) -> Res<String> {
    let check = Check::new(file);
    let filters: BTreeMap<String, Vec<OptionIn>> = check.typed(dir)?;
    let mut out = BTreeMap::new();
    for (kind, options) in filters {
        let mut served = Vec::new();
        for (n, o) in options.into_iter().enumerate() {
            let p = format!("{kind}[{n}]");
            let value = match o.value {
                ValueIn::Text(s) if !s.is_empty() => s,
                ValueIn::Number(n) => n.to_string(),
                ValueIn::Text(_) => {
                    return Err(check.err(join(&p, "value"), "must be a text or a number"))
                }
            };
            if o.label.trim().is_empty() {
                return Err(check.err(join(&p, "label"), "must not be empty"));
            }
            served.push(ServedOption {
                value,
                label: o.label,
            });
        }
        out.insert(kind, served);
    }
    // Serialising our own plain structs cannot fail.
    Ok(serde_json::to_string(&out).unwrap_or_else(|_| "{}".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_text(text: &str) -> Res<String> {
        let dir = tempfile::tempdir().expect("dir");
        std::fs::create_dir_all(dir.path().join("courses")).unwrap();
        std::fs::write(dir.path().join("courses/filters.json"), text).unwrap();
        read_filters(dir.path(), "courses/filters.json")
    }

    #[test]
    fn values_are_served_as_text_in_kind_order() {
        let served = read_text(
            r#"{"year": [{"value": 2026, "label": "2026"}], "month": [{"value": "01", "label": "January"}]}"#,
        )
        .expect("accepted");
        assert_eq!(
            served,
            r#"{"month":[{"value":"01","label":"January"}],"year":[{"value":"2026","label":"2026"}]}"#
        );
    }

    #[test]
    fn a_bad_option_is_refused_with_its_field() {
        let err = |text: &str| read_text(text).expect_err("refused").to_string();
        assert_eq!(
            err(r#"{"year": [{"value": "", "label": "2026"}]}"#),
            "courses/filters.json: year[0].value: must be a text or a number"
        );
        assert_eq!(
            err(r#"{"year": [{"value": "2026", "label": " "}]}"#),
            "courses/filters.json: year[0].label: must not be empty"
        );
        assert!(
            err(r#"{"year": [{"value": "2026", "label": "x", "colour": "red"}]}"#)
                .starts_with("courses/filters.json: year[0].colour: unknown field `colour`"),
        );
        assert!(err(r#"{"year": [{"value": true, "label": "x"}]}"#)
            .starts_with("courses/filters.json: year[0].value: "));
        assert!(err("{").starts_with("courses/filters.json: line 1: invalid JSON"));
    }
}
