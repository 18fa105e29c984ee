//! `ws-load`: a load tool for the realtime channel.
//!
//! Opens N authenticated WebSockets on loopback against one or more `companion serve` nodes
//! (spread over the source addresses 127.0.0.2.. so the ephemeral ports of one address do not
//! run out), then, for each round, writes one feed entry for every user in one transaction,
//! exactly as the node running the projector would (feed write lock, then `NOTIFY
//! companion_feed`), and measures how long each socket takes to receive it. Send and receive
//! times come from this process's one monotonic clock. PostgreSQL only: the nodes of a SQLite
//! server learn of feed entries in-process, which an outside writer cannot reach.
//!
//! Everything is bounded: the number of sockets, rounds, and a timeout per phase.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use clap::Parser;
use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use sqlx::postgres::PgPoolOptions;
use tokio::net::TcpSocket;
use tokio::sync::{mpsc, Semaphore};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;

#[derive(Parser, Debug)]
#[command(
    name = "ws-load",
    about = "Load test of the realtime channel (loopback only)"
)]
struct Args {
    /// WebSocket address of a node, e.g. ws://127.0.0.1:18080/api/ws; repeat for several nodes
    /// (sockets are spread over them in turn).
    #[arg(long = "url", required = true)]
    urls: Vec<String>,
    /// Sockets to open.
    #[arg(long, default_value_t = 1000)]
    sockets: usize,
    /// Distinct users the sockets belong to (default: one user per socket).
    #[arg(long)]
    users: Option<usize>,
    /// The servers' JWT_SECRET, to sign the users' tokens.
    #[arg(long, env = "JWT_SECRET", hide_env_values = true)]
    jwt_secret: String,
    /// The servers' PostgreSQL database.
    #[arg(long, env = "DATABASE_URL")]
    database_url: String,
    /// Rounds of one entry per user.
    #[arg(long, default_value_t = 5)]
    rounds: usize,
    /// Process ids of the nodes, whose resident memory is read before and after connecting.
    #[arg(long = "server-pid")]
    server_pids: Vec<u32>,
    /// How many source addresses to spread the sockets over (127.0.0.2 onwards).
    #[arg(long, default_value_t = 8)]
    sources: u8,
    /// Handshakes in flight at once.
    #[arg(long, default_value_t = 256)]
    connect_concurrency: usize,
    /// Seconds allowed for connecting everything, and for each round.
    #[arg(long, default_value_t = 120)]
    timeout: u64,
}

/// One received feed entry.
struct Sample {
    round: usize,
    sent_us: u64,
    recv_us: u64,
}

fn token(secret: &str, user: &str) -> anyhow::Result<String> {
    #[derive(serde::Serialize)]
    struct Claims<'a> {
        sub: &'a str,
        role: &'a str,
        exp: i64,
        iat: i64,
    }
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)?
        .as_secs() as i64;
    Ok(jsonwebtoken::encode(
        &jsonwebtoken::Header::default(),
        &Claims {
            sub: user,
            role: "user",
            exp: now + 3 * 3600,
            iat: now,
        },
        &jsonwebtoken::EncodingKey::from_secret(secret.as_bytes()),
    )?)
}

fn server_addr(url: &str) -> anyhow::Result<SocketAddr> {
    let rest = url
        .strip_prefix("ws://")
        .context("only ws:// addresses on loopback")?;
    let host_port = rest.split('/').next().unwrap_or(rest);
    let addr: SocketAddr = host_port.parse().context("ws://IP:PORT/...")?;
    if !addr.ip().is_loopback() {
        bail!("ws-load only targets loopback addresses, not {addr}");
    }
    Ok(addr)
}

fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[allow(clippy::too_many_arguments)]
async fn socket(
    url: String,
    addr: SocketAddr,
    source: IpAddr,
    token: String,
    start: Instant,
    samples: mpsc::UnboundedSender<Sample>,
    ready: Arc<AtomicUsize>,
    permit: tokio::sync::OwnedSemaphorePermit,
) -> anyhow::Result<()> {
    let tcp = TcpSocket::new_v4()?;
    tcp.bind(SocketAddr::new(source, 0))?;
    let stream = tcp.connect(addr).await?;
    stream.set_nodelay(true)?;
    let config = WebSocketConfig::default()
        .read_buffer_size(4096)
        .write_buffer_size(0);
    let (mut ws, _) =
        tokio_tungstenite::client_async_with_config(url.as_str(), stream, Some(config)).await?;
    ws.send(Message::text(
        json!({ "type": "auth", "token": token }).to_string(),
    ))
    .await?;
    let mut permit = Some(permit);
    while let Some(frame) = ws.next().await {
        let text = match frame? {
            Message::Text(text) => text,
            Message::Close(frame) => bail!("closed by the server: {frame:?}"),
            _ => continue,
        };
        let recv_us = start.elapsed().as_micros() as u64;
        let v: Value = serde_json::from_str(text.as_str())?;
        match v["type"].as_str() {
            Some("ready") => {
                ready.fetch_add(1, Ordering::Relaxed);
                permit.take();
            }
            Some("ping") => ws.send(Message::text(r#"{"type":"pong"}"#)).await?,
            Some("message") => {
                let (Some(round), Some(sent_us)) = (
                    v["payload"]["round"].as_u64(),
                    v["payload"]["sent_us"].as_u64(),
                ) else {
                    continue;
                };
                let _ = samples.send(Sample {
                    round: round as usize,
                    sent_us,
                    recv_us,
                });
            }
            _ => {}
        }
    }
    Ok(())
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    percentile(&values, 0.5)
}

struct RoundResult {
    received: usize,
    write_ms: f64,
    p50_ms: f64,
    p99_ms: f64,
    max_ms: f64,
    commit_p50_ms: f64,
    commit_p99_ms: f64,
    spread_ms: f64,
    per_second: f64,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let users = args.users.unwrap_or(args.sockets).max(1);
    let addrs = args
        .urls
        .iter()
        .map(|u| server_addr(u))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let start = Instant::now();
    let user_ids: Vec<String> = (0..users).map(|u| format!("bench-{u}")).collect();

    let rss_before: Vec<Option<u64>> = args.server_pids.iter().map(|p| rss_kib(*p)).collect();

    // Connect.
    let (samples_tx, mut samples) = mpsc::unbounded_channel::<Sample>();
    let ready = Arc::new(AtomicUsize::new(0));
    let failed = Arc::new(AtomicUsize::new(0));
    let gate = Arc::new(Semaphore::new(args.connect_concurrency.max(1)));
    let connect_started = Instant::now();
    for i in 0..args.sockets {
        let node = i % args.urls.len();
        let source = IpAddr::V4(Ipv4Addr::new(
            127,
            0,
            0,
            2 + (i % args.sources.max(1) as usize) as u8,
        ));
        let user = &user_ids[i % users];
        let permit = gate.clone().acquire_owned().await?;
        let task = socket(
            args.urls[node].clone(),
            addrs[node],
            source,
            token(&args.jwt_secret, user)?,
            start,
            samples_tx.clone(),
            ready.clone(),
            permit,
        );
        let failed = failed.clone();
        tokio::spawn(async move {
            if let Err(e) = task.await {
                if failed.fetch_add(1, Ordering::Relaxed) < 5 {
                    eprintln!("socket failed: {e:#}");
                }
            }
        });
    }
    let deadline = Instant::now() + Duration::from_secs(args.timeout);
    while ready.load(Ordering::Relaxed) + failed.load(Ordering::Relaxed) < args.sockets {
        if Instant::now() > deadline {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let connected = ready.load(Ordering::Relaxed);
    let connect_secs = connect_started.elapsed().as_secs_f64();
    println!(
        "connected {connected}/{} sockets ({} users, {} node(s)) in {connect_secs:.1} s; {} failed",
        args.sockets,
        users,
        args.urls.len(),
        failed.load(Ordering::Relaxed)
    );
    if connected == 0 {
        bail!("no socket connected");
    }
    tokio::time::sleep(Duration::from_secs(3)).await;
    for (i, pid) in args.server_pids.iter().enumerate() {
        if let (Some(before), Some(after)) = (rss_before[i], rss_kib(*pid)) {
            let per_socket =
                (after as f64 - before as f64) / (connected as f64 / args.server_pids.len() as f64);
            println!(
                "node pid {pid}: RSS {:.1} MiB before, {:.1} MiB after -> {per_socket:.1} KiB per socket",
                before as f64 / 1024.0,
                after as f64 / 1024.0
            );
        }
    }

    // Rounds.
    let pool = PgPoolOptions::new()
        .max_connections(2)
        .connect(&args.database_url)
        .await
        .context("connecting to the database")?;
    let mut results = Vec::new();
    println!(
        "round  received  write_ms  p50_ms  p99_ms  max_ms  from_commit_p50  from_commit_p99  spread_ms  msgs_per_s"
    );
    for round in 0..args.rounds {
        let sent_us = start.elapsed().as_micros() as u64;
        let payload = json!({ "round": round, "sent_us": sent_us }).to_string();
        let mut tx = pool.begin().await?;
        sqlx::query("select pg_advisory_xact_lock($1)")
            .bind(projections::feed::FEED_WRITE_LOCK)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "insert into user_feed (user_id, seq, kind, payload, created_at)
             select u, coalesce((select max(f.seq) from user_feed f where f.user_id = u), 0) + 1, 'bench', $2,
                    (extract(epoch from clock_timestamp()) * 1000)::bigint
             from unnest($1::text[]) as u",
        )
        .bind(&user_ids)
        .bind(&payload)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        let commit_us = start.elapsed().as_micros() as u64;
        let position: i64 =
            sqlx::query_scalar("select coalesce(max(feed_position), 0) from user_feed")
                .fetch_one(&pool)
                .await?;
        sqlx::query("select pg_notify($1, $2)")
            .bind(projections::feed::FEED_CHANNEL)
            .bind(position.to_string())
            .execute(&pool)
            .await?;

        let mut delays = Vec::with_capacity(connected);
        let mut from_commit = Vec::with_capacity(connected);
        let mut last_recv = 0u64;
        let mut first_recv = u64::MAX;
        let round_deadline = tokio::time::Instant::now() + Duration::from_secs(args.timeout);
        while delays.len() < connected {
            let Ok(Some(sample)) = tokio::time::timeout_at(round_deadline, samples.recv()).await
            else {
                break;
            };
            if sample.round != round {
                continue;
            }
            delays.push((sample.recv_us.saturating_sub(sample.sent_us)) as f64 / 1000.0);
            from_commit.push((sample.recv_us.saturating_sub(commit_us)) as f64 / 1000.0);
            last_recv = last_recv.max(sample.recv_us);
            first_recv = first_recv.min(sample.recv_us);
        }
        delays.sort_by(f64::total_cmp);
        from_commit.sort_by(f64::total_cmp);
        // Delivery rate while the round is being delivered: first to last receipt.
        let spread_s = last_recv.saturating_sub(first_recv) as f64 / 1e6;
        let r = RoundResult {
            received: delays.len(),
            write_ms: (commit_us - sent_us) as f64 / 1000.0,
            p50_ms: percentile(&delays, 0.5),
            p99_ms: percentile(&delays, 0.99),
            max_ms: delays.last().copied().unwrap_or(f64::NAN),
            commit_p50_ms: percentile(&from_commit, 0.5),
            commit_p99_ms: percentile(&from_commit, 0.99),
            spread_ms: spread_s * 1000.0,
            per_second: if spread_s > 0.0 {
                delays.len() as f64 / spread_s
            } else {
                f64::NAN
            },
        };
        println!(
            "{round:>5}  {:>8}  {:>8.1}  {:>6.1}  {:>6.1}  {:>6.1}  {:>15.1}  {:>15.1}  {:>9.1}  {:>10.0}",
            r.received,
            r.write_ms,
            r.p50_ms,
            r.p99_ms,
            r.max_ms,
            r.commit_p50_ms,
            r.commit_p99_ms,
            r.spread_ms,
            r.per_second
        );
        results.push(r);
        tokio::time::sleep(Duration::from_secs(2)).await;
    }
    let m = |f: fn(&RoundResult) -> f64| median(results.iter().map(f).collect());
    println!(
        "median of {} rounds: received {:.0}/{connected}, write {:.1} ms, delay p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; from commit p50 {:.1} ms, p99 {:.1} ms; delivered over {:.1} ms at {:.0} messages/s",
        results.len(),
        m(|r| r.received as f64),
        m(|r| r.write_ms),
        m(|r| r.p50_ms),
        m(|r| r.p99_ms),
        m(|r| r.max_ms),
        m(|r| r.commit_p50_ms),
        m(|r| r.commit_p99_ms),
        m(|r| r.spread_ms),
        m(|r| r.per_second),
    );
    Ok(())
}
