//! An item's history: its events in order, with who did what, when, and from where to where.

use std::collections::HashMap;

use events::documents::{CopyReason, ItemEvent, Kind, ShareVia, Space};
use projections::{Db, StoredEvent};
use serde::Serialize;
use utoipa::ToSchema;

use super::service::SYSTEM_USER;
use super::services::full_name;
use crate::error::{AppError, AppResult};
use crate::users;

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

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct History {
    pub item: HistoryItem,
    pub entries: Vec<HistoryEntry>,
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

struct Line {
    action: &'static str,
    detail: String,
    from: Option<String>,
    to: Option<String>,
}

fn line(action: &'static str, detail: String) -> Line {
    Line {
        action,
        detail,
        from: None,
        to: None,
    }
}

fn describe(event: &ItemEvent) -> Line {
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
    }
}

/// Turns an item's recorded events into its history.
pub async fn build(db: &Db, id: &str, recorded: &[StoredEvent]) -> AppResult<History> {
    let mut people: HashMap<String, (String, String)> = HashMap::new();
    let mut entries = Vec::with_capacity(recorded.len());
    let mut name = String::new();
    let mut kind = Kind::File;
    for stored in recorded {
        let event: ItemEvent = stored
            .decode()
            .map_err(|e| AppError::Internal(anyhow::anyhow!("history of {id}: {e}")))?;
        match &event {
            ItemEvent::FolderCreated { name: n, .. } => {
                name = n.clone();
                kind = Kind::Folder;
            }
            ItemEvent::FileUploaded { file, .. } => name = file.title.clone(),
            ItemEvent::Copied {
                name: n, kind: k, ..
            } => {
                name = n.clone();
                kind = *k;
            }
            ItemEvent::Renamed { to, .. } => name = to.clone(),
            _ => {}
        }
        let user_id = stored.meta("user_id").unwrap_or(SYSTEM_USER).to_string();
        if !people.contains_key(&user_id) {
            let who = match users::find_by_id(db, &user_id).await? {
                Some(u) => (full_name(&u), u.email),
                None if user_id == SYSTEM_USER => {
                    ("Meridian Orthopaedics".to_string(), String::new())
                }
                None => ("Former user".to_string(), String::new()),
            };
            people.insert(user_id.clone(), who);
        }
        let (actor, actor_email) = people[&user_id].clone();
        let Line {
            action,
            detail,
            from,
            to,
        } = describe(&event);
        entries.push(HistoryEntry {
            at: stored.recorded_at,
            actor,
            actor_email,
            action: action.to_string(),
            detail,
            from,
            to,
        });
    }
    Ok(History {
        item: HistoryItem {
            id: id.to_string(),
            name,
            kind: kind.as_str().to_string(),
            as_of: false,
        },
        entries,
    })
}

/// One CSV field: quoted, quotes doubled, and a leading `= + - @` neutralised so a spreadsheet
/// never runs it as a formula.
fn csv_field(value: &str) -> String {
    let value = if value.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{value}")
    } else {
        value.to_string()
    };
    format!("\"{}\"", value.replace('"', "\"\""))
}

/// The history as CSV (auditors' export).
pub fn to_csv(history: &History) -> String {
    let mut out = String::from("at,actor,actor_email,action,detail,from,to\r\n");
    for e in &history.entries {
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

    #[test]
    fn csv_fields_are_quoted_and_never_formulas() {
        assert_eq!(csv_field("plain"), "\"plain\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        assert_eq!(csv_field("-1"), "\"'-1\"");
    }
}
