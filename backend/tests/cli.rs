//! The `companion` binary's command line, run as an operator runs it.
//!
//! This small test target also lets the test run build the server binary before the other test
//! binaries: `cargo test --workspace --no-run --test cli` builds the library and `companion` with
//! the same features as the full test build, so the browser and API suites can start early.

use std::process::Command;

fn companion(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_companion"))
        .args(args)
        .env_remove("DATABASE_URL")
        .output()
        .expect("the companion binary runs")
}

#[test]
fn help_lists_every_command() {
    let output = companion(&["--help"]);
    assert!(output.status.success(), "{output:?}");
    let help = String::from_utf8_lossy(&output.stdout);
    for command in [
        "serve",
        "replay",
        "rebuild",
        "import",
        "publish",
        "feed",
        "projections",
        "outbox",
        "files",
        "keys",
        "push",
        "users",
        "backup",
        "restore",
        "openapi",
    ] {
        assert!(
            help.lines()
                .any(|line| line.trim_start().starts_with(command)),
            "`{command}` missing from:\n{help}"
        );
    }
}

#[test]
fn an_unknown_command_is_refused_with_usage() {
    let output = companion(&["frobnicate"]);
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(
        error.contains("unrecognized subcommand 'frobnicate'"),
        "{error}"
    );
    assert!(error.contains("Usage: companion"), "{error}");
}

#[test]
fn openapi_prints_the_document_without_a_database() {
    let output = companion(&["openapi"]);
    assert!(output.status.success(), "{output:?}");
    let document: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("the document is JSON");
    assert!(
        document["openapi"]
            .as_str()
            .is_some_and(|v| v.starts_with("3.")),
        "{document}"
    );
    assert!(document["paths"]["/api/health"].is_object());
    assert!(document["paths"]["/api/documents"].is_object());
}
