//! The multipart form of a new library document or version: the file is streamed into the
//! blob storage under the same checks as a My Docs upload (the size limit while streaming, the
//! sniffed type against the name's extension, the same refusal texts); the text fields are
//! kept as sent, repeated ones in order.

use axum::extract::multipart::{Field, MultipartError, MultipartRejection};
use axum::extract::Multipart;
use axum::http::StatusCode;
use events::documents::FileFormat;
use events::library::VersionFile;

use crate::documents::Storage;
use crate::error::{AppError, AppResult};

/// Longest text field of the form.
const TEXT_FIELD_MAX: usize = 4 * 1024;

/// What the form held.
#[derive(Default)]
pub struct Form {
    pub file: Option<VersionFile>,
    /// Every text field, in order (`labels`, `products` and `programmes` repeat).
    pub fields: Vec<(String, String)>,
}

impl Form {
    pub fn text(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn all(&self, name: &str) -> Vec<&str> {
        self.fields
            .iter()
            .filter(|(n, v)| n == name && !v.trim().is_empty())
            .map(|(_, v)| v.as_str())
            .collect()
    }
}

pub fn too_large(limit: u64) -> AppError {
    let mb = limit as f64 / (1024.0 * 1024.0);
    AppError::PayloadTooLarge(format!(
        "The file is too large: the limit is {} MB",
        (mb * 10.0).round() / 10.0
    ))
}

fn unreadable(e: MultipartError) -> AppError {
    if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        AppError::PayloadTooLarge(e.body_text())
    } else {
        AppError::bad_request(format!("The upload could not be read: {}", e.body_text()))
    }
}

fn unsupported() -> AppError {
    AppError::UnsupportedMediaType("Only PDF and XLS files can be uploaded".into())
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

/// Reads the whole form; a refused file leaves nothing in the storage.
pub async fn read(
    multipart: Result<Multipart, MultipartRejection>,
    storage: &Storage,
    limit: u64,
) -> AppResult<Form> {
    let mut multipart = multipart.map_err(|e| {
        AppError::bad_request(format!(
            "The upload must be a multipart form: {}",
            e.body_text()
        ))
    })?;
    let mut form = Form::default();
    let result = read_fields(&mut multipart, storage, limit, &mut form).await;
    if let Err(e) = result {
        if let Some(file) = form.file.take() {
            storage.discard(&file.blob).await;
        }
        // So the client sees the refusal, not a reset (see `edge::linger`).
        crate::edge::linger::drain_form(&mut multipart).await;
        return Err(e);
    }
    Ok(form)
}

async fn read_fields(
    multipart: &mut Multipart,
    storage: &Storage,
    limit: u64,
    form: &mut Form,
) -> AppResult<()> {
    while let Some(mut field) = multipart.next_field().await.map_err(unreadable)? {
        let Some(name) = field.name().map(str::to_string) else {
            continue;
        };
        if name != "file" {
            let value = small_text(field).await?;
            form.fields.push((name, value));
            continue;
        }
        if form.file.is_some() {
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
            if writer.size() + chunk.len() as u64 > limit {
                writer.abandon().await;
                return Err(too_large(limit));
            }
            if let Err(e) = writer.write(&chunk).await {
                writer.abandon().await;
                return Err(AppError::Internal(
                    anyhow::Error::new(e).context("storing a library upload"),
                ));
            }
        }
        let stored = writer.finish().await.map_err(|e| {
            AppError::Internal(anyhow::Error::new(e).context("storing a library upload"))
        })?;
        let format = stored.sniffed;
        let file = VersionFile {
            file_name: original.clone(),
            blob: stored.blob,
            size: stored.size,
            sha256: Some(stored.sha256),
            format: format.unwrap_or(FileFormat::Pdf),
        };
        // Content and name must agree on PDF or XLS.
        let agrees = format.is_some() && FileFormat::from_file_name(&original) == format;
        if !agrees {
            storage.discard(&file.blob).await;
            return Err(unsupported());
        }
        form.file = Some(file);
    }
    Ok(())
}
