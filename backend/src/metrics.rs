//! Metrics in the Prometheus text format, from the `metrics` crate's macros.
//!
//! Every metric's name is a constant here, so the list below is the list of what is exported;
//! add new ones here and record them with `metrics::counter!` / `gauge!` / `histogram!` anywhere.
//! `GET /metrics` is served on `METRICS_PORT`, or on the main port to `METRICS_TOKEN`'s bearer
//! (see `http::metrics`).

use std::sync::OnceLock;

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

/// Requests answered, by `method`, `route` (template) and `status`.
pub const HTTP_REQUESTS: &str = "companion_http_requests_total";
/// Time to answer, by `method` and `route`, in seconds (histogram).
pub const HTTP_REQUEST_DURATION: &str = "companion_http_request_duration_seconds";
/// TCP connections open on the HTTP port.
pub const HTTP_CONNECTIONS_OPEN: &str = "companion_http_connections_open";
/// Handlers that panicked (each answered 500).
pub const HTTP_PANICS: &str = "companion_http_panics_total";
/// Requests refused by a rate limit or quota, by `limit`.
pub const RATE_LIMIT_REFUSALS: &str = "companion_rate_limit_refusals_total";
/// WebSockets open on this node.
pub const REALTIME_SOCKETS_OPEN: &str = "companion_realtime_sockets_open";
/// Feed messages sent over this node's WebSockets.
pub const REALTIME_MESSAGES_SENT: &str = "companion_realtime_messages_sent_total";
/// Failed sign-ins (wrong e-mail or password).
pub const LOGIN_FAILURES: &str = "companion_login_failures_total";
/// Command calls with an `Idempotency-Key`, by `outcome`: `executed` and `recovered` (misses),
/// `replayed` and `reconstructed` (hits), `mismatch` and `in_progress` (conflicts), `refused`.
pub const IDEMPOTENCY_REQUESTS: &str = "companion_idempotency_requests_total";

/// Stored files no event refers to, deleted (`documents::orphans`).
pub const ORPHANS_COLLECTED: &str = "companion_files_orphans_collected_total";

/// The metrics of pushing (also in `docs/operations.md`).
pub mod push {
    /// Counter: messages a push service accepted.
    pub const SENT_TOTAL: &str = "companion_push_sent_total";
    /// Counter: messages given up (refused, out of attempts, or past their TTL).
    pub const FAILED_TOTAL: &str = "companion_push_failed_total";
    /// Counter: attempts that will be tried again (429, 5xx, no answer).
    pub const RETRIES_TOTAL: &str = "companion_push_retries_total";
    /// Counter: subscriptions the push service said are gone (404/410), deleted.
    pub const EXPIRED_SUBSCRIPTIONS_TOTAL: &str = "companion_push_expired_subscriptions_total";
    /// Counter: pushes not sent to a device because its app had a socket open.
    pub const SKIPPED_OPEN_TOTAL: &str = "companion_push_skipped_open_app_total";
    /// Counter: feed entries not pushed because the user's hourly limit was reached.
    pub const RATE_LIMITED_TOTAL: &str = "companion_push_rate_limited_total";
    /// Gauge: messages waiting in the queue.
    pub const QUEUED: &str = "companion_push_queued";
}

/// Latency buckets in seconds: from a cached read to a large upload.
const DURATION_BUCKETS: &[f64] = &[
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 120.0,
];

static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();

/// Installs the process-wide recorder once (every server of the process shares it) and returns
/// its handle.
pub fn install() -> &'static PrometheusHandle {
    HANDLE.get_or_init(|| {
        let recorder = PrometheusBuilder::new()
            .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), DURATION_BUCKETS)
            .map(PrometheusBuilder::build_recorder);
        let recorder = match recorder {
            Ok(recorder) => recorder,
            // Only an empty bucket list fails.
            Err(e) => unreachable!("metric buckets: {e}"),
        };
        let handle = recorder.handle();
        if metrics::set_global_recorder(recorder).is_err() {
            tracing::warn!("a metrics recorder was already installed: /metrics shows only ours");
        }
        describe();
        spawn_upkeep(handle.clone());
        handle
    })
}

/// How often the recorder's pending histogram samples are folded into their buckets.
const UPKEEP_EVERY: std::time::Duration = std::time::Duration::from_secs(5);

/// A recorder made with `build_recorder` keeps every histogram sample until the next render:
/// with nobody scraping `/metrics`, each request would leave its latency in memory for good. A
/// thread of its own (not a task) so that it outlives any one runtime of the process.
fn spawn_upkeep(handle: PrometheusHandle) {
    let started = std::thread::Builder::new()
        .name("metrics-upkeep".into())
        .spawn(move || loop {
            std::thread::sleep(UPKEEP_EVERY);
            handle.run_upkeep();
        });
    if let Err(e) = started {
        tracing::warn!(error = %e, "metrics upkeep not started: histograms drain only when scraped");
    }
}

fn describe() {
    metrics::describe_counter!(
        HTTP_REQUESTS,
        "Requests answered, by method, route and status"
    );
    metrics::describe_histogram!(
        HTTP_REQUEST_DURATION,
        metrics::Unit::Seconds,
        "Time to answer a request, by method and route"
    );
    metrics::describe_gauge!(
        HTTP_CONNECTIONS_OPEN,
        "TCP connections open on the HTTP port"
    );
    metrics::describe_counter!(HTTP_PANICS, "Handlers that panicked");
    metrics::describe_counter!(
        RATE_LIMIT_REFUSALS,
        "Requests refused by a rate limit, by limit"
    );
    metrics::describe_gauge!(REALTIME_SOCKETS_OPEN, "WebSockets open on this node");
    metrics::describe_counter!(
        REALTIME_MESSAGES_SENT,
        "Feed messages sent over this node's WebSockets"
    );
    metrics::describe_counter!(LOGIN_FAILURES, "Failed sign-ins");
    metrics::describe_counter!(
        IDEMPOTENCY_REQUESTS,
        "Command calls with an Idempotency-Key, by outcome"
    );
    describe_push();
    use projections::lease::metric_names as lease;
    metrics::describe_gauge!(lease::OWNER, "1 on the node holding the projector lease");
    metrics::describe_gauge!(
        lease::FENCING,
        "Fencing number of the lease this node holds (0: none)"
    );
    metrics::describe_counter!(
        lease::TAKEOVERS_TOTAL,
        "Times this node took the projector lease"
    );
    metrics::describe_counter!(
        lease::FENCED_BATCHES_TOTAL,
        "Projector batches refused because this node had lost the lease"
    );
    metrics::describe_counter!(
        projections::rebuild_progress::metric_names::ROUNDS_TOTAL,
        "Rounds of rebuilds run in this process, by whether the round only moved its checkpoints \
         in one statement (light)"
    );
    use projections::projector::group_commit_metric_names as group_commit;
    metrics::describe_counter!(
        group_commit::GROUP_COMMITS_TOTAL,
        "Transactions of commands committed by the projector's loop, by whether the projections \
         were applied in them (projected)"
    );
    metrics::describe_counter!(
        group_commit::GROUP_COMMIT_COMMANDS_TOTAL,
        "Commands committed in those transactions"
    );
    metrics::describe_counter!(
        group_commit::GROUP_COMMIT_READ_BACKS_TOTAL,
        "Commands whose answer was read in the transaction that committed them"
    );
    metrics::describe_counter!(
        projections::documents::projection::STATEMENTS_TOTAL,
        "Statements the documents projection ran for its batches, by kind (read, write)"
    );
    metrics::describe_counter!(
        ORPHANS_COLLECTED,
        "Stored files no event refers to, deleted"
    );
}

fn describe_push() {
    use push::*;
    metrics::describe_counter!(SENT_TOTAL, "Web pushes a push service accepted");
    metrics::describe_counter!(FAILED_TOTAL, "Web pushes given up");
    metrics::describe_counter!(RETRIES_TOTAL, "Web push attempts to be tried again");
    metrics::describe_counter!(
        EXPIRED_SUBSCRIPTIONS_TOTAL,
        "Push subscriptions the push service said are gone, deleted"
    );
    metrics::describe_counter!(
        SKIPPED_OPEN_TOTAL,
        "Pushes not sent because the device had the app open"
    );
    metrics::describe_counter!(
        RATE_LIMITED_TOTAL,
        "Feed entries not pushed because of the per-user hourly limit"
    );
    metrics::describe_gauge!(QUEUED, "Web pushes waiting to be sent");
}
