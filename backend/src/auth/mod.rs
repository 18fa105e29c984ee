//! Sign-in and sessions: password hashing, session tokens, the `AuthUser` extractor, the
//! session calls and single sign-on.

pub mod extractor;
pub mod jwt;
pub mod password;
pub mod session;
pub mod sso;

pub use extractor::AuthUser;
