//! The auditor's calls: every document and folder by name, owner, type and date (deleted ones
//! included), and the company's document activity for a period, in pages or as CSV.

use axum::body::Body;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use projections::{on_db, Db};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::auth::User;
use crate::auth::{Authorized, Role};
use crate::documents::csv_field;
use crate::documents::SYSTEM_USER;
use crate::error::{AppError, AppJson, AppQuery, AppResult, ErrorBody};

/// Most entries in one page of activity (and the default).
pub const MAX_PAGE: i64 = 200;
/// Most items in one answer of the search (the default is [`DEFAULT_ITEMS`]).
pub const MAX_ITEMS: i64 = 200;
pub const DEFAULT_ITEMS: i64 = 100;
/// The furthest a search pages with `offset`.
pub const MAX_OFFSET: i64 = 10_000;
/// Rows per read while the CSV export streams.
const CSV_PAGE: i64 = 1_000;

/// The actions of the activity, as history names them.
pub const ACTIONS: [&str; 12] = [
    "created",
    "uploaded",
    "renamed",
    "moved",
    "shared",
    "shared_externally",
    "saved_to_mydocs",
    "moved_to_mydocs",
    "opened",
    "downloaded",
    "removed",
    "deleted",
];

/// A person as the auditor sees them.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AuditPerson {
    pub id: String,
    /// The current name; for a removed account the name the events carried, or 'Former user'.
    pub name: String,
    /// Empty for the company (`system`) and for removed accounts.
    pub email: String,
}

/// A document or folder, current or deleted.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AuditItem {
    pub id: String,
    /// Folders: the name; files: the title.
    pub name: String,
    /// `folder` or `file`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Files: `pdf` or `xls`.
    pub format: Option<String>,
    /// `my` (a user's My Docs) or `us` (the company's US set).
    pub space: String,
    /// None for the US set.
    pub owner: Option<AuditPerson>,
    /// When it was created, ms since the epoch.
    pub created_at: i64,
    /// Its last change (creation, rename, move, share, deletion), ms since the epoch.
    pub updated_at: i64,
    pub deleted: bool,
    /// When it was deleted (with its folder, or on its own), ms since the epoch.
    pub deleted_at: Option<i64>,
    /// Who deleted it.
    pub deleted_by: Option<AuditPerson>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ItemsQuery {
    /// Part of the name, in any case (empty: every name).
    pub q: Option<String>,
    /// The owner's e-mail.
    pub owner: Option<String>,
    /// `my` (users' My Docs) or `us` (the company's US set).
    pub space: Option<String>,
    /// `folder`, `file`, `pdf` or `xls`.
    #[serde(rename = "type")]
    #[param(rename = "type")]
    pub kind: Option<String>,
    /// `true`: deleted items only; `false`: current items only; absent: both.
    pub deleted: Option<bool>,
    /// Which time `from` and `to` bound: `created` (default), `changed` or `deleted`.
    pub date: Option<String>,
    /// RFC 3339: from this time (inclusive).
    pub from: Option<String>,
    /// RFC 3339: until this time (exclusive).
    pub to: Option<String>,
    /// Items per answer, 1 to 200 (default 100).
    pub limit: Option<i64>,
    /// Items to skip (the next page starts at `offset + limit`), at most 10,000.
    pub offset: Option<i64>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ActivityQuery {
    /// Only what the user with this e-mail did.
    pub user: Option<String>,
    /// Only this action: created, uploaded, renamed, moved, shared, shared_externally,
    /// saved_to_mydocs, moved_to_mydocs, opened, downloaded, removed or deleted.
    pub action: Option<String>,
    /// RFC 3339: from this time (inclusive).
    pub from: Option<String>,
    /// RFC 3339: until this time (exclusive).
    pub to: Option<String>,
    /// Entries per page, 1 to 200 (default 200). Not used by the CSV export.
    pub limit: Option<i64>,
    /// The `next` of the previous page. Not used by the CSV export.
    pub before: Option<String>,
}

/// The item an activity entry is about, as it was named after the event.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AuditActivityItem {
    pub id: String,
    pub name: String,
    /// `folder` or `file`.
    #[serde(rename = "type")]
    pub kind: String,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AuditActivityEntry {
    /// When, ms since the epoch.
    pub at: i64,
    pub actor: AuditPerson,
    /// As in an item's history: created, uploaded, renamed, moved, shared, ...
    pub action: String,
    pub item: AuditActivityItem,
    pub detail: String,
}

/// One page of activity, newest first.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AuditActivityPage {
    pub entries: Vec<AuditActivityEntry>,
    /// Pass as `before` for the next (older) page; null on the last page. Entries recorded
    /// while the pages are walked never make an entry repeat or go missing.
    pub next: Option<String>,
}

crate::auth::role_policy!(
    /// Who may search every document, deleted ones included.
    pub DocumentSearch: [Role::Auditor],
    "Only auditors can search every document"
);

crate::auth::role_policy!(
    /// Who may read the company's document activity.
    pub ActivityReader: [Role::Auditor],
    "Only auditors can read the company's activity"
);

/// A time given as RFC 3339, in ms since the epoch.
fn time_param(raw: Option<&str>, name: &str) -> AppResult<Option<i64>> {
    let Some(raw) = raw.map(str::trim).filter(|s| !s.is_empty()) else {
        return Ok(None);
    };
    chrono::DateTime::parse_from_rfc3339(raw)
        .map(|t| Some(t.timestamp_millis()))
        .map_err(|_| {
            AppError::bad_request(format!(
                "'{name}' must be a date and time in RFC 3339, e.g. 2026-11-20T10:00:00Z"
            ))
        })
}

fn period(from: Option<&str>, to: Option<&str>) -> AppResult<(Option<i64>, Option<i64>)> {
    let from = time_param(from, "from")?;
    let to = time_param(to, "to")?;
    if let (Some(f), Some(t)) = (from, to) {
        if f >= t {
            return Err(AppError::bad_request("'from' must be before 'to'"));
        }
    }
    Ok((from, to))
}

/// The id of the user with `email`, or 400.
async fn user_id(db: &Db, email: &str, name: &str) -> AppResult<String> {
    User::find_by_email(db, email)
        .await?
        .map(|u| u.id)
        .ok_or_else(|| AppError::bad_request(format!("No user has the e-mail in '{name}'")))
}

/// The tag of activity cursors (a cursor of another paged list is refused here).
const CURSOR_TAG: &str = "a1";

/// `next` of a page: the position of its last (oldest) entry, opaque to clients.
pub fn cursor(position: i64) -> String {
    crate::paging::cursor(CURSOR_TAG, position)
}

fn parse_cursor(raw: &str) -> AppResult<i64> {
    crate::paging::parse_cursor(CURSOR_TAG, raw)
}

/// SQL with its parameters, numbered as they are added.
#[derive(Default)]
struct Sql {
    text: String,
    binds: Vec<Bind>,
}

enum Bind {
    Text(String),
    Int(i64),
}

impl Sql {
    fn new(text: &str) -> Self {
        Sql {
            text: text.to_string(),
            binds: Vec::new(),
        }
    }
    /// Appends `clause` with `?` standing for `bind`.
    fn and(&mut self, clause: &str, bind: Bind) {
        self.binds.push(bind);
        let p = format!("${}", self.binds.len());
        self.text.push_str(" and ");
        self.text.push_str(&clause.replace('?', &p));
    }
    fn push(&mut self, text: &str) {
        self.text.push_str(text);
    }
    fn bind(&mut self, bind: Bind) -> String {
        self.binds.push(bind);
        format!("${}", self.binds.len())
    }
}

macro_rules! fetch_all {
    ($db:expr, $row:ty, $sql:expr) => {{
        let sql: &Sql = $sql;
        on_db!($db, pool => {
            let mut q = sqlx::query_as::<_, $row>(&sql.text);
            for b in &sql.binds {
                q = match b {
                    Bind::Text(v) => q.bind(v.clone()),
                    Bind::Int(v) => q.bind(*v),
                };
            }
            q.fetch_all(pool).await
        })
    }};
}

/// `%text%` for LIKE with `\` as the escape character.
fn contains_pattern(text: &str) -> String {
    let mut out = String::from("%");
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('%');
    out
}

fn person(
    id: &str,
    first: Option<String>,
    last: Option<String>,
    email: Option<String>,
    fallback: Option<&str>,
) -> AuditPerson {
    let name = match (first, last) {
        (Some(f), Some(l)) => format!("{f} {l}").trim().to_string(),
        _ if id == SYSTEM_USER => "Meridian Orthopaedics".to_string(),
        _ => fallback.unwrap_or("Former user").to_string(),
    };
    AuditPerson {
        id: id.to_string(),
        name,
        email: email.unwrap_or_default(),
    }
}

#[derive(sqlx::FromRow)]
struct ItemRow {
    id: String,
    kind: String,
    format: Option<String>,
    space: String,
    owner_id: Option<String>,
    owner_name: Option<String>,
    name: String,
    created_at: i64,
    updated_at: i64,
    deleted_at: Option<i64>,
    deleted_by: Option<String>,
    owner_first: Option<String>,
    owner_last: Option<String>,
    owner_email: Option<String>,
    deleter_first: Option<String>,
    deleter_last: Option<String>,
    deleter_email: Option<String>,
}

impl ItemRow {
    fn into_item(self) -> AuditItem {
        AuditItem {
            owner: self.owner_id.as_deref().map(|id| {
                person(
                    id,
                    self.owner_first,
                    self.owner_last,
                    self.owner_email,
                    self.owner_name.as_deref(),
                )
            }),
            deleted_by: self.deleted_by.as_deref().map(|id| {
                person(
                    id,
                    self.deleter_first,
                    self.deleter_last,
                    self.deleter_email,
                    None,
                )
            }),
            deleted: self.deleted_at.is_some(),
            id: self.id,
            name: self.name,
            kind: self.kind,
            format: self.format,
            space: self.space,
            created_at: self.created_at,
            updated_at: self.updated_at,
            deleted_at: self.deleted_at,
        }
    }
}

/// Every document and folder of every user and of the US set whose name contains `q` (any
/// case), deleted ones included and marked; by name, at most `limit` (200) per answer.
#[utoipa::path(get, path = "/audit/items", tag = "audit", params(ItemsQuery),
    security(("bearer" = [])),
    responses((status = 200, body = [AuditItem]),
        (status = 400, body = ErrorBody, description = "A bad filter, date, limit or an unknown owner"),
        (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody, description = "'Only auditors can search every document'")))]
pub async fn items(
    State(db): State<Db>,
    _auth: Authorized<DocumentSearch>,
    AppQuery(query): AppQuery<ItemsQuery>,
) -> AppResult<AppJson<Vec<AuditItem>>> {
    let limit = crate::paging::limit(query.limit, DEFAULT_ITEMS, MAX_ITEMS)?;
    let offset = match query.offset {
        None => 0,
        Some(n) if (0..=MAX_OFFSET).contains(&n) => n,
        Some(_) => {
            return Err(AppError::bad_request(format!(
                "'offset' must be between 0 and {MAX_OFFSET}"
            )))
        }
    };
    let (from, to) = period(query.from.as_deref(), query.to.as_deref())?;
    let column = match query.date.as_deref().map(str::trim) {
        None | Some("") | Some("created") => "i.created_at",
        Some("changed") => "i.updated_at",
        Some("deleted") => "i.deleted_at",
        Some(_) => {
            return Err(AppError::bad_request(
                "'date' must be created, changed or deleted",
            ))
        }
    };
    let mut sql = Sql::new(
        "select i.id, i.kind, i.format, i.space, i.owner_id, i.owner_name, i.name, i.created_at,
                i.updated_at, i.deleted_at, i.deleted_by,
                o.first_name as owner_first, o.last_name as owner_last, o.email as owner_email,
                d.first_name as deleter_first, d.last_name as deleter_last, d.email as deleter_email
           from audit_items i
           left join users o on o.id = i.owner_id
           left join users d on d.id = i.deleted_by
          where 1 = 1",
    );
    let q = query.q.as_deref().map(str::trim).unwrap_or_default();
    if q.chars().count() > 200 {
        return Err(AppError::bad_request("The search is too long"));
    }
    if !q.is_empty() {
        sql.and(
            "i.name_key like ? escape '\\'",
            Bind::Text(contains_pattern(&super::projection::name_key(q))),
        );
    }
    if let Some(owner) = query
        .owner
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        let id = user_id(&db, owner, "owner").await?;
        sql.and("i.owner_id = ?", Bind::Text(id));
    }
    match query.space.as_deref().map(str::trim) {
        None | Some("") => {}
        Some(space @ ("my" | "us")) => sql.and("i.space = ?", Bind::Text(space.to_string())),
        Some(_) => return Err(AppError::bad_request("'space' must be my or us")),
    }
    match query.kind.as_deref().map(str::trim) {
        None | Some("") => {}
        Some(kind @ ("folder" | "file")) => sql.and("i.kind = ?", Bind::Text(kind.to_string())),
        Some(format @ ("pdf" | "xls")) => sql.and("i.format = ?", Bind::Text(format.to_string())),
        Some(_) => {
            return Err(AppError::bad_request(
                "'type' must be folder, file, pdf or xls",
            ))
        }
    }
    match query.deleted {
        Some(true) => sql.push(" and i.deleted_at is not null"),
        Some(false) => sql.push(" and i.deleted_at is null"),
        None => {}
    }
    if let Some(from) = from {
        sql.and(&format!("{column} >= ?"), Bind::Int(from));
    }
    if let Some(to) = to {
        sql.and(&format!("{column} < ?"), Bind::Int(to));
    }
    let l = sql.bind(Bind::Int(limit));
    let o = sql.bind(Bind::Int(offset));
    sql.push(&format!(" order by i.name_key, i.id limit {l} offset {o}"));
    let rows = fetch_all!(&db, ItemRow, &sql)?;
    Ok(AppJson(rows.into_iter().map(ItemRow::into_item).collect()))
}

#[derive(sqlx::FromRow)]
struct ActivityRow {
    position: i64,
    at: i64,
    actor_id: String,
    action: String,
    item_id: String,
    item_kind: String,
    item_name: String,
    detail: String,
    first_name: Option<String>,
    last_name: Option<String>,
    email: Option<String>,
}

impl ActivityRow {
    fn into_entry(self) -> AuditActivityEntry {
        AuditActivityEntry {
            at: self.at,
            actor: person(
                &self.actor_id,
                self.first_name,
                self.last_name,
                self.email,
                None,
            ),
            action: self.action,
            item: AuditActivityItem {
                id: self.item_id,
                name: self.item_name,
                kind: self.item_kind,
            },
            detail: self.detail,
        }
    }
}

/// The checked filters of an activity query.
#[derive(Clone)]
struct ActivityFilter {
    user: Option<String>,
    action: Option<String>,
    from: Option<i64>,
    to: Option<i64>,
}

async fn activity_filter(db: &Db, query: &ActivityQuery) -> AppResult<ActivityFilter> {
    let (from, to) = period(query.from.as_deref(), query.to.as_deref())?;
    let user = match query
        .user
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        Some(email) => Some(user_id(db, email, "user").await?),
        None => None,
    };
    let action = match query
        .action
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        Some(a) if ACTIONS.contains(&a) => Some(a.to_string()),
        Some(_) => {
            return Err(AppError::bad_request(format!(
                "'action' must be one of {}",
                ACTIONS.join(", ")
            )))
        }
        None => None,
    };
    Ok(ActivityFilter {
        user,
        action,
        from,
        to,
    })
}

/// Up to `limit` entries older than `before`, newest first.
async fn activity_rows(
    db: &Db,
    filter: &ActivityFilter,
    before: Option<i64>,
    limit: i64,
) -> AppResult<Vec<ActivityRow>> {
    let mut sql = Sql::new(
        "select a.position, a.at, a.actor_id, a.action, a.item_id, a.item_kind, a.item_name,
                a.detail, u.first_name, u.last_name, u.email
           from audit_activity a left join users u on u.id = a.actor_id
          where 1 = 1",
    );
    if let Some(user) = &filter.user {
        sql.and("a.actor_id = ?", Bind::Text(user.clone()));
    }
    if let Some(action) = &filter.action {
        sql.and("a.action = ?", Bind::Text(action.clone()));
    }
    if let Some(from) = filter.from {
        sql.and("a.at >= ?", Bind::Int(from));
    }
    if let Some(to) = filter.to {
        sql.and("a.at < ?", Bind::Int(to));
    }
    if let Some(before) = before {
        sql.and("a.position < ?", Bind::Int(before));
    }
    let l = sql.bind(Bind::Int(limit));
    sql.push(&format!(" order by a.position desc limit {l}"));
    Ok(fetch_all!(db, ActivityRow, &sql)?)
}

/// What happened to documents and folders across the company, newest first, in pages of at
/// most 200: who did what to which item, with the same actions and details as an item's
/// history. Walk the pages by passing `next` as `before`.
#[utoipa::path(get, path = "/audit/activity", tag = "audit", params(ActivityQuery),
    security(("bearer" = [])),
    responses((status = 200, body = AuditActivityPage),
        (status = 400, body = ErrorBody, description = "A bad date, limit, cursor, action or an unknown user"),
        (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody, description = "'Only auditors can read the company's activity'")))]
pub async fn activity(
    State(db): State<Db>,
    _auth: Authorized<ActivityReader>,
    AppQuery(query): AppQuery<ActivityQuery>,
) -> AppResult<AppJson<AuditActivityPage>> {
    let limit = crate::paging::limit(query.limit, MAX_PAGE, MAX_PAGE)?;
    let before = query.before.as_deref().map(parse_cursor).transpose()?;
    let filter = activity_filter(&db, &query).await?;
    let mut rows = activity_rows(&db, &filter, before, limit + 1).await?;
    let more = rows.len() as i64 > limit;
    rows.truncate(limit as usize);
    let next = more
        .then(|| rows.last().map(|r| cursor(r.position)))
        .flatten();
    Ok(AppJson(AuditActivityPage {
        entries: rows.into_iter().map(ActivityRow::into_entry).collect(),
        next,
    }))
}

const CSV_HEAD: &str = "at,actor,actor_email,action,item_id,item_type,item,detail\r\n";

fn csv_rows(rows: Vec<ActivityRow>) -> String {
    let mut out = String::new();
    for row in rows {
        let e = row.into_entry();
        let at = chrono::DateTime::from_timestamp_millis(e.at)
            .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true))
            .unwrap_or_default();
        let line = [
            at.as_str(),
            &e.actor.name,
            &e.actor.email,
            &e.action,
            &e.item.id,
            &e.item.kind,
            &e.item.name,
            &e.detail,
        ]
        .map(csv_field)
        .join(",");
        out.push_str(&line);
        out.push_str("\r\n");
    }
    out
}

/// The same activity as CSV, every entry of the filters (`limit` and `before` are not used),
/// newest first; streamed as it is read.
#[utoipa::path(get, path = "/audit/activity.csv", tag = "audit", params(ActivityQuery),
    security(("bearer" = [])),
    responses((status = 200, content_type = "text/csv",
            description = "text/csv: at,actor,actor_email,action,item_id,item_type,item,detail"),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody)))]
pub async fn activity_csv(
    State(db): State<Db>,
    _auth: Authorized<ActivityReader>,
    AppQuery(query): AppQuery<ActivityQuery>,
) -> AppResult<Response> {
    let filter = activity_filter(&db, &query).await?;
    let db = db.clone();
    // The first page is read before answering, so a failure is still a clean error.
    let first = activity_rows(&db, &filter, None, CSV_PAGE).await?;
    let start = first.last().map(|r| r.position);
    let full = first.len() as i64 == CSV_PAGE;
    let head = futures::stream::once(futures::future::ready(Ok::<_, AppError>(format!(
        "{CSV_HEAD}{}",
        csv_rows(first)
    ))));
    let rest = futures::stream::unfold(full.then_some(start).flatten(), move |before| {
        let db = db.clone();
        let filter = filter.clone();
        async move {
            let before = before?;
            match activity_rows(&db, &filter, Some(before), CSV_PAGE).await {
                Ok(rows) => {
                    let next = (rows.len() as i64 == CSV_PAGE)
                        .then(|| rows.last().map(|r| r.position))
                        .flatten();
                    Some((Ok(csv_rows(rows)), next))
                }
                Err(e) => {
                    tracing::error!(error = %e, "activity export failed part way");
                    Some((Err(e), None))
                }
            }
        }
    });
    // Fused: the compression layer may poll again after the end, which `unfold` refuses.
    let body = Body::from_stream(futures::StreamExt::fuse(futures::StreamExt::chain(
        head, rest,
    )));
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8"),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"activity.csv\"",
            ),
        ],
        body,
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine as _;

    #[test]
    fn cursors_round_trip_and_refuse_anything_else() {
        assert_eq!(parse_cursor(&cursor(42)).ok(), Some(42));
        assert!(parse_cursor("42").is_err());
        assert!(parse_cursor("").is_err());
        assert!(parse_cursor(&cursor(0)).is_err());
        let other = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode("a1:x");
        assert!(parse_cursor(&other).is_err());
    }

    #[test]
    fn like_patterns_match_wildcards_literally() {
        assert_eq!(contains_pattern("50%_a\\b"), "%50\\%\\_a\\\\b%");
    }
}
