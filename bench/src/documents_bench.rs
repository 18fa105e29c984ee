//! Document commands per second through the HTTP API, next to a raw single-row insert loop on
//! the same database in the same run.
//!
//! ```text
//! cargo run --release -p bench --bin documents_bench -- [--clients 8] [--seconds 10]
//!     [--warmup 2] [--database-url postgres://postgres@127.0.0.1:5432/postgres]
//!     [--idempotency-keys on|off]
//! ```
//!
//! Starts the real server on a loopback port with a fresh SQLite database, or, with
//! `--database-url`, on a throw-away PostgreSQL database created on that server (the URL's own
//! database is only used to create and drop it). One account per client is added and signed in
//! through `POST /api/users/login` (a lone client gets a second account, which only receives its
//! shares). Then each client works in its own My Docs, closed loop (the next request leaves when
//! the previous one has answered), repeating five commands:
//!
//! 1. create a folder at the root (`POST /api/folders`),
//! 2. rename it (`POST /api/folders/{id}`),
//! 3. move it into one of three folders made before the run (`POST /api/folders/move`),
//! 4. upload a small real PDF into it (`POST /api/documents/upload`, multipart),
//! 5. share that file with the next client's user (`POST /api/documents/share`).
//!
//! Every command is an event appended through cqrs-es and, before the answer, applied by the
//! projections (read-your-own-write), as in production. Commands answered during the first
//! `--warmup` seconds are not counted. Meanwhile, every 50 ms, the documents projection's lag
//! is sampled as its gauges measure it: events appended and not applied yet, and the age of the
//! oldest of them.
//!
//! The baseline is the simplest write the same database can do, in the same process, through
//! the server's own connection pool, with the same number of concurrent clients: a loop of
//! single-row `INSERT`s (autocommit, one statement each) into a throw-away table. It runs for
//! `--seconds` before and again after the commands, and the mean of the two is the baseline,
//! so a change of load on the machine during the run shows as a difference between the two.
//!
//! With `--idempotency-keys on`, every command carries a new `Idempotency-Key`, as the web app
//! sends one with every command: each then also claims its key and keeps its answer.
//!
//! With `RUST_LOG` set (for instance `RUST_LOG=sqlx::query=debug`), the server's log goes to
//! standard error, each line with the name of the thread that wrote it.
//!
//! Bounded: at most 64 clients and 120 s, and the whole run is stopped after a timeout. The
//! temporary folder and the PostgreSQL database are removed at the end, also after an error.

use std::time::{Duration, Instant};

/// The allocator `companion` runs with (see `backend/src/main.rs`): the server runs in this
/// process, and the baseline's inserts with it.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use backend::{Config, Server};
use projections::{on_db, Db};
use serde_json::{json, Value};

/// A small real PDF from the demo content (2.4 KB).
const PDF: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../content/files/users/travel-checklist.pdf"
));

/// Folders each client makes before the run, to move its new folders into.
const AREAS: usize = 3;

struct Args {
    clients: usize,
    seconds: u64,
    warmup: u64,
    postgres: Option<String>,
    /// Each command carries a new `Idempotency-Key`, as the web app sends one with every command.
    idempotency_keys: bool,
}

fn usage() -> ! {
    eprintln!(
        "usage: documents_bench [--clients 1..64] [--seconds 1..120] [--warmup 0..30] \
         [--database-url postgres://user@host:port/db] [--idempotency-keys on|off]"
    );
    std::process::exit(2);
}

fn args() -> Args {
    let mut out = Args {
        clients: 8,
        seconds: 10,
        warmup: 2,
        postgres: None,
        idempotency_keys: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let Some(value) = it.next() else { usage() };
        let number = value.parse::<u64>().ok();
        match (a.as_str(), number) {
            ("--clients", Some(v)) if (1..=64).contains(&v) => out.clients = v as usize,
            ("--seconds", Some(v)) if (1..=120).contains(&v) => out.seconds = v,
            ("--warmup", Some(v)) if v <= 30 => out.warmup = v,
            ("--database-url", _)
                if value.starts_with("postgres://") || value.starts_with("postgresql://") =>
            {
                out.postgres = Some(value)
            }
            ("--idempotency-keys", _) if value == "on" || value == "off" => {
                out.idempotency_keys = value == "on"
            }
            _ => usage(),
        }
    }
    out
}

/// The URL of database `name` on the server of `url`.
fn with_database(url: &str, name: &str) -> anyhow::Result<String> {
    let mut parsed = url::Url::parse(url)?;
    parsed.set_path(&format!("/{name}"));
    Ok(parsed.to_string())
}

async fn admin_query(admin_url: &str, sql: &str) -> anyhow::Result<()> {
    use sqlx::Connection;
    let mut conn = sqlx::PgConnection::connect(admin_url).await?;
    sqlx::query(sql).execute(&mut conn).await?;
    conn.close().await?;
    Ok(())
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Op {
    CreateFolder,
    Rename,
    Move,
    Upload,
    Share,
}

const OPS: [Op; 5] = [
    Op::CreateFolder,
    Op::Rename,
    Op::Move,
    Op::Upload,
    Op::Share,
];

impl Op {
    fn label(self) -> &'static str {
        match self {
            Op::CreateFolder => "create folder",
            Op::Rename => "rename folder",
            Op::Move => "move folder",
            Op::Upload => "upload PDF",
            Op::Share => "share file",
        }
    }
}

/// One answered command.
struct Sample {
    op: Op,
    /// When it was answered, from the start of the run.
    done: Duration,
    latency: Duration,
    status: u16,
}

struct Client {
    http: reqwest::Client,
    base: String,
    token: String,
    idempotency_keys: bool,
}

impl Client {
    fn post(&self, url: String) -> reqwest::RequestBuilder {
        let request = self.http.post(url).bearer_auth(&self.token);
        if self.idempotency_keys {
            request.header("Idempotency-Key", uuid::Uuid::new_v4().to_string())
        } else {
            request
        }
    }

    async fn post_json(&self, path: &str, body: Value) -> anyhow::Result<(u16, Value)> {
        let res = self
            .post(format!("{}{path}", self.base))
            .json(&body)
            .send()
            .await?;
        let status = res.status().as_u16();
        let body = res.json().await.unwrap_or(Value::Null);
        Ok((status, body))
    }

    async fn upload(&self, parent: &str, name: &str) -> anyhow::Result<(u16, Value)> {
        let form = reqwest::multipart::Form::new()
            .text("name", name.to_string())
            .text("parent", parent.to_string())
            .part(
                "file",
                reqwest::multipart::Part::bytes(PDF).file_name("travel-checklist.pdf"),
            );
        let res = self
            .post(format!("{}/api/documents/upload", self.base))
            .multipart(form)
            .send()
            .await?;
        let status = res.status().as_u16();
        let body = res.json().await.unwrap_or(Value::Null);
        Ok((status, body))
    }
}

fn id_of(body: &Value) -> Option<String> {
    body["id"].as_str().map(str::to_string)
}

/// One client's closed loop until `deadline`: the five commands again and again. A command
/// that fails ends its round (the next ones depend on it).
async fn work(
    client: Client,
    index: usize,
    colleague: String,
    areas: Vec<String>,
    start: Instant,
    deadline: Instant,
) -> (Vec<Sample>, Vec<String>) {
    let mut samples = Vec::new();
    let mut errors = Vec::new();
    let mut round = 0usize;
    'rounds: while Instant::now() < deadline {
        round += 1;
        let mut folder = String::new();
        let mut file = String::new();
        for op in OPS {
            if Instant::now() >= deadline {
                break 'rounds;
            }
            let sent = Instant::now();
            let result = match op {
                Op::CreateFolder => {
                    client
                        .post_json(
                            "/api/folders",
                            json!({"name": format!("Visit {index}-{round}"), "type": "my", "parent": null}),
                        )
                        .await
                }
                Op::Rename => {
                    client
                        .post_json(
                            &format!("/api/folders/{folder}"),
                            json!({"name": format!("Visit {index}-{round} (done)")}),
                        )
                        .await
                }
                Op::Move => {
                    client
                        .post_json(
                            "/api/folders/move",
                            json!({"folder": folder, "destination": areas[round % areas.len()]}),
                        )
                        .await
                }
                Op::Upload => {
                    client
                        .upload(&folder, &format!("Visit report {index}-{round}"))
                        .await
                }
                Op::Share => {
                    client
                        .post_json(
                            "/api/documents/share",
                            json!({"file": file, "email": colleague}),
                        )
                        .await
                }
            };
            let latency = sent.elapsed();
            let (status, body) = match result {
                Ok(answer) => answer,
                Err(e) => {
                    errors.push(format!("{}: {e}", op.label()));
                    (0, Value::Null)
                }
            };
            samples.push(Sample {
                op,
                done: start.elapsed(),
                latency,
                status,
            });
            if !(200..300).contains(&status) {
                if status != 0 && errors.len() < 20 {
                    errors.push(format!("{} answered {status}: {body}", op.label()));
                }
                continue 'rounds;
            }
            match op {
                Op::CreateFolder => folder = id_of(&body).unwrap_or_default(),
                Op::Upload => file = id_of(&body).unwrap_or_default(),
                _ => {}
            }
        }
    }
    (samples, errors)
}

/// A row like an event's: a few hundred bytes of JSON text.
fn raw_payload(client: usize, n: u64) -> String {
    json!({"FileUploaded": {"id": uuid::Uuid::new_v4().to_string(), "client": client, "n": n,
        "title": "Visit report", "name": "Visit report.pdf", "blob": "0123456789abcdef0123456789abcdef.pdf",
        "size": 2451, "format": "pdf", "labels": {"for_internal_use": false, "controlled_release": false,
        "upon_request": false, "external_release": false}}})
    .to_string()
}

/// `clients` tasks inserting one row per statement for `seconds`; rows per second.
async fn raw_inserts(db: &Db, clients: usize, seconds: u64, phase: u64) -> anyhow::Result<f64> {
    let start = Instant::now();
    let deadline = start + Duration::from_secs(seconds);
    let mut tasks = Vec::new();
    for client in 0..clients {
        let db = db.clone();
        tasks.push(tokio::spawn(async move {
            let mut n = 0u64;
            while Instant::now() < deadline {
                let payload = raw_payload(client, n);
                on_db!(&db, pool => sqlx::query(
                    "insert into bench_raw_inserts (client, n, payload, created_at) values ($1, $2, $3, $4)")
                    .bind(client as i64).bind((phase * 1_000_000_000 + n) as i64).bind(&payload).bind(projections::now_ms())
                    .execute(pool).await.map(|r| r.rows_affected()))?;
                n += 1;
            }
            anyhow::Ok(n)
        }));
    }
    let mut total = 0u64;
    for task in tasks {
        total += task.await??;
    }
    Ok(total as f64 / start.elapsed().as_secs_f64())
}

/// The projector loop's group-commit counters, from the server's `/metrics` text.
struct GroupCommits {
    projected: f64,
    not_projected: f64,
    commands: f64,
    /// Statements the documents projection ran to read its rows, in every round.
    documents_reads: f64,
}

impl GroupCommits {
    fn read(state: &backend::AppState) -> Self {
        use projections::projector::group_commit_metric_names as names;
        let text = backend::http::metrics::render(state);
        let value = |series: &str| {
            text.lines()
                .find_map(|line| line.strip_prefix(series)?.trim().parse::<f64>().ok())
                .unwrap_or(0.0)
        };
        Self {
            projected: value(&format!(
                "{}{{projected=\"true\"}}",
                names::GROUP_COMMITS_TOTAL
            )),
            not_projected: value(&format!(
                "{}{{projected=\"false\"}}",
                names::GROUP_COMMITS_TOTAL
            )),
            commands: value(names::GROUP_COMMIT_COMMANDS_TOTAL),
            documents_reads: value(&format!(
                "{}{{kind=\"read\"}}",
                projections::documents::projection::STATEMENTS_TOTAL
            )),
        }
    }

    fn since(&self, earlier: &Self) -> Self {
        Self {
            projected: self.projected - earlier.projected,
            not_projected: self.not_projected - earlier.not_projected,
            commands: self.commands - earlier.commands,
            documents_reads: self.documents_reads - earlier.documents_reads,
        }
    }
}

fn percentile_ms(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p / 100.0) * (sorted.len() - 1) as f64).round() as usize;
    sorted[rank.min(sorted.len() - 1)].as_secs_f64() * 1000.0
}

async fn run(a: &Args, database_url: Option<String>, data: &std::path::Path) -> anyhow::Result<()> {
    let mut config = Config::from_env_and_args(Vec::<String>::new())?;
    config.port = 0;
    config.bind_address = "127.0.0.1".into();
    config.data_dir = data.to_path_buf();
    config.database_url = database_url;
    config.content_dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../content").into();
    config.web_dir = data.join("web");
    config.jwt_secret = Some("bench-secret-bench-secret-bench-secret-00".into());
    // One address and eight sessions measuring throughput: the edge's request limits, made to
    // stop floods, would measure themselves.
    config.rate_limit_address_per_second = 1_000_000;
    config.rate_limit_address_burst = 1_000_000;
    config.rate_limit_session_per_second = 1_000_000;
    config.rate_limit_session_burst = 1_000_000;
    let engine = if config.database_url.is_some() {
        "PostgreSQL"
    } else {
        "SQLite"
    };

    let server = Server::bind(config).await?;
    let state = server.state().clone();
    let db = state.db.clone();
    let password_hash =
        backend::auth::password::hash(backend::auth::demo::DEMO_PASSWORD.into()).await?;
    // Each client shares with the next client's user; a lone client shares with one more
    // account, which does nothing else.
    let emails: Vec<String> = (0..a.clients.max(2))
        .map(|i| format!("bench.user{i}@example.com"))
        .collect();
    for (i, email) in emails.iter().enumerate() {
        backend::auth::User::insert(
            &db,
            backend::auth::NewUser {
                email,
                first_name: "Bench",
                last_name: &format!("User {i}"),
                password_hash: Some(password_hash.clone()),
                role: backend::auth::Role::User,
                certificate: None,
                terms_accepted: true,
                onboarding_done: true,
            },
        )
        .await?;
    }
    on_db!(&db, pool => sqlx::query(
        "create table bench_raw_inserts (client bigint not null, n bigint not null, payload text not null,
            created_at bigint not null, primary key (client, n))")
        .execute(pool).await.map(|r| r.rows_affected()))?;

    let base = format!("http://{}", server.addr);
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let serving = tokio::spawn(server.run(async {
        let _ = stop_rx.await;
    }));
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(256)
        .timeout(Duration::from_secs(30))
        .build()?;

    // Sign in and make the folders to move into, before the clock starts.
    let mut clients = Vec::new();
    let mut areas = Vec::new();
    for (i, email) in emails.iter().take(a.clients).enumerate() {
        let res = http
            .post(format!("{base}/api/users/login"))
            .json(&json!({"username": email, "password": backend::auth::demo::DEMO_PASSWORD}))
            .send()
            .await?;
        let login: Value = res.json().await?;
        let token = login["jwt"].as_str().unwrap_or_default().to_string();
        anyhow::ensure!(!token.is_empty(), "sign-in of {email} failed: {login}");
        // The terms of use are accepted as a user would (an event, like every other change).
        let accepted = http
            .get(format!("{base}/api/users/accept-terms"))
            .bearer_auth(&token)
            .send()
            .await?
            .status();
        anyhow::ensure!(
            accepted.is_success(),
            "accepting the terms answered {accepted}"
        );
        let client = Client {
            http: http.clone(),
            base: base.clone(),
            token,
            idempotency_keys: a.idempotency_keys,
        };
        let mut mine = Vec::new();
        for area in 0..AREAS {
            let (status, body) = client
                .post_json(
                    "/api/folders",
                    json!({"name": format!("Area {i}-{area}"), "type": "my", "parent": null}),
                )
                .await?;
            anyhow::ensure!(status == 201, "creating a folder answered {status}: {body}");
            mine.push(id_of(&body).unwrap_or_default());
        }
        clients.push(client);
        areas.push(mine);
    }

    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "documents_bench: {engine}, {} clients closed loop, {} s (+{} s warm-up), {cores} cores, \
         Idempotency-Key {}",
        a.clients,
        a.seconds,
        a.warmup,
        if a.idempotency_keys {
            "on every command"
        } else {
            "off"
        }
    );

    let before = raw_inserts(&db, a.clients, a.seconds, 0).await?;
    let commits_before = GroupCommits::read(&state);

    let start = Instant::now();
    let counted_from = Duration::from_secs(a.warmup);
    let deadline = start + counted_from + Duration::from_secs(a.seconds);
    let mut tasks = Vec::new();
    for (i, (client, mine)) in clients.into_iter().zip(areas).enumerate() {
        let colleague = emails[(i + 1) % emails.len()].clone();
        tasks.push(tokio::spawn(work(
            client, i, colleague, mine, start, deadline,
        )));
    }
    let lag = tokio::spawn(sample_lag(db.clone(), start + counted_from, deadline));
    let mut samples = Vec::new();
    let mut errors = Vec::new();
    for task in tasks {
        let (s, e) = task.await?;
        samples.extend(s);
        errors.extend(e);
    }
    let window_end = deadline - start;
    let counted: Vec<&Sample> = samples
        .iter()
        .filter(|s| s.done >= counted_from && s.done <= window_end)
        .collect();

    let commits = GroupCommits::read(&state).since(&commits_before);
    let mut lag = lag.await??;
    let after = raw_inserts(&db, a.clients, a.seconds, 1).await?;
    let baseline = (before + after) / 2.0;

    println!(
        "{:<16} {:>7} {:>5} {:>7} {:>9} {:>9} {:>9}",
        "command", "ok", "409", "errors", "per s", "p50 ms", "p99 ms"
    );
    let window = a.seconds as f64;
    let mut all_ok = Vec::new();
    let (mut conflicts, mut failed) = (0usize, 0usize);
    for op in OPS {
        let mine: Vec<&&Sample> = counted.iter().filter(|s| s.op == op).collect();
        let mut ok: Vec<Duration> = mine
            .iter()
            .filter(|s| (200..300).contains(&s.status))
            .map(|s| s.latency)
            .collect();
        ok.sort_unstable();
        let conflict = mine.iter().filter(|s| s.status == 409).count();
        let error = mine.len() - ok.len() - conflict;
        conflicts += conflict;
        failed += error;
        println!(
            "{:<16} {:>7} {:>5} {:>7} {:>9.1} {:>9.2} {:>9.2}",
            op.label(),
            ok.len(),
            conflict,
            error,
            ok.len() as f64 / window,
            percentile_ms(&ok, 50.0),
            percentile_ms(&ok, 99.0)
        );
        all_ok.extend(ok);
    }
    all_ok.sort_unstable();
    let commands = all_ok.len() as f64 / window;
    for e in errors.iter().take(5) {
        println!("error: {e}");
    }
    println!(
        "commands: {commands:.1}/s, p50 {:.2} ms, p99 {:.2} ms ({} ok, {conflicts} answered 409, {failed} other errors)",
        percentile_ms(&all_ok, 50.0),
        percentile_ms(&all_ok, 99.0),
        all_ok.len()
    );
    println!(
        "raw inserts: {baseline:.1}/s (before {before:.1}/s, after {after:.1}/s), {} clients, one row per statement",
        a.clients
    );
    println!(
        "ratio: commands/s / inserts/s = {:.4} (one command costs {:.1} inserts)",
        commands / baseline,
        baseline / commands
    );

    let transactions = commits.projected + commits.not_projected;
    println!(
        "group commits: {transactions:.0} transactions for {:.0} commands ({:.2} a transaction), \
         {:.0} with the projections applied in them; the documents projection's reads: {:.2} a transaction",
        commits.commands,
        commits.commands / transactions.max(1.0),
        commits.projected,
        commits.documents_reads / transactions.max(1.0)
    );

    lag.sort_by(|a, b| a.1.total_cmp(&b.1));
    let seconds: Vec<f64> = lag.iter().map(|l| l.1 * 1000.0).collect();
    let mut events: Vec<f64> = lag.iter().map(|l| l.0 as f64).collect();
    events.sort_by(f64::total_cmp);
    println!(
        "projection lag under load: {} samples, events behind p50 {:.0} / p99 {:.0} / max {:.0}; oldest unapplied event p50 {:.1} / p99 {:.1} / max {:.1} ms",
        lag.len(),
        quantile(&events, 0.5),
        quantile(&events, 0.99),
        events.last().copied().unwrap_or(0.0),
        quantile(&seconds, 0.5),
        quantile(&seconds, 0.99),
        seconds.last().copied().unwrap_or(0.0)
    );

    on_db!(&db, pool => sqlx::query("drop table bench_raw_inserts")
        .execute(pool).await.map(|r| r.rows_affected()))?;
    let _ = stop_tx.send(());
    let _ = serving.await;
    Ok(())
}

/// Every 50 ms of the counted window: how many events the documents projection has not applied
/// yet, and how old the oldest of them is (seconds), as its lag gauges measure it.
async fn sample_lag(db: Db, from: Instant, until: Instant) -> anyhow::Result<Vec<(i64, f64)>> {
    tokio::time::sleep_until(from.into()).await;
    let mut out = Vec::new();
    while Instant::now() < until {
        let checkpoint =
            projections::projector::checkpoint_of(&db, projections::documents::projection::NAME)
                .await?;
        let lag = projections::dead_letters::lag(&db, checkpoint).await?;
        out.push((lag.events, lag.seconds));
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Ok(out)
}

/// The value at `q` (0..1) of sorted `values`.
fn quantile(values: &[f64], q: f64) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let i = ((values.len() - 1) as f64 * q).round() as usize;
    values[i.min(values.len() - 1)]
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    // The server runs in this process, as `companion serve` runs.
    backend::allocator::keep_freed_memory();
    // `RUST_LOG=sqlx::query=debug` lists every statement with the thread that ran it (the
    // group commit's SQLite connection has a worker thread of its own).
    if std::env::var_os("RUST_LOG").is_some() {
        tracing_subscriber::fmt()
            .with_thread_names(true)
            .with_writer(std::io::stderr)
            .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
            .init();
    }
    let a = args();
    let data = tempfile::tempdir()?;
    let pg = match &a.postgres {
        Some(admin) => {
            let name = format!("docbench_{}", uuid::Uuid::new_v4().simple());
            admin_query(admin, &format!("create database {name}")).await?;
            Some((admin.clone(), name))
        }
        None => None,
    };
    // None: SQLite in the temporary folder, whatever DATABASE_URL the environment holds.
    let database_url = match &pg {
        Some((admin, name)) => Some(with_database(admin, name)?),
        None => None,
    };
    let limit = Duration::from_secs(a.warmup + 3 * a.seconds + 300);
    let result = match tokio::time::timeout(limit, run(&a, database_url, data.path())).await {
        Ok(r) => r,
        Err(_) => Err(anyhow::anyhow!("stopped after {} s", limit.as_secs())),
    };
    if let Some((admin, name)) = pg {
        if let Err(e) = admin_query(
            &admin,
            &format!("drop database if exists {name} with (force)"),
        )
        .await
        {
            eprintln!("could not drop the database {name}: {e}");
        }
    }
    result
}
