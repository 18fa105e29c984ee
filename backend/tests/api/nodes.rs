// Over 600 lines: the two-node scenarios share one harness of processes and an S3 server.
//! Several nodes for real: two `companion serve` processes (separate data folders) on one
//! PostgreSQL database, with their files in a real S3-compatible server (`s3s-fs`, a separate
//! process over a folder). Node A is frozen (SIGSTOP), resumed and killed; node B carries on.
//!
//! `S3S_FS_BIN` names the s3s-fs binary (`.ci/run` installs it and sets it). Without it these
//! tests are skipped with a warning, and fail under `CI=true`.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures::{SinkExt, StreamExt};
use reqwest::StatusCode;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use tokio_tungstenite::tungstenite::Message;

use crate::helpers::{create_pg_database, drop_pg_database, with_database, JOHN, PASSWORD};

const ACCESS_KEY: &str = "companion-test";
const SECRET_KEY: &str = "companion-test-secret-key";
const BUCKET: &str = "companion";
const ANNA: &str = crate::helpers::ANNA;
const METRICS_TOKEN: &str = "nodes-test-metrics-token-0123456789";
/// The lease runs out after 5 s; a command waits up to 10 s for its projection.
const TAKEOVER_LIMIT: Duration = Duration::from_secs(12);

fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// The s3s-fs binary, or None (skip) outside CI.
pub fn s3s_fs_binary() -> Option<PathBuf> {
    let configured = std::env::var_os("S3S_FS_BIN").map(PathBuf::from);
    match configured {
        Some(path) if path.is_file() => Some(path),
        other => {
            let why = match other {
                Some(path) => format!("S3S_FS_BIN={} does not exist", path.display()),
                None => "S3S_FS_BIN is not set".into(),
            };
            assert!(
                !in_ci(),
                "{why}: the S3 tests need s3s-fs (.ci/run installs it)"
            );
            use std::io::Write;
            let _ = std::io::stderr().write_all(
                format!("\n!!! {why}: the S3 file store tests are SKIPPED !!!\n").as_bytes(),
            );
            None
        }
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .expect("a free port")
        .local_addr()
        .expect("address")
        .port()
}

/// A child process killed when dropped.
struct Process {
    child: Child,
    name: &'static str,
}

impl Process {
    fn signal(&self, signal: &str) {
        let status = Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(self.child.id().to_string())
            .status()
            .expect("kill runs");
        assert!(status.success(), "kill -{signal} {}", self.name);
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A running s3s-fs over a temporary folder, with the bucket made.
pub struct S3Server {
    pub endpoint: String,
    root: tempfile::TempDir,
    _process: Process,
}

impl S3Server {
    pub async fn start(binary: &Path) -> S3Server {
        let root = tempfile::tempdir().expect("temp dir");
        // s3s-fs keeps a bucket as a folder of its root.
        std::fs::create_dir(root.path().join(BUCKET)).expect("bucket folder");
        let port = free_port();
        let child = Command::new(binary)
            .args(["--host", "127.0.0.1", "--port", &port.to_string()])
            .args(["--access-key", ACCESS_KEY, "--secret-key", SECRET_KEY])
            .arg(root.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("s3s-fs starts");
        let process = Process {
            child,
            name: "s3s-fs",
        };
        let endpoint = format!("http://127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(20);
        while tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_err()
        {
            assert!(Instant::now() < deadline, "s3s-fs did not start");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        S3Server {
            endpoint,
            root,
            _process: process,
        }
    }

    /// The settings a node needs for this store.
    pub fn env(&self) -> Vec<(&'static str, String)> {
        vec![
            ("FILE_STORE_URL", format!("s3://{BUCKET}/files")),
            ("AWS_ENDPOINT_URL", self.endpoint.clone()),
            ("AWS_REGION", "us-east-1".into()),
            ("AWS_ACCESS_KEY_ID", ACCESS_KEY.into()),
            ("AWS_SECRET_ACCESS_KEY", SECRET_KEY.into()),
            ("AWS_ALLOW_HTTP", "true".into()),
        ]
    }

    /// The objects stored under the files prefix (s3s-fs keeps them as plain files).
    pub fn objects(&self) -> Vec<String> {
        let dir = self.root.path().join(BUCKET).join("files");
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .map(|e| e.file_name().to_string_lossy().to_string())
                    .filter(|n| !n.starts_with('.'))
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
    }
}

/// A `companion serve` child process.
struct Node {
    base: String,
    process: Process,
    data_dir: tempfile::TempDir,
    client: reqwest::Client,
}

fn node_command(
    database_url: &str,
    data_dir: &Path,
    port: u16,
    store: &[(&str, String)],
) -> Command {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let mut command = Command::new(env!("CARGO_BIN_EXE_companion"));
    command
        .arg("serve")
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("PORT", port.to_string())
        .env("BIND_ADDRESS", "127.0.0.1")
        .env("DATA_DIR", data_dir)
        .env("CONTENT_DIR", format!("{root}/content"))
        .env("WEB_DIR", data_dir.join("web"))
        .env("RUST_LOG", "warn")
        .env("DEMO", "true");
    if database_url.is_empty() {
        command.env("JWT_SECRET", "test-secret-test-secret-test-secret-0123");
    } else {
        // On PostgreSQL the nodes share the signing keys through the database.
        command.env("DATABASE_URL", database_url);
        crate::helpers::use_test_pool(&mut command);
    }
    for (key, value) in store {
        command.env(key, value);
    }
    command
}

impl Node {
    async fn start(name: &'static str, database_url: &str, store: &[(&str, String)]) -> Node {
        let data_dir = tempfile::tempdir().expect("temp dir");
        let port = free_port();
        let child = node_command(database_url, data_dir.path(), port, store)
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("companion serve starts");
        let node = Node {
            base: format!("http://127.0.0.1:{port}"),
            process: Process { child, name },
            data_dir,
            client: reqwest::Client::new(),
        };
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            if let Ok(res) = node.client.get(node.url("/health")).send().await {
                if res.status().is_success() {
                    break;
                }
            }
            assert!(Instant::now() < deadline, "node {name} did not start");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        node
    }

    fn url(&self, path: &str) -> String {
        format!("{}/api{path}", self.base)
    }

    async fn token(&self, email: &str) -> String {
        let res = self
            .client
            .post(self.url("/users/login"))
            .json(&json!({ "username": email, "password": PASSWORD }))
            .send()
            .await
            .expect("login");
        assert_eq!(res.status(), StatusCode::OK, "login of {email}");
        let body: Value = res.json().await.expect("json");
        let token = body["jwt"].as_str().expect("jwt").to_string();
        let res = self
            .client
            .get(self.url("/users/accept-terms"))
            .bearer_auth(&token)
            .send()
            .await
            .expect("terms");
        assert_eq!(res.status(), StatusCode::OK, "terms of {email}");
        token
    }

    fn node_id(&self) -> String {
        std::fs::read_to_string(self.data_dir.path().join("node-id")).expect("node id")
    }

    async fn lease_holder(&self) -> Value {
        let body: Value = self
            .client
            .get(self.url("/ready"))
            .send()
            .await
            .expect("ready")
            .json()
            .await
            .expect("json");
        body["lease_holder"].clone()
    }

    async fn role(&self) -> String {
        let body: Value = self
            .client
            .get(self.url("/ready"))
            .timeout(Duration::from_secs(5))
            .send()
            .await
            .expect("ready")
            .json()
            .await
            .expect("json");
        body["role"].as_str().unwrap_or_default().to_string()
    }

    /// The projector lease's fencing number this node works under (0: it holds no lease), as
    /// its metrics say; `METRICS_TOKEN` must be [`METRICS_TOKEN`].
    async fn fencing_number(&self) -> i64 {
        let text = self
            .client
            .get(format!("{}/metrics", self.base))
            .bearer_auth(METRICS_TOKEN)
            .send()
            .await
            .expect("metrics")
            .text()
            .await
            .expect("text");
        text.lines()
            .find_map(|line| line.strip_prefix("companion_projector_lease_fencing "))
            .and_then(|n| n.trim().parse::<f64>().ok())
            .expect("the fencing gauge") as i64
    }

    /// Waits until this node runs the projector again (its fencing number up).
    async fn wait_for_the_lease(&self, limit: Duration) {
        let deadline = Instant::now() + limit;
        while self.fencing_number().await == 0 {
            assert!(
                Instant::now() < deadline,
                "the node did not take its lease back"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    async fn create_folder(&self, token: &str, name: &str) -> reqwest::Response {
        self.client
            .post(self.url("/folders"))
            .bearer_auth(token)
            .json(&json!({ "name": name, "type": "my", "parent": null }))
            .timeout(Duration::from_secs(30))
            .send()
            .await
            .expect("create folder")
    }

    async fn my_titles(&self, token: &str) -> Vec<String> {
        let body: Value = self
            .client
            .get(self.url("/documents/my"))
            .bearer_auth(token)
            .send()
            .await
            .expect("list")
            .json()
            .await
            .expect("json");
        body.as_array()
            .or_else(|| body["list"].as_array())
            .map(|items| {
                items
                    .iter()
                    .filter_map(|i| i["title"].as_str().or(i["name"].as_str()))
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default()
    }

    async fn upload(&self, token: &str, name: &str, bytes: Vec<u8>) -> (StatusCode, Value) {
        let form = reqwest::multipart::Form::new()
            .text("parent", "")
            .text("name", name.to_string())
            .part(
                "file",
                reqwest::multipart::Part::bytes(bytes).file_name(format!("{name}.pdf")),
            );
        let res = self
            .client
            .post(self.url("/documents/upload"))
            .bearer_auth(token)
            .multipart(form)
            .send()
            .await
            .expect("upload");
        let status = res.status();
        (status, res.json().await.unwrap_or(Value::Null))
    }
}

/// A PDF of `size` bytes (its header and pseudo-random bytes after it).
pub fn pdf_of(size: usize) -> Vec<u8> {
    let mut bytes = b"%PDF-1.7\n".to_vec();
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    while bytes.len() < size {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        bytes.extend_from_slice(&x.to_le_bytes());
    }
    bytes.truncate(size);
    bytes
}

/// Runs `companion replay` on the database: true when the read models equal a replay.
fn replay_matches(database_url: &str, data_dir: &Path) -> (bool, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_companion"));
    let output = command
        .arg("replay")
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("DATABASE_URL", database_url)
        .env("DATA_DIR", data_dir)
        .env("RUST_LOG", "warn")
        .output()
        .expect("companion replay runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.success(), text)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_nodes_share_files_and_hand_the_projector_over() {
    let Some(s3s) = s3s_fs_binary() else { return };
    let Some((database_url, _drop_db)) = test_database().await else {
        return;
    };
    let s3 = S3Server::start(&s3s).await;
    let store = s3.env();

    let a = Node::start("A", &database_url, &store).await;
    let b = Node::start("B", &database_url, &store).await;
    assert_eq!(
        a.role().await,
        "projector",
        "the first node takes the lease"
    );
    assert_eq!(b.role().await, "follower");
    assert_eq!(b.lease_holder().await, json!(a.node_id()));

    // No secret was shared by hand: a token signed on A works on B (the keys are in the database).
    let anna_a = a.token(ANNA).await;
    let res = b
        .client
        .get(b.url("/documents/my"))
        .bearer_auth(&anna_a)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK, "A's token on B");
    let anna_b = b.token(ANNA).await;

    // A file uploaded on A is read from B byte for byte, also in part.
    let pdf = pdf_of(3 * 1024 * 1024 + 17);
    let (status, item) = a.upload(&anna_a, "Two nodes", pdf.clone()).await;
    assert_eq!(status, StatusCode::CREATED, "{item}");
    let id = item["id"].as_str().expect("id").to_string();
    let res = b
        .client
        .get(b.url(&format!("/documents/{id}/file?download=1")))
        .bearer_auth(&anna_b)
        .send()
        .await
        .expect("download");
    assert_eq!(res.status(), StatusCode::OK);
    let etag = res.headers()["etag"].to_str().unwrap().to_string();
    assert!(res.headers().contains_key("last-modified"));
    assert!(res.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .starts_with("attachment; filename=\"Two nodes.pdf\""));
    let body = res.bytes().await.expect("body");
    assert!(
        body[..] == pdf[..],
        "the file read on B is the one written on A"
    );
    let res = b
        .client
        .get(b.url(&format!("/documents/{id}/file")))
        .bearer_auth(&anna_b)
        .header("range", "bytes=1000000-1000099")
        .send()
        .await
        .expect("range");
    assert_eq!(res.status(), StatusCode::PARTIAL_CONTENT);
    assert_eq!(
        res.headers()["content-range"].to_str().unwrap(),
        format!("bytes 1000000-1000099/{}", pdf.len())
    );
    assert_eq!(res.headers()["etag"].to_str().unwrap(), etag);
    assert!(res.bytes().await.unwrap()[..] == pdf[1_000_000..1_000_100]);
    // The upload event records the content's SHA-256.
    let pool = sqlx::PgPool::connect(&database_url).await.expect("pool");
    let payload: String = sqlx::query_scalar(
        "select cast(payload as text) from events where event_type = 'FileUploaded' and aggregate_id = $1",
    )
    .bind(&id)
    .fetch_one(&pool)
    .await
    .expect("upload event");
    assert!(
        payload.contains(&hex::encode(Sha256::digest(&pdf))),
        "{payload}"
    );

    // A share made on A arrives on a socket connected to B.
    let john_b = b.token(JOHN).await;
    let (mut socket, _) =
        tokio_tungstenite::connect_async(format!("{}/api/ws", b.base.replace("http", "ws")))
            .await
            .expect("websocket");
    socket
        .send(Message::text(
            json!({ "type": "auth", "token": john_b }).to_string(),
        ))
        .await
        .unwrap();
    next_of_type(&mut socket, "ready").await;
    let res = a
        .client
        .post(a.url("/documents/share"))
        .bearer_auth(&anna_a)
        .json(&json!({ "email": JOHN, "file": id }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    next_of_type(&mut socket, "message").await;

    // A is frozen: within the lease time a command on B succeeds and shows on B.
    a.process.signal("STOP");
    let frozen = Instant::now();
    let res = b.create_folder(&anna_b, "Made while A sleeps").await;
    let took = frozen.elapsed();
    assert_eq!(res.status(), StatusCode::CREATED, "{:?}", res.text().await);
    assert!(took < TAKEOVER_LIMIT, "took {took:?}");
    eprintln!("first command on B after freezing A: {took:?}");
    assert!(b
        .my_titles(&anna_b)
        .await
        .contains(&"Made while A sleeps".to_string()));
    assert_eq!(b.role().await, "projector");
    assert_eq!(b.lease_holder().await, json!(b.node_id()));
    let (owner_before, fencing_before): (String, i64) =
        sqlx::query_as("select owner, fencing from projector_lease where name = 'projector'")
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!(
        fencing_before, 2,
        "B took the lease over with a new fencing number"
    );

    // A is resumed: it finds its lease gone and writes no batch (its fencing number is old).
    a.process.signal("CONT");
    let res = a.create_folder(&anna_a, "Made on A after waking").await;
    assert_eq!(res.status(), StatusCode::CREATED);
    assert_eq!(a.role().await, "follower");
    let (owner, fencing): (String, i64) =
        sqlx::query_as("select owner, fencing from projector_lease where name = 'projector'")
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!(
        (owner, fencing),
        (owner_before, fencing_before),
        "B keeps the lease"
    );

    // A is killed: B carries on.
    a.process.signal("KILL");
    let res = b.create_folder(&anna_b, "Made after A died").await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let titles = b.my_titles(&anna_b).await;
    for title in [
        "Made while A sleeps",
        "Made on A after waking",
        "Made after A died",
    ] {
        assert!(titles.contains(&title.to_string()), "{title} in {titles:?}");
    }

    // Keys rotate without a restart: old tokens keep working, new ones name the new key.
    let output = Command::new(env!("CARGO_BIN_EXE_companion"))
        .args(["keys", "rotate"])
        .env("DATABASE_URL", &database_url)
        .env("DATA_DIR", b.data_dir.path())
        .output()
        .expect("companion keys rotate runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let kid_of = |token: &str| {
        jsonwebtoken::decode_header(token)
            .expect("token header")
            .kid
            .expect("a key id")
    };
    let old_kid = kid_of(&anna_b);
    tokio::time::sleep(Duration::from_secs(13)).await;
    let fresh = b.token(ANNA).await;
    assert_ne!(
        kid_of(&fresh),
        old_kid,
        "new tokens are signed with the new key"
    );
    for token in [&anna_b, &fresh] {
        let res = b
            .client
            .get(b.url("/documents/my"))
            .bearer_auth(token)
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK);
    }

    // A token naming a key the cluster does not have is refused.
    let forged = jsonwebtoken::encode(
        &jsonwebtoken::Header {
            kid: Some("not-a-key".into()),
            ..Default::default()
        },
        &json!({ "sub": "x", "sid": "x", "exp": 4_000_000_000_i64, "iat": 0 }),
        &jsonwebtoken::EncodingKey::from_secret(b"guessed"),
    )
    .unwrap();
    let res = b
        .client
        .get(b.url("/documents/my"))
        .bearer_auth(&forged)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);

    // No event skipped or applied twice: the read models equal a replay.
    let (same, report) = replay_matches(&database_url, b.data_dir.path());
    assert!(same, "{report}");
    pool.close().await;
    drop(b);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_node_with_the_local_file_store_is_refused() {
    let Some((database_url, _drop_db)) = test_database().await else {
        return;
    };
    let _a = Node::start("A", &database_url, &[]).await;
    let data_dir = tempfile::tempdir().unwrap();
    let output = node_command(&database_url, data_dir.path(), free_port(), &[])
        .output()
        .expect("companion serve runs");
    assert!(!output.status.success(), "the second node must not start");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("Another node (") && stderr.contains("set FILE_STORE_URL=s3://"),
        "{stderr}"
    );
    // Told otherwise, it starts.
    let mut told = Node::start(
        "B",
        &database_url,
        &[("ALLOW_LOCAL_FILE_STORE_WITH_NODES", "true".into())],
    )
    .await;
    assert_eq!(told.role().await, "follower");
    told.process.signal("KILL");
    let _ = told.process.child.wait();
}

async fn next_of_type(
    socket: &mut tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
    kind: &str,
) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(15);
    loop {
        let frame = tokio::time::timeout_at(deadline, socket.next())
            .await
            .unwrap_or_else(|_| panic!("no {kind} frame in time"));
        if let Some(Ok(Message::Text(text))) = frame {
            let v: Value = serde_json::from_str(text.as_str()).expect("json");
            if v["type"] == kind {
                return v;
            }
        } else if frame.is_none() {
            panic!("socket closed before {kind}");
        }
    }
}

/// The folder `title` was created once: one event stored, listed once in My Docs.
async fn assert_created_once(node: &Node, token: &str, pool: &sqlx::PgPool, title: &str) {
    let stored: i64 = sqlx::query_scalar("select count(*) from events where payload::text like $1")
        .bind(format!("%{title}%"))
        .fetch_one(pool)
        .await
        .expect("events");
    assert_eq!(stored, 1, "the creation of {title} stored once");
    let titles = node.my_titles(token).await;
    assert_eq!(
        titles.iter().filter(|t| *t == title).count(),
        1,
        "{titles:?}"
    );
}

/// Gives the projector lease to another owner for two seconds, as a node taking it over does,
/// and waits until `node` has seen it gone (its fencing number down).
async fn take_the_lease_from(node: &Node, pool: &sqlx::PgPool) {
    sqlx::query(
        "update projector_lease
         set owner = 'elsewhere', fencing = fencing + 1, expires_at = now() + interval '2 seconds'
         where name = 'projector'",
    )
    .execute(pool)
    .await
    .expect("take the lease");
    let deadline = Instant::now() + TAKEOVER_LIMIT;
    while node.fencing_number().await != 0 {
        assert!(
            Instant::now() < deadline,
            "the node did not notice it lost its lease"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Drops a test database when the test ends (after the nodes are gone).
/// A database of its own for one test, as a URL, dropped when the guard goes (declared before
/// the nodes, so it outlives them); `None` (skip) without PostgreSQL.
async fn test_database() -> Option<(String, DropDatabase)> {
    let (admin, name) = create_pg_database().await?;
    let database_url = with_database(&admin, &name);
    Some((database_url, DropDatabase(Some((admin, name)))))
}

struct DropDatabase(Option<(String, String)>);

impl Drop for DropDatabase {
    fn drop(&mut self) {
        if let Some((admin, name)) = self.0.take() {
            drop_pg_database(admin, name);
        }
    }
}

/// On the S3 store (and SQLite), an upload over the limit or of the wrong type is refused and
/// leaves no object behind; `companion files check` sees the uploaded file and no orphan.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refused_uploads_leave_nothing_in_the_object_store() {
    let Some(s3s) = s3s_fs_binary() else { return };
    let s3 = S3Server::start(&s3s).await;
    let mut store = s3.env();
    store.push(("UPLOAD_MAX_BYTES", (1024 * 1024).to_string()));
    let node = Node::start("S3", "", &store).await;
    let anna = node.token(ANNA).await;
    let before = s3.objects();
    let (status, body) = node.upload(&anna, "Too big", pdf_of(1024 * 1024 + 1)).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{body}");
    assert_eq!(body["message"], "The file is too large: the limit is 1 MB");
    let (status, _) = node
        .upload(&anna, "Not a PDF", b"plain text, not a PDF".to_vec())
        .await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert_eq!(s3.objects(), before, "refused uploads leave no object");
    let (status, item) = node.upload(&anna, "Fits", pdf_of(1024 * 1024)).await;
    assert_eq!(status, StatusCode::CREATED, "{item}");
    assert_eq!(s3.objects().len(), before.len() + 1);

    // Conditional and ranged reads of the stored object.
    let id = item["id"].as_str().unwrap();
    let file = node.url(&format!("/documents/{id}/file"));
    let res = node
        .client
        .get(&file)
        .bearer_auth(&anna)
        .send()
        .await
        .unwrap();
    let etag = res.headers()["etag"].to_str().unwrap().to_string();
    let res = node
        .client
        .get(&file)
        .bearer_auth(&anna)
        .header("if-none-match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NOT_MODIFIED);
    let res = node
        .client
        .get(&file)
        .bearer_auth(&anna)
        .header("range", "bytes=-10")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::PARTIAL_CONTENT);
    assert!(res.bytes().await.unwrap()[..] == pdf_of(1024 * 1024)[1024 * 1024 - 10..]);
    let res = node
        .client
        .get(&file)
        .bearer_auth(&anna)
        .header("range", "bytes=5000000-")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::RANGE_NOT_SATISFIABLE);
    assert_eq!(
        res.headers()["content-range"].to_str().unwrap(),
        format!("bytes */{}", 1024 * 1024)
    );

    // An object no event names is an orphan; nothing is missing.
    let check = || {
        let mut command = Command::new(env!("CARGO_BIN_EXE_companion"));
        command
            .args(["files", "check", "--json"])
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("DATA_DIR", node.data_dir.path())
            .env("RUST_LOG", "warn");
        for (key, value) in &store {
            command.env(key, value);
        }
        command.output().expect("companion files check runs")
    };
    let orphan = s3
        .root
        .path()
        .join(BUCKET)
        .join("files")
        .join("0123456789abcdef0123456789abcdef.pdf");
    std::fs::write(&orphan, b"%PDF-orphan").unwrap();
    let output = check();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: Value = serde_json::from_slice(&output.stdout).expect("json report");
    assert_eq!(report["missing"], json!([]));
    assert_eq!(
        report["orphans"],
        json!(["0123456789abcdef0123456789abcdef.pdf"])
    );
    assert_eq!(report["collectable"], json!([]), "too young to collect");
    // Past the grace period it is collected; the file history names stays.
    let status = Command::new("touch")
        .args(["-d", "2 hours ago"])
        .arg(&orphan)
        .status()
        .unwrap();
    assert!(status.success());
    let output = {
        let mut command = Command::new(env!("CARGO_BIN_EXE_companion"));
        command
            .args(["files", "check", "--collect"])
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("DATA_DIR", node.data_dir.path())
            .env("RUST_LOG", "warn");
        for (key, value) in &store {
            command.env(key, value);
        }
        command.output().unwrap()
    };
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{text}");
    assert!(text.contains("collected 1 orphans"), "{text}");
    assert!(!orphan.exists());
    assert_eq!(
        s3.objects().len(),
        before.len() + 1,
        "the uploaded file is kept"
    );
    let res = node
        .client
        .get(&file)
        .bearer_auth(&anna)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
}

/// Appends event `sequence` of an aggregate no projection reads.
async fn append_nothing(pool: &sqlx::PgPool, sequence: i64) {
    sqlx::query(
        "insert into events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata)
         values ('test_nothing', 'x', $1, 'Nothing', '1.0', '{\"Nothing\":{}}', '{}')",
    )
    .bind(sequence)
    .execute(pool)
    .await
    .unwrap();
}

/// The fencing rule on its own: a projector whose lease was taken over writes no batch, the new
/// owner's does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_projector_that_lost_its_lease_writes_no_batch() {
    use projections::lease::{self, Fence};
    use projections::projector::checkpoint_of;
    use projections::{Db, Position, Projector};

    let Some((database_url, _drop_db)) = test_database().await else {
        return;
    };
    let db = Db::connect(&database_url).await.expect("database");
    let Db::Postgres { pool } = &db else {
        unreachable!()
    };
    append_nothing(pool, 1).await;
    assert_eq!(lease::try_take(pool, "node-a").await.unwrap(), Some(1));
    assert_eq!(
        lease::try_take(pool, "node-b").await.unwrap(),
        None,
        "a live lease is not taken"
    );
    // A stops renewing (frozen); the lease runs out and B takes it with a higher number.
    sqlx::query("update projector_lease set expires_at = now() - interval '1 second'")
        .execute(pool)
        .await
        .unwrap();
    assert_eq!(lease::try_take(pool, "node-b").await.unwrap(), Some(2));
    assert!(
        !lease::renew(pool, "node-a", 1).await.unwrap(),
        "A cannot renew"
    );

    let stale = Fence::new("node-a");
    stale.set(1);
    // Events become readable once older transactions of the cluster end: wait for the head.
    let head = projections::stream::head(&db)
        .await
        .unwrap()
        .expect("an event");
    let a = Projector::new(db.clone(), backend::read_models::all()).with_fence(stale);
    assert!(!a.run_until(head, Duration::from_secs(3)).await.unwrap());
    for projection in backend::read_models::all() {
        assert_eq!(
            checkpoint_of(&db, projection.name()).await.unwrap(),
            Position::default(),
            "{} moved under a stale fencing number",
            projection.name()
        );
    }
    let owner = Fence::new("node-b");
    owner.set(2);
    let b = Projector::new(db.clone(), backend::read_models::all()).with_fence(owner);
    assert!(b.run_until(head, Duration::from_secs(30)).await.unwrap());
    let mut reached = Vec::new();
    for projection in backend::read_models::all() {
        let at = checkpoint_of(&db, projection.name()).await.unwrap();
        assert_ne!(
            at,
            Position::default(),
            "{} not moved by the owner",
            projection.name()
        );
        reached.push((projection.name(), at));
    }

    // With the checkpoints stored, a round moves them all in one statement that also looks
    // for the lease: under the stale number it moves none of them, while B's lease is live
    // (nothing renews it here: it is made to last the rest of the test).
    sqlx::query("update projector_lease set expires_at = now() + interval '60 seconds'")
        .execute(pool)
        .await
        .unwrap();
    append_nothing(pool, 2).await;
    let head = projections::stream::head(&db)
        .await
        .unwrap()
        .expect("an event");
    assert!(!a.run_until(head, Duration::from_secs(3)).await.unwrap());
    for (name, at) in &reached {
        assert_eq!(
            checkpoint_of(&db, name).await.unwrap(),
            *at,
            "{name} moved under a stale fencing number"
        );
    }
    // The owner's fenced statement moves them.
    assert!(b.run_until(head, Duration::from_secs(30)).await.unwrap());
    for (name, at) in &reached {
        assert!(
            checkpoint_of(&db, name).await.unwrap() > *at,
            "{name} not moved by the owner's fenced statement"
        );
    }
    db.close().await;
}

/// A node whose projector lease is taken away while commands stream in answers every command:
/// the commands its projector's loop was committing at that moment are committed and answered,
/// not dropped with the loop. Nothing is lost or stored twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn commands_under_way_when_the_lease_is_lost_are_all_answered() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;

    let Some((database_url, _drop_db)) = test_database().await else {
        return;
    };
    let limits = [
        ("RATE_LIMIT_SESSION_PER_SECOND", "10000".to_string()),
        ("RATE_LIMIT_SESSION_BURST", "100000".to_string()),
        ("METRICS_TOKEN", METRICS_TOKEN.to_string()),
    ];
    let a = Arc::new(Node::start("A", &database_url, &limits).await);
    let pool = sqlx::PgPool::connect(&database_url).await.expect("pool");
    let token = a.token(ANNA).await;
    let before = a.my_titles(&token).await.len();

    let stop = Arc::new(AtomicBool::new(false));
    let writers: Vec<_> = (0..8)
        .map(|writer| {
            let (a, token, stop) = (a.clone(), token.clone(), stop.clone());
            tokio::spawn(async move {
                let mut answers = Vec::new();
                let mut n = 0;
                while !stop.load(Ordering::Acquire) {
                    n += 1;
                    let title = format!("Folder {writer}-{n}");
                    let res = a.create_folder(&token, &title).await;
                    let status = res.status();
                    answers.push((title, status, res.text().await.unwrap_or_default()));
                }
                answers
            })
        })
        .collect();

    // Four times another owner takes the lease while the projector's loop is in the middle of
    // committing commands: the events table is locked first, so the loop's transaction waits
    // on it holding the commands it took; the lock goes once this node has seen the lease
    // gone. Each time this node takes the lease back.
    // The last time the lock stays past a lease time: the projector is dropped after all, and
    // the commands it held find in the store whether their transaction committed.
    for round in 0..4 {
        tokio::time::sleep(Duration::from_millis(1000)).await;
        let mut lock = pool.begin().await.expect("begin");
        sqlx::query("lock table events in exclusive mode")
            .execute(&mut *lock)
            .await
            .expect("lock the events");
        tokio::time::sleep(Duration::from_millis(300)).await;
        // Its projector then finishes the batch it is in, which waits on the lock.
        take_the_lease_from(&a, &pool).await;
        let held = if round == 3 {
            projections::lease::LEASE_TTL + Duration::from_secs(1)
        } else {
            Duration::from_millis(200)
        };
        tokio::time::sleep(held).await;
        lock.commit().await.expect("unlock");
        a.wait_for_the_lease(TAKEOVER_LIMIT).await;
    }
    stop.store(true, Ordering::Release);

    // How many commands run depends on the machine's load; that every one is answered does
    // not. Each writer's first command went out before the first lock.
    let mut created = Vec::new();
    for writer in writers {
        let answers = writer.await.expect("writer");
        assert!(!answers.is_empty(), "a writer got no answer");
        for (title, status, body) in answers {
            assert_eq!(status, StatusCode::CREATED, "{title}: {body}");
            created.push(title);
        }
    }
    eprintln!("{} commands answered", created.len());
    let titles = a.my_titles(&token).await;
    assert_eq!(titles.len(), before + created.len(), "every folder once");
    for title in &created {
        assert!(titles.contains(title), "{title} is not listed");
    }
    let fenced: i64 = sqlx::query_scalar("select fencing from projector_lease")
        .fetch_one(&pool)
        .await
        .expect("fencing");
    assert_eq!(fenced, 9, "the lease changed hands eight times");
    pool.close().await;
}

/// A node that loses its lease while PostgreSQL is still committing its projector's
/// transaction (the commit held by a deferred trigger waiting on a lock the test holds), so the
/// projector is dropped with the commit under way: the command waits until the transaction is
/// settled and is answered as stored, once. Read at once, the store did not show the commit
/// yet: the command appended its change a second time, was refused by its taken sequence, and
/// its retry answered 409 "This item already exists" for a folder it had created.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_command_whose_commit_outlives_its_projector_is_answered_once() {
    use std::sync::Arc;

    const HOLD: i64 = 4242;
    let Some((database_url, _drop_db)) = test_database().await else {
        return;
    };
    let a = Arc::new(
        Node::start(
            "A",
            &database_url,
            &[("METRICS_TOKEN", METRICS_TOKEN.to_string())],
        )
        .await,
    );
    let pool = sqlx::PgPool::connect(&database_url).await.expect("pool");
    let token = a.token(ANNA).await;
    sqlx::raw_sql(&format!(
        "create function hold_commit() returns trigger language plpgsql as $$
         begin
           if new.payload::text like '%Slow commit%' then
             -- The round's lock timeout would fail the commit instead.
             perform set_config('lock_timeout', '0', true);
             perform pg_advisory_xact_lock({HOLD});
           end if;
           return null;
         end $$;
         create constraint trigger hold_commit after insert on events
           deferrable initially deferred for each row execute function hold_commit();"
    ))
    .execute(&pool)
    .await
    .expect("the trigger");
    let mut holder = pool.acquire().await.expect("holder");
    sqlx::query("select pg_advisory_lock($1)")
        .bind(HOLD)
        .execute(&mut *holder)
        .await
        .expect("hold");

    let writer = {
        let (a, token) = (a.clone(), token.clone());
        tokio::spawn(async move {
            let res = a.create_folder(&token, "Slow commit").await;
            let status = res.status();
            (status, res.text().await.unwrap_or_default())
        })
    };
    // The projector's transaction is at its commit once its trigger waits for the lock.
    let deadline = Instant::now() + TAKEOVER_LIMIT;
    loop {
        let waiting: i64 = sqlx::query_scalar(
            "select count(*) from pg_locks where locktype = 'advisory' and objid = $1 and not granted",
        )
        .bind(HOLD)
        .fetch_one(&pool)
        .await
        .expect("locks");
        if waiting > 0 {
            break;
        }
        assert!(Instant::now() < deadline, "the commit never started");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    take_the_lease_from(&a, &pool).await;
    // The node takes the lease back only once its stuck projector is dropped (a lease time
    // after it saw the lease gone).
    a.wait_for_the_lease(3 * TAKEOVER_LIMIT).await;
    assert!(!writer.is_finished(), "answered before its commit ended");
    sqlx::query("select pg_advisory_unlock($1)")
        .bind(HOLD)
        .execute(&mut *holder)
        .await
        .expect("release");

    let (status, body) = writer.await.expect("writer");
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_created_once(&a, &token, &pool, "Slow commit").await;
    drop(holder);
    pool.close().await;
}

/// A group commit whose `COMMIT` itself fails (a deferred trigger refuses the first one): the
/// command learns its transaction rolled back and appends its change on its own, answered 201
/// and stored once, where it was answered a server error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_whose_group_commit_fails_at_its_commit_is_stored_once() {
    let Some((database_url, _drop_db)) = test_database().await else {
        return;
    };
    let a = Node::start("A", &database_url, &[]).await;
    let pool = sqlx::PgPool::connect(&database_url).await.expect("pool");
    let token = a.token(ANNA).await;
    // A sequence is not rolled back with the transaction: only the first commit is refused.
    sqlx::raw_sql(
        "create sequence commit_attempts;
         create function refuse_first_commit() returns trigger language plpgsql as $$
         begin
           if new.payload::text like '%Refused commit%' and nextval('commit_attempts') = 1 then
             raise exception 'the first commit is refused';
           end if;
           return null;
         end $$;
         create constraint trigger refuse_first_commit after insert on events
           deferrable initially deferred for each row execute function refuse_first_commit();",
    )
    .execute(&pool)
    .await
    .expect("the trigger");

    let res = a.create_folder(&token, "Refused commit").await;
    let status = res.status();
    assert_eq!(
        status,
        StatusCode::CREATED,
        "{}",
        res.text().await.unwrap_or_default()
    );
    let attempts: i64 = sqlx::query_scalar("select last_value from commit_attempts")
        .fetch_one(&pool)
        .await
        .expect("attempts");
    assert_eq!(attempts, 2, "the refused commit, then the command's own");
    assert_created_once(&a, &token, &pool, "Refused commit").await;
    pool.close().await;
}
