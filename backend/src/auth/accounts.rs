//! Accounts: the `users` table ([`User`]), what the app sees of a user ([`UserData`]), and their
//! administration, shared by the admin API and the `companion users` command: list, add,
//! disable, change role, set a password. Every change that takes rights away ends the account's
//! sessions or is read on the next request (see [`super::sessions`]).

use std::fmt;

use projections::{now_ms, on_db, Db};
use serde::Serialize;
use sqlx::FromRow;

use super::{password, sessions, Role};

/// An e-mail address as accounts are keyed by it: without surrounding spaces, lower-cased.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Email(String);

impl Email {
    /// An address typed by someone: `None` unless it is a plausible e-mail address.
    pub fn parse(raw: &str) -> Option<Email> {
        let trimmed = raw.trim();
        events::email::is_valid(trimmed).then(|| Email(trimmed.to_lowercase()))
    }

    /// The key of `raw`, unchecked: looking up anything that is not an address finds nobody.
    pub fn normalised(raw: &str) -> Email {
        Email(raw.trim().to_lowercase())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Email {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::ops::Deref for Email {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl From<Email> for String {
    fn from(email: Email) -> String {
        email.0
    }
}

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

/// Whether an account with `certificate` sees the US documents.
pub fn certificate_shows_us(certificate: Option<&str>) -> bool {
    certificate.is_some_and(|c| c.eq_ignore_ascii_case("US"))
}

impl User {
    pub fn shows_us(&self) -> bool {
        certificate_shows_us(self.certificate.as_deref())
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

impl User {
    /// The account of an e-mail, compared without case or surrounding spaces.
    pub async fn find_by_email(db: &Db, email: &str) -> Result<Option<User>, sqlx::Error> {
        let sql = format!("select {USER_COLUMNS} from users where email = $1");
        let email = Email::normalised(email);
        on_db!(db, pool => sqlx::query_as::<_, User>(&sql).bind(email.as_str()).fetch_optional(pool).await)
    }

    pub async fn find_by_id(db: &Db, id: &str) -> Result<Option<User>, sqlx::Error> {
        let sql = format!("select {USER_COLUMNS} from users where id = $1");
        on_db!(db, pool => sqlx::query_as::<_, User>(&sql).bind(id).fetch_optional(pool).await)
    }

    /// Inserts a user and returns its id.
    pub async fn insert(db: &Db, user: NewUser<'_>) -> Result<String, sqlx::Error> {
        let id = uuid::Uuid::new_v4().to_string();
        let now = now_ms();
        let terms = user.terms_accepted.then_some(now);
        let onboarding = user.onboarding_done.then_some(now);
        let email = Email::normalised(user.email);
        on_db!(db, pool => sqlx::query(
            "insert into users (id, email, first_name, last_name, password_hash, role, certificate, terms_accepted_at, onboarding_done_at, created_at)
             values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)")
            .bind(&id).bind(email.as_str()).bind(user.first_name).bind(user.last_name)
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

    /// E-mails containing `search` of the other accounts documents can be shared with: enabled
    /// accounts of role `user` (an administrator's, an auditor's or a disabled account's address
    /// is nobody's business in the share dialog).
    pub async fn search_emails(
        db: &Db,
        search: &str,
        exclude_id: &str,
        limit: i64,
    ) -> Result<Vec<String>, sqlx::Error> {
        let pattern = format!("%{}%", search.trim().to_lowercase().replace(['%', '_'], ""));
        on_db!(db, pool => sqlx::query_scalar::<_, String>(
            "select email from users where email like $1 and id <> $2
             and role = 'user' and disabled_at is null order by email limit $3")
            .bind(&pattern).bind(exclude_id).bind(limit).fetch_all(pool).await)
    }
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

#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    #[error("No account with that id or e-mail")]
    NotFound,
    #[error("An account with this e-mail already exists")]
    Exists,
    #[error("The role must be user, admin or auditor")]
    BadRole,
    #[error("Enter a valid e-mail address")]
    BadEmail,
    #[error("The first name is required (at most 100 characters)")]
    BadName,
    #[error("The last enabled administrator cannot be disabled or lose the role")]
    LastAdmin,
    #[error("This account signs in through single sign-on and has no password")]
    SingleSignOnAccount,
    #[error(transparent)]
    Password(#[from] password::PasswordRejected),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
    #[error(transparent)]
    Other(#[from] crate::error::AppError),
}

impl From<AccountError> for crate::error::AppError {
    fn from(e: AccountError) -> Self {
        use crate::error::AppError;
        match e {
            AccountError::NotFound => AppError::not_found(e.to_string()),
            AccountError::Exists | AccountError::LastAdmin => AppError::Conflict(e.to_string()),
            AccountError::Database(d) => d.into(),
            AccountError::Other(a) => a,
            other => AppError::bad_request(other.to_string()),
        }
    }
}

/// An account as administrators see it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct AccountInfo {
    pub id: String,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub role: Role,
    /// `password` or `sso`.
    pub sign_in: String,
    pub disabled: bool,
}

impl From<&User> for AccountInfo {
    fn from(u: &User) -> Self {
        AccountInfo {
            id: u.id.clone(),
            email: u.email.clone(),
            first_name: u.first_name.clone(),
            last_name: u.last_name.clone(),
            role: u.role,
            sign_in: if u.password_hash.is_some() {
                "password"
            } else {
                "sso"
            }
            .into(),
            disabled: u.disabled_at.is_some(),
        }
    }
}

pub async fn list(db: &Db) -> Result<Vec<AccountInfo>, AccountError> {
    Ok(User::all(db).await?.iter().map(AccountInfo::from).collect())
}

/// The account with this id or e-mail.
pub async fn find(db: &Db, id_or_email: &str) -> Result<User, AccountError> {
    let found = if id_or_email.contains('@') {
        User::find_by_email(db, id_or_email).await?
    } else {
        User::find_by_id(db, id_or_email).await?
    };
    found.ok_or(AccountError::NotFound)
}

pub struct NewAccount {
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub role: String,
    /// None: the account signs in through single sign-on only.
    pub password: Option<String>,
}

/// Creates an account (its terms and onboarding still to do) and returns it.
pub async fn add(db: &Db, account: NewAccount) -> Result<User, AccountError> {
    let email = Email::parse(&account.email).ok_or(AccountError::BadEmail)?;
    let role: Role = account.role.parse().map_err(|_| AccountError::BadRole)?;
    let first_name = account.first_name.trim();
    if first_name.is_empty()
        || first_name.chars().count() > 100
        || account.last_name.chars().count() > 100
    {
        return Err(AccountError::BadName);
    }
    let password_hash = match account.password {
        Some(p) => {
            password::check_policy(&p, &email)?;
            Some(password::hash(p).await?)
        }
        None => None,
    };
    if User::find_by_email(db, &email).await?.is_some() {
        return Err(AccountError::Exists);
    }
    let inserted = User::insert(
        db,
        NewUser {
            email: &email,
            first_name,
            last_name: account.last_name.trim(),
            password_hash,
            role,
            certificate: None,
            terms_accepted: false,
            onboarding_done: false,
        },
    )
    .await;
    match inserted {
        Ok(id) => User::find_by_id(db, &id)
            .await?
            .ok_or(AccountError::NotFound),
        // Two adds of one e-mail at once: the unique index decides.
        Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Err(AccountError::Exists),
        Err(e) => Err(e.into()),
    }
}

/// What a change must leave true: another enabled administrator exists, unless the account is
/// not (or stays) an enabled administrator. Part of the change's own `update`, so the check and
/// the change are one statement.
const ANOTHER_ADMIN_REMAINS: &str = "exists (select 1 from users o
     where o.role = 'admin' and o.disabled_at is null and o.id <> users.id)";

/// Advisory-lock key of changes that may remove an administrator (on PostgreSQL two such
/// statements would otherwise each see the other's administrator still there).
const PG_ADMIN_CHANGE_LOCK: i64 = 3_002;

/// Runs `sql` (an `update` of one account, `$1` its new value, `$2` its id) and says whether it
/// changed the row. On PostgreSQL such changes take turns, so each sees the last one's result.
async fn update_keeping_an_admin(
    db: &Db,
    sql: &str,
    value: Option<&str>,
    number: Option<i64>,
    id: &str,
) -> Result<bool, sqlx::Error> {
    let changed = match db {
        Db::Postgres { pool } => {
            let mut tx = pool.begin().await?;
            sqlx::query("select pg_advisory_xact_lock($1)")
                .bind(PG_ADMIN_CHANGE_LOCK)
                .execute(&mut *tx)
                .await?;
            let query = match value {
                Some(value) => sqlx::query(sql).bind(value),
                None => sqlx::query(sql).bind(number),
            };
            let changed = query.bind(id).execute(&mut *tx).await?.rows_affected();
            tx.commit().await?;
            changed
        }
        // SQLite runs one writing statement at a time.
        Db::Sqlite { pool, .. } => {
            let query = match value {
                Some(value) => sqlx::query(sql).bind(value),
                None => sqlx::query(sql).bind(number),
            };
            query.bind(id).execute(pool).await?.rows_affected()
        }
    };
    Ok(changed == 1)
}

/// Changes the role; read by the account's next request. The last enabled administrator keeps
/// the role, even when two administrators demote each other at once.
pub async fn set_role(db: &Db, id_or_email: &str, role: &str) -> Result<User, AccountError> {
    let role: Role = role.parse().map_err(|_| AccountError::BadRole)?;
    let user = find(db, id_or_email).await?;
    let sql = format!(
        "update users set role = $1 where id = $2
           and ($1 = 'admin' or role <> 'admin' or disabled_at is not null or {ANOTHER_ADMIN_REMAINS})"
    );
    if !update_keeping_an_admin(db, &sql, Some(role.as_str()), None, &user.id).await? {
        return Err(AccountError::LastAdmin);
    }
    find(db, &user.id).await
}

/// Disables (or enables again) an account; disabling ends its sessions on every node.
pub async fn set_disabled(
    db: &Db,
    id_or_email: &str,
    disabled: bool,
) -> Result<User, AccountError> {
    let user = find(db, id_or_email).await?;
    let value = disabled.then(now_ms);
    let sql = format!(
        "update users set disabled_at = $1 where id = $2
           and ($1 is null or role <> 'admin' or disabled_at is not null or {ANOTHER_ADMIN_REMAINS})"
    );
    if !update_keeping_an_admin(db, &sql, None, value, &user.id).await? {
        return Err(AccountError::LastAdmin);
    }
    if disabled {
        sessions::revoke_all(db, &user.id).await?;
    }
    find(db, &user.id).await
}

/// Sets a new password on a password account and ends its sessions.
pub async fn set_password(
    db: &Db,
    id_or_email: &str,
    new_password: String,
) -> Result<User, AccountError> {
    let user = store_password(db, id_or_email, new_password).await?;
    sessions::revoke_all(db, &user.id).await?;
    find(db, &user.id).await
}

/// Sets a new password chosen from the signed-in session `keep`: every other session ends.
pub async fn change_password(
    db: &Db,
    user_id: &str,
    new_password: String,
    keep: &str,
) -> Result<User, AccountError> {
    let user = store_password(db, user_id, new_password).await?;
    sessions::revoke_others(db, &user.id, keep).await?;
    find(db, &user.id).await
}

async fn store_password(
    db: &Db,
    id_or_email: &str,
    new_password: String,
) -> Result<User, AccountError> {
    let user = find(db, id_or_email).await?;
    if user.password_hash.is_none() {
        return Err(AccountError::SingleSignOnAccount);
    }
    password::check_policy(&new_password, &user.email)?;
    let hash = password::hash(new_password).await?;
    on_db!(db, pool => sqlx::query("update users set password_hash = $1 where id = $2")
        .bind(&hash).bind(&user.id).execute(pool).await.map(|r| r.rows_affected()))?;
    Ok(user)
}
