//! Over 400 lines: one handler per library event, and the reads the server makes of them.
//!
//! Read model of library documents (the `library_document` streams): each document's state,
//! its versions, its history, who holds it (reads, offline pins) and which devices confirmed
//! a purge.
//!
//! Feed messages, written in the same transaction, as broadcasts (one row for everyone):
//! - `content_changed {kind: "library", ids}` to every user when a version is released, a
//!   released document's metadata changes, or the document ends;
//! - `library_withdrawn {id, state, at, reason, replacement, items}` to every user when it is
//!   withdrawn or expires, and again once its cascade reports the company's items it ended.

use async_trait::async_trait;
use events::library::{CascadeStep, LibraryEvent, Status, VersionFile, LIBRARY_TYPE};
use serde::Serialize;

use crate::{feed, on_tx, Projection, ProjectionError, StoredEvent, TableSpec, Tx};

pub struct LibraryProjection;

pub const NAME: &str = "library";
/// Feed kind of a withdrawal or expiry.
pub const WITHDRAWN_KIND: &str = "library_withdrawn";
/// Feed kind of a change of what reps see.
pub const CONTENT_CHANGED_KIND: &str = "content_changed";

const TABLES: &[TableSpec] = &[
    TableSpec {
        name: "library_state",
        order_by: "id",
    },
    TableSpec {
        name: "library_versions",
        order_by: "library_id, version",
    },
    TableSpec {
        name: "library_history",
        order_by: "library_id, seq",
    },
    TableSpec {
        name: "library_holders",
        order_by: "library_id, user_id, how, device",
    },
    TableSpec {
        name: "library_purges",
        order_by: "library_id, device",
    },
];

/// One document as stored.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct StateRow {
    pub id: i64,
    pub title: String,
    pub status: String,
    pub version: i64,
    pub released_version: Option<i64>,
    /// JSON [`VersionFile`] of the released version.
    pub released_file: Option<String>,
    pub released_at: Option<i64>,
    pub audience: String,
    /// JSON `events::documents::Labels`.
    pub labels: String,
    /// JSON array of product ids.
    pub products: String,
    /// JSON array of programme ids.
    pub programmes: String,
    pub category: Option<String>,
    pub release_at: Option<i64>,
    pub expires_at: Option<i64>,
    pub created_at: i64,
    pub updated_at: i64,
    pub author_id: String,
    pub author_name: String,
    pub ended_state: Option<String>,
    pub ended_at: Option<i64>,
    pub ended_by_id: Option<String>,
    pub ended_by_name: Option<String>,
    pub ended_reason: Option<String>,
    pub replacement: Option<i64>,
    /// JSON array of the company's item ids the end reached.
    pub ended_items: String,
    /// JSON array of the users who held the company's items.
    pub ended_holders: String,
    /// JSON [`CascadeStep`] still to run.
    pub cascade_due: Option<String>,
}

impl StateRow {
    pub fn released_file(&self) -> Option<VersionFile> {
        self.released_file
            .as_deref()
            .and_then(|f| serde_json::from_str(f).ok())
    }

    pub fn labels(&self) -> events::documents::Labels {
        serde_json::from_str(&self.labels).unwrap_or_default()
    }

    pub fn ids(json: &str) -> Vec<i64> {
        serde_json::from_str(json).unwrap_or_default()
    }

    pub fn ended_items(&self) -> Vec<String> {
        serde_json::from_str(&self.ended_items).unwrap_or_default()
    }

    pub fn ended_holders(&self) -> Vec<String> {
        serde_json::from_str(&self.ended_holders).unwrap_or_default()
    }

    pub fn cascade_due(&self) -> Option<CascadeStep> {
        self.cascade_due
            .as_deref()
            .and_then(|c| serde_json::from_str(c).ok())
    }

    /// Whether reps see it now.
    pub fn visible(&self) -> bool {
        self.released_version.is_some() && self.ended_state.is_none()
    }
}

/// One version as stored.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct VersionRow {
    pub library_id: i64,
    pub version: i64,
    pub file_name: String,
    pub blob: String,
    pub size: i64,
    pub sha256: Option<String>,
    pub format: String,
    pub note: Option<String>,
    pub author_id: String,
    pub author_name: String,
    pub uploaded_at: i64,
    pub status: String,
    pub submitted_at: Option<i64>,
    pub decided_by_id: Option<String>,
    pub decided_by_name: Option<String>,
    pub decided_at: Option<i64>,
    pub comment: Option<String>,
    pub released_at: Option<i64>,
}

/// One step of the history.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct HistoryRow {
    pub at: i64,
    pub actor_id: String,
    pub actor_name: String,
    pub action: String,
    pub detail: String,
}

/// One way a user held a document.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct HolderRow {
    pub user_id: String,
    /// `opened`, `downloaded` or `pinned_offline`.
    pub how: String,
    /// Empty unless pinned.
    pub device: String,
    pub at: i64,
}

/// A device's purge confirmation.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct PurgeRow {
    pub device: String,
    pub user_id: String,
    pub at: i64,
}

/// The document replacing a withdrawn one, as messages name it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReplacementRef {
    pub id: i64,
    pub title: String,
    pub url: String,
}

#[derive(Serialize)]
struct WithdrawnMessage<'a> {
    id: i64,
    state: &'a str,
    at: i64,
    reason: &'a str,
    replacement: Option<ReplacementRef>,
    items: Vec<String>,
}

#[derive(Serialize)]
struct ContentChanged {
    kind: &'static str,
    ids: Vec<i64>,
}

/// Where the signed-in app opens a library document's file.
pub fn file_url(id: i64) -> String {
    format!("/api/library/{id}/file")
}

const STATE_COLUMNS: &str =
    "id, title, status, version, released_version, released_file, released_at, audience, labels, \
     products, programmes, category, release_at, expires_at, created_at, updated_at, author_id, \
     author_name, ended_state, ended_at, ended_by_id, ended_by_name, ended_reason, replacement, \
     ended_items, ended_holders, cascade_due";

const VERSION_COLUMNS: &str =
    "library_id, version, file_name, blob, size, sha256, format, note, author_id, author_name, \
     uploaded_at, status, submitted_at, decided_by_id, decided_by_name, decided_at, comment, released_at";

fn json<T: Serialize>(value: &T) -> Result<String, sqlx::Error> {
    feed::payload(value)
}

async fn exec(tx: &mut Tx, sql: &str, binds: Vec<Bind>) -> Result<(), sqlx::Error> {
    on_tx!(tx, c => {
        let mut q = sqlx::query(sql);
        for b in &binds {
            q = match b {
                Bind::I(v) => q.bind(*v),
                Bind::T(v) => q.bind(v.clone()),
            };
        }
        q.execute(c).await.map(|r| r.rows_affected())
    })?;
    Ok(())
}

/// A bound value of [`exec`]: an optional integer or text.
enum Bind {
    I(Option<i64>),
    T(Option<String>),
}

fn i(v: i64) -> Bind {
    Bind::I(Some(v))
}
fn oi(v: Option<i64>) -> Bind {
    Bind::I(v)
}
fn t(v: impl Into<String>) -> Bind {
    Bind::T(Some(v.into()))
}
fn ot(v: Option<String>) -> Bind {
    Bind::T(v)
}

/// Sets the document's status from its end, its latest version and its released one.
async fn refresh_status(tx: &mut Tx, id: i64, at: i64) -> Result<(), sqlx::Error> {
    exec(
        tx,
        "update library_state set updated_at = $2, status = coalesce(ended_state,
             (select case when v.status = 'released' then 'released' else v.status end
                from library_versions v where v.library_id = library_state.id
                order by v.version desc limit 1), 'draft')
         where id = $1",
        vec![i(id), i(at)],
    )
    .await
}

async fn history(
    tx: &mut Tx,
    event: &StoredEvent,
    id: i64,
    at: i64,
    actor: (&str, &str),
    action: &str,
    detail: String,
) -> Result<(), sqlx::Error> {
    exec(
        tx,
        "insert into library_history (library_id, seq, at, actor_id, actor_name, action, detail)
         values ($1, $2, $3, $4, $5, $6, $7) on conflict do nothing",
        vec![
            i(id),
            i(event.sequence),
            i(at),
            t(actor.0),
            t(actor.1),
            t(action),
            t(detail),
        ],
    )
    .await
}

async fn content_changed(tx: &mut Tx, id: i64, at: i64) -> Result<(), sqlx::Error> {
    let message = ContentChanged {
        kind: "library",
        ids: vec![id],
    };
    feed::push_broadcast(tx, CONTENT_CHANGED_KIND, &message, at).await
}

async fn announce_end(tx: &mut Tx, id: i64, at: i64) -> Result<(), sqlx::Error> {
    let Some(row) = state(tx, id).await? else {
        return Ok(());
    };
    let replacement = match row.replacement {
        Some(r) => state(tx, r).await?.map(|r| ReplacementRef {
            id: r.id,
            title: r.title,
            url: file_url(r.id),
        }),
        None => None,
    };
    let message = WithdrawnMessage {
        id,
        state: row.ended_state.as_deref().unwrap_or("withdrawn"),
        at: row.ended_at.unwrap_or(at),
        reason: row.ended_reason.as_deref().unwrap_or_default(),
        replacement,
        items: row.ended_items(),
    };
    feed::push_broadcast(tx, WITHDRAWN_KIND, &message, at).await
}

async fn apply_event(tx: &mut Tx, event: &StoredEvent) -> Result<(), ProjectionError> {
    let decoded: LibraryEvent = event
        .decode()
        .map_err(|e| ProjectionError::bad_event(event, e))?;
    let id: i64 = event
        .aggregate_id
        .parse()
        .map_err(|e| ProjectionError::bad_event(event, e))?;
    match decoded {
        LibraryEvent::Created {
            by, metadata, at, ..
        } => {
            exec(tx,
                "insert into library_state (id, title, status, version, audience, labels, products,
                     programmes, category, release_at, expires_at, created_at, updated_at, author_id, author_name)
                 values ($1, $2, 'draft', 0, $3, $4, $5, $6, $7, $8, $9, $10, $10, $11, $12)
                 on conflict (id) do nothing",
                vec![i(id), t(metadata.title.clone()), t(metadata.audience.as_str()), t(json(&metadata.labels)?),
                    t(json(&metadata.products)?), t(json(&metadata.programmes)?), ot(metadata.category.clone()),
                    oi(metadata.release_at), oi(metadata.expires_at), i(at), t(by.id.clone()), t(by.name.clone())]).await?;
            history(
                tx,
                event,
                id,
                at,
                (&by.id, &by.name),
                "created",
                metadata.title,
            )
            .await?;
        }
        LibraryEvent::VersionUploaded {
            version,
            file,
            note,
            by,
            at,
        } => {
            exec(tx,
                "insert into library_versions (library_id, version, file_name, blob, size, sha256, format, note,
                     author_id, author_name, uploaded_at, status)
                 values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'draft') on conflict do nothing",
                vec![i(id), i(i64::from(version)), t(file.file_name.clone()), t(file.blob.clone()), i(file.size),
                    ot(file.sha256.clone()), t(file.format.extension()), ot(note.clone()), t(by.id.clone()),
                    t(by.name.clone()), i(at)]).await?;
            exec(
                tx,
                "update library_state set version = $2 where id = $1",
                vec![i(id), i(i64::from(version))],
            )
            .await?;
            refresh_status(tx, id, at).await?;
            let detail = format!(
                "version {version}: {}{}",
                file.file_name,
                note.map(|n| format!(" ({n})")).unwrap_or_default()
            );
            history(
                tx,
                event,
                id,
                at,
                (&by.id, &by.name),
                "version_uploaded",
                detail,
            )
            .await?;
        }
        LibraryEvent::MetadataChanged {
            by,
            metadata,
            changed,
            at,
        } => {
            exec(tx,
                "update library_state set title = $2, audience = $3, labels = $4, products = $5, programmes = $6,
                     category = $7, release_at = $8, expires_at = $9, updated_at = $10 where id = $1",
                vec![i(id), t(metadata.title.clone()), t(metadata.audience.as_str()), t(json(&metadata.labels)?),
                    t(json(&metadata.products)?), t(json(&metadata.programmes)?), ot(metadata.category.clone()),
                    oi(metadata.release_at), oi(metadata.expires_at), i(at)]).await?;
            history(
                tx,
                event,
                id,
                at,
                (&by.id, &by.name),
                "metadata_changed",
                changed.join(", "),
            )
            .await?;
            if state(tx, id).await?.is_some_and(|s| s.visible()) {
                content_changed(tx, id, at).await?;
            }
        }
        LibraryEvent::Submitted { version, by, at } => {
            exec(tx,
                "update library_versions set status = 'in_review', submitted_at = $3 where library_id = $1 and version = $2",
                vec![i(id), i(i64::from(version)), i(at)]).await?;
            refresh_status(tx, id, at).await?;
            history(
                tx,
                event,
                id,
                at,
                (&by.id, &by.name),
                "submitted",
                format!("version {version}"),
            )
            .await?;
        }
        LibraryEvent::Approved {
            version,
            by,
            comment,
            at,
        }
        | LibraryEvent::Rejected {
            version,
            by,
            comment,
            at,
        } => {
            let approved = matches!(decoded_kind(event), "Approved");
            let status = if approved { "approved" } else { "draft" };
            exec(
                tx,
                "update library_versions set status = $3, decided_by_id = $4, decided_by_name = $5,
                     decided_at = $6, comment = $7 where library_id = $1 and version = $2",
                vec![
                    i(id),
                    i(i64::from(version)),
                    t(status),
                    t(by.id.clone()),
                    t(by.name.clone()),
                    i(at),
                    ot(comment.clone()),
                ],
            )
            .await?;
            refresh_status(tx, id, at).await?;
            let action = if approved { "approved" } else { "rejected" };
            let detail = format!(
                "version {version}{}",
                comment.map(|c| format!(": {c}")).unwrap_or_default()
            );
            history(tx, event, id, at, (&by.id, &by.name), action, detail).await?;
        }
        LibraryEvent::Released { version, by, at } => {
            exec(tx,
                "update library_versions set status = 'released', released_at = $3 where library_id = $1 and version = $2",
                vec![i(id), i(i64::from(version)), i(at)]).await?;
            let file: Option<VersionRow> = version_row(tx, id, i64::from(version)).await?;
            let file = file.map(|v| v.file());
            exec(tx,
                "update library_state set released_version = $2, released_file = $3, released_at = $4,
                     cascade_due = $5 where id = $1",
                vec![i(id), i(i64::from(version)), ot(file.as_ref().map(json).transpose()?), i(at),
                    t(json(&CascadeStep::Release { version })?)]).await?;
            refresh_status(tx, id, at).await?;
            let (actor_id, actor_name) = by
                .map(|b| (b.id, b.name))
                .unwrap_or_else(|| ("system".into(), "Scheduled release".into()));
            history(
                tx,
                event,
                id,
                at,
                (&actor_id, &actor_name),
                "released",
                format!("version {version}"),
            )
            .await?;
            content_changed(tx, id, at).await?;
        }
        LibraryEvent::Expired { at } => {
            exec(tx,
                "update library_state set ended_state = 'expired', ended_at = $2, ended_by_id = null,
                     ended_by_name = null, ended_reason = '', replacement = null, cascade_due = $3 where id = $1",
                vec![i(id), i(at), t(json(&CascadeStep::End)?)]).await?;
            refresh_status(tx, id, at).await?;
            history(
                tx,
                event,
                id,
                at,
                ("system", "Scheduled expiry"),
                "expired",
                String::new(),
            )
            .await?;
            announce_end(tx, id, at).await?;
            content_changed(tx, id, at).await?;
        }
        LibraryEvent::Withdrawn {
            by,
            reason,
            replacement,
            at,
        } => {
            exec(tx,
                "update library_state set ended_state = 'withdrawn', ended_at = $2, ended_by_id = $3,
                     ended_by_name = $4, ended_reason = $5, replacement = $6, cascade_due = $7 where id = $1",
                vec![i(id), i(at), t(by.id.clone()), t(by.name.clone()), t(reason.clone()), oi(replacement),
                    t(json(&CascadeStep::End)?)]).await?;
            refresh_status(tx, id, at).await?;
            // Named by its title as it was at the withdrawal (a replay reads the same).
            let detail = match replacement {
                Some(r) => match state(tx, r).await? {
                    Some(replacement) => {
                        format!("{reason} (replaced by “{}”, #{r})", replacement.title)
                    }
                    None => format!("{reason} (replaced by #{r})"),
                },
                None => reason,
            };
            history(tx, event, id, at, (&by.id, &by.name), "withdrawn", detail).await?;
            announce_end(tx, id, at).await?;
            content_changed(tx, id, at).await?;
        }
        LibraryEvent::Read {
            by, download, at, ..
        } => {
            let how = if download { "downloaded" } else { "opened" };
            exec(tx,
                "insert into library_holders (library_id, user_id, how, device, at) values ($1, $2, $3, '', $4)
                 on conflict do nothing",
                vec![i(id), t(by), t(how), i(at)]).await?;
        }
        LibraryEvent::PinnedOffline { by, device, at } => {
            exec(tx,
                "insert into library_holders (library_id, user_id, how, device, at) values ($1, $2, 'pinned_offline', $3, $4)
                 on conflict do nothing",
                vec![i(id), t(by), t(device), i(at)]).await?;
        }
        LibraryEvent::PurgeConfirmed { by, device, at } => {
            exec(tx,
                "insert into library_purges (library_id, device, user_id, at) values ($1, $2, $3, $4)
                 on conflict do nothing",
                vec![i(id), t(device), t(by), i(at)]).await?;
        }
        LibraryEvent::CascadeCompleted {
            step,
            items,
            holders,
            at,
        } => {
            exec(
                tx,
                "update library_state set cascade_due = null where id = $1 and cascade_due = $2",
                vec![i(id), t(json(&step)?)],
            )
            .await?;
            if step == CascadeStep::End {
                exec(
                    tx,
                    "update library_state set ended_items = $2, ended_holders = $3 where id = $1",
                    vec![i(id), t(json(&items)?), t(json(&holders)?)],
                )
                .await?;
                if !items.is_empty() {
                    announce_end(tx, id, at).await?;
                }
            } else if !items.is_empty() {
                // The company's US item now holds the release: open US tabs refresh again.
                content_changed(tx, id, at).await?;
            }
        }
    }
    Ok(())
}

fn decoded_kind(event: &StoredEvent) -> &str {
    event.event_type.as_str()
}

impl VersionRow {
    pub fn file(&self) -> VersionFile {
        VersionFile {
            file_name: self.file_name.clone(),
            blob: self.blob.clone(),
            size: self.size,
            sha256: self.sha256.clone(),
            format: events::documents::FileFormat::from_file_name(&format!("x.{}", self.format))
                .unwrap_or(events::documents::FileFormat::Pdf),
        }
    }

    /// The version's status word.
    pub fn status(&self) -> &str {
        &self.status
    }
}

#[async_trait]
impl Projection for LibraryProjection {
    fn name(&self) -> &'static str {
        NAME
    }

    fn tables(&self) -> &'static [TableSpec] {
        TABLES
    }

    async fn apply(&self, tx: &mut Tx, event: &StoredEvent) -> Result<(), ProjectionError> {
        if event.aggregate_type == LIBRARY_TYPE {
            apply_event(tx, event).await
        } else {
            Ok(())
        }
    }

    fn reads(&self, aggregate_type: &str) -> bool {
        aggregate_type == LIBRARY_TYPE
    }
}

// ---- reads ----

/// The document `id`.
pub async fn state(tx: &mut Tx, id: i64) -> Result<Option<StateRow>, sqlx::Error> {
    let sql = format!("select {STATE_COLUMNS} from library_state where id = $1");
    on_tx!(tx, c => sqlx::query_as(&sql).bind(id).fetch_optional(c).await)
}

/// Every document, newest change first.
pub async fn all(tx: &mut Tx) -> Result<Vec<StateRow>, sqlx::Error> {
    let sql =
        format!("select {STATE_COLUMNS} from library_state order by updated_at desc, id desc");
    on_tx!(tx, c => sqlx::query_as(&sql).fetch_all(c).await)
}

/// The highest id known to the library read model.
pub async fn highest_id(tx: &mut Tx) -> Result<Option<i64>, sqlx::Error> {
    on_tx!(tx, c => sqlx::query_scalar("select max(id) from library_state").fetch_one(c).await)
}

/// Approved documents whose release time has come.
pub async fn due_to_release(tx: &mut Tx, now: i64) -> Result<Vec<i64>, sqlx::Error> {
    on_tx!(tx, c => sqlx::query_scalar(
        "select id from library_state where status = 'approved' and coalesce(release_at, 0) <= $1
         order by id limit 500").bind(now).fetch_all(c).await)
}

/// Released documents whose expiry time has come.
pub async fn due_to_expire(tx: &mut Tx, now: i64) -> Result<Vec<i64>, sqlx::Error> {
    on_tx!(tx, c => sqlx::query_scalar(
        "select id from library_state where ended_state is null and released_version is not null
           and expires_at is not null and expires_at <= $1 order by id limit 500")
        .bind(now).fetch_all(c).await)
}

/// Documents whose cascade did not record its completion.
pub async fn cascades_due(tx: &mut Tx) -> Result<Vec<i64>, sqlx::Error> {
    on_tx!(tx, c => sqlx::query_scalar(
        "select id from library_state where cascade_due is not null order by id limit 500")
        .fetch_all(c).await)
}

/// Documents that ended at or after `since` (ms).
pub async fn ended_since(tx: &mut Tx, since: i64) -> Result<Vec<StateRow>, sqlx::Error> {
    let sql = format!(
        "select {STATE_COLUMNS} from library_state where ended_state is not null and ended_at >= $1
         order by ended_at, id"
    );
    on_tx!(tx, c => sqlx::query_as(&sql).bind(since).fetch_all(c).await)
}

/// Released, unended documents (what reps see of the library's lifecycle).
pub async fn visible(tx: &mut Tx) -> Result<Vec<StateRow>, sqlx::Error> {
    let sql = format!(
        "select {STATE_COLUMNS} from library_state where released_version is not null
           and ended_state is null order by id"
    );
    on_tx!(tx, c => sqlx::query_as(&sql).fetch_all(c).await)
}

/// The ids of documents reps must not see (never released yet, or ended).
pub async fn hidden_ids(tx: &mut Tx) -> Result<Vec<i64>, sqlx::Error> {
    on_tx!(tx, c => sqlx::query_scalar(
        "select id from library_state where released_version is null or ended_state is not null order by id")
        .fetch_all(c).await)
}

pub async fn version_row(
    tx: &mut Tx,
    id: i64,
    version: i64,
) -> Result<Option<VersionRow>, sqlx::Error> {
    let sql = format!(
        "select {VERSION_COLUMNS} from library_versions where library_id = $1 and version = $2"
    );
    on_tx!(tx, c => sqlx::query_as(&sql).bind(id).bind(version).fetch_optional(c).await)
}

pub async fn versions(tx: &mut Tx, id: i64) -> Result<Vec<VersionRow>, sqlx::Error> {
    let sql = format!(
        "select {VERSION_COLUMNS} from library_versions where library_id = $1 order by version"
    );
    on_tx!(tx, c => sqlx::query_as(&sql).bind(id).fetch_all(c).await)
}

pub async fn history_of(tx: &mut Tx, id: i64) -> Result<Vec<HistoryRow>, sqlx::Error> {
    on_tx!(tx, c => sqlx::query_as(
        "select at, actor_id, actor_name, action, detail from library_history where library_id = $1 order by seq")
        .bind(id).fetch_all(c).await)
}

pub async fn holders_of(tx: &mut Tx, id: i64) -> Result<Vec<HolderRow>, sqlx::Error> {
    on_tx!(tx, c => sqlx::query_as(
        "select user_id, how, device, at from library_holders where library_id = $1 order by user_id, how, device")
        .bind(id).fetch_all(c).await)
}

pub async fn purges_of(tx: &mut Tx, id: i64) -> Result<Vec<PurgeRow>, sqlx::Error> {
    on_tx!(tx, c => sqlx::query_as(
        "select device, user_id, at from library_purges where library_id = $1 order by device")
        .bind(id).fetch_all(c).await)
}

/// Whether `status` is a version status the API knows.
pub fn is_status(status: &str) -> bool {
    [
        Status::Draft,
        Status::InReview,
        Status::Approved,
        Status::Released,
        Status::Expired,
        Status::Withdrawn,
    ]
    .iter()
    .any(|s| s.as_str() == status)
}
