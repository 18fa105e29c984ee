//! Streams that stay short: a command on a document opened 20,000 times reads the item's latest
//! snapshot and a bounded number of events, not its whole stream. And items kept between
//! commands: a command decides on the item as the store holds it, also when another node (or a
//! tool) appended to it since the server last saw it.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use backend::documents::operations::ITEM_SNAPSHOT_EVERY;
use cqrs_es::persist::{
    PersistedEventRepository, PersistedEventStore, PersistenceError, ReplayStream, SerializedEvent,
    SerializedSnapshot,
};
use cqrs_es::{Aggregate, EventStore};
use events::documents::{Item, ITEM_TYPE};
use postgres_es::PostgresEventRepository;
use reqwest::StatusCode;
use serde_json::{json, Value};
use sqlite_es::SqliteEventRepository;

use crate::both_dbs;
use crate::documents::{new_file, new_folder, post};
use crate::helpers::ANNA;

/// A repository that counts the events it hands out.
struct Counting<R> {
    inner: R,
    events: Arc<AtomicUsize>,
}

impl<R: PersistedEventRepository> PersistedEventRepository for Counting<R> {
    async fn get_events<A: Aggregate>(
        &self,
        id: &str,
    ) -> Result<Vec<SerializedEvent>, PersistenceError> {
        let events = self.inner.get_events::<A>(id).await?;
        self.events.fetch_add(events.len(), Ordering::SeqCst);
        Ok(events)
    }

    async fn get_last_events<A: Aggregate>(
        &self,
        id: &str,
        last_sequence: usize,
    ) -> Result<Vec<SerializedEvent>, PersistenceError> {
        let events = self.inner.get_last_events::<A>(id, last_sequence).await?;
        self.events.fetch_add(events.len(), Ordering::SeqCst);
        Ok(events)
    }

    async fn get_snapshot<A: Aggregate>(
        &self,
        id: &str,
    ) -> Result<Option<SerializedSnapshot>, PersistenceError> {
        self.inner.get_snapshot::<A>(id).await
    }

    async fn persist<A: Aggregate>(
        &self,
        events: &[SerializedEvent],
        snapshot_update: Option<(String, Value, usize)>,
    ) -> Result<(), PersistenceError> {
        self.inner.persist::<A>(events, snapshot_update).await
    }

    async fn stream_events<A: Aggregate>(
        &self,
        id: &str,
    ) -> Result<ReplayStream, PersistenceError> {
        self.inner.stream_events::<A>(id).await
    }

    async fn stream_all_events<A: Aggregate>(&self) -> Result<ReplayStream, PersistenceError> {
        self.inner.stream_all_events::<A>().await
    }
}

/// Loads the item with or without snapshots; returns the item and how many events were read.
async fn load(db: &projections::Db, id: &str, snapshots: bool) -> (Item, usize) {
    let counter = Arc::new(AtomicUsize::new(0));
    macro_rules! load_with {
        ($repo:expr) => {{
            let repo = Counting {
                inner: $repo,
                events: counter.clone(),
            };
            let store: PersistedEventStore<_, Item> = if snapshots {
                PersistedEventStore::new_snapshot_store(repo, ITEM_SNAPSHOT_EVERY)
            } else {
                PersistedEventStore::new_event_store(repo)
            };
            store.load_aggregate(id).await.expect("load").aggregate
        }};
    }
    let item = match db {
        projections::Db::Sqlite { pool, .. } => {
            load_with!(SqliteEventRepository::new(pool.clone()))
        }
        projections::Db::Postgres { pool } => {
            load_with!(PostgresEventRepository::new(pool.clone()))
        }
    };
    (item, counter.load(Ordering::SeqCst))
}

both_dbs! {
    async fn a_command_on_an_item_opened_20000_times_reads_a_bounded_number_of_events(app) {
        let anna = app.token(ANNA).await;
        let file = new_file(&app, &anna, "Catalogue", None).await;
        let anna_id = backend::auth::User::find_by_email(&app.state.db, ANNA).await.unwrap().unwrap().id;
        let (last, version): (i64, String) = projections::on_db!(&app.state.db, pool => sqlx::query_as(
            "select sequence, event_version from events where aggregate_type = $1 and aggregate_id = $2
              order by sequence desc limit 1")
            .bind(ITEM_TYPE).bind(&file).fetch_one(pool).await).unwrap();

        // 20,000 opens in all, appended as the open command appends them (the next command is
        // the 20,000th event, where cqrs-es writes a snapshot).
        let upto: i64 = 19_999;
        let payload = json!({ "Opened": { "by": anna_id } }).to_string();
        let metadata = json!({ "user_id": anna_id }).to_string();
        let insert = |payload_type: &str| format!(
            "with recursive n(i) as (select cast($1 as bigint) union all select i + 1 from n where i < $2)
             insert into events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata)
             select $3, $4, i, 'Opened', $5, {payload_type}, {} from n",
            payload_type.replace("$6", "$7"));
        match &app.state.db {
            projections::Db::Sqlite { pool, .. } => sqlx::query(&insert("$6"))
                .bind(last + 1).bind(upto).bind(ITEM_TYPE).bind(&file).bind(&version).bind(&payload).bind(&metadata)
                .execute(pool).await.unwrap().rows_affected(),
            projections::Db::Postgres { pool } => sqlx::query(&insert("cast($6 as json)"))
                .bind(last + 1).bind(upto).bind(ITEM_TYPE).bind(&file).bind(&version).bind(&payload).bind(&metadata)
                .execute(pool).await.unwrap().rows_affected(),
        };
        let (_, read_without) = load(&app.state.db, &file, false).await;
        assert_eq!(read_without, 19_999, "the whole stream");
        // The opens went in beside the commands: the projections apply them before the renames,
        // whose answers would otherwise wait for all 20,000 within a request's time.
        let head = projections::stream::head(&app.state.db).await.unwrap().unwrap();
        assert!(
            app.state.projector.wait_for(head, std::time::Duration::from_secs(600)).await,
            "the projections applied the inserted opens"
        );

        // Two renames: the first still reads the whole stream and writes the snapshot, the
        // second reads the snapshot and the events after it.
        for name in ["Catalogue 2026", "Catalogue 2027"] {
            let (status, body) = post(&app, &anna, &format!("/folders/{file}"), json!({ "name": name })).await;
            assert_eq!(status, StatusCode::OK, "{body}");
        }
        let (from_snapshot, read_with) = load(&app.state.db, &file, true).await;
        assert!(read_with <= ITEM_SNAPSHOT_EVERY, "{read_with} events read");
        let (whole, read_without) = load(&app.state.db, &file, false).await;
        assert_eq!(read_without, 20_001);
        assert_eq!(from_snapshot, whole, "the snapshot plus the events give the same item");
    }
}

/// Appends a `Renamed` event to item `id` after its last one, as another node would (this
/// server's store does not see it), and waits until the projections applied it.
async fn renamed_elsewhere(app: &crate::helpers::TestApp, id: &str, from: &str, to: &str) {
    let (last, version, metadata): (i64, String, String) =
        projections::on_db!(&app.state.db, pool => sqlx::query_as(
        "select sequence, event_version, cast(metadata as text) from events
          where aggregate_type = $1 and aggregate_id = $2 order by sequence desc limit 1")
        .bind(ITEM_TYPE).bind(id).fetch_one(pool).await)
        .unwrap();
    let payload = json!({ "Renamed": { "from": from, "to": to, "file_name": null } });
    let metadata: Value = serde_json::from_str(&metadata).unwrap();
    // JSON binds as the column's type on either engine (text on SQLite, json on PostgreSQL).
    projections::on_db!(&app.state.db, pool => sqlx::query(
        "insert into events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata)
         values ($1, $2, $3, 'Renamed', $4, $5, $6)")
        .bind(ITEM_TYPE).bind(id).bind(last + 1).bind(&version)
        .bind(sqlx::types::Json(&payload)).bind(sqlx::types::Json(&metadata))
        .execute(pool).await.map(|_| ()))
    .unwrap();
    let head = projections::stream::head(&app.state.db)
        .await
        .unwrap()
        .unwrap();
    assert!(
        app.state
            .projector
            .wait_for(head, std::time::Duration::from_secs(60))
            .await,
        "the projections applied the event appended elsewhere"
    );
}

/// The names item `id`'s `Renamed` events gave it, in order, and the sequences of all its events.
async fn renames_of(app: &crate::helpers::TestApp, id: &str) -> (Vec<String>, Vec<i64>) {
    let rows: Vec<(i64, String, String)> =
        projections::on_db!(&app.state.db, pool => sqlx::query_as(
        "select sequence, event_type, cast(payload as text) from events
          where aggregate_type = $1 and aggregate_id = $2 order by sequence")
        .bind(ITEM_TYPE).bind(id).fetch_all(pool).await)
        .unwrap();
    let names = rows
        .iter()
        .filter(|(_, kind, _)| kind == "Renamed")
        .map(|(_, _, payload)| {
            let payload: Value = serde_json::from_str(payload).unwrap();
            payload["Renamed"]["to"].as_str().unwrap().to_string()
        })
        .collect();
    (
        names,
        rows.iter().map(|(sequence, _, _)| *sequence).collect(),
    )
}

both_dbs! {
    async fn a_command_decides_on_the_item_as_stored_after_another_node_changed_it(app) {
        let anna = app.token(ANNA).await;
        let folder = new_folder(&app, &anna, "Visit notes", None).await;
        let rename = |name: &'static str| {
            let (app, anna, path) = (&app, anna.clone(), format!("/folders/{folder}"));
            async move { post(app, &anna, &path, json!({ "name": name })).await }
        };
        let (status, body) = rename("Visits").await;
        assert_eq!(status, StatusCode::OK, "{body}");

        // Nothing to record on the item this server saw last ("Visits"), but the item as
        // stored is called "Visit reports": the rename is decided again, on that, and recorded.
        renamed_elsewhere(&app, &folder, "Visits", "Visit reports").await;
        let (status, body) = rename("Visits").await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["title"], "Visits", "{body}");
        let (names, sequences) = renames_of(&app, &folder).await;
        assert_eq!(names, ["Visits", "Visit reports", "Visits"]);
        assert_eq!(sequences, [1, 2, 3, 4]);

        // Recorded on the item this server saw last: its sequence is taken, and the rename is
        // made again on the item as stored, after the other node's.
        renamed_elsewhere(&app, &folder, "Visits", "Visit log").await;
        let (status, body) = rename("Field visits").await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["title"], "Field visits", "{body}");
        let (names, sequences) = renames_of(&app, &folder).await;
        assert_eq!(names, ["Visits", "Visit reports", "Visits", "Visit log", "Field visits"]);
        assert_eq!(sequences, [1, 2, 3, 4, 5, 6]);
    }
}
