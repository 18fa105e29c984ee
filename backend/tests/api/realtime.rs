// Over 600 lines: the realtime scenarios share one harness of nodes and WebSocket clients.
//! The realtime channel against real servers: feed entries are written by a real projection (a
//! test aggregate whose events push rows into users' feeds), delivered over `GET /api/ws` to a
//! tungstenite client. Nodes run on their own runtime so one can be killed abruptly, the way a
//! crashed process drops its connections.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use backend::error::AppError;
use backend::event_store::{EventStore, Metadata};
use backend::{AppState, Config, Server};
use cqrs_es::event_sink::EventSink;
use cqrs_es::{Aggregate, DomainEvent};
use futures::{SinkExt, StreamExt};
use projections::projector::{Projection, ProjectionError, TableSpec};
use projections::{feed, on_db, StoredEvent, Tx};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::helpers::{create_pg_database, drop_pg_database, test_config, with_database};

// ---------------------------------------------------------------------------------------------
// A test aggregate and a projection that turns its events into feed entries.

#[derive(Default, Serialize, Deserialize)]
struct Pusher;

#[derive(Clone, Debug)]
struct Push {
    user_id: String,
    count: u32,
    pad: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
enum PushEvent {
    Pushed {
        user_id: String,
        count: u32,
        pad: usize,
    },
}

impl DomainEvent for PushEvent {
    fn event_type(&self) -> String {
        "Pushed".into()
    }
    fn event_version(&self) -> String {
        "1".into()
    }
}

#[derive(Debug, thiserror::Error)]
#[error("refused")]
struct PushError;

impl From<PushError> for AppError {
    fn from(e: PushError) -> Self {
        AppError::bad_request(e.to_string())
    }
}

impl Aggregate for Pusher {
    const TYPE: &'static str = "test_pusher";
    type Command = Push;
    type Event = PushEvent;
    type Error = PushError;
    type Services = ();

    async fn handle(&mut self, c: Push, _: &(), sink: &EventSink<Self>) -> Result<(), PushError> {
        sink.write(
            PushEvent::Pushed {
                user_id: c.user_id,
                count: c.count,
                pad: c.pad,
            },
            self,
        )
        .await;
        Ok(())
    }

    fn apply(&mut self, _: PushEvent) {}
}

struct FeedWriter;

#[async_trait]
impl Projection for FeedWriter {
    fn name(&self) -> &'static str {
        "test_feed_writer"
    }
    fn tables(&self) -> &'static [TableSpec] {
        &[]
    }
    async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> Result<(), ProjectionError> {
        if event.aggregate_type != Pusher::TYPE {
            return Ok(());
        }
        let PushEvent::Pushed {
            user_id,
            count,
            pad,
        } = event
            .decode()
            .map_err(|e| ProjectionError::bad_event(event, e))?;
        for i in 0..count {
            let payload = json!({ "i": i, "pad": "x".repeat(pad) });
            feed::push(tx, &user_id, "test", &payload, event.recorded_at).await?;
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------
// Databases and nodes.

/// A database the nodes of one test share; dropped at the end.
struct TestDb {
    dir: tempfile::TempDir,
    pg: Option<(String, String)>,
}

impl TestDb {
    fn sqlite() -> TestDb {
        TestDb {
            dir: tempfile::tempdir().expect("temp dir"),
            pg: None,
        }
    }

    async fn postgres() -> Option<TestDb> {
        let pg = create_pg_database().await?;
        Some(TestDb {
            dir: tempfile::tempdir().expect("temp dir"),
            pg: Some(pg),
        })
    }

    fn config(&self) -> Config {
        let mut config = test_config(self.dir.path());
        if let Some((admin, name)) = &self.pg {
            config.database_url = Some(with_database(admin, name));
        }
        config
    }

    fn node(&self) -> Node {
        self.node_with(|_| {})
    }

    fn node_with(&self, adjust: impl FnOnce(&mut Config)) -> Node {
        let mut config = self.config();
        adjust(&mut config);
        Node::start(config)
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let Some((admin, name)) = self.pg.take() {
            drop_pg_database(admin, name);
        }
    }
}

enum Stop {
    Graceful,
    Crash,
}

/// A server on a thread and runtime of its own.
struct Node {
    addr: SocketAddr,
    state: AppState,
    runtime: tokio::runtime::Handle,
    stop: Option<tokio::sync::oneshot::Sender<Stop>>,
    thread: Option<std::thread::JoinHandle<()>>,
    sessions: std::sync::Mutex<std::collections::HashMap<String, (String, i64)>>,
}

impl Node {
    fn start(config: Config) -> Node {
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<Stop>();
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .expect("node runtime");
            let handle = rt.handle().clone();
            rt.block_on(async move {
                let server = Server::bind_with(config, vec![Arc::new(FeedWriter)])
                    .await
                    .expect("node starts");
                let _ = ready_tx.send((server.addr, server.state().clone(), handle));
                let (graceful_tx, graceful_rx) = tokio::sync::oneshot::channel::<()>();
                let run = server.run(async {
                    let _ = graceful_rx.await;
                });
                tokio::pin!(run);
                tokio::select! {
                    served = &mut run => served.expect("node runs"),
                    stop = stop_rx => match stop {
                        Ok(Stop::Crash) => {}
                        Ok(Stop::Graceful) | Err(_) => {
                            let _ = graceful_tx.send(());
                            run.await.expect("node stops");
                        }
                    },
                }
            });
            // Drops every task and connection at once, like a killed process.
            rt.shutdown_background();
        });
        let (addr, state, runtime) = ready_rx.recv().expect("node reports its address");
        Node {
            addr,
            state,
            runtime,
            stop: Some(stop_tx),
            thread: Some(thread),
            sessions: Default::default(),
        }
    }

    fn ws_url(&self) -> String {
        format!("ws://{}/api/ws", self.addr)
    }

    /// The one session of `user_id` on this node (the user is created when missing).
    fn session(&self, user_id: &str) -> (String, i64) {
        if let Some(known) = self.sessions.lock().unwrap().get(user_id) {
            return known.clone();
        }
        let db = self.state.db.clone();
        let uid = user_id.to_string();
        let terms_version = self.state.auth.config.terms_version.clone();
        let runtime = self.runtime.clone();
        // Run on the node's runtime from a plain thread: the caller may be inside another runtime.
        let opened = std::thread::spawn(move || {
            runtime.block_on(async move {
                projections::on_db!(&db, pool => sqlx::query(
                    "insert into users (id, email, first_name, last_name, role, created_at)
                     values ($1, $2, 'Test', '', 'user', 0) on conflict (id) do nothing")
                    .bind(&uid).bind(format!("{uid}@test.example.com"))
                    .execute(pool).await.map(|r| r.rows_affected()))
                .expect("test user");
                // Sockets wait for the current terms.
                projections::on_db!(&db, pool => sqlx::query(
                    "insert into terms_acceptances (user_id, version, accepted_at)
                     values ($1, $2, 0) on conflict (user_id, version) do nothing")
                    .bind(&uid).bind(&terms_version)
                    .execute(pool).await.map(|r| r.rows_affected()))
                .expect("terms accepted");
                backend::auth::sessions::open_on(&db, &uid, 86_400_000, None, None)
                    .await
                    .expect("session")
            })
        })
        .join()
        .expect("session thread");
        self.sessions
            .lock()
            .unwrap()
            .insert(user_id.to_string(), opened.clone());
        opened
    }

    /// A fresh token of the user's session.
    fn token(&self, user_id: &str) -> String {
        let (session, ends) = self.session(user_id);
        self.state
            .auth
            .jwt
            .issue(user_id, &session, ends / 1000)
            .expect("token")
    }

    /// Runs a command on this node that makes the projection push `count` entries to `user_id`.
    async fn push(&self, user_id: &str, count: u32, pad: usize) {
        let state = self.state.clone();
        let command = Push {
            user_id: user_id.to_string(),
            count,
            pad,
        };
        self.runtime
            .spawn(async move {
                let store = EventStore::<Pusher>::new(&state.db, (), state.projector.clone());
                let id = uuid::Uuid::new_v4().to_string();
                store
                    .execute(&id, command, Metadata::by("tester"))
                    .await
                    .expect("push command");
            })
            .await
            .expect("push task");
    }

    async fn feed_rows(&self, user_id: &str) -> i64 {
        let db = self.state.db.clone();
        let user_id = user_id.to_string();
        self.runtime
            .spawn(async move {
                on_db!(&db, pool => sqlx::query_scalar::<_, i64>(
                    "select count(*) from user_feed where user_id = $1")
                    .bind(&user_id).fetch_one(pool).await)
                .expect("count")
            })
            .await
            .expect("count task")
    }

    fn runs_projector(&self) -> bool {
        self.state.projector.is_active()
    }

    fn stop_with(&mut self, how: Stop) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(how);
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }

    fn crash(&mut self) {
        self.stop_with(Stop::Crash);
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        self.stop_with(Stop::Graceful);
    }
}

async fn wait_until(what: &str, timeout: Duration, mut check: impl FnMut() -> bool) {
    let deadline = tokio::time::Instant::now() + timeout;
    while !check() {
        assert!(tokio::time::Instant::now() < deadline, "timed out: {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

// ---------------------------------------------------------------------------------------------
// A client.

struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

/// What the server sent, pings left out.
#[derive(Debug)]
enum Got {
    Json(Value),
    Closed(u16, String),
    Gone,
}

const WAIT: Duration = Duration::from_secs(15);

impl Client {
    async fn connect(url: &str) -> Client {
        let (ws, _) = tokio_tungstenite::connect_async(url)
            .await
            .expect("websocket connects");
        Client { ws }
    }

    async fn send(&mut self, value: Value) {
        self.ws
            .send(Message::text(value.to_string()))
            .await
            .expect("send");
    }

    async fn auth(&mut self, token: &str, last_seq: Option<i64>, epoch: Option<&str>) {
        self.auth_with(token, last_seq, None, epoch).await;
    }

    async fn auth_with(
        &mut self,
        token: &str,
        last_seq: Option<i64>,
        last_broadcast_seq: Option<i64>,
        epoch: Option<&str>,
    ) {
        let mut message = json!({ "type": "auth", "token": token });
        if let Some(seq) = last_seq {
            message["last_seq"] = json!(seq);
        }
        if let Some(seq) = last_broadcast_seq {
            message["last_broadcast_seq"] = json!(seq);
        }
        if let Some(epoch) = epoch {
            message["epoch"] = json!(epoch);
        }
        self.send(message).await;
    }

    /// Connects, authenticates and reads up to `ready`: returns what came before it and `ready`.
    async fn open(
        url: &str,
        token: &str,
        last_seq: Option<i64>,
        epoch: Option<&str>,
    ) -> (Client, Vec<Value>, Value) {
        Client::open_with(url, token, last_seq, None, epoch).await
    }

    /// [`Client::open`] resuming the broadcasts too.
    async fn open_with(
        url: &str,
        token: &str,
        last_seq: Option<i64>,
        last_broadcast_seq: Option<i64>,
        epoch: Option<&str>,
    ) -> (Client, Vec<Value>, Value) {
        let mut client = Client::connect(url).await;
        client
            .auth_with(token, last_seq, last_broadcast_seq, epoch)
            .await;
        let mut before = Vec::new();
        loop {
            match client.next().await {
                Got::Json(v) if v["type"] == "ready" => return (client, before, v),
                Got::Json(v) => before.push(v),
                other => panic!("expected ready, got {other:?}"),
            }
        }
    }

    async fn next_within(&mut self, wait: Duration) -> Option<Got> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let frame = tokio::time::timeout_at(deadline, self.ws.next())
                .await
                .ok()?;
            return Some(match frame {
                None | Some(Err(_)) => Got::Gone,
                Some(Ok(Message::Text(text))) => {
                    let v: Value = serde_json::from_str(text.as_str()).expect("json frame");
                    if v["type"] == "ping" {
                        continue;
                    }
                    Got::Json(v)
                }
                Some(Ok(Message::Close(frame))) => match frame {
                    Some(f) => Got::Closed(u16::from(f.code), f.reason.to_string()),
                    None => Got::Closed(1005, String::new()),
                },
                Some(Ok(_)) => continue,
            });
        }
    }

    async fn next(&mut self) -> Got {
        self.next_within(WAIT).await.expect("a frame in time")
    }

    /// The next `n` feed messages' numbers, asserting that nothing else comes in between.
    async fn seqs(&mut self, n: usize) -> Vec<i64> {
        let mut out = Vec::new();
        while out.len() < n {
            match self.next().await {
                Got::Json(v) if v["type"] == "message" => out.push(v["seq"].as_i64().unwrap()),
                other => panic!("expected a message after {out:?}, got {other:?}"),
            }
        }
        out
    }

    async fn closed(&mut self) -> (u16, String) {
        loop {
            match self.next().await {
                Got::Closed(code, reason) => return (code, reason),
                Got::Json(_) => continue,
                Got::Gone => panic!("connection dropped without a close frame"),
            }
        }
    }

    /// Asserts nothing but pings arrives for `wait`.
    async fn quiet_for(&mut self, wait: Duration) {
        if let Some(got) = self.next_within(wait).await {
            panic!("expected nothing, got {got:?}");
        }
    }
}

/// Each frame's type and number, in order.
fn streams_of(frames: &[Value]) -> Vec<(String, i64)> {
    frames
        .iter()
        .map(|m| {
            (
                m["type"].as_str().unwrap_or_default().to_string(),
                m["seq"].as_i64().unwrap_or(-1),
            )
        })
        .collect()
}

fn stream(pairs: &[(&str, i64)]) -> Vec<(String, i64)> {
    pairs.iter().map(|(t, n)| (t.to_string(), *n)).collect()
}

fn seqs_of(messages: &[Value]) -> Vec<i64> {
    messages
        .iter()
        .map(|m| {
            assert_eq!(m["type"], "message", "{m}");
            m["seq"].as_i64().unwrap()
        })
        .collect()
}

/// Runs a test body on SQLite and, when reachable, on PostgreSQL.
macro_rules! both_engines {
    ($(async fn $name:ident($db:ident) $body:block)*) => {
        $(
            mod $name {
                #[allow(unused_imports)]
                use super::*;

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn sqlite() {
                    let $db = TestDb::sqlite();
                    $body
                }

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn postgres() {
                    let Some($db) = TestDb::postgres().await else { return };
                    $body
                }
            }
        )*
    };
}

// ---------------------------------------------------------------------------------------------
// One node.

both_engines! {
    async fn resume_after_a_gap_delivers_exactly_the_missed_messages_in_order(db) {
        let node = db.node();
        let token = node.token("u-anna");
        node.push("u-anna", 3, 0).await;

        // A first connection replays nothing and starts at the end.
        let (mut client, before, ready) = Client::open(&node.ws_url(), &token, None, None).await;
        assert!(before.is_empty(), "{before:?}");
        assert_eq!(ready["seq"], 3);
        let epoch = ready["epoch"].as_str().unwrap().to_string();
        assert!(!epoch.is_empty());

        // Live.
        node.push("u-anna", 2, 0).await;
        assert_eq!(client.seqs(2).await, vec![4, 5]);
        let live = {
            node.push("u-anna", 1, 0).await;
            match client.next().await { Got::Json(v) => v, other => panic!("{other:?}") }
        };
        assert_eq!(live["kind"], "test");
        assert_eq!(live["payload"]["i"], 0);
        assert!(live["at"].as_i64().unwrap() > 0);
        drop(client);

        // Four more while away; resuming from 6 gets exactly 7..=10, then ready, then live.
        node.push("u-anna", 4, 0).await;
        let (mut client, missed, ready) =
            Client::open(&node.ws_url(), &token, Some(6), Some(&epoch)).await;
        assert_eq!(seqs_of(&missed), vec![7, 8, 9, 10]);
        assert_eq!(ready["seq"], 10);
        node.push("u-anna", 1, 0).await;
        assert_eq!(client.seqs(1).await, vec![11]);
        client.quiet_for(Duration::from_millis(300)).await;

        // Resuming from the newest number replays nothing.
        let (_c, missed, ready) = Client::open(&node.ws_url(), &token, Some(11), Some(&epoch)).await;
        assert!(missed.is_empty());
        assert_eq!(ready["seq"], 11);
    }

    async fn broadcasts_reach_every_user_once_and_resume_on_their_own_numbers(db) {
        let node = db.node();
        let anna = node.token("u-anna");
        node.push("u-anna", 2, 0).await;
        node.push(feed::BROADCAST, 1, 0).await;

        // A first connection starts both streams at their end (the demo's broadcasts before).
        let (mut on_anna, before, ready) = Client::open(&node.ws_url(), &anna, None, None).await;
        assert!(before.is_empty(), "{before:?}");
        assert_eq!(ready["seq"], 2);
        let b = ready["broadcast_seq"].as_i64().unwrap();
        assert!(b >= 1);
        let epoch = ready["epoch"].as_str().unwrap().to_string();
        let (mut on_john, _, ready) =
            Client::open(&node.ws_url(), &node.token("u-john"), None, None).await;
        assert_eq!((ready["seq"].clone(), ready["broadcast_seq"].clone()), (json!(0), json!(b)));

        // One row reaches every user, numbered in its own stream, the same frame for each.
        node.push(feed::BROADCAST, 1, 0).await;
        let mut frames = Vec::new();
        for client in [&mut on_anna, &mut on_john] {
            match client.next().await {
                Got::Json(v) => frames.push(v),
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(frames[0], frames[1]);
        assert_eq!(streams_of(&frames[..1]), stream(&[("broadcast", b + 1)]));
        assert_eq!(frames[0]["kind"], "test");
        // A user's own entry still reaches that user alone, on the user's numbers.
        node.push("u-john", 1, 0).await;
        assert_eq!(on_john.seqs(1).await, vec![1]);
        on_anna.quiet_for(Duration::from_millis(300)).await;
        drop(on_anna);

        // Away: the two streams interleaved; resuming gets both, in the order they were written.
        node.push("u-anna", 1, 0).await;
        node.push(feed::BROADCAST, 2, 0).await;
        node.push("u-anna", 1, 0).await;
        let (mut on_anna, missed, ready) =
            Client::open_with(&node.ws_url(), &anna, Some(2), Some(b + 1), Some(&epoch)).await;
        assert_eq!(
            streams_of(&missed),
            stream(&[("message", 3), ("broadcast", b + 2), ("broadcast", b + 3), ("message", 4)])
        );
        assert_eq!((ready["seq"].clone(), ready["broadcast_seq"].clone()), (json!(4), json!(b + 3)));
        on_anna.quiet_for(Duration::from_millis(300)).await;

        // Up to date in one stream, behind in the other: only what is missing.
        let (_c, missed, _) =
            Client::open_with(&node.ws_url(), &anna, Some(4), Some(b + 2), Some(&epoch)).await;
        assert_eq!(streams_of(&missed), stream(&[("broadcast", b + 3)]));
        // An app from before broadcasts (no broadcast number) resumes its own entries only.
        let (_c, missed, ready) =
            Client::open_with(&node.ws_url(), &anna, Some(3), None, Some(&epoch)).await;
        assert_eq!(streams_of(&missed), stream(&[("message", 4)]));
        assert_eq!(ready["broadcast_seq"], b + 3);
        // A broadcast number from another feed reloads, whatever the user's number says.
        let (_c, before, ready) =
            Client::open_with(&node.ws_url(), &anna, Some(4), Some(b + 99), Some(&epoch)).await;
        assert_eq!(before, vec![json!({"type": "reload"})]);
        assert_eq!((ready["seq"].clone(), ready["broadcast_seq"].clone()), (json!(4), json!(b + 3)));
    }

    async fn live_messages_reach_every_socket_of_the_user_and_no_one_else(db) {
        let node = db.node();
        let (mut first, _, _) = Client::open(&node.ws_url(), &node.token("u-john"), None, None).await;
        let (mut second, _, _) = Client::open(&node.ws_url(), &node.token("u-john"), None, None).await;
        let (mut other, _, _) = Client::open(&node.ws_url(), &node.token("u-marco"), None, None).await;
        node.push("u-john", 2, 0).await;
        assert_eq!(first.seqs(2).await, vec![1, 2]);
        assert_eq!(second.seqs(2).await, vec![1, 2]);
        other.quiet_for(Duration::from_millis(500)).await;
        node.push("u-marco", 1, 0).await;
        assert_eq!(other.seqs(1).await, vec![1]);
        first.quiet_for(Duration::from_millis(200)).await;
    }

    async fn live_entries_keep_the_feed_order_whether_written_at_once_or_queued(db) {
        // More sockets than the hub writes to from one thread: a broadcast is shared out. They
        // all come from one address, so the request limits are lifted.
        let node = db.node_with(|c| {
            c.rate_limit_address_per_second = 100_000;
            c.rate_limit_address_burst = 100_000;
            c.rate_limit_session_per_second = 100_000;
            c.rate_limit_session_burst = 100_000;
        });
        let mut others = Vec::new();
        for i in 0..600 {
            let token = node.token(&format!("u-{i}"));
            let (client, _, ready) = Client::open(&node.ws_url(), &token, None, None).await;
            others.push((client, ready["broadcast_seq"].as_i64().unwrap()));
        }
        let (mut anna, _, ready) =
            Client::open(&node.ws_url(), &node.token("u-anna"), None, None).await;
        let b = ready["broadcast_seq"].as_i64().unwrap();
        let before = node.state.realtime.stats();

        // Anna reads nothing while large entries of her own (12 MiB in all) fill her socket's
        // buffers: the hub queues what follows for her socket's task, and the broadcasts
        // between must still reach her after the entries written before them.
        const ROUNDS: i64 = 24;
        let mut expected = Vec::new();
        for i in 1..=ROUNDS {
            node.push("u-anna", 1, 512 * 1024).await;
            node.push(feed::BROADCAST, 1, 0).await;
            expected.push(("message".to_string(), i));
            expected.push(("broadcast".to_string(), b + i));
        }
        let mut got = Vec::new();
        while got.len() < expected.len() {
            match anna.next().await {
                Got::Json(v) => got.push(v),
                other => panic!("after {} frames: {other:?}", got.len()),
            }
        }
        assert_eq!(streams_of(&got), expected);
        anna.quiet_for(Duration::from_millis(200)).await;

        // Everyone else got each broadcast once, in order, most written by the hub itself.
        for (client, b0) in &mut others {
            let mut frames = Vec::new();
            while frames.len() < ROUNDS as usize {
                match client.next().await {
                    Got::Json(v) => frames.push(v),
                    other => panic!("{other:?}"),
                }
            }
            let want: Vec<_> = (1..=ROUNDS).map(|i| ("broadcast".to_string(), *b0 + i)).collect();
            assert_eq!(streams_of(&frames), want);
        }
        let after = node.state.realtime.stats();
        let delivered = (after.delivered - before.delivered) as i64;
        let queued = (after.queued - before.queued) as i64;
        assert_eq!(delivered, ROUNDS * 601 + ROUNDS, "{after:?}");
        assert!(queued > 0, "nothing was queued: {after:?}");
        assert!(delivered - queued > ROUNDS * 590, "the hub wrote too few itself: {after:?}");
        assert_eq!(after.cut_off_slow, 0);
    }

    async fn the_purge_deletes_old_entries_a_batch_at_a_time_and_keeps_each_users_newest(db) {
        let node = db.node();
        // More entries than two of the purge's batches, so it must go on past the first.
        let many = 2 * projections::db::DELETE_BATCH_ROWS as u32 + 500;
        node.push("u-anna", many, 0).await;
        node.push("u-john", 3, 0).await;
        let state = node.state.clone();
        let purge = |cutoff: i64| {
            let db = state.db.clone();
            node.runtime.spawn(async move {
                backend::realtime::retention::purge(&db, cutoff).await.expect("purge")
            })
        };
        // Nothing is old yet.
        let before = projections::now_ms() - 60_000;
        assert_eq!(purge(before).await.unwrap(), 0);
        assert_eq!(node.feed_rows("u-anna").await, i64::from(many));
        // Everything is old: all go but each user's newest (the demo users' entries too).
        let counts = || {
            let db = state.db.clone();
            node.runtime.spawn(async move {
                on_db!(&db, pool => sqlx::query_as::<_, (i64, i64)>(
                    "select count(*), count(distinct user_id) from user_feed")
                    .fetch_one(pool).await)
                .expect("count")
            })
        };
        let (rows, users) = counts().await.unwrap();
        assert!(rows >= i64::from(many) + 3);
        let after = projections::now_ms() + 60_000;
        assert_eq!(purge(after).await.unwrap(), (rows - users) as u64);
        assert_eq!(counts().await.unwrap(), (users, users));
        assert_eq!(node.feed_rows("u-anna").await, 1);
        assert_eq!(node.feed_rows("u-john").await, 1);
        let (_c, _, ready) = Client::open(&node.ws_url(), &node.token("u-anna"), None, None).await;
        assert_eq!(ready["seq"], many, "the newest entry is the one kept");
    }

    async fn a_client_behind_the_retention_is_told_to_reload(db) {
        let node = db.node_with(|c| c.feed_retention_seconds = 1);
        let token = node.token("u-anna");
        node.push("u-anna", 5, 0).await;
        // The background task deletes everything older than a second except the newest entry.
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        while node.feed_rows("u-anna").await > 1 {
            assert!(tokio::time::Instant::now() < deadline, "old entries are deleted");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let (_c, first, ready) = Client::open(&node.ws_url(), &token, None, None).await;
        assert!(first.is_empty());
        assert_eq!(ready["seq"], 5, "numbers are never reused");
        let epoch = ready["epoch"].as_str().unwrap().to_string();

        let (mut client, before, ready) =
            Client::open(&node.ws_url(), &token, Some(2), Some(&epoch)).await;
        assert_eq!(before, vec![json!({"type": "reload"})]);
        assert_eq!(ready["seq"], 5);
        node.push("u-anna", 1, 0).await;
        assert_eq!(client.seqs(1).await, vec![6], "live messages follow the reload");

        // Up to date with what is kept: no reload.
        let (_c, before, _) = Client::open(&node.ws_url(), &token, Some(5), Some(&epoch)).await;
        assert_eq!(seqs_of(&before), vec![6]);
        // A number from another feed (other epoch, or beyond its end) reloads.
        let (_c, before, _) = Client::open(&node.ws_url(), &token, Some(6), Some("other")).await;
        assert_eq!(before, vec![json!({"type": "reload"})]);
        let (_c, before, ready) = Client::open(&node.ws_url(), &token, Some(99), Some(&epoch)).await;
        assert_eq!(before, vec![json!({"type": "reload"})]);
        assert_eq!(ready["seq"], 6);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forged_expired_and_missing_tokens_are_refused() {
    let db = TestDb::sqlite();
    let node = db.node_with(|c| c.realtime_auth_seconds = 1);
    let url = node.ws_url();

    let mut forged = Client::connect(&url).await;
    let other_keys = backend::auth::jwt::JwtKeys::new(b"another-secret-another-secret-0123", 3600);
    forged
        .auth(
            &other_keys.issue("u-anna", "s-1", i64::MAX / 2000).unwrap(),
            None,
            None,
        )
        .await;
    assert_eq!(
        forged.closed().await,
        (4401, "Invalid session. Please sign in again.".into())
    );

    let mut expired = Client::connect(&url).await;
    let now = chrono::Utc::now().timestamp();
    let old = node
        .state
        .auth
        .jwt
        .issue_with_expiry("u-anna", &node.session("u-anna").0, now - 100, now - 10)
        .unwrap();
    expired.auth(&old, None, None).await;
    assert_eq!(
        expired.closed().await,
        (
            4401,
            "Your session has expired. Please sign in again.".into()
        )
    );

    let mut garbage = Client::connect(&url).await;
    garbage.send(json!({"type": "pong"})).await;
    assert_eq!(garbage.closed().await.0, 4400);

    let mut silent = Client::connect(&url).await;
    assert_eq!(silent.closed().await, (4408, "Timed out".into()));

    // Nothing was registered for any of them.
    assert_eq!(node.state.realtime.stats().sockets, 0);

    // A plain GET is not an upgrade.
    let res = reqwest::get(format!("http://{}/api/ws", node.addr))
        .await
        .unwrap();
    assert_eq!(res.status(), reqwest::StatusCode::BAD_REQUEST);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_expiring_while_connected_closes_the_socket_unless_renewed() {
    let db = TestDb::sqlite();
    let node = db.node();
    let now = chrono::Utc::now().timestamp();
    let short = node
        .state
        .auth
        .jwt
        .issue_with_expiry("u-anna", &node.session("u-anna").0, now, now + 2)
        .unwrap();

    let (mut expiring, _, _) = Client::open(&node.ws_url(), &short, None, None).await;
    let (mut renewed, _, _) = Client::open(&node.ws_url(), &short, None, None).await;
    renewed.auth(&node.token("u-anna"), None, None).await;

    // Closed by the token's own timer: the wait for a frame is far shorter than the idle limit.
    assert_eq!(
        expiring.closed().await,
        (
            4401,
            "Your session has expired. Please sign in again.".into()
        )
    );

    // The renewed socket outlives the first token and still gets messages.
    tokio::time::sleep(Duration::from_millis(500)).await;
    node.push("u-anna", 1, 0).await;
    assert_eq!(renewed.seqs(1).await, vec![1]);

    // A token of someone else is refused on a socket that is not theirs.
    renewed.auth(&node.token("u-john"), None, None).await;
    assert_eq!(renewed.closed().await.0, 4401);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn client_messages_longer_than_the_read_buffer_are_read_whole_up_to_the_limit() {
    let db = TestDb::sqlite();
    let node = db.node();
    let url = node.ws_url();
    // A socket reads 1 KiB at a time; a client message may be up to 16 KiB.
    let padded =
        |token: &str, pad: usize| json!({ "type": "auth", "token": token, "pad": "x".repeat(pad) });

    let mut client = Client::connect(&url).await;
    client.send(padded(&node.token("u-anna"), 8 * 1024)).await;
    match client.next().await {
        Got::Json(v) if v["type"] == "ready" => {}
        other => panic!("expected ready, got {other:?}"),
    }
    // A renewal longer than the buffer, then a pong, are read as before: the socket stays and
    // still gets its messages.
    client.send(padded(&node.token("u-anna"), 12 * 1024)).await;
    client.send(json!({"type": "pong"})).await;
    node.push("u-anna", 1, 0).await;
    assert_eq!(client.seqs(1).await, vec![1]);

    // Past the limit the socket is not opened.
    let mut too_long = Client::connect(&url).await;
    too_long
        .send(padded(&node.token("u-anna"), 20 * 1024))
        .await;
    match too_long.next().await {
        Got::Closed(..) | Got::Gone => {}
        Got::Json(v) => panic!("a message over the limit was read: {v}"),
    }
    assert_eq!(node.state.realtime.stats().sockets, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_consumer_is_cut_off_without_holding_up_the_others() {
    let db = TestDb::sqlite();
    let node = db.node_with(|c| c.realtime_queue = 4);
    let (mut slow, _, _) = Client::open(&node.ws_url(), &node.token("u-slow"), None, None).await;
    let (mut other, _, _) = Client::open(&node.ws_url(), &node.token("u-other"), None, None).await;

    // Far more than the socket buffers and the queue of 4 hold; the slow client reads nothing.
    node.push("u-slow", 300, 32 * 1024).await;
    node.push("u-other", 1, 0).await;
    assert_eq!(other.seqs(1).await, vec![1], "others are served meanwhile");
    wait_until("the slow client is cut off", WAIT, || {
        node.state.realtime.stats().cut_off_slow > 0
    })
    .await;

    // When it finally reads, it finds part of the messages, then the close frame.
    let mut received = 0;
    let close = loop {
        match slow.next().await {
            Got::Json(v) if v["type"] == "message" => received += 1,
            Got::Closed(code, reason) => break (code, reason),
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(close, (1013, "slow".into()));
    assert!(received < 300, "cut off before the end, got {received}");

    // It resumes where it stopped, from the table, without losing anything.
    let (_c, missed, ready) =
        Client::open(&node.ws_url(), &node.token("u-slow"), Some(received), None).await;
    assert_eq!(missed.len() as i64, 300 - received);
    assert_eq!(ready["seq"], 300);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn heartbeats_are_sent_and_silent_clients_are_closed() {
    let db = TestDb::sqlite();
    let node = db.node_with(|c| {
        c.realtime_ping_seconds = 1;
        c.realtime_idle_seconds = 3;
    });
    let (mut client, _, _) = Client::open(&node.ws_url(), &node.token("u-anna"), None, None).await;
    let (mut answering, _, _) =
        Client::open(&node.ws_url(), &node.token("u-anna"), None, None).await;

    // The answering client pongs each ping; the other stays silent.
    let started = std::time::Instant::now();
    let mut pings = 0;
    while started.elapsed() < Duration::from_millis(4500) {
        match tokio::time::timeout(Duration::from_millis(200), answering.ws.next()).await {
            Ok(Some(Ok(Message::Text(t)))) if t.as_str() == r#"{"type":"ping"}"# => {
                pings += 1;
                answering.send(json!({"type": "pong"})).await;
            }
            Ok(other) => panic!("unexpected {other:?}"),
            Err(_) => {}
        }
    }
    assert!(pings >= 3, "a ping a second, got {pings}");
    assert_eq!(client.closed().await, (4408, "Timed out".into()));
    node.push("u-anna", 1, 0).await;
    assert_eq!(
        answering.seqs(1).await,
        vec![1],
        "the answering client is still open"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_closes_sockets_with_going_away() {
    let db = TestDb::sqlite();
    let mut node = db.node();
    let (mut client, _, _) = Client::open(&node.ws_url(), &node.token("u-anna"), None, None).await;
    let stopping = std::thread::spawn(move || node.stop_with(Stop::Graceful));
    assert_eq!(client.closed().await, (1001, "Server shutting down".into()));
    stopping.join().unwrap();
}

// ---------------------------------------------------------------------------------------------
// Several nodes on one PostgreSQL database.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_change_made_on_node_a_reaches_a_socket_on_node_b() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    // The slow poll is far longer than a test waits for a frame: only NOTIFY can deliver.
    let slow_poll = |c: &mut Config| c.feed_poll_ms = 600_000;
    let a = db.node_with(slow_poll);
    wait_until("node A runs the projector", WAIT, || a.runs_projector()).await;
    let b = db.node_with(slow_poll);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!b.runs_projector(), "only one node runs the projector");

    let (mut on_b, _, _) = Client::open(&b.ws_url(), &b.token("u-john"), None, None).await;
    let (mut on_a, _, _) = Client::open(&a.ws_url(), &a.token("u-john"), None, None).await;
    a.push("u-john", 2, 0).await;
    assert_eq!(on_b.seqs(2).await, vec![1, 2]);
    assert_eq!(on_a.seqs(2).await, vec![1, 2]);

    // A command on the node without the projector still reads its own write.
    b.push("u-john", 1, 0).await;
    assert_eq!(b.feed_rows("u-john").await, 3);
    assert_eq!(on_b.seqs(1).await, vec![3]);
    assert_eq!(on_a.seqs(1).await, vec![3]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killing_the_projector_node_hands_over_and_loses_no_feed_entry() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    let mut a = db.node();
    wait_until("node A runs the projector", WAIT, || a.runs_projector()).await;
    let b = db.node();
    let token = b.token("u-anna");
    let (mut on_b, _, ready) = Client::open(&b.ws_url(), &token, None, None).await;
    let epoch = ready["epoch"].as_str().unwrap().to_string();
    let (mut on_a, _, _) = Client::open(&a.ws_url(), &token, None, None).await;

    const TOTAL: u32 = 30;
    for _ in 0..10 {
        b.push("u-anna", 1, 0).await;
    }
    assert_eq!(on_a.seqs(10).await, (1..=10).collect::<Vec<_>>());

    // Node A dies while node B keeps writing.
    let writer = {
        let state = b.state.clone();
        b.runtime.spawn(async move {
            let store = EventStore::<Pusher>::new(&state.db, (), state.projector.clone());
            for _ in 10..TOTAL {
                let command = Push {
                    user_id: "u-anna".into(),
                    count: 1,
                    pad: 0,
                };
                let id = uuid::Uuid::new_v4().to_string();
                store
                    .execute(&id, command, Metadata::by("tester"))
                    .await
                    .expect("commands go on during the handover");
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        })
    };
    tokio::time::sleep(Duration::from_millis(100)).await;
    a.crash();
    writer.await.unwrap();
    wait_until("node B takes the projector over", WAIT, || {
        b.runs_projector()
    })
    .await;

    // The socket on B got every entry exactly once, in order.
    assert_eq!(
        on_b.seqs(TOTAL as usize).await,
        (1..=TOTAL as i64).collect::<Vec<_>>()
    );
    on_b.quiet_for(Duration::from_millis(300)).await;

    // The socket on A was dropped; its client resumes on B with what it had.
    let mut had = 10;
    loop {
        match on_a.next().await {
            Got::Json(v) if v["type"] == "message" => {
                assert_eq!(v["seq"].as_i64().unwrap(), had + 1);
                had += 1;
            }
            Got::Gone | Got::Closed(..) => break,
            other => panic!("{other:?}"),
        }
    }
    let (_c, missed, ready) = Client::open(&b.ws_url(), &token, Some(had), Some(&epoch)).await;
    assert_eq!(
        seqs_of(&missed),
        ((had + 1)..=TOTAL as i64).collect::<Vec<_>>()
    );
    assert_eq!(ready["seq"], TOTAL as i64);

    // And a new node standing by takes over from B in turn... only while B lives: one owner.
    let c = db.node();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert!(b.runs_projector() && !c.runs_projector());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_description_documents_the_channel() {
    let db = TestDb::sqlite();
    let node = db.node();
    let doc: Value = reqwest::get(format!("http://{}/api/openapi.json", node.addr))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let ws = &doc["paths"]["/api/ws"]["get"];
    assert!(ws["description"]
        .as_str()
        .is_some_and(|d| d.contains("4401") && d.contains("last_seq")));
    let schemas = &doc["components"]["schemas"];
    assert!(schemas["ServerMessage"].is_object() && schemas["ClientMessage"].is_object());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_entry_written_outside_the_projector_is_delivered_too() {
    let db = TestDb::sqlite();
    let node = db.node_with(|c| c.feed_poll_ms = 100_000);
    let (mut client, _, _) = Client::open(&node.ws_url(), &node.token("u-anna"), None, None).await;
    let state = node.state.clone();
    let seq = node
        .runtime
        .spawn(async move {
            let seq = backend::feed::push_direct(
                &state.db,
                "u-anna",
                backend::feed::FeedKind::Badge,
                &json!({"name": "notifications", "count": 2}),
            )
            .await
            .unwrap();
            state.realtime.poke();
            seq
        })
        .await
        .unwrap();
    assert_eq!(seq, 1);
    match client.next().await {
        Got::Json(v) => assert_eq!(
            (v["kind"].clone(), v["payload"].clone()),
            (json!("badge"), json!({"name": "notifications", "count": 2}))
        ),
        other => panic!("{other:?}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Sessions ending while their sockets are open.

async fn sign_in(node: &Node, email: &str) -> String {
    let res = reqwest::Client::new()
        .post(format!("http://{}/api/users/login", node.addr))
        .json(&json!({ "username": email, "password": crate::helpers::PASSWORD }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), reqwest::StatusCode::OK);
    res.json::<Value>().await.unwrap()["jwt"]
        .as_str()
        .unwrap()
        .to_string()
}

async fn post_with(node: &Node, path: &str, token: &str) -> reqwest::StatusCode {
    reqwest::Client::new()
        .post(format!("http://{}/api{path}", node.addr))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .status()
}

async fn get_data(node: &Node, token: &str) -> reqwest::StatusCode {
    reqwest::Client::new()
        .get(format!("http://{}/api/users/get-data", node.addr))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .status()
}

/// Signing out on node A closes the session's socket on node B (4401) within seconds and its
/// token gets 401 everywhere; the same user's other session keeps its socket.
async fn sign_out_closes_the_sockets_of_the_session(a: &Node, b: &Node) {
    let anna = crate::helpers::ANNA;
    let token = sign_in(a, anna).await;
    let other_session = sign_in(a, anna).await;
    let (mut on_b, _, _) = Client::open(&b.ws_url(), &token, None, None).await;
    let (mut kept, _, _) = Client::open(&b.ws_url(), &other_session, None, None).await;

    assert_eq!(
        post_with(a, "/users/logout", &token).await,
        reqwest::StatusCode::OK
    );
    assert_eq!(
        on_b.closed().await,
        (4401, "Your session has ended. Please sign in again.".into())
    );
    assert_eq!(get_data(a, &token).await, reqwest::StatusCode::UNAUTHORIZED);
    // Node B may have read the session just before: its cache lasts two seconds at most.
    tokio::time::sleep(backend::auth::sessions::CACHE_TTL).await;
    assert_eq!(get_data(b, &token).await, reqwest::StatusCode::UNAUTHORIZED);
    assert_eq!(
        post_with(b, "/users/welcome", &token).await,
        reqwest::StatusCode::UNAUTHORIZED
    );

    // A revoked session cannot open a new socket either.
    let mut again = Client::connect(&b.ws_url()).await;
    again.auth(&token, None, None).await;
    assert_eq!(again.closed().await.0, 4401);

    // The other session is untouched.
    assert_eq!(get_data(b, &other_session).await, reqwest::StatusCode::OK);
    // Its socket saw the other session's end go by as a message (apps ignore the kind), and
    // stays open.
    assert_eq!(kept.seqs(1).await.len(), 1);
    kept.quiet_for(Duration::from_millis(300)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn signing_out_closes_the_socket_of_that_session_sqlite() {
    let db = TestDb::sqlite();
    let node = db.node_with(|c| c.feed_poll_ms = 500);
    sign_out_closes_the_sockets_of_the_session(&node, &node).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn signing_out_on_one_node_closes_the_socket_on_another() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    let a = db.node();
    let b = db.node();
    sign_out_closes_the_sockets_of_the_session(&a, &b).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn disabling_an_account_closes_all_its_sockets() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    let a = db.node();
    let b = db.node();
    let john = sign_in(&a, crate::helpers::JOHN).await;
    let admin = sign_in(&a, crate::helpers::ADMIN).await;
    let (mut socket, _, _) = Client::open(&b.ws_url(), &john, None, None).await;
    let john_id = backend::auth::User::find_by_email(&a.state.db, crate::helpers::JOHN)
        .await
        .unwrap()
        .unwrap()
        .id;
    assert_eq!(
        post_with(&a, &format!("/admin/users/{john_id}/disable"), &admin).await,
        reqwest::StatusCode::OK
    );
    assert_eq!(socket.closed().await.0, 4401);
    tokio::time::sleep(backend::auth::sessions::CACHE_TTL).await;
    assert_eq!(get_data(&b, &john).await, reqwest::StatusCode::UNAUTHORIZED);
}

/// The node running the projector tells the others where the feed ends with one statement
/// that reads the end and notifies only when it moved past what was told before.
#[tokio::test]
async fn the_feeds_end_is_announced_once_it_moved_and_not_before() {
    let Some((admin, name)) = create_pg_database().await else {
        return;
    };
    let db = projections::Db::connect(&with_database(&admin, &name))
        .await
        .expect("database");
    let projections::Db::Postgres { pool } = &db else {
        unreachable!("a PostgreSQL database")
    };
    let mut listener = sqlx::postgres::PgListener::connect_with(pool)
        .await
        .expect("listener");
    listener.listen(feed::FEED_CHANNEL).await.expect("listen");

    assert_eq!(
        feed::announce_past(&db, 0).await.expect("announce"),
        None,
        "an empty feed"
    );
    let mut tx = Tx::begin(&db).await.expect("begin");
    feed::push(&mut tx, "user-1", "note", &json!({"n": 1}), 1)
        .await
        .expect("push");
    tx.commit().await.expect("commit");
    let end = feed::latest_position(&db).await.expect("end");
    assert!(end > 0);

    assert_eq!(
        feed::announce_past(&db, end).await.expect("announce"),
        None,
        "nothing past what was told"
    );
    assert_eq!(
        feed::announce_past(&db, 0).await.expect("announce"),
        Some(end)
    );
    let told = tokio::time::timeout(Duration::from_secs(5), listener.recv())
        .await
        .expect("a notification")
        .expect("received");
    assert_eq!(told.payload(), end.to_string());
    // Only that one: the calls that found nothing new sent nothing.
    let more = tokio::time::timeout(Duration::from_millis(300), listener.recv()).await;
    assert!(more.is_err(), "one notification, not {more:?}");

    db.close().await;
    drop_pg_database(admin, name);
}
