//! The message HTML of a notification, cleaned with ammonia (an HTML5 parser and allow-list),
//! never with patterns.
//!
//! Kept: `p, br, strong, em, b, i, u, ul, ol, li, h3, h4, blockquote` and `a[href]` with http(s),
//! mailto or tel targets or a path of the app. Links get `rel="noopener noreferrer"`. Everything
//! else goes: scripts and styles with their content, event-handler attributes, other tags (their
//! text stays).

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

fn cleaner() -> &'static ammonia::Builder<'static> {
    static CLEANER: OnceLock<ammonia::Builder<'static>> = OnceLock::new();
    CLEANER.get_or_init(|| {
        let tags: HashSet<&str> = [
            "p",
            "br",
            "strong",
            "em",
            "b",
            "i",
            "u",
            "ul",
            "ol",
            "li",
            "h3",
            "h4",
            "blockquote",
            "a",
        ]
        .into_iter()
        .collect();
        let mut attributes: HashMap<&str, HashSet<&str>> = HashMap::new();
        attributes.insert("a", ["href"].into_iter().collect());
        let mut builder = ammonia::Builder::default();
        builder
            .tags(tags)
            .tag_attributes(attributes)
            .generic_attributes(HashSet::new())
            .url_schemes(["http", "https", "mailto", "tel"].into_iter().collect())
            .url_relative(ammonia::UrlRelative::PassThrough)
            .link_rel(Some("noopener noreferrer"))
            .strip_comments(true);
        builder
    })
}

/// The message made safe to show as HTML.
pub fn sanitize(html: &str) -> String {
    cleaner().clean(html).to_string().trim().to_string()
}

/// True when sanitised HTML shows some text (not only tags, spaces or `&nbsp;`).
pub fn has_text(html: &str) -> bool {
    let text = ammonia::Builder::empty().clean(html).to_string();
    let text = text.replace("&nbsp;", " ").replace('\u{a0}', " ");
    !text.trim().is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removes_scripts_and_handlers() {
        let clean = sanitize(
            r#"<p onclick="steal()">Hi <strong>all</strong></p><script>alert(1)</script><img src=x onerror=alert(2)><a href="javascript:alert(3)">x</a><style>p{}</style>"#,
        );
        assert_eq!(
            clean,
            "<p>Hi <strong>all</strong></p><a rel=\"noopener noreferrer\">x</a>"
        );
    }

    #[test]
    fn keeps_the_content_markup() {
        let html = "<p>The <em>Summit</em> is online.</p><ul><li>One</li></ul><p><a href=\"/news/15\">Read</a></p>";
        assert_eq!(
            sanitize(html),
            "<p>The <em>Summit</em> is online.</p><ul><li>One</li></ul><p><a href=\"/news/15\" rel=\"noopener noreferrer\">Read</a></p>"
        );
    }

    #[test]
    fn unknown_tags_keep_their_text() {
        assert_eq!(sanitize("<div><span>Text</span></div>"), "Text");
    }

    #[test]
    fn text_detection() {
        assert!(has_text("<p>a</p>"));
        assert!(!has_text("<p></p><p>&nbsp;</p><br>"));
        assert!(!has_text(&sanitize("<script>alert(1)</script>")));
    }
}
