//! `share-load`: tracked external links under load, on one `companion serve` node (PostgreSQL).
//!
//! 1. **First open → the sender's notification.** N authenticated WebSockets (users `bench-0` …,
//!    one per socket; the first socket is the demo account Anna's, the sender). Each round the "recipient" (this tool, without an
//!    account) loads the file of a link never opened (`GET /api/s/{token}/file?view=`); the
//!    delay is the sender's socket receiving `share_opened` for that share minus the start of the
//!    request. Same-run baseline, alternating: one feed row written straight into the sender's
//!    feed (the channel alone, as `ws-load --mode direct` does for everyone).
//! 2. **Beacon throughput.** For a fixed time, C concurrent clients post beacons (each a new
//!    `(view, seq)`, spread over the links) and count the 204s per second; baseline, the same
//!    clients reading the link's information (`GET /api/s/{token}`, no command) for the same time.
//!
//! Loopback only; bounded by rounds, clients and seconds. Start the node with the viewer's limits
//! raised (see `bench/share.sh`), or the limits are what is measured.

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
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;

#[path = "load_setup.rs"]
mod load_setup;
use load_setup::{create_users, percentile, sign_in, signing_key, token};

/// Names this tool's users, sessions and tokens.
const TAG: &str = "share-load";

#[derive(Parser, Debug)]
#[command(
    name = "share-load",
    about = "Load test of tracked external links (loopback only)"
)]
struct Args {
    /// HTTP address of the node, e.g. http://127.0.0.1:18080.
    #[arg(long)]
    api_url: String,
    /// Connected users (sockets), the sender included.
    #[arg(long, default_value_t = 1000)]
    sockets: usize,
    /// Rounds of each mode of the latency measurement (one link per round).
    #[arg(long, default_value_t = 20)]
    rounds: usize,
    /// Concurrent clients of the throughput measurement.
    #[arg(long, default_value_t = 16)]
    clients: usize,
    /// Seconds of each throughput measurement.
    #[arg(long, default_value_t = 10)]
    seconds: u64,
    #[arg(long, env = "JWT_SECRET", hide_env_values = true)]
    jwt_secret: String,
    #[arg(long, env = "DATABASE_URL")]
    database_url: String,
    /// Seconds allowed for connecting, and for each round.
    #[arg(long, default_value_t = 60)]
    timeout: u64,
}

/// One socket; the sender's reports `(kind, share, receipt µs)` of its feed messages.
async fn socket(
    url: String,
    token: String,
    start: Instant,
    report: Option<mpsc::UnboundedSender<(String, String, u64)>>,
    ready: Arc<AtomicUsize>,
) -> anyhow::Result<()> {
    let (mut ws, _) = tokio_tungstenite::connect_async(url.as_str()).await?;
    ws.send(Message::text(
        json!({"type": "auth", "token": token}).to_string(),
    ))
    .await?;
    while let Some(frame) = ws.next().await {
        let text = match frame? {
            Message::Text(text) => text,
            Message::Close(frame) => bail!("{}", load_setup::closed_by_server(frame)),
            _ => continue,
        };
        let at = start.elapsed().as_micros() as u64;
        let v: Value = serde_json::from_str(text.as_str())?;
        if std::env::var("SHARE_LOAD_DEBUG").is_ok() {
            eprintln!("frame: {text}");
        }
        match v["type"].as_str() {
            Some("ready") => {
                ready.fetch_add(1, Ordering::Relaxed);
            }
            Some("ping") => ws.send(Message::text(r#"{"type":"pong"}"#)).await?,
            Some("message") => {
                if let Some(report) = &report {
                    let kind = v["kind"].as_str().unwrap_or_default().to_string();
                    let share = v["payload"]["share"]
                        .as_str()
                        .unwrap_or_default()
                        .to_string();
                    let _ = report.send((kind, share, at));
                }
            }
            _ => {}
        }
    }
    bail!("the server ended the connection")
}

/// Shares one uploaded PDF `count` times as the sender; returns `(share id, token)` of each.
async fn make_links(
    http: &reqwest::Client,
    api: &str,
    sender: &str,
    pool: &PgPool,
    count: usize,
) -> anyhow::Result<Vec<(String, String)>> {
    let pdf = b"%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n".to_vec();
    let form = reqwest::multipart::Form::new()
        .text("name", "Surgical technique")
        .part(
            "file",
            reqwest::multipart::Part::bytes(pdf).file_name("technique.pdf"),
        );
    let res = http
        .post(format!("{api}/api/documents/upload"))
        .bearer_auth(sender)
        .multipart(form)
        .send()
        .await?;
    if !res.status().is_success() {
        bail!("upload answered {}", res.status());
    }
    let file: Value = res.json().await?;
    let file = file["id"].as_str().context("uploaded id")?.to_string();
    let mut links = Vec::new();
    for i in 0..count {
        let res = http
            .post(format!("{api}/api/documents/external-share"))
            .bearer_auth(sender)
            .json(&json!({"email": format!("surgeon{i}@clinic.example"), "file": file}))
            .send()
            .await?;
        if !res.status().is_success() {
            bail!(
                "external share answered {}: {}",
                res.status(),
                res.text().await?
            );
        }
        let answer: Value = res.json().await?;
        let id = answer["id"].as_str().context("share id")?.to_string();
        let body: String = sqlx::query_scalar("select body from outbox order by id desc limit 1")
            .fetch_one(pool)
            .await?;
        let link = body
            .split_whitespace()
            .find(|w| w.contains("/s/"))
            .context("link in the e-mail")?;
        let token = link.rsplit("/s/").next().unwrap_or_default().to_string();
        links.push((id, token));
    }
    Ok(links)
}

/// Requests per second that `request` (given a client number and a counter) answers with
/// `expected`, over `seconds`, from `clients` concurrent clients.
async fn throughput<F, Fut>(clients: usize, seconds: u64, request: F) -> (f64, usize)
where
    F: Fn(usize, usize) -> Fut + Send + Sync + Clone + 'static,
    Fut: std::future::Future<Output = bool> + Send,
{
    let ok = Arc::new(AtomicUsize::new(0));
    let failed = Arc::new(AtomicUsize::new(0));
    let until = Instant::now() + Duration::from_secs(seconds);
    let started = Instant::now();
    let mut tasks = Vec::new();
    for client in 0..clients {
        let (ok, failed, request) = (ok.clone(), failed.clone(), request.clone());
        tasks.push(tokio::spawn(async move {
            let mut n = 0;
            while Instant::now() < until {
                n += 1;
                if request(client, n).await {
                    ok.fetch_add(1, Ordering::Relaxed);
                } else {
                    failed.fetch_add(1, Ordering::Relaxed);
                }
            }
        }));
    }
    for task in tasks {
        let _ = task.await;
    }
    let secs = started.elapsed().as_secs_f64();
    (
        ok.load(Ordering::Relaxed) as f64 / secs,
        failed.load(Ordering::Relaxed),
    )
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
        bail!("share-load only targets loopback addresses");
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
        .pool_max_idle_per_host(args.clients.max(1) * 2)
        .build()?;
    // The sender is a demo account that has accepted the terms (documents need it).
    let sender = sign_in(&http, &api, "anna.rossi@example.com", "Companion-2026").await?;
    let links = make_links(&http, &api, &sender, &pool, args.rounds.max(1)).await?;
    if std::env::var("SHARE_LOAD_DEBUG").is_ok() && users.len() > 1 {
        let res = http
            .get(format!("{api}/api/documents/my"))
            .bearer_auth(token(&key, &users[1], TAG)?)
            .send()
            .await?;
        eprintln!(
            "a load user's token: {} {}",
            res.status(),
            res.text().await?
        );
    }

    let start = Instant::now();
    let (report_tx, mut reports) = mpsc::unbounded_channel();
    let ready = Arc::new(AtomicUsize::new(0));
    for (i, user) in users.iter().enumerate() {
        let report = (i == 0).then(|| report_tx.clone());
        let session = if i == 0 {
            sender.clone()
        } else {
            token(&key, user, TAG)?
        };
        let task = socket(ws_url.clone(), session, start, report, ready.clone());
        tokio::spawn(async move {
            if let Err(e) = task.await {
                eprintln!("socket failed: {e:#}");
            }
        });
    }
    let deadline = Instant::now() + Duration::from_secs(args.timeout);
    while ready.load(Ordering::Relaxed) < users.len() && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    println!(
        "connected {}/{} sockets",
        ready.load(Ordering::Relaxed),
        users.len()
    );
    tokio::time::sleep(Duration::from_secs(2)).await;
    while reports.try_recv().is_ok() {}

    // 1. First open -> the sender's `share_opened`, alternating with the channel-only baseline
    // (a feed row written through the projections' own path, then `NOTIFY`).
    let db = projections::Db::connect(&args.database_url).await?;
    let sender_id: String =
        sqlx::query_scalar("select id from users where email = 'anna.rossi@example.com'")
            .fetch_one(&pool)
            .await?;
    let (mut opened, mut direct) = (Vec::new(), Vec::new());
    let wait = Duration::from_secs(args.timeout);
    for (round, (share, link)) in links.iter().enumerate() {
        let sent = start.elapsed().as_micros() as u64;
        let res = http
            .get(format!(
                "{api}/api/s/{link}/file?view=share-load-view-{round:06}"
            ))
            .send()
            .await?;
        if !res.status().is_success() {
            bail!("opening answered {}", res.status());
        }
        let _ = res.bytes().await?;
        loop {
            let Ok(Some((kind, got, at))) = tokio::time::timeout(wait, reports.recv()).await else {
                bail!("no share_opened within the timeout");
            };
            if kind == "share_opened" && &got == share {
                opened.push(at.saturating_sub(sent) as f64 / 1000.0);
                break;
            }
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
        let sent = start.elapsed().as_micros() as u64;
        let mut ptx = projections::Tx::begin(&db).await?;
        projections::feed::push(
            &mut ptx,
            &sender_id,
            "bench",
            &json!({"share": format!("direct-{round}")}),
            0,
        )
        .await?;
        ptx.commit().await?;
        projections::feed::announce_past(&db, 0).await?;
        loop {
            let Ok(Some((kind, got, at))) = tokio::time::timeout(wait, reports.recv()).await else {
                bail!("no direct feed row within the timeout");
            };
            if kind == "bench" && got == format!("direct-{round}") {
                direct.push(at.saturating_sub(sent) as f64 / 1000.0);
                break;
            }
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    opened.sort_by(f64::total_cmp);
    direct.sort_by(f64::total_cmp);
    println!(
        "first open -> sender's share_opened, {} rounds, {} sockets: p50 {:.1} ms, p95 {:.1} ms, max {:.1} ms",
        opened.len(),
        users.len(),
        percentile(&opened, 0.5),
        percentile(&opened, 0.95),
        opened.last().copied().unwrap_or(f64::NAN)
    );
    println!(
        "baseline (one feed row written straight, the channel alone): p50 {:.1} ms, p95 {:.1} ms",
        percentile(&direct, 0.5),
        percentile(&direct, 0.95)
    );

    // 2. Beacons per second, and the read-only baseline.
    let links = Arc::new(links);
    let (l, h, a) = (links.clone(), http.clone(), api.clone());
    let (info_rate, info_failed) = throughput(args.clients, args.seconds, move |client, n| {
        let (l, h, a) = (l.clone(), h.clone(), a.clone());
        async move {
            let (_, link) = &l[(client + n) % l.len()];
            h.get(format!("{a}/api/s/{link}"))
                .send()
                .await
                .is_ok_and(|r| r.status().is_success())
        }
    })
    .await;
    let (l, h, a) = (links.clone(), http.clone(), api.clone());
    let (beacon_rate, beacon_failed) = throughput(args.clients, args.seconds, move |client, n| {
        let (l, h, a) = (l.clone(), h.clone(), a.clone());
        async move {
            let round = (client + n) % l.len();
            let (_, link) = &l[round];
            let body = json!({"view": format!("share-load-view-{round:06}"), "seq": client * 1_000_000 + n,
                "pages": [{"page": 1 + n % 12, "seconds": 1.5}]});
            h.post(format!("{a}/api/s/{link}/beacon"))
                .header("content-type", "text/plain;charset=UTF-8")
                .body(body.to_string())
                .send()
                .await
                .is_ok_and(|r| r.status() == reqwest::StatusCode::NO_CONTENT)
        }
    })
    .await;
    println!(
        "beacons: {beacon_rate:.0}/s recorded ({beacon_failed} refused or failed), {} clients, {} s",
        args.clients, args.seconds
    );
    println!("baseline (link information, no command): {info_rate:.0}/s ({info_failed} failed)");
    Ok(())
}
