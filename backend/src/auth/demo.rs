//! The demo: accounts with a published password, loaded only by `companion serve --demo` (or
//! `DEMO=true`). A database that served the demo is marked so; `--demo` is refused on a database
//! that holds accounts without that mark (a real deployment).

use projections::{on_db, Db};

use super::accounts::{NewUser, User};
use crate::auth::{password, Role};

/// The password of every demo account.
pub const DEMO_PASSWORD: &str = "Companion-2026";

struct DemoAccount {
    email: &'static str,
    first_name: &'static str,
    last_name: &'static str,
    role: Role,
    certificate: Option<&'static str>,
    terms_accepted: bool,
    onboarding_done: bool,
}

const DEMO_ACCOUNTS: &[DemoAccount] = &[
    DemoAccount {
        email: "anna.rossi@example.com",
        first_name: "Anna",
        last_name: "Rossi",
        role: Role::User,
        certificate: None,
        terms_accepted: true,
        onboarding_done: true,
    },
    DemoAccount {
        email: "john.miller@example.com",
        first_name: "John",
        last_name: "Miller",
        role: Role::User,
        certificate: Some("US"),
        terms_accepted: true,
        onboarding_done: true,
    },
    DemoAccount {
        email: "new.user@example.com",
        first_name: "Marco",
        last_name: "Bianchi",
        role: Role::User,
        certificate: None,
        terms_accepted: false,
        onboarding_done: false,
    },
    DemoAccount {
        email: "admin@example.com",
        first_name: "Admin",
        last_name: "Team",
        role: Role::Admin,
        certificate: None,
        terms_accepted: true,
        onboarding_done: true,
    },
    DemoAccount {
        email: "auditor@example.com",
        first_name: "Audrey",
        last_name: "Keller",
        role: Role::Auditor,
        certificate: None,
        terms_accepted: true,
        onboarding_done: true,
    },
    DemoAccount {
        email: "publisher@example.com",
        first_name: "Paula",
        last_name: "Conti",
        role: Role::Publisher,
        certificate: None,
        terms_accepted: true,
        onboarding_done: true,
    },
    DemoAccount {
        email: "approver@example.com",
        first_name: "Arthur",
        last_name: "Brandt",
        role: Role::Approver,
        certificate: None,
        terms_accepted: true,
        onboarding_done: true,
    },
];

const DEMO_MARK: &str = "demo";

/// Why `--demo` is refused.
#[derive(Debug, thiserror::Error)]
pub enum DemoRefused {
    #[error("--demo (DEMO=true) refused: this database holds {0} account(s) of a real deployment, and the demo would add accounts with a published password. Start without --demo, or use a fresh DATA_DIR / DATABASE_URL for the demo.")]
    RealAccounts(i64),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

/// Marks the database as a demo one, unless it holds accounts and is not one already.
pub async fn claim_demo_database(db: &Db) -> Result<(), DemoRefused> {
    let marked: Option<String> = on_db!(db, pool => sqlx::query_scalar(
        "select value from instance_settings where name = $1")
        .bind(DEMO_MARK).fetch_optional(pool).await)?;
    if marked.is_some() {
        return Ok(());
    }
    let accounts: i64 = on_db!(db, pool => sqlx::query_scalar("select count(*) from users")
        .fetch_one(pool).await)?;
    if accounts > 0 {
        return Err(DemoRefused::RealAccounts(accounts));
    }
    on_db!(db, pool => sqlx::query("insert into instance_settings (name, value) values ($1, 'true') on conflict (name) do nothing")
        .bind(DEMO_MARK).execute(pool).await.map(|r| r.rows_affected()))?;
    Ok(())
}

/// Whether this database served the demo (its demo accounts have a published password).
pub async fn is_demo_database(db: &Db) -> Result<bool, sqlx::Error> {
    let marked: Option<String> = on_db!(db, pool => sqlx::query_scalar(
        "select value from instance_settings where name = $1")
        .bind(DEMO_MARK).fetch_optional(pool).await)?;
    Ok(marked.is_some())
}

/// Creates the demo accounts that do not exist yet; returns how many were created.
pub async fn demo_accounts(db: &Db, terms_version: &str) -> anyhow::Result<usize> {
    let mut created = 0;
    let mut hash: Option<String> = None;
    for account in DEMO_ACCOUNTS {
        if User::find_by_email(db, account.email).await?.is_some() {
            continue;
        }
        let password_hash = match &hash {
            Some(h) => h.clone(),
            None => {
                let h = password::hash(DEMO_PASSWORD.to_string()).await?;
                hash = Some(h.clone());
                h
            }
        };
        let id = User::insert(
            db,
            NewUser {
                email: account.email,
                first_name: account.first_name,
                last_name: account.last_name,
                password_hash: Some(password_hash),
                role: account.role,
                certificate: account.certificate,
                terms_accepted: account.terms_accepted,
                onboarding_done: account.onboarding_done,
            },
        )
        .await?;
        if account.terms_accepted {
            // Recorded as events; the projector applies them before the server serves.
            crate::auth::terms::accept(db, None, &id, terms_version).await?;
        }
        created += 1;
    }
    Ok(created)
}
