//! Reading the global event stream in commit order, never skipping an event.
//!
//! PostgreSQL hands out `global_position` before commit, so a later position can become visible
//! before an earlier one. Reading by `(tx_id, global_position)` and only below the oldest
//! transaction still open (`pg_snapshot_xmin`) makes every event visible to the reader before
//! the reader can pass it. On SQLite writers are serialised and the rowid is commit order.

use serde_json::value::RawValue;
use serde_json::Value;

use crate::db::Db;

/// A place in the global stream: the writing transaction and the event's position.
/// On SQLite the transaction is always 0.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct Position {
    pub tx_id: i64,
    pub position: i64,
}

/// One stored event with its place in the global stream.
#[derive(Debug, Clone)]
pub struct StoredEvent {
    pub at: Position,
    pub aggregate_type: String,
    pub aggregate_id: String,
    pub sequence: i64,
    pub event_type: String,
    pub event_version: String,
    /// The event as cqrs-es stores it: `{"VariantName": {...fields}}`, checked to be JSON but
    /// kept as text, so it is parsed once, straight into the event type ([`StoredEvent::decode`]).
    pub payload: Box<RawValue>,
    /// Who and what request recorded it, checked to be JSON and kept as text: few projections
    /// read it ([`StoredEvent::meta`]), so a rebuild does not build a map of it per event.
    pub metadata: Box<RawValue>,
    /// Milliseconds since the Unix epoch.
    pub recorded_at: i64,
}

impl StoredEvent {
    /// Decodes the payload into the aggregate's event type.
    pub fn decode<E: serde::de::DeserializeOwned>(&self) -> Result<E, serde_json::Error> {
        serde_json::from_str(self.payload.get())
    }

    /// The payload as a JSON value (for a reader that does not know the event type).
    pub fn payload_value(&self) -> Result<Value, serde_json::Error> {
        serde_json::from_str(self.payload.get())
    }

    /// A metadata entry (the API puts `user_id`, `request_id` and the like there).
    pub fn meta(&self, key: &str) -> Option<String> {
        let entries: serde_json::Map<String, Value> =
            serde_json::from_str(self.metadata.get()).ok()?;
        match entries.get(key)? {
            Value::String(value) => Some(value.clone()),
            _ => None,
        }
    }
}

/// An event as the stream's statements read it (PostgreSQL's `tx_id` and `global_position`, or
/// SQLite's 0 and `rowid`, as numbers; the payload and metadata as JSON text).
#[derive(sqlx::FromRow)]
pub(crate) struct EventRow {
    pub(crate) tx_id: i64,
    pub(crate) position: i64,
    pub(crate) aggregate_type: String,
    pub(crate) aggregate_id: String,
    pub(crate) sequence: i64,
    pub(crate) event_type: String,
    pub(crate) event_version: String,
    pub(crate) payload: String,
    pub(crate) metadata: String,
    pub(crate) recorded_at: i64,
}

impl StoredEvent {
    /// The event of `row`, with `null` payload and metadata when they are not JSON.
    pub(crate) fn or_unreadable(row: EventRow) -> StoredEvent {
        let at = Position {
            tx_id: row.tx_id,
            position: row.position,
        };
        let parsed = RawValue::from_string(row.payload)
            .and_then(|payload| Ok((payload, RawValue::from_string(row.metadata)?)));
        let (payload, metadata) = parsed.unwrap_or_else(|e| {
            tracing::error!(?at, aggregate_type = %row.aggregate_type, aggregate_id = %row.aggregate_id,
                sequence = row.sequence, error = %e, "stored event is not valid JSON");
            (null_payload(), null_payload())
        });
        StoredEvent {
            at,
            aggregate_type: row.aggregate_type,
            aggregate_id: row.aggregate_id,
            sequence: row.sequence,
            event_type: row.event_type,
            event_version: row.event_version,
            payload,
            metadata,
            recorded_at: row.recorded_at,
        }
    }
}

/// The payload of an event whose stored text is not JSON: every decode of it fails.
fn null_payload() -> Box<RawValue> {
    RawValue::from_string("null".to_string()).unwrap_or_else(|_| unreachable!("null is JSON"))
}

impl TryFrom<EventRow> for StoredEvent {
    type Error = serde_json::Error;
    fn try_from(row: EventRow) -> Result<Self, Self::Error> {
        Ok(StoredEvent {
            at: Position {
                tx_id: row.tx_id,
                position: row.position,
            },
            aggregate_type: row.aggregate_type,
            aggregate_id: row.aggregate_id,
            sequence: row.sequence,
            event_type: row.event_type,
            event_version: row.event_version,
            payload: RawValue::from_string(row.payload)?,
            metadata: RawValue::from_string(row.metadata)?,
            recorded_at: row.recorded_at,
        })
    }
}

#[derive(Debug, thiserror::Error)]
pub enum StreamError {
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    #[error("event at {position:?} is not valid JSON: {source}")]
    Corrupt {
        position: Position,
        source: serde_json::Error,
    },
}

/// The statement [`read_after`] runs on SQLite, after the position given by the SQL expression
/// `$after_position`, at most `$limit` events. Also the events' part of a group commit's first
/// statement.
macro_rules! sqlite_read {
    ($after_position:literal, $limit:literal) => {
        concat!(
            "select 0 as tx_id, rowid as position, aggregate_type, aggregate_id, cast(sequence as bigint) as sequence,
        event_type, event_version, payload, metadata, recorded_at
    from events where rowid > ",
            $after_position,
            " order by rowid limit ",
            $limit
        )
    };
}
pub(crate) use sqlite_read;

const SQLITE_READ: &str = sqlite_read!("$1", "$2");

const POSTGRES_READ: &str = "select tx_id::text::bigint as tx_id, global_position as position, aggregate_type, aggregate_id, sequence,
        event_type, event_version, payload::text as payload, metadata::text as metadata, recorded_at
    from events
    where (tx_id, global_position) > ($1::text::xid8, $2)
      and tx_id < pg_snapshot_xmin(pg_current_snapshot())
    order by events.tx_id, events.global_position limit $3";

/// Up to `limit` events after `after`, in commit order.
///
/// An event whose stored JSON cannot be parsed (possible on SQLite, where it is text) comes with
/// a `null` payload and metadata instead of failing the whole read: the projections that read
/// its aggregate then fail to decode it and quarantine it, and the others carry on.
pub async fn read_after(
    db: &Db,
    after: Position,
    limit: i64,
) -> Result<Vec<StoredEvent>, StreamError> {
    let rows: Vec<EventRow> = match db {
        Db::Sqlite { pool, .. } => {
            sqlx::query_as(SQLITE_READ)
                .bind(after.position)
                .bind(limit)
                .fetch_all(pool)
                .await?
        }
        Db::Postgres { pool } => {
            sqlx::query_as(POSTGRES_READ)
                .bind(after.tx_id.to_string())
                .bind(after.position)
                .bind(limit)
                .fetch_all(pool)
                .await?
        }
    };
    Ok(rows.into_iter().map(StoredEvent::or_unreadable).collect())
}

/// Like [`read_after`], inside a transaction that has just appended events, on PostgreSQL: the
/// events after the position given by the SQL expressions `$after_tx` and `$after_position`,
/// at most `$limit`, those of finished transactions and of this one. The events' part of a
/// group commit's first statement.
///
/// That is safe only while no older transaction of the cluster is open: one could still commit
/// events that sort before this transaction's, and a checkpoint moved past this transaction
/// would skip them. Then nothing is read (an empty list): the group commit leaves its events to
/// the projector, which reads them once every older transaction has ended.
macro_rules! postgres_read_in {
    ($after_tx:literal, $after_position:literal, $limit:literal) => {
        concat!(
            "select tx_id::text::bigint as tx_id, global_position as position, aggregate_type, aggregate_id, sequence,
        event_type, event_version, payload::text as payload, metadata::text as metadata, recorded_at
    from events
    where (tx_id, global_position) > (",
            $after_tx,
            "::text::xid8, ",
            $after_position,
            ")
      and tx_id <= pg_current_xact_id()
      and pg_snapshot_xmin(pg_current_snapshot()) = pg_current_xact_id()
    order by events.tx_id, events.global_position limit ",
            $limit
        )
    };
}
pub(crate) use postgres_read_in;

/// Whether events after `after` are committed but cannot be read yet: on PostgreSQL, written by
/// a transaction that ended while an older one of the cluster is still open (see the module's
/// notes). Never on SQLite.
pub async fn held_back(db: &Db, after: Position) -> Result<bool, sqlx::Error> {
    match db {
        Db::Sqlite { .. } => Ok(false),
        Db::Postgres { pool } => {
            sqlx::query_scalar(
                "select exists (select 1 from events
                  where (tx_id, global_position) > ($1::text::xid8, $2)
                    and tx_id >= pg_snapshot_xmin(pg_current_snapshot()))",
            )
            .bind(after.tx_id.to_string())
            .bind(after.position)
            .fetch_one(pool)
            .await
        }
    }
}

/// Where the last event of an aggregate sits in the global stream, if it has any.
pub async fn last_position_of(
    db: &Db,
    aggregate_type: &str,
    aggregate_id: &str,
) -> Result<Option<Position>, sqlx::Error> {
    #[derive(sqlx::FromRow)]
    struct Row {
        tx_id: i64,
        position: i64,
    }
    let row: Option<Row> = match db {
        Db::Sqlite { pool, .. } => sqlx::query_as(
            "select 0 as tx_id, rowid as position from events where aggregate_type = $1 and aggregate_id = $2 order by sequence desc limit 1")
            .bind(aggregate_type).bind(aggregate_id).fetch_optional(pool).await?,
        Db::Postgres { pool } => sqlx::query_as(
            "select tx_id::text::bigint as tx_id, global_position as position from events where aggregate_type = $1 and aggregate_id = $2 order by sequence desc limit 1")
            .bind(aggregate_type).bind(aggregate_id).fetch_optional(pool).await?,
    };
    Ok(row.map(|r| Position {
        tx_id: r.tx_id,
        position: r.position,
    }))
}

/// The newest event of the whole stream (in reading order), if any.
pub async fn head(db: &Db) -> Result<Option<Position>, sqlx::Error> {
    #[derive(sqlx::FromRow)]
    struct Row {
        tx_id: i64,
        position: i64,
    }
    let row: Option<Row> = match db {
        Db::Sqlite { pool, .. } => sqlx::query_as(
            "select 0 as tx_id, rowid as position from events order by rowid desc limit 1")
            .fetch_optional(pool).await?,
        Db::Postgres { pool } => sqlx::query_as(
            "select tx_id::text::bigint as tx_id, global_position as position from events order by events.tx_id desc, events.global_position desc limit 1")
            .fetch_optional(pool).await?,
    };
    Ok(row.map(|r| Position {
        tx_id: r.tx_id,
        position: r.position,
    }))
}

const SQLITE_AGGREGATE_COLUMNS: &str = "select 0 as tx_id, rowid as position, aggregate_type, aggregate_id, cast(sequence as bigint) as sequence,
        event_type, event_version, payload, metadata, recorded_at from events";

const POSTGRES_AGGREGATE_COLUMNS: &str = "select tx_id::text::bigint as tx_id, global_position as position, aggregate_type, aggregate_id, sequence,
        event_type, event_version, payload::text as payload, metadata::text as metadata, recorded_at from events";

/// The events of one aggregate matching `filter` (SQL on `events` with `$1` the type, `$2` the
/// id, `$3` and `$4` two numbers), each checked as JSON.
async fn aggregate_events(
    db: &Db,
    filter: &str,
    aggregate_type: &str,
    aggregate_id: &str,
    a: i64,
    b: i64,
) -> Result<Vec<StoredEvent>, StreamError> {
    let rows: Vec<EventRow> = match db {
        Db::Sqlite { pool, .. } => {
            sqlx::query_as(&format!("{SQLITE_AGGREGATE_COLUMNS} {filter}"))
                .bind(aggregate_type)
                .bind(aggregate_id)
                .bind(a)
                .bind(b)
                .fetch_all(pool)
                .await?
        }
        Db::Postgres { pool } => {
            sqlx::query_as(&format!("{POSTGRES_AGGREGATE_COLUMNS} {filter}"))
                .bind(aggregate_type)
                .bind(aggregate_id)
                .bind(a)
                .bind(b)
                .fetch_all(pool)
                .await?
        }
    };
    rows.into_iter()
        .map(|row| {
            let position = Position {
                tx_id: row.tx_id,
                position: row.position,
            };
            StoredEvent::try_from(row).map_err(|source| StreamError::Corrupt { position, source })
        })
        .collect()
}

/// Up to `limit` events of one aggregate with a sequence below `before` (all when `None`),
/// newest first: one page of a history, read from the primary key without loading the rest.
/// Events appended meanwhile have higher sequences, so walking down never meets them.
pub async fn events_of_before(
    db: &Db,
    aggregate_type: &str,
    aggregate_id: &str,
    before: Option<i64>,
    limit: i64,
) -> Result<Vec<StoredEvent>, StreamError> {
    aggregate_events(
        db,
        "where aggregate_type = $1 and aggregate_id = $2 and sequence < $3
         order by sequence desc limit $4",
        aggregate_type,
        aggregate_id,
        before.unwrap_or(i64::MAX),
        limit,
    )
    .await
}

/// The events of one aggregate whose sequence lies in `from..=to`, oldest first.
pub async fn events_of_between(
    db: &Db,
    aggregate_type: &str,
    aggregate_id: &str,
    from: i64,
    to: i64,
) -> Result<Vec<StoredEvent>, StreamError> {
    aggregate_events(
        db,
        "where aggregate_type = $1 and aggregate_id = $2 and sequence between $3 and $4
         order by sequence",
        aggregate_type,
        aggregate_id,
        from,
        to,
    )
    .await
}

/// The newest event of one aggregate of type `event_type`, if any.
pub async fn last_event_of_type(
    db: &Db,
    aggregate_type: &str,
    aggregate_id: &str,
    event_type: &str,
) -> Result<Option<StoredEvent>, StreamError> {
    let row: Option<EventRow> = match db {
        Db::Sqlite { pool, .. } => sqlx::query_as(&format!(
            "{SQLITE_AGGREGATE_COLUMNS} where aggregate_type = $1 and aggregate_id = $2 and event_type = $3
             order by sequence desc limit 1"))
            .bind(aggregate_type).bind(aggregate_id).bind(event_type).fetch_optional(pool).await?,
        Db::Postgres { pool } => sqlx::query_as(&format!(
            "{POSTGRES_AGGREGATE_COLUMNS} where aggregate_type = $1 and aggregate_id = $2 and event_type = $3
             order by sequence desc limit 1"))
            .bind(aggregate_type).bind(aggregate_id).bind(event_type).fetch_optional(pool).await?,
    };
    row.map(|row| {
        let position = Position {
            tx_id: row.tx_id,
            position: row.position,
        };
        StoredEvent::try_from(row).map_err(|source| StreamError::Corrupt { position, source })
    })
    .transpose()
}

/// Every event of one aggregate, oldest first (for history views).
pub async fn events_of(
    db: &Db,
    aggregate_type: &str,
    aggregate_id: &str,
) -> Result<Vec<StoredEvent>, StreamError> {
    let rows: Vec<EventRow> = match db {
        Db::Sqlite { pool, .. } => sqlx::query_as(
            "select 0 as tx_id, rowid as position, aggregate_type, aggregate_id, cast(sequence as bigint) as sequence,
                    event_type, event_version, payload, metadata, recorded_at
             from events where aggregate_type = $1 and aggregate_id = $2 order by sequence")
            .bind(aggregate_type).bind(aggregate_id).fetch_all(pool).await?,
        Db::Postgres { pool } => sqlx::query_as(
            "select tx_id::text::bigint as tx_id, global_position as position, aggregate_type, aggregate_id, sequence,
                    event_type, event_version, payload::text as payload, metadata::text as metadata, recorded_at
             from events where aggregate_type = $1 and aggregate_id = $2 order by sequence")
            .bind(aggregate_type).bind(aggregate_id).fetch_all(pool).await?,
    };
    rows.into_iter()
        .map(|row| {
            let position = Position {
                tx_id: row.tx_id,
                position: row.position,
            };
            StoredEvent::try_from(row).map_err(|source| StreamError::Corrupt { position, source })
        })
        .collect()
}
