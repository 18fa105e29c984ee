//! `Authorized<P>`: the signed-in caller, when their role is one that the policy `P` allows. It
//! is extracted from the request's head, before any body or query, so a caller without the role
//! gets 403 whatever else the request holds.

use std::marker::PhantomData;
use std::ops::Deref;

use axum::extract::{FromRef, FromRequestParts};
use axum::http::request::Parts;

use super::{Auth, AuthUser, Role};
use crate::error::AppError;

/// Who may make a set of calls, and what everyone else is told.
pub trait RolePolicy: Send + Sync + 'static {
    /// The roles allowed.
    const ROLES: &'static [Role];
    /// The message of the 403 answered to every other role.
    const REFUSAL: &'static str;
}

/// Declares a [`RolePolicy`]: `role_policy!(Name: [Role::Admin], "Only ...");`.
macro_rules! role_policy {
    ($(#[$doc:meta])* $vis:vis $name:ident: [$($role:expr),+], $refusal:expr) => {
        $(#[$doc])*
        $vis struct $name;

        impl $crate::auth::RolePolicy for $name {
            const ROLES: &'static [$crate::auth::Role] = &[$($role),+];
            const REFUSAL: &'static str = $refusal;
        }
    };
}

pub(crate) use role_policy;

/// The caller, allowed by `P`. Derefs to [`AuthUser`].
pub struct Authorized<P> {
    pub user: AuthUser,
    policy: PhantomData<fn() -> P>,
}

impl<P> Deref for Authorized<P> {
    type Target = AuthUser;

    fn deref(&self) -> &AuthUser {
        &self.user
    }
}

impl<S, P> FromRequestParts<S> for Authorized<P>
where
    S: Send + Sync,
    Auth: FromRef<S>,
    P: RolePolicy,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let user = AuthUser::from_request_parts(parts, state).await?;
        if P::ROLES.contains(&user.role) {
            Ok(Authorized {
                user,
                policy: PhantomData,
            })
        } else {
            Err(AppError::forbidden(P::REFUSAL))
        }
    }
}
