//! The content folder's entities as events: what the folder holds is compared with what is
//! recorded, entity by entity, and every difference is one command on the entity's stream
//! (`content_entity`, id `"{kind}:{key}"`), decided by the aggregate and appended in one
//! transaction, so a first import of thousands of entities takes one write, and an unchanged
//! folder records nothing.

use std::collections::{HashMap, HashSet};

use cqrs_es::{Aggregate, DomainEvent};
use events::content::{ContentCommand, ContentEntity, ContentEvent, Fields};
use projections::content::kind_of_table;
use projections::{on_db, Db, Position};
use serde_json::Value;

use crate::content_folder::file::ContentError;
use crate::content_folder::tables::{Arg, TableReport, TableRows};

/// Events per multi-row insert (7 parameters each, well under both engines' limits).
const EVENTS_PER_INSERT: usize = 500;

/// Every entity of one kind the folder holds.
pub struct Wanted {
    pub table: &'static str,
    pub kind: &'static str,
    pub entities: Vec<(String, Fields)>,
}

fn invalid(table: &str, reason: impl Into<String>) -> ContentError {
    ContentError::Invalid {
        file: table.to_string(),
        field: String::new(),
        reason: reason.into(),
    }
}

impl Wanted {
    /// The entities of a catalogue table: one per row, its columns as fields.
    pub fn of_table(t: &TableRows) -> Result<Wanted, ContentError> {
        let kind = kind_of_table(t.table)
            .ok_or_else(|| invalid(t.table, "no entity kind for this table"))?;
        let mut entities = Vec::with_capacity(t.rows.len());
        for row in &t.rows {
            let mut fields = Fields::new();
            for (column, arg) in t.columns.iter().zip(row) {
                let value = match arg {
                    Arg::Int(i) => Value::from(*i),
                    Arg::Text(s) => Value::String(s.clone()),
                    Arg::OptText(s) => s.clone().map_or(Value::Null, Value::String),
                    Arg::OptInt(i) => i.map_or(Value::Null, Value::from),
                    Arg::Bool(b) => Value::Bool(*b),
                    Arg::Bytes(_) => return Err(invalid(t.table, "files are not entity fields")),
                };
                fields.insert((*column).to_string(), value);
            }
            let key = match fields.get(t.key) {
                Some(Value::String(s)) => s.clone(),
                Some(other) => other.to_string(),
                None => return Err(invalid(t.table, "a row without its key")),
            };
            entities.push((key, fields));
        }
        Ok(Wanted {
            table: t.table,
            kind: kind.kind,
            entities,
        })
    }

    /// The programmes' entities, one [`Wanted`] per kind.
    pub fn of_programmes(rows: &crate::programmes::import::Rows) -> Vec<Wanted> {
        let mut by_kind: Vec<Wanted> = Vec::new();
        for (kind, key, fields) in rows.entities() {
            let table = projections::content::table_of_kind(kind).map_or(kind, |t| t.table);
            match by_kind.iter_mut().find(|w| w.kind == kind) {
                Some(w) => w.entities.push((key, fields)),
                None => by_kind.push(Wanted {
                    table,
                    kind,
                    entities: vec![(key, fields)],
                }),
            }
        }
        // A kind the folder holds none of still has its recorded entities removed.
        for kind in [
            "congresses",
            "activities",
            "trainings",
            "courses",
            "filters",
        ] {
            if !by_kind.iter().any(|w| w.kind == kind) {
                by_kind.push(Wanted {
                    table: projections::content::table_of_kind(kind).map_or(kind, |t| t.table),
                    kind,
                    entities: Vec::new(),
                });
            }
        }
        by_kind
    }
}

/// What recording an import did.
pub struct Recorded {
    pub tables: Vec<TableReport>,
    pub events: usize,
    pub last: Option<Position>,
}

struct NewEvent {
    aggregate_id: String,
    sequence: i64,
    event: ContentEvent,
}

/// Every entity as recorded, with the sequence of its last event.
async fn recorded(db: &Db) -> Result<HashMap<String, (ContentEntity, i64)>, ContentError> {
    let rows: Vec<(String, i64, String)> = on_db!(db, pool => sqlx::query_as(
        "select aggregate_id, cast(sequence as bigint), cast(payload as text) from events
         where aggregate_type = $1 order by aggregate_id, sequence")
        .bind(ContentEntity::TYPE).fetch_all(pool).await)?;
    let mut out: HashMap<String, (ContentEntity, i64)> = HashMap::new();
    for (id, sequence, payload) in rows {
        let event: ContentEvent = serde_json::from_str(&payload)
            .map_err(|e| invalid("events", format!("recorded event of {id} unreadable: {e}")))?;
        let entry = out.entry(id).or_default();
        entry.0.apply(event);
        entry.1 = sequence;
    }
    Ok(out)
}

/// Records the difference between `wanted` and what is recorded, with `actor` on every event.
pub async fn record(db: &Db, wanted: &[Wanted], actor: &str) -> Result<Recorded, ContentError> {
    let _guard = db.write_guard().await;
    let mut state = recorded(db).await?;
    let mut new_events = Vec::new();
    let mut tables = Vec::new();
    let mut removals = Vec::new();
    for w in wanted {
        for (key, fields) in &w.entities {
            decide(
                &mut state,
                ContentEntity::aggregate_id(w.kind, key),
                ContentCommand::Record {
                    kind: w.kind.to_string(),
                    key: key.clone(),
                    value: fields.clone(),
                    by: actor.to_string(),
                },
                &mut new_events,
            )?;
        }
        let keys: HashSet<&str> = w.entities.iter().map(|(k, _)| k.as_str()).collect();
        removals.push((w, keys));
    }
    let mut removed_by_kind = HashMap::new();
    for (w, keys) in &removals {
        let prefix = format!("{}:", w.kind);
        let mut gone: Vec<String> = Vec::new();
        let mut ids: Vec<String> = state
            .iter()
            .filter(|(id, (entity, _))| id.starts_with(&prefix) && entity.value.is_some())
            .map(|(id, _)| id.clone())
            .collect();
        ids.sort();
        for id in ids {
            let key = &id[prefix.len()..];
            if !keys.contains(key) {
                gone.push(id);
            }
        }
        let before = new_events.len();
        for id in gone {
            decide(
                &mut state,
                id,
                ContentCommand::Remove {
                    by: actor.to_string(),
                },
                &mut new_events,
            )?;
        }
        removed_by_kind.insert(w.kind, new_events.len() - before);
    }
    for w in wanted {
        let prefix = format!("{}:", w.kind);
        let (mut inserted, mut updated) = (0, 0);
        for e in new_events
            .iter()
            .filter(|e| e.aggregate_id.starts_with(&prefix))
        {
            match e.event {
                ContentEvent::Created { .. } => inserted += 1,
                ContentEvent::Changed { .. } => updated += 1,
                ContentEvent::Removed { .. } => {}
            }
        }
        tables.push(TableReport {
            table: w.table.to_string(),
            rows: w.entities.len(),
            inserted,
            updated,
            deleted: removed_by_kind.get(w.kind).copied().unwrap_or(0),
        });
    }
    let count = new_events.len();
    append(db, &new_events, actor).await?;
    let last = match new_events.last() {
        Some(e) => {
            projections::stream::last_position_of(db, ContentEntity::TYPE, &e.aggregate_id).await?
        }
        None => None,
    };
    if count > 0 {
        tracing::info!(events = count, actor, "content import recorded");
    }
    Ok(Recorded {
        tables,
        events: count,
        last,
    })
}

/// Runs one command on the entity `id` as recorded so far; its events go to `out`.
fn decide(
    state: &mut HashMap<String, (ContentEntity, i64)>,
    id: String,
    command: ContentCommand,
    out: &mut Vec<NewEvent>,
) -> Result<(), ContentError> {
    let (entity, sequence) = state.entry(id.clone()).or_default();
    let events = entity
        .decide(command)
        .map_err(|e| invalid("events", format!("{id}: {e}")))?;
    for event in events {
        entity.apply(event.clone());
        *sequence += 1;
        out.push(NewEvent {
            aggregate_id: id.clone(),
            sequence: *sequence,
            event,
        });
    }
    Ok(())
}

/// Appends `events` in one transaction; a concurrent import that recorded the same sequence
/// first makes the whole transaction fail, so nothing is half-recorded.
async fn append(db: &Db, events: &[NewEvent], actor: &str) -> Result<(), ContentError> {
    if events.is_empty() {
        return Ok(());
    }
    let metadata = serde_json::json!({
        "user_id": actor,
        "request_id": uuid::Uuid::new_v4().to_string(),
        "at": chrono::Utc::now().to_rfc3339(),
    })
    .to_string();
    let mut rows = Vec::with_capacity(events.len());
    for e in events {
        let payload = serde_json::to_string(&e.event)
            .map_err(|err| invalid("events", format!("{}: {err}", e.aggregate_id)))?;
        rows.push((e, payload, e.event.event_type(), e.event.event_version()));
    }
    let json = match db {
        Db::Postgres { .. } => "::json",
        Db::Sqlite { .. } => "",
    };
    on_db!(db, pool => {
        let mut tx = pool.begin().await?;
        for chunk in rows.chunks(EVENTS_PER_INSERT) {
            let mut q = sqlx::QueryBuilder::new(
                "insert into events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata) ");
            q.push_values(chunk, |mut b, (e, payload, event_type, version)| {
                b.push_bind(ContentEntity::TYPE)
                    .push_bind(e.aggregate_id.clone())
                    .push_bind(e.sequence)
                    .push_bind(event_type.clone())
                    .push_bind(version.clone())
                    .push_bind(payload.clone())
                    .push_unseparated(json)
                    .push_bind(metadata.clone())
                    .push_unseparated(json);
            });
            q.build().execute(&mut *tx).await?;
        }
        tx.commit().await
    })?;
    Ok(())
}
