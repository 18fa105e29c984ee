//! Every program in `bench/` runs briefly (`bench/smoke.sh`), so none can stop working unseen.
//! A program passes when it exits 0 and prints its figures; the figures are never judged.
//! It needs PostgreSQL (as the drivers do) and, for `files.sh`, the S3 test server (`S3S_FS_BIN`).

use std::path::Path;
use std::process::Command;

#[test]
fn bench_programs_run_briefly() {
    // The programs of this package and the `companion` server are built side by side.
    let binaries = Path::new(env!("CARGO_BIN_EXE_search_bench"))
        .parent()
        .expect("the build folder");
    assert!(
        binaries.join("companion").exists(),
        "the server is built with the workspace's tests: cargo test --workspace"
    );
    let status = Command::new("bash")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/smoke.sh"))
        .env("BENCH_BIN", binaries)
        .env("SMOKE_NO_BUILD", "1")
        .status()
        .expect("bash runs");
    assert!(
        status.success(),
        "a bench program failed (see its lines above)"
    );
}
