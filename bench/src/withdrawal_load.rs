//! `withdrawal-load`: how long a withdrawal takes to reach every connected device, on one
//! `companion serve` node (PostgreSQL).
//!
//! N authenticated WebSockets (users `bench-0` …, one per socket). Each round a publisher
//! uploads a library document for everyone, submits it, and an approver approves it (setup, not
//! timed); then the approver withdraws it (`POST /api/admin/library/{id}/withdraw`) and every
//! socket waits for its `library_withdrawn`. The round's figure is the last socket's receipt
//! minus the start of the withdrawal request; every socket's delay is kept too.
//!
//! Same-run baseline, alternating with the withdrawals: one broadcast row (the same message for
//! every user, as the withdrawal's is) written straight by this tool, then `NOTIFY` (the channel
//! alone, as `ws-load --mode broadcast` does).
//!
//! Loopback only; bounded by rounds and the timeout. Start the node with the edge's limits raised
//! (see `bench/withdrawal.sh`), or the limits are what is measured.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use clap::Parser;
use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use sqlx::postgres::PgPoolOptions;
use sqlx::PgPool;
use tokio::sync::{mpsc, Semaphore};
use tokio_tungstenite::tungstenite::Message;

#[path = "load_setup.rs"]
mod load_setup;
use load_setup::{create_users, percentile, sign_in, signing_key, token};

/// Names this tool's users, sessions and tokens.
const TAG: &str = "withdrawal-load";

#[derive(Parser, Debug)]
#[command(
    name = "withdrawal-load",
    about = "Withdrawal to the last connected device (loopback only)"
)]
struct Args {
    /// HTTP address of the node, e.g. http://127.0.0.1:18080.
    #[arg(long)]
    api_url: String,
    /// Connected devices (one user each).
    #[arg(long, default_value_t = 1000)]
    sockets: usize,
    /// Withdrawals timed (and as many baseline rounds).
    #[arg(long, default_value_t = 20)]
    rounds: usize,
    #[arg(long, env = "JWT_SECRET", hide_env_values = true)]
    jwt_secret: String,
    #[arg(long, env = "DATABASE_URL")]
    database_url: String,
    /// Seconds allowed for connecting, and for each round.
    #[arg(long, default_value_t = 60)]
    timeout: u64,
    /// Handshakes in flight at once.
    #[arg(long, default_value_t = 128)]
    connect_concurrency: usize,
}

/// What a socket heard: a withdrawal (document id) or a baseline row (round), and when (µs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Heard {
    Withdrawn(i64),
    Baseline(i64),
}

/// Attempts a socket makes to be admitted: on a loaded machine the server may refuse one (its
/// deadline for the first message, a database timeout), and the app itself connects again.
const ATTEMPTS: u32 = 5;

/// How the sockets got on: admitted, refused and tried again, given up before admitted.
#[derive(Default)]
struct Tally {
    ready: AtomicUsize,
    retried: AtomicUsize,
    gave_up: AtomicUsize,
}

/// One device: connects until admitted (at most [`ATTEMPTS`] times), then reports what it hears
/// until the server ends the connection, which is then an error.
async fn socket(
    url: String,
    token: String,
    start: Instant,
    report: mpsc::UnboundedSender<(Heard, u64)>,
    tally: Arc<Tally>,
    gate: Arc<Semaphore>,
) -> anyhow::Result<()> {
    let mut attempt = 1;
    loop {
        let mut admitted = false;
        let Err(e) = connection(&url, &token, start, &report, &tally, &gate, &mut admitted).await;
        if admitted {
            return Err(e);
        }
        if attempt == ATTEMPTS {
            tally.gave_up.fetch_add(1, Ordering::Relaxed);
            return Err(e);
        }
        eprintln!("socket refused (attempt {attempt} of {ATTEMPTS}), connecting again: {e:#}");
        tally.retried.fetch_add(1, Ordering::Relaxed);
        tokio::time::sleep(Duration::from_millis(200 * u64::from(attempt))).await;
        attempt += 1;
    }
}

/// One connection of a device; `admitted` is set when the server said `ready`.
async fn connection(
    url: &str,
    token: &str,
    start: Instant,
    report: &mpsc::UnboundedSender<(Heard, u64)>,
    tally: &Tally,
    gate: &Arc<Semaphore>,
    admitted: &mut bool,
) -> anyhow::Result<std::convert::Infallible> {
    let permit = gate.clone().acquire_owned().await?;
    let (mut ws, _) = tokio_tungstenite::connect_async(url).await?;
    ws.send(Message::text(
        json!({"type": "auth", "token": token}).to_string(),
    ))
    .await?;
    let mut permit = Some(permit);
    while let Some(frame) = ws.next().await {
        let text = match frame? {
            Message::Text(text) => text,
            Message::Close(frame) => bail!("{}", load_setup::closed_by_server(frame)),
            _ => continue,
        };
        let at = start.elapsed().as_micros() as u64;
        let v: Value = serde_json::from_str(text.as_str())?;
        match v["type"].as_str() {
            Some("ready") if !*admitted => {
                permit.take();
                *admitted = true;
                tally.ready.fetch_add(1, Ordering::Relaxed);
            }
            Some("ping") => ws.send(Message::text(r#"{"type":"pong"}"#)).await?,
            // A withdrawal is a broadcast; an older server sent it as the user's own message.
            Some("message" | "broadcast") => {
                let heard = match v["kind"].as_str() {
                    Some("library_withdrawn") => v["payload"]["id"].as_i64().map(Heard::Withdrawn),
                    Some("bench") => v["payload"]["round"].as_i64().map(Heard::Baseline),
                    _ => None,
                };
                if let Some(heard) = heard {
                    let _ = report.send((heard, at));
                }
            }
            _ => {}
        }
    }
    bail!("the server ended the connection")
}

async fn expect_ok(res: reqwest::Response, what: &str) -> anyhow::Result<Value> {
    let status = res.status();
    if !status.is_success() {
        bail!("{what} answered {status}: {}", res.text().await?);
    }
    Ok(res.json().await?)
}

/// A released library document for everyone: uploaded, submitted, approved (not timed).
async fn released_document(
    http: &reqwest::Client,
    api: &str,
    publisher: &str,
    approver: &str,
    round: usize,
) -> anyhow::Result<i64> {
    let pdf = b"%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n".to_vec();
    let form = reqwest::multipart::Form::new()
        .text("title", format!("Withdrawal load {round}"))
        .text("audience", "all")
        .part(
            "file",
            reqwest::multipart::Part::bytes(pdf).file_name("ifu.pdf"),
        );
    let created = expect_ok(
        http.post(format!("{api}/api/admin/library"))
            .bearer_auth(publisher)
            .multipart(form)
            .send()
            .await?,
        "creating",
    )
    .await?;
    let id = created["id"].as_i64().context("the new document's id")?;
    expect_ok(
        http.post(format!("{api}/api/admin/library/{id}/submit"))
            .bearer_auth(publisher)
            .send()
            .await?,
        "submitting",
    )
    .await?;
    let approved = expect_ok(
        http.post(format!("{api}/api/admin/library/{id}/approve"))
            .bearer_auth(approver)
            .json(&json!({"comment": "Approved for the load test"}))
            .send()
            .await?,
        "approving",
    )
    .await?;
    if approved["status"] != "released" {
        bail!("approved document {id} is {}", approved["status"]);
    }
    Ok(id)
}

/// One broadcast row, then `NOTIFY` (the channel alone).
async fn write_direct(pool: &PgPool, round: usize) -> anyhow::Result<()> {
    let payload = json!({ "round": round }).to_string();
    let mut tx = pool.begin().await?;
    sqlx::query("select pg_advisory_xact_lock($1)")
        .bind(projections::feed::FEED_WRITE_LOCK)
        .execute(&mut *tx)
        .await?;
    sqlx::query(
        "insert into user_feed (user_id, seq, kind, payload, created_at)
         select $1, coalesce((select max(f.seq) from user_feed f where f.user_id = $1), 0) + 1, 'bench', $2,
                (extract(epoch from clock_timestamp()) * 1000)::bigint",
    )
    .bind(projections::feed::BROADCAST)
    .bind(&payload)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    let position: i64 = sqlx::query_scalar("select coalesce(max(feed_position), 0) from user_feed")
        .fetch_one(pool)
        .await?;
    sqlx::query("select pg_notify($1, $2)")
        .bind(projections::feed::FEED_CHANNEL)
        .bind(position.to_string())
        .execute(pool)
        .await?;
    Ok(())
}

/// Every socket's delay (ms) for `wanted`, sent at `sent` µs; fails when one is missing.
async fn collect(
    reports: &mut mpsc::UnboundedReceiver<(Heard, u64)>,
    wanted: Heard,
    sent: u64,
    sockets: usize,
    timeout: Duration,
) -> anyhow::Result<Vec<f64>> {
    let mut delays = Vec::with_capacity(sockets);
    let deadline = tokio::time::Instant::now() + timeout;
    while delays.len() < sockets {
        match tokio::time::timeout_at(deadline, reports.recv()).await {
            Ok(Some((heard, at))) if heard == wanted => {
                delays.push(at.saturating_sub(sent) as f64 / 1000.0)
            }
            Ok(Some(_)) => {}
            _ => bail!(
                "{wanted:?}: {} of {sockets} sockets heard it within the timeout",
                delays.len()
            ),
        }
    }
    Ok(delays)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let api = args.api_url.trim_end_matches('/').to_string();
    let addr: SocketAddr = api
        .strip_prefix("http://")
        .context("http://IP:PORT")?
        .parse()?;
    if !addr.ip().is_loopback() {
        bail!("withdrawal-load only targets loopback addresses");
    }
    let ws_url = format!("ws://{addr}/api/ws");
    let pool = PgPoolOptions::new()
        .max_connections(2)
        .connect(&args.database_url)
        .await?;
    let users: Vec<String> = (0..args.sockets.max(1))
        .map(|u| format!("bench-{u}"))
        .collect();
    create_users(&pool, &users, TAG).await?;
    let key = signing_key(&pool, &args.jwt_secret).await?;
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(args.timeout))
        .build()?;
    let publisher = sign_in(&http, &api, "publisher@example.com", "Companion-2026").await?;
    let approver = sign_in(&http, &api, "approver@example.com", "Companion-2026").await?;

    let start = Instant::now();
    let (report_tx, mut reports) = mpsc::unbounded_channel();
    let tally = Arc::new(Tally::default());
    let gate = Arc::new(Semaphore::new(args.connect_concurrency.max(1)));
    for user in &users {
        let task = socket(
            ws_url.clone(),
            token(&key, user, TAG)?,
            start,
            report_tx.clone(),
            tally.clone(),
            gate.clone(),
        );
        tokio::spawn(async move {
            if let Err(e) = task.await {
                eprintln!("socket failed: {e:#}");
            }
        });
    }
    let deadline = Instant::now() + Duration::from_secs(args.timeout);
    // Until every socket is admitted or has given up.
    while tally.ready.load(Ordering::Relaxed) + tally.gave_up.load(Ordering::Relaxed) < users.len()
        && Instant::now() < deadline
    {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let connected = tally.ready.load(Ordering::Relaxed);
    println!(
        "connected {connected}/{} sockets ({} refused and tried again)",
        users.len(),
        tally.retried.load(Ordering::Relaxed)
    );
    if connected < users.len() {
        bail!("not every socket connected");
    }

    let wait = Duration::from_secs(args.timeout);
    let (mut last, mut all, mut base_last, mut base_all) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for round in 0..args.rounds.max(1) {
        let id = released_document(&http, &api, &publisher, &approver, round).await?;
        // The release's own messages settle before the timed part.
        tokio::time::sleep(Duration::from_millis(500)).await;
        while reports.try_recv().is_ok() {}

        let sent = start.elapsed().as_micros() as u64;
        expect_ok(
            http.post(format!("{api}/api/admin/library/{id}/withdraw"))
                .bearer_auth(&approver)
                .json(&json!({"reason": "Superseded by the new IFU"}))
                .send()
                .await?,
            "withdrawing",
        )
        .await?;
        let mut delays = collect(&mut reports, Heard::Withdrawn(id), sent, connected, wait).await?;
        delays.sort_by(f64::total_cmp);
        last.push(delays.last().copied().unwrap_or(f64::NAN));
        all.extend(delays);
        tokio::time::sleep(Duration::from_millis(300)).await;

        let sent = start.elapsed().as_micros() as u64;
        write_direct(&pool, round).await?;
        let mut delays = collect(
            &mut reports,
            Heard::Baseline(round as i64),
            sent,
            connected,
            wait,
        )
        .await?;
        delays.sort_by(f64::total_cmp);
        base_last.push(delays.last().copied().unwrap_or(f64::NAN));
        base_all.extend(delays);
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    for v in [&mut last, &mut all, &mut base_last, &mut base_all] {
        v.sort_by(f64::total_cmp);
    }
    println!(
        "withdrawal -> last of {connected} devices, {} rounds: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        last.len(),
        percentile(&last, 0.5),
        percentile(&last, 0.99),
        last.last().copied().unwrap_or(f64::NAN)
    );
    println!(
        "withdrawal -> each device ({} receipts): p50 {:.1} ms, p99 {:.1} ms",
        all.len(),
        percentile(&all, 0.5),
        percentile(&all, 0.99)
    );
    println!(
        "baseline (one feed row per user written straight, the channel alone) -> last device: p50 {:.1} ms, p99 {:.1} ms; each device: p50 {:.1} ms, p99 {:.1} ms",
        percentile(&base_last, 0.5),
        percentile(&base_last, 0.99),
        percentile(&base_all, 0.5),
        percentile(&base_all, 0.99)
    );
    println!(
        "ratio (withdrawal / channel alone, last device p50): {:.2}",
        percentile(&last, 0.5) / percentile(&base_last, 0.5)
    );
    Ok(())
}
