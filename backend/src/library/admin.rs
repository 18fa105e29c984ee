//! Over 400 lines: every console route with its request and answer shapes.
//!
//! `/api/admin/library...`: publishers create documents and versions, change metadata and
//! submit; approvers approve or reject (never their own version); either withdraws; auditors
//! read along.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::multipart::MultipartRejection;
use axum::extract::{Multipart, Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use events::documents::Labels;
use events::library::{Audience, DocMetadata, LibraryCommand};
use projections::library::{self as model, HistoryRow, StateRow, VersionRow};
use projections::now_ms;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::operations::Library;
use super::upload;
use super::{Approvers, ConsoleReaders, Publishers, Withdrawers};
use crate::auth::Authorized;
use crate::error::{AppError, AppJson, AppQuery, AppResult, ErrorBody, Replacement};
use crate::ids::DocumentId;

/// Someone as the console shows them.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(as = LibraryPerson)]
pub struct Person {
    pub id: String,
    pub name: String,
}

/// How a document ended.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct EndView {
    /// `withdrawn` or `expired`.
    pub state: String,
    pub at: i64,
    /// None for an expiry.
    pub by: Option<Person>,
    pub reason: String,
    pub replacement: Option<Replacement>,
}

/// A document as the console lists it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LibraryAdminItem {
    pub id: i64,
    pub title: String,
    /// `draft`, `in_review`, `approved`, `released`, `expired` or `withdrawn`.
    pub status: String,
    /// The latest version.
    pub version: i64,
    pub released_version: Option<i64>,
    /// `all` or `us`.
    pub audience: String,
    /// `for_internal_use`, `controlled_release`, `upon_request`.
    pub labels: Vec<String>,
    pub products: Vec<i64>,
    pub programmes: Vec<i64>,
    pub category: Option<String>,
    pub release_at: Option<i64>,
    pub expires_at: Option<i64>,
    pub updated_at: i64,
    pub author: Person,
    pub withdrawn: Option<EndView>,
}

/// One version with its review.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct VersionView {
    pub version: i64,
    pub file_name: String,
    pub size: i64,
    pub note: Option<String>,
    pub author: Person,
    pub uploaded_at: i64,
    pub status: String,
    pub submitted_at: Option<i64>,
    pub decided_by: Option<Person>,
    pub decided_at: Option<i64>,
    pub comment: Option<String>,
    pub released_at: Option<i64>,
}

/// A document with every version.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LibraryAdminDetail {
    #[serde(flatten)]
    pub item: LibraryAdminItem,
    pub versions: Vec<VersionView>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LibraryAdminList {
    pub items: Vec<LibraryAdminItem>,
}

/// The answer to a creation or a new version.
#[derive(Debug, Serialize, ToSchema)]
pub struct Created {
    pub id: i64,
    pub version: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
}

/// One step of a document's history.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = LibraryHistoryEntry)]
pub struct HistoryEntry {
    pub at: i64,
    pub actor: Person,
    pub action: String,
    pub detail: String,
}

fn label_words(labels: &Labels) -> Vec<String> {
    let mut words = Vec::new();
    if labels.for_internal_use {
        words.push("for_internal_use".to_string());
    }
    if labels.controlled_release {
        words.push("controlled_release".to_string());
    }
    if labels.upon_request {
        words.push("upon_request".to_string());
    }
    words
}

fn labels_of(words: &[&str]) -> AppResult<Labels> {
    let mut labels = Labels::default();
    for word in words {
        match word.trim() {
            "for_internal_use" => labels.for_internal_use = true,
            "controlled_release" => labels.controlled_release = true,
            "upon_request" => labels.upon_request = true,
            other => {
                return Err(AppError::bad_request(format!(
                "Unknown label {other:?}: use for_internal_use, controlled_release or upon_request"
            )))
            }
        }
    }
    Ok(labels)
}

fn audience_of(word: &str) -> AppResult<Audience> {
    match word.trim() {
        "all" => Ok(Audience::All),
        "us" => Ok(Audience::Us),
        _ => Err(AppError::bad_request("The audience must be all or us")),
    }
}

/// A time as RFC 3339 or milliseconds since the epoch.
fn time_of(field: &str, text: &str) -> AppResult<i64> {
    let text = text.trim();
    if let Ok(ms) = text.parse::<i64>() {
        return Ok(ms);
    }
    chrono::DateTime::parse_from_rfc3339(text)
        .map(|t| t.timestamp_millis())
        .map_err(|_| {
            AppError::bad_request(format!(
                "{field} must be an RFC 3339 time or milliseconds since the epoch"
            ))
        })
}

fn ids_of(field: &str, words: &[&str]) -> AppResult<Vec<i64>> {
    words
        .iter()
        .map(|w| {
            w.trim()
                .parse::<i64>()
                .map_err(|_| AppError::bad_request(format!("{field} must be numeric ids")))
        })
        .collect()
}

fn end_view(row: &StateRow, replacement: Option<Replacement>) -> Option<EndView> {
    let state = row.ended_state.clone()?;
    Some(EndView {
        state,
        at: row.ended_at.unwrap_or_default(),
        by: row.ended_by_id.clone().map(|id| Person {
            id,
            name: row.ended_by_name.clone().unwrap_or_default(),
        }),
        reason: row.ended_reason.clone().unwrap_or_default(),
        replacement,
    })
}

pub(super) async fn item_view(library: &Library, row: StateRow) -> AppResult<LibraryAdminItem> {
    let replacement = library.replacement(row.replacement).await?;
    Ok(LibraryAdminItem {
        withdrawn: end_view(&row, replacement),
        labels: label_words(&row.labels()),
        products: StateRow::ids(&row.products),
        programmes: StateRow::ids(&row.programmes),
        id: row.id,
        title: row.title,
        status: row.status,
        version: row.version,
        released_version: row.released_version,
        audience: row.audience,
        category: row.category,
        release_at: row.release_at,
        expires_at: row.expires_at,
        updated_at: row.updated_at,
        author: Person {
            id: row.author_id,
            name: row.author_name,
        },
    })
}

fn version_view(v: VersionRow) -> VersionView {
    VersionView {
        version: v.version,
        file_name: v.file_name,
        size: v.size,
        note: v.note,
        author: Person {
            id: v.author_id,
            name: v.author_name,
        },
        uploaded_at: v.uploaded_at,
        status: v.status,
        submitted_at: v.submitted_at,
        decided_by: v.decided_by_id.map(|id| Person {
            id,
            name: v.decided_by_name.unwrap_or_default(),
        }),
        decided_at: v.decided_at,
        comment: v.comment,
        released_at: v.released_at,
    }
}

async fn current(library: &Library, id: i64) -> AppResult<AppJson<LibraryAdminItem>> {
    let row = library.state(id).await?;
    Ok(AppJson(item_view(library, row).await?))
}

/// The multipart form of a new document.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct CreateForm {
    /// A PDF or XLS file.
    #[schema(value_type = String, format = Binary)]
    file: Vec<u8>,
    title: String,
    /// `all` or `us`.
    audience: String,
    /// Repeated: `for_internal_use`, `controlled_release`, `upon_request`.
    labels: Option<Vec<String>>,
    /// RFC 3339 or ms.
    release_at: Option<String>,
    /// RFC 3339 or ms; after `release_at` and now.
    expires_at: Option<String>,
    /// Repeated catalogue product ids.
    products: Option<Vec<i64>>,
    /// Repeated programme ids.
    programmes: Option<Vec<i64>>,
    category: Option<String>,
    note: Option<String>,
}

/// Creates a library document with its first version, as a draft.
#[utoipa::path(post, path = "/admin/library", tag = "documents", security(("bearer" = [])),
    request_body(content = CreateForm, content_type = "multipart/form-data"),
    responses((status = 201, body = Created), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 413, body = ErrorBody),
        (status = 415, body = ErrorBody, description = "'Only PDF and XLS files can be uploaded'")))]
pub async fn create(
    State(library): State<Arc<Library>>,
    caller: Authorized<Publishers>,
    multipart: Result<Multipart, MultipartRejection>,
) -> AppResult<(StatusCode, AppJson<Created>)> {
    let docs = &library.documents;
    let form = upload::read(multipart, &docs.storage, docs.upload_max_bytes).await?;
    let result = async {
        let file = form
            .file
            .clone()
            .ok_or_else(|| AppError::bad_request("The file is required"))?;
        let metadata = DocMetadata {
            title: form.text("title").unwrap_or_default().trim().to_string(),
            audience: audience_of(form.text("audience").unwrap_or("all"))?,
            labels: labels_of(&form.all("labels"))?,
            products: ids_of("products", &form.all("products"))?,
            programmes: ids_of("programmes", &form.all("programmes"))?,
            category: form
                .text("category")
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .map(str::to_string),
            release_at: form
                .text("release_at")
                .filter(|t| !t.trim().is_empty())
                .map(|t| time_of("release_at", t))
                .transpose()?,
            expires_at: form
                .text("expires_at")
                .filter(|t| !t.trim().is_empty())
                .map(|t| time_of("expires_at", t))
                .transpose()?,
        };
        let note = form.text("note").map(str::to_string);
        let by = library.who(&caller.id).await?;
        library.create(by, metadata, file, note).await
    }
    .await;
    match result {
        Ok(id) => Ok((
            StatusCode::CREATED,
            AppJson(Created {
                id,
                version: 1,
                status: Some("draft".into()),
            }),
        )),
        Err(e) => {
            if let Some(file) = &form.file {
                docs.storage.discard(&file.blob).await;
            }
            Err(e)
        }
    }
}

/// The multipart form of a new version.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct VersionForm {
    #[schema(value_type = String, format = Binary)]
    file: Vec<u8>,
    note: Option<String>,
}

/// Uploads a new version (a draft); a released one stays released until it is replaced.
#[utoipa::path(post, path = "/admin/library/{id}/versions", tag = "documents", security(("bearer" = [])),
    params(("id" = i64, Path)), request_body(content = VersionForm, content_type = "multipart/form-data"),
    responses((status = 201, body = Created), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody), (status = 413, body = ErrorBody), (status = 415, body = ErrorBody)))]
pub async fn add_version(
    State(library): State<Arc<Library>>,
    caller: Authorized<Publishers>,
    DocumentId(id): DocumentId,
    multipart: Result<Multipart, MultipartRejection>,
) -> AppResult<(StatusCode, AppJson<Created>)> {
    let docs = &library.documents;
    let form = upload::read(multipart, &docs.storage, docs.upload_max_bytes).await?;
    let result = async {
        library.state(id).await?;
        let file = form
            .file
            .clone()
            .ok_or_else(|| AppError::bad_request("The file is required"))?;
        let command = LibraryCommand::AddVersion {
            by: library.who(&caller.id).await?,
            file,
            note: form.text("note").map(str::to_string),
            at: now_ms(),
        };
        library.execute(id, command, &caller.id).await?;
        library.state(id).await
    }
    .await;
    match result {
        Ok(row) => Ok((
            StatusCode::CREATED,
            AppJson(Created {
                id,
                version: row.version,
                status: None,
            }),
        )),
        Err(e) => {
            if let Some(file) = &form.file {
                docs.storage.discard(&file.blob).await;
            }
            Err(e)
        }
    }
}

/// A change of metadata; absent fields stay as they are.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MetadataChange {
    pub title: Option<String>,
    pub labels: Option<Vec<String>>,
    /// `all` or `us`.
    pub audience: Option<String>,
    pub products: Option<Vec<i64>>,
    pub programmes: Option<Vec<i64>>,
    pub category: Option<String>,
    /// RFC 3339 or ms.
    #[schema(value_type = Option<String>)]
    pub release_at: Option<serde_json::Value>,
    /// RFC 3339 or ms.
    #[schema(value_type = Option<String>)]
    pub expires_at: Option<serde_json::Value>,
}

fn json_time(field: &str, value: &serde_json::Value) -> AppResult<i64> {
    match value {
        serde_json::Value::Number(n) => n
            .as_i64()
            .ok_or_else(|| AppError::bad_request(format!("{field} must be whole milliseconds"))),
        serde_json::Value::String(s) => time_of(field, s),
        _ => Err(AppError::bad_request(format!(
            "{field} must be an RFC 3339 time or milliseconds since the epoch"
        ))),
    }
}

/// Changes a document's metadata (title, labels, audience, products, programmes, times).
#[utoipa::path(patch, path = "/admin/library/{id}", tag = "documents", security(("bearer" = [])),
    params(("id" = i64, Path)), request_body = MetadataChange,
    responses((status = 200, body = LibraryAdminItem), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn change(
    State(library): State<Arc<Library>>,
    caller: Authorized<Publishers>,
    DocumentId(id): DocumentId,
    AppJson(change): AppJson<MetadataChange>,
) -> AppResult<AppJson<LibraryAdminItem>> {
    let row = library.state(id).await?;
    let labels = match &change.labels {
        Some(words) => labels_of(&words.iter().map(String::as_str).collect::<Vec<_>>())?,
        None => row.labels(),
    };
    let metadata = DocMetadata {
        title: change
            .title
            .map(|t| t.trim().to_string())
            .unwrap_or(row.title.clone()),
        audience: audience_of(change.audience.as_deref().unwrap_or(&row.audience))?,
        labels,
        products: change
            .products
            .unwrap_or_else(|| StateRow::ids(&row.products)),
        programmes: change
            .programmes
            .unwrap_or_else(|| StateRow::ids(&row.programmes)),
        category: change.category.or(row.category.clone()),
        release_at: match &change.release_at {
            Some(v) => Some(json_time("release_at", v)?),
            None => row.release_at,
        },
        expires_at: match &change.expires_at {
            Some(v) => Some(json_time("expires_at", v)?),
            None => row.expires_at,
        },
    };
    let command = LibraryCommand::ChangeMetadata {
        by: library.who(&caller.id).await?,
        metadata,
        at: now_ms(),
    };
    library.execute(id, command, &caller.id).await?;
    library.cascade(id).await?;
    current(&library, id).await
}

/// Submits the latest version (a draft) for review.
#[utoipa::path(post, path = "/admin/library/{id}/submit", tag = "documents", security(("bearer" = [])),
    params(("id" = i64, Path)),
    responses((status = 200, body = LibraryAdminItem), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody)))]
pub async fn submit(
    State(library): State<Arc<Library>>,
    caller: Authorized<Publishers>,
    DocumentId(id): DocumentId,
) -> AppResult<AppJson<LibraryAdminItem>> {
    library.state(id).await?;
    let command = LibraryCommand::Submit {
        by: library.who(&caller.id).await?,
        at: now_ms(),
    };
    library.execute(id, command, &caller.id).await?;
    current(&library, id).await
}

/// An approver's decision.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct Decision {
    pub comment: Option<String>,
}

/// Approves the version in review (released at once, or at `release_at`).
#[utoipa::path(post, path = "/admin/library/{id}/approve", tag = "documents", security(("bearer" = [])),
    params(("id" = i64, Path)), request_body = Decision,
    responses((status = 200, body = LibraryAdminItem), (status = 403, body = ErrorBody,
        description = "not an approver, or 'You cannot approve a version you wrote: another approver must.'"),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn approve(
    State(library): State<Arc<Library>>,
    caller: Authorized<Approvers>,
    DocumentId(id): DocumentId,
    AppJson(decision): AppJson<Decision>,
) -> AppResult<AppJson<LibraryAdminItem>> {
    library.state(id).await?;
    let command = LibraryCommand::Approve {
        by: library.who(&caller.id).await?,
        comment: decision.comment,
        at: now_ms(),
    };
    library.execute(id, command, &caller.id).await?;
    library.cascade(id).await?;
    current(&library, id).await
}

/// Rejects the version in review: it goes back to draft.
#[utoipa::path(post, path = "/admin/library/{id}/reject", tag = "documents", security(("bearer" = [])),
    params(("id" = i64, Path)), request_body = Decision,
    responses((status = 200, body = LibraryAdminItem), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody)))]
pub async fn reject(
    State(library): State<Arc<Library>>,
    caller: Authorized<Approvers>,
    DocumentId(id): DocumentId,
    AppJson(decision): AppJson<Decision>,
) -> AppResult<AppJson<LibraryAdminItem>> {
    library.state(id).await?;
    let command = LibraryCommand::Reject {
        by: library.who(&caller.id).await?,
        comment: decision.comment,
        at: now_ms(),
    };
    library.execute(id, command, &caller.id).await?;
    current(&library, id).await
}

/// Why a document is withdrawn, and what replaces it.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = LibraryWithdrawRequest)]
pub struct WithdrawRequest {
    #[serde(default)]
    pub reason: String,
    /// A released library document other than this one.
    pub replacement: Option<i64>,
}

/// Withdraws a document from every list, device, copy and external link.
#[utoipa::path(post, path = "/admin/library/{id}/withdraw", tag = "documents", security(("bearer" = [])),
    params(("id" = i64, Path)), request_body = WithdrawRequest,
    responses((status = 200, body = LibraryAdminItem), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn withdraw(
    State(library): State<Arc<Library>>,
    caller: Authorized<Withdrawers>,
    DocumentId(id): DocumentId,
    AppJson(request): AppJson<WithdrawRequest>,
) -> AppResult<AppJson<LibraryAdminItem>> {
    library.state(id).await?;
    let replacement = match request.replacement {
        Some(r) => Some((r, r != id && library.is_released(r).await?)),
        None => None,
    };
    let command = LibraryCommand::Withdraw {
        by: library.who(&caller.id).await?,
        reason: request.reason,
        replacement,
        at: now_ms(),
    };
    library.execute(id, command, &caller.id).await?;
    library.cascade(id).await?;
    current(&library, id).await
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct ListQuery {
    /// `draft`, `in_review`, `approved`, `released`, `expiring` (released, expiring within 30
    /// days), `expired` or `withdrawn`.
    pub status: Option<String>,
    /// Words of the title.
    pub q: Option<String>,
}

const EXPIRING_WITHIN_MS: i64 = 30 * 24 * 3600 * 1000;

/// The console's list of documents, newest change first.
#[utoipa::path(get, path = "/admin/library", tag = "documents", security(("bearer" = [])), params(ListQuery),
    responses((status = 200, body = LibraryAdminList), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn list(
    State(library): State<Arc<Library>>,
    _caller: Authorized<ConsoleReaders>,
    AppQuery(query): AppQuery<ListQuery>,
) -> AppResult<AppJson<LibraryAdminList>> {
    let status = query.status.filter(|s| !s.is_empty());
    if let Some(s) = &status {
        if s != "expiring" && !model::is_status(s) {
            return Err(AppError::bad_request(
                "The status must be draft, in_review, approved, released, expiring, expired or withdrawn",
            ));
        }
    }
    let q = query.q.unwrap_or_default().trim().to_lowercase();
    let now = now_ms();
    let mut tx = library.tx().await?;
    let rows = model::all(&mut tx).await?;
    tx.rollback().await?;
    let mut items = Vec::new();
    for row in rows {
        let keep = match status.as_deref() {
            None => true,
            Some("expiring") => {
                row.status == "released"
                    && row
                        .expires_at
                        .is_some_and(|t| t > now && t <= now + EXPIRING_WITHIN_MS)
            }
            Some(s) => row.status == s,
        };
        if keep && (q.is_empty() || row.title.to_lowercase().contains(&q)) {
            items.push(item_view(&library, row).await?);
        }
    }
    Ok(AppJson(LibraryAdminList { items }))
}

/// A document with every version.
#[utoipa::path(get, path = "/admin/library/{id}", tag = "documents", security(("bearer" = [])),
    params(("id" = i64, Path)),
    responses((status = 200, body = LibraryAdminDetail), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn detail(
    State(library): State<Arc<Library>>,
    _caller: Authorized<ConsoleReaders>,
    DocumentId(id): DocumentId,
) -> AppResult<AppJson<LibraryAdminDetail>> {
    let row = library.state(id).await?;
    let mut tx = library.tx().await?;
    let versions = model::versions(&mut tx, id).await?;
    tx.rollback().await?;
    Ok(AppJson(LibraryAdminDetail {
        item: item_view(&library, row).await?,
        versions: versions.into_iter().map(version_view).collect(),
    }))
}

/// Every step of a document with its actor.
#[utoipa::path(get, path = "/admin/library/{id}/history", tag = "documents", security(("bearer" = [])),
    params(("id" = i64, Path)),
    responses((status = 200, body = Vec<HistoryEntry>), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn history(
    State(library): State<Arc<Library>>,
    _caller: Authorized<ConsoleReaders>,
    DocumentId(id): DocumentId,
) -> AppResult<AppJson<Vec<HistoryEntry>>> {
    library.state(id).await?;
    let mut tx = library.tx().await?;
    let rows = model::history_of(&mut tx, id).await?;
    tx.rollback().await?;
    Ok(AppJson(
        rows.into_iter()
            .map(|h: HistoryRow| HistoryEntry {
                at: h.at,
                actor: Person {
                    id: h.actor_id,
                    name: h.actor_name,
                },
                action: h.action,
                detail: h.detail,
            })
            .collect(),
    ))
}

/// The file of one version (any status), for review.
#[utoipa::path(get, path = "/admin/library/{id}/versions/{version}/file", tag = "documents", security(("bearer" = [])),
    params(("id" = i64, Path), ("version" = i64, Path)),
    responses((status = 200, content_type = "application/pdf", description = "The file"),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn version_file(
    State(library): State<Arc<Library>>,
    _caller: Authorized<ConsoleReaders>,
    Path((id, version)): Path<(String, String)>,
) -> AppResult<Response> {
    let not_found = || AppError::not_found("Library document not found");
    let id: i64 = id.parse().map_err(|_| not_found())?;
    let version: i64 = version.parse().map_err(|_| not_found())?;
    let mut tx = library.tx().await?;
    let row = model::version_row(&mut tx, id, version).await?;
    tx.rollback().await?;
    let row = row.ok_or_else(not_found)?;
    library
        .file_response(id, &row.file(), "private, no-store", false)
        .await
}

impl Library {
    /// The bytes of `file` of document `id`: from the blob storage, or for a content-folder
    /// document from `library_documents`.
    pub async fn file_response(
        &self,
        id: i64,
        file: &events::library::VersionFile,
        cache: &str,
        download: bool,
    ) -> AppResult<Response> {
        let safe_name: String = file
            .file_name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || ".-_".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let headers = [
            (header::CONTENT_TYPE, file.format.content_type().to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("{}; filename=\"{safe_name}\"", disposition(download)),
            ),
            (header::CACHE_CONTROL, cache.to_string()),
        ];
        if file.blob.is_empty() {
            let bytes: Option<Vec<u8>> = projections::on_db!(&self.db, pool => sqlx::query_scalar(
                "select bytes from library_documents where id = $1")
                .bind(id).fetch_optional(pool).await)?;
            let bytes = bytes.ok_or_else(|| AppError::not_found("Document not found"))?;
            return Ok((headers, bytes).into_response());
        }
        let stream = self
            .documents
            .storage
            .read(&file.blob, None)
            .await
            .map_err(|e| {
                AppError::Internal(anyhow::Error::new(e).context("reading a library file"))
            })?;
        Ok((headers, Body::from_stream(stream)).into_response())
    }
}

/// `attachment` for a download, `inline` to open.
pub fn disposition(download: bool) -> &'static str {
    if download {
        "attachment"
    } else {
        "inline"
    }
}
