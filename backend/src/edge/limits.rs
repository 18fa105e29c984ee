//! Rate limits (tower_governor): per client network (see [`super::network`]), per session, and
//! per user (the recipient lookup). A refused request gets 429, `Retry-After` in seconds and the
//! API's error shape.
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

use super::network::Prefixes;
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
    /// The client's network (its address cut to the configured prefix).
    Address,
    /// The session (bearer token); requests without one count against their address.
    Session,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ClientKey {
    Address(ipnet::IpNet),
    /// SHA-256 of the bearer token: the token itself is not kept in memory longer than needed.
    Session([u8; 32]),
}

#[derive(Clone, Copy, Debug)]
pub struct ClientKeyExtractor {
    scope: Scope,
    trust_proxy: bool,
    prefixes: Prefixes,
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
        let address =
            client_address(request, self.trust_proxy).unwrap_or(IpAddr::from([0, 0, 0, 0]));
        Ok(ClientKey::Address(self.prefixes.network_of(address)))
    }

    fn key_name(&self, key: &ClientKey) -> Option<String> {
        match key {
            ClientKey::Address(network) => Some(network.to_string()),
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
/// The 429 of `limit`, counted, with the seconds to wait.
fn too_many(limit: &'static str, wait_seconds: u64) -> AppError {
    metrics::counter!(crate::metrics::RATE_LIMIT_REFUSALS, "limit" => limit).increment(1);
    AppError::RateLimited {
        message: "Too many requests. Try again in a moment".into(),
        // The bucket refills within the second when this rounds down to 0.
        retry_after_seconds: wait_seconds.max(1),
    }
}

fn refusal(limit: &'static str, error: GovernorError) -> Response<Body> {
    match error {
        GovernorError::TooManyRequests { wait_time, .. } => {
            too_many(limit, wait_time).into_response()
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
    prefixes: Prefixes,
    stop: CancellationToken,
) -> Layer {
    let mut builder = GovernorConfigBuilder::default();
    builder.period(quota.refill).burst_size(quota.burst);
    let config = builder
        .key_extractor(ClientKeyExtractor {
            scope,
            trust_proxy,
            prefixes,
        })
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

/// A limit per signed-in user, checked by a handler once it knows who calls (a new token or a
/// new sign-in does not start a fresh bucket, as a per-session limit would). Its memory of users
/// is pruned every minute until `stop` is cancelled.
#[derive(Clone)]
pub struct PerUser {
    name: &'static str,
    limiter: Arc<governor::DefaultKeyedRateLimiter<String>>,
}

impl PerUser {
    pub fn new(name: &'static str, quota: Quota, stop: CancellationToken) -> Self {
        let per_cell = governor::Quota::with_period(quota.refill)
            .unwrap_or_else(|| governor::Quota::per_second(std::num::NonZeroU32::MIN));
        let burst = std::num::NonZeroU32::new(quota.burst).unwrap_or(std::num::NonZeroU32::MIN);
        let limiter = Arc::new(governor::RateLimiter::keyed(per_cell.allow_burst(burst)));
        let pruned = limiter.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_secs(60));
            loop {
                tokio::select! {
                    _ = stop.cancelled() => break,
                    _ = tick.tick() => pruned.retain_recent(),
                }
            }
        });
        Self { name, limiter }
    }

    /// A limit whose owner prunes it (with [`PerUser::prune`]) from a task of its own.
    pub fn pruned_by_owner(name: &'static str, quota: Quota) -> Self {
        let per_cell = governor::Quota::with_period(quota.refill)
            .unwrap_or_else(|| governor::Quota::per_second(std::num::NonZeroU32::MIN));
        let burst = std::num::NonZeroU32::new(quota.burst).unwrap_or(std::num::NonZeroU32::MIN);
        let limiter = Arc::new(governor::RateLimiter::keyed(per_cell.allow_burst(burst)));
        Self { name, limiter }
    }

    /// Forgets keys whose bucket is full again.
    pub fn prune(&self) {
        self.limiter.retain_recent();
    }

    /// Counts one request of `user_id`; 429 with `Retry-After` past the limit.
    pub fn check(&self, user_id: &str) -> Result<(), AppError> {
        self.limiter
            .check_key(&user_id.to_string())
            .map_err(|not_until| {
                use governor::clock::Clock;
                let wait = not_until.wait_time_from(self.limiter.clock().now());
                too_many(self.name, wait.as_secs())
            })
    }
}
