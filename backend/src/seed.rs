//! Demo accounts, created on first start so the app can be tried at once.

use projections::Db;

use crate::auth::password;
use crate::users::{self, NewUser};

/// The password of every demo account.
pub const DEMO_PASSWORD: &str = "Companion-2026";

struct DemoAccount {
    email: &'static str,
    first_name: &'static str,
    last_name: &'static str,
    role: &'static str,
    certificate: Option<&'static str>,
    terms_accepted: bool,
    onboarding_done: bool,
}

const DEMO_ACCOUNTS: &[DemoAccount] = &[
    DemoAccount {
        email: "anna.rossi@example.com",
        first_name: "Anna",
        last_name: "Rossi",
        role: "user",
        certificate: None,
        terms_accepted: true,
        onboarding_done: true,
    },
    DemoAccount {
        email: "john.miller@example.com",
        first_name: "John",
        last_name: "Miller",
        role: "user",
        certificate: Some("US"),
        terms_accepted: true,
        onboarding_done: true,
    },
    DemoAccount {
        email: "new.user@example.com",
        first_name: "Marco",
        last_name: "Bianchi",
        role: "user",
        certificate: None,
        terms_accepted: false,
        onboarding_done: false,
    },
    DemoAccount {
        email: "admin@example.com",
        first_name: "Admin",
        last_name: "Team",
        role: "admin",
        certificate: None,
        terms_accepted: true,
        onboarding_done: true,
    },
    DemoAccount {
        email: "auditor@example.com",
        first_name: "Audrey",
        last_name: "Keller",
        role: "auditor",
        certificate: None,
        terms_accepted: true,
        onboarding_done: true,
    },
];

/// Creates the demo accounts that do not exist yet; returns how many were created.
pub async fn demo_accounts(db: &Db) -> anyhow::Result<usize> {
    let mut created = 0;
    let mut hash: Option<String> = None;
    for account in DEMO_ACCOUNTS {
        if users::find_by_email(db, account.email).await?.is_some() {
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
        users::insert(
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
        created += 1;
    }
    Ok(created)
}
