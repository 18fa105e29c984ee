//! Accounts: the `users` table and what the API shows of a user.

use projections::{now_ms, on_db, Db};
use serde::Serialize;
use sqlx::FromRow;

use crate::auth::Role;

#[derive(Debug, Clone, FromRow)]
pub struct User {
    pub id: String,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub password_hash: Option<String>,
    #[sqlx(try_from = "String")]
    pub role: Role,
    pub certificate: Option<String>,
    pub teams: Option<String>,
    pub terms_accepted_at: Option<i64>,
    pub onboarding_done_at: Option<i64>,
    /// Set when the account is disabled: it cannot sign in.
    pub disabled_at: Option<i64>,
}

/// The user as the app sees it (`user` in the login response, `GET /users/get-data`).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct UserData {
    pub id: String,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    /// e.g. `US`: such users see the US documents.
    pub certificate: Option<String>,
    pub teams: Option<String>,
    /// `user`, `admin` (may publish notifications and app updates) or `auditor` (reads all history).
    pub role: Role,
    /// Whether the US tab and home section are shown.
    pub show_us: bool,
}

impl User {
    pub fn shows_us(&self) -> bool {
        self.certificate
            .as_deref()
            .is_some_and(|c| c.eq_ignore_ascii_case("US"))
    }

    pub fn data(&self) -> UserData {
        UserData {
            id: self.id.clone(),
            email: self.email.clone(),
            first_name: self.first_name.clone(),
            last_name: self.last_name.clone(),
            certificate: self.certificate.clone(),
            teams: self.teams.clone(),
            role: self.role,
            show_us: self.shows_us(),
        }
    }
}

const USER_COLUMNS: &str = "id, email, first_name, last_name, password_hash, role, certificate, teams, terms_accepted_at, onboarding_done_at, disabled_at";

/// E-mails are compared case-insensitively and without surrounding spaces.
pub fn normalise_email(email: &str) -> String {
    email.trim().to_lowercase()
}

pub async fn find_by_email(db: &Db, email: &str) -> Result<Option<User>, sqlx::Error> {
    let sql = format!("select {USER_COLUMNS} from users where email = $1");
    let email = normalise_email(email);
    on_db!(db, pool => sqlx::query_as::<_, User>(&sql).bind(&email).fetch_optional(pool).await)
}

pub async fn find_by_id(db: &Db, id: &str) -> Result<Option<User>, sqlx::Error> {
    let sql = format!("select {USER_COLUMNS} from users where id = $1");
    on_db!(db, pool => sqlx::query_as::<_, User>(&sql).bind(id).fetch_optional(pool).await)
}

pub struct NewUser<'a> {
    pub email: &'a str,
    pub first_name: &'a str,
    pub last_name: &'a str,
    pub password_hash: Option<String>,
    pub role: Role,
    pub certificate: Option<&'a str>,
    pub terms_accepted: bool,
    pub onboarding_done: bool,
}

/// Inserts a user and returns its id.
pub async fn insert(db: &Db, user: NewUser<'_>) -> Result<String, sqlx::Error> {
    let id = uuid::Uuid::new_v4().to_string();
    let now = now_ms();
    let terms = user.terms_accepted.then_some(now);
    let onboarding = user.onboarding_done.then_some(now);
    let email = normalise_email(user.email);
    on_db!(db, pool => sqlx::query(
        "insert into users (id, email, first_name, last_name, password_hash, role, certificate, terms_accepted_at, onboarding_done_at, created_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)")
        .bind(&id).bind(&email).bind(user.first_name).bind(user.last_name)
        .bind(&user.password_hash).bind(user.role.as_str()).bind(user.certificate)
        .bind(terms).bind(onboarding).bind(now)
        .execute(pool).await.map(|r| r.rows_affected()))?;
    Ok(id)
}

/// Every account, by e-mail.
pub async fn all(db: &Db) -> Result<Vec<User>, sqlx::Error> {
    let sql = format!("select {USER_COLUMNS} from users order by email");
    on_db!(db, pool => sqlx::query_as::<_, User>(&sql).fetch_all(pool).await)
}

pub async fn set_terms_accepted(db: &Db, id: &str) -> Result<(), sqlx::Error> {
    on_db!(db, pool => sqlx::query("update users set terms_accepted_at = $1 where id = $2")
        .bind(now_ms()).bind(id).execute(pool).await.map(|r| r.rows_affected()))?;
    Ok(())
}

pub async fn set_onboarding_done(db: &Db, id: &str) -> Result<(), sqlx::Error> {
    on_db!(db, pool => sqlx::query("update users set onboarding_done_at = $1 where id = $2")
        .bind(now_ms()).bind(id).execute(pool).await.map(|r| r.rows_affected()))?;
    Ok(())
}

/// E-mails of other users starting with or containing `search`, for the share dialog.
pub async fn search_emails(
    db: &Db,
    search: &str,
    exclude_id: &str,
    limit: i64,
) -> Result<Vec<String>, sqlx::Error> {
    let pattern = format!("%{}%", search.trim().to_lowercase().replace(['%', '_'], ""));
    on_db!(db, pool => sqlx::query_scalar::<_, String>(
        "select email from users where email like $1 and id <> $2 order by email limit $3")
        .bind(&pattern).bind(exclude_id).bind(limit).fetch_all(pool).await)
}
