//! Survey-style messages addressed to users (spec 7: `GET messages` with `roundId`,
//! `POST messages` with `messageId` and `status`, `POST reply` with `messageId` and `reply`).
//!
//! A message belongs to a round (a survey sent at one time), is addressed to everyone or to
//! chosen users, and may ask a question answered with a free-text reply. Each user's status and
//! reply are kept in `message_responses`. Statuses: 0 new, 1 seen (what the app sends by default),
//! 2 answered. Messages are reference data (`content/notifications/messages.json`), not events.

use std::path::Path;

use anyhow::Context;
use axum::extract::State;
use projections::{now_ms, on_db, Db};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::Notifications;
use crate::auth::AuthUser;
use crate::auth::User;
use crate::content_folder::dates::parse_instant_ms;
use crate::error::{AppError, AppJson, AppQuery, AppResult, ErrorBody};

pub const STATUS_NEW: i64 = 0;
pub const STATUS_SEEN: i64 = 1;
pub const STATUS_ANSWERED: i64 = 2;
/// Longest reply, in characters.
pub const MAX_REPLY_LEN: usize = 2000;

/// A message as the user sees it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MessageView {
    pub message_id: i64,
    pub round_id: Option<i64>,
    pub title: String,
    /// Sanitised HTML.
    pub message: String,
    /// The question the reply answers; none for plain messages.
    pub question: Option<String>,
    /// 0 new, 1 seen, 2 answered.
    pub status: i64,
    pub reply: Option<String>,
    /// When it was sent, RFC 3339.
    pub date: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct MessagesResponse {
    pub data: Vec<MessageView>,
}

#[derive(sqlx::FromRow)]
struct MessageRow {
    id: i64,
    round_id: Option<i64>,
    title: String,
    body: String,
    question: Option<String>,
    sent_at: i64,
    status: i64,
    reply: Option<String>,
}

impl From<MessageRow> for MessageView {
    fn from(r: MessageRow) -> Self {
        MessageView {
            message_id: r.id,
            round_id: r.round_id,
            title: r.title,
            message: r.body,
            question: r.question,
            status: r.status,
            reply: r.reply,
            date: projections::notifications::rfc3339(r.sent_at),
        }
    }
}

/// Messages addressed to `$1`, with that user's status and reply.
const MESSAGES_FOR: &str = "select m.id, m.round_id, m.title, m.body, m.question, m.sent_at,
        cast(coalesce(r.status, 0) as bigint) as status, r.reply
    from messages m
    left join message_responses r on r.message_id = m.id and r.user_id = $1
    where (m.everyone or exists (select 1 from message_recipients x where x.message_id = m.id and x.user_id = $1))";

async fn message_for(db: &Db, user_id: &str, id: i64) -> AppResult<Option<MessageRow>> {
    let sql = format!("{MESSAGES_FOR} and m.id = $2");
    Ok(on_db!(db, pool => sqlx::query_as::<_, MessageRow>(&sql)
        .bind(user_id).bind(id).fetch_optional(pool).await)?)
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct MessagesQuery {
    /// Only the messages of this round.
    pub round_id: Option<i64>,
}

/// The user's messages (of one round when `roundId` is given), newest first.
#[utoipa::path(get, path = "/messages", tag = "messages", security(("bearer" = [])),
    params(MessagesQuery),
    responses((status = 200, body = MessagesResponse), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody)))]
pub async fn list_messages(
    State(state): State<Notifications>,
    auth: AuthUser,
    AppQuery(query): AppQuery<MessagesQuery>,
) -> AppResult<AppJson<MessagesResponse>> {
    let rows: Vec<MessageRow> = match query.round_id {
        Some(round) => {
            let sql =
                format!("{MESSAGES_FOR} and m.round_id = $2 order by m.sent_at desc, m.id desc");
            on_db!(&state.db, pool => sqlx::query_as(&sql).bind(&auth.id).bind(round).fetch_all(pool).await)?
        }
        None => {
            let sql = format!("{MESSAGES_FOR} order by m.sent_at desc, m.id desc");
            on_db!(&state.db, pool => sqlx::query_as(&sql).bind(&auth.id).fetch_all(pool).await)?
        }
    };
    Ok(AppJson(MessagesResponse {
        data: rows.into_iter().map(Into::into).collect(),
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatusRequest {
    pub message_id: Option<i64>,
    /// 0 new, 1 seen, 2 answered; 1 when absent.
    pub status: Option<i64>,
}

fn message_id(id: Option<i64>) -> AppResult<i64> {
    id.ok_or_else(|| AppError::bad_request("The messageId is required"))
}

/// Sets the user's status of a message (1, seen, by default). An answered message stays
/// answered when the app later marks it seen.
#[utoipa::path(post, path = "/messages", tag = "messages", security(("bearer" = [])),
    request_body = StatusRequest,
    responses((status = 200, body = MessageView), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn set_status(
    State(state): State<Notifications>,
    auth: AuthUser,
    AppJson(body): AppJson<StatusRequest>,
) -> AppResult<AppJson<MessageView>> {
    let id = message_id(body.message_id)?;
    let status = body.status.unwrap_or(STATUS_SEEN);
    if !(STATUS_NEW..=STATUS_ANSWERED).contains(&status) {
        return Err(AppError::bad_request(
            "The status is 0 (new), 1 (seen) or 2 (answered)",
        ));
    }
    message_for(&state.db, &auth.id, id)
        .await?
        .ok_or_else(|| AppError::not_found("Message not found"))?;
    on_db!(&state.db, pool => sqlx::query(
        "insert into message_responses (message_id, user_id, status, reply, updated_at) values ($1, $2, $3, null, $4)
         on conflict (message_id, user_id) do update set
           status = case when message_responses.reply is not null and excluded.status < $5
                         then message_responses.status else excluded.status end,
           updated_at = excluded.updated_at")
        .bind(id).bind(&auth.id).bind(status).bind(now_ms()).bind(STATUS_ANSWERED)
        .execute(pool).await.map(|r| r.rows_affected()))?;
    let row = message_for(&state.db, &auth.id, id)
        .await?
        .ok_or_else(|| AppError::not_found("Message not found"))?;
    Ok(AppJson(row.into()))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReplyRequest {
    pub message_id: Option<i64>,
    /// Plain text, at most 2000 characters.
    pub reply: Option<String>,
}

/// Answers a message's question; the message becomes answered (status 2). A new reply replaces
/// the earlier one.
#[utoipa::path(post, path = "/messages/reply", tag = "messages", security(("bearer" = [])),
    request_body = ReplyRequest,
    responses((status = 200, body = MessageView), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
pub async fn reply(
    State(state): State<Notifications>,
    auth: AuthUser,
    AppJson(body): AppJson<ReplyRequest>,
) -> AppResult<AppJson<MessageView>> {
    let id = message_id(body.message_id)?;
    let reply = body.reply.unwrap_or_default().trim().to_string();
    if reply.is_empty() {
        return Err(AppError::bad_request("The reply is required"));
    }
    if reply.chars().count() > MAX_REPLY_LEN {
        return Err(AppError::bad_request(format!(
            "The reply must be at most {MAX_REPLY_LEN} characters"
        )));
    }
    let message = message_for(&state.db, &auth.id, id)
        .await?
        .ok_or_else(|| AppError::not_found("Message not found"))?;
    if message.question.is_none() {
        return Err(AppError::bad_request("This message takes no reply"));
    }
    on_db!(&state.db, pool => sqlx::query(
        "insert into message_responses (message_id, user_id, status, reply, updated_at) values ($1, $2, $3, $4, $5)
         on conflict (message_id, user_id) do update set
           status = excluded.status, reply = excluded.reply, updated_at = excluded.updated_at")
        .bind(id).bind(&auth.id).bind(STATUS_ANSWERED).bind(&reply).bind(now_ms())
        .execute(pool).await.map(|r| r.rows_affected()))?;
    let row = message_for(&state.db, &auth.id, id)
        .await?
        .ok_or_else(|| AppError::not_found("Message not found"))?;
    Ok(AppJson(row.into()))
}

/// One message of `content/notifications/messages.json`.
#[derive(Debug, Deserialize)]
struct MessageContent {
    id: i64,
    round_id: Option<i64>,
    title: String,
    date: String,
    message: String,
    question: Option<String>,
    /// E-mails; none or null means everyone.
    recipients: Option<Vec<String>>,
}

/// Loads (or refreshes) the messages of the content folder; answers are kept. Recipients that
/// have no account are skipped.
pub async fn load_content(db: &Db, content_dir: &Path) -> anyhow::Result<usize> {
    let path = content_dir.join("notifications").join("messages.json");
    let bytes = match tokio::fs::read(&path).await {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    let messages: Vec<MessageContent> =
        serde_json::from_slice(&bytes).with_context(|| format!("parsing {}", path.display()))?;
    for m in &messages {
        let sent_at = parse_instant_ms(&m.date)
            .with_context(|| format!("{}: message {}: date", path.display(), m.id))?;
        let body = events::notifications::html::sanitize(&m.message);
        let everyone = m.recipients.is_none();
        on_db!(db, pool => sqlx::query(
            "insert into messages (id, round_id, title, body, question, everyone, sent_at) values ($1, $2, $3, $4, $5, $6, $7)
             on conflict (id) do update set round_id = excluded.round_id, title = excluded.title, body = excluded.body,
               question = excluded.question, everyone = excluded.everyone, sent_at = excluded.sent_at")
            .bind(m.id).bind(m.round_id).bind(&m.title).bind(&body).bind(&m.question)
            .bind(everyone).bind(sent_at)
            .execute(pool).await.map(|r| r.rows_affected()))?;
        for email in m.recipients.iter().flatten() {
            let Some(user) = User::find_by_email(db, email).await? else {
                continue;
            };
            on_db!(db, pool => sqlx::query(
                "insert into message_recipients (message_id, user_id) values ($1, $2) on conflict do nothing")
                .bind(m.id).bind(&user.id).execute(pool).await.map(|r| r.rows_affected()))?;
        }
    }
    Ok(messages.len())
}
