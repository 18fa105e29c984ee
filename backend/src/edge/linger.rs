//! Refusing a body that is announced too large without resetting the client.
//!
//! A 413 sent while the client is still writing its body, followed by closing the connection
//! with unread bytes in it, makes the kernel reset the connection: the client then sees a broken
//! pipe instead of the 413. So a body whose `Content-Length` is over the route's limit is read
//! and discarded, up to [`LINGER_BYTES`] and for at most [`LINGER_TIME`] (the "lingering close"
//! of nginx and Apache), before the 413 is answered; the connection is then closed
//! (`super::json_errors`). Bodies without a length are cut by `RequestBodyLimitLayer` as they
//! stream. An upload its handler refuses before reading all of it (a quota, a file too large
//! or of the wrong type) reads out the rest of its form the same way ([`drain_form`]).

use std::time::Duration;

use axum::body::Body;
use axum::extract::{Multipart, Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use futures::StreamExt;

use crate::error::AppError;

/// The most of a refused body that is read before answering.
pub const LINGER_BYTES: usize = 8 * 1024 * 1024;
/// The longest time spent reading a refused body.
pub const LINGER_TIME: Duration = Duration::from_secs(2);

/// Middleware (`from_fn_with_state(limit, ...)`): 413 for a body announced over `limit` bytes.
pub async fn refuse_oversized(
    State(limit): State<usize>,
    request: Request,
    next: Next,
) -> Response {
    let announced = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    match announced {
        Some(length) if length > limit as u64 => {
            discard(request.into_body()).await;
            AppError::PayloadTooLarge("The request body is too large".into()).into_response()
        }
        _ => next.run(request).await,
    }
}

async fn discard(body: Body) {
    let mut stream = body.into_data_stream();
    let _ = tokio::time::timeout(LINGER_TIME, async {
        let mut read = 0usize;
        while let Some(Ok(chunk)) = stream.next().await {
            read = read.saturating_add(chunk.len());
            if read >= LINGER_BYTES {
                break;
            }
        }
    })
    .await;
}

/// Reads and discards what is left of a multipart form whose handler answers before reading all
/// of it, within the same bounds as [`refuse_oversized`], so the client sees the answer.
pub async fn drain_form(multipart: &mut Multipart) {
    let _ = tokio::time::timeout(LINGER_TIME, async {
        let mut read = 0usize;
        // A field left half read is skipped by the next `next_field`; an error ends the form.
        while let Ok(Some(mut field)) = multipart.next_field().await {
            while let Ok(Some(chunk)) = field.chunk().await {
                read = read.saturating_add(chunk.len());
                if read >= LINGER_BYTES {
                    return;
                }
            }
        }
    })
    .await;
}
