//! Over 600 lines: one soak tool whose traffic, sockets, sampling and report share one state.
//!
//! `soak`: a long run of mixed traffic against one or more `companion serve` nodes on one
//! PostgreSQL database, watching what should not drift.
//!
//! For the chosen time it
//! - keeps N WebSockets open (one load user each, spread over the nodes) and checks every message
//!   by its number, in each of its two streams (the user's own feed, and the broadcasts every
//!   user gets): a number skipped is a lost message, a number seen twice a duplicate;
//! - sends a steady rate of HTTP requests, mixed: document commands (create a folder, upload a
//!   small PDF, rename, share a file with another load user, and once a writer holds
//!   `--live-per-writer` items, delete its oldest instead of making one more) and reads (My Docs,
//!   Shared with me, search), over the nodes in turn;
//! - has the admin publish a notification to everyone every `--publish-every` seconds (one
//!   broadcast per socket);
//! - closes and reopens a few sockets every `--reconnect-every` seconds, each resuming both
//!   streams from the last numbers it saw (the server replays what it missed);
//! - every `--sample-seconds`, records per node its resident memory and open files, the
//!   database's size, the projection lag (from the nodes' `/metrics`), the requests and errors,
//!   and the messages lost or duplicated so far, and prints them as a table.
//!
//! At the end it waits for every socket to catch up with its user's feed and the broadcasts
//! (what is still missing then counts as lost), prints a summary and writes an SVG chart of
//! memory and lag over time.
//! It fails only when it cannot run (no database, no socket connected, the admin cannot sign
//! in), never on a figure.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicI64, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use clap::Parser;
use futures::{SinkExt, StreamExt};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use sqlx::postgres::PgPoolOptions;
use sqlx::PgPool;
use tokio::net::TcpSocket;
use tokio::sync::{watch, Notify, Semaphore};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;

#[path = "load_setup.rs"]
mod load_setup;
use load_setup::{create_users, percentile, sign_in, signing_key, token};

/// Names this tool's users (`soak-0`, ...), their sessions and e-mail domain.
const TAG: &str = "soak";

/// A small real PDF from the demo content, the file every upload sends.
const PDF: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../content/files/users/travel-checklist.pdf"
));

/// Words the searches look for: the names this tool gives, and catalogue words.
const TERMS: &[&str] = &["soak", "report", "knee", "implant", "visit"];

/// Items one writer keeps by default: past this, a create deletes the writer's oldest item
/// instead, so the live data stays the same size and memory can be seen flat (the event history
/// still grows).
const LIVE_PER_WRITER: usize = 20;

#[derive(Parser, Debug)]
#[command(
    name = "soak",
    about = "Soak test: mixed traffic for a long time (loopback only)"
)]
struct Args {
    /// HTTP address of a node, e.g. http://127.0.0.1:18180; repeat for several nodes.
    #[arg(long = "api-url", required = true)]
    api_urls: Vec<String>,
    /// Process id of each node, in the order of --api-url (memory and open files are read from
    /// /proc).
    #[arg(long = "pid")]
    pids: Vec<u32>,
    /// `/metrics` address of each node, in the order of --api-url (the projection lag).
    #[arg(long = "metrics-url")]
    metrics_urls: Vec<String>,
    /// The nodes' PostgreSQL database.
    #[arg(long, env = "DATABASE_URL")]
    database_url: String,
    /// The nodes' JWT_SECRET, to sign the load users' tokens.
    #[arg(long, env = "JWT_SECRET", hide_env_values = true)]
    jwt_secret: String,
    /// WebSockets kept open, one load user each.
    #[arg(long, default_value_t = 1000)]
    sockets: usize,
    /// Length of the run in minutes (fractions allowed).
    #[arg(long, default_value_t = 10.0)]
    minutes: f64,
    /// Length of the run in seconds; overrides --minutes.
    #[arg(long)]
    seconds: Option<u64>,
    /// HTTP requests per second, the mix of commands and reads.
    #[arg(long, default_value_t = 20.0)]
    rate: f64,
    /// Load users who make document commands (the first ones).
    #[arg(long, default_value_t = 50)]
    writers: usize,
    /// Requests in flight at most; a tick that finds them all busy is skipped and counted.
    #[arg(long, default_value_t = 64)]
    max_in_flight: usize,
    /// Items one writer keeps: past this, a create deletes the writer's oldest item instead.
    #[arg(long, default_value_t = LIVE_PER_WRITER)]
    live_per_writer: usize,
    /// Seconds between the admin's notifications to everyone.
    #[arg(long, default_value_t = 60)]
    publish_every: u64,
    /// Seconds between rounds of reconnections.
    #[arg(long, default_value_t = 10)]
    reconnect_every: u64,
    /// Sockets closed and reopened each round.
    #[arg(long, default_value_t = 5)]
    reconnects: usize,
    /// Seconds between samples (a row of the table, a point of the chart).
    #[arg(long, default_value_t = 10)]
    sample_seconds: u64,
    /// Share of the run, from its start, left out of the memory figures of the summary.
    #[arg(long, default_value_t = 0.2)]
    warmup: f64,
    /// Where the SVG chart is written.
    #[arg(long, default_value = "bench/soak.svg")]
    chart: std::path::PathBuf,
    /// The admin account that publishes (a demo account of a fresh database by default).
    #[arg(long, default_value = "admin@example.com")]
    admin_email: String,
    #[arg(long, default_value = "Companion-2026", hide_default_value = true)]
    admin_password: String,
    /// Source addresses the sockets are spread over (127.0.0.2 onwards), so one address's
    /// ephemeral ports do not run out at many thousands of sockets.
    #[arg(long, default_value_t = 8)]
    sources: u8,
    /// Handshakes in flight at once while connecting.
    #[arg(long, default_value_t = 128)]
    connect_concurrency: usize,
    /// Seconds allowed for connecting every socket, and for catching up at the end.
    #[arg(long, default_value_t = 120)]
    timeout: u64,
}

/// What the run has seen so far; every figure only grows.
#[derive(Default)]
struct Counters {
    requests: AtomicU64,
    ok: AtomicU64,
    client_errors: AtomicU64,
    server_errors: AtomicU64,
    /// Requests that got no answer, and sockets that failed or were closed by a server.
    connection_errors: AtomicU64,
    /// Ticks of the traffic that found `--max-in-flight` requests still waiting.
    skipped: AtomicU64,
    publishes: AtomicU64,
    /// Messages of both streams; the `broadcast_` figures are the broadcasts' share of each.
    received: AtomicU64,
    lost: AtomicU64,
    duplicated: AtomicU64,
    broadcast_received: AtomicU64,
    broadcast_lost: AtomicU64,
    broadcast_duplicated: AtomicU64,
    /// `reload` frames: a socket too far behind to be replayed (not expected here).
    reloads: AtomicU64,
    reconnects: AtomicU64,
}

fn get(a: &AtomicU64) -> u64 {
    a.load(Ordering::Relaxed)
}

fn bump(a: &AtomicU64) {
    a.fetch_add(1, Ordering::Relaxed);
}

/// What one writer has made and not deleted, oldest first, to rename, share and delete.
#[derive(Default)]
struct Writer {
    folders: Vec<String>,
    /// Each file with the folder it was uploaded into (deleting the folder deletes it).
    files: Vec<(String, Option<String>)>,
}

impl Writer {
    fn len(&self) -> usize {
        self.folders.len() + self.files.len()
    }

    /// Forgets the oldest folder (with its files) when `folder_first` or no file is left,
    /// else the oldest file; returns what to delete.
    fn take_oldest(&mut self, folder_first: bool) -> Option<Doomed> {
        if (folder_first || self.files.is_empty()) && !self.folders.is_empty() {
            let folder = self.folders.remove(0);
            self.files
                .retain(|(_, parent)| parent.as_deref() != Some(folder.as_str()));
            return Some(Doomed::Folder(folder));
        }
        (!self.files.is_empty()).then(|| Doomed::File(self.files.remove(0).0))
    }
}

enum Doomed {
    Folder(String),
    File(String),
}

#[derive(Debug, Clone, Copy)]
enum Op {
    CreateFolder,
    Upload,
    Rename,
    Share,
    /// Not in the mix: what a create becomes once the writer holds enough.
    Delete,
    ListMy,
    ListShared,
    Search,
}

/// The traffic's mix, taken in turn: half commands, half reads.
const MIX: [Op; 10] = [
    Op::CreateFolder,
    Op::ListMy,
    Op::Upload,
    Op::Search,
    Op::Rename,
    Op::ListShared,
    Op::Share,
    Op::ListMy,
    Op::Upload,
    Op::Search,
];

/// What every task of the run shares.
struct Ctx {
    http: reqwest::Client,
    apis: Vec<String>,
    key: (Option<String>, String),
    users: Vec<String>,
    writers: Vec<Mutex<Writer>>,
    /// Held by a writer's request for its whole length: a writer's commands go one at a time,
    /// so none acts on an item its own delete has just removed.
    writing: Vec<tokio::sync::Mutex<()>>,
    live_per_writer: usize,
    counters: Counters,
    /// Answer times (ms) since the last sample.
    latencies: Mutex<Vec<f64>>,
    /// The first few errors, to show what went wrong.
    errors: Mutex<Vec<String>>,
    names: AtomicU64,
}

impl Ctx {
    fn note(&self, error: String) {
        if let Ok(mut errors) = self.errors.lock() {
            if errors.len() < 10 {
                errors.push(error);
            }
        }
    }

    fn email(&self, user: usize) -> String {
        format!("{}@{TAG}.invalid", self.users[user])
    }

    /// Sends a request and counts its outcome; the JSON body of a 2xx answer.
    async fn call(&self, what: &str, request: reqwest::RequestBuilder) -> Option<Value> {
        bump(&self.counters.requests);
        let sent = Instant::now();
        let answer = match request.send().await {
            Ok(res) => {
                let status = res.status();
                res.bytes().await.map(|body| (status, body))
            }
            Err(e) => Err(e),
        };
        let (status, body) = match answer {
            Ok(answer) => answer,
            Err(e) => {
                bump(&self.counters.connection_errors);
                self.note(format!("{what}: no answer: {e}"));
                return None;
            }
        };
        if let Ok(mut latencies) = self.latencies.lock() {
            latencies.push(sent.elapsed().as_secs_f64() * 1000.0);
        }
        if status.is_success() {
            bump(&self.counters.ok);
            return Some(serde_json::from_slice(&body).unwrap_or(Value::Null));
        }
        let counter = if status.is_server_error() {
            &self.counters.server_errors
        } else {
            &self.counters.client_errors
        };
        bump(counter);
        self.note(format!(
            "{what} answered {status}: {}",
            String::from_utf8_lossy(&body[..body.len().min(200)])
        ));
        None
    }

    /// One request of the mix as `writer`, on node `node`; `pick` chooses among its items.
    async fn run(&self, op: Op, writer: usize, node: usize, pick: usize, other: usize) {
        let api = &self.apis[node];
        // Minted per request: tokens expire, a soak may last longer.
        let bearer = match token(&self.key, &self.users[writer], TAG) {
            Ok(t) => t,
            Err(e) => return self.note(format!("token: {e:#}")),
        };
        let n = self.names.fetch_add(1, Ordering::Relaxed);
        let _writing = self.writing[writer].lock().await;
        let (folder, file, item, full) = match self.writers[writer].lock() {
            Ok(w) => {
                let folder =
                    (!w.folders.is_empty()).then(|| w.folders[pick % w.folders.len()].clone());
                let file = (!w.files.is_empty()).then(|| w.files[pick % w.files.len()].0.clone());
                let items = w.len();
                let item = (items > 0).then(|| {
                    let i = pick % items;
                    w.folders
                        .get(i)
                        .unwrap_or_else(|| &w.files[i - w.folders.len()].0)
                        .clone()
                });
                (folder, file, item, items >= self.live_per_writer)
            }
            Err(_) => return,
        };
        // Without an item to act on, the command that makes one instead; with enough, a
        // command that would make one deletes the oldest instead.
        let op = match (op, &item, &file) {
            (Op::Rename, None, _) => Op::CreateFolder,
            (Op::Share, _, None) => Op::Upload,
            _ => op,
        };
        let (op, doomed) = match op {
            Op::CreateFolder | Op::Upload if full => {
                let doomed = self.writers[writer]
                    .lock()
                    .ok()
                    .and_then(|mut w| w.take_oldest(matches!(op, Op::CreateFolder)));
                (Op::Delete, doomed)
            }
            _ => (op, None),
        };
        let h = &self.http;
        match op {
            Op::CreateFolder => {
                let body =
                    json!({"name": format!("Soak folder {n}"), "type": "my", "parent": null});
                let req = h
                    .post(format!("{api}/api/folders"))
                    .bearer_auth(&bearer)
                    .json(&body);
                if let Some(id) = self
                    .call("create folder", req)
                    .await
                    .as_ref()
                    .and_then(id_of)
                {
                    if let Ok(mut w) = self.writers[writer].lock() {
                        w.folders.push(id);
                    }
                }
            }
            Op::Upload => {
                let mut form = reqwest::multipart::Form::new()
                    .text("name", format!("Soak report {n}"))
                    .part(
                        "file",
                        reqwest::multipart::Part::bytes(PDF).file_name("soak-report.pdf"),
                    );
                if let Some(folder) = &folder {
                    form = form.text("parent", folder.clone());
                }
                let req = h
                    .post(format!("{api}/api/documents/upload"))
                    .bearer_auth(&bearer)
                    .multipart(form);
                if let Some(id) = self.call("upload", req).await.as_ref().and_then(id_of) {
                    if let Ok(mut w) = self.writers[writer].lock() {
                        w.files.push((id, folder));
                    }
                }
            }
            Op::Delete => {
                let req = match doomed {
                    Some(Doomed::Folder(id)) => h.post(format!("{api}/api/folders/{id}/delete")),
                    Some(Doomed::File(id)) => h
                        .post(format!("{api}/api/documents/remove"))
                        .json(&json!({ "id": id })),
                    None => return,
                };
                self.call("delete", req.bearer_auth(&bearer)).await;
            }
            Op::Rename => {
                let Some(item) = item else { return };
                let req = h
                    .post(format!("{api}/api/folders/{item}"))
                    .bearer_auth(&bearer)
                    .json(&json!({"name": format!("Soak renamed {n}")}));
                self.call("rename", req).await;
            }
            Op::Share => {
                let Some(file) = file else { return };
                let req = h
                    .post(format!("{api}/api/documents/share"))
                    .bearer_auth(&bearer)
                    .json(&json!({"file": file, "email": self.email(other)}));
                self.call("share", req).await;
            }
            Op::ListMy => {
                let req = h
                    .get(format!("{api}/api/documents/my"))
                    .bearer_auth(&bearer);
                self.call("list my docs", req).await;
            }
            Op::ListShared => {
                let req = h
                    .get(format!("{api}/api/documents/shared"))
                    .bearer_auth(&bearer);
                self.call("list shared", req).await;
            }
            Op::Search => {
                let req = h
                    .get(format!("{api}/api/search-new"))
                    .query(&[("term", TERMS[pick % TERMS.len()])])
                    .bearer_auth(&bearer);
                self.call("search", req).await;
            }
        }
    }
}

fn id_of(body: &Value) -> Option<String> {
    body["id"].as_str().map(str::to_string)
}

/// The steady traffic until `until`, then waits for the requests in flight.
async fn traffic(ctx: Arc<Ctx>, rate: f64, max_in_flight: usize, until: Instant) {
    let mut tick = tokio::time::interval(Duration::from_secs_f64(1.0 / rate.max(0.01)));
    // A late tick is not made up for with a burst: the rate stays the rate.
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let gate = Arc::new(Semaphore::new(max_in_flight.max(1)));
    let mut rng = StdRng::from_entropy();
    let users = ctx.users.len();
    let writers = ctx.writers.len();
    let mut i = 0usize;
    while Instant::now() < until {
        tick.tick().await;
        let Ok(permit) = gate.clone().try_acquire_owned() else {
            bump(&ctx.counters.skipped);
            continue;
        };
        let op = MIX[i % MIX.len()];
        let node = i % ctx.apis.len();
        let writer = rng.gen_range(0..writers);
        // Another load user, never the writer (with one user, the writer: the share fails).
        let other = (writer + rng.gen_range(1..users.max(2))) % users;
        let pick = rng.gen::<u32>() as usize;
        let ctx = ctx.clone();
        tokio::spawn(async move {
            ctx.run(op, writer, node, pick, other).await;
            drop(permit);
        });
        i += 1;
    }
    let all = u32::try_from(max_in_flight.max(1)).unwrap_or(u32::MAX);
    let _ = tokio::time::timeout(Duration::from_secs(60), gate.acquire_many(all)).await;
}

/// The admin publishes a notification to everyone every `every` until `until`.
async fn publisher(ctx: Arc<Ctx>, args: Arc<Args>, every: Duration, until: Instant) {
    let first = tokio::time::Instant::now() + (every / 2).min(Duration::from_secs(10));
    let mut tick = tokio::time::interval_at(first, every.max(Duration::from_secs(1)));
    let mut round = 0usize;
    loop {
        tick.tick().await;
        if Instant::now() >= until {
            return;
        }
        let api = &ctx.apis[round % ctx.apis.len()];
        round += 1;
        // A fresh sign-in each time: the admin's session is a real one and may expire.
        let login = ctx
            .http
            .post(format!("{api}/api/users/login"))
            .json(&json!({"username": args.admin_email, "password": args.admin_password}));
        let Some(jwt) = ctx
            .call("admin sign-in", login)
            .await
            .and_then(|v| v["jwt"].as_str().map(str::to_string))
        else {
            continue;
        };
        let publish = ctx
            .http
            .post(format!("{api}/api/admin/notifications"))
            .bearer_auth(jwt)
            .json(&json!({
                "title": format!("Soak notice {round}"),
                "message": "<p>Soak test of the realtime channel.</p>",
                "audience": "everyone",
            }));
        if ctx.call("publish", publish).await.is_some() {
            bump(&ctx.counters.publishes);
        }
    }
}

/// Every `every`, asks `count` random sockets to close and reopen.
async fn reconnector(asks: Vec<Arc<Notify>>, every: Duration, count: usize, until: Instant) {
    let mut rng = StdRng::from_entropy();
    let start = tokio::time::Instant::now() + every;
    let mut tick = tokio::time::interval_at(start, every.max(Duration::from_secs(1)));
    loop {
        tick.tick().await;
        if Instant::now() >= until || asks.is_empty() {
            return;
        }
        for _ in 0..count {
            asks[rng.gen_range(0..asks.len())].notify_one();
        }
    }
}

/// One socket slot: its user, where it connects, and the last number it saw in each stream.
struct Slot {
    user: String,
    url: String,
    addr: SocketAddr,
    source: IpAddr,
    /// The last number seen in the user's own feed (-1: none yet), also read at the end.
    last: AtomicI64,
    /// The last broadcast number seen (-1: none yet), also read at the end.
    last_broadcast: AtomicI64,
    /// This user's messages lost and duplicated so far, both streams.
    lost: AtomicU64,
    duplicated: AtomicU64,
    reconnect: Arc<Notify>,
}

/// The two numbered streams a socket receives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stream {
    /// `message` frames: the user's own feed.
    User,
    /// `broadcast` frames: the same for every user.
    Broadcast,
}

impl Slot {
    fn last(&self, stream: Stream) -> &AtomicI64 {
        match stream {
            Stream::User => &self.last,
            Stream::Broadcast => &self.last_broadcast,
        }
    }
}

/// How a connection ended without an error.
enum Ended {
    /// This tool asked it to reconnect.
    Asked,
    /// The run is over.
    Stopped,
}

/// Checks one number against the last one seen in its stream.
fn count_seq(slot: &Slot, stream: Stream, seq: i64, c: &Counters) {
    let broadcast = stream == Stream::Broadcast;
    bump(&c.received);
    if broadcast {
        bump(&c.broadcast_received);
    }
    let last = slot.last(stream).load(Ordering::Relaxed);
    if last >= 0 && seq <= last {
        bump(&c.duplicated);
        bump(&slot.duplicated);
        if broadcast {
            bump(&c.broadcast_duplicated);
        }
        return;
    }
    if last >= 0 && seq > last + 1 {
        let skipped = (seq - last - 1) as u64;
        c.lost.fetch_add(skipped, Ordering::Relaxed);
        slot.lost.fetch_add(skipped, Ordering::Relaxed);
        if broadcast {
            c.broadcast_lost.fetch_add(skipped, Ordering::Relaxed);
        }
    }
    slot.last(stream).store(seq, Ordering::Relaxed);
}

/// Counts a connection as open from its `ready` until it ends, however it ends.
struct OpenMark<'a> {
    open: &'a AtomicUsize,
    counted: bool,
}

impl OpenMark<'_> {
    fn ready(&mut self) {
        if !self.counted {
            self.open.fetch_add(1, Ordering::Relaxed);
            self.counted = true;
        }
    }
}

impl Drop for OpenMark<'_> {
    fn drop(&mut self) {
        if self.counted {
            self.open.fetch_sub(1, Ordering::Relaxed);
        }
    }
}

/// One connection of a slot, from the handshake to its end.
async fn connection(
    ctx: &Ctx,
    slot: &Slot,
    epoch: &mut Option<String>,
    open: &AtomicUsize,
    ready_once: &mut Option<tokio::sync::OwnedSemaphorePermit>,
    stop: &mut watch::Receiver<bool>,
) -> anyhow::Result<Ended> {
    let tcp = TcpSocket::new_v4()?;
    tcp.bind(SocketAddr::new(slot.source, 0))?;
    let stream = tcp.connect(slot.addr).await?;
    stream.set_nodelay(true)?;
    let config = WebSocketConfig::default()
        .read_buffer_size(4096)
        .write_buffer_size(0);
    let (mut ws, _) =
        tokio_tungstenite::client_async_with_config(slot.url.as_str(), stream, Some(config))
            .await?;
    let last = slot.last.load(Ordering::Relaxed);
    let last_broadcast = slot.last_broadcast.load(Ordering::Relaxed);
    let mut auth = json!({"type": "auth", "token": token(&ctx.key, &slot.user, TAG)?});
    if last >= 0 {
        auth["last_seq"] = json!(last);
    }
    // Without it the server would start the broadcasts at their end: what was published while
    // this socket was away would never arrive.
    if last_broadcast >= 0 {
        auth["last_broadcast_seq"] = json!(last_broadcast);
    }
    if last >= 0 || last_broadcast >= 0 {
        auth["epoch"] = json!(epoch);
    }
    ws.send(Message::text(auth.to_string())).await?;
    let mut mark = OpenMark {
        open,
        counted: false,
    };
    let mut reloading = false;
    // Tokens last 3 hours: the socket is given a fresh one each hour, as the app does.
    let mut renew = tokio::time::interval_at(
        tokio::time::Instant::now() + Duration::from_secs(3600),
        Duration::from_secs(3600),
    );
    loop {
        let frame = tokio::select! {
            _ = stop.changed() => {
                let _ = ws.close(None).await;
                return Ok(Ended::Stopped);
            }
            _ = slot.reconnect.notified() => {
                let _ = ws.close(None).await;
                return Ok(Ended::Asked);
            }
            _ = renew.tick() => {
                let fresh = json!({"type": "auth", "token": token(&ctx.key, &slot.user, TAG)?});
                ws.send(Message::text(fresh.to_string())).await?;
                continue;
            }
            frame = ws.next() => frame,
        };
        let text = match frame {
            None => bail!("the server ended the connection"),
            Some(Err(e)) => return Err(e.into()),
            Some(Ok(Message::Text(text))) => text,
            Some(Ok(Message::Close(frame))) => bail!("{}", load_setup::closed_by_server(frame)),
            Some(Ok(_)) => continue,
        };
        let Ok(v) = serde_json::from_str::<Value>(text.as_str()) else {
            bail!("a frame that is not JSON");
        };
        match v["type"].as_str() {
            Some("message") => match v["seq"].as_i64() {
                Some(seq) => count_seq(slot, Stream::User, seq, &ctx.counters),
                None => bail!("a message without seq"),
            },
            Some("broadcast") => match v["seq"].as_i64() {
                Some(seq) => count_seq(slot, Stream::Broadcast, seq, &ctx.counters),
                None => bail!("a broadcast without seq"),
            },
            Some("ready") => {
                // A stream starts (or, after a reload, starts again) where `ready` says; a
                // resumed one carries on from what was counted. A server without broadcasts
                // sends no `broadcast_seq`: that stream then stays unstarted.
                let numbers = [
                    (Stream::User, v["seq"].as_i64().or(Some(0))),
                    (Stream::Broadcast, v["broadcast_seq"].as_i64()),
                ];
                for (stream, seq) in numbers {
                    let Some(seq) = seq else { continue };
                    if slot.last(stream).load(Ordering::Relaxed) < 0 || reloading {
                        slot.last(stream).store(seq, Ordering::Relaxed);
                    }
                }
                reloading = false;
                *epoch = v["epoch"].as_str().map(str::to_string);
                mark.ready();
                ready_once.take();
            }
            Some("reload") => {
                bump(&ctx.counters.reloads);
                reloading = true;
            }
            Some("ping") => ws.send(Message::text(r#"{"type":"pong"}"#)).await?,
            _ => {}
        }
    }
}

/// A slot's life: connect, and reconnect (resuming) whenever asked or dropped, until the end.
async fn socket_loop(
    ctx: Arc<Ctx>,
    slot: Arc<Slot>,
    open: Arc<AtomicUsize>,
    permit: tokio::sync::OwnedSemaphorePermit,
    mut stop: watch::Receiver<bool>,
) {
    let mut epoch = None;
    let mut ready_once = Some(permit);
    while !*stop.borrow() {
        match connection(&ctx, &slot, &mut epoch, &open, &mut ready_once, &mut stop).await {
            Ok(Ended::Stopped) => return,
            Ok(Ended::Asked) => bump(&ctx.counters.reconnects),
            Err(e) => {
                bump(&ctx.counters.connection_errors);
                ctx.note(format!("socket of {}: {e:#}", slot.user));
                // A failed first handshake frees its place for the others.
                ready_once.take();
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
    }
}

fn server_addr(url: &str) -> anyhow::Result<SocketAddr> {
    let rest = url
        .strip_prefix("http://")
        .context("only http:// addresses on loopback")?;
    let addr: SocketAddr = rest
        .trim_end_matches('/')
        .parse()
        .context("http://IP:PORT")?;
    if !addr.ip().is_loopback() {
        bail!("soak only targets loopback addresses, not {addr}");
    }
    Ok(addr)
}

fn rss_mib(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

fn open_files(pid: u32) -> Option<usize> {
    Some(std::fs::read_dir(format!("/proc/{pid}/fd")).ok()?.count())
}

/// The largest value of metric `name` over its series in a Prometheus text exposition.
fn metric_max(text: &str, name: &str) -> Option<f64> {
    text.lines()
        .filter(|l| {
            l.strip_prefix(name)
                .is_some_and(|rest| rest.starts_with('{') || rest.starts_with(' '))
        })
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .reduce(f64::max)
}

/// The projection lag `(seconds, events)` as the projector's owner reports it (its gauges are
/// the ones kept up to date; a node that lost the lease keeps its last values).
async fn scrape_lag(http: &reqwest::Client, urls: &[String]) -> Option<(f64, f64)> {
    let mut owner = None;
    let mut any = None;
    for url in urls {
        let Ok(res) = http.get(url).timeout(Duration::from_secs(3)).send().await else {
            continue;
        };
        let Ok(text) = res.text().await else { continue };
        let lag = (
            metric_max(&text, "companion_projection_seconds_behind").unwrap_or(0.0),
            metric_max(&text, "companion_projection_events_behind").unwrap_or(0.0),
        );
        if metric_max(&text, "companion_projector_lease_owner") == Some(1.0) {
            owner = Some(lag);
        }
        any = any.or(Some(lag));
    }
    owner.or(any)
}

/// The median of each whole minute's values (`(seconds, value)` in time order).
fn minute_medians(values: impl Iterator<Item = (f64, f64)>) -> Vec<f64> {
    let mut minutes: Vec<Vec<f64>> = Vec::new();
    let mut current = None;
    for (t, value) in values {
        let minute = (t / 60.0).floor() as i64;
        if current != Some(minute) {
            current = Some(minute);
            minutes.push(Vec::new());
        }
        if let Some(last) = minutes.last_mut() {
            last.push(value);
        }
    }
    minutes
        .into_iter()
        .filter(|m| !m.is_empty())
        .map(|mut m| {
            m.sort_by(f64::total_cmp);
            m[m.len() / 2]
        })
        .collect()
}

/// One row of the table, one point of the chart.
struct Sample {
    /// Seconds since the start of the run.
    t: f64,
    rss_mib: Vec<Option<f64>>,
    fds: Vec<Option<usize>>,
    db_mib: f64,
    /// The largest lag of the sample's interval.
    lag_s: f64,
    lag_events: f64,
    requests: u64,
    client_errors: u64,
    server_errors: u64,
    connection_errors: u64,
    p99_ms: f64,
    open: usize,
    received: u64,
    lost: u64,
    duplicated: u64,
}

fn print_header() {
    println!(
        "{:>6}  {:>15}  {:>9}  {:>7}  {:>6}  {:>6}  {:>7}  {:>5}  {:>4}  {:>8}  {:>7}  {:>6}  {:>8}  {:>5}  {:>4}",
        "t_s", "rss_MiB/node", "fds/node", "db_MiB", "lag_s", "lag_ev", "req", "4xx", "5xx",
        "conn_err", "p99_ms", "open", "recv", "lost", "dup"
    );
}

fn join<T>(values: &[Option<T>], f: impl Fn(&T) -> String) -> String {
    values
        .iter()
        .map(|v| v.as_ref().map_or("-".to_string(), &f))
        .collect::<Vec<_>>()
        .join("/")
}

fn print_sample(s: &Sample) {
    println!(
        "{:>6.0}  {:>15}  {:>9}  {:>7.1}  {:>6.2}  {:>6.0}  {:>7}  {:>5}  {:>4}  {:>8}  {:>7.1}  {:>6}  {:>8}  {:>5}  {:>4}",
        s.t,
        join(&s.rss_mib, |v| format!("{v:.1}")),
        join(&s.fds, |v| v.to_string()),
        s.db_mib,
        s.lag_s,
        s.lag_events,
        s.requests,
        s.client_errors,
        s.server_errors,
        s.connection_errors,
        s.p99_ms,
        s.open,
        s.received,
        s.lost,
        s.duplicated
    );
}

async fn db_mib(pool: &PgPool) -> f64 {
    sqlx::query_scalar::<_, i64>("select pg_database_size(current_database())")
        .fetch_one(pool)
        .await
        .map_or(f64::NAN, |b| b as f64 / 1048576.0)
}

/// Waits until every connected socket has its user's newest feed number and the newest
/// broadcast number (or the timeout); what is still missing then is lost. Returns the messages
/// found missing: `(of the users' feeds, of the broadcasts)`.
async fn catch_up(
    pool: &PgPool,
    slots: &[Arc<Slot>],
    timeout: Duration,
) -> anyhow::Result<(u64, u64)> {
    let users: Vec<String> = slots.iter().map(|s| s.user.clone()).collect();
    let deadline = Instant::now() + timeout;
    loop {
        let newest: Vec<(String, i64)> = sqlx::query_as(
            "select user_id, cast(max(seq) as bigint) from user_feed where user_id = any($1) group by user_id",
        )
        .bind(&users)
        .fetch_all(pool)
        .await?;
        let newest: std::collections::HashMap<String, i64> = newest.into_iter().collect();
        let newest_broadcast: Option<i64> =
            sqlx::query_scalar("select cast(max(seq) as bigint) from user_feed where user_id = $1")
                .bind(projections::feed::BROADCAST)
                .fetch_one(pool)
                .await?;
        // How far a slot's stream is behind its newest number (0 for a stream it never started).
        let behind = |s: &Slot, stream: Stream| -> u64 {
            let have = s.last(stream).load(Ordering::Relaxed);
            let newest = match stream {
                Stream::User => newest.get(&s.user).copied(),
                Stream::Broadcast => newest_broadcast,
            };
            match newest {
                Some(n) if have >= 0 => (n - have).max(0) as u64,
                _ => 0,
            }
        };
        let missing = |stream| slots.iter().map(|s| behind(s, stream)).sum::<u64>();
        let (user, broadcast) = (missing(Stream::User), missing(Stream::Broadcast));
        if user + broadcast == 0 || Instant::now() > deadline {
            // Counted against each user, once.
            for s in slots {
                let lost = behind(s, Stream::User) + behind(s, Stream::Broadcast);
                s.lost.fetch_add(lost, Ordering::Relaxed);
            }
            return Ok((user, broadcast));
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

/// `(min, max)` of the values.
fn range(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    values.fold(None, |acc, v| match acc {
        None => Some((v, v)),
        Some((lo, hi)) => Some((lo.min(v), hi.max(v))),
    })
}

/// A round step for an axis reaching `max` in about five steps: 1, 2 or 5 times a power of ten.
fn nice_step(max: f64) -> f64 {
    let raw = (max / 5.0).max(1e-9);
    let power = 10f64.powf(raw.log10().floor());
    let unit = raw / power;
    let step = if unit <= 1.0 {
        1.0
    } else if unit <= 2.0 {
        2.0
    } else if unit <= 5.0 {
        5.0
    } else {
        10.0
    };
    step * power
}

const COLOURS: [&str; 6] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf",
];

/// One panel of the chart: lines of `(t, value)` with axes, ticks and a legend.
fn panel(
    svg: &mut String,
    top: f64,
    title: &str,
    unit: &str,
    lines: &[(String, Vec<(f64, f64)>)],
    duration: f64,
    warmup_until: f64,
) {
    use std::fmt::Write;
    let (left, width, height) = (70.0, 780.0, 220.0);
    let max = lines
        .iter()
        .flat_map(|(_, points)| points.iter().map(|p| p.1))
        .filter(|v| v.is_finite())
        .fold(0.0f64, f64::max);
    let step = nice_step(if max > 0.0 { max * 1.1 } else { 1.0 });
    let y_max = (max * 1.1 / step).ceil().max(1.0) * step;
    let x = |t: f64| left + t / duration.max(1.0) * width;
    let y = |v: f64| top + height - v / y_max * height;
    let _ = writeln!(
        svg,
        r#"<text x="{left}" y="{}" font-size="14" font-weight="bold">{title}</text>"#,
        top - 10.0
    );
    // The warm-up, left out of the summary's memory figures.
    let _ = writeln!(
        svg,
        r##"<rect x="{left}" y="{top}" width="{:.1}" height="{height}" fill="#eeeeee"/>"##,
        x(warmup_until) - left
    );
    let mut v = 0.0;
    while v <= y_max + step / 2.0 {
        let _ = writeln!(
            svg,
            r##"<line x1="{left}" y1="{0:.1}" x2="{1}" y2="{0:.1}" stroke="#dddddd"/><text x="{2}" y="{3:.1}" font-size="11" text-anchor="end">{4}</text>"##,
            y(v),
            left + width,
            left - 6.0,
            y(v) + 4.0,
            trim(v)
        );
        v += step;
    }
    let x_step = nice_step(duration / 60.0);
    let mut m = 0.0;
    while m * 60.0 <= duration + 1e-6 {
        let _ = writeln!(
            svg,
            r##"<line x1="{0:.1}" y1="{1}" x2="{0:.1}" y2="{2}" stroke="#999999"/><text x="{0:.1}" y="{3}" font-size="11" text-anchor="middle">{4}</text>"##,
            x(m * 60.0),
            top + height,
            top + height + 4.0,
            top + height + 16.0,
            trim(m)
        );
        m += x_step;
    }
    let _ = writeln!(
        svg,
        r##"<line x1="{left}" y1="{top}" x2="{left}" y2="{0}" stroke="#000000"/><line x1="{left}" y1="{0}" x2="{1}" y2="{0}" stroke="#000000"/>"##,
        top + height,
        left + width
    );
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="{}" font-size="11" text-anchor="middle">minutes</text><text x="16" y="{}" font-size="11" transform="rotate(-90 16 {})" text-anchor="middle">{unit}</text>"#,
        left + width / 2.0,
        top + height + 30.0,
        top + height / 2.0,
        top + height / 2.0
    );
    for (i, (name, points)) in lines.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let path: Vec<String> = points
            .iter()
            .filter(|p| p.1.is_finite())
            .map(|&(t, v)| format!("{:.1},{:.1}", x(t), y(v)))
            .collect();
        let _ = writeln!(
            svg,
            r#"<polyline fill="none" stroke="{colour}" stroke-width="1.5" points="{}"/>"#,
            path.join(" ")
        );
        let ly = top + 14.0 + i as f64 * 15.0;
        let _ = writeln!(
            svg,
            r#"<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" stroke="{colour}" stroke-width="2"/><text x="{3}" y="{4}" font-size="11">{name}</text>"#,
            left + width - 150.0,
            ly,
            left + width - 130.0,
            left + width - 125.0,
            ly + 4.0
        );
    }
}

/// A tick label without needless decimals.
fn trim(v: f64) -> String {
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The SVG chart: resident memory per node over time, then the projection lag.
fn chart(samples: &[Sample], nodes: usize, duration: f64, warmup_until: f64, what: &str) -> String {
    let mut svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="900" height="620" font-family="sans-serif">
<rect width="900" height="620" fill="white"/>
<text x="70" y="24" font-size="15">{what}</text>
"#
    );
    let rss: Vec<(String, Vec<(f64, f64)>)> = (0..nodes)
        .map(|n| {
            let points = samples
                .iter()
                .filter_map(|s| Some((s.t, s.rss_mib.get(n).copied().flatten()?)))
                .collect();
            (format!("node {}", n + 1), points)
        })
        .collect();
    panel(
        &mut svg,
        60.0,
        "Resident memory per node (warm-up shaded)",
        "MiB",
        &rss,
        duration,
        warmup_until,
    );
    let lag = vec![(
        "oldest unapplied event".to_string(),
        samples.iter().map(|s| (s.t, s.lag_s)).collect(),
    )];
    panel(
        &mut svg,
        350.0,
        "Projection lag (largest of each sample's interval)",
        "seconds",
        &lag,
        duration,
        warmup_until,
    );
    svg.push_str("</svg>\n");
    svg
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Arc::new(Args::parse());
    let nodes = args.api_urls.len();
    if !args.pids.is_empty() && args.pids.len() != nodes {
        bail!("give one --pid per --api-url");
    }
    if !args.metrics_urls.is_empty() && args.metrics_urls.len() != nodes {
        bail!("give one --metrics-url per --api-url");
    }
    let apis: Vec<String> = args
        .api_urls
        .iter()
        .map(|u| u.trim_end_matches('/').to_string())
        .collect();
    let addrs = apis
        .iter()
        .map(|u| server_addr(u))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let duration = Duration::from_secs_f64(match args.seconds {
        Some(s) => s as f64,
        None => args.minutes.max(0.0) * 60.0,
    });
    let sockets = args.sockets.max(1);

    let pool = PgPoolOptions::new()
        .max_connections(2)
        .connect(&args.database_url)
        .await
        .context("connecting to the database")?;
    let users: Vec<String> = (0..sockets).map(|u| format!("{TAG}-{u}")).collect();
    // Users with accepted terms and open sessions (setup, not measured).
    create_users(&pool, &users, TAG).await?;
    let key = signing_key(&pool, &args.jwt_secret).await?;
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .pool_max_idle_per_host(args.max_in_flight.max(1))
        .build()?;
    let writers = args.writers.clamp(1, sockets);
    let ctx = Arc::new(Ctx {
        http: http.clone(),
        apis,
        key,
        users: users.clone(),
        writers: (0..writers)
            .map(|_| Mutex::new(Writer::default()))
            .collect(),
        writing: (0..writers).map(|_| tokio::sync::Mutex::new(())).collect(),
        live_per_writer: args.live_per_writer.max(1),
        counters: Counters::default(),
        latencies: Mutex::new(Vec::new()),
        errors: Mutex::new(Vec::new()),
        names: AtomicU64::new(0),
    });
    // The admin must be able to sign in, or the run would not publish at all.
    sign_in(&http, &ctx.apis[0], &args.admin_email, &args.admin_password).await?;

    // Connect every socket, a bounded number of handshakes at a time.
    let (stop_tx, stop_rx) = watch::channel(false);
    let open = Arc::new(AtomicUsize::new(0));
    let gate = Arc::new(Semaphore::new(args.connect_concurrency.max(1)));
    let mut slots = Vec::with_capacity(sockets);
    let mut tasks = Vec::with_capacity(sockets);
    let connecting = Instant::now();
    for (i, user) in users.iter().enumerate() {
        let node = i % nodes;
        let slot = Arc::new(Slot {
            user: user.clone(),
            url: format!("ws://{}/api/ws", addrs[node]),
            addr: addrs[node],
            source: IpAddr::V4(Ipv4Addr::new(
                127,
                0,
                0,
                2 + (i % args.sources.max(1) as usize) as u8,
            )),
            last: AtomicI64::new(-1),
            last_broadcast: AtomicI64::new(-1),
            lost: AtomicU64::new(0),
            duplicated: AtomicU64::new(0),
            reconnect: Arc::new(Notify::new()),
        });
        let permit = gate.clone().acquire_owned().await?;
        tasks.push(tokio::spawn(socket_loop(
            ctx.clone(),
            slot.clone(),
            open.clone(),
            permit,
            stop_rx.clone(),
        )));
        slots.push(slot);
    }
    let deadline = Instant::now() + Duration::from_secs(args.timeout);
    while open.load(Ordering::Relaxed) < sockets && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let connected = open.load(Ordering::Relaxed);
    println!(
        "soak: {nodes} node(s), {connected}/{sockets} sockets open in {:.1} s, {} requests/s ({writers} writers), {:.0} s; publish every {} s, {} reconnects every {} s",
        connecting.elapsed().as_secs_f64(),
        args.rate,
        duration.as_secs_f64(),
        args.publish_every,
        args.reconnects,
        args.reconnect_every
    );
    if connected == 0 {
        bail!("no socket connected");
    }

    // The run.
    let start = Instant::now();
    let until = start + duration;
    let traffic = tokio::spawn(traffic(ctx.clone(), args.rate, args.max_in_flight, until));
    let publisher = tokio::spawn(publisher(
        ctx.clone(),
        args.clone(),
        Duration::from_secs(args.publish_every.max(1)),
        until,
    ));
    let reconnector = tokio::spawn(reconnector(
        slots.iter().map(|s| s.reconnect.clone()).collect(),
        Duration::from_secs(args.reconnect_every.max(1)),
        args.reconnects,
        until,
    ));

    let mut samples: Vec<Sample> = Vec::new();
    let mut lags: Vec<(f64, f64)> = Vec::new();
    let mut interval_lag = (0.0f64, 0.0f64);
    let sample_every = Duration::from_secs(args.sample_seconds.max(1));
    let mut next_sample = start + sample_every;
    let take_sample = |t: f64, lag: (f64, f64), p99_ms: f64, db_mib: f64| {
        let c = &ctx.counters;
        Sample {
            t,
            rss_mib: args.pids.iter().map(|p| rss_mib(*p)).collect(),
            fds: args.pids.iter().map(|p| open_files(*p)).collect(),
            db_mib,
            lag_s: lag.0,
            lag_events: lag.1,
            requests: get(&c.requests),
            client_errors: get(&c.client_errors),
            server_errors: get(&c.server_errors),
            connection_errors: get(&c.connection_errors),
            p99_ms,
            open: open.load(Ordering::Relaxed),
            received: get(&c.received),
            lost: get(&c.lost),
            duplicated: get(&c.duplicated),
        }
    };
    print_header();
    let first = take_sample(0.0, (0.0, 0.0), f64::NAN, db_mib(&pool).await);
    print_sample(&first);
    samples.push(first);
    // Every second: the lag (its gauges move each second); every sample: the rest.
    while Instant::now() < until {
        tokio::time::sleep(Duration::from_secs(1)).await;
        if let Some(lag) = scrape_lag(&http, &args.metrics_urls).await {
            lags.push(lag);
            interval_lag = (interval_lag.0.max(lag.0), interval_lag.1.max(lag.1));
        }
        if Instant::now() >= next_sample {
            next_sample += sample_every;
            let mut answered = match ctx.latencies.lock() {
                Ok(mut l) => std::mem::take(&mut *l),
                Err(_) => Vec::new(),
            };
            answered.sort_by(f64::total_cmp);
            let s = take_sample(
                start.elapsed().as_secs_f64(),
                interval_lag,
                percentile(&answered, 0.99),
                db_mib(&pool).await,
            );
            print_sample(&s);
            samples.push(s);
            interval_lag = (0.0, 0.0);
        }
    }
    let elapsed = start.elapsed().as_secs_f64();
    let _ = traffic.await;
    publisher.abort();
    reconnector.abort();

    // What the sockets still miss once the traffic has stopped and the feed has settled.
    let (tail, broadcast_tail) =
        catch_up(&pool, &slots, Duration::from_secs(args.timeout.min(60))).await?;
    ctx.counters
        .lost
        .fetch_add(tail + broadcast_tail, Ordering::Relaxed);
    ctx.counters
        .broadcast_lost
        .fetch_add(broadcast_tail, Ordering::Relaxed);
    let _ = stop_tx.send(true);
    let _ = tokio::time::timeout(Duration::from_secs(10), futures::future::join_all(tasks)).await;

    // The summary.
    let c = &ctx.counters;
    let warmup_until = elapsed * args.warmup.clamp(0.0, 0.9);
    println!(
        "summary over {elapsed:.0} s, {nodes} node(s), {connected} sockets (memory figures from {warmup_until:.0} s on, after the warm-up):"
    );
    // Per node: the owner of the projector does more than the others, so nodes are not compared.
    let mut widest: Option<f64> = None;
    for (n, pid) in args.pids.iter().enumerate() {
        let values = samples
            .iter()
            .filter(|s| s.t >= warmup_until)
            .filter_map(|s| s.rss_mib.get(n).copied().flatten());
        let minutes = minute_medians(
            samples
                .iter()
                .filter(|s| s.t >= warmup_until)
                .filter_map(|s| Some((s.t, s.rss_mib.get(n).copied().flatten()?))),
        );
        match (range(values), range(minutes.iter().copied())) {
            (Some((lo, hi)), Some((m_lo, m_hi))) => {
                // Single samples swing with the allocator's work of the moment; a minute's
                // median shows the trend.
                let spread = (m_hi - m_lo) / m_lo * 100.0;
                widest = Some(widest.map_or(spread, |w| w.max(spread)));
                println!(
                    "  node {} (pid {pid}): RSS per sample {lo:.1} to {hi:.1} MiB; per-minute medians {m_lo:.1} to {m_hi:.1} MiB, spread {spread:.1} %",
                    n + 1
                );
            }
            _ => println!("  node {} (pid {pid}): RSS not read", n + 1),
        }
    }
    if let Some(widest) = widest.filter(|_| nodes > 1) {
        println!("  RSS: largest spread of one node's per-minute medians {widest:.1} %");
    }
    if let (Some(first), Some(last)) = (samples.first(), samples.last()) {
        println!(
            "  database: {:.1} MiB at the start, {:.1} MiB at the end; open files per node at the end: {}",
            first.db_mib,
            last.db_mib,
            join(&last.fds, |v| v.to_string())
        );
    }
    println!(
        "  requests: {} ({:.1}/s), {} ok, {} server errors (5xx), {} client errors (4xx), {} connection errors, {} ticks skipped (all {} in flight)",
        get(&c.requests),
        get(&c.requests) as f64 / elapsed.max(1e-9),
        get(&c.ok),
        get(&c.server_errors),
        get(&c.client_errors),
        get(&c.connection_errors),
        get(&c.skipped),
        args.max_in_flight
    );
    println!(
        "  feed: {} messages received, {} lost ({} users), {} duplicated ({} users), {} reloads; {} reconnections asked, {} notifications published; of the messages, broadcasts: {} received, {} lost, {} duplicated",
        get(&c.received),
        get(&c.lost),
        slots.iter().filter(|s| get(&s.lost) > 0).count(),
        get(&c.duplicated),
        slots.iter().filter(|s| get(&s.duplicated) > 0).count(),
        get(&c.reloads),
        get(&c.reconnects),
        get(&c.publishes),
        get(&c.broadcast_received),
        get(&c.broadcast_lost),
        get(&c.broadcast_duplicated)
    );
    let mut lag_s: Vec<f64> = lags.iter().map(|l| l.0).collect();
    let mut lag_events: Vec<f64> = lags.iter().map(|l| l.1).collect();
    lag_s.sort_by(f64::total_cmp);
    lag_events.sort_by(f64::total_cmp);
    if lags.is_empty() {
        println!("  projection lag: not read (no --metrics-url answered)");
    } else {
        println!(
            "  projection lag over {} samples (1 s apart, whole run): p99 {:.2} s / {:.0} events, max {:.2} s / {:.0} events",
            lags.len(),
            percentile(&lag_s, 0.99),
            percentile(&lag_events, 0.99),
            lag_s.last().copied().unwrap_or(0.0),
            lag_events.last().copied().unwrap_or(0.0)
        );
    }
    if let Ok(errors) = ctx.errors.lock() {
        for e in errors.iter() {
            println!("  first errors: {e}");
        }
    }
    let what = format!(
        "soak: {nodes} node(s), {connected} sockets, {} req/s, {:.1} min",
        args.rate,
        elapsed / 60.0
    );
    std::fs::write(
        &args.chart,
        chart(&samples, nodes, elapsed, warmup_until, &what),
    )
    .with_context(|| format!("writing {}", args.chart.display()))?;
    println!("chart: {}", args.chart.display());
    Ok(())
}
