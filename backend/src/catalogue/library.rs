//! Library documents (catalogues, #ThinkClinical, product attachments and the documents other
//! features link to): the file itself, for signed-in users.

use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use projections::{on_db, Db};

use crate::auth::AuthUser;
use crate::error::{AppError, AppResult, ErrorBody};
use crate::ids::DocumentId;

#[derive(sqlx::FromRow)]
struct FileRow {
    file_name: String,
    content_type: String,
    bytes: Vec<u8>,
}

/// The document's file (PDF or XLS), shown inline by the browser.
#[utoipa::path(get, path = "/library/{id}/file", tag = "documents", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Library document id")),
    responses((status = 200, content_type = "application/pdf", description = "The file"),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn file(
    State(db): State<Db>,
    _auth: AuthUser,
    DocumentId(id): DocumentId,
) -> AppResult<Response> {
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
                format!("inline; filename=\"{safe_name}\""),
            ),
            (header::CACHE_CONTROL, "private, max-age=300".to_string()),
        ],
        row.bytes,
    )
        .into_response())
}
