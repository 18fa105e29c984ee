//! An item's history: its events with who did what, when, and from where to where, newest
//! first and a page at a time, as each reader is told them ([`HistoryScope`]).

use std::collections::{HashMap, HashSet};

use events::documents::{
    CopyReason, HistoryScope, ItemEvent, Kind, ShareVia, Space, WithdrawnState, ITEM_TYPE,
};
use projections::documents::read::{self, Viewer};
use projections::item_reads::ReadCounts;
use projections::{stream, Db, StoredEvent, Tx};
use serde::Serialize;
use utoipa::ToSchema;

use super::services::full_name;
use crate::auth::User;
use crate::error::{AppError, AppResult};

/// The user id in the metadata of what the company itself does (the US set).
pub const SYSTEM_USER: &str = "system";

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HistoryItem {
    pub id: String,
    /// The latest name.
    pub name: String,
    /// `folder` or `file`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The caller may look at this folder as of a past time (`GET /folders/{id}/as-of`):
    /// auditors, and owners in their own tree; always false for files.
    pub as_of: bool,
    /// How often it was opened and downloaded: by everyone for auditors and the owner, by the
    /// reader themselves for anyone else (from the reads read model).
    pub reads: ReadCounts,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct HistoryEntry {
    /// When, in ms since the epoch.
    pub at: i64,
    /// Who, by name.
    pub actor: String,
    pub actor_email: String,
    /// created, uploaded, renamed, moved, shared, shared_externally, saved_to_mydocs,
    /// moved_to_mydocs, opened, downloaded, removed or deleted.
    pub action: String,
    pub detail: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
}

/// One page of an item's history, newest first, as its reader is told it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct History {
    pub item: HistoryItem,
    pub entries: Vec<HistoryEntry>,
    /// Pass as `before` for the next (older) page; null on the last page. Events recorded
    /// while the pages are walked never make an entry repeat or go missing.
    pub next: Option<String>,
}

/// Where an item sits, as history shows it.
fn place(parent: Option<&events::documents::ItemRef>, space: Space) -> String {
    match (parent, space) {
        (Some(p), _) => p.name.clone(),
        (None, Space::My) => "My docs".into(),
        (None, Space::Us) => "US".into(),
    }
}

fn when(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|t| t.format("%Y-%m-%d %H:%M UTC").to_string())
        .unwrap_or_default()
}

/// One event as history tells it (the activity of `crate::audit` tells it the same way).
pub struct Line {
    pub action: &'static str,
    pub detail: String,
    pub from: Option<String>,
    pub to: Option<String>,
}

fn line(action: &'static str, detail: String) -> Line {
    Line {
        action,
        detail,
        from: None,
        to: None,
    }
}

pub fn describe(event: &ItemEvent) -> Line {
    match event {
        ItemEvent::FolderCreated {
            parent,
            name,
            space,
            ..
        } => Line {
            to: Some(place(parent.as_ref(), *space)),
            ..line("created", format!("Folder '{name}' created"))
        },
        ItemEvent::FileUploaded {
            parent,
            file,
            space,
            ..
        } => Line {
            to: Some(place(parent.as_ref(), *space)),
            ..line(
                "uploaded",
                format!(
                    "'{}' uploaded ({}, {} bytes)",
                    file.title, file.name, file.size
                ),
            )
        },
        ItemEvent::Copied {
            parent,
            source,
            reason,
            owner,
            ..
        } => {
            let (action, how) = match reason {
                CopyReason::Save => ("saved_to_mydocs", "saved"),
                CopyReason::Move => ("moved_to_mydocs", "moved"),
            };
            Line {
                from: Some(source.name.clone()),
                to: Some(place(parent.as_ref(), Space::My)),
                ..line(
                    action,
                    format!(
                        "Copy of '{}' {how} to the My Docs of {}",
                        source.name, owner.name
                    ),
                )
            }
        }
        ItemEvent::Renamed { from, to, .. } => Line {
            from: Some(from.clone()),
            to: Some(to.clone()),
            ..line("renamed", format!("Renamed from '{from}' to '{to}'"))
        },
        ItemEvent::Moved { from, to } => {
            let from = place(from.as_ref(), Space::My);
            let to = place(to.as_ref(), Space::My);
            Line {
                detail: format!("Moved from '{from}' to '{to}'"),
                from: Some(from),
                to: Some(to),
                action: "moved",
            }
        }
        ItemEvent::FolderDeleted { removed, .. } => line(
            "deleted",
            match removed.len() {
                0 => "Folder deleted".to_string(),
                1 => "Folder deleted with the 1 item inside".to_string(),
                n => format!("Folder deleted with the {n} items inside"),
            },
        ),
        ItemEvent::FileRemoved { .. } => line("removed", "Removed from My Docs".into()),
        ItemEvent::DeletedWithFolder { folder } => Line {
            from: Some(folder.name.clone()),
            ..line(
                "deleted",
                format!("Deleted with the folder '{}'", folder.name),
            )
        },
        ItemEvent::Shared { with, via, .. } => Line {
            to: Some(with.name.clone()),
            ..line(
                "shared",
                match via {
                    ShareVia::Internal => format!("Shared with {}", with.name),
                    ShareVia::Storage => {
                        format!("Shared with {} from the company storage", with.name)
                    }
                },
            )
        },
        ItemEvent::SharedExternally {
            email, expires_at, ..
        } => Line {
            to: Some(email.clone()),
            ..line(
                "shared_externally",
                format!("Link sent to {email}, valid until {}", when(*expires_at)),
            )
        },
        ItemEvent::SavedToMyDocs { .. } => {
            line("saved_to_mydocs", "A copy was saved to My Docs".into())
        }
        ItemEvent::MovedToMyDocs { .. } => line(
            "moved_to_mydocs",
            "Moved to My Docs, out of Shared with me".into(),
        ),
        ItemEvent::Opened { .. } => line("opened", "Opened".into()),
        ItemEvent::Downloaded { .. } => line("downloaded", "Downloaded".into()),
        ItemEvent::FileReplaced {
            file,
            version,
            note,
            ..
        } => {
            let note = note
                .as_deref()
                .map(|n| format!(": {n}"))
                .unwrap_or_default();
            Line {
                to: Some(file.title.clone()),
                ..line(
                    "file_replaced",
                    format!("Replaced by version {version} of the company's document{note}"),
                )
            }
        }
        ItemEvent::Withdrawn {
            state,
            reason,
            replacement,
            ..
        } => {
            let what = match state {
                WithdrawnState::Withdrawn => "Withdrawn by the company",
                WithdrawnState::Expired => "Expired",
            };
            let reason = Some(reason.as_str())
                .filter(|r| !r.is_empty())
                .map(|r| format!(": {r}"))
                .unwrap_or_default();
            Line {
                to: replacement.as_ref().map(|r| r.title.clone()),
                ..line(state.as_str(), format!("{what}{reason}"))
            }
        }
    }
}

/// The engagement of an external share's link, as history appends it to the share's line.
fn engagement_summary(row: &projections::share_engagement::ShareRow) -> String {
    let times = |n: i64| {
        if n == 1 {
            "once".to_string()
        } else {
            format!("{n} times")
        }
    };
    let mut out = format!("; opened {}", times(row.opens));
    if let Some(last) = row.last_opened_at {
        out.push_str(&format!(" (last {})", when(last)));
    }
    out.push_str(&format!(", downloaded {}", times(row.downloads)));
    if row.devices > 1 {
        out.push_str(", possibly forwarded");
    }
    match (row.revoked_at, row.revoked_reason.as_deref()) {
        (Some(at), Some("document_ended")) => {
            out.push_str(&format!("; ended with the document {}", when(at)))
        }
        (Some(at), Some("account_disabled")) => out.push_str(&format!(
            "; revoked when the sender's account was disabled {}",
            when(at)
        )),
        (Some(at), Some("admin")) => {
            out.push_str(&format!("; revoked by an administrator {}", when(at)))
        }
        (Some(at), _) => out.push_str(&format!("; revoked {}", when(at))),
        (None, _) => {}
    }
    if let Some(at) = row.expired_at {
        out.push_str(&format!("; expired {}", when(at)));
    }
    out
}

/// Most entries in one page of history, and the default.
pub const MAX_PAGE: i64 = 200;
/// Entries per read while the CSV export streams.
pub const CSV_PAGE: i64 = 1_000;

/// The tag of history cursors (a cursor of another paged list is refused here).
const CURSOR_TAG: &str = "h1";

/// `next` of a page: the stream sequence of its last (oldest) entry, opaque to clients.
pub fn cursor(sequence: i64) -> String {
    crate::paging::cursor(CURSOR_TAG, sequence)
}

/// The `before` of a history query: a cursor this server gave (400 otherwise).
pub fn parse_cursor(raw: &str) -> AppResult<i64> {
    crate::paging::parse_cursor(CURSOR_TAG, raw)
}

/// The `limit` of a history query: 1 to [`MAX_PAGE`], [`MAX_PAGE`] when absent.
pub fn limit_of(raw: Option<i64>) -> AppResult<i64> {
    crate::paging::limit(raw, MAX_PAGE, MAX_PAGE)
}

fn internal(id: &str, e: impl std::fmt::Display) -> AppError {
    AppError::Internal(anyhow::anyhow!("history of {id}: {e}"))
}

/// The item as its history names it: its latest name (its creation, or its last rename) and
/// its kind, from two events rather than its whole stream. 404 for an item never recorded.
pub async fn item_of(db: &Db, id: &str) -> AppResult<HistoryItem> {
    // The first event creates the item (cqrs-es numbers a stream from 1).
    let created = stream::events_of_between(db, ITEM_TYPE, id, 0, 1)
        .await
        .map_err(|e| internal(id, e))?;
    let created = created
        .first()
        .ok_or_else(|| AppError::not_found("The folder or file was not found"))?;
    let (mut name, kind) = match created.decode::<ItemEvent>().map_err(|e| internal(id, e))? {
        ItemEvent::FolderCreated { name, .. } => (name, Kind::Folder),
        ItemEvent::FileUploaded { file, .. } => (file.title, Kind::File),
        ItemEvent::Copied { name, kind, .. } => (name, kind),
        other => return Err(internal(id, format!("begins with {other:?}"))),
    };
    let renamed = stream::last_event_of_type(db, ITEM_TYPE, id, "Renamed")
        .await
        .map_err(|e| internal(id, e))?;
    let replaced = stream::last_event_of_type(db, ITEM_TYPE, id, "FileReplaced")
        .await
        .map_err(|e| internal(id, e))?;
    // Whichever came last names the item: a rename or a new version of the company's file.
    let mut latest: Vec<_> = renamed.into_iter().chain(replaced).collect();
    latest.sort_by_key(|e| e.sequence);
    if let Some(last) = latest.pop() {
        match last.decode().map_err(|e| internal(id, e))? {
            ItemEvent::Renamed { to, .. } => name = to,
            ItemEvent::FileReplaced { file, .. } => name = file.title,
            _ => {}
        }
    }
    Ok(HistoryItem {
        id: id.to_string(),
        name,
        kind: kind.as_str().to_string(),
        as_of: false,
        reads: ReadCounts::default(),
    })
}

/// One reader of one item's history: who they are, how much they are told
/// ([`HistoryScope`]), and what they see of the folders events name.
pub struct Reader {
    db: Db,
    item: String,
    viewer: Viewer,
    shares: HashSet<String>,
    scope: HistoryScope,
    people: HashMap<String, (String, String)>,
    folders: HashMap<String, bool>,
}

impl Reader {
    pub fn new(
        db: &Db,
        item: &str,
        viewer: Viewer,
        shares: HashSet<String>,
        scope: HistoryScope,
    ) -> Reader {
        Reader {
            db: db.clone(),
            item: item.to_string(),
            viewer,
            shares,
            scope,
            people: HashMap::new(),
            folders: HashMap::new(),
        }
    }

    async fn person(&mut self, user_id: &str) -> AppResult<(String, String)> {
        if let Some(who) = self.people.get(user_id) {
            return Ok(who.clone());
        }
        let who = match User::find_by_id(&self.db, user_id).await? {
            Some(u) => (full_name(&u), u.email),
            None if user_id == SYSTEM_USER => ("Meridian Orthopaedics".to_string(), String::new()),
            None => ("Former user".to_string(), String::new()),
        };
        self.people.insert(user_id.to_string(), who.clone());
        Ok(who)
    }

    /// Whether the reader sees the folder `id` now (as the document lists decide it).
    async fn sees_folder(&mut self, id: &str) -> AppResult<bool> {
        if let Some(sees) = self.folders.get(id) {
            return Ok(*sees);
        }
        let mut tx = Tx::read(&self.db).await?;
        let sees = read::item(&mut tx, &self.viewer.id, id)
            .await?
            .is_some_and(|row| row.access(&self.viewer, &self.shares).sees());
        self.folders.insert(id.to_string(), sees);
        Ok(sees)
    }

    /// The entry the reader is told of `stored`, if any.
    async fn entry(&mut self, stored: &StoredEvent) -> AppResult<Option<HistoryEntry>> {
        let event: ItemEvent = stored.decode().map_err(|e| internal(&self.item, e))?;
        let user_id = stored
            .meta("user_id")
            .unwrap_or_else(|| SYSTEM_USER.to_string());
        if !self.scope.shows(&self.viewer.id, &user_id, &event) {
            return Ok(None);
        }
        let mut hidden = HashSet::new();
        if self.scope == HistoryScope::Own {
            for folder in HistoryScope::folders_named(&event) {
                if !self.sees_folder(folder).await? {
                    hidden.insert(folder.to_string());
                }
            }
        }
        let event = self.scope.redact(event, |id| !hidden.contains(id));
        let (actor, actor_email) = self.person(&user_id).await?;
        let Line {
            action,
            mut detail,
            from,
            to,
        } = describe(&event);
        // An external share: what became of its link (opens, downloads, revocation, expiry),
        // told to whoever is told of the share (auditors, the owner, the sender).
        if let ItemEvent::SharedExternally {
            share, token_hash, ..
        } = &event
        {
            let id = if share.is_empty() { token_hash } else { share };
            let mut tx = Tx::read(&self.db).await?;
            if let Some(row) = projections::share_engagement::by_id(&mut tx, id).await? {
                detail.push_str(&engagement_summary(&row));
            }
        }
        Ok(Some(HistoryEntry {
            at: stored.recorded_at,
            actor,
            actor_email,
            action: action.to_string(),
            detail,
            from,
            to,
        }))
    }

    /// Up to `limit` entries the reader is told, older than the sequence `before` (from the
    /// newest when `None`), newest first, and the `before` of the next page. The stream is read
    /// `limit + 1` events at a time, so a page never holds more than that in memory.
    pub async fn page(
        &mut self,
        before: Option<i64>,
        limit: i64,
    ) -> AppResult<(Vec<HistoryEntry>, Option<i64>)> {
        let mut entries = Vec::new();
        let mut last = None;
        let mut below = before;
        loop {
            let chunk = stream::events_of_before(&self.db, ITEM_TYPE, &self.item, below, limit + 1)
                .await
                .map_err(|e| internal(&self.item, e))?;
            for stored in &chunk {
                below = Some(stored.sequence);
                if let Some(entry) = self.entry(stored).await? {
                    if entries.len() as i64 == limit {
                        // One more entry exists: this page ends at the one before it.
                        return Ok((entries, last));
                    }
                    entries.push(entry);
                    last = Some(stored.sequence);
                }
            }
            if (chunk.len() as i64) <= limit {
                return Ok((entries, None));
            }
        }
    }
}

/// One CSV field: quoted, quotes doubled, and a leading `= + - @` neutralised so a spreadsheet
/// never runs it as a formula.
pub fn csv_field(value: &str) -> String {
    let value = if value.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{value}")
    } else {
        value.to_string()
    };
    format!("\"{}\"", value.replace('"', "\"\""))
}

/// The CSV header of a history export.
pub const CSV_HEAD: &str = "at,actor,actor_email,action,detail,from,to\r\n";

/// History entries as CSV rows (auditors' export).
pub fn csv_rows(entries: &[HistoryEntry]) -> String {
    let mut out = String::new();
    for e in entries {
        let at = chrono::DateTime::from_timestamp_millis(e.at)
            .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true))
            .unwrap_or_default();
        let row = [
            at.as_str(),
            &e.actor,
            &e.actor_email,
            &e.action,
            &e.detail,
            e.from.as_deref().unwrap_or(""),
            e.to.as_deref().unwrap_or(""),
        ]
        .map(csv_field)
        .join(",");
        out.push_str(&row);
        out.push_str("\r\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine as _;

    #[test]
    fn csv_fields_are_quoted_and_never_formulas() {
        assert_eq!(csv_field("plain"), "\"plain\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        assert_eq!(csv_field("-1"), "\"'-1\"");
    }

    #[test]
    fn cursors_round_trip_and_refuse_anything_else() {
        assert_eq!(parse_cursor(&cursor(42)).ok(), Some(42));
        for bad in ["42", "", "garbage", &cursor(0), &cursor(-3)] {
            assert!(parse_cursor(bad).is_err(), "{bad}");
        }
        let other = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode("a1:42");
        assert!(parse_cursor(&other).is_err());
    }

    #[test]
    fn limits_are_one_to_two_hundred() {
        assert_eq!(limit_of(None).ok(), Some(MAX_PAGE));
        assert_eq!(limit_of(Some(1)).ok(), Some(1));
        assert_eq!(limit_of(Some(200)).ok(), Some(200));
        assert!(limit_of(Some(0)).is_err());
        assert!(limit_of(Some(201)).is_err());
        assert!(limit_of(Some(-1)).is_err());
    }
}
