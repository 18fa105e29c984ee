//! Server configuration, read from the environment (and flags) once at start-up.

use std::path::PathBuf;

use clap::{Args, Parser};

/// Everything `companion serve` can be told. Each flag has an environment variable of the same
/// meaning, which is how the README and the tests set them.
#[derive(Debug, Clone, Args)]
pub struct Config {
    /// TCP port of the HTTP server (web app, API and WebSocket on one origin). 0 picks a free one.
    #[arg(long, env = "PORT", default_value_t = 8080)]
    pub port: u16,

    /// Address to bind.
    #[arg(long, env = "BIND_ADDRESS", default_value = "0.0.0.0")]
    pub bind_address: String,

    /// `postgres://...` for PostgreSQL; unset means an embedded SQLite file in `DATA_DIR`.
    #[arg(long, env = "DATABASE_URL")]
    pub database_url: Option<String>,

    /// Most connections this node opens to PostgreSQL (PostgreSQL accepts 100 in all by
    /// default, for every node and tool together).
    #[arg(long, env = "DATABASE_POOL_SIZE", default_value_t = projections::db::POSTGRES_POOL_SIZE)]
    pub database_pool_size: u32,

    /// Folder for the SQLite file, uploaded files and the generated signing secret.
    #[arg(long, env = "DATA_DIR", default_value = "./data")]
    pub data_dir: PathBuf,

    /// Where uploaded files are kept: `s3://bucket/prefix` for S3-compatible object storage
    /// (endpoint, region and keys from `AWS_ENDPOINT_URL`, `AWS_REGION`, `AWS_ACCESS_KEY_ID`,
    /// `AWS_SECRET_ACCESS_KEY`; `AWS_ALLOW_HTTP=true` for a plain-HTTP endpoint). Unset: the
    /// folder `DATA_DIR/files`, which only this node sees.
    #[arg(long, env = "FILE_STORE_URL")]
    pub file_store_url: Option<String>,

    /// Start on PostgreSQL with the local file store even though other nodes use the same
    /// database (their uploads would not be readable here, nor ours there).
    #[arg(
        long,
        env = "ALLOW_LOCAL_FILE_STORE_WITH_NODES",
        default_value_t = false
    )]
    pub allow_local_file_store_with_nodes: bool,

    /// Secret that signs session tokens; generated and kept in `DATA_DIR` when unset.
    #[arg(long, env = "JWT_SECRET", hide_env_values = true)]
    pub jwt_secret: Option<String>,

    /// Lifetime of a session token, in seconds; the app renews it (within the session's
    /// absolute lifetime).
    #[arg(long, env = "JWT_TTL_SECONDS", default_value_t = 7 * 24 * 3600)]
    pub jwt_ttl_seconds: i64,

    /// The built web app, served at `/`.
    #[arg(long, env = "WEB_DIR", default_value = "web/dist")]
    pub web_dir: PathBuf,

    /// Demo and reference content loaded on first start; `media/` under it is served at `/media`.
    #[arg(long, env = "CONTENT_DIR", default_value = "content")]
    pub content_dir: PathBuf,

    /// Sign-in attempts allowed per account and client address before an exponential back-off
    /// (30 s, 1 min, 2 min, ... up to `LOGIN_WINDOW_SECONDS`) answers 429.
    #[arg(long, env = "LOGIN_MAX_FAILURES", default_value_t = 5)]
    pub login_max_failures: i64,

    /// Failures older than this are forgotten; also the longest back-off, in seconds.
    #[arg(long, env = "LOGIN_WINDOW_SECONDS", default_value_t = 900)]
    pub login_window_seconds: i64,

    /// Failed sign-ins allowed per client address, whatever the account, before the back-off.
    #[arg(long, env = "LOGIN_ADDRESS_MAX_FAILURES", default_value_t = 50)]
    pub login_address_max_failures: i64,

    /// Absolute lifetime of a session, in seconds: renewal never goes past it.
    #[arg(long, env = "SESSION_MAX_AGE_SECONDS", default_value_t = 30 * 24 * 3600)]
    pub session_max_age_seconds: i64,

    /// The current version of the terms and conditions. Changing it asks every user to accept
    /// them again (content calls answer 403 `terms_not_accepted` until they do).
    #[arg(long, env = "TERMS_VERSION", default_value = "2021-01")]
    pub terms_version: String,

    /// Load the demo accounts (published password) and demo content. Refused on a database that
    /// holds accounts of a real deployment.
    #[arg(long, env = "DEMO", default_value_t = false, action = clap::ArgAction::Set, num_args = 0..=1, default_missing_value = "true")]
    pub demo: bool,

    /// E-mail domains whose users sign in through single sign-on (comma separated).
    #[arg(
        long,
        env = "SSO_DOMAINS",
        default_value = "sso.example.com",
        value_delimiter = ','
    )]
    pub sso_domains: Vec<String>,

    /// OpenID Connect issuer of the single sign-on provider (discovery at
    /// `{issuer}/.well-known/openid-configuration`). Unset: single sign-on answers 503.
    #[arg(long, env = "OIDC_ISSUER")]
    pub oidc_issuer: Option<String>,

    #[arg(long, env = "OIDC_CLIENT_ID", default_value = "companion")]
    pub oidc_client_id: String,

    #[arg(long, env = "OIDC_CLIENT_SECRET", hide_env_values = true)]
    pub oidc_client_secret: Option<String>,

    /// Accept an e-mail claim the provider has not marked verified (only for a provider known to
    /// verify every address it asserts).
    #[arg(long, env = "SSO_TRUST_UNVERIFIED_EMAIL", default_value_t = false, action = clap::ArgAction::Set)]
    pub sso_trust_unverified_email: bool,

    /// Public address of this server, used to build the single sign-on redirect address.
    #[arg(long, env = "PUBLIC_URL")]
    pub public_url: Option<String>,

    /// How long entries of the users' live feeds are kept, in seconds. A client that comes back
    /// after more than this is told to reload its lists instead of receiving what it missed.
    #[arg(long, env = "FEED_RETENTION_SECONDS", default_value_t = 7 * 24 * 3600)]
    pub feed_retention_seconds: i64,

    /// What a rebuild (`companion replay`) holds in memory of the rows it could already write
    /// (past versions), in MiB, before writing them; its working state (the
    /// documents, shares and marks that exist) is held whole.
    #[arg(long, env = "REBUILD_SPILL_MIB", default_value_t = projections::replay::DEFAULT_SPILL_BYTES >> 20)]
    pub rebuild_spill_mib: usize,

    /// Messages waiting for one WebSocket at most; a client that falls this far behind is
    /// disconnected ("slow") and resumes when it reconnects.
    #[arg(long, env = "REALTIME_QUEUE", default_value_t = 1024)]
    pub realtime_queue: usize,

    /// Seconds between the server's `{"type":"ping"}` messages.
    #[arg(long, env = "REALTIME_PING_SECONDS", default_value_t = 25)]
    pub realtime_ping_seconds: u64,

    /// A socket that sends nothing (not even `{"type":"pong"}`) for this many seconds is closed.
    #[arg(long, env = "REALTIME_IDLE_SECONDS", default_value_t = 60)]
    pub realtime_idle_seconds: u64,

    /// Seconds a new socket has to send its `{"type":"auth"}` message.
    #[arg(long, env = "REALTIME_AUTH_SECONDS", default_value_t = 10)]
    pub realtime_auth_seconds: u64,

    /// How often each node looks for new feed entries when nothing told it (milliseconds): the
    /// fallback for `NOTIFY`s lost while a listener reconnects.
    #[arg(long, env = "FEED_POLL_MS", default_value_t = 2000)]
    pub feed_poll_ms: u64,

    /// How long a command's answer waits for the lists to show its change, in seconds; past it
    /// the answer is 503 "recorded but not visible yet" (the change itself is kept).
    #[arg(long, env = "READ_YOUR_WRITE_SECONDS", default_value_t = 10)]
    pub read_your_write_seconds: u64,

    /// On shutdown, how long open sockets and background tasks get to finish, in seconds.
    #[arg(long, env = "SHUTDOWN_GRACE_SECONDS", default_value_t = 10)]
    pub shutdown_grace_seconds: u64,

    /// How deep folders may nest in My Docs (a folder at the root is level 1).
    #[arg(long, env = "MAX_FOLDER_DEPTH", default_value_t = events::documents::DEFAULT_MAX_FOLDER_DEPTH)]
    pub max_folder_depth: u32,

    /// Largest file accepted by `POST /api/documents/upload`, in bytes.
    #[arg(long, env = "UPLOAD_MAX_BYTES", default_value_t = 20 * 1024 * 1024)]
    pub upload_max_bytes: u64,

    /// The instant the course calendar is read at (RFC 3339, e.g. `2026-03-01T09:00:00Z`):
    /// which days have taken place, what registrations are refused and the default year of the
    /// course list. Unset, the server's clock; set only to test or show dated content.
    #[arg(long, env = "CALENDAR_NOW")]
    pub calendar_now: Option<chrono::DateTime<chrono::Utc>>,

    /// How long the link of an external share works, in hours.
    #[arg(long, env = "SHARED_LINK_TTL_HOURS", default_value_t = 7 * 24)]
    pub shared_link_ttl_hours: i64,

    /// Longest an external share's link may last, in days (`expires_in_days` of
    /// `POST /api/documents/external-share`).
    #[arg(long, env = "EXTERNAL_LINK_MAX_DAYS", default_value_t = 30)]
    pub external_link_max_days: i64,

    /// Days the engagement of an external link (opens, pages, downloads, devices) is kept after
    /// the link's end; then it is purged (the share itself stays in the item's history).
    #[arg(long, env = "SHARE_ANALYTICS_RETENTION_DAYS", default_value_t = 365)]
    pub share_analytics_retention_days: i64,

    /// Requests per minute to one external link's viewer (page info, file, beacons).
    #[arg(long, env = "SHARE_VIEWER_LINK_PER_MINUTE", default_value_t = 120)]
    pub share_viewer_link_per_minute: u32,

    /// Requests per minute from one client network to external links' viewers.
    #[arg(long, env = "SHARE_VIEWER_NETWORK_PER_MINUTE", default_value_t = 240)]
    pub share_viewer_network_per_minute: u32,

    /// Origins whose pages the app may show in a frame (the video platform's embedded player),
    /// comma separated; the app's own `blob:` documents are always allowed.
    #[arg(
        long,
        env = "CSP_FRAME_SOURCES",
        default_value = "https://video.example.com",
        value_delimiter = ','
    )]
    pub csp_frame_sources: Vec<String>,

    /// Take the client address from `X-Forwarded-For` (and keep a client's `X-Request-Id`): only
    /// behind a reverse proxy that sets them, or anyone could pick their own address.
    #[arg(long, env = "TRUST_PROXY_HEADERS", default_value_t = false, action = clap::ArgAction::Set)]
    pub trust_proxy_headers: bool,

    /// Seconds a client has to send a request's headers; also how long an idle keep-alive
    /// connection stays open waiting for the next request.
    #[arg(long, env = "HEADER_READ_TIMEOUT_SECONDS", default_value_t = 15)]
    pub header_read_timeout_seconds: u64,

    /// Seconds an API request may take (body included) before it is answered 408.
    #[arg(long, env = "REQUEST_TIMEOUT_SECONDS", default_value_t = 30)]
    pub request_timeout_seconds: u64,

    /// Seconds an upload (`POST /api/documents/upload`) may take.
    #[arg(long, env = "UPLOAD_TIMEOUT_SECONDS", default_value_t = 600)]
    pub upload_timeout_seconds: u64,

    /// API requests per second allowed from one client address, on average...
    #[arg(long, env = "RATE_LIMIT_ADDRESS_PER_SECOND", default_value_t = 200)]
    pub rate_limit_address_per_second: u32,

    /// ...and in one burst (a whole hospital behind one address signing in at 8 o'clock).
    #[arg(long, env = "RATE_LIMIT_ADDRESS_BURST", default_value_t = 2000)]
    pub rate_limit_address_burst: u32,

    /// API requests per second allowed for one session (one bearer token), on average...
    #[arg(long, env = "RATE_LIMIT_SESSION_PER_SECOND", default_value_t = 20)]
    pub rate_limit_session_per_second: u32,

    /// ...and in one burst.
    #[arg(long, env = "RATE_LIMIT_SESSION_BURST", default_value_t = 200)]
    pub rate_limit_session_burst: u32,

    /// Recipient lookups (`GET /api/users/share-list`) per minute and user: it lists
    /// colleagues' addresses.
    #[arg(long, env = "RECIPIENT_LOOKUPS_PER_MINUTE", default_value_t = 60)]
    pub recipient_lookups_per_minute: u32,

    /// External shares (e-mails to people outside the company) per user in 24 hours.
    #[arg(long, env = "EXTERNAL_SHARES_PER_DAY", default_value_t = 50)]
    pub external_shares_per_day: u32,

    /// How long a command's `Idempotency-Key` and answer are kept, in hours (at least 24: the
    /// app retries commands after a day offline).
    #[arg(long, env = "IDEMPOTENCY_TTL_HOURS", default_value_t = 24,
        value_parser = clap::value_parser!(u32).range(24..=24 * 366))]
    pub idempotency_ttl_hours: u32,

    /// New `Idempotency-Key`s one user may send per hour (429 beyond): bounds the table.
    #[arg(long, env = "IDEMPOTENCY_KEYS_PER_HOUR", default_value_t = 1000)]
    pub idempotency_keys_per_hour: u32,

    /// Port of a separate listener serving `GET /metrics` (Prometheus text format).
    #[arg(long, env = "METRICS_PORT")]
    pub metrics_port: Option<u16>,

    /// Bearer token that opens `GET /metrics` on the main port; unset: not served there.
    #[arg(long, env = "METRICS_TOKEN", hide_env_values = true)]
    pub metrics_token: Option<String>,

    /// `/api/ready` answers 503 while the projections are more than this many events behind.
    #[arg(long, env = "READY_MAX_PROJECTION_LAG", default_value_t = 1000)]
    pub ready_max_projection_lag: i64,

    /// SMTP server for outgoing e-mail: `smtp://host:port` (plain, or `?tls=required` for
    /// STARTTLS), `smtps://host:port` (TLS), credentials as `user:password@`. Unset: e-mail stays
    /// queued in the outbox (`companion outbox list`).
    #[arg(long, env = "SMTP_URL", hide_env_values = true)]
    pub smtp_url: Option<String>,

    /// Sender of outgoing e-mail, e.g. `Companion <no-reply@example.com>`.
    #[arg(
        long,
        env = "SMTP_FROM",
        default_value = "Companion <no-reply@localhost>"
    )]
    pub smtp_from: String,

    /// Longest wait for the SMTP server at each step of a send, in seconds.
    #[arg(long, env = "SMTP_TIMEOUT_SECONDS", default_value_t = 30)]
    pub smtp_timeout_seconds: u64,

    /// How often the outbox relay looks for due e-mail when nothing told it (milliseconds).
    #[arg(long, env = "OUTBOX_POLL_MS", default_value_t = 2000)]
    pub outbox_poll_ms: u64,

    /// Wait after a first failed send (milliseconds); it doubles with each failure, up to an hour.
    #[arg(long, env = "OUTBOX_RETRY_BASE_MS", default_value_t = 30_000)]
    pub outbox_retry_base_ms: i64,

    /// Attempts at one message before it is marked failed.
    #[arg(long, env = "OUTBOX_MAX_ATTEMPTS", default_value_t = 12)]
    pub outbox_max_attempts: i64,

    /// Send Web Push notifications to devices whose app is closed (`false` turns pushing off:
    /// nothing is queued, subscriptions stay stored).
    #[arg(long, env = "PUSH_ENABLED", default_value_t = true, action = clap::ArgAction::Set)]
    pub push_enabled: bool,

    /// Origins of the push services a subscription's endpoint may be on (comma separated); a
    /// `*.` host matches any subdomain. Any other endpoint is refused, so the server never sends
    /// requests to an address a user chose.
    #[arg(
        long,
        env = "PUSH_SERVICES",
        value_delimiter = ',',
        default_value = "https://fcm.googleapis.com,https://android.googleapis.com,https://updates.push.services.mozilla.com,https://push.services.mozilla.com,https://web.push.apple.com,https://*.push.apple.com,https://*.notify.windows.com"
    )]
    pub push_services: Vec<String>,

    /// The contact push services may write to about this server's pushes (VAPID `sub`):
    /// `mailto:` or `https:`.
    #[arg(
        long,
        env = "PUSH_CONTACT",
        default_value = "mailto:support@example.com"
    )]
    pub push_contact: String,

    /// How long a push service keeps a message for a device that is offline (`TTL`, seconds).
    #[arg(long, env = "PUSH_TTL_SECONDS", default_value_t = 24 * 3600)]
    pub push_ttl_seconds: u64,

    /// Wait after a first failed send (milliseconds); it doubles with each failure (a
    /// `Retry-After` from the push service is honoured), up to an hour.
    #[arg(long, env = "PUSH_RETRY_BASE_MS", default_value_t = 10_000)]
    pub push_retry_base_ms: i64,

    /// Attempts at one message before it is given up.
    #[arg(long, env = "PUSH_MAX_ATTEMPTS", default_value_t = 8)]
    pub push_max_attempts: i64,

    /// Pushes per user and hour at most (each device of the user gets each); the rest are not
    /// pushed (the app shows them when it opens).
    #[arg(long, env = "PUSH_USER_PER_HOUR", default_value_t = 30)]
    pub push_user_per_hour: i64,

    /// What a projection does with an event it cannot apply, as `name=stop|skip` pairs
    /// (comma separated), e.g. `notifications=stop`. Default: documents stop, the others skip.
    #[arg(long, env = "PROJECTION_POISON_POLICY", value_delimiter = ',')]
    pub projection_poison_policy: Vec<String>,

    // Storage quotas and retention of removed files.
    /// What the files one user keeps in My Docs may add up to, in MB; an upload past it is
    /// refused (413).
    #[arg(long, env = "USER_STORAGE_QUOTA_MB", default_value_t = 2048)]
    pub user_storage_quota_mb: u64,

    /// Days a removed file stays in the file store (for the audit trail) before it is deleted,
    /// unless another live item still names it.
    #[arg(long, env = "DELETED_FILE_RETENTION_DAYS", default_value_t = 30)]
    pub deleted_file_retention_days: u32,

    /// New uploads are refused (507) while the local file store's volume has less than this
    /// free, in MB, so files never take the database's last room (not checked for S3).
    #[arg(long, env = "MIN_FREE_DISK_MB", default_value_t = 1024)]
    pub min_free_disk_mb: u64,

    // Privacy and fair limits: throttles by network, the metrics listener's address.
    /// Leading bits of an IPv4 client address that make one bucket of every per-address limit
    /// (32: each address on its own).
    #[arg(long, env = "IPV4_PREFIX_BITS", default_value_t = 32,
        value_parser = clap::value_parser!(u8).range(1..=32))]
    pub ipv4_prefix_bits: u8,

    /// Leading bits of an IPv6 client address that make one bucket (64: one network, which a
    /// single customer line or host is usually given whole).
    #[arg(long, env = "IPV6_PREFIX_BITS", default_value_t = 64,
        value_parser = clap::value_parser!(u8).range(1..=128))]
    pub ipv6_prefix_bits: u8,

    /// Address the `METRICS_PORT` listener binds (the loopback: only this host scrapes it).
    #[arg(long, env = "METRICS_BIND", default_value = "127.0.0.1")]
    pub metrics_bind: String,

    // Sessions that end.
    /// A session not used for this long (seconds) ends: its requests answer 401 and its sockets
    /// close with 4401. Requests and opening a socket count as use.
    #[arg(long, env = "SESSION_IDLE_SECONDS", default_value_t = 12 * 3600)]
    pub session_idle_seconds: i64,

    /// Days an ended session (signed out, revoked or past its end) is kept, with the device and
    /// address it was used from, before it is deleted; used or expired password-reset links go
    /// after a day.
    #[arg(long, env = "ENDED_SESSION_RETENTION_DAYS", default_value_t = 90)]
    pub ended_session_retention_days: u32,
}

impl Config {
    /// The database address to use: `DATABASE_URL`, or the SQLite file in the data folder.
    pub fn database_url(&self) -> String {
        match &self.database_url {
            Some(url) if !url.is_empty() => url.clone(),
            _ => format!("sqlite://{}", self.data_dir.join("companion.db").display()),
        }
    }

    /// The overrides of `PROJECTION_POISON_POLICY`.
    pub fn poison_policies(&self) -> anyhow::Result<Vec<(String, projections::PoisonPolicy)>> {
        self.projection_poison_policy
            .iter()
            .filter(|p| !p.trim().is_empty())
            .map(|pair| {
                let (name, policy) = pair.split_once('=').ok_or_else(|| {
                    anyhow::anyhow!("PROJECTION_POISON_POLICY: {pair:?} is not name=stop|skip")
                })?;
                let policy = policy
                    .parse()
                    .map_err(|e| anyhow::anyhow!("PROJECTION_POISON_POLICY: {e}"))?;
                Ok((name.trim().to_string(), policy))
            })
            .collect()
    }

    pub fn public_url(&self, port: u16) -> String {
        self.public_url
            .clone()
            .unwrap_or_else(|| format!("http://localhost:{port}"))
            .trim_end_matches('/')
            .to_string()
    }
}

#[derive(Parser)]
struct ConfigOnly {
    #[command(flatten)]
    config: Config,
}

impl Config {
    /// The configuration from the environment and these flags (tests use it with no flags).
    pub fn from_env_and_args<I, T>(args: I) -> Result<Config, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        let args = std::iter::once(std::ffi::OsString::from("companion"))
            .chain(args.into_iter().map(Into::into));
        ConfigOnly::try_parse_from(args).map(|c| c.config)
    }
}
