//! The address of the client a request comes from, for per-address throttling and the session
//! list. Behind a reverse proxy (`TRUST_PROXY_HEADERS=true`) it is the last `X-Forwarded-For`
//! entry, the one the proxy itself appended; the entries before it are whatever the client
//! claimed and are never trusted. Otherwise it is the TCP peer.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;

use crate::error::AppError;
use crate::state::AppState;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientAddress(pub String);

impl FromRequestParts<AppState> for ClientAddress {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, AppError> {
        // The same address the rate limits count by.
        let address = crate::edge::limits::address_of(
            &parts.headers,
            &parts.extensions,
            state.config.trust_proxy_headers,
        );
        Ok(ClientAddress(
            address.map_or_else(|| "unknown".into(), |ip| ip.to_string()),
        ))
    }
}
