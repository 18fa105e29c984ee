//! The company's reference content built from events: the catalogue's and the programmes' tables
//! from the content folder's entities (`content_entity` streams, written by `companion content
//! import`), and the console's news (`news_item` streams) into the same `news` table reps read,
//! plus `news_admin`, the console's view of every news item. Every change also reaches every
//! user as one broadcast `content_changed {kind, ids}` per kind and batch, so open apps refresh.

use std::collections::{BTreeMap, BTreeSet};

use async_trait::async_trait;
use events::content::{ContentEntity, ContentEvent, Fields};
use events::news::{NewsEvent, NewsItem};
use serde_json::Value;

use crate::feed;
use crate::{on_tx, BatchFailure, Projection, ProjectionError, StoredEvent, TableSpec, Tx};

/// The feed message kind that tells open apps which content to refresh.
pub const CONTENT_CHANGED_KIND: &str = "content_changed";

/// Rows of a table that belong to an entity but live in a table of their own (a course's days).
pub struct ChildTable {
    /// The entity's field holding the list.
    pub field: &'static str,
    pub table: &'static str,
    /// The column naming the entity.
    pub parent: &'static str,
    /// The column holding each list element.
    pub column: &'static str,
}

/// Where the entities of one kind live: their table and its key column.
pub struct ContentTable {
    pub kind: &'static str,
    pub table: &'static str,
    pub key: &'static str,
    pub children: &'static [ChildTable],
}

const NO_CHILDREN: &[ChildTable] = &[];

/// Every kind of entity of the content folder. The library documents are not among them: their
/// own lifecycle records them.
pub const CONTENT_TABLES: &[ContentTable] = &[
    ContentTable {
        kind: "segments",
        table: "catalogue_segments",
        key: "id",
        children: NO_CHILDREN,
    },
    ContentTable {
        kind: "categories",
        table: "catalogue_categories",
        key: "id",
        children: NO_CHILDREN,
    },
    ContentTable {
        kind: "products",
        table: "catalogue_products",
        key: "id",
        children: NO_CHILDREN,
    },
    ContentTable {
        kind: "components",
        table: "catalogue_components",
        key: "id",
        children: NO_CHILDREN,
    },
    ContentTable {
        kind: "catalogue",
        table: "catalogue_meta",
        key: "key",
        children: NO_CHILDREN,
    },
    ContentTable {
        kind: "news",
        table: "news",
        key: "id",
        children: NO_CHILDREN,
    },
    ContentTable {
        kind: "contacts",
        table: "contact_sections",
        key: "id",
        children: NO_CHILDREN,
    },
    ContentTable {
        kind: "subsidiaries",
        table: "contact_subsidiaries",
        key: "id",
        children: NO_CHILDREN,
    },
    ContentTable {
        kind: "links",
        table: "useful_links",
        key: "id",
        children: NO_CHILDREN,
    },
    ContentTable {
        kind: "videos",
        table: "multimedia_videos",
        key: "id",
        children: NO_CHILDREN,
    },
    ContentTable {
        kind: "images",
        table: "multimedia_images",
        key: "id",
        children: NO_CHILDREN,
    },
    ContentTable {
        kind: "congresses",
        table: "congresses",
        key: "id",
        children: NO_CHILDREN,
    },
    ContentTable {
        kind: "activities",
        table: "congress_activities",
        key: "id",
        children: NO_CHILDREN,
    },
    ContentTable {
        kind: "trainings",
        table: "trainings",
        key: "id",
        children: NO_CHILDREN,
    },
    ContentTable {
        kind: "courses",
        table: "courses",
        key: "id",
        children: &[
            ChildTable {
                field: "segments",
                table: "course_segments",
                parent: "course_id",
                column: "segment_id",
            },
            ChildTable {
                field: "speakers",
                table: "course_speakers",
                parent: "course_id",
                column: "name",
            },
            ChildTable {
                field: "days",
                table: "course_days",
                parent: "course_id",
                column: "day",
            },
        ],
    },
    ContentTable {
        kind: "filters",
        table: "programme_filters",
        key: "kind",
        children: NO_CHILDREN,
    },
];

/// The table of entities of `kind`.
pub fn table_of_kind(kind: &str) -> Option<&'static ContentTable> {
    CONTENT_TABLES.iter().find(|t| t.kind == kind)
}

/// The kind of entity a table holds.
pub fn kind_of_table(table: &str) -> Option<&'static ContentTable> {
    CONTENT_TABLES.iter().find(|t| t.table == table)
}

const TABLES: &[TableSpec] = &[
    TableSpec {
        name: "catalogue_segments",
        order_by: "id",
    },
    TableSpec {
        name: "catalogue_categories",
        order_by: "id",
    },
    TableSpec {
        name: "catalogue_products",
        order_by: "id",
    },
    TableSpec {
        name: "catalogue_components",
        order_by: "id",
    },
    TableSpec {
        name: "catalogue_meta",
        order_by: "key",
    },
    TableSpec {
        name: "news",
        order_by: "id",
    },
    TableSpec {
        name: "contact_sections",
        order_by: "id",
    },
    TableSpec {
        name: "contact_subsidiaries",
        order_by: "id",
    },
    TableSpec {
        name: "useful_links",
        order_by: "id",
    },
    TableSpec {
        name: "multimedia_videos",
        order_by: "id",
    },
    TableSpec {
        name: "multimedia_images",
        order_by: "id",
    },
    TableSpec {
        name: "congresses",
        order_by: "id",
    },
    TableSpec {
        name: "congress_activities",
        order_by: "id",
    },
    TableSpec {
        name: "trainings",
        order_by: "id",
    },
    TableSpec {
        name: "courses",
        order_by: "id",
    },
    TableSpec {
        name: "course_segments",
        order_by: "course_id, segment_id",
    },
    TableSpec {
        name: "course_speakers",
        order_by: "course_id, name",
    },
    TableSpec {
        name: "course_days",
        order_by: "course_id, day",
    },
    TableSpec {
        name: "programme_filters",
        order_by: "kind",
    },
    TableSpec {
        name: "news_admin",
        order_by: "id",
    },
];

pub struct ContentProjection;

/// A value bound into a statement that runs on both engines.
enum Bind {
    Int(i64),
    Text(String),
    Bool(bool),
    NullText,
    NullInt,
}

/// Columns holding times (`release_at`, `expires_at`) are whole numbers, even when empty.
fn bind_of(column: &str, value: &Value) -> Bind {
    match value {
        Value::Null if column.ends_with("_at") => Bind::NullInt,
        Value::Null => Bind::NullText,
        Value::Bool(b) => Bind::Bool(*b),
        Value::Number(n) => match n.as_i64() {
            Some(i) => Bind::Int(i),
            None => Bind::Text(n.to_string()),
        },
        Value::String(s) => Bind::Text(s.clone()),
        other => Bind::Text(other.to_string()),
    }
}

/// A column name taken from an event: letters, digits and underscores only.
fn column_name(event: &StoredEvent, name: &str) -> Result<(), ProjectionError> {
    if !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
    {
        Ok(())
    } else {
        Err(ProjectionError::bad_event(
            event,
            format!("bad field name {name:?}"),
        ))
    }
}

async fn run(tx: &mut Tx, sql: &str, binds: &[Bind]) -> Result<u64, sqlx::Error> {
    on_tx!(tx, c => {
        let mut q = sqlx::query(sql);
        for b in binds {
            q = match b {
                Bind::Int(v) => q.bind(*v),
                Bind::Text(v) => q.bind(v.clone()),
                Bind::Bool(v) => q.bind(*v),
                Bind::NullText => q.bind(None::<String>),
                Bind::NullInt => q.bind(None::<i64>),
            };
        }
        q.execute(c).await.map(|r| r.rows_affected())
    })
}

/// The key as bound into `where cast(key as text) = $n`.
fn key_where(table: &ContentTable, n: usize) -> String {
    format!("cast({} as text) = ${n}", table.key)
}

/// Replaces the child rows of one entity with the list in `value`.
async fn write_children(
    tx: &mut Tx,
    table: &ContentTable,
    key: &str,
    fields: &Fields,
) -> Result<(), sqlx::Error> {
    for child in table.children {
        let Some(list) = fields.get(child.field) else {
            continue;
        };
        let parent: i64 = key.parse().unwrap_or_default();
        run(
            tx,
            &format!("delete from {} where {} = $1", child.table, child.parent),
            &[Bind::Int(parent)],
        )
        .await?;
        for element in list.as_array().into_iter().flatten() {
            run(
                tx,
                &format!(
                    "insert into {} ({}, {}) values ($1, $2)",
                    child.table, child.parent, child.column
                ),
                &[Bind::Int(parent), bind_of(child.column, element)],
            )
            .await?;
        }
    }
    Ok(())
}

async fn delete_children(tx: &mut Tx, table: &ContentTable, key: &str) -> Result<(), sqlx::Error> {
    let parent: i64 = key.parse().unwrap_or_default();
    for child in table.children {
        run(
            tx,
            &format!("delete from {} where {} = $1", child.table, child.parent),
            &[Bind::Int(parent)],
        )
        .await?;
    }
    Ok(())
}

/// The columns of `fields` (without the child lists), checked.
fn columns<'a>(
    event: &StoredEvent,
    table: &ContentTable,
    fields: &'a Fields,
) -> Result<Vec<(&'a String, &'a Value)>, ProjectionError> {
    let mut out = Vec::new();
    for (name, value) in fields {
        if table.children.iter().any(|c| c.field == name) {
            continue;
        }
        column_name(event, name)?;
        out.push((name, value));
    }
    Ok(out)
}

async fn apply_entity(
    tx: &mut Tx,
    event: &StoredEvent,
    changed: &mut BTreeMap<String, BTreeSet<String>>,
) -> Result<(), ProjectionError> {
    let Some((kind, key)) = event.aggregate_id.split_once(':') else {
        return Err(ProjectionError::bad_event(
            event,
            "aggregate id is not kind:key",
        ));
    };
    let Some(table) = table_of_kind(kind) else {
        return Err(ProjectionError::bad_event(
            event,
            format!("unknown kind {kind}"),
        ));
    };
    let decoded: ContentEvent = event
        .decode()
        .map_err(|e| ProjectionError::bad_event(event, e))?;
    match decoded {
        ContentEvent::Created { value, .. } => {
            let cols = columns(event, table, &value)?;
            let names: Vec<&str> = cols.iter().map(|(n, _)| n.as_str()).collect();
            let params: Vec<String> = (1..=cols.len()).map(|i| format!("${i}")).collect();
            let updates: Vec<String> = names
                .iter()
                .filter(|n| **n != table.key)
                .map(|n| format!("{n} = excluded.{n}"))
                .collect();
            let sql = format!(
                "insert into {} ({}) values ({}) on conflict ({}) do {}",
                table.table,
                names.join(", "),
                params.join(", "),
                table.key,
                if updates.is_empty() {
                    "nothing".to_string()
                } else {
                    format!("update set {}", updates.join(", "))
                }
            );
            let binds: Vec<Bind> = cols.iter().map(|(n, v)| bind_of(n, v)).collect();
            run(tx, &sql, &binds).await?;
            write_children(tx, table, key, &value).await?;
        }
        ContentEvent::Changed { fields, .. } => {
            let cols = columns(event, table, &fields)?;
            if !cols.is_empty() {
                let sets: Vec<String> = cols
                    .iter()
                    .enumerate()
                    .map(|(i, (n, _))| format!("{n} = ${}", i + 1))
                    .collect();
                let sql = format!(
                    "update {} set {} where {}",
                    table.table,
                    sets.join(", "),
                    key_where(table, cols.len() + 1)
                );
                let mut binds: Vec<Bind> = cols.iter().map(|(n, v)| bind_of(n, v)).collect();
                binds.push(Bind::Text(key.to_string()));
                run(tx, &sql, &binds).await?;
            }
            write_children(tx, table, key, &fields).await?;
        }
        ContentEvent::Removed { .. } => {
            delete_children(tx, table, key).await?;
            run(
                tx,
                &format!("delete from {} where {}", table.table, key_where(table, 1)),
                &[Bind::Text(key.to_string())],
            )
            .await?;
        }
    }
    changed
        .entry(kind.to_string())
        .or_default()
        .insert(key.to_string());
    Ok(())
}

/// The `news` row reps read of a released console item: the same shape the content folder's
/// news have.
fn news_row(item: &NewsItem) -> Option<[Bind; 6]> {
    let v = item.live()?;
    let c = &v.content;
    let year: i64 = c
        .date
        .get(..4)
        .and_then(|y| y.parse().ok())
        .unwrap_or_default();
    let listed = serde_json::json!({
        "id": item.id, "title": c.title, "date": c.date, "preview": c.preview, "category": c.category,
    });
    let details = serde_json::json!({
        "id": item.id, "title": c.title, "date": c.date, "preview": c.preview, "category": c.category,
        "description": c.body_html,
    });
    Some([
        Bind::Int(item.id),
        Bind::Text(c.date.clone()),
        Bind::Int(year),
        Bind::Text(c.category.clone()),
        Bind::Text(listed.to_string()),
        Bind::Text(details.to_string()),
    ])
}

/// When the scheduler has something to do for `item`: release its approved version, or expire it.
pub fn news_due_at(item: &NewsItem) -> Option<i64> {
    if item.ended.is_some() {
        return None;
    }
    let latest = item.latest()?;
    if latest.status == events::news::VersionStatus::Approved {
        return item.window.release_at;
    }
    item.released_version.and(item.window.expires_at)
}

async fn apply_news(
    tx: &mut Tx,
    event: &StoredEvent,
    changed: &mut BTreeMap<String, BTreeSet<String>>,
) -> Result<(), ProjectionError> {
    let decoded: NewsEvent = event
        .decode()
        .map_err(|e| ProjectionError::bad_event(event, e))?;
    let id: i64 = event
        .aggregate_id
        .parse()
        .map_err(|e| ProjectionError::bad_event(event, e))?;
    let stored: Option<String> = on_tx!(tx, c => sqlx::query_scalar(
        "select state from news_admin where id = $1").bind(id).fetch_optional(c).await)?;
    let mut item: NewsItem = match stored {
        Some(s) => serde_json::from_str(&s).map_err(|e| ProjectionError::bad_event(event, e))?,
        None => NewsItem::default(),
    };
    let was_live = item.live().map(|v| v.version);
    cqrs_es::Aggregate::apply(&mut item, decoded);
    let latest = item
        .latest()
        .ok_or_else(|| ProjectionError::bad_event(event, "news item without a version"))?;
    let state = serde_json::to_string(&item).map_err(|e| ProjectionError::bad_event(event, e))?;
    let status = item.status();
    let due = news_due_at(&item);
    on_tx!(tx, c => sqlx::query(
        "insert into news_admin (id, title, category, status, version, released_version, release_at,
             expires_at, due_at, author_id, updated_at, state)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
         on conflict (id) do update set title = excluded.title, category = excluded.category,
             status = excluded.status, version = excluded.version,
             released_version = excluded.released_version, release_at = excluded.release_at,
             expires_at = excluded.expires_at, due_at = excluded.due_at,
             author_id = excluded.author_id, updated_at = excluded.updated_at, state = excluded.state")
        .bind(id).bind(&latest.content.title).bind(&latest.content.category).bind(status)
        .bind(i64::from(latest.version)).bind(item.released_version.map(i64::from))
        .bind(item.window.release_at).bind(item.window.expires_at).bind(due)
        .bind(&latest.author).bind(event.recorded_at).bind(&state)
        .execute(c).await.map(|r| r.rows_affected()))?;
    let now_live = item.live().map(|v| v.version);
    if was_live != now_live {
        match news_row(&item) {
            Some(binds) => {
                run(
                    tx,
                    "insert into news (id, date, year, category, item, details) values ($1, $2, $3, $4, $5, $6)
                     on conflict (id) do update set date = excluded.date, year = excluded.year,
                         category = excluded.category, item = excluded.item, details = excluded.details",
                    &binds,
                )
                .await?;
            }
            None => {
                run(tx, "delete from news where id = $1", &[Bind::Int(id)]).await?;
            }
        }
        changed
            .entry("news".into())
            .or_default()
            .insert(id.to_string());
    }
    Ok(())
}

#[derive(serde::Serialize)]
struct ContentChanged<'a> {
    kind: &'a str,
    ids: Vec<&'a str>,
}

/// One `content_changed` per kind, broadcast: the same message for every user.
async fn announce(
    tx: &mut Tx,
    changed: &BTreeMap<String, BTreeSet<String>>,
    at: i64,
) -> Result<(), sqlx::Error> {
    for (kind, ids) in changed {
        let message = ContentChanged {
            kind,
            ids: ids.iter().map(String::as_str).collect(),
        };
        feed::push_broadcast(tx, CONTENT_CHANGED_KIND, &message, at).await?;
    }
    Ok(())
}

#[async_trait]
impl Projection for ContentProjection {
    fn name(&self) -> &'static str {
        "content"
    }

    fn tables(&self) -> &'static [TableSpec] {
        TABLES
    }

    fn reads(&self, aggregate_type: &str) -> bool {
        aggregate_type == ContentEntity::TYPE || aggregate_type == NewsItem::TYPE
    }

    async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> Result<(), ProjectionError> {
        self.apply_all(tx, &[event]).await.map_err(|f| f.error)
    }

    async fn apply_all(&self, tx: &mut Tx, events: &[&StoredEvent]) -> Result<(), BatchFailure> {
        let mut changed: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let mut last_at = 0;
        for (index, event) in events.iter().enumerate() {
            let applied = if event.aggregate_type == ContentEntity::TYPE {
                apply_entity(tx, event, &mut changed).await
            } else if event.aggregate_type == NewsItem::TYPE {
                apply_news(tx, event, &mut changed).await
            } else {
                continue;
            };
            applied.map_err(|error| BatchFailure {
                index: Some(index),
                error,
            })?;
            last_at = event.recorded_at;
        }
        announce(tx, &changed, last_at)
            .await
            .map_err(|e| BatchFailure {
                index: None,
                error: e.into(),
            })
    }
}
