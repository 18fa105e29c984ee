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
use events::documents::DocumentError;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

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
/// The documents calls. `recipient_lookups` limits the share list on its own; the OpenAPI
/// document is built without it.
pub fn router(recipient_lookups: Option<crate::edge::limits::Layer>) -> OpenApiRouter<AppState> {
    // It lists colleagues' addresses: limited on its own, per session.
    let (schemas, paths, share_list) = routes!(api::share_list);
    let share_list = match recipient_lookups {
        Some(limit) => share_list.layer(limit),
        None => share_list,
    };
    OpenApiRouter::new()
        .routes(routes!(api::list_by_type))
        .routes(routes!(api::list_my))
        .routes(routes!(api::list_shared))
        .routes(routes!(api::list_us))
        .routes(routes!(api::list_folders, api::create_folder))
        .routes(routes!(api::tree))
        .routes(routes!(api::move_folder))
        .routes(routes!(api::share_folder))
        .routes(routes!(api::move_to_mydocs))
        .routes(routes!(api::folder, api::rename))
        .routes(routes!(api::delete_folder))
        .routes(routes!(api::folder_as_of))
        .routes(routes!(api::access_as_of))
        .routes(routes!(api::remove_file))
        .routes(routes!(api::move_file))
        .routes(routes!(api::share_file))
        .routes(routes!(api::storage_share))
        .routes(routes!(api::external_share))
        .routes(routes!(api::save_to_mydocs))
        .routes(routes!(files::file))
        .routes(routes!(api::history))
        .routes(routes!(files::history_csv))
        .routes(routes!(files::shared_link))
        .routes((schemas, paths, share_list))
}

/// `POST /api/documents/upload`, apart from the other routes: it has its own body limit and
/// timeout (see `http.rs`).
pub fn upload_router() -> OpenApiRouter<AppState> {
    let (schemas, paths, upload) = routes!(files::upload);
    // The upload counts its own bytes against UPLOAD_MAX_BYTES while it streams them to disk;
    // the API-wide JSON limit would stop it first.
    OpenApiRouter::new().routes((schemas, paths, upload.layer(DefaultBodyLimit::disable())))
}
