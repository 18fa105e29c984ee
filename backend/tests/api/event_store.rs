//! The event store and projector under concurrent writers: every event reaches the read model,
//! conflicts are retried or refused whole, and a rebuild from position 0 equals the live tables.

use std::sync::Arc;

use async_trait::async_trait;
use backend::error::AppError;
use backend::event_store::{EventStore, Metadata};
use cqrs_es::event_sink::EventSink;
use cqrs_es::{Aggregate, DomainEvent};
use projections::projector::{Projection, ProjectionError, TableSpec};
use projections::{on_db, on_tx, Projector, StoredEvent, Tx};
use serde::{Deserialize, Serialize};

use crate::helpers::{counter, spawn_app, Engine, PgDatabase, TestApp};

#[derive(Default, Serialize, Deserialize)]
struct Counter {
    total: i64,
}

#[derive(Clone, Debug)]
enum CounterCommand {
    Add(i64),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
enum CounterEvent {
    Added { by: i64, total: i64 },
}

impl DomainEvent for CounterEvent {
    fn event_type(&self) -> String {
        "Added".into()
    }
    fn event_version(&self) -> String {
        "1".into()
    }
}

#[derive(Debug, thiserror::Error)]
#[error("negative amounts are refused")]
struct CounterError;

impl From<CounterError> for AppError {
    fn from(e: CounterError) -> Self {
        AppError::bad_request(e.to_string())
    }
}

impl Aggregate for Counter {
    const TYPE: &'static str = "test_counter";
    type Command = CounterCommand;
    type Event = CounterEvent;
    type Error = CounterError;
    type Services = ();

    async fn handle(
        &mut self,
        command: CounterCommand,
        _: &(),
        sink: &EventSink<Self>,
    ) -> Result<(), CounterError> {
        let CounterCommand::Add(by) = command;
        if by < 0 {
            return Err(CounterError);
        }
        sink.write(
            CounterEvent::Added {
                by,
                total: self.total + by,
            },
            self,
        )
        .await;
        Ok(())
    }

    fn apply(&mut self, event: CounterEvent) {
        let CounterEvent::Added { total, .. } = event;
        self.total = total;
    }
}

/// Records every event it sees, and a running total per counter.
struct SeenProjection;

const TABLES: &[TableSpec] = &[
    TableSpec {
        name: "test_seen",
        order_by: "aggregate_id, sequence",
    },
    TableSpec {
        name: "test_totals",
        order_by: "aggregate_id",
    },
];

#[async_trait]
impl Projection for SeenProjection {
    fn name(&self) -> &'static str {
        "test_seen"
    }
    fn tables(&self) -> &'static [TableSpec] {
        TABLES
    }
    async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> Result<(), ProjectionError> {
        if event.aggregate_type != Counter::TYPE {
            return Ok(());
        }
        let CounterEvent::Added { by, total } = event
            .decode()
            .map_err(|e| ProjectionError::bad_event(event, e))?;
        on_tx!(tx, c => sqlx::query("insert into test_seen (aggregate_id, sequence, by_amount) values ($1, $2, $3)")
            .bind(&event.aggregate_id).bind(event.sequence).bind(by).execute(c).await.map(|r| r.rows_affected()))?;
        on_tx!(tx, c => sqlx::query("insert into test_totals (aggregate_id, total) values ($1, $2)
                 on conflict (aggregate_id) do update set total = excluded.total")
            .bind(&event.aggregate_id).bind(total).execute(c).await.map(|r| r.rows_affected()))?;
        Ok(())
    }
}

async fn create_tables(db: &projections::Db) {
    for sql in [
        "create table test_seen (aggregate_id text not null, sequence bigint not null, by_amount bigint not null, primary key (aggregate_id, sequence))",
        "create table test_totals (aggregate_id text primary key, total bigint not null)",
    ] {
        on_db!(db, pool => sqlx::query(sql).execute(pool).await.map(|r| r.rows_affected())).unwrap();
    }
}

async fn concurrent_writers_lose_nothing(app: TestApp) {
    let db = app.state.db.clone();
    create_tables(&db).await;
    let projection: Arc<dyn Projection> = Arc::new(SeenProjection);
    let projector = Projector::new(db.clone(), vec![projection.clone()]);
    let handle = projector.handle();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(projector.run(async {
        let _ = stopped.await;
    }));
    let store = Arc::new(EventStore::<Counter>::new(&db, (), handle.clone()));

    const WRITERS: usize = 8;
    const COMMANDS: usize = 300;
    let mut tasks = Vec::new();
    for w in 0..WRITERS {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            let (mut ok, mut conflicts) = (0usize, 0usize);
            for i in 0..COMMANDS {
                // Few ids, many writers: plenty of optimistic-concurrency races.
                let id = format!("counter-{}", (w * 7 + i) % 12);
                match store
                    .execute(
                        &id,
                        CounterCommand::Add(1),
                        Metadata::by(format!("writer-{w}")),
                    )
                    .await
                {
                    Ok(_) => ok += 1,
                    Err(AppError::Conflict(_)) => conflicts += 1,
                    Err(e) => panic!("unexpected error: {e}"),
                }
            }
            (ok, conflicts)
        }));
    }
    let mut succeeded = 0;
    for t in tasks {
        let (ok, _conflicts) = t.await.unwrap();
        succeeded += ok;
    }
    assert!(
        succeeded > WRITERS * COMMANDS * 9 / 10,
        "most commands succeed: {succeeded}"
    );

    // A refused command records nothing.
    assert!(matches!(
        store
            .execute("counter-0", CounterCommand::Add(-1), Metadata::by("x"))
            .await,
        Err(AppError::BadRequest(_))
    ));

    let events: i64 = on_db!(&db, pool => sqlx::query_scalar("select count(*) from events where aggregate_type = 'test_counter'").fetch_one(pool).await).unwrap();
    assert_eq!(
        events as usize, succeeded,
        "one event per successful command, none for conflicts"
    );

    // Every command waited for the projection, so everything is there already.
    let seen: i64 = on_db!(&db, pool => sqlx::query_scalar("select count(*) from test_seen").fetch_one(pool).await).unwrap();
    assert_eq!(seen, events, "the read model holds every event");
    let missing: i64 = on_db!(&db, pool => sqlx::query_scalar(
        "select count(*) from events e where e.aggregate_type = 'test_counter'
           and not exists (select 1 from test_seen s where s.aggregate_id = e.aggregate_id and s.sequence = e.sequence)")
        .fetch_one(pool).await).unwrap();
    assert_eq!(missing, 0);
    let total: i64 = on_db!(&db, pool => sqlx::query_scalar("select cast(coalesce(sum(total), 0) as bigint) from test_totals").fetch_one(pool).await).unwrap();
    assert_eq!(
        total as usize, succeeded,
        "each counter's total equals its number of events"
    );

    // Rebuild from position 0 into a fresh database and compare.
    let fresh_dir = tempfile::tempdir().unwrap();
    let fresh = projections::Db::connect(&format!(
        "sqlite://{}",
        fresh_dir.path().join("fresh.db").display()
    ))
    .await
    .unwrap();
    if app.state.db.kind() == projections::DbKind::Sqlite {
        create_tables(&fresh).await;
        let report =
            projections::replay::rebuild_and_compare(&db, &fresh, vec![projection.clone()])
                .await
                .unwrap();
        // The rebuild reads every stored event (the demo documents' too) and applies this
        // projection's own.
        let stored: i64 = on_db!(&db, pool => sqlx::query_scalar("select count(*) from events").fetch_one(pool).await).unwrap();
        assert_eq!(report.events_applied as i64, stored);
        assert!(report.differences.is_empty(), "{:?}", report.differences);
        // A damaged live row is reported.
        on_db!(&db, pool => sqlx::query("update test_totals set total = total + 1 where aggregate_id = 'counter-3'").execute(pool).await.map(|r| r.rows_affected())).unwrap();
        let fresh2 = projections::Db::connect(&format!(
            "sqlite://{}",
            fresh_dir.path().join("fresh2.db").display()
        ))
        .await
        .unwrap();
        create_tables(&fresh2).await;
        let report = projections::replay::rebuild_and_compare(&db, &fresh2, vec![projection])
            .await
            .unwrap();
        assert_eq!(report.differences.len(), 1);
        assert_eq!(report.differences[0].table, "test_totals");
    }
    let _ = stop.send(());
    running.await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_writers_lose_nothing_sqlite() {
    concurrent_writers_lose_nothing(spawn_app(Engine::Sqlite).await.unwrap()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_writers_lose_nothing_postgres() {
    let Some(app) = spawn_app(Engine::Postgres).await else {
        return;
    };
    concurrent_writers_lose_nothing(app).await;
}

/// A command whose events the projections have not applied within the server's wait is answered
/// "recorded but not visible yet": its event is stored, and appears once the projector runs.
async fn a_command_not_projected_within_the_wait_is_recorded_and_answered_behind(app: TestApp) {
    let db = app.state.db.clone();
    create_tables(&db).await;
    let projection: Arc<dyn Projection> = Arc::new(SeenProjection);
    let projector = Projector::new(db.clone(), vec![projection])
        .with_command_wait(std::time::Duration::from_millis(200));
    let handle = projector.handle();
    assert_eq!(handle.command_wait(), std::time::Duration::from_millis(200));
    let store = EventStore::<Counter>::new(&db, (), handle.clone());

    // Nothing runs the projector yet.
    let outcome = store
        .execute("late", CounterCommand::Add(3), Metadata::by("w"))
        .await;
    match outcome {
        Err(AppError::ProjectionsBehind(message)) => {
            assert_eq!(message, backend::event_store::BEHIND_MESSAGE)
        }
        other => panic!("expected the 503 answer, got {other:?}"),
    }
    let stored: i64 = on_db!(&db, pool => sqlx::query_scalar("select count(*) from events where aggregate_type = 'test_counter' and aggregate_id = 'late'").fetch_one(pool).await).unwrap();
    assert_eq!(stored, 1, "the change is kept");

    // The projector runs now, with a wait a loaded machine cannot run out of: the next command
    // waits for both events and sees them projected.
    drop(store);
    let projection: Arc<dyn Projection> = Arc::new(SeenProjection);
    let projector = Projector::new(db.clone(), vec![projection])
        .with_command_wait(std::time::Duration::from_secs(120));
    let store = EventStore::<Counter>::new(&db, (), projector.handle());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(projector.run(async {
        let _ = stopped.await;
    }));
    store
        .execute("late", CounterCommand::Add(4), Metadata::by("w"))
        .await
        .expect("answered once the projector runs");
    let total: i64 = on_db!(&db, pool => sqlx::query_scalar("select total from test_totals where aggregate_id = 'late'").fetch_one(pool).await).unwrap();
    assert_eq!(total, 7);
    let _ = stop.send(());
    running.await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_not_projected_within_the_wait_is_recorded_and_answered_behind_sqlite() {
    if let Some(app) = spawn_app(Engine::Sqlite).await {
        a_command_not_projected_within_the_wait_is_recorded_and_answered_behind(app).await
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_not_projected_within_the_wait_is_recorded_and_answered_behind_postgres() {
    if let Some(app) = spawn_app(Engine::Postgres).await {
        a_command_not_projected_within_the_wait_is_recorded_and_answered_behind(app).await
    }
}

/// A projection of course registrations that no projector runs: a command that waits for it
/// is never answered in time.
struct HeldRegistrations;

#[async_trait]
impl Projection for HeldRegistrations {
    fn name(&self) -> &'static str {
        "test_registrations_held"
    }
    fn tables(&self) -> &'static [TableSpec] {
        &[]
    }
    fn reads(&self, aggregate_type: &str) -> bool {
        aggregate_type == events::course_registration::CourseRegistration::TYPE
    }
    async fn apply(&self, _tx: &mut Tx, _event: &StoredEvent) -> Result<(), ProjectionError> {
        Ok(())
    }
}

/// Course registration takes the same path: a registration a projection reading it has not
/// applied within the wait is answered 503 "recorded but not visible yet", its event kept, and the
/// server's projector shows it in the course team's list afterwards.
async fn a_registration_not_projected_within_the_wait_is_answered_behind(app: TestApp) {
    let db = app.state.db.clone();
    let held: Arc<dyn Projection> = Arc::new(HeldRegistrations);
    let projector = Projector::new(db.clone(), vec![held])
        .with_command_wait(std::time::Duration::from_millis(200));
    let store =
        backend::programmes::registration::store(&db, &app.state.config, projector.handle());
    let user_id = "registration-behind";
    let command = events::course_registration::RegistrationCommand::Register {
        course_id: 1,
        user_id: user_id.into(),
        days: vec!["2026-03-19".into()],
        name: "Anna Rossi".into(),
        email: "anna.rossi@example.com".into(),
        hospital: Some("Ospedale Nord".into()),
        category: Some("surgeon".into()),
        newsletter: false,
        privacy_consent: true,
        data_consent: true,
        registered_at: projections::now_ms(),
    };
    let aggregate_id = events::course_registration::CourseRegistration::aggregate_id(1, user_id);
    match store
        .execute(&aggregate_id, command, Metadata::by(user_id))
        .await
    {
        Err(AppError::ProjectionsBehind(message)) => {
            assert_eq!(message, backend::event_store::BEHIND_MESSAGE)
        }
        other => panic!("expected the 503 answer, got {other:?}"),
    }
    let err = AppError::ProjectionsBehind(backend::event_store::BEHIND_MESSAGE.into());
    assert_eq!(
        axum::response::IntoResponse::into_response(err).status(),
        reqwest::StatusCode::SERVICE_UNAVAILABLE
    );
    let stored: i64 = on_db!(&db, pool => sqlx::query_scalar("select count(*) from events where aggregate_id = $1").bind(&aggregate_id).fetch_one(pool).await).unwrap();
    assert_eq!(stored, 1, "the registration is kept");

    // The server's own projector applies it: the course team's list shows it.
    app.state.projector.wake();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let listed: i64 = on_db!(&db, pool => sqlx::query_scalar("select count(*) from course_registrations where user_id = $1").bind(user_id).fetch_one(pool).await).unwrap();
        if listed == 1 {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "never projected");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_registration_not_projected_within_the_wait_is_answered_behind_sqlite() {
    if let Some(app) = spawn_app(Engine::Sqlite).await {
        a_registration_not_projected_within_the_wait_is_answered_behind(app).await
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_registration_not_projected_within_the_wait_is_answered_behind_postgres() {
    if let Some(app) = spawn_app(Engine::Postgres).await {
        a_registration_not_projected_within_the_wait_is_answered_behind(app).await
    }
}

/// On SQLite an append waits its turn with the server's other writers (the projector's round, a
/// read-then-write transaction): while another writer holds the turn, nothing is appended, and
/// the append goes through as soon as the turn is free. (Left to SQLite, it would have been
/// written at once here, or, had the other writer held SQLite's own lock, retried by SQLite's
/// busy handler with sleeps of up to 100 ms.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sqlite_append_waits_for_the_writer_before_it() {
    let Some(app) = spawn_app(Engine::Sqlite).await else {
        return;
    };
    let db = app.state.db.clone();
    // No projector: the store only appends.
    let store = Arc::new(EventStore::<Counter>::append_only(&db, ()));
    let count = || async {
        let n: i64 = on_db!(&db, pool => sqlx::query_scalar(
            "select count(*) from events where aggregate_type = 'test_counter'")
            .fetch_one(pool).await)
        .unwrap();
        n
    };

    let turn = db.write_guard().await;
    let appending = tokio::spawn({
        let store = store.clone();
        async move {
            store
                .execute("queued", CounterCommand::Add(2), Metadata::by("w"))
                .await
        }
    });
    // Long enough for an append that did not wait to be stored many times over.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(
        count().await,
        0,
        "appended while another writer had the turn"
    );
    assert!(!appending.is_finished());

    drop(turn);
    appending
        .await
        .unwrap()
        .expect("appended once the turn was free");
    assert_eq!(count().await, 1);
}

/// On PostgreSQL an event committed while an older transaction of the cluster is still open is
/// held back from reading (its position could otherwise be passed by a reader before an older
/// one commits); the projector is told so, to look again soon, and reads it once that
/// transaction ends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_event_behind_an_open_transaction_is_held_back_then_read_postgres() {
    use projections::stream::{head, held_back, read_after};
    let Some(app) = spawn_app(Engine::Postgres).await else {
        return;
    };
    let db = app.state.db.clone();
    let projections::Db::Postgres { pool } = &db else {
        panic!("a PostgreSQL app");
    };
    let before = head(&db).await.unwrap().unwrap_or_default();

    // An older transaction with an id of its own, still open.
    let mut older = pool.begin().await.unwrap();
    sqlx::query("select pg_current_xact_id()")
        .execute(&mut *older)
        .await
        .unwrap();
    let store = EventStore::<Counter>::append_only(&db, ());
    store
        .execute("held", CounterCommand::Add(1), Metadata::by("w"))
        .await
        .unwrap();
    assert!(held_back(&db, before).await.unwrap());
    let read = read_after(&db, before, 1000).await.unwrap();
    assert!(
        !read.iter().any(|e| e.aggregate_id == "held"),
        "read past an open older transaction"
    );

    older.rollback().await.unwrap();
    // Other tests share the cluster, and their transactions hold events back too: wait until
    // none does.
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        // Asked first: once nothing holds it back, the read after must find it.
        let was_held_back = held_back(&db, before).await.unwrap();
        let read = read_after(&db, before, 100_000).await.unwrap();
        if read.iter().any(|e| e.aggregate_id == "held") {
            break;
        }
        assert!(was_held_back, "the event is neither readable nor held back");
        assert!(tokio::time::Instant::now() < deadline, "never readable");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// `companion replay` rebuilds into a database it throws away: there a commit does not wait for
/// PostgreSQL's log to reach the disk, where the live database's commits do.
#[tokio::test]
async fn a_scratch_database_does_not_wait_for_its_log_postgres() {
    let Some(database) = PgDatabase::create().await else {
        return;
    };
    // The test databases do without the wait (see `helpers`): back to the cluster's own
    // setting for the sessions opened below.
    on_db!(&database.db, pool => sqlx::query(
        "do $$ begin execute format('alter database %I reset synchronous_commit', current_database()); end $$")
        .execute(pool).await.map(|_| ()))
    .unwrap();
    let live = projections::Db::connect(&database.url()).await.unwrap();
    let scratch = projections::Db::connect_scratch(&database.url())
        .await
        .unwrap();
    let setting = |db: projections::Db| async move {
        let value: String = on_db!(&db, pool => sqlx::query_scalar("show synchronous_commit")
            .fetch_one(pool).await)
        .unwrap();
        value
    };
    assert_eq!(setting(scratch.clone()).await, "off");
    assert_eq!(setting(live.clone()).await, "on");
    scratch.close().await;
    live.close().await;
}

/// A command whose commit was interrupted waits for its transaction's fate: on PostgreSQL while
/// the transaction is in progress `settle` does not return settled, and it does once the
/// transaction has committed or rolled back; a command whose commit was never asked has nothing
/// to wait for.
#[tokio::test]
async fn settling_waits_for_a_transaction_under_way_postgres() {
    use projections::projector::settle;
    use std::time::Duration;
    let Some(database) = PgDatabase::create().await else {
        return;
    };
    let projections::Db::Postgres { pool } = &database.db else {
        panic!("a PostgreSQL database");
    };
    let open = |pool: sqlx::PgPool| async move {
        let mut tx = pool.begin().await.unwrap();
        let tx_id: i64 = sqlx::query_scalar("select pg_current_xact_id()::text::bigint")
            .fetch_one(&mut *tx)
            .await
            .unwrap();
        (tx, projections::Position { tx_id, position: 1 })
    };
    let patience = Duration::from_millis(300);

    let (committing, at) = open(pool.clone()).await;
    let started = std::time::Instant::now();
    assert!(!settle(&database.db, Some(at), patience).await.unwrap());
    assert!(started.elapsed() >= patience, "gave up before its patience");
    committing.commit().await.unwrap();
    assert!(settle(&database.db, Some(at), patience).await.unwrap());

    let (rolling_back, at) = open(pool.clone()).await;
    assert!(!settle(&database.db, Some(at), patience).await.unwrap());
    rolling_back.rollback().await.unwrap();
    assert!(settle(&database.db, Some(at), patience).await.unwrap());

    assert!(settle(&database.db, None, Duration::ZERO).await.unwrap());
}

/// On SQLite `settle` waits for a write under way on another connection to end: its commit
/// is then visible to the read that follows.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn settling_waits_for_a_write_under_way_sqlite() {
    use projections::projector::settle;
    use std::time::Duration;
    let dir = tempfile::tempdir().unwrap();
    let db = projections::Db::connect(&format!("sqlite://{}", dir.path().join("s.db").display()))
        .await
        .unwrap();
    let projections::Db::Sqlite { pool, .. } = &db else {
        panic!("a SQLite database");
    };
    let mut writer = pool.acquire().await.unwrap();
    sqlx::query("begin immediate")
        .execute(&mut *writer)
        .await
        .unwrap();
    sqlx::query("create table settle_probe (n integer)")
        .execute(&mut *writer)
        .await
        .unwrap();
    let settling = {
        let db = db.clone();
        tokio::spawn(async move { settle(&db, None, Duration::ZERO).await })
    };
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        !settling.is_finished(),
        "settled while a write was under way"
    );
    sqlx::query("commit").execute(&mut *writer).await.unwrap();
    assert!(settling.await.unwrap().unwrap());
    drop(writer);
    db.close().await;
}

/// Anna creates a folder at the root of her My Docs through the API; its answer's body.
async fn new_folder_of_anna(app: &TestApp) -> serde_json::Value {
    use crate::helpers::{json_of, ANNA};
    let anna = app.token(ANNA).await;
    let (status, body) = json_of(
        app.post_json(
            "/folders",
            Some(&anna),
            &serde_json::json!({ "name": "Visit notes", "type": "my", "parent": null }),
        )
        .await,
    )
    .await;
    assert!(status.is_success(), "{status} {body}");
    body
}

/// Where the projector runs, a command's events are committed by the projector's loop with the
/// projections applied in the same transaction: through the real API a new folder is answered
/// and listed, and the loop's counters show the command committed and projected there.
async fn a_command_through_the_api_is_committed_with_its_projections(engine: Engine) {
    use projections::projector::group_commit_metric_names as names;
    let Some(app) = spawn_app(engine).await else {
        return;
    };
    let projected = format!("{}{{projected=\"true\"}}", names::GROUP_COMMITS_TOTAL);
    let before = backend::http::metrics::render(&app.state);
    let body = new_folder_of_anna(&app).await;
    let mut after = backend::http::metrics::render(&app.state);
    // On PostgreSQL a round steps aside while any older transaction of the cluster is open
    // (other tests' databases share the cluster): more commands, until one commits with its
    // round. SQLite's first does.
    let attempts = match engine {
        Engine::Sqlite => 1,
        Engine::Postgres => 50,
    };
    for _ in 1..attempts {
        if counter(&after, &projected) > counter(&before, &projected) {
            break;
        }
        new_folder_of_anna(&app).await;
        after = backend::http::metrics::render(&app.state);
    }
    assert!(
        counter(&after, &projected) > counter(&before, &projected),
        "{after}"
    );
    assert!(
        counter(&after, names::GROUP_COMMIT_COMMANDS_TOTAL)
            > counter(&before, names::GROUP_COMMIT_COMMANDS_TOTAL)
    );
    let folder = body["id"].as_str().expect("the new folder's id");
    let listed: i64 = on_db!(&app.state.db, pool => sqlx::query_scalar(
        "select count(*) from doc_items where id = $1").bind(folder).fetch_one(pool).await)
    .unwrap();
    assert_eq!(listed, 1, "projected before the answer");
}

/// A documents command's answer is read in the transaction that committed it, once the
/// projections applied it (`ReadBack`): counted, and the same item the list then shows.
async fn a_commands_answer_is_read_in_its_own_commit(engine: Engine) {
    use crate::helpers::{json_of, ANNA};
    use projections::projector::group_commit_metric_names as names;
    let Some(app) = spawn_app(engine).await else {
        return;
    };
    let read_backs = |app: &TestApp| {
        counter(
            &backend::http::metrics::render(&app.state),
            names::GROUP_COMMIT_READ_BACKS_TOTAL,
        )
    };
    let before = read_backs(&app);
    // As above: on PostgreSQL another test's open transaction can make a round step aside.
    let mut answered = Vec::new();
    for _ in 0..50 {
        answered.push(new_folder_of_anna(&app).await);
        if read_backs(&app) > before {
            break;
        }
    }
    assert!(
        read_backs(&app) > before,
        "no answer was read in its commit"
    );
    let anna = app.token(ANNA).await;
    let (status, list) = json_of(app.get("/documents?type=my", Some(&anna)).await).await;
    assert!(status.is_success(), "{status} {list}");
    for body in answered {
        let listed = list["list"]
            .as_array()
            .and_then(|items| items.iter().find(|item| item["id"] == body["id"]))
            .unwrap_or_else(|| panic!("{body} not in {list}"));
        assert_eq!(listed, &body, "the answer is the item as listed");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_commands_answer_is_read_in_its_own_commit_sqlite() {
    a_commands_answer_is_read_in_its_own_commit(Engine::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_commands_answer_is_read_in_its_own_commit_postgres() {
    a_commands_answer_is_read_in_its_own_commit(Engine::Postgres).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_through_the_api_is_committed_with_its_projections_sqlite() {
    a_command_through_the_api_is_committed_with_its_projections(Engine::Sqlite).await;
}

/// On PostgreSQL the round starts with one statement of its own
/// (`group_commit::POSTGRES_ROUND_START`): a failure of it would leave every command committed
/// without the projections.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_through_the_api_is_committed_with_its_projections_postgres() {
    a_command_through_the_api_is_committed_with_its_projections(Engine::Postgres).await;
}

/// On PostgreSQL the projector's loop commits commands on a connection of its own (named for
/// `pg_stat_activity`), and the projector runs on a thread of its own, away from the requests'
/// runtime (see `backend/src/realtime/projector_thread.rs`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_is_committed_on_the_projectors_own_thread_and_connection_postgres() {
    let Some(app) = spawn_app(Engine::Postgres).await else {
        return;
    };
    new_folder_of_anna(&app).await;
    let projections::Db::Postgres { pool } = &app.state.db else {
        panic!("a PostgreSQL app");
    };
    let commit_connections: i64 = sqlx::query_scalar(
        "select count(*) from pg_stat_activity
          where datname = current_database() and application_name = $1",
    )
    .bind(projections::projector::COMMIT_CONNECTION_NAME)
    .fetch_one(pool)
    .await
    .unwrap();
    assert_eq!(commit_connections, 1, "the group commits' own connection");
    let threads: Vec<String> = std::fs::read_dir("/proc/self/task")
        .unwrap()
        .filter_map(|task| std::fs::read_to_string(task.ok()?.path().join("comm")).ok())
        .map(|name| name.trim().to_string())
        .collect();
    assert!(
        threads
            .iter()
            .any(|name| name == backend::realtime::projector_thread::THREAD_NAME),
        "{threads:?}"
    );
}

// A share's live projection reads only what its round does not hold. With the rows the round
// before kept (the item and its shares; the recipient's mark: the item was made while they
// were kept), it reads the feed numbers of those it concerns (who already sees the item, and
// the recipient: never kept, other projections number the same feeds) and the recipient's
// badge: two statements on SQLite, one on PostgreSQL, where the two are one statement (each is
// a round trip inside the group commit). A round that finds nothing kept (the one before was
// the projector's own, as when an older transaction of the cluster was open on PostgreSQL)
// also reads the item, its shares and the mark: five statements on SQLite, three on
// PostgreSQL. A read split in two again shows here.
crate::both_dbs! {
    async fn a_share_is_projected_with_the_reads_of_what_its_round_does_not_hold(app) {
        use crate::documents::{new_file, post};
        let anna = app.token(ANNA).await;
        let file = new_file(&app, &anna, "Counted share", None).await;
        // Someone sees the item already: their feed number is read as well.
        let (status, body) = post(&app, &anna, "/documents/share", serde_json::json!({ "email": MARCO, "file": file })).await;
        assert!(status.is_success(), "{status} {body}");
        let reads = format!("{}{{kind=\"read\"}}", projections::documents::projection::STATEMENTS_TOTAL);
        let before = counter(&backend::http::metrics::render(&app.state), &reads);
        let (status, body) = post(&app, &anna, "/documents/share", serde_json::json!({ "email": JOHN, "file": file })).await;
        assert!(status.is_success(), "{status} {body}");
        let after = counter(&backend::http::metrics::render(&app.state), &reads);
        let (kept, read_again) = match app.state.db.kind() {
            projections::DbKind::Postgres => (1.0, 3.0),
            projections::DbKind::Sqlite => (2.0, 5.0),
        };
        let expected = if after - before == read_again { read_again } else { kept };
        assert_eq!(after - before, expected, "reads of the share's batch");
    }
}

// A share's batch writes a share, an unread mark, a badge, version rows and feed rows: sent
// together, as one text of statements on SQLite (one hand-over to the connection's thread
// instead of one a statement; five before) and as one statement on PostgreSQL.
crate::both_dbs! {
    async fn a_shares_writes_are_sent_together(app) {
        use crate::documents::{new_file, post};
        let anna = app.token(ANNA).await;
        let file = new_file(&app, &anna, "Shared at once", None).await;
        let writes = format!("{}{{kind=\"write\"}}", projections::documents::projection::STATEMENTS_TOTAL);
        let before = counter(&backend::http::metrics::render(&app.state), &writes);
        let (status, body) = post(&app, &anna, "/documents/share", serde_json::json!({ "email": JOHN, "file": file })).await;
        assert!(status.is_success(), "{status} {body}");
        let after = counter(&backend::http::metrics::render(&app.state), &writes);
        // Every part writes another table: one statement on PostgreSQL as well.
        assert_eq!(after - before, 1.0, "statements that wrote the share's batch");
    }
}

/// On PostgreSQL a command committed while an older transaction of the cluster is open is
/// stored at once, but not projected in its commit (that transaction could still commit events
/// that sort before it): the projector applies it once the older transaction has ended, and only
/// then is the command answered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_behind_an_open_transaction_is_stored_then_projected_postgres() {
    let Some(app) = spawn_app(Engine::Postgres).await else {
        return;
    };
    let db = app.state.db.clone();
    create_tables(&db).await;
    let projections::Db::Postgres { pool } = &db else {
        panic!("a PostgreSQL app");
    };
    let projection: Arc<dyn Projection> = Arc::new(SeenProjection);
    let projector = Projector::new(db.clone(), vec![projection])
        .with_command_wait(std::time::Duration::from_secs(120));
    let store = Arc::new(EventStore::<Counter>::new(&db, (), projector.handle()));
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(projector.run(async {
        let _ = stopped.await;
    }));
    store
        .execute("first", CounterCommand::Add(1), Metadata::by("w"))
        .await
        .unwrap();
    let count = |table: &'static str, id: &'static str| {
        let db = db.clone();
        async move {
            let sql = match table {
                "events" => "select count(*) from events where aggregate_type = 'test_counter' and aggregate_id = $1",
                _ => "select count(*) from test_seen where aggregate_id = $1",
            };
            let n: i64 =
                on_db!(&db, pool => sqlx::query_scalar(sql).bind(id).fetch_one(pool).await)
                    .unwrap();
            n
        }
    };
    assert_eq!(count("test_seen", "first").await, 1);

    // An older transaction with an id of its own, still open.
    let mut older = pool.begin().await.unwrap();
    sqlx::query("select pg_current_xact_id()")
        .execute(&mut *older)
        .await
        .unwrap();
    let command = tokio::spawn({
        let store = store.clone();
        async move {
            store
                .execute("behind", CounterCommand::Add(2), Metadata::by("w"))
                .await
        }
    });
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(60);
    while count("events", "behind").await == 0 {
        assert!(tokio::time::Instant::now() < deadline, "never stored");
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert!(!command.is_finished(), "answered before it was projected");
    assert_eq!(
        count("test_seen", "behind").await,
        0,
        "projected past an open older transaction"
    );

    older.rollback().await.unwrap();
    command.await.unwrap().expect("answered once projected");
    assert_eq!(count("test_seen", "behind").await, 1);
    // The commit that could not project was rolled back and appended again without its
    // round: the command's event is stored once.
    assert_eq!(count("events", "behind").await, 1);
    let _ = stop.send(());
    running.await.unwrap();
}

fn new_event(aggregate_id: &str, sequence: i64) -> projections::projector::NewEvent {
    projections::projector::NewEvent {
        aggregate_type: "test_batch".into(),
        aggregate_id: aggregate_id.into(),
        sequence,
        event_type: "Happened".into(),
        event_version: "1".into(),
        payload: format!(r#"{{"n": {sequence}}}"#),
        metadata: r#"{"user_id": "u"}"#.into(),
    }
}

fn append_of(
    aggregate_id: &str,
    sequences: std::ops::RangeInclusive<i64>,
    snapshot: Option<i64>,
) -> projections::projector::Append {
    let events: Vec<_> = sequences.map(|s| new_event(aggregate_id, s)).collect();
    let last_sequence = events.last().map_or(0, |e| e.sequence);
    projections::projector::Append {
        events,
        snapshot: snapshot.map(|current| projections::projector::SnapshotUpdate {
            aggregate_type: "test_batch".into(),
            aggregate_id: aggregate_id.into(),
            last_sequence,
            current_snapshot: current,
            payload: r#"{"total": 1}"#.into(),
        }),
        read_back: None,
    }
}

/// The stored sequences of aggregate `id` of `test_batch`, with their global positions.
async fn stored_of(db: &projections::Db, id: &str) -> Vec<(i64, i64)> {
    let position = match db.kind() {
        projections::DbKind::Postgres => "global_position",
        projections::DbKind::Sqlite => "rowid",
    };
    let sql = format!(
        "select sequence, cast({position} as bigint) from events
          where aggregate_type = 'test_batch' and aggregate_id = $1 order by sequence"
    );
    on_db!(db, pool => sqlx::query_as(&sql).bind(id).fetch_all(pool).await).unwrap()
}

/// The loop's batch append: one statement for every command's events. A command whose sequence
/// is taken, in full or in part, or whose snapshot moved, keeps nothing of what it wrote and is
/// answered a conflict; the others commit, each command's events in the order of their
/// sequences; two commands on one aggregate are not written together at all.
async fn commands_appended_together_keep_nothing_of_a_lost_race(db: projections::Db) {
    use projections::projector::{append_together, CommitError};
    // Taken before the batch: `taken` 1 and `partly` 2.
    let mut tx = Tx::begin(&db).await.unwrap();
    let before = [
        append_of("taken", 1..=1, None),
        append_of("partly", 2..=2, None),
    ];
    let outcomes = append_together(&mut tx, &before.iter().collect::<Vec<_>>())
        .await
        .unwrap()
        .expect("different aggregates go together");
    assert!(outcomes.iter().all(|o| o.is_ok()), "{outcomes:?}");
    tx.commit().await.unwrap();

    let batch = [
        append_of("fresh", 1..=3, None),
        append_of("taken", 1..=1, None),
        append_of("partly", 1..=2, None),
        // A later snapshot of an aggregate that has none: another command moved it.
        append_of("moved", 1..=1, Some(2)),
        append_of("first", 1..=1, Some(1)),
    ];
    let mut tx = Tx::begin(&db).await.unwrap();
    let outcomes = append_together(&mut tx, &batch.iter().collect::<Vec<_>>())
        .await
        .unwrap()
        .expect("different aggregates go together");
    tx.commit().await.unwrap();
    let conflict =
        |o: &Result<projections::Position, CommitError>| matches!(o, Err(CommitError::Conflict));
    assert!(outcomes[0].is_ok(), "{outcomes:?}");
    assert!(conflict(&outcomes[1]), "{outcomes:?}");
    assert!(conflict(&outcomes[2]), "{outcomes:?}");
    assert!(conflict(&outcomes[3]), "{outcomes:?}");
    assert!(outcomes[4].is_ok(), "{outcomes:?}");

    let fresh = stored_of(&db, "fresh").await;
    assert_eq!(
        fresh.iter().map(|(s, _)| *s).collect::<Vec<_>>(),
        vec![1, 2, 3]
    );
    assert!(
        fresh.windows(2).all(|w| w[0].1 < w[1].1),
        "in the stream in the order of their sequences: {fresh:?}"
    );
    let answered = outcomes[0].as_ref().unwrap();
    assert_eq!(
        answered.position, fresh[2].1,
        "answered with its last event"
    );
    assert_eq!(
        stored_of(&db, "taken").await.len(),
        1,
        "only the earlier one"
    );
    assert_eq!(
        stored_of(&db, "partly")
            .await
            .iter()
            .map(|(s, _)| *s)
            .collect::<Vec<_>>(),
        vec![2],
        "the event it did write is gone again"
    );
    assert!(stored_of(&db, "moved").await.is_empty());
    assert_eq!(stored_of(&db, "first").await.len(), 1);
    let snapshots: Vec<String> = on_db!(&db, pool => sqlx::query_scalar(
        "select aggregate_id from snapshots where aggregate_type = 'test_batch' order by aggregate_id")
        .fetch_all(pool).await)
    .unwrap();
    assert_eq!(snapshots, vec!["first".to_string()]);

    // Two commands on one aggregate: nothing written, left to the one-by-one way.
    let same = [
        append_of("same", 1..=1, None),
        append_of("same", 1..=1, None),
    ];
    let mut tx = Tx::begin(&db).await.unwrap();
    let together = append_together(&mut tx, &same.iter().collect::<Vec<_>>())
        .await
        .unwrap();
    assert!(together.is_none());
    tx.commit().await.unwrap();
    assert!(stored_of(&db, "same").await.is_empty());
}

#[tokio::test]
async fn commands_appended_together_keep_nothing_of_a_lost_race_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let db = projections::Db::connect(&format!("sqlite://{}", dir.path().join("b.db").display()))
        .await
        .unwrap();
    commands_appended_together_keep_nothing_of_a_lost_race(db).await;
}

#[tokio::test]
async fn commands_appended_together_keep_nothing_of_a_lost_race_postgres() {
    let Some(pg) = PgDatabase::create().await else {
        return;
    };
    commands_appended_together_keep_nothing_of_a_lost_race(pg.db.clone()).await;
}

// The read-back of a group commit reads the items of all its commands in one statement: each
// pair gets its own viewer's row and shares, in the order asked, the same as the single read,
// and an item that is not there is `None`.
crate::both_dbs! {
    async fn the_read_back_of_several_commands_matches_the_single_reads(app) {
        use crate::documents::{new_file, new_folder, post};
        use projections::documents::read::{item_and_path_shares, items_and_path_shares};
        let anna = app.token(ANNA).await;
        let shared = new_folder(&app, &anna, "Shared with John", None).await;
        let inside = new_file(&app, &anna, "Inside", Some(&shared)).await;
        let private = new_folder(&app, &anna, "Anna only", None).await;
        let (status, body) = post(&app, &anna, "/folders/share", serde_json::json!({ "email": JOHN, "folder": shared })).await;
        assert!(status.is_success(), "{status} {body}");
        let user_id = |email: &'static str| {
            let db = app.state.db.clone();
            async move {
                backend::auth::User::find_by_email(&db, email).await.unwrap().unwrap().id
            }
        };
        let (anna_id, john_id) = (user_id(ANNA).await, user_id(JOHN).await);
        let pairs = [
            (john_id.as_str(), inside.as_str()),
            (anna_id.as_str(), private.as_str()),
            (anna_id.as_str(), "no-such-item"),
            (john_id.as_str(), private.as_str()),
            (anna_id.as_str(), inside.as_str()),
        ];
        let mut tx = Tx::read(&app.state.db).await.unwrap();
        let together = items_and_path_shares(&mut tx, &pairs).await.unwrap();
        assert_eq!(together.len(), pairs.len());
        for ((viewer, item), found) in pairs.iter().zip(&together) {
            let alone = item_and_path_shares(&mut tx, viewer, item).await.unwrap();
            let key = |f: &Option<(projections::documents::read::ItemRow, std::collections::HashSet<String>)>| {
                f.as_ref().map(|(row, shares)| {
                    let mut shares: Vec<_> = shares.iter().cloned().collect();
                    shares.sort();
                    (row.id.clone(), row.children, row.unread_mark, row.seen, row.path.clone(), shares)
                })
            };
            assert_eq!(key(found), key(&alone), "{viewer} reading {item}");
        }
        // John reaches the file through the folder shared with him; Anna's private folder has
        // no share of his on its path; the missing item is not there.
        let shares_of = |i: usize| together[i].as_ref().map(|(_, shares)| shares.clone());
        assert_eq!(shares_of(0), Some([shared.clone()].into_iter().collect()));
        assert_eq!(shares_of(3), Some(Default::default()));
        assert!(together[2].is_none());
        // The file that reached John through the share is unread for him, not for Anna.
        let unread = |i: usize| together[i].as_ref().map(|(row, _)| row.unread_mark);
        assert_eq!((unread(0), unread(4)), (Some(true), Some(false)));
    }
}

// The viewer's shares on an item's path are looked up by the shares' key, whatever the number
// of shares the viewer was given: PostgreSQL read them all through `doc_shares_user` and
// filtered them when the viewer had a few dozen (seen in the benchmark's read-backs).
crate::both_dbs! {
    async fn the_shares_on_an_items_path_are_read_by_their_key(app) {
        use crate::documents::{new_file, new_folder, post};
        use projections::documents::read::{item_and_path_shares, ITEM_AND_PATH_SHARES_POSTGRES};
        let anna = app.token(ANNA).await;
        let folder = new_folder(&app, &anna, "Shared with John", None).await;
        let file = new_file(&app, &anna, "Inside", Some(&folder)).await;
        let (status, body) = post(&app, &anna, "/folders/share", serde_json::json!({ "email": JOHN, "folder": folder })).await;
        assert!(status.is_success(), "{status} {body}");
        let john_id = backend::auth::User::find_by_email(&app.state.db, JOHN).await.unwrap().unwrap().id;
        // 760 other shares, on items elsewhere: 95 of them John's, 95 for each of seven others.
        on_db!(&app.state.db, pool => {
            sqlx::query(
                "with recursive g (n) as (select 1 union all select n + 1 from g where n < 760)
                 insert into doc_shares (item_id, user_id, shared_by, via, shared_at)
                 select 'elsewhere-' || n, case when n % 8 = 0 then $1 else 'someone-' || (n % 8) end,
                        'someone', 'internal', 0
                   from g",
            )
            .bind(&john_id)
            .execute(pool)
            .await
            .unwrap();
            sqlx::query("analyze").execute(pool).await.unwrap();
        });
        let mut tx = Tx::read(&app.state.db).await.unwrap();
        let (row, shares) = item_and_path_shares(&mut tx, &john_id, &file).await.unwrap().unwrap();
        assert_eq!(row.id, file);
        assert_eq!(shares, [folder.clone()].into_iter().collect());
        drop(tx);
        if let projections::Db::Postgres { pool } = &app.state.db {
            use sqlx::Row;
            let plan: Vec<String> = sqlx::query(&format!("explain {ITEM_AND_PATH_SHARES_POSTGRES}"))
                .bind(&john_id)
                .bind(&file)
                .fetch_all(pool)
                .await
                .unwrap()
                .iter()
                .map(|r| r.get::<String, _>(0))
                .collect();
            let plan = plan.join("\n");
            assert!(plan.contains("doc_shares_pkey"), "{plan}");
            assert!(!plan.contains("doc_shares_user"), "{plan}");
        }
    }
}
