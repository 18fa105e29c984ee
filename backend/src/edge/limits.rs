//! Rate limits (tower_governor): per client address, per session, and on the recipient lookup.
//! A refused request gets 429, `Retry-After` in seconds and the API's error shape.
//!
//! Limits are token buckets: `burst` requests at once, refilled at `per_second`. The defaults
//! (see `Config`) are far above what a sales force behind one hospital NAT sends; tests set low
//! ones.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{header, Request, Response, StatusCode};
use axum::response::IntoResponse;
use governor::clock::QuantaInstant;
use governor::middleware::NoOpMiddleware;
use sha2::{Digest, Sha256};
use tokio_util::sync::CancellationToken;
use tower_governor::governor::GovernorConfigBuilder;
use tower_governor::key_extractor::KeyExtractor;
use tower_governor::{GovernorError, GovernorLayer};

use crate::error::AppError;

/// The client's address: the connection's peer, or with `trust_proxy` the address the nearest
/// proxy saw (the right-most entry of `X-Forwarded-For`: entries to its left come from the client
/// and can be anything).
pub fn client_address<B>(request: &Request<B>, trust_proxy: bool) -> Option<IpAddr> {
    address_of(request.headers(), request.extensions(), trust_proxy)
}

/// [`client_address`] from a request's parts (for extractors).
pub fn address_of(
    headers: &axum::http::HeaderMap,
    extensions: &axum::http::Extensions,
    trust_proxy: bool,
) -> Option<IpAddr> {
    if trust_proxy {
        let forwarded = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .filter_map(|v| v.trim().parse::<IpAddr>().ok())
            .next_back();
        if forwarded.is_some() {
            return forwarded;
        }
    }
    extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(addr)| addr.ip())
}

/// What a limit counts requests by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// The client address.
    Address,
    /// The session (bearer token); requests without one count against their address.
    Session,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ClientKey {
    Address(IpAddr),
    /// SHA-256 of the bearer token: the token itself is not kept in memory longer than needed.
    Session([u8; 32]),
}

#[derive(Clone, Copy, Debug)]
pub struct ClientKeyExtractor {
    scope: Scope,
    trust_proxy: bool,
}

impl KeyExtractor for ClientKeyExtractor {
    type Key = ClientKey;

    fn name(&self) -> &'static str {
        match self.scope {
            Scope::Address => "client address",
            Scope::Session => "session",
        }
    }

    fn extract<T>(&self, request: &Request<T>) -> Result<ClientKey, GovernorError> {
        if self.scope == Scope::Session {
            let token = request
                .headers()
                .get(header::AUTHORIZATION)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| {
                    v.strip_prefix("Bearer ")
                        .or_else(|| v.strip_prefix("bearer "))
                })
                .map(str::trim)
                .filter(|t| !t.is_empty());
            if let Some(token) = token {
                return Ok(ClientKey::Session(Sha256::digest(token.as_bytes()).into()));
            }
        }
        // Without a peer address (not served through `edge::serve`) every request shares one.
        Ok(ClientKey::Address(
            client_address(request, self.trust_proxy).unwrap_or(IpAddr::from([0, 0, 0, 0])),
        ))
    }

    fn key_name(&self, key: &ClientKey) -> Option<String> {
        match key {
            ClientKey::Address(ip) => Some(ip.to_string()),
            ClientKey::Session(_) => None,
        }
    }
}

/// A token bucket: `burst` requests at once, one more every `refill`.
#[derive(Clone, Copy, Debug)]
pub struct Quota {
    pub burst: u32,
    pub refill: Duration,
}

impl Quota {
    pub fn per_second(per_second: u32, burst: u32) -> Self {
        Self {
            burst: burst.max(1),
            refill: Duration::from_nanos((1_000_000_000 / u64::from(per_second.max(1))).max(1)),
        }
    }

    pub fn per_minute(per_minute: u32) -> Self {
        Self {
            burst: per_minute.max(1),
            refill: Duration::from_nanos(60_000_000_000 / u64::from(per_minute.max(1))),
        }
    }
}

/// The answer to a refused request, counted under `limit`.
fn refusal(limit: &'static str, error: GovernorError) -> Response<Body> {
    match error {
        GovernorError::TooManyRequests { wait_time, .. } => {
            metrics::counter!(crate::metrics::RATE_LIMIT_REFUSALS, "limit" => limit).increment(1);
            AppError::RateLimited {
                message: "Too many requests. Try again in a moment".into(),
                // The bucket refills within the second when this rounds down to 0.
                retry_after_seconds: wait_time.max(1),
            }
            .into_response()
        }
        GovernorError::UnableToExtractKey => {
            AppError::Internal(anyhow::anyhow!("rate limit: no key for the request"))
                .into_response()
        }
        GovernorError::Other { code, msg, .. } => {
            let mut response = AppError::bad_request(msg.unwrap_or_default()).into_response();
            *response.status_mut() = if code.is_client_error() {
                code
            } else {
                StatusCode::BAD_REQUEST
            };
            response
        }
    }
}

pub type Layer = GovernorLayer<ClientKeyExtractor, NoOpMiddleware<QuantaInstant>, Body>;

/// A rate limit named `limit` (the label of its refusals in the metrics). Its memory of clients
/// is pruned every minute until `stop` is cancelled.
pub fn layer(
    limit: &'static str,
    scope: Scope,
    quota: Quota,
    trust_proxy: bool,
    stop: CancellationToken,
) -> Layer {
    let mut builder = GovernorConfigBuilder::default();
    builder.period(quota.refill).burst_size(quota.burst);
    let config = builder
        .key_extractor(ClientKeyExtractor { scope, trust_proxy })
        .finish()
        .map(Arc::new);
    let config = match config {
        Some(config) => config,
        // Only a zero period or burst fails, and `Quota` never makes either.
        None => unreachable!("a rate limit with a zero period or burst"),
    };
    let limiter = config.limiter().clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(60));
        loop {
            tokio::select! {
                _ = stop.cancelled() => break,
                _ = tick.tick() => limiter.retain_recent(),
            }
        }
    });
    GovernorLayer::new(config).error_handler(move |e| refusal(limit, e))
}
