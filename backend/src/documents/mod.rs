//! Documents and folders (spec 2.16 and 7 "Documents and folders"): the HTTP API over the
//! event-sourced items of `events::documents` and the read model of `projections::documents`.
//!
//! - [`service`] - the operations ([`Documents`]): reads, commands, copies, history.
//! - [`api`] - JSON calls: lists, folders, tree, create, rename, move, delete, shares, copies,
//!   recipients, history, as-of.
//! - [`files`] - upload, open/download, external links, history CSV.
//! - [`services`] - what the aggregate asks of the outside, answered from the read model.
//! - [`lock`] - one structural change per owner's tree at a time.
//! - [`storage`] - stored files under `DATA_DIR/files`.
//! - [`history`] - events as who/what/when/from/to.
//! - [`seed`] - the demo documents, imported as commands on first start.

pub mod api;
pub mod files;
pub mod history;
pub mod lock;
pub mod orphans;
pub mod seed;
pub mod service;
pub mod services;
pub mod storage;

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;
use events::documents::DocumentError;

use crate::error::AppError;
use crate::state::AppState;

pub use service::{Actor, Documents, ListType};

impl From<DocumentError> for AppError {
    fn from(e: DocumentError) -> Self {
        use DocumentError as E;
        let message = e.to_string();
        match e {
            E::NotFound | E::DestinationNotFound | E::RecipientNotFound => {
                AppError::NotFound(message)
            }
            E::NameRequired
            | E::NameTooLong
            | E::NameInvalid
            | E::MaxDepth
            | E::MoveTooDeep
            | E::MoveIntoItself
            | E::NotAFolder
            | E::NotAFile
            | E::ShareWithSelf
            | E::InvalidEmail => AppError::BadRequest(message),
            E::ReadOnly | E::NotAllowed(_) | E::InternalUseOnly | E::InternalShareOnly => {
                AppError::Forbidden(message)
            }
            E::UnsupportedType => AppError::UnsupportedMediaType(message),
            E::AlreadyExists => AppError::Conflict(message),
            E::Services(cause) => AppError::Internal(anyhow::anyhow!(cause)),
        }
    }
}

/// The document routes; `recipient_lookups` limits `GET /api/users/share-list`.
pub fn router(recipient_lookups: crate::edge::limits::Layer) -> Router<AppState> {
    Router::new()
        .route("/documents", get(api::list_by_type))
        .route("/documents/my", get(api::list_my))
        .route("/documents/shared", get(api::list_shared))
        .route("/usadocs", get(api::list_us))
        .route("/folders", get(api::list_by_type).post(api::create_folder))
        .route("/folders/list", get(api::tree))
        .route("/folders/move", post(api::move_folder))
        .route("/folders/share", post(api::share_folder))
        .route("/folders/mydocs", post(api::move_to_mydocs))
        .route("/folders/{id}", get(api::folder).post(api::rename))
        .route("/folders/{id}/delete", post(api::delete_folder))
        .route("/folders/{id}/as-of", get(api::folder_as_of))
        .route("/items/{id}/access-as-of", get(api::access_as_of))
        .route("/documents/remove", post(api::remove_file))
        .route("/documents/move", post(api::move_file))
        .route("/documents/share", post(api::share_file))
        .route("/documents/storage-share", post(api::storage_share))
        .route("/documents/external-share", post(api::external_share))
        .route("/documents/favorite", post(api::save_to_mydocs))
        .route("/documents/{id}/file", get(files::file))
        .route("/documents/{id}/history", get(api::history))
        .route("/documents/{id}/history.csv", get(files::history_csv))
        .route("/shared-links/{token}", get(files::shared_link))
        .route(
            "/users/share-list",
            // It lists colleagues' addresses: limited on its own, per session.
            get(api::share_list).layer(recipient_lookups),
        )
}

/// `POST /api/documents/upload`, apart from the other routes: it has its own body limit and
/// timeout (see `http.rs`).
pub fn upload_router() -> Router<AppState> {
    Router::new().route(
        "/documents/upload",
        // The upload counts its own bytes against UPLOAD_MAX_BYTES while it streams them to
        // disk; the API-wide JSON limit would stop it first.
        post(files::upload).layer(DefaultBodyLimit::disable()),
    )
}
