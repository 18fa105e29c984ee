//! What is pushed: one message per feed entry of the kinds below, with a title, a short text
//! and the app link (`{type, id}`, and the screen it opens as `url`). Never a document's
//! contents: a share names the item and who shared it, a notification its title and the
//! start of its text.
//!
//! | feed kind | title | link | opens |
//! |---|---|---|---|
//! | `shared_arrival` (file) | Shared with you | `{type: "documents", id}` | `/documents?tab=shared` |
//! | `shared_arrival` (folder) | Shared with you | `{type: "documents", id}` | `/documents/folder/{id}?type=shared` |
//! | `notification` | the notification's title | `{type: "notification", id}` | `/new?section=notifications&notification={id}` |
//! | `app_update` | App update | `{type: "update", id}` | `/new/update/{id}` |
//! | `course_registered` | Course registration confirmed | `{type: "learn", id}` | `/learn/{id}` |

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The feed kinds that are pushed.
pub const PUSHED_KINDS: &[&str] = &[
    "shared_arrival",
    "notification",
    "app_update",
    crate::feed::COURSE_REGISTERED,
    "share_opened",
];

/// A push service keeps at most 4 KB; the encrypted record adds a little.
const MAX_TITLE: usize = 80;
const MAX_BODY: usize = 160;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AppLink {
    #[serde(rename = "type")]
    pub kind: String,
    pub id: Value,
}

/// The JSON the service worker receives (`web/public/push-sw.js` shows it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PushMessage {
    pub title: String,
    pub body: String,
    pub link: AppLink,
    /// The in-app address the notification opens.
    pub url: String,
    /// Messages with the same tag replace each other on the device.
    pub tag: String,
    /// `Urgency` of RFC 8030: `low`, `normal` or `high`.
    #[serde(skip)]
    pub urgency: &'static str,
}

fn cut(text: &str, max: usize) -> String {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().count() <= max {
        return text;
    }
    let mut out: String = text.chars().take(max - 1).collect();
    out.push('…');
    out
}

/// The text of sanitised HTML.
fn plain(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => {
                in_tag = true;
                out.push(' ');
            }
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    html_escape::decode_html_entities(&out).into_owned()
}

fn str_of<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty())
}

/// The push for a feed entry, or `None` for a kind that is not pushed (or a payload it cannot
/// read).
pub fn for_feed(kind: &str, payload: &str) -> Option<PushMessage> {
    let payload: Value = serde_json::from_str(payload).ok()?;
    match kind {
        "shared_arrival" => {
            let item = payload.get("item")?;
            let id = str_of(item, "id")?;
            let title = str_of(item, "title").or_else(|| str_of(item, "name"))?;
            let owner = str_of(item, "owner").unwrap_or("A colleague");
            let folder = str_of(item, "type") == Some("folder");
            let (body, url) = if folder {
                (
                    format!("{owner} shared the folder “{title}” with you."),
                    format!("/documents/folder/{}?type=shared", url_escape(id)),
                )
            } else {
                (
                    format!("{owner} shared “{title}” with you."),
                    "/documents?tab=shared".to_string(),
                )
            };
            Some(PushMessage {
                title: "Shared with you".into(),
                body: cut(&body, MAX_BODY),
                link: AppLink {
                    kind: "documents".into(),
                    id: Value::from(id),
                },
                url,
                tag: format!("shared-{id}"),
                urgency: "normal",
            })
        }
        "notification" => {
            let n = payload.get("notification")?;
            let id = n.get("id")?.as_i64()?;
            let text = plain(str_of(n, "message").unwrap_or_default());
            Some(PushMessage {
                title: cut(str_of(n, "title").unwrap_or("New notification"), MAX_TITLE),
                body: if text.trim().is_empty() {
                    "Open it in What's New.".into()
                } else {
                    cut(&text, MAX_BODY)
                },
                link: AppLink {
                    kind: "notification".into(),
                    id: Value::from(id),
                },
                url: format!("/new?section=notifications&notification={id}"),
                tag: format!("notification-{id}"),
                urgency: "normal",
            })
        }
        "app_update" => {
            let u = payload.get("update")?;
            let id = u.get("id")?.as_i64()?;
            let name = str_of(u, "name").unwrap_or("A new version");
            Some(PushMessage {
                title: "App update".into(),
                body: cut(&format!("{name}: see what is new in the app."), MAX_BODY),
                link: AppLink {
                    kind: "update".into(),
                    id: Value::from(id),
                },
                url: format!("/new/update/{id}"),
                tag: format!("update-{id}"),
                urgency: "low",
            })
        }
        crate::feed::COURSE_REGISTERED => {
            let c = payload.get("course")?;
            let id = c.get("id")?.as_i64()?;
            let title = str_of(c, "title").unwrap_or("the course");
            Some(PushMessage {
                title: "Course registration confirmed".into(),
                body: cut(
                    &format!("You have been registered to the course “{title}”."),
                    MAX_BODY,
                ),
                link: AppLink {
                    kind: "learn".into(),
                    id: Value::from(id),
                },
                url: format!("/learn/{id}"),
                tag: format!("course-{id}"),
                urgency: "normal",
            })
        }
        "share_opened" => {
            let share = str_of(&payload, "share")?;
            let item = str_of(&payload, "item")?;
            let recipient = str_of(&payload, "recipient")?;
            let title = str_of(&payload, "title").unwrap_or("your document");
            Some(PushMessage {
                title: "Link opened".into(),
                body: cut(&format!("{recipient} opened \"{title}\""), MAX_BODY),
                link: AppLink {
                    kind: "shares".into(),
                    id: Value::from(item),
                },
                // The document's Shares screen, where the open is counted.
                url: format!("/documents/{item}/shares"),
                tag: format!("share-{share}"),
                urgency: "normal",
            })
        }
        _ => None,
    }
}

fn url_escape(id: &str) -> String {
    url::form_urlencoded::byte_serialize(id.as_bytes()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_opened_link_names_the_recipient_and_the_document() {
        let payload = json!({"share": "s-1", "item": "a-1", "title": "Surgical technique",
            "recipient": "dr.who@clinic.example", "at": 5, "first": true});
        let m = for_feed("share_opened", &payload.to_string()).unwrap();
        assert_eq!(m.title, "Link opened");
        assert_eq!(
            m.body,
            "dr.who@clinic.example opened \"Surgical technique\""
        );
        assert_eq!(m.tag, "share-s-1");
        assert_eq!(m.url, "/documents/a-1/shares");
        assert!(for_feed("share_engagement", &payload.to_string()).is_none());
    }

    #[test]
    fn a_shared_file_names_the_item_and_who_shared_it_never_its_contents() {
        let payload = json!({"item": {"id": "a-1", "type": "file", "title": "Arcadia case notes",
            "owner": "John Miller", "url": "/api/documents/a-1/file"}});
        let m = for_feed("shared_arrival", &payload.to_string()).unwrap();
        assert_eq!(m.title, "Shared with you");
        assert_eq!(m.body, "John Miller shared “Arcadia case notes” with you.");
        assert_eq!(
            m.link,
            AppLink {
                kind: "documents".into(),
                id: json!("a-1")
            }
        );
        assert_eq!(m.url, "/documents?tab=shared");
        let folder = json!({"item": {"id": "f 2", "type": "folder", "title": "Planning"}});
        let m = for_feed("shared_arrival", &folder.to_string()).unwrap();
        assert_eq!(m.body, "A colleague shared the folder “Planning” with you.");
        assert_eq!(m.url, "/documents/folder/f+2?type=shared");
    }

    #[test]
    fn a_notification_carries_its_title_the_start_of_its_text_and_opens_itself() {
        let long = "word ".repeat(100);
        let payload = json!({"notification": {"id": 7, "title": "Field safety notice",
            "message": format!("<p>Please <b>read</b> &amp; act.</p><p>{long}</p>")}});
        let m = for_feed("notification", &payload.to_string()).unwrap();
        assert_eq!(m.title, "Field safety notice");
        assert!(m.body.starts_with("Please read & act. word"), "{}", m.body);
        assert!(m.body.chars().count() <= MAX_BODY && m.body.ends_with('…'));
        assert_eq!(m.url, "/new?section=notifications&notification=7");
        assert_eq!(
            m.link,
            AppLink {
                kind: "notification".into(),
                id: json!(7)
            }
        );
    }

    #[test]
    fn updates_and_registrations_open_their_screens_and_other_kinds_are_not_pushed() {
        let u = for_feed(
            "app_update",
            &json!({"update": {"id": 3, "name": "Version 2"}}).to_string(),
        )
        .unwrap();
        assert_eq!((u.url.as_str(), u.urgency), ("/new/update/3", "low"));
        let c = for_feed(
            crate::feed::COURSE_REGISTERED,
            &json!({"course": {"id": 12, "title": "Hip arthroplasty"}}).to_string(),
        )
        .unwrap();
        assert_eq!(
            c.body,
            "You have been registered to the course “Hip arthroplasty”."
        );
        assert_eq!(
            c.link,
            AppLink {
                kind: "learn".into(),
                id: json!(12)
            }
        );
        assert!(for_feed("badge", r#"{"name":"shared","count":1}"#).is_none());
        assert!(for_feed("notification", "not json").is_none());
    }
}
