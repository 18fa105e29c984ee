//! Probes: `GET /api/health` (the process answers) and `GET /api/ready` (it can serve: the
//! database answers and the read models are close enough to the event store).

use std::sync::Arc;

use axum::extract::FromRef;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::Json;
use projections::{on_db, Db, ProjectorHandle};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::config::Config;

/// The probes, outside the rate limits: a load balancer asks often, from one address.
pub fn router<S>() -> OpenApiRouter<S>
where
    S: Clone + Send + Sync + 'static,
    Db: FromRef<S>,
    ProjectorHandle: FromRef<S>,
    Arc<Config>: FromRef<S>,
{
    OpenApiRouter::new()
        .routes(routes!(health))
        .routes(routes!(ready))
}

#[derive(Serialize, ToSchema)]
pub struct Health {
    /// Always `ok`.
    pub status: &'static str,
}

/// Liveness: answers as long as the process serves requests.
#[utoipa::path(get, path = "/health", tag = "operations",
    responses((status = 200, body = Health)))]
pub async fn health() -> impl IntoResponse {
    Json(Health { status: "ok" })
}

#[derive(Serialize, ToSchema)]
pub struct Readiness {
    /// `ready` or `not_ready`.
    pub status: &'static str,
    /// `ok`, or why the database could not be reached.
    pub database: String,
    /// Events in the store the read models have not applied yet (null when unknown).
    pub projection_lag: Option<i64>,
    /// The lag above which this node reports not ready (`READY_MAX_PROJECTION_LAG`).
    pub max_projection_lag: i64,
    /// `single` (SQLite: this node runs everything), `projector` (PostgreSQL: this node holds the
    /// projector lock) or `follower` (another node runs the projector).
    pub role: &'static str,
    /// PostgreSQL: the id of the node holding the projector lease (its `DATA_DIR/node-id`), or
    /// null while none holds a valid one (a take-over in progress).
    pub lease_holder: Option<String>,
}

/// Readiness: 200 when the database answers and the projections are within
/// `READY_MAX_PROJECTION_LAG` events of the store, 503 otherwise.
#[utoipa::path(get, path = "/ready", tag = "operations",
    responses((status = 200, body = Readiness), (status = 503, body = Readiness)))]
pub async fn ready(
    State(db): State<Db>,
    State(projector): State<ProjectorHandle>,
    State(config): State<Arc<Config>>,
) -> impl IntoResponse {
    let role = match (&db, projector.is_active()) {
        (Db::Sqlite { .. }, _) => "single",
        (Db::Postgres { .. }, true) => "projector",
        (Db::Postgres { .. }, false) => "follower",
    };
    let max = config.ready_max_projection_lag;
    let (database, lag) = match lag(&db, &projector).await {
        Ok(lag) => ("ok".to_string(), Some(lag)),
        Err(e) => {
            tracing::warn!(error = %e, "readiness: database unreachable");
            ("unreachable".to_string(), None)
        }
    };
    let lease_holder = match &db {
        Db::Postgres { pool } => match projections::lease::holder(pool).await {
            Ok(Some((owner, _, true))) => Some(owner),
            Ok(_) => None,
            Err(e) => {
                tracing::warn!(error = %e, "readiness: cannot read the projector lease");
                None
            }
        },
        Db::Sqlite { .. } => None,
    };
    let ok = database == "ok" && lag.is_some_and(|lag| lag <= max);
    let status = if ok {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    (
        status,
        Json(Readiness {
            status: if ok { "ready" } else { "not_ready" },
            database,
            projection_lag: lag,
            max_projection_lag: max,
            role,
            lease_holder,
        }),
    )
}

async fn lag(db: &Db, projector: &ProjectorHandle) -> Result<i64, sqlx::Error> {
    on_db!(db, pool => sqlx::query("select 1").execute(pool).await.map(|_| ()))?;
    let head = projections::stream::head(db).await?;
    let applied = projector.applied().await?;
    Ok(head.map_or(0, |head| (head.position - applied.position).max(0)))
}
