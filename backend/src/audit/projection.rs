//! The auditor's read models, from `document_item` events: `audit_items` (every item there ever
//! was, deleted ones kept with when and by whom) and `audit_activity` (every event, keyed by its
//! global position). A batch is read and written in a few statements: the rows of the items it
//! touches in one read, then every changed item and every activity row in multi-row writes.
//! Times come from the events (`recorded_at`), never the clock, so a rebuild compares equal.

use std::collections::{BTreeMap, HashSet};

use async_trait::async_trait;
use events::documents::{CopyReason, ItemEvent, Kind, Space, ITEM_TYPE};
use projections::db::DbKind;
use projections::projector::Kept;
use projections::{
    on_tx, BatchFailure, CheckpointState, Projection, ProjectionError, StoredEvent, TableSpec, Tx,
};

use crate::documents::describe;
use crate::documents::SYSTEM_USER;

pub const PROJECTION_NAME: &str = "audit";

const TABLES: &[TableSpec] = &[
    TableSpec {
        name: "audit_items",
        order_by: "id",
    },
    TableSpec {
        name: "audit_activity",
        order_by: "position",
    },
];

/// Parameters per statement at most (SQLite allows 32,766, PostgreSQL 65,535).
const PARAMS_PER_STATEMENT: usize = 30_000;

/// The projection. Between the live rounds of group commits it keeps the `audit_items` rows its
/// last batch knew (as the documents projection keeps its own, see
/// `projections::documents::LiveDocumentsProjection`): they stand for the table as long as the
/// checkpoint is where that batch left it, in the same generation, and are used only once
/// that batch's transaction committed.
#[derive(Default)]
pub struct AuditProjection {
    kept: Kept<BTreeMap<String, Option<ItemRow>>>,
}

/// Rows kept at most between rounds (a few hundred bytes each): a batch writes only the rows it
/// changed, so what it holds costs memory, not time.
const KEPT_ROWS: usize = 4_096;

/// A row of `audit_items`.
#[derive(Debug, Clone, Default, PartialEq, Eq, sqlx::FromRow)]
struct ItemRow {
    id: String,
    kind: String,
    format: Option<String>,
    space: String,
    owner_id: Option<String>,
    owner_name: Option<String>,
    name: String,
    name_key: String,
    created_at: i64,
    created_by: String,
    updated_at: i64,
    deleted_at: Option<i64>,
    deleted_by: Option<String>,
}

/// A row of `audit_activity`.
#[derive(Default)]
struct ActivityRow {
    position: i64,
    at: i64,
    actor_id: String,
    action: &'static str,
    item_id: String,
    item_kind: String,
    item_name: String,
    detail: String,
}

enum Value<'a> {
    Text(Option<&'a str>),
    Int(Option<i64>),
}

impl ItemRow {
    fn values(&self) -> Vec<Value<'_>> {
        use Value::{Int, Text};
        vec![
            Text(Some(&self.id)),
            Text(Some(&self.kind)),
            Text(self.format.as_deref()),
            Text(Some(&self.space)),
            Text(self.owner_id.as_deref()),
            Text(self.owner_name.as_deref()),
            Text(Some(&self.name)),
            Text(Some(&self.name_key)),
            Int(Some(self.created_at)),
            Text(Some(&self.created_by)),
            Int(Some(self.updated_at)),
            Int(self.deleted_at),
            Text(self.deleted_by.as_deref()),
        ]
    }
}

impl ActivityRow {
    fn values(&self) -> Vec<Value<'_>> {
        use Value::{Int, Text};
        vec![
            Int(Some(self.position)),
            Int(Some(self.at)),
            Text(Some(&self.actor_id)),
            Text(Some(self.action)),
            Text(Some(&self.item_id)),
            Text(Some(&self.item_kind)),
            Text(Some(&self.item_name)),
            Text(Some(&self.detail)),
        ]
    }
}

/// The name as searched: lower case, folded the same way on both engines.
pub fn name_key(name: &str) -> String {
    name.to_lowercase()
}

/// What a batch has read and changed.
#[derive(Default)]
struct Batch {
    /// The items the batch touches, as they are now (`None`: not in the table).
    items: BTreeMap<String, Option<ItemRow>>,
    changed: HashSet<String>,
    activity: Vec<ActivityRow>,
}

impl Batch {
    fn create(&mut self, row: ItemRow) {
        self.changed.insert(row.id.clone());
        self.items.insert(row.id.clone(), Some(row));
    }

    /// Applies one event: the item's row, and one activity row.
    fn apply(&mut self, event: &StoredEvent) -> Result<(), ProjectionError> {
        let decoded: ItemEvent = event
            .decode()
            .map_err(|e| ProjectionError::bad_event(event, e))?;
        let id = event.aggregate_id.as_str();
        let at = event.recorded_at;
        let actor = event
            .meta("user_id")
            .unwrap_or_else(|| SYSTEM_USER.to_string());
        let new_row = |kind: Kind,
                       format: Option<String>,
                       space: Space,
                       owner: Option<&events::documents::UserRef>,
                       name: &str| ItemRow {
            id: id.to_string(),
            kind: kind.as_str().to_string(),
            format,
            space: space.as_str().to_string(),
            owner_id: owner.map(|o| o.id.clone()),
            owner_name: owner.map(|o| o.name.clone()),
            name: name.to_string(),
            name_key: name_key(name),
            created_at: at,
            created_by: actor.clone(),
            updated_at: at,
            deleted_at: None,
            deleted_by: None,
        };
        match &decoded {
            ItemEvent::FolderCreated {
                space, owner, name, ..
            } => self.create(new_row(Kind::Folder, None, *space, owner.as_ref(), name)),
            ItemEvent::FileUploaded {
                space, owner, file, ..
            } => self.create(new_row(
                Kind::File,
                Some(file.format.extension().to_string()),
                *space,
                owner.as_ref(),
                &file.title,
            )),
            ItemEvent::Copied {
                kind,
                owner,
                name,
                file,
                ..
            } => self.create(new_row(
                *kind,
                file.as_ref().map(|f| f.format.extension().to_string()),
                Space::My,
                Some(owner),
                name,
            )),
            ItemEvent::Renamed { to, .. } => self.change(id, |row| {
                row.name = to.clone();
                row.name_key = name_key(to);
                row.updated_at = at;
            }),
            ItemEvent::Moved { .. } | ItemEvent::Shared { .. } | ItemEvent::Withdrawn { .. } => {
                self.change(id, |row| row.updated_at = at)
            }
            ItemEvent::FileReplaced { file, .. } => self.change(id, |row| {
                row.name = file.title.clone();
                row.name_key = name_key(&file.title);
                row.updated_at = at;
            }),
            ItemEvent::FolderDeleted { .. }
            | ItemEvent::FileRemoved { .. }
            | ItemEvent::DeletedWithFolder { .. } => self.change(id, |row| {
                row.updated_at = at;
                row.deleted_at = Some(at);
                row.deleted_by = Some(actor.clone());
            }),
            ItemEvent::SharedExternally { .. }
            | ItemEvent::SavedToMyDocs { .. }
            | ItemEvent::MovedToMyDocs { .. }
            | ItemEvent::Opened { .. }
            | ItemEvent::Downloaded { .. } => {}
        }
        let line = describe(&decoded);
        // A copy tells its own side of the copy.
        let action = match &decoded {
            ItemEvent::Copied {
                reason: CopyReason::Save,
                ..
            } => "saved_to_mydocs",
            ItemEvent::Copied {
                reason: CopyReason::Move,
                ..
            } => "moved_to_mydocs",
            _ => line.action,
        };
        let (item_kind, item_name) = match self.items.get(id).and_then(Option::as_ref) {
            Some(row) => (row.kind.clone(), row.name.clone()),
            // An item whose creation the stream never held (not possible from the API).
            None => (Kind::File.as_str().to_string(), String::new()),
        };
        self.activity.push(ActivityRow {
            position: event.at.position,
            at,
            actor_id: actor,
            action,
            item_id: id.to_string(),
            item_kind,
            item_name,
            detail: line.detail,
        });
        Ok(())
    }

    fn change(&mut self, id: &str, change: impl FnOnce(&mut ItemRow)) {
        if let Some(Some(row)) = self.items.get_mut(id) {
            change(row);
            self.changed.insert(id.to_string());
        }
    }

    /// Reads the rows of the items `ids` not known yet (one statement per few thousand ids).
    async fn load(&mut self, tx: &mut Tx, ids: &[&str]) -> Result<(), ProjectionError> {
        let kind = tx.kind();
        let ids: Vec<&str> = ids
            .iter()
            .copied()
            .filter(|id| !self.items.contains_key(*id))
            .collect();
        for chunk in ids.chunks(PARAMS_PER_STATEMENT) {
            let sql = format!(
                "select id, kind, format, space, owner_id, owner_name, name, name_key, created_at,
                        created_by, updated_at, deleted_at, deleted_by
                   from audit_items where id in ({})",
                placeholders(kind, 0, chunk.len())
            );
            let rows: Vec<ItemRow> = on_tx!(tx, c => {
                let mut q = sqlx::query_as::<_, ItemRow>(&sql).persistent(projections::db::keep_prepared(chunk.len()));
                for id in chunk {
                    q = q.bind(*id);
                }
                q.fetch_all(c).await
            })?;
            for id in chunk {
                self.items.entry(id.to_string()).or_insert(None);
            }
            for row in rows {
                self.items.insert(row.id.clone(), Some(row));
            }
        }
        Ok(())
    }

    /// Writes the changed items and the new activity rows.
    async fn write(&self, tx: &mut Tx) -> Result<(), ProjectionError> {
        // The changed rows only, in the table's key order: the batch may hold thousands kept
        // from earlier rounds.
        let mut changed: Vec<&String> = self.changed.iter().collect();
        changed.sort_unstable();
        let items: Vec<Vec<Value<'_>>> = changed
            .into_iter()
            .filter_map(|id| self.items.get(id).and_then(Option::as_ref))
            .map(ItemRow::values)
            .collect();
        let activity: Vec<Vec<Value<'_>>> = self.activity.iter().map(ActivityRow::values).collect();
        match tx {
            Tx::Postgres(t) => return write_items_and_activity(t, &items, &activity).await,
            Tx::PostgresReads(c) => return write_items_and_activity(c, &items, &activity).await,
            Tx::Sqlite(c) => {
                write_rows_sqlite(
                    c,
                    &[
                        (ITEMS_HEAD, ITEMS_TAIL, &items[..]),
                        (ACTIVITY_HEAD, ACTIVITY_TAIL, &activity[..]),
                    ],
                )
                .await
            }
        }
    }
}

/// The statements' parts, shared by SQLite's multi-row text and PostgreSQL's arrays.
macro_rules! items_insert {
    () => {
        "insert into audit_items (id, kind, format, space, owner_id, owner_name,
    name, name_key, created_at, created_by, updated_at, deleted_at, deleted_by)"
    };
}
macro_rules! items_on_conflict {
    () => {
        " on conflict (id) do update set name = excluded.name,
    name_key = excluded.name_key, updated_at = excluded.updated_at,
    deleted_at = excluded.deleted_at, deleted_by = excluded.deleted_by"
    };
}
macro_rules! activity_insert {
    () => {
        "insert into audit_activity (position, at, actor_id, action, item_id,
    item_kind, item_name, detail)"
    };
}
macro_rules! activity_on_conflict {
    () => {
        " on conflict (position) do nothing"
    };
}

const ITEMS_HEAD: &str = concat!(items_insert!(), " values ");
const ITEMS_TAIL: &str = items_on_conflict!();
const ACTIVITY_HEAD: &str = concat!(activity_insert!(), " values ");
const ACTIVITY_TAIL: &str = activity_on_conflict!();

/// A batch's items and activity in one PostgreSQL statement whatever their number: each
/// column goes as an array, so the text is always the same and the connection keeps it
/// prepared (a text written for the rows at hand was parsed and planned again at most
/// commits). The items' insert is a data-modifying `WITH` part; the two parts write different
/// tables and neither reads the other's, so their order does not matter. An empty list is an
/// array of no rows.
const ITEMS_AND_ACTIVITY: &str = concat!(
    "with items_written as (",
    items_insert!(),
    " select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[],
        $6::text[], $7::text[], $8::text[], $9::bigint[], $10::text[], $11::bigint[],
        $12::bigint[], $13::text[])",
    items_on_conflict!(),
    ") ",
    activity_insert!(),
    " select * from unnest($14::bigint[], $15::bigint[], $16::text[], $17::text[], $18::text[],
        $19::text[], $20::text[], $21::text[])",
    activity_on_conflict!()
);

/// The items' columns (13) and then the activity's (8), each as one array of the rows' values.
#[derive(Debug, PartialEq)]
enum Column<'a> {
    Text(Vec<Option<&'a str>>),
    Int(Vec<Option<i64>>),
}

/// `rows` column by column; `kinds` (a blank row's values) says each column's type, also
/// when there are no rows (a column's values are all of one kind).
fn columns<'a>(rows: &[Vec<Value<'a>>], kinds: &[Value<'_>]) -> Vec<Column<'a>> {
    kinds
        .iter()
        .enumerate()
        .map(|(i, kind)| match kind {
            Value::Text(_) => Column::Text(
                rows.iter()
                    .map(|r| match r.get(i) {
                        Some(Value::Text(v)) => *v,
                        _ => None,
                    })
                    .collect(),
            ),
            Value::Int(_) => Column::Int(
                rows.iter()
                    .map(|r| match r.get(i) {
                        Some(Value::Int(v)) => *v,
                        _ => None,
                    })
                    .collect(),
            ),
        })
        .collect()
}

async fn write_items_and_activity(
    conn: &mut sqlx::PgConnection,
    items: &[Vec<Value<'_>>],
    activity: &[Vec<Value<'_>>],
) -> Result<(), ProjectionError> {
    if items.is_empty() && activity.is_empty() {
        return Ok(());
    }
    let mut all = columns(items, &ItemRow::default().values());
    all.extend(columns(activity, &ActivityRow::default().values()));
    let mut q = sqlx::query(ITEMS_AND_ACTIVITY);
    for column in &all {
        q = match column {
            Column::Text(v) => q.bind(v),
            Column::Int(v) => q.bind(v),
        };
    }
    q.execute(conn).await?;
    Ok(())
}

/// `n` parameters after the `skip` first, separated by commas. SQLite gets anonymous `?`
/// parameters (numbered ones are found by walking a list, quadratic in thousands).
fn placeholders(kind: DbKind, skip: usize, n: usize) -> String {
    (skip + 1..=skip + n)
        .map(|i| match kind {
            DbKind::Sqlite => "?".to_string(),
            DbKind::Postgres => format!("${i}"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// One SQLite text of statements and the rows whose values it binds, in order.
type SqliteText<'r, 'v> = (String, Vec<&'r [Vec<Value<'v>>]>);

/// `head (row), (row) ... tail` for each list of rows, as many rows per statement as fit, the
/// statements joined into as few texts as fit in [`PARAMS_PER_STATEMENT`] parameters: a live
/// batch's items and activity make one text, one hand-over to the connection's thread instead
/// of two. SQLite gets anonymous `?` parameters (numbered ones are found by walking a list,
/// quadratic in thousands), bound in the statements' order.
fn sqlite_texts<'r, 'v>(lists: &[(&str, &str, &'r [Vec<Value<'v>>])]) -> Vec<SqliteText<'r, 'v>> {
    let mut texts: Vec<SqliteText<'r, 'v>> = Vec::new();
    let mut params = 0;
    for (head, tail, rows) in lists {
        let Some(width) = rows.first().map(Vec::len) else {
            continue;
        };
        let tuple = format!("({})", placeholders(DbKind::Sqlite, 0, width));
        for chunk in rows.chunks((PARAMS_PER_STATEMENT / width).max(1)) {
            let sql = format!(
                "{head}{}{tail}",
                vec![tuple.as_str(); chunk.len()].join(", ")
            );
            let count = chunk.len() * width;
            match texts.last_mut() {
                Some((text, bound)) if params + count <= PARAMS_PER_STATEMENT => {
                    text.push_str(";\n");
                    text.push_str(&sql);
                    bound.push(chunk);
                    params += count;
                }
                _ => {
                    texts.push((sql, vec![chunk]));
                    params = count;
                }
            }
        }
    }
    texts
}

/// Runs [`sqlite_texts`] of `lists` on `conn`.
async fn write_rows_sqlite(
    conn: &mut sqlx::SqliteConnection,
    lists: &[(&str, &str, &[Vec<Value<'_>>])],
) -> Result<(), ProjectionError> {
    for (sql, bound) in sqlite_texts(lists) {
        let rows: usize = bound.iter().map(|rows| rows.len()).sum();
        // A few rows stay prepared; each number of rows is another text.
        let mut q = sqlx::query(&sql).persistent(projections::db::keep_prepared(rows));
        for value in bound.iter().flat_map(|rows| rows.iter().flatten()) {
            q = match *value {
                Value::Text(v) => q.bind(v),
                Value::Int(v) => q.bind(v),
            };
        }
        q.execute(&mut *conn).await?;
    }
    Ok(())
}

#[async_trait]
impl Projection for AuditProjection {
    fn name(&self) -> &'static str {
        PROJECTION_NAME
    }

    fn tables(&self) -> &'static [TableSpec] {
        TABLES
    }

    /// Reads and writes its own tables only.
    fn rebuilds_alone(&self) -> bool {
        true
    }

    fn reads(&self, aggregate_type: &str) -> bool {
        aggregate_type == ITEM_TYPE
    }

    async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> Result<(), ProjectionError> {
        self.apply_all(tx, &[event])
            .await
            .map_err(|failure| failure.error)
    }

    async fn apply_all(&self, tx: &mut Tx, events: &[&StoredEvent]) -> Result<(), BatchFailure> {
        self.kept.forget();
        apply_batch(tx, &mut Batch::default(), events).await
    }

    fn keeps_rows(&self) -> bool {
        true
    }

    async fn apply_from(
        &self,
        tx: &mut Tx,
        from: CheckpointState,
        events: &[&StoredEvent],
    ) -> Result<(), BatchFailure> {
        let items = self.kept.take_at(from).unwrap_or_default();
        let mut batch = Batch {
            items,
            ..Batch::default()
        };
        apply_batch(tx, &mut batch, events).await?;
        if batch.items.len() <= KEPT_ROWS {
            self.kept.hold(from.after(events), batch.items);
        }
        Ok(())
    }

    fn settled(&self, committed: bool) {
        self.kept.settled(committed);
    }
}

/// Applies the document events among `events` to `batch` (which may hold rows already) and
/// writes what they changed. An item's first event makes its row: nothing is read for it.
async fn apply_batch(
    tx: &mut Tx,
    batch: &mut Batch,
    events: &[&StoredEvent],
) -> Result<(), BatchFailure> {
    let whole = |error| BatchFailure { index: None, error };
    let ours: Vec<(usize, &StoredEvent)> = events
        .iter()
        .copied()
        .enumerate()
        .filter(|(_, e)| e.aggregate_type == ITEM_TYPE)
        .collect();
    if ours.is_empty() {
        return Ok(());
    }
    let mut seen = HashSet::new();
    let mut ids: Vec<&str> = Vec::new();
    for (_, event) in &ours {
        let id = event.aggregate_id.as_str();
        if !seen.insert(id) {
            continue;
        }
        if event.sequence == 1 {
            batch.items.entry(id.to_string()).or_insert(None);
        } else {
            ids.push(id);
        }
    }
    batch.load(tx, &ids).await.map_err(whole)?;
    for (index, event) in ours {
        batch.apply(event).map_err(|error| BatchFailure {
            index: Some(index),
            error,
        })?;
    }
    batch.write(tx).await.map_err(whole)
}

#[cfg(test)]
mod tests {
    use events::documents::ItemRef;
    use projections::{on_db, Db, Position};

    use super::*;

    async fn store(db: &Db, aggregate: &str, sequence: i64, event: &ItemEvent) {
        let payload = serde_json::to_string(event).unwrap();
        let kind = cqrs_es::DomainEvent::event_type(event);
        // PostgreSQL keeps the payload as `json`.
        let payload_value = match db {
            Db::Postgres { .. } => "cast($5 as json)",
            Db::Sqlite { .. } => "$5",
        };
        let sql = format!(
            "insert into events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata, recorded_at)
             values ($1, $2, $3, $4, '1.0', {payload_value}, '{{}}', $6)"
        );
        on_db!(db, pool => sqlx::query(&sql)
            .bind(ITEM_TYPE).bind(aggregate).bind(sequence).bind(&kind).bind(&payload)
            .bind(1_800_000_000_000 + sequence)
            .execute(pool).await.map(|_| ()))
        .unwrap();
    }

    /// Renames the item behind the projection's back.
    async fn rename_behind(db: &Db, name: &str) {
        on_db!(db, pool => sqlx::query("update audit_items set name = $1 where id = 'G'")
            .bind(name).execute(pool).await.map(|_| ()))
        .unwrap();
    }

    async fn name_of_g(db: &Db) -> String {
        on_db!(db, pool => sqlx::query_scalar("select name from audit_items where id = 'G'")
            .fetch_one(pool).await)
        .unwrap()
    }

    /// One round with `event`, from `from`: committed or rolled back.
    async fn round(
        db: &Db,
        audit: &AuditProjection,
        from: CheckpointState,
        event: &StoredEvent,
        commit: bool,
    ) -> CheckpointState {
        let mut tx = Tx::begin(db).await.unwrap();
        audit.apply_from(&mut tx, from, &[event]).await.unwrap();
        if commit {
            tx.commit().await.unwrap();
        } else {
            tx.rollback().await.unwrap();
        }
        audit.settled(commit);
        CheckpointState {
            position: event.at,
            generation: from.generation,
        }
    }

    #[tokio::test]
    async fn kept_rows_are_used_only_where_the_checkpoint_left_them_and_committed() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::connect(&format!("sqlite://{}", dir.path().join("a.db").display()))
            .await
            .unwrap();
        let created = ItemEvent::FolderCreated {
            id: "G".into(),
            space: Space::My,
            owner: None,
            parent: None,
            name: "Folder G".into(),
            seed_key: None,
        };
        store(&db, "G", 1, &created).await;
        for sequence in 2..=6 {
            let moved = ItemEvent::Moved {
                from: None,
                to: Some(ItemRef {
                    id: "F".into(),
                    name: "F".into(),
                }),
            };
            store(&db, "G", sequence, &moved).await;
        }
        let events = projections::stream::read_after(&db, Position::default(), 100)
            .await
            .unwrap();
        let audit = AuditProjection::default();
        let at = round(&db, &audit, CheckpointState::default(), &events[0], true).await;

        // Where the checkpoint was left, in the same generation: the kept row is written.
        rename_behind(&db, "behind").await;
        let at = round(&db, &audit, at, &events[1], true).await;
        assert_eq!(name_of_g(&db).await, "Folder G", "the kept row is used");

        // A swap moved the generation: the row is read again.
        rename_behind(&db, "behind").await;
        let swapped = CheckpointState {
            generation: 1,
            ..at
        };
        let at = round(&db, &audit, swapped, &events[2], true).await;
        assert_eq!(
            name_of_g(&db).await,
            "behind",
            "nothing kept is used after a swap"
        );

        // A round undone leaves nothing the next one uses (its batch was taken from what was
        // kept, and stands for a checkpoint the rollback did not move to).
        round(&db, &audit, at, &events[3], false).await;
        rename_behind(&db, "behind again").await;
        let at = round(&db, &audit, at, &events[3], true).await;
        assert_eq!(
            name_of_g(&db).await,
            "behind again",
            "nothing kept after a rollback"
        );

        // Applied another way (the projector's own round): nothing kept.
        let mut tx = Tx::begin(&db).await.unwrap();
        audit.apply_all(&mut tx, &[&events[4]]).await.unwrap();
        tx.rollback().await.unwrap();
        rename_behind(&db, "behind").await;
        round(&db, &audit, at, &events[4], true).await;
        assert_eq!(
            name_of_g(&db).await,
            "behind",
            "nothing kept after another way"
        );
    }

    /// A throw-away PostgreSQL database, or `None` where no server answers.
    async fn postgres_db() -> Option<(Db, String, String)> {
        use sqlx::Connection;
        let admin = std::env::var("TEST_DATABASE_URL")
            .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into());
        let mut conn = sqlx::PgConnection::connect(&admin).await.ok()?;
        let name = format!("audit_test_{}", uuid::Uuid::new_v4().simple());
        sqlx::query(&format!("create database {name}"))
            .execute(&mut conn)
            .await
            .unwrap();
        let mut url = url::Url::parse(&admin).unwrap();
        url.set_path(&format!("/{name}"));
        let db = Db::connect(url.as_str()).await.unwrap();
        Some((db, admin, name))
    }

    async fn drop_postgres_db(db: Db, admin: &str, name: &str) {
        use sqlx::Connection;
        db.close().await;
        let mut conn = sqlx::PgConnection::connect(admin).await.unwrap();
        sqlx::query(&format!("drop database if exists {name} with (force)"))
            .execute(&mut conn)
            .await
            .unwrap();
    }

    #[tokio::test]
    async fn postgresql_writes_batches_of_any_size_with_one_statement_text() {
        let Some((db, admin, name)) = postgres_db().await else {
            return;
        };
        for id in ["A", "B", "C"] {
            let created = ItemEvent::FolderCreated {
                id: id.into(),
                space: Space::My,
                owner: None,
                parent: None,
                name: format!("Folder {id}"),
                seed_key: None,
            };
            store(&db, id, 1, &created).await;
        }
        let events = projections::stream::read_after(&db, Position::default(), 100)
            .await
            .unwrap();
        // One connection, so its prepared statements can be counted.
        let one = db.dedicated("audit test");
        let audit = AuditProjection::default();
        // A batch of one item and one activity row, then one of two and two.
        let at = round(&one, &audit, CheckpointState::default(), &events[0], true).await;
        let mut tx = Tx::begin(&one).await.unwrap();
        audit
            .apply_from(&mut tx, at, &[&events[1], &events[2]])
            .await
            .unwrap();
        tx.commit().await.unwrap();
        audit.settled(true);

        let Db::Postgres { pool } = &one else {
            unreachable!("a PostgreSQL database")
        };
        let texts: i64 = sqlx::query_scalar(
            "select count(*) from pg_prepared_statements where statement like 'with items_written%'",
        )
        .fetch_one(pool)
        .await
        .unwrap();
        assert_eq!(
            texts, 1,
            "one statement text for batches of different sizes"
        );
        let names: Vec<String> = sqlx::query_scalar("select name from audit_items order by id")
            .fetch_all(pool)
            .await
            .unwrap();
        assert_eq!(names, ["Folder A", "Folder B", "Folder C"]);
        let activity: i64 = sqlx::query_scalar("select count(*) from audit_activity")
            .fetch_one(pool)
            .await
            .unwrap();
        assert_eq!(activity, 3);
        drop_postgres_db(db, &admin, &name).await;
    }

    #[test]
    fn sqlite_writes_a_batchs_items_and_activity_in_one_text_while_they_fit() {
        let item = |id: &'static str| vec![Value::Text(Some(id)), Value::Int(Some(1))];
        let items = [item("a"), item("b")];
        let activity = [vec![Value::Int(Some(7))]];
        let texts = sqlite_texts(&[
            (
                "insert into i (id, n) values ",
                " on conflict do nothing",
                &items[..],
            ),
            ("insert into a (p) values ", "", &activity[..]),
        ]);
        assert_eq!(texts.len(), 1);
        assert_eq!(
            texts[0].0,
            "insert into i (id, n) values (?, ?), (?, ?) on conflict do nothing;\n\
             insert into a (p) values (?)"
        );
        let bound: Vec<usize> = texts[0].1.iter().map(|rows| rows.len()).collect();
        assert_eq!(bound, vec![2, 1]);

        // Past the parameter limit the statements go in texts of their own, in order.
        let many: Vec<Vec<Value<'_>>> = (0..PARAMS_PER_STATEMENT).map(|_| item("x")).collect();
        let texts = sqlite_texts(&[
            ("insert into i (id, n) values ", "", &many[..]),
            ("insert into a (p) values ", "", &activity[..]),
            ("insert into b (p) values ", "", &[][..]),
        ]);
        let rows: Vec<Vec<usize>> = texts
            .iter()
            .map(|(_, bound)| bound.iter().map(|r| r.len()).collect())
            .collect();
        // Two columns: a full statement holds half as many rows as parameters.
        let half = PARAMS_PER_STATEMENT / 2;
        assert_eq!(rows, vec![vec![half], vec![half], vec![1]]);
    }

    #[test]
    fn columns_take_each_rows_value_in_order_and_keep_their_kind_without_rows() {
        let rows = vec![
            vec![Value::Text(Some("a")), Value::Int(None)],
            vec![Value::Text(None), Value::Int(Some(7))],
        ];
        let kinds = [Value::Text(None), Value::Int(None)];
        assert_eq!(
            columns(&rows, &kinds),
            [
                Column::Text(vec![Some("a"), None]),
                Column::Int(vec![None, Some(7)])
            ]
        );
        assert_eq!(
            columns(&[], &kinds),
            [Column::Text(Vec::new()), Column::Int(Vec::new())]
        );
    }
}
