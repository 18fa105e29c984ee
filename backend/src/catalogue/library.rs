//! Library documents (catalogues, #ThinkClinical, product attachments and the documents other
//! features link to): the file itself, for signed-in users.
//!
//! A document with a lifecycle (see `crate::library`) serves its released current version:
//! unreleased answers 404, withdrawn or expired 410 with why and what replaces it; each open is
//! recorded for the withdrawal report. A content-folder document without one is served as
//! loaded.

use std::sync::Arc;

use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use projections::{on_db, Db};

use crate::auth::AuthUser;
use crate::error::{AppError, AppQuery, AppResult, ErrorBody, WithdrawnBody};
use crate::ids::DocumentId;
use crate::library::Library;

#[derive(sqlx::FromRow)]
struct FileRow {
    file_name: String,
    content_type: String,
    bytes: Vec<u8>,
}

#[derive(Debug, serde::Deserialize, utoipa::IntoParams)]
pub struct LibraryFileQuery {
    /// `1` to download (attachment, recorded as a download) rather than open (inline).
    pub download: Option<String>,
}

/// The document's file (PDF or XLS), shown inline by the browser (`?download=1`: as a
/// download).
#[utoipa::path(get, path = "/library/{id}/file", tag = "documents", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Library document id"), LibraryFileQuery),
    responses((status = 200, content_type = "application/pdf", description = "The file"),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 410, body = WithdrawnBody, description = "withdrawn or expired")))]
pub async fn file(
    State(db): State<Db>,
    State(library): State<Arc<Library>>,
    auth: AuthUser,
    DocumentId(id): DocumentId,
    AppQuery(query): AppQuery<LibraryFileQuery>,
) -> AppResult<Response> {
    let download = matches!(query.download.as_deref(), Some("1" | "true"));
    if let Some(response) = library.open_released(id, &auth.id, download).await? {
        return Ok(response);
    }
    let row: Option<FileRow> = on_db!(&db, pool => sqlx::query_as(
        "select file_name, content_type, bytes from library_documents where id = $1")
        .bind(id).fetch_optional(pool).await)?;
    let row = row.ok_or_else(|| AppError::not_found("Document not found"))?;
    // File names come from the content folder; keep the header plain ASCII.
    let safe_name: String = row
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
    Ok((
        [
            (header::CONTENT_TYPE, row.content_type),
            (
                header::CONTENT_DISPOSITION,
                format!(
                    "{}; filename=\"{safe_name}\"",
                    crate::library::disposition(download)
                ),
            ),
            (header::CACHE_CONTROL, "private, max-age=300".to_string()),
        ],
        row.bytes,
    )
        .into_response())
}
