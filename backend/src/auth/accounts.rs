//! Administration of accounts, shared by the admin API and the `companion users` command:
//! list, add, disable, change role, set a password. Every change that takes rights away ends the
//! account's sessions or is read on the next request (see [`super::sessions`]).

use projections::{now_ms, on_db, Db};
use serde::Serialize;

use super::{password, sessions, Role};
use crate::users::{self, NewUser, User};

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
    Ok(users::all(db)
        .await?
        .iter()
        .map(AccountInfo::from)
        .collect())
}

/// The account with this id or e-mail.
pub async fn find(db: &Db, id_or_email: &str) -> Result<User, AccountError> {
    let found = if id_or_email.contains('@') {
        users::find_by_email(db, id_or_email).await?
    } else {
        users::find_by_id(db, id_or_email).await?
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
    let email = users::normalise_email(&account.email);
    if !events::email::is_valid(&email) {
        return Err(AccountError::BadEmail);
    }
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
    if users::find_by_email(db, &email).await?.is_some() {
        return Err(AccountError::Exists);
    }
    let inserted = users::insert(
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
        Ok(id) => users::find_by_id(db, &id)
            .await?
            .ok_or(AccountError::NotFound),
        // Two adds of one e-mail at once: the unique index decides.
        Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Err(AccountError::Exists),
        Err(e) => Err(e.into()),
    }
}

async fn other_enabled_admins(db: &Db, user_id: &str) -> Result<i64, sqlx::Error> {
    on_db!(db, pool => sqlx::query_scalar::<_, i64>(
        "select count(*) from users where role = 'admin' and disabled_at is null and id <> $1")
        .bind(user_id).fetch_one(pool).await)
}

/// Changes the role; read by the account's next request.
pub async fn set_role(db: &Db, id_or_email: &str, role: &str) -> Result<User, AccountError> {
    let role: Role = role.parse().map_err(|_| AccountError::BadRole)?;
    let user = find(db, id_or_email).await?;
    if user.role == Role::Admin
        && role != Role::Admin
        && other_enabled_admins(db, &user.id).await? == 0
    {
        return Err(AccountError::LastAdmin);
    }
    on_db!(db, pool => sqlx::query("update users set role = $1 where id = $2")
        .bind(role.as_str()).bind(&user.id).execute(pool).await.map(|r| r.rows_affected()))?;
    find(db, &user.id).await
}

/// Disables (or enables again) an account; disabling ends its sessions on every node.
pub async fn set_disabled(
    db: &Db,
    id_or_email: &str,
    disabled: bool,
) -> Result<User, AccountError> {
    let user = find(db, id_or_email).await?;
    if disabled && user.role == Role::Admin && other_enabled_admins(db, &user.id).await? == 0 {
        return Err(AccountError::LastAdmin);
    }
    let value = disabled.then(now_ms);
    on_db!(db, pool => sqlx::query("update users set disabled_at = $1 where id = $2")
        .bind(value).bind(&user.id).execute(pool).await.map(|r| r.rows_affected()))?;
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
    let user = find(db, id_or_email).await?;
    if user.password_hash.is_none() {
        return Err(AccountError::SingleSignOnAccount);
    }
    password::check_policy(&new_password, &user.email)?;
    let hash = password::hash(new_password).await?;
    on_db!(db, pool => sqlx::query("update users set password_hash = $1 where id = $2")
        .bind(&hash).bind(&user.id).execute(pool).await.map(|r| r.rows_affected()))?;
    sessions::revoke_all(db, &user.id).await?;
    find(db, &user.id).await
}
