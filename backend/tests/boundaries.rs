//! The import boundaries of the server's modules (see `docs/architecture.md`, "Boundaries"),
//! checked on the source text, like `web/src/lint-boundaries.test.ts` does for the web app:
//!
//! - every module of `backend/src` stands on one layer: foundation, feature or assembly;
//! - the foundation imports no feature and nothing of the assembly;
//! - a feature uses another feature only through what that feature's `mod.rs` declares or
//!   re-exports (its face), never through one of its files (`crate::auth::sessions::...`);
//! - `state.rs`, which assembles the features' handles, follows the same rule.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// What every layer above may use: configuration, errors, ids, the edge every request passes
/// through, metric names, the request's context, feed kinds, HTML cleaning, nodes, the outbox, paging,
/// and the event store.
const FOUNDATION: &[&str] = &[
    "config",
    "error",
    "ids",
    "edge",
    "metrics",
    "request_context",
    "feed",
    "html",
    "content_folder",
    "nodes",
    "outbox",
    "paging",
    "event_store",
];

/// The features: each owns its routes, its handles and its files.
const FEATURES: &[&str] = &[
    "audit",
    "auth",
    "catalogue",
    "documents",
    "guide",
    "health",
    "library",
    "notifications",
    "programmes",
    "push",
    "realtime",
    "search",
];

/// What puts the features together: the content import, idempotency, the read models, the
/// OpenAPI document, the state, the HTTP router, the operator's commands, the read models'
/// statistics, the commands' allocator settings, the library and the binary.
const ASSEMBLY: &[&str] = &[
    "content",
    "idempotency",
    "read_models",
    "openapi",
    "state",
    "http",
    "operations",
    "replay",
    "table_statistics",
    "allocator",
    "lib",
    "main",
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The top-level module a path under `src` belongs to (`auth/login.rs` -> `auth`).
fn module_of(relative: &Path) -> String {
    let first = relative
        .components()
        .next()
        .and_then(|c| c.as_os_str().to_str())
        .unwrap_or_default();
    first.trim_end_matches(".rs").to_string()
}

/// Every `.rs` file under `dir`, with its path relative to `src`.
fn sources(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
    for entry in std::fs::read_dir(dir).expect("source dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).expect("source");
            let relative = path.strip_prefix(src()).expect("under src").to_path_buf();
            out.push((relative, text));
        }
    }
}

/// The submodules a feature's `mod.rs` declares: its files, which other features may not reach.
fn files_of(feature: &str) -> BTreeSet<String> {
    let Ok(text) = std::fs::read_to_string(src().join(feature).join("mod.rs")) else {
        return BTreeSet::new();
    };
    text.lines()
        .map(str::trim)
        .filter_map(|line| {
            let line = line.strip_prefix("pub(crate) ").unwrap_or(line);
            let line = line.strip_prefix("pub ").unwrap_or(line);
            line.strip_prefix("mod ")?
                .strip_suffix(';')
                .map(str::to_string)
        })
        .collect()
}

/// Every `crate::...` path a source text names, braces expanded
/// (`use crate::{auth::jwt::JwtKeys, error::AppError}` names `auth::jwt::JwtKeys` and
/// `error::AppError`). Comments are left out.
fn crate_paths(text: &str) -> Vec<String> {
    let code: String = text
        .lines()
        .map(|line| match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n");
    let mut paths = Vec::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find("crate::") {
        let after = &rest[at + "crate::".len()..];
        paths.extend(expand(after));
        rest = after;
    }
    paths
}

/// The paths of a path's text (`auth::{jwt, sessions::check}` -> `auth::jwt`,
/// `auth::sessions::check`).
fn expand(text: &str) -> Vec<String> {
    let path: String = text
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
        .collect();
    let rest = &text[path.len()..];
    let prefix = path.trim_end_matches(':');
    if !(path.is_empty() || path.ends_with("::")) || !rest.starts_with('{') {
        return vec![prefix.to_string()];
    }
    // The group between the braces, split at its own top-level commas.
    let mut depth = 0;
    let mut items = Vec::new();
    let mut item = String::new();
    for c in rest.chars() {
        match c {
            '{' => {
                depth += 1;
                if depth == 1 {
                    continue;
                }
            }
            '}' => {
                depth -= 1;
                if depth == 0 {
                    items.push(std::mem::take(&mut item));
                    break;
                }
            }
            ',' if depth == 1 => {
                items.push(std::mem::take(&mut item));
                continue;
            }
            _ => {}
        }
        item.push(c);
    }
    items
        .iter()
        .map(|item| item.trim())
        .filter(|item| !item.is_empty() && *item != "self")
        .flat_map(|item| {
            expand(item).into_iter().map(|inner| {
                if prefix.is_empty() {
                    inner
                } else {
                    format!("{prefix}::{inner}")
                }
            })
        })
        .collect()
}

/// What a file (path relative to `src`) names of another feature's files: one line each,
/// `file: crate::path`.
fn reaches_into_features(relative: &Path, text: &str) -> Vec<String> {
    let own = module_of(relative);
    crate_paths(text)
        .into_iter()
        .filter(|path| {
            let mut segments = path.split("::");
            let (Some(feature), Some(next)) = (segments.next(), segments.next()) else {
                return false;
            };
            FEATURES.contains(&feature) && feature != own && files_of(feature).contains(next)
        })
        .map(|path| format!("{}: crate::{path}", relative.display()))
        .collect()
}

#[test]
fn every_module_stands_on_one_layer() {
    let mut modules = BTreeSet::new();
    for entry in std::fs::read_dir(src()).expect("src") {
        let name = entry.expect("entry").file_name();
        let name = name.to_str().expect("name");
        modules.insert(name.trim_end_matches(".rs").to_string());
    }
    for module in &modules {
        let layers = [FOUNDATION, FEATURES, ASSEMBLY]
            .iter()
            .filter(|layer| layer.contains(&module.as_str()))
            .count();
        assert_eq!(
            layers, 1,
            "backend/src/{module} must be listed on exactly one layer in tests/boundaries.rs \
             (and in docs/architecture.md)"
        );
    }
    for listed in FOUNDATION.iter().chain(FEATURES).chain(ASSEMBLY) {
        assert!(modules.contains(*listed), "{listed} is listed but gone");
    }
}

#[test]
fn features_use_each_other_only_through_their_faces() {
    let mut files = Vec::new();
    sources(&src(), &mut files);
    let breaches: Vec<String> = files
        .iter()
        .filter(|(relative, _)| {
            let module = module_of(relative);
            FEATURES.contains(&module.as_str()) || module == "state"
        })
        .flat_map(|(relative, text)| reaches_into_features(relative, text))
        .collect();
    assert!(
        breaches.is_empty(),
        "a feature (or state.rs) uses another feature's files; re-export what it needs from that \
         feature's mod.rs, or move it to the foundation:\n{}",
        breaches.join("\n")
    );
}

#[test]
fn the_foundation_imports_no_feature_and_no_assembly() {
    let mut files = Vec::new();
    sources(&src(), &mut files);
    let breaches: Vec<String> = files
        .iter()
        .filter(|(relative, _)| FOUNDATION.contains(&module_of(relative).as_str()))
        .flat_map(|(relative, text)| {
            crate_paths(text)
                .into_iter()
                .filter(|path| {
                    let top = path.split("::").next().unwrap_or_default();
                    FEATURES.contains(&top) || ASSEMBLY.contains(&top)
                })
                .map(move |path| format!("{}: crate::{path}", relative.display()))
        })
        .collect();
    assert!(
        breaches.is_empty(),
        "the foundation imports from above it:\n{}",
        breaches.join("\n")
    );
}

#[test]
fn a_forbidden_import_is_caught() {
    let text = "\
use crate::auth::AuthUser; // the face: allowed
use crate::auth::sessions::check;
use crate::{error::AppError, push::{subscriptions::store, Push}};
// use crate::auth::jwt::JwtKeys; (a comment: not an import)
fn f() { crate::realtime::hub::Hub::new(1); }
use super::operations::Documents; // its own files: allowed
";
    let breaches = reaches_into_features(Path::new("documents/api.rs"), text);
    assert_eq!(
        breaches,
        [
            "documents/api.rs: crate::auth::sessions::check",
            "documents/api.rs: crate::push::subscriptions::store",
            "documents/api.rs: crate::realtime::hub::Hub::new",
        ]
    );
    // A feature's own files are its own.
    let own = "use crate::documents::operations::Documents;\n";
    assert!(reaches_into_features(Path::new("documents/api.rs"), own).is_empty());
    // state.rs is held to the same rule.
    let state = "use crate::auth::sessions::SessionCache;\n";
    assert_eq!(
        reaches_into_features(Path::new("state.rs"), state),
        ["state.rs: crate::auth::sessions::SessionCache"]
    );
}
