//! The terms and conditions: acceptances are events (`events::terms`), one per user and version;
//! the server's current version is `TERMS_VERSION`. Until a user accepted it, every call but the
//! session calls under `/users/` answers 403 with the code [`TERMS_REQUIRED_CODE`], which the app
//! turns into its /terms screen. Auditors read the history.

use axum::extract::FromRef;
use axum::extract::State;
use events::terms::{TermsAcceptance, TermsCommand, TermsError};
use projections::{now_ms, on_db, Db, ProjectorHandle};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::Auth;
use super::{Authorized, Role};
use crate::error::{AppError, AppJson, AppQuery, AppResult};
use crate::event_store::{EventStore, Metadata};

/// The `code` of the 403 answered while the current terms are not accepted.
pub const TERMS_REQUIRED_CODE: &str = "terms_not_accepted";
pub const TERMS_REQUIRED: &str = "Accept the terms and conditions to continue";

impl From<TermsError> for AppError {
    fn from(e: TermsError) -> Self {
        AppError::bad_request(e.to_string())
    }
}

pub fn router<S>() -> OpenApiRouter<S>
where
    S: Clone + Send + Sync + 'static,
    Auth: FromRef<S>,
{
    OpenApiRouter::new().routes(routes!(history))
}

/// Records that `user_id` accepted `version`. With a projector, returns once the read model has
/// it; without (seeding, command-line tools), as soon as the event is stored.
pub async fn accept(
    db: &Db,
    projector: Option<ProjectorHandle>,
    user_id: &str,
    version: &str,
) -> AppResult<()> {
    let store = match projector {
        Some(p) => EventStore::<TermsAcceptance>::new(db, (), p),
        None => EventStore::<TermsAcceptance>::append_only(db, ()),
    };
    store
        .execute(
            &TermsAcceptance::aggregate_id(user_id),
            TermsCommand::Accept {
                user_id: user_id.to_string(),
                version: version.to_string(),
                accepted_at: now_ms(),
            },
            Metadata::by(user_id),
        )
        .await?;
    Ok(())
}

/// Whether `user_id` accepted `version`.
pub async fn has_accepted(db: &Db, user_id: &str, version: &str) -> Result<bool, sqlx::Error> {
    let found: Option<i64> = on_db!(db, pool => sqlx::query_scalar(
        "select accepted_at from terms_acceptances where user_id = $1 and version = $2")
        .bind(user_id).bind(version).fetch_optional(pool).await)?;
    Ok(found.is_some())
}

/// Whether a call to `path` (as seen inside `/api`, or with it) is a session call, allowed before
/// the terms are accepted.
pub fn allowed_before_acceptance(path: &str) -> bool {
    let path = path.strip_prefix("/api").unwrap_or(path);
    // The recipient look-up lists colleagues: not before the terms are accepted.
    path.starts_with("/users/") && path.trim_end_matches('/') != "/users/share-list"
}

#[derive(Deserialize, IntoParams)]
pub struct HistoryQuery {
    /// One user's acceptances (their id); everyone's when omitted.
    pub user: Option<String>,
}

#[derive(Serialize, ToSchema, sqlx::FromRow)]
pub struct Acceptance {
    pub user_id: String,
    pub email: Option<String>,
    pub version: String,
    pub accepted_at: i64,
}

crate::auth::role_policy!(
    /// Who may read the history of acceptances.
    pub AcceptanceReader: [Role::Auditor, Role::Admin],
    "Only auditors and administrators may read the history of acceptances"
);

/// The history of terms acceptances, newest first (at most 1,000), for auditors and
/// administrators.
#[utoipa::path(get, path = "/admin/terms-acceptances", tag = "admin", params(HistoryQuery),
    security(("bearer" = [])),
    responses((status = 200, body = Vec<Acceptance>), (status = 401, body = crate::error::ErrorBody),
        (status = 403, body = crate::error::ErrorBody)))]
pub async fn history(
    State(state): State<Auth>,
    _auth: Authorized<AcceptanceReader>,
    AppQuery(query): AppQuery<HistoryQuery>,
) -> AppResult<AppJson<Vec<Acceptance>>> {
    let user = query.user.filter(|u| !u.is_empty());
    let rows: Vec<Acceptance> = on_db!(&state.db, pool => sqlx::query_as::<_, Acceptance>(
        "select t.user_id, u.email, t.version, t.accepted_at from terms_acceptances t
         left join users u on u.id = t.user_id
         where ($1 is null or t.user_id = $1) order by t.accepted_at desc, t.user_id limit 1000")
        .bind(&user).fetch_all(pool).await)?;
    Ok(AppJson(rows))
}
