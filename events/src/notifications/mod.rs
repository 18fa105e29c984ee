//! Notifications and app updates (spec sections 2.9, 2.10 and 4).
//!
//! - [`Notification`]: one published notification (title, sanitised HTML message, optional
//!   preview image and link, and its audience: everyone or chosen users).
//! - [`AppUpdate`]: one published app update (name, release, preview, gallery of big images,
//!   optional url).
//! - [`Inbox`]: one user's read marks and app-update views. Keeping them per user (rather than on
//!   the notification) means thousands of readers of one broadcast never race each other.
//!
//! Publishing is for the admin role; the server checks the role before it builds a command.
//! Everything else a command must satisfy is checked here, whatever the client sent.

mod app_update;
pub mod html;
mod inbox;
mod notification;

pub use app_update::{AppUpdate, AppUpdateCommand, AppUpdateEvent, GalleryImage};
pub use inbox::{
    Addressed, Inbox, InboxCommand, InboxError, InboxEvent, InboxServices, Publications,
};
pub use notification::{
    Notification, NotificationCommand, NotificationEvent, NotificationServices, UserDirectory,
};

use serde::{Deserialize, Serialize};

use crate::lookup::LookupError;

/// Link types that route to a list or a detail (`/products/detail[/{id}]`, `/news[/{id}]`...).
pub const TYPED_LINKS: [&str; 5] = ["products", "training", "learn", "congress", "news"];

/// Other link types: sections of the app reached as `/{type}`, without an id.
pub const SECTION_LINKS: [&str; 10] = [
    "home",
    "documents",
    "search",
    "menu",
    "new",
    "useful",
    "multimedia",
    "contacts",
    "privacy",
    "congresses",
];

/// Longest title or update name, in characters.
pub const MAX_TITLE_LEN: usize = 200;
/// Longest message, in bytes of HTML (before sanitising).
pub const MAX_MESSAGE_LEN: usize = 20_000;
/// Longest url of an image or link.
pub const MAX_URL_LEN: usize = 2_000;
/// Longest release label ("2.6.0").
pub const MAX_RELEASE_LEN: usize = 50;
/// Most images in an update's gallery.
pub const MAX_GALLERY: usize = 20;
/// Most chosen recipients of one notification.
pub const MAX_RECIPIENTS: usize = 1_000;

/// Where a notification leads: `{type, id}` (spec 2.9's link table).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Link {
    #[serde(rename = "type")]
    pub kind: String,
    pub id: Option<i64>,
}

/// Who a notification is for, as recorded: everyone, or users by id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Audience {
    Everyone,
    Users { user_ids: Vec<String> },
}

impl Audience {
    pub fn includes(&self, user_id: &str) -> bool {
        match self {
            Audience::Everyone => true,
            Audience::Users { user_ids } => user_ids.iter().any(|u| u == user_id),
        }
    }
}

/// Who a notification is for, as asked: everyone, or users by e-mail.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub enum AudienceRequest {
    Everyone,
    Emails(Vec<String>),
}

/// Why a publication is refused. Each message is shown to the admin as is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PublishError {
    #[error("The title is required")]
    TitleRequired,
    #[error("The name is required")]
    NameRequired,
    #[error("The release is required")]
    ReleaseRequired,
    #[error("The message is required")]
    MessageRequired,
    #[error("The {0} is too long")]
    TooLong(&'static str),
    #[error("Unknown link type '{0}'")]
    BadLinkType(String),
    #[error("A link to {0} takes no id")]
    LinkIdNotAllowed(String),
    #[error("The link id must be a positive number")]
    BadLinkId,
    #[error("The {0} must be a path of this app (/...) or an http(s) address")]
    BadUrl(&'static str),
    #[error("Choose at least one recipient")]
    NoRecipient,
    #[error("Too many recipients (at most 1000)")]
    TooManyRecipients,
    #[error("No user with the e-mail {0}")]
    UnknownRecipient(String),
    #[error("The gallery needs at least one image")]
    GalleryRequired,
    #[error("The gallery has too many images (at most 20)")]
    TooManyImages,
    #[error("This has already been published")]
    AlreadyPublished,
    #[error("The users could not be read: {0}")]
    Directory(LookupError),
}

/// A required single-line text: trimmed, non-empty, at most `max` characters.
fn required_text(
    text: &str,
    max: usize,
    missing: PublishError,
    field: &'static str,
) -> Result<String, PublishError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(missing);
    }
    if text.chars().count() > max {
        return Err(PublishError::TooLong(field));
    }
    Ok(text.to_string())
}

/// An image or link address: a path of this app (`/media/...`, `/app/news/15`) or http(s).
/// Other schemes (`javascript:`, `data:`), protocol-relative `//host` and spaces are refused.
pub fn is_safe_url(url: &str) -> bool {
    if url.len() > MAX_URL_LEN || url.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return false;
    }
    if url.contains('\\') {
        return false;
    }
    if let Some(rest) = url.strip_prefix('/') {
        return !rest.starts_with('/');
    }
    let lower = url.to_ascii_lowercase();
    ["https://", "http://"].iter().any(|scheme| {
        lower
            .strip_prefix(scheme)
            .is_some_and(|host| !host.is_empty() && !host.starts_with('/'))
    })
}

/// An optional address: blank means none.
fn optional_url(url: Option<String>, field: &'static str) -> Result<Option<String>, PublishError> {
    match url.map(|u| u.trim().to_string()).filter(|u| !u.is_empty()) {
        None => Ok(None),
        Some(u) if is_safe_url(&u) => Ok(Some(u)),
        Some(_) => Err(PublishError::BadUrl(field)),
    }
}

/// Checks a link against the link table: a typed link may carry a positive id, a section link
/// none. The type is compared in lower case.
pub fn validate_link(link: Option<Link>) -> Result<Option<Link>, PublishError> {
    let Some(link) = link else {
        return Ok(None);
    };
    let kind = link.kind.trim().to_ascii_lowercase();
    if kind.is_empty() {
        // An empty type means "no link", as the form sends it.
        return Ok(None);
    }
    if TYPED_LINKS.contains(&kind.as_str()) {
        if link.id.is_some_and(|id| id <= 0) {
            return Err(PublishError::BadLinkId);
        }
        return Ok(Some(Link { kind, id: link.id }));
    }
    if SECTION_LINKS.contains(&kind.as_str()) {
        if link.id.is_some() {
            return Err(PublishError::LinkIdNotAllowed(kind));
        }
        return Ok(Some(Link { kind, id: None }));
    }
    Err(PublishError::BadLinkType(
        link.kind.trim().chars().take(40).collect(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn safe_urls() {
        for ok in [
            "/media/updates/a.svg",
            "/app/news/15",
            "https://example.com/x.png",
            "http://example.com",
        ] {
            assert!(is_safe_url(ok), "{ok}");
        }
        for bad in [
            "javascript:alert(1)",
            "//evil.example/x",
            "data:image/png;base64,xx",
            "https://",
            "https:///x",
            "/a b",
            "\\\\evil",
            "media/x.svg",
            "ftp://example.com",
        ] {
            assert!(!is_safe_url(bad), "{bad}");
        }
    }

    #[test]
    fn link_table() {
        let link = |kind: &str, id: Option<i64>| {
            Some(Link {
                kind: kind.into(),
                id,
            })
        };
        assert_eq!(
            validate_link(link("Products", Some(3))),
            Ok(link("products", Some(3)))
        );
        assert_eq!(validate_link(link("news", None)), Ok(link("news", None)));
        assert_eq!(
            validate_link(link("useful", None)),
            Ok(link("useful", None))
        );
        assert_eq!(validate_link(link("  ", Some(3))), Ok(None));
        assert_eq!(validate_link(None), Ok(None));
        assert_eq!(
            validate_link(link("javascript", None)),
            Err(PublishError::BadLinkType("javascript".into()))
        );
        assert_eq!(
            validate_link(link("login", None)),
            Err(PublishError::BadLinkType("login".into()))
        );
        assert_eq!(
            validate_link(link("useful", Some(2))),
            Err(PublishError::LinkIdNotAllowed("useful".into()))
        );
        assert_eq!(
            validate_link(link("news", Some(0))),
            Err(PublishError::BadLinkId)
        );
    }
}
