//! `bench_documents`: the documents benchmarks of `docs/BENCHMARKS.md`.
//!
//! - `http`: document commands per second through the HTTP API (create folder, rename, move,
//!   by several users at once), next to a raw single-row insert loop on the same database in
//!   the same run.
//! - `rebuild`: generates document events straight into the events table (in a child process,
//!   so its memory does not count), then rebuilds the documents projection from position 0
//!   into a fresh database: events per second and the process's peak memory.
//!
//! Each run uses fresh databases (a temporary SQLite file, or new PostgreSQL databases created
//! next to the one `--database` names) and removes them afterwards.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use backend::{Config, Server};
use clap::{Parser, Subcommand};
use cqrs_es::DomainEvent;
use events::documents::{
    FileFacts, FileFormat, ItemEvent, ItemRef, Labels, ShareVia, Space, UserRef, ITEM_TYPE,
};
use projections::documents::DocumentsProjection;
use projections::{on_db, Db, Projector};
use serde_json::json;
use sqlx::Connection;

#[derive(Parser)]
#[command(name = "bench_documents", about = "Documents benchmarks")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// HTTP document commands per second vs a raw single-row insert loop.
    Http {
        /// `sqlite`, or a PostgreSQL address whose server hosts the throw-away database.
        #[arg(long, default_value = "sqlite")]
        database: String,
        /// Commands per run.
        #[arg(long, default_value_t = 3000)]
        commands: usize,
        /// Concurrent writers of the second run (the first has one).
        #[arg(long, default_value_t = 8)]
        writers: usize,
    },
    /// Rebuild of the documents projection from generated events.
    Rebuild {
        #[arg(long, default_value = "sqlite")]
        database: String,
        #[arg(long, default_value_t = 1_000_000)]
        events: usize,
    },
    /// (internal) Writes `events` generated document events into the database at `url`.
    #[command(hide = true)]
    Generate {
        #[arg(long)]
        url: String,
        #[arg(long)]
        events: usize,
    },
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::new("warn"))
        .init();
    match Cli::parse().command {
        Command::Http {
            database,
            commands,
            writers,
        } => http(&database, commands, writers).await,
        Command::Rebuild { database, events } => rebuild(&database, events).await,
        Command::Generate { url, events } => {
            let db = Db::connect(&url).await?;
            generate(&db, events).await
        }
    }
}

// ---- throw-away databases ----

struct Scratch {
    url: String,
    dir: PathBuf,
    pg: Option<(String, String)>,
}

impl Scratch {
    async fn new(database: &str, label: &str) -> anyhow::Result<Scratch> {
        let suffix = uuid::Uuid::new_v4().simple().to_string();
        let dir = std::env::temp_dir().join(format!("bench-documents-{label}-{suffix}"));
        std::fs::create_dir_all(&dir)?;
        if database == "sqlite" {
            let url = format!("sqlite://{}", dir.join("bench.db").display());
            return Ok(Scratch { url, dir, pg: None });
        }
        let name = format!("bench_documents_{label}_{suffix}");
        // A plain connection: the server's own database needs none of our tables.
        let mut admin = sqlx::PgConnection::connect(database)
            .await
            .context("connecting to PostgreSQL")?;
        sqlx::query(&format!("create database {name}"))
            .execute(&mut admin)
            .await?;
        let mut url = url::Url::parse(database)?;
        url.set_path(&format!("/{name}"));
        Ok(Scratch {
            url: url.to_string(),
            dir,
            pg: Some((database.to_string(), name)),
        })
    }

    async fn remove(self) {
        let _ = std::fs::remove_dir_all(&self.dir);
        if let Some((admin, name)) = self.pg {
            if let Ok(mut admin) = sqlx::PgConnection::connect(&admin).await {
                let _ = sqlx::query(&format!("drop database if exists {name} with (force)"))
                    .execute(&mut admin)
                    .await;
            }
        }
    }
}

// ---- HTTP commands vs raw inserts ----

async fn http(database: &str, commands: usize, writers: usize) -> anyhow::Result<()> {
    let scratch = Scratch::new(database, "http").await?;
    let result = http_on(&scratch, commands, writers).await;
    scratch.remove().await;
    result
}

/// Percentile of sorted latencies.
fn pct(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

async fn http_on(scratch: &Scratch, commands: usize, writers: usize) -> anyhow::Result<()> {
    let mut config = Config::from_env_and_args(Vec::<String>::new())?;
    config.port = 0;
    config.bind_address = "127.0.0.1".into();
    config.data_dir = scratch.dir.clone();
    config.database_url = Some(scratch.url.clone());
    config.jwt_secret = Some("bench-secret-bench-secret-bench-secret-01".into());
    let server = Server::bind(config).await?;
    let base = format!("http://{}/api", server.addr);
    let state = server.state().clone();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(server.run(async {
        let _ = stopped.await;
    }));
    let engine = match state.db {
        Db::Sqlite { .. } => "SQLite",
        Db::Postgres { .. } => "PostgreSQL",
    };
    println!("documents over HTTP on {engine}: {commands} commands per run (create folder, rename, move in turn)");
    on_db!(&state.db, pool => sqlx::query(
        "create table bench_raw (id text primary key, payload text not null, created_at bigint not null)")
        .execute(pool).await.map(|r| r.rows_affected()))?;

    let client = reqwest::Client::new();
    let mut tokens = Vec::new();
    for w in 0..writers.max(1) {
        let id = backend::users::insert(
            &state.db,
            backend::users::NewUser {
                email: &format!("bench{w}@example.com"),
                first_name: "Bench",
                last_name: &w.to_string(),
                password_hash: None,
                role: "user",
                certificate: None,
                terms_accepted: true,
                onboarding_done: true,
            },
        )
        .await?;
        backend::auth::terms::accept(
            &state.db,
            Some(state.projector.clone()),
            &id,
            &state.config.terms_version,
        )
        .await?;
        let (session, ends) =
            backend::auth::sessions::open_on(&state.db, &id, 86_400_000, None, None).await?;
        tokens.push(state.jwt.issue(&id, &session, ends / 1000)?);
    }

    for concurrency in [1, writers.max(1)] {
        let per_writer = commands / concurrency;
        let started = Instant::now();
        let mut tasks = Vec::new();
        for token in tokens.iter().take(concurrency) {
            let (client, base, token) = (client.clone(), base.clone(), token.clone());
            tasks.push(tokio::spawn(async move {
                writer_http(&client, &base, &token, per_writer).await
            }));
        }
        let mut latencies = Vec::new();
        for t in tasks {
            latencies.extend(t.await??);
        }
        let elapsed = started.elapsed();
        latencies.sort();
        let http_rate = latencies.len() as f64 / elapsed.as_secs_f64();

        let started = Instant::now();
        let mut tasks = Vec::new();
        for w in 0..concurrency {
            let (db, writer) = (state.db.clone(), format!("{concurrency}-{w}"));
            tasks.push(tokio::spawn(async move {
                raw_inserts(&db, &writer, per_writer).await
            }));
        }
        for t in tasks {
            t.await??;
        }
        let raw_rate = (per_writer * concurrency) as f64 / started.elapsed().as_secs_f64();
        println!(
            "  {concurrency} writer(s): HTTP {http_rate:.0} commands/s (p50 {:.1} ms, p99 {:.1} ms); raw insert loop {raw_rate:.0} rows/s; ratio raw/HTTP {:.1}",
            pct(&latencies, 0.5),
            pct(&latencies, 0.99),
            raw_rate / http_rate
        );
    }
    let _ = stop.send(());
    let _ = running.await;
    Ok(())
}

/// One writer: create a folder, rename it, move it, in turn; returns each call's latency.
async fn writer_http(
    client: &reqwest::Client,
    base: &str,
    token: &str,
    commands: usize,
) -> anyhow::Result<Vec<Duration>> {
    let post = |path: String, body: serde_json::Value| {
        let request = client
            .post(format!("{base}{path}"))
            .bearer_auth(token)
            .json(&body);
        async move {
            let res = request.send().await?;
            let status = res.status();
            let body: serde_json::Value = res.json().await.unwrap_or_default();
            anyhow::ensure!(status.is_success(), "{path}: {status} {body}");
            Ok::<_, anyhow::Error>(body)
        }
    };
    // Two folders to move between; not counted.
    let a = post(
        "/folders".into(),
        json!({ "name": "A", "type": "my", "parent": null }),
    )
    .await?["id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let b = post(
        "/folders".into(),
        json!({ "name": "B", "type": "my", "parent": null }),
    )
    .await?["id"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let mut latencies = Vec::with_capacity(commands);
    let mut last = String::new();
    for i in 0..commands {
        let started = Instant::now();
        match i % 3 {
            0 => {
                let item = post(
                    "/folders".into(),
                    json!({ "name": format!("F{i}"), "type": "my", "parent": a }),
                )
                .await?;
                last = item["id"].as_str().unwrap_or_default().to_string();
            }
            1 => {
                post(
                    format!("/folders/{last}"),
                    json!({ "name": format!("R{i}") }),
                )
                .await?;
            }
            _ => {
                let to = if i % 2 == 0 { &a } else { &b };
                post(
                    "/folders/move".into(),
                    json!({ "destination": to, "folder": last }),
                )
                .await?;
            }
        }
        latencies.push(started.elapsed());
    }
    Ok(latencies)
}

/// The baseline: one autocommitted single-row insert at a time, about an event's size.
async fn raw_inserts(db: &Db, writer: &str, rows: usize) -> anyhow::Result<()> {
    let payload = "x".repeat(400);
    for i in 0..rows {
        let id = format!("{writer}-{i}");
        on_db!(db, pool => sqlx::query("insert into bench_raw (id, payload, created_at) values ($1, $2, $3)")
            .bind(&id).bind(&payload).bind(projections::now_ms())
            .execute(pool).await.map(|r| r.rows_affected()))?;
    }
    Ok(())
}

// ---- projection rebuild ----

async fn rebuild(database: &str, events: usize) -> anyhow::Result<()> {
    let source = Scratch::new(database, "source").await?;
    let target = Scratch::new(database, "target").await?;
    let result = rebuild_on(&source, &target, events).await;
    source.remove().await;
    target.remove().await;
    result
}

async fn rebuild_on(source: &Scratch, target: &Scratch, events: usize) -> anyhow::Result<()> {
    // Generate in a child process: its memory is not the rebuild's.
    let started = Instant::now();
    let status = std::process::Command::new(std::env::current_exe()?)
        .args([
            "generate",
            "--url",
            &source.url,
            "--events",
            &events.to_string(),
        ])
        .status()?;
    anyhow::ensure!(status.success(), "generating events failed");
    let generated = started.elapsed();

    let source_db = Db::connect(&source.url).await?;
    let target_db = Db::connect(&target.url).await?;
    let engine = match source_db {
        Db::Sqlite { .. } => "SQLite",
        Db::Postgres { .. } => "PostgreSQL",
    };
    let rss_before = memory("VmRSS:");
    let projector = Projector::rebuilding(
        source_db.clone(),
        target_db.clone(),
        vec![Arc::new(DocumentsProjection)],
        None,
    );
    let started = Instant::now();
    let applied = projector.run_to_end().await?;
    let elapsed = started.elapsed();
    let items: i64 = on_db!(&target_db, pool => sqlx::query_scalar("select count(*) from doc_items").fetch_one(pool).await)?;
    println!("documents projection rebuild on {engine}:");
    println!(
        "  {events} events generated in {:.1} s (child process)",
        generated.as_secs_f64()
    );
    println!(
        "  rebuilt {applied} events in {:.1} s: {:.0} events/s; {items} items in the rebuilt read model",
        elapsed.as_secs_f64(),
        applied as f64 / elapsed.as_secs_f64()
    );
    println!(
        "  memory of the rebuilding process: {} before, peak {} (VmHWM)",
        rss_before.unwrap_or_else(|| "?".into()),
        memory("VmHWM:").unwrap_or_else(|| "?".into())
    );
    source_db.close().await;
    target_db.close().await;
    Ok(())
}

/// A line of `/proc/self/status`, e.g. `VmHWM:` (Linux).
fn memory(key: &str) -> Option<String> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(key))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(format!("{:.0} MB", kb / 1024.0))
}

/// A deterministic generator of a plausible documents history: users build trees, upload,
/// rename, move, share, open, download, remove, share externally.
struct Generator {
    rng: u64,
    users: Vec<GenUser>,
    sequences: HashMap<String, i64>,
    removed: std::collections::HashSet<String>,
    next: u64,
}

struct GenUser {
    user: UserRef,
    /// (id, name, depth)
    folders: Vec<(String, String, u32)>,
    /// (id, parent)
    files: Vec<(String, Option<ItemRef>)>,
    /// Files shared with this user.
    received: Vec<String>,
}

const USERS: usize = 1000;

impl Generator {
    fn roll(&mut self, n: usize) -> usize {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        (self.rng % n.max(1) as u64) as usize
    }

    fn id(&mut self) -> String {
        self.next += 1;
        format!("00000000-0000-4000-8000-{:012x}", self.next)
    }

    /// The next event: (aggregate id, sequence, event, user).
    fn step(&mut self) -> (String, i64, ItemEvent, String) {
        let u = self.roll(self.users.len());
        let roll = self.roll(100);
        let who = self.users[u].user.clone();
        let (id, event) = if self.users[u].folders.is_empty() || roll < 10 {
            let parent = self.pick_folder(u, 5);
            let depth = parent.as_ref().map_or(0, |p| p.2) + 1;
            let id = self.id();
            let name = format!("Folder {}", self.next);
            self.users[u]
                .folders
                .push((id.clone(), name.clone(), depth));
            let event = ItemEvent::FolderCreated {
                id: id.clone(),
                space: Space::My,
                owner: Some(who.clone()),
                parent: parent.map(|(id, name, _)| ItemRef { id, name }),
                name,
                seed_key: None,
            };
            (id, event)
        } else if roll < 30 || self.users[u].files.is_empty() {
            let parent = self
                .pick_folder(u, u32::MAX)
                .map(|(id, name, _)| ItemRef { id, name });
            let id = self.id();
            let title = format!("Document {}", self.next);
            self.users[u].files.push((id.clone(), parent.clone()));
            let labels = Labels {
                for_internal_use: self.roll(5) == 0,
                ..Labels::default()
            };
            let event = ItemEvent::FileUploaded {
                id: id.clone(),
                space: Space::My,
                owner: Some(who.clone()),
                parent,
                file: FileFacts {
                    name: format!("{title}.pdf"),
                    title,
                    blob: format!("{}.pdf", uuid::Uuid::new_v4().simple()),
                    size: 20_000 + self.roll(2_000_000) as i64,
                    format: FileFormat::Pdf,
                    sha256: None,
                    subtitle: Some("Generated".into()),
                    languages_in_file: Some("EN".into()),
                    code_points: None,
                    labels,
                },
                seed_key: None,
            };
            (id, event)
        } else if roll < 42 {
            let f = self.roll(self.users[u].files.len());
            let id = self.users[u].files[f].0.clone();
            (
                id,
                ItemEvent::Renamed {
                    from: "Before".into(),
                    to: format!("Renamed {}", self.roll(1_000_000)),
                    file_name: Some("Renamed.pdf".into()),
                },
            )
        } else if roll < 50 {
            let f = self.roll(self.users[u].files.len());
            let to = self
                .pick_folder(u, u32::MAX)
                .map(|(id, name, _)| ItemRef { id, name });
            let (id, from) = self.users[u].files[f].clone();
            self.users[u].files[f].1 = to.clone();
            (id, ItemEvent::Moved { from, to })
        } else if roll < 58 {
            let f = self.roll(self.users[u].files.len());
            let id = self.users[u].files[f].0.clone();
            let mut r = self.roll(self.users.len());
            if r == u {
                r = (r + 1) % self.users.len();
            }
            self.users[r].received.push(id.clone());
            let with = self.users[r].user.clone();
            (
                id,
                ItemEvent::Shared {
                    by: who.clone(),
                    with,
                    via: ShareVia::Internal,
                },
            )
        } else if roll < 90 {
            // Opened or downloaded: something received, or one's own.
            let received = self.users[u].received.len();
            let id = if received > 0 && self.roll(2) == 0 {
                let r = self.roll(received);
                self.users[u].received[r].clone()
            } else {
                let f = self.roll(self.users[u].files.len());
                self.users[u].files[f].0.clone()
            };
            if self.removed.contains(&id) {
                return self.step();
            }
            let event = if roll < 80 {
                ItemEvent::Opened { by: who.id.clone() }
            } else {
                ItemEvent::Downloaded { by: who.id.clone() }
            };
            (id, event)
        } else if roll < 95 {
            let f = self.roll(self.users[u].files.len());
            let (id, _) = self.users[u].files.swap_remove(f);
            self.removed.insert(id.clone());
            (id, ItemEvent::FileRemoved { by: who.id.clone() })
        } else {
            let f = self.roll(self.users[u].files.len());
            let id = self.users[u].files[f].0.clone();
            (
                id,
                ItemEvent::SharedExternally {
                    by: who.id.clone(),
                    email: format!("guest{}@clinic.example", self.roll(10_000)),
                    token_hash: format!("{:064x}", self.next + self.roll(1 << 30) as u64),
                    expires_at: 1_900_000_000_000,
                },
            )
        };
        let seq = self.sequences.entry(id.clone()).or_insert(0);
        *seq += 1;
        (id, *seq, event, who.id)
    }

    /// A folder of user `u` shallower than `below`, or the root.
    fn pick_folder(&mut self, u: usize, below: u32) -> Option<(String, String, u32)> {
        let n = self.users[u].folders.len();
        if n == 0 || self.roll(4) == 0 {
            return None;
        }
        let pick = self.roll(n);
        let candidate = self.users[u].folders[pick].clone();
        (candidate.2 < below).then_some(candidate)
    }
}

async fn generate(db: &Db, count: usize) -> anyhow::Result<()> {
    const BATCH: usize = 1000;
    let mut generator = Generator {
        rng: 0x2545_F491_4F6C_DD1D,
        users: (0..USERS)
            .map(|n| GenUser {
                user: UserRef {
                    id: format!("bench-user-{n}"),
                    name: format!("User {n}"),
                },
                folders: Vec::new(),
                files: Vec::new(),
                received: Vec::new(),
            })
            .collect(),
        sequences: HashMap::new(),
        removed: Default::default(),
        next: 0,
    };
    let mut written = 0;
    while written < count {
        let n = BATCH.min(count - written);
        let rows: Vec<(String, i64, String, String, String)> = (0..n)
            .map(|_| {
                let (id, seq, event, user) = generator.step();
                let metadata = json!({ "user_id": user, "request_id": "bench" }).to_string();
                let payload = serde_json::to_string(&event).unwrap_or_default();
                (id, seq, event.event_type(), payload, metadata)
            })
            .collect();
        let cast = match db {
            Db::Sqlite { .. } => "",
            Db::Postgres { .. } => "::json",
        };
        let values: Vec<String> = (0..n)
            .map(|i| {
                let b = i * 5;
                format!(
                    "('{ITEM_TYPE}', ${}, ${}, ${}, '1.0', ${}{cast}, ${}{cast})",
                    b + 1,
                    b + 2,
                    b + 3,
                    b + 4,
                    b + 5
                )
            })
            .collect();
        let sql = format!(
            "insert into events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata) values {}",
            values.join(", ")
        );
        on_db!(db, pool => {
            let mut q = sqlx::query(&sql);
            for (id, seq, kind, payload, metadata) in &rows {
                q = q.bind(id).bind(*seq).bind(kind).bind(payload).bind(metadata);
            }
            q.execute(pool).await.map(|r| r.rows_affected())
        })?;
        written += n;
    }
    Ok(())
}
