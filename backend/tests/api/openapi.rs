//! The OpenAPI document and the routers are one: every documented operation is routed, every
//! other method of a documented path is refused with 405, no API route is registered outside
//! `utoipa-axum`'s `routes!`, and `companion openapi` prints the document the server serves.

use std::path::{Path, PathBuf};

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::helpers::{json_of, spawn_app, spawn_app_with, Engine, TestApp, ADMIN};

/// The API's fallback answer to a path no route matches.
const UNROUTED: &str = "Not found";
const METHODS: [&str; 5] = ["get", "post", "put", "patch", "delete"];
/// Paths routed for any method (the WebSocket upgrade answers 400 itself to what is no handshake).
const ANY_METHOD: [&str; 1] = ["/api/ws"];

async fn document(app: &TestApp) -> Value {
    let (status, doc) = json_of(app.get("/openapi.json", None).await).await;
    assert_eq!(status, StatusCode::OK);
    doc
}

/// `/api/folders/{id}/as-of` → `/api/folders/1/as-of`: any value reaches the handler.
fn concrete(path: &str) -> String {
    let mut out = String::new();
    let mut in_param = false;
    for c in path.chars() {
        match c {
            '{' => in_param = true,
            '}' => {
                in_param = false;
                out.push('1');
            }
            _ if !in_param => out.push(c),
            _ => {}
        }
    }
    out
}

async fn call(app: &TestApp, method: &str, path: &str, token: &str) -> (StatusCode, Value) {
    let method = Method::from_bytes(method.to_uppercase().as_bytes()).expect("method");
    let res = app
        .client
        .request(method, format!("{}{}", app.base, concrete(path)))
        .bearer_auth(token)
        .json(&json!({}))
        .send()
        .await
        .expect("request");
    let status = res.status();
    (status, res.json().await.unwrap_or(Value::Null))
}

/// The documented `(path, method)` pairs.
fn operations(doc: &Value) -> Vec<(String, String)> {
    let paths = doc["paths"].as_object().expect("paths");
    assert!(paths.len() > 50, "the document lists the API");
    let mut out = Vec::new();
    for (path, item) in paths {
        for method in METHODS {
            if item.get(method).is_some() {
                out.push((path.clone(), method.to_string()));
            }
        }
    }
    out
}

fn is_unrouted(status: StatusCode, body: &Value) -> bool {
    status == StatusCode::METHOD_NOT_ALLOWED
        || (status == StatusCode::NOT_FOUND && body["message"] == UNROUTED)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_documented_operation_is_routed_and_nothing_else_on_its_path() {
    // One busy client: without lifted limits the probes would meet 429s, not the routes.
    let app = spawn_app_with(Engine::Sqlite, |c| {
        c.rate_limit_address_per_second = 100_000;
        c.rate_limit_address_burst = 100_000;
        c.rate_limit_session_per_second = 100_000;
        c.rate_limit_session_burst = 100_000;
        c.recipient_lookups_per_minute = 100_000;
    })
    .await
    .expect("sqlite app");
    let token = app.token(ADMIN).await;
    let doc = document(&app).await;
    let operations = operations(&doc);
    // Sign-out and session revocation would end the session the calls after them use.
    let (last, first): (Vec<_>, Vec<_>) = operations
        .iter()
        .partition(|(path, _)| path.ends_with("/logout") || path.ends_with("/revoke"));
    for (path, method) in first.into_iter().chain(last) {
        let (status, body) = call(&app, method, path, &token).await;
        assert!(
            !is_unrouted(status, &body),
            "{method} {path} is documented but not routed: {status} {body}"
        );
    }

    let token = app.token(ADMIN).await;
    for (path, item) in doc["paths"].as_object().expect("paths") {
        if ANY_METHOD.contains(&path.as_str()) {
            continue;
        }
        for method in METHODS.iter().filter(|m| item.get(**m).is_none()) {
            let (status, body) = call(&app, method, path, &token).await;
            assert_eq!(
                status,
                StatusCode::METHOD_NOT_ALLOWED,
                "{method} {path} is routed but not documented: {body}"
            );
        }
    }

    // The check above can tell a routed call from the fallback.
    let (status, body) = call(&app, "get", "/api/no/such/call", &token).await;
    assert!(is_unrouted(status, &body), "{status} {body}");
}

/// Every `.route(...)` call in `backend/src` (file, trimmed line).
fn route_calls(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
    for entry in std::fs::read_dir(dir).expect("source dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            route_calls(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).expect("source");
            for line in text.lines() {
                if line.contains(".route(") || line.contains(".route_service(") {
                    out.push((path.clone(), line.trim().to_string()));
                }
            }
        }
    }
}

/// A route added with axum's own `.route` would be served but missing from the document: the API
/// registers its routes with `routes!` only. The exceptions are outside `/api`, or documented
/// by hand under a path the router cannot express.
#[test]
fn api_routes_are_registered_only_with_their_operations() {
    const ALLOWED: [(&str, &str); 6] = [
        // The service worker and the manifest of the web app, outside `/api`.
        (
            "http.rs",
            r#".route_service("/sw.js", ServeFile::new(web_dir.join("sw.js")))"#,
        ),
        ("http.rs", ".route_service("),
        (
            "http.rs",
            r#".route("/metrics", get(metrics::on_main_port))"#,
        ),
        // The external viewer's page (the web app's), outside `/api`; its calls are documented.
        (
            "http.rs",
            r#".route("/s/{token}", get(crate::documents::viewer::page))"#,
        ),
        (
            "metrics.rs",
            r#".route("/metrics", axum::routing::get(on_metrics_port))"#,
        ),
        ("sso.rs", r#".route("/users/{segment}", start);"#),
    ];
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut calls = Vec::new();
    route_calls(&src, &mut calls);
    for (file, line) in &calls {
        let name = file
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        assert!(
            ALLOWED.contains(&(name, line.as_str())),
            "{}: `{line}` routes a call outside `routes!`, so the OpenAPI document misses it",
            file.display()
        );
    }
    assert_eq!(
        calls.len(),
        ALLOWED.len(),
        "every exception is still in use"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cli_prints_the_served_document() {
    let app = spawn_app(Engine::Sqlite).await.expect("sqlite app");
    let served = document(&app).await;
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_companion"))
        .arg("openapi")
        .env_remove("DATABASE_URL")
        .output()
        .expect("companion openapi runs");
    assert!(output.status.success(), "{output:?}");
    let printed: Value = serde_json::from_slice(&output.stdout).expect("a JSON document");
    assert_eq!(printed, served);
    assert_eq!(printed["info"]["title"], "Companion app API");
    assert!(printed["components"]["securitySchemes"]["bearer"].is_object());
    assert!(printed["paths"]["/api/openapi.json"]["get"].is_object());

    // Operation ids are unique (generated clients key on them).
    let mut ids: Vec<&str> = operations(&printed)
        .iter()
        .map(|(path, method)| {
            printed["paths"][path][method]["operationId"]
                .as_str()
                .expect("operationId")
        })
        .collect();
    let count = ids.len();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), count, "unique operation ids");
    assert_eq!(
        printed["paths"]["/api/courses/{id}"]["get"]["operationId"],
        "courses_id_detail"
    );
    assert_eq!(
        printed["paths"]["/api/users/login"]["post"]["operationId"],
        "login"
    );
}

/// Typechecks the web app against API types generated from `document`, in a scratch project that
/// points `@/lib/api/schema` at them. Returns whether it compiled, and the compiler's output.
fn web_compiles_against(document: &Value, scratch: &Path) -> (bool, String) {
    let web = Path::new(env!("CARGO_MANIFEST_DIR")).join("../web");
    let web = web.canonicalize().expect("web dir");
    let doc_file = scratch.join("openapi.json");
    let schema = scratch.join("schema.d.ts");
    std::fs::write(&doc_file, document.to_string()).expect("write document");
    let generated = std::process::Command::new("node")
        .arg(web.join("scripts/api-types.mjs"))
        .arg("--document")
        .arg(&doc_file)
        .arg("--out")
        .arg(&schema)
        .output()
        .expect("node runs the generator");
    assert!(generated.status.success(), "{generated:?}");
    // The project file sits under web/ so that packages and their types resolve as in the app.
    let project = web.join(format!(
        "node_modules/.tmp/api-drift-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&project).expect("scratch project dir");
    let tsconfig = project.join("tsconfig.json");
    let config = json!({
        "extends": web.join("tsconfig.app.json"),
        "compilerOptions": {
            "baseUrl": web,
            "paths": { "@/lib/api/schema": [schema], "@/*": ["./src/*"] },
            "incremental": false,
            "noEmit": true,
        },
        "include": [web.join("src")],
    });
    std::fs::write(&tsconfig, config.to_string()).expect("write tsconfig");
    let tsc = std::process::Command::new("node")
        .arg(web.join("../node_modules/typescript/bin/tsc"))
        .arg("-p")
        .arg(&tsconfig)
        .current_dir(&web)
        .output()
        .expect("tsc runs");
    let _ = std::fs::remove_dir_all(&project);
    let output =
        String::from_utf8_lossy(&tsc.stdout).to_string() + &String::from_utf8_lossy(&tsc.stderr);
    (tsc.status.success(), output)
}

/// The web app's types come from the server's document: renaming a field of a response on the
/// server breaks the web build until the types are generated again and the code follows.
#[test]
fn renaming_a_response_field_breaks_the_web_build() {
    let scratch = tempfile::tempdir().expect("scratch dir");
    let document = serde_json::to_value(backend::http::api_document()).expect("document");

    let (ok, output) = web_compiles_against(&document, scratch.path());
    assert!(
        ok,
        "the web app compiles against the current document:\n{output}"
    );

    // A congress of the list calls its name `title` from now on.
    let mut renamed = document.clone();
    let row = &mut renamed["components"]["schemas"]["CongressRow"];
    let name = row["properties"]
        .as_object_mut()
        .expect("CongressRow properties")
        .remove("name")
        .expect("CongressRow has a name");
    row["properties"]["title"] = name;
    for required in row["required"].as_array_mut().expect("required").iter_mut() {
        if required == "name" {
            *required = json!("title");
        }
    }
    let (ok, output) = web_compiles_against(&renamed, scratch.path());
    assert!(!ok, "the web build must fail on the renamed field");
    assert!(
        output.contains("'name'") && output.contains("src/features/"),
        "the compiler points at the code that reads the old field:\n{output}"
    );
}
