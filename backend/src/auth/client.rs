//! The address of the client a request comes from, for per-address throttling and the session
//! list. Behind a reverse proxy (`TRUST_PROXY_HEADERS=true`) it is the last `X-Forwarded-For`
//! entry, the one the proxy itself appended; the entries before it are whatever the client
//! claimed and are never trusted. Otherwise it is the TCP peer. Throttles key on its network
//! ([`ClientNetwork`]), never on the single address.

use std::sync::Arc;

use axum::extract::{FromRef, FromRequestParts};
use axum::http::request::Parts;

use crate::config::Config;
use crate::error::AppError;

/// What a client without a readable address counts as.
const UNKNOWN: &str = "unknown";

/// The client's address, the same one the rate limits count by.
fn client_ip(parts: &Parts, config: &Config) -> Option<std::net::IpAddr> {
    crate::edge::limits::address_of(
        &parts.headers,
        &parts.extensions,
        config.trust_proxy_headers,
    )
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientAddress(pub String);

impl<S> FromRequestParts<S> for ClientAddress
where
    S: Send + Sync,
    Arc<Config>: FromRef<S>,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        let config = Arc::<Config>::from_ref(state);
        Ok(ClientAddress(
            client_ip(parts, &config).map_or_else(|| UNKNOWN.into(), |ip| ip.to_string()),
        ))
    }
}

/// The network of the client's address (`IPV4_PREFIX_BITS`, `IPV6_PREFIX_BITS`), e.g.
/// `2001:db8:1:2::/64`: what the sign-in and reset throttles count by, like the rate limits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientNetwork(pub String);

impl<S> FromRequestParts<S> for ClientNetwork
where
    S: Send + Sync,
    Arc<Config>: FromRef<S>,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, AppError> {
        let config = Arc::<Config>::from_ref(state);
        let prefixes = crate::edge::network::Prefixes::from_config(&config);
        Ok(ClientNetwork(client_ip(parts, &config).map_or_else(
            || UNKNOWN.into(),
            |ip| prefixes.network_of(ip).to_string(),
        )))
    }
}
