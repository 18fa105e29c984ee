//! The recipient's viewer of an external link: no account, no session (none is read, none is
//! answered), nothing of the sender but their name.
//!
//! - `GET /s/{token}`: the web app's page (200 while the link is live, 410 once it is not, 404
//!   for an unknown token), never cached, never indexed, no referrer.
//! - `GET /api/s/{token}`: what the page shows. Does not count as an open: mail scanners fetch
//!   links without running them.
//! - `GET /api/s/{token}/file?view=`: the document; the first request of a view (an id the page
//!   makes per load) is the open. `&download=1`: as an attachment, a download.
//! - `POST /api/s/{token}/beacon`: pages viewed and for how long (`navigator.sendBeacon`).
//!
//! Each is limited per link and per client network (`SHARE_VIEWER_*_PER_MINUTE`).

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{FromRef, FromRequestParts, Path, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use events::share_link::{PageDwell, ShareCommand, MAX_PAGES_PER_BEACON, MAX_SECONDS_PER_ENTRY};
use projections::documents::read;
use projections::share_engagement::{self as engagement, ShareRow};
use projections::{now_ms, Tx};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::operations::{token_hash, Documents};
use super::shares::terms_of;
use crate::config::Config;
use crate::error::{AppError, AppJson, AppQuery, AppResult, ErrorBody};

/// The company the viewer names as the sender's.
pub const COMPANY: &str = "Meridian Orthopaedics";

/// A link token: URL-safe base64 (43 characters for the 32 random bytes made today).
fn token_ok(token: &str) -> bool {
    (16..=128).contains(&token.len())
        && token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// A view id: 16 to 64 URL-safe characters, made by the page once per load.
fn view_ok(view: &str) -> bool {
    (16..=64).contains(&view.len())
        && view
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// Who asks, as far as the viewer cares: their network (for the limits and the device hash)
/// and their user agent (for the device class only).
pub struct ViewerClient {
    network: String,
    user_agent: String,
}

impl<S> FromRequestParts<S> for ViewerClient
where
    S: Send + Sync,
    Arc<Documents>: FromRef<S>,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let documents = Arc::<Documents>::from_ref(state);
        let tracking = &documents.tracking;
        let address = crate::edge::limits::address_of(
            &parts.headers,
            &parts.extensions,
            tracking.trust_proxy,
        )
        .unwrap_or(std::net::IpAddr::from([0, 0, 0, 0]));
        let network = tracking.prefixes.network_of(address).to_string();
        tracking.per_network.check(&network)?;
        let user_agent = parts
            .headers
            .get(header::USER_AGENT)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string();
        Ok(ViewerClient {
            network,
            user_agent,
        })
    }
}

/// What the viewer page shows.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LinkInfo {
    pub company: String,
    pub sender: LinkSender,
    /// ms since the epoch.
    pub sent_at: i64,
    pub expires_at: i64,
    pub title: String,
    /// `pdf` or `xls` (XLS: download only).
    pub kind: String,
    pub allow_download: bool,
    /// Bytes.
    pub size: i64,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LinkSender {
    pub name: String,
}

/// The 410 of a link no longer available.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct LinkGoneBody {
    /// "This link is no longer available."
    pub error: String,
    /// `revoked`, `expired`, `used_up`, `ended` or `withdrawn` (the company withdrew the document).
    pub state: String,
    /// The item that replaces a superseded document.
    pub replacement: Option<String>,
}

/// How a link stands for its viewer: its share and file, or why there is none.
struct Live {
    share: ShareRow,
    file: read::ItemRow,
}

impl Documents {
    /// The share behind `token` and its file, if the link is live. `counted_views` lets a used
    /// up link through (the file and beacons of a view already counted decide for themselves).
    async fn live_link(&self, token: &str, used_up_ok: bool) -> AppResult<Live> {
        if !token_ok(token) {
            return Err(AppError::LinkNotFound);
        }
        let hash = token_hash(token);
        self.tracking.per_link.check(&hash)?;
        let mut tx = Tx::read(self.db()).await?;
        let share = engagement::by_token(&mut tx, &hash)
            .await?
            .ok_or(AppError::LinkNotFound)?;
        let file = read::item(&mut tx, "", &share.item_id)
            .await?
            .filter(|row| row.kind == "file");
        let gone = |state: &'static str| AppError::LinkGone {
            state,
            replacement: share.replacement.clone(),
        };
        let Some(file) = file else {
            return Err(gone("ended"));
        };
        // Withdrawn or expired: never a byte of it, whatever the link's own state; the 410
        // names what replaces it.
        if file.is_withdrawn() {
            return Err(AppError::LinkGone {
                state: "withdrawn",
                replacement: file
                    .replacement_title
                    .clone()
                    .or_else(|| share.replacement.clone()),
            });
        }
        match share.state(now_ms()) {
            "active" => {}
            "used_up" if used_up_ok => {}
            state => return Err(gone(state)),
        }
        Ok(Live { share, file })
    }

    async fn link_info(&self, token: &str) -> AppResult<LinkInfo> {
        let Live { share, file } = self.live_link(token, false).await?;
        let sender = crate::auth::User::find_by_id(self.db(), &share.sender_id)
            .await?
            .map(|u| super::services::full_name(&u))
            .unwrap_or_else(|| COMPANY.to_string());
        let kind = if file.content_type.as_deref() == Some("application/pdf") {
            "pdf"
        } else {
            "xls"
        };
        Ok(LinkInfo {
            company: COMPANY.into(),
            sender: LinkSender { name: sender },
            sent_at: share.sent_at,
            expires_at: share.expires_at,
            title: file.title,
            kind: kind.into(),
            allow_download: share.allow_download != 0,
            size: file.size.unwrap_or_default(),
        })
    }
}

/// Headers every viewer answer carries: never cached, no referrer to the document's host.
fn private(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert("x-robots-tag", HeaderValue::from_static("noindex"));
    response
}

/// `GET /s/{token}`: the web app's page, which renders the viewer; 410 and 404 with the same
/// page (it shows why).
pub async fn page(
    State(documents): State<Arc<Documents>>,
    State(config): State<Arc<Config>>,
    _client: ViewerClient,
    Path(token): Path<String>,
) -> Response {
    let status = match documents.link_info(&token).await {
        Ok(_) => StatusCode::OK,
        Err(e) => e.status(),
    };
    // The built app's page; a bare one when the app is not built (development, tests).
    let html = tokio::fs::read_to_string(config.web_dir.join("index.html"))
        .await
        .unwrap_or_else(|_| {
            "<!doctype html><html><head><meta charset=\"utf-8\"><title>Shared document</title></head><body><div id=\"root\"></div></body></html>".into()
        });
    private(
        (
            status,
            [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
            html,
        )
            .into_response(),
    )
}

/// What the recipient's viewer shows of a link: the company, the sender's name, the document's
/// title, kind and size, and whether it may be downloaded. Never counts as an open.
#[utoipa::path(get, path = "/s/{token}", tag = "external viewer", params(("token" = String, Path)),
    responses((status = 200, body = LinkInfo),
        (status = 404, body = ErrorBody, description = "unknown link: {error: \"This link does not exist.\"}"),
        (status = 410, body = LinkGoneBody, description = "revoked, expired, used up or ended"),
        (status = 429, body = ErrorBody)))]
pub async fn info(
    State(documents): State<Arc<Documents>>,
    _client: ViewerClient,
    Path(token): Path<String>,
) -> Response {
    private(match documents.link_info(&token).await {
        Ok(info) => AppJson(info).into_response(),
        Err(e) => e.into_response(),
    })
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct ViewerFileQuery {
    /// The page load's view id (16-64 URL-safe characters); its first request is the open.
    pub view: Option<String>,
    /// `1`: as an attachment, recorded as a download (403 when the sender allowed viewing only).
    pub download: Option<String>,
}

/// The document of a live link. The first request of a view records an open; with
/// `download=1` a download. Same headers as the app's files (nosniff, sandbox, no-store).
#[utoipa::path(get, path = "/s/{token}/file", tag = "external viewer",
    params(("token" = String, Path), ViewerFileQuery),
    responses((status = 200, description = "the file"), (status = 400, body = ErrorBody),
        (status = 403, body = ErrorBody, description = "The sender allowed viewing only."),
        (status = 404, body = ErrorBody), (status = 410, body = LinkGoneBody), (status = 429, body = ErrorBody)))]
pub async fn file(
    State(documents): State<Arc<Documents>>,
    client: ViewerClient,
    Path(token): Path<String>,
    AppQuery(query): AppQuery<ViewerFileQuery>,
    headers: HeaderMap,
) -> Response {
    private(
        match serve_file(&documents, client, &token, query, &headers).await {
            Ok(response) => response,
            Err(e) => e.into_response(),
        },
    )
}

async fn serve_file(
    documents: &Documents,
    client: ViewerClient,
    token: &str,
    query: ViewerFileQuery,
    headers: &HeaderMap,
) -> AppResult<Response> {
    let Live { share, file } = documents.live_link(token, true).await?;
    let view = query.view.filter(|v| view_ok(v)).ok_or_else(|| {
        AppError::bad_request("A view id of 16 to 64 URL-safe characters is required")
    })?;
    let download = matches!(query.download.as_deref(), Some("1" | "true"));
    let client = documents
        .tracking
        .client(documents.db(), &client.network, &client.user_agent)
        .await?;
    let terms = terms_of(&share);
    let at = now_ms();
    let command = if download {
        ShareCommand::Download {
            view,
            client,
            at,
            terms,
        }
    } else {
        ShareCommand::Open {
            view,
            client,
            at,
            terms,
        }
    };
    let mut metadata = crate::event_store::Metadata::by("external");
    metadata.user_email = None;
    documents
        .tracking
        .store
        .execute(&share.share_id, command, metadata)
        .await
        .map_err(|e| match e {
            AppError::LinkGone { state, .. } => AppError::LinkGone {
                state,
                replacement: share.replacement.clone(),
            },
            other => other,
        })?;
    super::files::serve(&documents.storage, &file, download, headers).await
}

/// A beacon: `{view, seq, pages: [{page, seconds}]}`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct Beacon {
    /// The view id the file was loaded with.
    pub view: String,
    /// Numbers the view's beacons: a repeat of a number changes nothing.
    pub seq: u64,
    /// Seconds each page was visible since the view's previous beacon (0-3600, at most 50).
    pub pages: Vec<BeaconPage>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct BeaconPage {
    /// 1 and up.
    pub page: u32,
    pub seconds: f64,
}

/// Pages viewed and for how long. The body is JSON, sent as `text/plain` by
/// `navigator.sendBeacon` (both accepted). Idempotent per `(view, seq)`; 410 once the link is
/// revoked, expired or ended; 429 over the link's limits.
#[utoipa::path(post, path = "/s/{token}/beacon", tag = "external viewer",
    params(("token" = String, Path)), request_body = Beacon,
    responses((status = 204, description = "recorded (or already recorded)"), (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 410, body = LinkGoneBody), (status = 429, body = ErrorBody)))]
pub async fn beacon(
    State(documents): State<Arc<Documents>>,
    _client: ViewerClient,
    Path(token): Path<String>,
    body: Bytes,
) -> Response {
    private(match record_beacon(&documents, &token, &body).await {
        Ok(()) => StatusCode::NO_CONTENT.into_response(),
        Err(e) => e.into_response(),
    })
}

fn malformed() -> AppError {
    AppError::bad_request(format!(
        "A report is {{view, seq, pages: [{{page, seconds}}]}}: pages from 1, 0 to {MAX_SECONDS_PER_ENTRY} seconds each, at most {MAX_PAGES_PER_BEACON} entries"
    ))
}

async fn record_beacon(documents: &Documents, token: &str, body: &[u8]) -> AppResult<()> {
    let Live { share, .. } = documents.live_link(token, true).await?;
    let beacon: Beacon = serde_json::from_slice(body).map_err(|_| malformed())?;
    let valid = view_ok(&beacon.view)
        && beacon.pages.len() <= MAX_PAGES_PER_BEACON
        && beacon.pages.iter().all(|p| {
            p.page >= 1
                && p.seconds.is_finite()
                && (0.0..=MAX_SECONDS_PER_ENTRY).contains(&p.seconds)
        });
    if !valid {
        return Err(malformed());
    }
    let command = ShareCommand::ReportPages {
        view: beacon.view,
        seq: beacon.seq,
        pages: beacon
            .pages
            .into_iter()
            .map(|p| PageDwell {
                page: p.page,
                seconds: p.seconds,
            })
            .collect(),
        at: now_ms(),
        terms: terms_of(&share),
    };
    documents
        .tracking
        .store
        .execute(
            &share.share_id,
            command,
            crate::event_store::Metadata::by("external"),
        )
        .await?;
    Ok(())
}
