//! Bytes in and out: upload, open/download, external links and the history CSV.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::multipart::{Field, MultipartError, MultipartRejection};
use axum::extract::{Multipart, Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use projections::documents::{ItemRow, ItemView};
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

use super::api::{destination, item_id};
use super::operations::{Actor, Documents};
use super::storage::{ObjectInfo, Storage, StorageError, Stored};
use super::usage::Room;
use crate::error::{AppError, AppJson, AppQuery, AppResult, ErrorBody};
use crate::ids::ItemId;

/// Room for the multipart framing and the small fields around the file.
const FORM_SLACK: u64 = 64 * 1024;
/// Longest text field of the upload form.
const TEXT_FIELD_MAX: usize = 4 * 1024;

/// The multipart form of `POST /api/documents/upload`.
#[derive(ToSchema)]
#[allow(dead_code)]
pub struct UploadForm {
    /// The name the file gets in the lists.
    name: String,
    /// A PDF or XLS file.
    #[schema(value_type = String, format = Binary)]
    file: Vec<u8>,
    /// The folder to put it in; empty for the root of My Docs.
    parent: Option<String>,
}

#[derive(Default)]
struct UploadParts {
    name: Option<String>,
    parent: Option<String>,
    file: Option<(String, Stored)>,
}

fn too_large(limit: u64) -> AppError {
    let mb = limit as f64 / (1024.0 * 1024.0);
    AppError::PayloadTooLarge(format!(
        "The file is too large: the limit is {} MB",
        (mb * 10.0).round() / 10.0
    ))
}

fn store_failed(e: StorageError) -> AppError {
    AppError::Internal(anyhow::Error::new(e).context("storing an upload"))
}

fn unreadable(e: MultipartError) -> AppError {
    if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        AppError::PayloadTooLarge(e.body_text())
    } else {
        AppError::bad_request(format!("The upload could not be read: {}", e.body_text()))
    }
}

async fn small_text(mut field: Field<'_>) -> AppResult<String> {
    let mut bytes = Vec::new();
    while let Some(chunk) = field.chunk().await.map_err(unreadable)? {
        bytes.extend_from_slice(&chunk);
        if bytes.len() > TEXT_FIELD_MAX {
            return Err(AppError::bad_request("A field of the upload is too long"));
        }
    }
    String::from_utf8(bytes)
        .map_err(|_| AppError::bad_request("The upload's fields must be UTF-8 text"))
}

/// Reads the form, streaming the file into storage and counting its bytes against `limit`
/// (the largest file) and the user's quota `room`.
async fn read_parts(
    multipart: &mut Multipart,
    storage: &Storage,
    limit: u64,
    room: Room,
    parts: &mut UploadParts,
) -> AppResult<()> {
    while let Some(mut field) = multipart.next_field().await.map_err(unreadable)? {
        match field.name() {
            Some("file") => {
                if parts.file.is_some() {
                    return Err(AppError::bad_request("Upload one file at a time"));
                }
                let original = field.file_name().unwrap_or_default().to_string();
                let mut writer = storage.writer();
                loop {
                    let chunk = match field.chunk().await {
                        Ok(Some(chunk)) => chunk,
                        Ok(None) => break,
                        Err(e) => {
                            writer.abandon().await;
                            return Err(unreadable(e));
                        }
                    };
                    // The limit holds while streaming: nothing past it reaches the store.
                    let size = writer.size() + chunk.len() as u64;
                    if size > limit {
                        writer.abandon().await;
                        return Err(too_large(limit));
                    }
                    // So does the quota: a file passing it stops here, with nothing kept.
                    if size > room.left() {
                        writer.abandon().await;
                        return Err(room.refusal());
                    }
                    if let Err(e) = writer.write(&chunk).await {
                        writer.abandon().await;
                        return Err(store_failed(e));
                    }
                }
                let stored = writer.finish().await.map_err(store_failed)?;
                parts.file = Some((original, stored));
            }
            Some("name") => parts.name = Some(small_text(field).await?),
            Some("parent") => parts.parent = Some(small_text(field).await?),
            // Anything else is not ours to keep.
            _ => {}
        }
    }
    Ok(())
}

/// Uploads a PDF or XLS file into My Docs. The content's first bytes (`%PDF-`, or the OLE2
/// header of XLS) and the file name's extension must agree.
#[utoipa::path(post, path = "/documents/upload", tag = "documents",
    request_body(content = UploadForm, content_type = "multipart/form-data"), security(("bearer" = [])),
    responses((status = 201, body = ItemView), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 413, body = ErrorBody, description = "the file is larger than allowed, or would pass the user's storage quota"),
        (status = 507, body = ErrorBody, description = "the file store's volume is short of room"),
        (status = 415, body = ErrorBody, description = "'Only PDF and XLS files can be uploaded'")))]
pub async fn upload(
    State(documents): State<Arc<Documents>>,
    actor: Actor,
    headers: HeaderMap,
    mut multipart: Result<Multipart, MultipartRejection>,
) -> AppResult<(StatusCode, AppJson<ItemView>)> {
    let answer = upload_form(&documents, &actor, &headers, &mut multipart).await;
    if let (Err(_), Ok(form)) = (&answer, &mut multipart) {
        // A refusal can come before the whole form is read (the quota, the announced length).
        crate::edge::linger::drain_form(form).await;
    }
    answer
}

async fn upload_form(
    docs: &Documents,
    actor: &Actor,
    headers: &HeaderMap,
    multipart: &mut Result<Multipart, MultipartRejection>,
) -> AppResult<(StatusCode, AppJson<ItemView>)> {
    let limit = docs.upload_max_bytes;
    // Refuse what announces itself as too large before reading any of it.
    let announced = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if announced.is_some_and(|n| n > limit + FORM_SLACK) {
        return Err(too_large(limit));
    }
    // The same for the disk and the user's quota (the form's other fields are a few bytes).
    let room = docs.upload_room(actor).await?;
    if announced.is_some_and(|n| n.saturating_sub(FORM_SLACK) > room.left()) {
        return Err(room.refusal());
    }
    let multipart = multipart.as_mut().map_err(|e| {
        AppError::bad_request(format!(
            "The upload must be a multipart form: {}",
            e.body_text()
        ))
    })?;
    let mut parts = UploadParts::default();
    // Another upload of the same user may use the room meanwhile: the upload itself checks
    // the quota again, under the owner's tree lock.
    let read = read_parts(multipart, &docs.storage, limit, room, &mut parts).await;
    let checked = read.and_then(|()| {
        let parent = destination(parts.parent.take())?;
        if parts.file.is_none() {
            return Err(AppError::bad_request("The file is required"));
        }
        Ok(parent)
    });
    let parent = match checked {
        Ok(parent) => parent,
        Err(e) => {
            if let Some((_, stored)) = parts.file.take() {
                docs.storage.discard(&stored.blob).await;
            }
            return Err(e);
        }
    };
    let Some((original, stored)) = parts.file.take() else {
        return Err(AppError::bad_request("The file is required"));
    };
    let item = docs
        .upload(
            actor,
            parent,
            parts.name.unwrap_or_default(),
            original,
            stored,
        )
        .await?;
    Ok((StatusCode::CREATED, AppJson(item)))
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct FileQuery {
    /// `1` to download (attachment) rather than open (inline).
    pub download: Option<String>,
}

/// A header-safe ASCII file name, and the RFC 5987 encoding of the real one.
fn disposition(download: bool, name: &str) -> String {
    let ascii: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() && c != '"' && c != '\\' || c == ' ' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let encoded: String = name
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect();
    let kind = if download { "attachment" } else { "inline" };
    format!("{kind}; filename=\"{ascii}\"; filename*=UTF-8''{encoded}")
}

/// What a `Range` header asks of a file of `size` bytes.
#[derive(Debug, PartialEq, Eq)]
enum RangeAsk {
    /// No range, or one this server answers with the whole file (several ranges, other units).
    Whole,
    Part(std::ops::Range<u64>),
    /// A range that lies outside the file: 416.
    Unsatisfiable,
}

/// Reads a single `bytes=` range (RFC 9110 14.1.2); anything else gets the whole file.
fn range_of(header: Option<&str>, size: u64) -> RangeAsk {
    let Some(spec) = header.and_then(|h| h.trim().strip_prefix("bytes=")) else {
        return RangeAsk::Whole;
    };
    if spec.contains(',') {
        return RangeAsk::Whole;
    }
    let Some((first, last)) = spec.trim().split_once('-') else {
        return RangeAsk::Whole;
    };
    let (first, last) = (first.trim(), last.trim());
    let range = if first.is_empty() {
        // The last `n` bytes.
        match last.parse::<u64>() {
            Ok(0) => return RangeAsk::Unsatisfiable,
            Ok(n) => size.saturating_sub(n)..size,
            Err(_) => return RangeAsk::Whole,
        }
    } else {
        let Ok(start) = first.parse::<u64>() else {
            return RangeAsk::Whole;
        };
        let end = if last.is_empty() {
            size
        } else {
            match last.parse::<u64>() {
                Ok(end) if end >= start => end.saturating_add(1).min(size),
                _ => return RangeAsk::Whole,
            }
        };
        start..end
    };
    if range.start >= size || range.is_empty() {
        RangeAsk::Unsatisfiable
    } else {
        RangeAsk::Part(range)
    }
}

/// A strong entity tag: the store's own when it has one, else the (never reused) file name.
fn entity_tag(info: &ObjectInfo, blob: &str) -> String {
    let tag = info
        .e_tag
        .as_deref()
        .map(|t| t.trim_start_matches("W/").trim_matches('"'))
        .filter(|t| !t.is_empty())
        .unwrap_or(blob);
    format!("\"{}\"", tag.replace('"', ""))
}

fn http_date(at: chrono::DateTime<chrono::Utc>) -> String {
    at.format("%a, %d %b %Y %H:%M:%S GMT").to_string()
}

pub(super) async fn serve(
    storage: &Storage,
    row: &ItemRow,
    download: bool,
    request: &HeaderMap,
) -> AppResult<Response> {
    let blob = row.blob.as_deref().unwrap_or_default();
    let missing = |e: StorageError| {
        AppError::Internal(
            anyhow::Error::new(e).context(format!("item {}: stored file {blob:?}", row.id)),
        )
    };
    let info = storage.head(blob).await.map_err(missing)?;
    let tag = entity_tag(&info, blob);
    let value = |v: &str| HeaderValue::from_str(v).map_err(|e| AppError::Internal(e.into()));
    let not_modified = request
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == tag || t.trim() == "*"));
    // `If-Range` with another tag: the file changed since the client's part, send it whole.
    let range_header = request
        .get(header::RANGE)
        .and_then(|v| v.to_str().ok())
        .filter(|_| {
            request
                .get(header::IF_RANGE)
                .and_then(|v| v.to_str().ok())
                .is_none_or(|v| v.trim() == tag)
        });
    let ask = range_of(range_header, info.size);
    let (status, range) = match (not_modified, ask) {
        (true, _) => (StatusCode::NOT_MODIFIED, None),
        (false, RangeAsk::Whole) => (StatusCode::OK, None),
        (false, RangeAsk::Part(range)) => (StatusCode::PARTIAL_CONTENT, Some(range)),
        (false, RangeAsk::Unsatisfiable) => {
            let mut response = StatusCode::RANGE_NOT_SATISFIABLE.into_response();
            response.headers_mut().insert(
                header::CONTENT_RANGE,
                value(&format!("bytes */{}", info.size))?,
            );
            return Ok(response);
        }
    };
    let mut response = if status == StatusCode::NOT_MODIFIED {
        status.into_response()
    } else {
        let stream = storage.read(blob, range.clone()).await.map_err(missing)?;
        let mut response = Body::from_stream(stream).into_response();
        *response.status_mut() = status;
        response
    };
    let content_type = row
        .content_type
        .clone()
        .unwrap_or_else(|| "application/octet-stream".into());
    let headers = response.headers_mut();
    headers.insert(header::ETAG, value(&tag)?);
    headers.insert(
        header::LAST_MODIFIED,
        value(&http_date(info.last_modified))?,
    );
    headers.insert(header::ACCEPT_RANGES, HeaderValue::from_static("bytes"));
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, no-store"),
    );
    if status == StatusCode::NOT_MODIFIED {
        return Ok(response);
    }
    let length = match &range {
        Some(range) => {
            headers.insert(
                header::CONTENT_RANGE,
                value(&format!(
                    "bytes {}-{}/{}",
                    range.start,
                    range.end - 1,
                    info.size
                ))?,
            );
            range.end - range.start
        }
        None => info.size,
    };
    headers.insert(header::CONTENT_TYPE, value(&content_type)?);
    headers.insert(header::CONTENT_LENGTH, HeaderValue::from(length));
    headers.insert(
        header::CONTENT_DISPOSITION,
        value(&disposition(download, &row.name))?,
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    Ok(response)
}

/// Opens (or with `?download=1` downloads) a file the user sees; records who read it and
/// clears its unread mark.
#[utoipa::path(get, path = "/documents/{id}/file", tag = "documents", params(("id" = String, Path), FileQuery),
    security(("bearer" = [])),
    responses((status = 200, description = "the file (application/pdf or application/vnd.ms-excel)"), (status = 404, body = ErrorBody),
        (status = 410, body = crate::error::WithdrawnBody, description = "the company withdrew the document or it expired")))]
pub async fn file(
    State(documents): State<Arc<Documents>>,
    actor: Actor,
    ItemId(id): ItemId,
    AppQuery(query): AppQuery<FileQuery>,
    headers: HeaderMap,
) -> AppResult<Response> {
    let download = matches!(query.download.as_deref(), Some("1" | "true"));
    // A withdrawn item (or a copy of one) answers why, for whoever sees it; never its bytes.
    let (row, _) = documents.visible(&actor, &id).await?;
    if let Some(facts) = row.withdrawal() {
        return Err(super::company::withdrawn_error(&facts));
    }
    let row = documents.open(&actor, &id, download).await?;
    serve(&documents.storage, &row, download, &headers).await
}

/// Links e-mailed before links were tracked: a permanent redirect to the tracked viewer
/// (`/s/{token}`), which answers for them from then on.
#[utoipa::path(get, path = "/shared-links/{token}", tag = "documents", params(("token" = String, Path)),
    responses((status = 308, description = "to /s/{token}")))]
pub async fn shared_link(Path(token): Path<String>) -> Response {
    let safe: String = token
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect();
    axum::response::Redirect::permanent(&format!("/s/{safe}")).into_response()
}

/// An item's history as CSV, for the auditor only: every entry, newest first, streamed a
/// page at a time as it is read.
#[utoipa::path(get, path = "/documents/{id}/history.csv", tag = "documents", params(("id" = String, Path)),
    security(("bearer" = [])),
    responses((status = 200, description = "text/csv: at,actor,actor_email,action,detail,from,to", content_type = "text/csv"),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn history_csv(
    State(documents): State<Arc<Documents>>,
    actor: Actor,
    Path(id): Path<String>,
) -> AppResult<Response> {
    use super::history::{csv_rows, CSV_HEAD, CSV_PAGE};
    if !actor.auditor {
        return Err(AppError::forbidden(
            "Only the auditor can export the history",
        ));
    }
    let id = item_id(&id)?;
    let (_, mut reader) = documents.history_reader(&actor, &id).await?;
    // The first page is read before answering, so a failure is still a clean error.
    let (first, next) = reader.page(None, CSV_PAGE).await?;
    let head = futures::stream::once(futures::future::ready(Ok::<_, AppError>(format!(
        "{CSV_HEAD}{}",
        csv_rows(&first)
    ))));
    let rest = futures::stream::unfold((reader, next), |(mut reader, next)| async move {
        match reader.page(Some(next?), CSV_PAGE).await {
            Ok((entries, next)) => Some((Ok(csv_rows(&entries)), (reader, next))),
            Err(e) => {
                tracing::error!(error = %e, "history export failed part way");
                Some((Err(e), (reader, None)))
            }
        }
    });
    // Fused: the compression layer may poll again after the end, which `unfold` refuses.
    let body = Body::from_stream(futures::StreamExt::fuse(futures::StreamExt::chain(
        head, rest,
    )));
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"history-{id}.csv\""),
            ),
        ],
        body,
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::{disposition, range_of, RangeAsk};

    #[test]
    fn ranges_are_read_as_rfc_9110_says() {
        assert_eq!(range_of(None, 100), RangeAsk::Whole);
        assert_eq!(range_of(Some("bytes=0-9"), 100), RangeAsk::Part(0..10));
        assert_eq!(range_of(Some("bytes=90-"), 100), RangeAsk::Part(90..100));
        assert_eq!(range_of(Some("bytes=-10"), 100), RangeAsk::Part(90..100));
        assert_eq!(range_of(Some("bytes=-500"), 100), RangeAsk::Part(0..100));
        assert_eq!(
            range_of(Some("bytes=50-5000"), 100),
            RangeAsk::Part(50..100)
        );
        assert_eq!(range_of(Some("bytes=100-"), 100), RangeAsk::Unsatisfiable);
        assert_eq!(range_of(Some("bytes=-0"), 100), RangeAsk::Unsatisfiable);
        assert_eq!(range_of(Some("bytes=0-1,5-6"), 100), RangeAsk::Whole);
        assert_eq!(range_of(Some("bytes=9-3"), 100), RangeAsk::Whole);
        assert_eq!(range_of(Some("items=0-1"), 100), RangeAsk::Whole);
        assert_eq!(range_of(Some("bytes=x-1"), 100), RangeAsk::Whole);
    }

    #[test]
    fn file_names_are_safe_in_headers() {
        assert_eq!(
            disposition(false, "Plan.pdf"),
            "inline; filename=\"Plan.pdf\"; filename*=UTF-8''Plan.pdf"
        );
        assert_eq!(
            disposition(true, "Città \"Q4\".pdf"),
            "attachment; filename=\"Citt_ _Q4_.pdf\"; filename*=UTF-8''Citt%C3%A0%20%22Q4%22.pdf"
        );
    }
}
