//! The address of the client a request comes from, for per-address throttling and the session
//! list. Behind a reverse proxy (`TRUST_PROXY_HEADERS=true`) it is the last `X-Forwarded-For`
//! entry, the one the proxy itself appended; the entries before it are whatever the client
//! claimed and are never trusted. Otherwise it is the TCP peer.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;

use crate::error::AppError;
use crate::state::AppState;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientAddress(pub String);

impl FromRequestParts<AppState> for ClientAddress {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, AppError> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(addr)| addr.ip().to_string());
        let forwarded = state
            .config
            .trust_proxy_headers
            .then(|| forwarded_for(parts))
            .flatten();
        Ok(ClientAddress(
            forwarded.or(peer).unwrap_or_else(|| "unknown".into()),
        ))
    }
}

/// The last address of the last `X-Forwarded-For` header, when it parses as an IP address.
fn forwarded_for(parts: &Parts) -> Option<String> {
    let header = parts
        .headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .next_back()?;
    let last = header.rsplit(',').next()?.trim();
    last.parse::<std::net::IpAddr>()
        .ok()
        .map(|ip| ip.to_string())
}
