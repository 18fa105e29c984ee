//! Library documents' lifecycle (see `docs/library.md`): the publishers' and approvers' console
//! API over the event-sourced `events::library` aggregate, the reps' purge and pin reports, the
//! withdrawal report, the scheduler that releases and expires documents at their time, and the
//! cascade that carries a release or an end to the company's US copy, lists and devices.
//!
//! - [`operations`] - [`Library`]: commands, reads, the cascade and the scheduler's sweep.
//! - [`upload`] - the multipart form of a new document or version, streamed to storage.
//! - [`admin`] - `/api/admin/library...` routes.
//! - [`devices`] - `/api/library/purges`, `/pins`, `/withdrawn`.
//! - [`report`] - the withdrawal report (JSON and CSV).
//! - [`visibility`] - what reps see of library documents in the lists that embed them.

pub mod admin;
pub mod devices;
pub mod operations;
pub mod report;
pub mod upload;
pub mod visibility;

use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, FromRef};
use events::library::LibraryError;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::{Auth, Role};
use crate::error::AppError;

pub use admin::disposition;
pub use operations::{sweep_periodically, Library, SWEEP_EVERY};

crate::auth::role_policy!(
    /// Who prepares documents.
    pub Publishers: [Role::Publisher],
    "Only publishers can prepare library documents"
);
crate::auth::role_policy!(
    /// Who decides on a submitted version.
    pub Approvers: [Role::Approver],
    "Only approvers can approve or reject library documents"
);
crate::auth::role_policy!(
    /// Who may withdraw a document.
    pub Withdrawers: [Role::Publisher, Role::Approver],
    "Only publishers and approvers can withdraw library documents"
);
crate::auth::role_policy!(
    /// Who reads the console's lists, versions, history and files.
    pub ConsoleReaders: [Role::Publisher, Role::Approver, Role::Auditor],
    "Only publishers, approvers and auditors can read the library console"
);
crate::auth::role_policy!(
    /// Who reads the withdrawal report.
    pub ReportReaders: [Role::Auditor, Role::Approver],
    "Only auditors and approvers can read the withdrawal report"
);

impl From<LibraryError> for AppError {
    fn from(e: LibraryError) -> Self {
        use LibraryError as E;
        let message = e.to_string();
        match e {
            E::NotFound => AppError::NotFound(message),
            E::TitleRequired
            | E::TitleTooLong
            | E::ExpiryBeforeRelease
            | E::ReasonRequired
            | E::ReplacementIsSelf
            | E::ReplacementNotReleased => AppError::BadRequest(message),
            E::UnsupportedType => AppError::UnsupportedMediaType(message),
            E::OwnVersion => AppError::Forbidden(message),
            E::AlreadyExists
            | E::NotDraft
            | E::NotInReview
            | E::NotApproved
            | E::TooEarly
            | E::VersionPending
            | E::NotReleased
            | E::Withdrawn
            | E::Expired => AppError::Conflict(message),
        }
    }
}

/// The JSON calls.
pub fn router<S>() -> OpenApiRouter<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<Library>: FromRef<S>,
    Auth: FromRef<S>,
{
    OpenApiRouter::new()
        .routes(routes!(admin::list))
        .routes(routes!(admin::detail, admin::change))
        .routes(routes!(admin::submit))
        .routes(routes!(admin::approve))
        .routes(routes!(admin::reject))
        .routes(routes!(admin::withdraw))
        .routes(routes!(admin::history))
        .routes(routes!(admin::version_file))
        .routes(routes!(report::withdrawal_report))
        .routes(routes!(devices::purges))
        .routes(routes!(devices::pins))
        .routes(routes!(devices::withdrawn))
}

/// The two uploads, with the upload's body limit and timeout (see `http.rs`).
pub fn upload_router<S>() -> OpenApiRouter<S>
where
    S: Clone + Send + Sync + 'static,
    Arc<Library>: FromRef<S>,
    Auth: FromRef<S>,
{
    let (s1, p1, create) = routes!(admin::create);
    let (s2, p2, version) = routes!(admin::add_version);
    OpenApiRouter::new()
        .routes((s1, p1, create.layer(DefaultBodyLimit::disable())))
        .routes((s2, p2, version.layer(DefaultBodyLimit::disable())))
}
