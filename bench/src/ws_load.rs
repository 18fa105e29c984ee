//! Over 600 lines: one load tool whose connection, measurement and report code share one state.
//!
//! `ws-load`: a load tool for the realtime channel.
//!
//! Opens N authenticated WebSockets on loopback against one or more `companion serve` nodes
//! (spread over the source addresses 127.0.0.2.. so the ephemeral ports of one address do not
//! run out), then runs rounds of one change that reaches every user, in one or more of three
//! modes (alternating, so all see the same machine):
//!
//! - `direct` ("channel only", the old baseline): one feed entry for every user written in one
//!   transaction, exactly as the node running the projector would (feed write lock, then
//!   `NOTIFY companion_feed`). Measures the channel alone: committed rows to sockets.
//! - `broadcast` ("channel only", as a change for everyone now travels): ONE row of the broadcast
//!   feed (`user_id = '*'`), written the same way; every socket receives it as a `broadcast`
//!   frame.
//! - `api`: the admin publishes a notification to everyone through `POST /api/admin/notifications`;
//!   the notifications projection writes one broadcast `notification` (an older server: each
//!   user's `notification` and `badge` entries), and the channel delivers it. Measures the whole
//!   path a real change takes.
//! - `share` (with its own baseline, `one`): a change for one user while every socket is open.
//!   The sharer (a demo account) shares one of their files with a different load user each round
//!   through `POST /api/documents/share`; the delay is that user's socket receiving its
//!   `shared_arrival`. The baseline writes one feed entry for one user, as `direct` does for all.
//!
//! The delay of a socket is its receipt minus the start of the round's write (direct, broadcast)
//! or of the API call (api), both read from this process's one monotonic clock. The sockets'
//! users are created in the `users` table first (`bench-0`, `bench-1`, ...; setup, not
//! measured), so that "everyone" includes them. PostgreSQL only: the nodes of a SQLite server learn of feed entries
//! in-process, which an outside writer cannot reach.
//!
//! Everything is bounded: the number of sockets, rounds, and a timeout per phase.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use clap::{Parser, ValueEnum};
use futures::SinkExt;
use serde_json::{json, Value};
use sqlx::postgres::PgPoolOptions;
use sqlx::PgPool;
use tokio::net::TcpSocket;
use tokio::sync::{mpsc, Semaphore};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;

#[path = "load_setup.rs"]
mod load_setup;
use load_setup::{create_users, percentile, sign_in, signing_key, token};
#[path = "ws_reader.rs"]
mod ws_reader;
use ws_reader::{Adopted, Reader};

/// Names this tool's sessions (and its users' e-mail domain).
const TAG: &str = "ws-load";

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
    /// Rounds per mode.
    #[arg(long, default_value_t = 5)]
    rounds: usize,
    /// How each round's change is made.
    #[arg(long, value_enum, default_value_t = ModeArg::Both)]
    mode: ModeArg,
    /// HTTP address of the node the admin publishes on (default: the node of the first --url).
    #[arg(long)]
    api_url: Option<String>,
    /// The admin account that publishes (a demo account of a fresh database by default).
    #[arg(long, default_value = "admin@example.com")]
    admin_email: String,
    /// The password of the admin and of the sharer (the demo's by default).
    #[arg(long, default_value = "Companion-2026", hide_default_value = true)]
    admin_password: String,
    /// The account that shares in the share mode (a demo account with files in My Docs).
    #[arg(long, default_value = "anna.rossi@example.com")]
    sharer_email: String,
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
    /// Worker threads that connect the sockets and make the HTTP calls (default: one per core).
    /// The sockets are read by one thread of their own either way (see `ws_reader`).
    #[arg(long)]
    threads: Option<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ModeArg {
    /// One feed row per user written by this tool each round: the channel alone, the old way.
    Direct,
    /// One broadcast row written by this tool each round: the channel alone.
    Broadcast,
    /// The admin publishes a notification to everyone over HTTP each round.
    Api,
    /// Alternating rounds of direct, broadcast and api.
    Both,
    /// A share to one user each round (over HTTP), alternating with one feed row written by
    /// this tool for one user (`one`).
    Share,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Direct,
    /// One broadcast row written by the tool, received by every socket.
    Broadcast,
    Api,
    /// One feed entry written by the tool for the round's one user.
    One,
    /// The sharer shares a file with the round's one user over HTTP.
    Share,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Direct => "direct",
            Mode::Broadcast => "broadcast",
            Mode::Api => "api",
            Mode::One => "one",
            Mode::Share => "share",
        }
    }

    /// Whether a round reaches one user rather than everyone.
    fn is_for_one(self) -> bool {
        matches!(self, Mode::One | Mode::Share)
    }
}

/// Title prefix of the notifications the api mode publishes; the round number follows.
const TITLE: &str = "ws-load round ";

/// What a received frame was.
#[derive(Debug, Clone, Copy)]
enum Tag {
    /// A feed entry written by the direct or one mode, with its round and send time.
    Direct { round: usize, sent_us: u64 },
    /// A broadcast written by the broadcast mode, with its round and send time.
    Broadcast { round: usize, sent_us: u64 },
    /// The `notification` of a round of the api mode: a broadcast, or (an older server) an entry
    /// of the user's own feed, followed by a `badge`.
    Published { round: usize, broadcast: bool },
    /// A `badge` entry of the user's own feed (an older server's api rounds).
    Badge,
    /// A `shared_arrival` entry (the share mode).
    Arrival,
    /// Anything else, e.g. a `content_changed` broadcast: never part of a round.
    Other,
}

/// One received feed entry or broadcast.
struct Sample {
    tag: Tag,
    recv_us: u64,
    /// The socket's user (its index among the load users).
    user: usize,
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

/// Processor time a process has used so far, in ns: the sum over its threads of what the
/// scheduler counted (`/proc/PID/task/*/schedstat`, first field), which is exact where the
/// clock-tick counters of `/proc/PID/stat` round to 10 ms.
fn cpu_ns(pid: u32) -> Option<u64> {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).ok()?;
    let mut total = 0u64;
    for task in tasks.flatten() {
        let Ok(stat) = std::fs::read_to_string(task.path().join("schedstat")) else {
            continue;
        };
        total += stat
            .split_whitespace()
            .next()
            .and_then(|ns| ns.parse::<u64>().ok())
            .unwrap_or(0);
    }
    Some(total)
}

/// The processor time of the nodes and of this tool, read around a round.
#[derive(Clone, Copy, Default)]
struct CpuReading {
    nodes_ns: u64,
    tool_ns: u64,
}

impl CpuReading {
    fn now(pids: &[u32]) -> Self {
        CpuReading {
            nodes_ns: pids.iter().filter_map(|p| cpu_ns(*p)).sum(),
            tool_ns: cpu_ns(std::process::id()).unwrap_or(0),
        }
    }

    /// µs of processor per receiving socket between `self` and `later`, for the nodes and the tool.
    fn per_socket_us(self, later: CpuReading, sockets: usize) -> (f64, f64) {
        let per = |a: u64, b: u64| b.saturating_sub(a) as f64 / 1000.0 / sockets.max(1) as f64;
        (
            per(self.nodes_ns, later.nodes_ns),
            per(self.tool_ns, later.tool_ns),
        )
    }
}

fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The fields of a server frame the statistics need, read without building a JSON tree: the
/// 10,000 sockets of a round parse on the same two cores as the node they measure, so the tool
/// takes as little of them as it can (its receipt time is read before the parse either way).
#[derive(serde::Deserialize)]
struct Frame<'a> {
    #[serde(rename = "type", borrow)]
    frame: &'a str,
    #[serde(default, borrow)]
    kind: Option<&'a str>,
    #[serde(default, borrow)]
    payload: Option<&'a serde_json::value::RawValue>,
}

/// The payload of a `bench` entry written by this tool.
#[derive(serde::Deserialize)]
struct BenchPayload {
    round: Option<u64>,
    sent_us: Option<u64>,
}

/// The part of a `notification` payload that names the round.
#[derive(serde::Deserialize)]
struct NotificationPayload {
    notification: Option<Titled>,
}

#[derive(serde::Deserialize)]
struct Titled {
    title: Option<String>,
}

/// What a `message` or `broadcast` frame carries, for the statistics. The stream matters: a
/// round of one mode never counts a frame of the other stream.
fn tag_of(frame: &Frame<'_>) -> Tag {
    let broadcast = frame.frame == "broadcast";
    let payload = frame.payload.map_or("null", |p| p.get());
    match frame.kind {
        Some("bench") => match serde_json::from_str::<BenchPayload>(payload) {
            Ok(BenchPayload {
                round: Some(round),
                sent_us: Some(sent_us),
            }) => {
                let round = round as usize;
                if broadcast {
                    Tag::Broadcast { round, sent_us }
                } else {
                    Tag::Direct { round, sent_us }
                }
            }
            _ => Tag::Other,
        },
        Some("notification") => serde_json::from_str::<NotificationPayload>(payload)
            .ok()
            .and_then(|p| p.notification?.title)
            .and_then(|t| t.strip_prefix(TITLE).and_then(|n| n.parse().ok()))
            .map_or(Tag::Other, |round| Tag::Published { round, broadcast }),
        Some("badge") if !broadcast => Tag::Badge,
        Some("shared_arrival") if !broadcast => Tag::Arrival,
        _ => Tag::Other,
    }
}

/// How every socket's WebSocket is set up: frames are small (a larger one takes more than one
/// read), and each write goes out at once. Each read first zeroes the part of the buffer it
/// reads into, so a smaller buffer costs less per frame.
fn socket_config() -> WebSocketConfig {
    WebSocketConfig::default()
        .read_buffer_size(1024)
        .write_buffer_size(0)
}

/// Counts a socket that failed, before or after its hand-over to the reader; the first few
/// say why.
fn socket_failed(failed: &AtomicUsize, error: &anyhow::Error) {
    if failed.fetch_add(1, Ordering::Relaxed) < 5 {
        eprintln!("socket failed: {error:#}");
    }
}

/// Opens one socket, upgrades it, sends its `auth` frame and hands it to `reader`, which reads
/// everything from then on (`ready` included).
async fn socket(
    url: String,
    addr: SocketAddr,
    source: IpAddr,
    token: String,
    user: usize,
    reader: Reader,
    permit: tokio::sync::OwnedSemaphorePermit,
) -> anyhow::Result<()> {
    let tcp = TcpSocket::new_v4()?;
    tcp.bind(SocketAddr::new(source, 0))?;
    let stream = tcp.connect(addr).await?;
    stream.set_nodelay(true)?;
    let (mut ws, _) =
        tokio_tungstenite::client_async_with_config(url.as_str(), stream, Some(socket_config()))
            .await?;
    ws.send(Message::text(
        json!({ "type": "auth", "token": token }).to_string(),
    ))
    .await?;
    // Leaves the runtime's reactor: the stream stays non-blocking.
    let stream = ws.into_inner().into_std()?;
    reader.adopt(Adopted {
        stream,
        user,
        permit,
    })
}

fn median(mut values: Vec<f64>) -> f64 {
    values.retain(|v| !v.is_nan());
    values.sort_by(f64::total_cmp);
    percentile(&values, 0.5)
}

struct RoundResult {
    mode: Mode,
    /// Sockets that received the round's entry (direct, broadcast) or notification (api).
    received: usize,
    /// Frames of the round received in all: one per socket, except from an older server in the
    /// api mode (`notification` + `badge` per socket).
    frames: usize,
    /// The write's duration (direct: until `COMMIT` returned; api: until the HTTP answer).
    write_ms: f64,
    p50_ms: f64,
    p99_ms: f64,
    max_ms: f64,
    /// Until the first socket received it.
    first_ms: f64,
    /// Direct and broadcast only: receipt minus the moment `COMMIT` returned.
    commit_p50_ms: f64,
    commit_p99_ms: f64,
    /// First to last receipt of the round.
    spread_ms: f64,
    /// Frames delivered per second while the round was being delivered.
    frames_per_second: f64,
    /// Processor time per receiving socket from the round's start to its last receipt: the
    /// nodes' (all `--server-pid`s) and this tool's, which share the machine's cores.
    node_cpu_us: f64,
    tool_cpu_us: f64,
}

/// Who a round's rows are written for.
#[derive(Clone, Copy)]
enum Rows<'a> {
    /// One entry per user (direct, one), numbered in each user's feed.
    Each(&'a [String]),
    /// One broadcast row (broadcast), numbered in the broadcast stream.
    Everyone,
}

/// One round written by the tool: the rows in one transaction under the feed write lock, numbered
/// as the projector numbers them, then `NOTIFY`. Returns (start, commit) in µs since `start`.
async fn write_round(
    pool: &PgPool,
    rows: Rows<'_>,
    round: usize,
    start: Instant,
) -> anyhow::Result<(u64, u64)> {
    let sent_us = start.elapsed().as_micros() as u64;
    let payload = json!({ "round": round, "sent_us": sent_us }).to_string();
    let broadcast = [projections::feed::BROADCAST.to_string()];
    let users = match rows {
        Rows::Each(users) => users,
        Rows::Everyone => &broadcast[..],
    };
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
    .bind(users)
    .bind(&payload)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    let commit_us = start.elapsed().as_micros() as u64;
    notify_feed(pool).await?;
    Ok((sent_us, commit_us))
}

/// Wakes the nodes' hubs as a committed projector batch does: `NOTIFY` with the newest feed
/// position.
async fn notify_feed(pool: &PgPool) -> anyhow::Result<()> {
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

/// A small real PDF from the demo content (2.4 KB): what the share mode shares.
const PDF: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../content/files/users/travel-checklist.pdf"
));

/// The file the share mode shares: uploaded once to the root of the sharer's My Docs through
/// the API (setup, not measured).
async fn sharers_file(http: &reqwest::Client, api: &str, sharer: &str) -> anyhow::Result<String> {
    let form = reqwest::multipart::Form::new()
        .text("name", "ws-load share.pdf")
        .part(
            "file",
            reqwest::multipart::Part::bytes(PDF).file_name("ws-load-share.pdf"),
        );
    let res = http
        .post(format!("{api}/api/documents/upload"))
        .bearer_auth(sharer)
        .multipart(form)
        .send()
        .await
        .context("uploading the file to share")?;
    if !res.status().is_success() {
        bail!(
            "uploading the file to share answered {}: {}",
            res.status(),
            res.text().await.unwrap_or_default()
        );
    }
    let body: Value = res.json().await?;
    body["id"]
        .as_str()
        .map(str::to_string)
        .context("no id in the upload's answer")
}

/// One round of the share mode: the sharer shares `file` with `user`. Returns (start, answer)
/// in µs since `start`.
async fn share(
    http: &reqwest::Client,
    api: &str,
    sharer: &str,
    file: &str,
    user: &str,
    start: Instant,
) -> anyhow::Result<(u64, u64)> {
    let sent_us = start.elapsed().as_micros() as u64;
    let res = http
        .post(format!("{api}/api/documents/share"))
        .bearer_auth(sharer)
        .json(&json!({ "file": file, "email": format!("{user}@{TAG}.invalid") }))
        .send()
        .await
        .context("sharing")?;
    let answered_us = start.elapsed().as_micros() as u64;
    if res.status() != reqwest::StatusCode::OK {
        bail!(
            "sharing answered {}: {}",
            res.status(),
            res.text().await.unwrap_or_default()
        );
    }
    Ok((sent_us, answered_us))
}

/// One round of the api mode: the admin publishes a notification to everyone. Returns (start,
/// answer) in µs since `start`.
async fn publish(
    http: &reqwest::Client,
    api: &str,
    admin: &str,
    round: usize,
    start: Instant,
) -> anyhow::Result<(u64, u64)> {
    let sent_us = start.elapsed().as_micros() as u64;
    let res = http
        .post(format!("{api}/api/admin/notifications"))
        .bearer_auth(admin)
        .json(&json!({
            "title": format!("{TITLE}{round}"),
            "message": "<p>Load test of the realtime channel.</p>",
            "audience": "everyone",
        }))
        .send()
        .await
        .context("publishing")?;
    let answered_us = start.elapsed().as_micros() as u64;
    if res.status() != reqwest::StatusCode::CREATED {
        bail!(
            "publishing answered {}: {}",
            res.status(),
            res.text().await.unwrap_or_default()
        );
    }
    Ok((sent_us, answered_us))
}

/// Collects the round's receipts until every socket has its message (and, in the api mode against
/// an older server, its badge too) or the deadline passes.
async fn collect(
    samples: &mut mpsc::UnboundedReceiver<Vec<Sample>>,
    mode: Mode,
    round: usize,
    connected: usize,
    target: Option<usize>,
    (sent_us, done_us): (u64, u64),
    timeout: Duration,
) -> RoundResult {
    let mut delays = Vec::with_capacity(connected);
    let mut from_commit = Vec::with_capacity(connected);
    let mut frames = 0usize;
    let mut badges = 0usize;
    // A badge follows the notification only when it came in the user's own feed (an older
    // server); a broadcast notification has none.
    let mut badges_wanted = 0usize;
    let mut last_recv = 0u64;
    let mut first_recv = u64::MAX;
    let deadline = tokio::time::Instant::now() + timeout;
    // The reader hands the receipts over in batches (a socket's receipt time is read when its
    // frame is read, so batching costs no accuracy).
    let mut pending = Vec::new().into_iter();
    while delays.len() < connected || badges < badges_wanted {
        let Some(sample) = pending.next() else {
            match tokio::time::timeout_at(deadline, samples.recv()).await {
                Ok(Some(batch)) => pending = batch.into_iter(),
                Ok(None) | Err(_) => break,
            }
            continue;
        };
        let recv = sample.recv_us;
        // A one-user round counts only its user's sockets.
        let counted = target.is_none_or(|user| user == sample.user);
        match (mode, sample.tag) {
            (Mode::Share, Tag::Arrival) if counted => {
                delays.push(recv.saturating_sub(sent_us) as f64 / 1000.0);
            }
            (Mode::Direct | Mode::One, Tag::Direct { round: r, sent_us })
            | (Mode::Broadcast, Tag::Broadcast { round: r, sent_us })
                if r == round && counted =>
            {
                delays.push(recv.saturating_sub(sent_us) as f64 / 1000.0);
                from_commit.push(recv.saturating_sub(done_us) as f64 / 1000.0);
            }
            (
                Mode::Api,
                Tag::Published {
                    round: r,
                    broadcast,
                },
            ) if r == round => {
                delays.push(recv.saturating_sub(sent_us) as f64 / 1000.0);
                if !broadcast {
                    badges_wanted += 1;
                }
            }
            (Mode::Api, Tag::Badge) if badges < badges_wanted => badges += 1,
            _ => continue,
        }
        frames += 1;
        last_recv = last_recv.max(recv);
        first_recv = first_recv.min(recv);
    }
    delays.sort_by(f64::total_cmp);
    from_commit.sort_by(f64::total_cmp);
    let spread_s = last_recv.saturating_sub(first_recv) as f64 / 1e6;
    RoundResult {
        mode,
        received: delays.len(),
        frames,
        write_ms: done_us.saturating_sub(sent_us) as f64 / 1000.0,
        p50_ms: percentile(&delays, 0.5),
        p99_ms: percentile(&delays, 0.99),
        max_ms: delays.last().copied().unwrap_or(f64::NAN),
        first_ms: if first_recv == u64::MAX {
            f64::NAN
        } else {
            first_recv.saturating_sub(sent_us) as f64 / 1000.0
        },
        commit_p50_ms: percentile(&from_commit, 0.5),
        commit_p99_ms: percentile(&from_commit, 0.99),
        spread_ms: spread_s * 1000.0,
        frames_per_second: if spread_s > 0.0 {
            frames as f64 / spread_s
        } else {
            f64::NAN
        },
        // Read by the caller, right after.
        node_cpu_us: f64::NAN,
        tool_cpu_us: f64::NAN,
    }
}

fn print_memory(args: &Args, before: &[Option<u64>], connected: usize, when: &str) {
    for (i, pid) in args.server_pids.iter().enumerate() {
        if let (Some(before), Some(after)) = (before[i], rss_kib(*pid)) {
            let per_socket =
                (after as f64 - before as f64) / (connected as f64 / args.server_pids.len() as f64);
            println!(
                "node pid {pid} {when}: RSS {:.1} MiB before connecting, {:.1} MiB now -> {per_socket:.1} KiB per socket",
                before as f64 / 1024.0,
                after as f64 / 1024.0
            );
        }
    }
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    // One thread connects and makes the calls (one more reads the sockets, see `ws_reader`):
    // the fewer threads the tool keeps busy, the more of the cores the nodes it measures get.
    let mut runtime = match args.threads {
        Some(1) => tokio::runtime::Builder::new_current_thread(),
        Some(threads) => {
            let mut runtime = tokio::runtime::Builder::new_multi_thread();
            runtime.worker_threads(threads.max(1));
            runtime
        }
        None => tokio::runtime::Builder::new_multi_thread(),
    };
    runtime.enable_all().build()?.block_on(run(args))
}

async fn run(args: Args) -> anyhow::Result<()> {
    let users = args.users.unwrap_or(args.sockets).max(1);
    let addrs = args
        .urls
        .iter()
        .map(|u| server_addr(u))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let api = match &args.api_url {
        Some(url) => url.trim_end_matches('/').to_string(),
        None => format!("http://{}", addrs[0]),
    };
    let modes: &[Mode] = match args.mode {
        ModeArg::Direct => &[Mode::Direct],
        ModeArg::Broadcast => &[Mode::Broadcast],
        ModeArg::Api => &[Mode::Api],
        ModeArg::Both => &[Mode::Direct, Mode::Broadcast, Mode::Api],
        ModeArg::Share => &[Mode::One, Mode::Share],
    };
    let start = Instant::now();
    let user_ids: Vec<String> = (0..users).map(|u| format!("bench-{u}")).collect();

    let pool = PgPoolOptions::new()
        .max_connections(2)
        .connect(&args.database_url)
        .await
        .context("connecting to the database")?;
    // Users with accepted terms and open sessions, so a publication to everyone reaches them and
    // the terms gate lets their sockets in (setup, not measured).
    create_users(&pool, &user_ids, TAG).await?;
    let key = signing_key(&pool, &args.jwt_secret).await?;
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(args.timeout))
        .build()?;
    let admin = if modes.contains(&Mode::Api) {
        sign_in(&http, &api, &args.admin_email, &args.admin_password).await?
    } else {
        String::new()
    };
    let (sharer, shared_file) = if modes.contains(&Mode::Share) {
        // Each share round reaches a user the file was never shared with.
        if args.rounds > users {
            bail!("the share mode needs at least as many users as rounds");
        }
        let sharer = sign_in(&http, &api, &args.sharer_email, &args.admin_password).await?;
        let file = sharers_file(&http, &api, &sharer).await?;
        (sharer, file)
    } else {
        (String::new(), String::new())
    };

    let rss_before: Vec<Option<u64>> = args.server_pids.iter().map(|p| rss_kib(*p)).collect();

    // Connect.
    let (samples_tx, mut samples) = mpsc::unbounded_channel::<Vec<Sample>>();
    let ready = Arc::new(AtomicUsize::new(0));
    let failed = Arc::new(AtomicUsize::new(0));
    let reader = Reader::start(
        socket_config(),
        start,
        samples_tx,
        ready.clone(),
        failed.clone(),
    )?;
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
            token(&key, user, TAG)?,
            i % users,
            reader.clone(),
            permit,
        );
        let failed = failed.clone();
        tokio::spawn(async move {
            if let Err(e) = task.await {
                socket_failed(&failed, &e);
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
    print_memory(&args, &rss_before, connected, "after connecting");
    // Whatever arrived so far (nothing is expected) is not part of a round.
    while samples.try_recv().is_ok() {}

    // Rounds, the modes alternating so all see the same machine.
    let mut results = Vec::new();
    println!(
        "round  mode       received  frames  write_ms  first_ms  p50_ms  p99_ms  max_ms  from_commit_p50  from_commit_p99  spread_ms  frames_per_s  node_cpu_us  tool_cpu_us"
    );
    let timeout = Duration::from_secs(args.timeout);
    let mut round = 0usize;
    for pass in 0..args.rounds {
        for &mode in modes {
            // The one-user modes reach load user `pass` (a new one each pass), through every
            // socket of that user.
            let target = mode.is_for_one().then_some(pass % users);
            let one = &user_ids[pass % users..pass % users + 1];
            let cpu_before = CpuReading::now(&args.server_pids);
            let (sent_us, done_us) = match mode {
                Mode::Direct => write_round(&pool, Rows::Each(&user_ids), round, start).await?,
                Mode::Broadcast => write_round(&pool, Rows::Everyone, round, start).await?,
                Mode::Api => publish(&http, &api, &admin, round, start).await?,
                Mode::One => write_round(&pool, Rows::Each(one), round, start).await?,
                Mode::Share => share(&http, &api, &sharer, &shared_file, &one[0], start).await?,
            };
            let wanted = match target {
                Some(user) => (0..args.sockets).filter(|i| i % users == user).count(),
                None => connected,
            };
            let mut r = collect(
                &mut samples,
                mode,
                round,
                wanted,
                target,
                (sent_us, done_us),
                timeout,
            )
            .await;
            (r.node_cpu_us, r.tool_cpu_us) =
                cpu_before.per_socket_us(CpuReading::now(&args.server_pids), r.received);
            println!(
                "{round:>5}  {:<9}  {:>8}  {:>6}  {:>8.1}  {:>8.1}  {:>6.1}  {:>6.1}  {:>6.1}  {:>15.1}  {:>15.1}  {:>9.1}  {:>12.0}  {:>11.1}  {:>11.1}",
                mode.name(),
                r.received,
                r.frames,
                r.write_ms,
                r.first_ms,
                r.p50_ms,
                r.p99_ms,
                r.max_ms,
                r.commit_p50_ms,
                r.commit_p99_ms,
                r.spread_ms,
                r.frames_per_second,
                r.node_cpu_us,
                r.tool_cpu_us
            );
            results.push(r);
            round += 1;
            // A change for everyone lets the machine settle; one for one user needs little.
            let pause = if mode.is_for_one() { 200 } else { 2000 };
            tokio::time::sleep(Duration::from_millis(pause)).await;
        }
    }
    print_memory(&args, &rss_before, connected, "after the rounds");
    for &mode in modes {
        let of: Vec<&RoundResult> = results.iter().filter(|r| r.mode == mode).collect();
        let m = |f: fn(&RoundResult) -> f64| median(of.iter().map(|r| f(r)).collect());
        let what = match mode {
            Mode::Direct => "direct (channel only: feed rows written by the tool)",
            Mode::Broadcast => "broadcast (channel only: one broadcast row written by the tool)",
            Mode::Api => "api (POST /api/admin/notifications to everyone)",
            Mode::One => "one (channel only: one feed row for one user, written by the tool)",
            Mode::Share => "share (POST /api/documents/share to one user)",
        };
        if mode.is_for_one() {
            // One receipt (per socket of the user) a round: the percentiles are over the rounds.
            let mut delays: Vec<f64> = of.iter().map(|r| r.max_ms).collect();
            delays.retain(|d| !d.is_nan());
            delays.sort_by(f64::total_cmp);
            println!(
                "{} {what} rounds: reached {}/{}; delay p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms over the rounds; write p50 {:.2} ms",
                of.len(),
                delays.len(),
                of.len(),
                percentile(&delays, 0.5),
                percentile(&delays, 0.99),
                delays.last().copied().unwrap_or(f64::NAN),
                m(|r| r.write_ms),
            );
            continue;
        }
        println!(
            "median of {} {what} rounds: received {:.0}/{connected}, frames {:.0}, write {:.1} ms, first {:.1} ms, delay p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; from commit p50 {:.1} ms, p99 {:.1} ms; delivered over {:.1} ms at {:.0} frames/s; processor per socket: nodes {:.1} us, tool {:.1} us",
            of.len(),
            m(|r| r.received as f64),
            m(|r| r.frames as f64),
            m(|r| r.write_ms),
            m(|r| r.first_ms),
            m(|r| r.p50_ms),
            m(|r| r.p99_ms),
            m(|r| r.max_ms),
            m(|r| r.commit_p50_ms),
            m(|r| r.commit_p99_ms),
            m(|r| r.spread_ms),
            m(|r| r.frames_per_second),
            m(|r| r.node_cpu_us),
            m(|r| r.tool_cpu_us),
        );
    }
    Ok(())
}
