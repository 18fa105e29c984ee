//! Sign-in and sessions: password hashing and policy, throttling, session tokens and their
//! server-side sessions, the `AuthUser` extractor, the session calls, single sign-on and the
//! administration of accounts.

pub mod accounts;
pub mod admin;
pub mod authorized;
pub mod cli;
pub mod client;
pub mod demo;
pub mod devices;
pub mod extractor;
pub mod jwt;
pub mod login;
pub mod own_account;
pub mod password;
pub mod reset;
pub mod role;
pub mod sessions;
pub mod sso;
pub mod terms;
pub mod throttle;

use std::sync::Arc;

use projections::{Db, ProjectorHandle};

use crate::config::Config;
use crate::feed::Poke;

pub use accounts::{certificate_shows_us, Email, NewUser, User, UserData};
pub(crate) use authorized::role_policy;
pub use authorized::{Authorized, RolePolicy};
pub use demo::{claim_demo_database, demo_accounts};
pub use extractor::AuthUser;
pub use jwt::{JwtKeys, TokenError};
pub use role::Role;
pub use sessions::Account;
pub use sessions::SESSION_ENDED;
pub use sessions::{
    idle_ms as session_idle_ms, load_active as load_active_session,
    record_use as record_session_use, revocation_ends,
};
pub use sessions::{
    purge_ended as purge_ended_sessions,
    purge_ended_periodically as purge_ended_sessions_periodically,
};
pub use terms::TERMS_REQUIRED;

/// What other features do when an account is disabled (its external links stop working). Set at
/// assembly, so that accounts need not know those features.
#[async_trait::async_trait]
pub trait OnAccountDisabled: Send + Sync {
    /// `user` was disabled by `by` (an account id, or "operator" from the command line).
    async fn account_disabled(&self, user: &str, by: &str) -> crate::error::AppResult<()>;
}

/// What the sign-in calls and the `AuthUser` extractor work with.
#[derive(Clone)]
pub struct Auth {
    pub db: Db,
    pub config: Arc<Config>,
    pub jwt: jwt::JwtKeys,
    /// What recent requests read of their sessions (see [`sessions`]).
    pub sessions: Arc<sessions::SessionCache>,
    pub sso: Arc<sso::Sso>,
    /// Tells this node's sockets at once when a session ends.
    pub feed: Poke,
    /// Accepting the terms waits for its projection.
    pub projector: ProjectorHandle,
    /// Called after an account is disabled through the API.
    pub on_disabled: Arc<dyn OnAccountDisabled>,
}
