//! Documents and folders (spec 2.16 and 7 "Documents and folders"): the HTTP API over the
//! event-sourced items of `events::documents` and the read model of `projections::documents`.
//!
//! - [`operations`] - what can be done with documents ([`Documents`]): reads, commands, copies,
//!   history.
//! - [`api`] - JSON calls: lists, folders, tree, create, rename, move, delete, shares, copies,
//!   recipients, history, as-of.
//! - [`files`] - upload, open/download, external links, history CSV.
//! - [`services`] - what the aggregate asks of the outside, answered from the read model.
//! - [`lock`] - one structural change per owner's tree at a time.
//! - [`storage`] - stored files under `DATA_DIR/files`.
//! - [`history`] - events as who/what/when/from/to.
//! - [`demo`] - the demo documents, imported as commands on first start.
//! - [`orphans`] - deleting stored files no event refers to, and removed files past their
//!   retention.
//! - [`usage`] - storage quotas: each user's usage, the room of an upload, the free disk.
//! - [`shares`] - tracked external links: their engagement, revocation, expiry, retention.
//! - [`company`] - the company's documents in the US set: new versions in place, and the
//!   withdrawal of an item with every copy of it.
//! - [`viewer`] - the recipient's viewer of an external link (no account).
//! - [`tracking`] - the tracked links' handles: their store, the viewer's limits, device hashes.

pub mod api;
pub mod company;
pub mod demo;
pub mod files;
pub mod history;
pub mod lock;
pub mod operations;
pub mod orphans;
pub mod services;
pub mod shares;
pub mod storage;
pub mod tracking;
pub mod usage;
pub mod viewer;

use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, FromRef, FromRequestParts};
use axum::http::request::Parts;
use events::documents::DocumentError;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::{Auth, AuthUser};
use crate::error::AppError;

pub use company::{CompanyFile, Withdrawal, WithdrawnItems, WithdrawnState};
pub use history::{csv_field, describe, SYSTEM_USER};
pub use operations::{Actor, Documents, ListType};
pub use storage::Storage;

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
            E::NotACompanyFile => AppError::Forbidden(message),
            E::Withdrawn(facts) => company::withdrawn_error(&facts),
            E::UnsupportedType => AppError::UnsupportedMediaType(message),
            E::AlreadyExists => AppError::Conflict(message),
            E::Services(cause) => AppError::Internal(anyhow::anyhow!(cause)),
        }
    }
}

/// The documents calls. `recipient_lookups` limits `GET /api/users/share-list` per user; the
/// OpenAPI document is built without it.
pub fn router<S>(recipient_lookups: Option<crate::edge::limits::PerUser>) -> OpenApiRouter<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<Documents>: FromRef<S>,
    Auth: FromRef<S>,
{
    // It lists colleagues' addresses: limited on its own, per user (the handler counts once it
    // knows who calls).
    let (schemas, paths, share_list) = routes!(api::share_list);
    let share_list = match recipient_lookups {
        Some(limit) => share_list.layer(axum::Extension(limit)),
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
        .routes(routes!(usage::usage))
        .routes(routes!(files::file))
        .routes(routes!(api::history))
        .routes(routes!(files::history_csv))
        .routes(routes!(files::shared_link))
        .routes(routes!(shares::sent_shares))
        .routes(routes!(shares::item_shares))
        .routes(routes!(shares::revoke_share))
        .routes(routes!(viewer::info))
        .routes(routes!(viewer::file))
        .routes(routes!(viewer::beacon))
        .routes((schemas, paths, share_list))
}

/// `POST /api/documents/upload`, apart from the other routes: it has its own body limit and
/// timeout (see `http.rs`).
pub fn upload_router<S>() -> OpenApiRouter<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<Documents>: FromRef<S>,
    Auth: FromRef<S>,
{
    let (schemas, paths, upload) = routes!(files::upload);
    // The upload counts its own bytes against UPLOAD_MAX_BYTES while it streams them to disk;
    // the API-wide JSON limit would stop it first.
    OpenApiRouter::new().routes((schemas, paths, upload.layer(DefaultBodyLimit::disable())))
}

/// The caller's account as the documents area needs it (name, e-mail, certificate): the
/// `AuthUser` checks, which read the account with the session; 401 when it is gone.
impl<S> FromRequestParts<S> for Actor
where
    S: Send + Sync,
    Auth: FromRef<S>,
    Arc<Documents>: FromRef<S>,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let auth = AuthUser::from_request_parts(parts, state).await?;
        Ok(Actor::of_session(&auth))
    }
}
