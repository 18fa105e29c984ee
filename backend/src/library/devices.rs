//! What devices tell the server and ask of it: offline pins, purge confirmations, and the
//! documents ended since a device was last online (it purges them before it shows anything).

use std::sync::Arc;

use axum::extract::State;
use events::library::LibraryCommand;
use projections::library as model;
use projections::now_ms;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::operations::Library;
use crate::auth::AuthUser;
use crate::error::{AppError, AppJson, AppQuery, AppResult, ErrorBody, Replacement};

/// Longest device id accepted.
const MAX_DEVICE_LEN: usize = 200;
/// Most documents and items in one report.
const MAX_ENTRIES: usize = 500;

/// Documents (library ids) and company items a device reports on.
#[derive(Debug, Deserialize, ToSchema)]
pub struct DeviceReport {
    /// The device's id (as registered, or the app's own installation id).
    pub device: String,
    #[serde(default)]
    pub library: Vec<i64>,
    /// Item ids of the company's copies (their library document is found by the server).
    #[serde(default)]
    pub items: Vec<String>,
}

/// Offline pins of a device.
#[derive(Debug, Deserialize, ToSchema)]
pub struct PinReport {
    #[serde(flatten)]
    pub report: DeviceReport,
    /// True when pinned; an unpin records nothing (the report shows who ever held a copy).
    #[serde(default = "yes")]
    pub pinned: bool,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Recorded {
    pub recorded: usize,
}

fn check(report: &DeviceReport) -> AppResult<String> {
    let device = report.device.trim();
    if device.is_empty() || device.chars().count() > MAX_DEVICE_LEN {
        return Err(AppError::bad_request(
            "The device is required (at most 200 characters)",
        ));
    }
    if report.library.len() + report.items.len() > MAX_ENTRIES {
        return Err(AppError::bad_request(
            "Report at most 500 documents at a time",
        ));
    }
    Ok(device.to_string())
}

/// The library ids a report names: its own, and those of the company items it names.
async fn library_ids(library: &Library, report: &DeviceReport) -> AppResult<Vec<i64>> {
    let mut ids = report.library.clone();
    for item in &report.items {
        let seed: Option<String> = projections::on_db!(&library.db, pool => sqlx::query_scalar(
            "select seed_key from doc_items where id = $1")
            .bind(item).fetch_optional(pool).await)
        .unwrap_or(None);
        if let Some(id) = seed
            .as_deref()
            .and_then(|s| s.strip_prefix("library:"))
            .and_then(|s| s.parse().ok())
        {
            ids.push(id);
        }
    }
    ids.sort_unstable();
    ids.dedup();
    Ok(ids)
}

/// The device confirms it purged these documents (one confirmation per document and device).
#[utoipa::path(post, path = "/library/purges", tag = "documents", security(("bearer" = [])),
    request_body = DeviceReport,
    responses((status = 200, body = Recorded), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
pub async fn purges(
    State(library): State<Arc<Library>>,
    user: AuthUser,
    AppJson(report): AppJson<DeviceReport>,
) -> AppResult<AppJson<Recorded>> {
    let device = check(&report)?;
    let mut recorded = 0;
    for id in library_ids(&library, &report).await? {
        let Ok(row) = library.state(id).await else {
            continue;
        };
        if row.ended_state.is_none() {
            continue;
        }
        let command = LibraryCommand::ConfirmPurge {
            by: user.id.clone(),
            device: device.clone(),
            at: now_ms(),
        };
        library.execute(id, command, &user.id).await?;
        recorded += 1;
    }
    Ok(AppJson(Recorded { recorded }))
}

/// The device pinned these documents for offline use (recorded for the withdrawal report).
#[utoipa::path(post, path = "/library/pins", tag = "documents", security(("bearer" = [])),
    request_body = PinReport,
    responses((status = 200, body = Recorded), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
pub async fn pins(
    State(library): State<Arc<Library>>,
    user: AuthUser,
    AppJson(pins): AppJson<PinReport>,
) -> AppResult<AppJson<Recorded>> {
    let device = check(&pins.report)?;
    if !pins.pinned {
        return Ok(AppJson(Recorded { recorded: 0 }));
    }
    let mut recorded = 0;
    for id in library_ids(&library, &pins.report).await? {
        if library.state(id).await.is_err() {
            continue;
        }
        let command = LibraryCommand::RecordPin {
            by: user.id.clone(),
            device: device.clone(),
            at: now_ms(),
        };
        library.execute(id, command, &user.id).await?;
        recorded += 1;
    }
    Ok(AppJson(Recorded { recorded }))
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct SinceQuery {
    /// Milliseconds since the epoch; none: from the beginning.
    pub since: Option<i64>,
}

/// A document that ended, as a device must purge it.
#[derive(Debug, Serialize, ToSchema)]
pub struct EndedDocument {
    pub id: i64,
    /// `withdrawn` or `expired`.
    pub state: String,
    pub at: i64,
    pub reason: String,
    pub replacement: Option<Replacement>,
    /// The company's items of it (the US item and every copy).
    pub items: Vec<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct EndedSince {
    /// The server's time: the next call's `since`.
    pub now: i64,
    pub documents: Vec<EndedDocument>,
}

/// What ended since `since`: a device that was offline purges these before it shows anything.
#[utoipa::path(get, path = "/library/withdrawn", tag = "documents", security(("bearer" = [])),
    params(SinceQuery),
    responses((status = 200, body = EndedSince), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
pub async fn withdrawn(
    State(library): State<Arc<Library>>,
    _user: AuthUser,
    AppQuery(query): AppQuery<SinceQuery>,
) -> AppResult<AppJson<EndedSince>> {
    let now = now_ms();
    let mut tx = library.tx().await?;
    let rows = model::ended_since(&mut tx, query.since.unwrap_or(0)).await?;
    tx.rollback().await?;
    let mut documents = Vec::new();
    for row in rows {
        documents.push(EndedDocument {
            id: row.id,
            state: row.ended_state.clone().unwrap_or_default(),
            at: row.ended_at.unwrap_or_default(),
            reason: row.ended_reason.clone().unwrap_or_default(),
            replacement: library.replacement(row.replacement).await?,
            items: row.ended_items(),
        });
    }
    Ok(AppJson(EndedSince { now, documents }))
}
