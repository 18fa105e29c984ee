//! The console's news: publishers write and submit versions, approvers (never the version's
//! author) approve or reject them, either withdraws. A released version reaches the reps' news
//! lists at once or at its `release_at`; it leaves them at its `expires_at` or when withdrawn.
//! Each item is one `news_item` stream (`events::news`); the lists read `news_admin` and `news`,
//! written by the content projection. Scheduled releases and expiries run on the node holding the
//! projector's lease; a repeat records nothing.

use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use events::news::{NewsCommand, NewsContent, NewsError, NewsItem, Window};
use projections::{now_ms, on_db, Db, ProjectorHandle};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio_util::sync::CancellationToken;
use utoipa::{IntoParams, ToSchema};

use crate::auth::{Authorized, Role};
use crate::error::{AppError, AppJson, AppQuery, AppResult, ErrorBody};
use crate::event_store::{EventStore, Metadata};
use crate::ids::NewsId;

crate::auth::role_policy!(
    /// Who writes news in the console.
    pub NewsWriter: [Role::Publisher],
    "Only publishers can write news"
);
crate::auth::role_policy!(
    /// Who approves or rejects news versions.
    pub NewsApprover: [Role::Approver],
    "Only approvers can approve or reject news"
);
crate::auth::role_policy!(
    /// Who withdraws news.
    pub NewsWithdrawer: [Role::Publisher, Role::Approver],
    "Only publishers and approvers can withdraw news"
);
crate::auth::role_policy!(
    /// Who reads the console's news, their versions and history.
    pub NewsReader: [Role::Publisher, Role::Approver, Role::Auditor],
    "Only publishers, approvers and auditors can see the console's news"
);

impl From<NewsError> for AppError {
    fn from(e: NewsError) -> Self {
        match e {
            NewsError::NotFound => AppError::NotFound(e.to_string()),
            NewsError::Exists | NewsError::WrongState(_) => AppError::Conflict(e.to_string()),
            NewsError::Invalid(m) => AppError::BadRequest(m),
            NewsError::OwnVersion => AppError::Forbidden(e.to_string()),
        }
    }
}

/// A news item as written in the console.
#[derive(Debug, Deserialize, ToSchema)]
pub struct NewsRequest {
    pub title: String,
    pub category: String,
    /// `YYYY-MM-DD`; default today.
    pub date: Option<String>,
    /// The list's picture (a path or an address).
    pub preview: Option<String>,
    /// Sanitised before it is stored.
    pub body_html: String,
    pub image: Option<String>,
    /// RFC 3339 or milliseconds since the epoch.
    #[schema(value_type = Option<String>)]
    pub release_at: Option<Value>,
    #[schema(value_type = Option<String>)]
    pub expires_at: Option<Value>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct DecisionRequest {
    pub comment: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = NewsWithdrawRequest)]
pub struct WithdrawRequest {
    pub reason: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct NewsState {
    pub id: i64,
    pub version: u32,
    pub status: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = NewsPerson)]
pub struct Person {
    pub id: String,
    pub name: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct NewsAdminItem {
    pub id: i64,
    pub title: String,
    pub category: String,
    pub status: String,
    pub version: i64,
    pub release_at: Option<i64>,
    pub expires_at: Option<i64>,
    pub updated_at: i64,
    pub author: Person,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct NewsAdminList {
    pub items: Vec<NewsAdminItem>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct NewsVersionView {
    pub version: u32,
    pub title: String,
    pub status: String,
    pub author: Person,
    pub created_at: i64,
    pub submitted_at: Option<i64>,
    pub decided_by: Option<Person>,
    pub decided_at: Option<i64>,
    pub comment: Option<String>,
    pub released_at: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct NewsAdminDetail {
    #[serde(flatten)]
    pub item: NewsAdminItem,
    pub released_version: Option<u32>,
    /// The latest version's body.
    pub body_html: String,
    pub versions: Vec<NewsVersionView>,
    /// `{at, by, reason}` once withdrawn.
    #[schema(value_type = Option<Object>)]
    pub withdrawn: Option<Value>,
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(as = NewsHistoryEntry)]
pub struct HistoryEntry {
    pub at: i64,
    pub actor: Person,
    pub action: String,
    pub detail: String,
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct NewsAdminQuery {
    /// draft | in_review | approved | released | expired | withdrawn
    pub status: Option<String>,
}

/// A time given as RFC 3339 or as milliseconds since the epoch.
fn parse_time(field: &str, value: Option<&Value>) -> AppResult<Option<i64>> {
    let bad = || AppError::bad_request(format!("{field} must be an RFC 3339 time or milliseconds"));
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => n.as_i64().map(Some).ok_or_else(bad),
        Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
        Some(Value::String(s)) => {
            if let Ok(ms) = s.trim().parse::<i64>() {
                return Ok(Some(ms));
            }
            chrono::DateTime::parse_from_rfc3339(s.trim())
                .map(|t| Some(t.timestamp_millis()))
                .map_err(|_| bad())
        }
        Some(_) => Err(bad()),
    }
}

fn content_of(request: &NewsRequest, now: i64) -> AppResult<(NewsContent, Window)> {
    let date = match request
        .date
        .as_deref()
        .map(str::trim)
        .filter(|d| !d.is_empty())
    {
        Some(d) => {
            chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d")
                .map_err(|_| AppError::bad_request("date must be YYYY-MM-DD"))?;
            d.to_string()
        }
        None => chrono::DateTime::from_timestamp_millis(now)
            .unwrap_or_default()
            .format("%Y-%m-%d")
            .to_string(),
    };
    let content = NewsContent {
        title: request.title.trim().to_string(),
        category: request.category.trim().to_string(),
        date,
        preview: request.preview.clone().unwrap_or_default(),
        body_html: crate::html::sanitize(&request.body_html),
        image: request.image.clone().filter(|i| !i.trim().is_empty()),
    };
    let window = Window {
        release_at: parse_time("release_at", request.release_at.as_ref())?,
        expires_at: parse_time("expires_at", request.expires_at.as_ref())?,
    };
    Ok((content, window))
}

fn store(db: &Db, projector: &ProjectorHandle) -> EventStore<NewsItem> {
    EventStore::new(db, (), projector.clone())
}

async fn state_of(db: &Db, id: i64) -> AppResult<NewsItem> {
    let state: Option<String> = on_db!(db, pool => sqlx::query_scalar(
        "select state from news_admin where id = $1").bind(id).fetch_optional(pool).await)?;
    let state = state.ok_or_else(|| AppError::NotFound("This news item does not exist.".into()))?;
    serde_json::from_str(&state)
        .map_err(|e| AppError::Internal(anyhow::Error::new(e).context("stored news state")))
}

async fn answer(db: &Db, id: i64) -> AppResult<AppJson<NewsState>> {
    let item = state_of(db, id).await?;
    Ok(AppJson(NewsState {
        id,
        version: item.latest().map_or(0, |v| v.version),
        status: item.status().to_string(),
    }))
}

async fn run(
    db: &Db,
    projector: &ProjectorHandle,
    id: i64,
    command: NewsCommand,
    by: &str,
) -> AppResult<AppJson<NewsState>> {
    store(db, projector)
        .execute(&NewsItem::aggregate_id(id), command, Metadata::by(by))
        .await?;
    answer(db, id).await
}

/// Writes a news item: version 1, a draft.
#[utoipa::path(post, path = "/admin/news", tag = "news-admin", security(("bearer" = [])),
    request_body = NewsRequest,
    responses((status = 201, body = NewsState), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn create(
    State(db): State<Db>,
    State(projector): State<ProjectorHandle>,
    auth: Authorized<NewsWriter>,
    AppJson(request): AppJson<NewsRequest>,
) -> AppResult<(StatusCode, AppJson<NewsState>)> {
    let now = now_ms();
    let (content, window) = content_of(&request, now)?;
    let store = store(&db, &projector);
    // A second writer racing for the same id finds its stream taken and takes the next one.
    for _ in 0..5 {
        let highest: Option<i64> = on_db!(&db, pool => sqlx::query_scalar(
            "select max(id) from news_admin").fetch_one(pool).await)?;
        let id = highest
            .map_or(NewsItem::FIRST_CONSOLE_ID, |h| h + 1)
            .max(NewsItem::FIRST_CONSOLE_ID);
        let command = NewsCommand::Create {
            id,
            content: content.clone(),
            window,
            by: auth.id.clone(),
            at: now,
        };
        match store
            .execute(&NewsItem::aggregate_id(id), command, Metadata::by(&auth.id))
            .await
        {
            Err(AppError::Conflict(_)) => continue,
            Err(e) => return Err(e),
            Ok(_) => {
                tracing::info!(id, by = %auth.id, "news drafted");
                return Ok((StatusCode::CREATED, answer(&db, id).await?));
            }
        }
    }
    Err(AppError::Conflict(
        "Many news items are being written at once. Try again".into(),
    ))
}

/// A new draft version (the released one stays until this one is released).
#[utoipa::path(patch, path = "/admin/news/{id}", tag = "news-admin", security(("bearer" = [])),
    params(("id" = i64, Path)), request_body = NewsRequest,
    responses((status = 200, body = NewsState), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn revise(
    State(db): State<Db>,
    State(projector): State<ProjectorHandle>,
    auth: Authorized<NewsWriter>,
    NewsId(id): NewsId,
    AppJson(request): AppJson<NewsRequest>,
) -> AppResult<AppJson<NewsState>> {
    let now = now_ms();
    let (content, window) = content_of(&request, now)?;
    let command = NewsCommand::Revise {
        content,
        window,
        by: auth.id.clone(),
        at: now,
    };
    run(&db, &projector, id, command, &auth.id).await
}

/// Submits the latest draft for approval.
#[utoipa::path(post, path = "/admin/news/{id}/submit", tag = "news-admin", security(("bearer" = [])),
    params(("id" = i64, Path)),
    responses((status = 200, body = NewsState), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn submit(
    State(db): State<Db>,
    State(projector): State<ProjectorHandle>,
    auth: Authorized<NewsWriter>,
    NewsId(id): NewsId,
) -> AppResult<AppJson<NewsState>> {
    let command = NewsCommand::Submit {
        by: auth.id.clone(),
        at: now_ms(),
    };
    run(&db, &projector, id, command, &auth.id).await
}

/// Approves the version in review (not one's own): released now, or at `release_at`.
#[utoipa::path(post, path = "/admin/news/{id}/approve", tag = "news-admin", security(("bearer" = [])),
    params(("id" = i64, Path)), request_body = DecisionRequest,
    responses((status = 200, body = NewsState), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn approve(
    State(db): State<Db>,
    State(projector): State<ProjectorHandle>,
    auth: Authorized<NewsApprover>,
    NewsId(id): NewsId,
    AppJson(request): AppJson<DecisionRequest>,
) -> AppResult<AppJson<NewsState>> {
    let command = NewsCommand::Approve {
        by: auth.id.clone(),
        at: now_ms(),
        comment: request.comment,
    };
    run(&db, &projector, id, command, &auth.id).await
}

/// Sends the version in review back to draft with a comment.
#[utoipa::path(post, path = "/admin/news/{id}/reject", tag = "news-admin", security(("bearer" = [])),
    params(("id" = i64, Path)), request_body = DecisionRequest,
    responses((status = 200, body = NewsState), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn reject(
    State(db): State<Db>,
    State(projector): State<ProjectorHandle>,
    auth: Authorized<NewsApprover>,
    NewsId(id): NewsId,
    AppJson(request): AppJson<DecisionRequest>,
) -> AppResult<AppJson<NewsState>> {
    let command = NewsCommand::Reject {
        by: auth.id.clone(),
        at: now_ms(),
        comment: request.comment,
    };
    run(&db, &projector, id, command, &auth.id).await
}

/// Withdraws the item: it leaves every rep's list at once.
#[utoipa::path(post, path = "/admin/news/{id}/withdraw", tag = "news-admin", security(("bearer" = [])),
    params(("id" = i64, Path)), request_body = WithdrawRequest,
    responses((status = 200, body = NewsState), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn withdraw(
    State(db): State<Db>,
    State(projector): State<ProjectorHandle>,
    auth: Authorized<NewsWithdrawer>,
    NewsId(id): NewsId,
    AppJson(request): AppJson<WithdrawRequest>,
) -> AppResult<AppJson<NewsState>> {
    let command = NewsCommand::Withdraw {
        by: auth.id.clone(),
        at: now_ms(),
        reason: request.reason,
    };
    run(&db, &projector, id, command, &auth.id).await
}

async fn names(db: &Db) -> AppResult<std::collections::HashMap<String, String>> {
    let rows: Vec<(String, String)> = on_db!(db, pool => sqlx::query_as(
        "select id, first_name || ' ' || last_name from users").fetch_all(pool).await)?;
    Ok(rows.into_iter().collect())
}

fn person(names: &std::collections::HashMap<String, String>, id: &str) -> Person {
    Person {
        id: id.to_string(),
        name: names.get(id).cloned().unwrap_or_else(|| id.to_string()),
    }
}

const STATUSES: &[&str] = &[
    "draft",
    "in_review",
    "approved",
    "released",
    "expired",
    "withdrawn",
];

type AdminRow = (
    i64,
    String,
    String,
    String,
    i64,
    Option<i64>,
    Option<i64>,
    i64,
    String,
);

fn admin_item(row: AdminRow, names: &std::collections::HashMap<String, String>) -> NewsAdminItem {
    let (id, title, category, status, version, release_at, expires_at, updated_at, author) = row;
    NewsAdminItem {
        id,
        title,
        category,
        status,
        version,
        release_at,
        expires_at,
        updated_at,
        author: person(names, &author),
    }
}

/// The console's news, newest change first, optionally of one status.
#[utoipa::path(get, path = "/admin/news", tag = "news-admin", security(("bearer" = [])), params(NewsAdminQuery),
    responses((status = 200, body = NewsAdminList), (status = 400, body = ErrorBody), (status = 403, body = ErrorBody)))]
pub async fn list(
    State(db): State<Db>,
    _auth: Authorized<NewsReader>,
    AppQuery(query): AppQuery<NewsAdminQuery>,
) -> AppResult<AppJson<NewsAdminList>> {
    let status = query.status.filter(|s| !s.is_empty());
    if let Some(s) = &status {
        if !STATUSES.contains(&s.as_str()) {
            return Err(AppError::bad_request(format!("Unknown status '{s}'")));
        }
    }
    let rows: Vec<AdminRow> = on_db!(&db, pool => sqlx::query_as(
        "select id, title, category, status, version, release_at, expires_at, updated_at, author_id
         from news_admin where ($1 is null or status = $1) order by updated_at desc, id desc")
        .bind(status.as_deref()).fetch_all(pool).await)?;
    let names = names(&db).await?;
    Ok(AppJson(NewsAdminList {
        items: rows.into_iter().map(|r| admin_item(r, &names)).collect(),
    }))
}

/// One console news item with its versions and the latest body.
#[utoipa::path(get, path = "/admin/news/{id}", tag = "news-admin", security(("bearer" = [])),
    params(("id" = i64, Path)),
    responses((status = 200, body = NewsAdminDetail), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn detail(
    State(db): State<Db>,
    _auth: Authorized<NewsReader>,
    NewsId(id): NewsId,
) -> AppResult<AppJson<NewsAdminDetail>> {
    let item = state_of(&db, id).await?;
    let names = names(&db).await?;
    let latest = item
        .latest()
        .ok_or_else(|| AppError::NotFound("This news item does not exist.".into()))?;
    let updated_at: i64 = on_db!(&db, pool => sqlx::query_scalar(
        "select updated_at from news_admin where id = $1").bind(id).fetch_one(pool).await)?;
    let withdrawn = match &item.ended {
        Some(events::news::Ended::Withdrawn { by, at, reason }) => {
            Some(serde_json::json!({"at": at, "by": person(&names, by), "reason": reason}))
        }
        _ => None,
    };
    Ok(AppJson(NewsAdminDetail {
        item: NewsAdminItem {
            id,
            title: latest.content.title.clone(),
            category: latest.content.category.clone(),
            status: item.status().to_string(),
            version: i64::from(latest.version),
            release_at: item.window.release_at,
            expires_at: item.window.expires_at,
            updated_at,
            author: person(&names, &latest.author),
        },
        released_version: item.released_version,
        body_html: latest.content.body_html.clone(),
        versions: item
            .versions
            .iter()
            .map(|v| NewsVersionView {
                version: v.version,
                title: v.content.title.clone(),
                status: v.status.as_str().to_string(),
                author: person(&names, &v.author),
                created_at: v.created_at,
                submitted_at: v.submitted_at,
                decided_by: v.decided_by.as_deref().map(|b| person(&names, b)),
                decided_at: v.decided_at,
                comment: v.comment.clone(),
                released_at: v.released_at,
            })
            .collect(),
        withdrawn,
    }))
}

/// Every step of a console news item, oldest first, with who took it.
#[utoipa::path(get, path = "/admin/news/{id}/history", tag = "news-admin", security(("bearer" = [])),
    params(("id" = i64, Path)),
    responses((status = 200, body = Vec<HistoryEntry>), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn history(
    State(db): State<Db>,
    _auth: Authorized<NewsReader>,
    NewsId(id): NewsId,
) -> AppResult<AppJson<Vec<HistoryEntry>>> {
    let rows: Vec<(String, String, i64)> = on_db!(&db, pool => sqlx::query_as(
        "select cast(payload as text), cast(metadata as text), recorded_at from events
         where aggregate_type = $1 and aggregate_id = $2 order by sequence")
        .bind(NewsItem::TYPE).bind(NewsItem::aggregate_id(id)).fetch_all(pool).await)?;
    if rows.is_empty() {
        return Err(AppError::NotFound("This news item does not exist.".into()));
    }
    let names = names(&db).await?;
    let mut out = Vec::with_capacity(rows.len());
    for (payload, metadata, recorded_at) in rows {
        let event: events::news::NewsEvent = serde_json::from_str(&payload)
            .map_err(|e| AppError::Internal(anyhow::Error::new(e).context("stored news event")))?;
        let meta: Value = serde_json::from_str(&metadata).unwrap_or(Value::Null);
        let actor = meta["user_id"].as_str().unwrap_or("server").to_string();
        use events::news::NewsEvent as E;
        let (at, action, detail) = match event {
            E::Created { at, content, .. } => (at, "created", format!("v1: {}", content.title)),
            E::VersionDrafted {
                at,
                version,
                content,
                ..
            } => (
                at,
                "version_drafted",
                format!("v{version}: {}", content.title),
            ),
            E::Submitted { at, version, .. } => (at, "submitted", format!("v{version}")),
            E::Approved {
                at,
                version,
                comment,
                ..
            } => (
                at,
                "approved",
                format!(
                    "v{version}{}",
                    comment.map(|c| format!(": {c}")).unwrap_or_default()
                ),
            ),
            E::Rejected {
                at,
                version,
                comment,
                ..
            } => (
                at,
                "rejected",
                format!(
                    "v{version}{}",
                    comment.map(|c| format!(": {c}")).unwrap_or_default()
                ),
            ),
            E::Released { at, version } => (at, "released", format!("v{version}")),
            E::Expired { at } => (at, "expired", String::new()),
            E::Withdrawn { at, reason, .. } => (at, "withdrawn", reason),
        };
        let _ = recorded_at;
        out.push(HistoryEntry {
            at,
            actor: person(&names, &actor),
            action: action.to_string(),
            detail,
        });
    }
    Ok(AppJson(out))
}

/// Releases approved versions and expires released items whose time has come. On PostgreSQL
/// only the node running the projector does it; the aggregate makes a repeat a no-op anyway.
pub async fn run_due(db: &Db, projector: &ProjectorHandle, now: i64) -> AppResult<usize> {
    if matches!(db, Db::Postgres { .. }) && !projector.is_active() {
        return Ok(0);
    }
    let due: Vec<i64> = on_db!(db, pool => sqlx::query_scalar(
        "select id from news_admin where due_at is not null and due_at <= $1 order by due_at")
        .bind(now).fetch_all(pool).await)?;
    let store = store(db, projector);
    for id in &due {
        let aggregate = NewsItem::aggregate_id(*id);
        store
            .execute(
                &aggregate,
                NewsCommand::ReleaseDue { at: now },
                Metadata::by("server"),
            )
            .await?;
        store
            .execute(
                &aggregate,
                NewsCommand::ExpireDue { at: now },
                Metadata::by("server"),
            )
            .await?;
    }
    Ok(due.len())
}

/// [`run_due`] every `every` until `stop`.
pub async fn schedule_periodically(
    db: Db,
    projector: ProjectorHandle,
    every: Duration,
    stop: CancellationToken,
) {
    let mut tick = tokio::time::interval(every);
    loop {
        tokio::select! {
            _ = stop.cancelled() => break,
            _ = tick.tick() => {}
        }
        match run_due(&db, &projector, now_ms()).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(items = n, "scheduled news releases and expiries done"),
            Err(e) => {
                tracing::warn!(error = %e, "scheduled news releases failed; trying again later")
            }
        }
    }
}
