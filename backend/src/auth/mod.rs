//! Sign-in and sessions: password hashing and policy, throttling, session tokens and their
//! server-side sessions, the `AuthUser` extractor, the session calls, single sign-on and the
//! administration of accounts.

pub mod accounts;
pub mod admin;
pub mod cli;
pub mod client;
pub mod extractor;
pub mod jwt;
pub mod password;
pub mod reset;
pub mod role;
pub mod session;
pub mod sessions;
pub mod sso;
pub mod terms;
pub mod throttle;

pub use extractor::AuthUser;
pub use role::Role;
