//! A real OpenID Connect provider for the tests: panva's certified `oidc-provider` (npm), run as a
//! `node` child process from `backend/tests/oidc/provider.mjs`, and a browser that goes through
//! its development sign-in and consent screens over HTTP.

use std::process::Stdio;
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

pub const CLIENT_SECRET: &str = "client-secret-for-tests";

/// Where scope claims (e-mail, names) go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClaimsMode {
    /// The conformant default (`conformIdTokenClaims`): only at the UserInfo endpoint.
    UserInfoOnly,
    /// Also in the ID token, as Azure and Google do.
    InIdToken,
}

pub struct Provider {
    pub issuer: String,
    pub port: u16,
    child: Child,
}

impl Provider {
    /// Stops the process and waits for it.
    pub async fn stop(&mut self) {
        let _ = self.child.kill().await;
    }
}

impl Drop for Provider {
    fn drop(&mut self) {
        let _ = self.child.start_kill();
    }
}

/// Starts the provider on `port` (0: any), for a client returning to `redirect_uri`, with these
/// accounts (login -> claims).
pub async fn start(mode: ClaimsMode, redirect_uri: &str, accounts: &Value, port: u16) -> Provider {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/oidc/provider.mjs");
    let mut child = Command::new("node")
        .arg(script)
        .env("OIDC_PORT", port.to_string())
        .env("OIDC_REDIRECT_URIS", redirect_uri)
        .env("OIDC_CLIENT_SECRET", CLIENT_SECRET)
        .env(
            "OIDC_ID_TOKEN_CLAIMS",
            (mode == ClaimsMode::InIdToken).to_string(),
        )
        .env("OIDC_ACCOUNTS", accounts.to_string())
        .stdout(Stdio::piped())
        // Its warnings about development defaults are expected.
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("node runs backend/tests/oidc/provider.mjs (npm ci installs oidc-provider)");
    let stdout = child.stdout.take().expect("provider stdout");
    let mut lines = BufReader::new(stdout).lines();
    let issuer = tokio::time::timeout(Duration::from_secs(30), async {
        while let Some(line) = lines.next_line().await.expect("provider output") {
            if let Some(issuer) = line.strip_prefix("issuer=") {
                return issuer.to_string();
            }
        }
        panic!("the provider exited before listening");
    })
    .await
    .expect("the provider starts within 30 s");
    // Keep reading: it writes notices on stdout, and a closed pipe would end it.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    let port = url::Url::parse(&issuer)
        .expect("issuer URL")
        .port()
        .expect("issuer port");
    Provider {
        issuer,
        port,
        child,
    }
}

/// A free port on loopback (for the app, whose address the provider must know first).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("addr")
        .port()
}

/// A browser: keeps cookies, follows no redirect by itself.
pub fn browser() -> reqwest::Client {
    reqwest::Client::builder()
        .cookie_store(true)
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("browser")
}

fn location(res: &reqwest::Response, base: &url::Url) -> url::Url {
    let raw = res
        .headers()
        .get(reqwest::header::LOCATION)
        .unwrap_or_else(|| panic!("a redirect, got {}", res.status()))
        .to_str()
        .expect("location");
    base.join(raw).expect("location URL")
}

/// The value of `attribute="..."` in the first tag of `html` that has it after `from`.
fn attribute_after(html: &str, from: &str, attribute: &str) -> Option<String> {
    let start = html.find(from)?;
    let rest = &html[start..];
    let key = format!("{attribute}=\"");
    let at = rest.find(&key)? + key.len();
    let end = rest[at..].find('"')?;
    Some(rest[at..at + end].replace("&amp;", "&"))
}

/// From the provider's authorization address, signs in as `login` on its sign-in form, confirms
/// its consent form, and returns the address the provider sends the browser back to.
pub async fn sign_in_at_provider(
    browser: &reqwest::Client,
    authorize_url: &str,
    login: &str,
    app_base: &str,
) -> String {
    let mut url = url::Url::parse(authorize_url).expect("authorize URL");
    for _ in 0..20 {
        let res = browser
            .get(url.clone())
            .send()
            .await
            .expect("provider answers");
        let res = if res.status().is_redirection() {
            res
        } else {
            assert_eq!(res.status(), reqwest::StatusCode::OK, "provider page {url}");
            let html = res.text().await.expect("html");
            let action = attribute_after(&html, "<form", "action").expect("a form");
            let action = url.join(&action).expect("form action");
            let form: Vec<(&str, &str)> = if html.contains(r#"name="prompt" value="login""#) {
                vec![
                    ("prompt", "login"),
                    ("login", login),
                    ("password", "any password"),
                ]
            } else {
                vec![("prompt", "consent")]
            };
            browser
                .post(action)
                .form(&form)
                .send()
                .await
                .expect("form posted")
        };
        let next = location(&res, &url);
        if next.as_str().starts_with(app_base) {
            return next.to_string();
        }
        url = next;
    }
    panic!("the provider did not return to the app");
}
