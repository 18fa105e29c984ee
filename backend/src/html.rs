//! Rich text from the content folder, made safe once at import time.
//!
//! Only a small set of tags survives (p, strong, em, ul, ol, li, a[href], h3, h4, br, img[src]);
//! links keep http(s), mailto and tel targets and relative paths. Empty paragraphs, which
//! editors leave behind (`<p></p>`, `<p>&nbsp;</p>`, `<p><br></p>`), are removed.

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

fn cleaner() -> &'static ammonia::Builder<'static> {
    static CLEANER: OnceLock<ammonia::Builder<'static>> = OnceLock::new();
    CLEANER.get_or_init(|| {
        let tags: HashSet<&str> = [
            "p", "strong", "em", "ul", "ol", "li", "a", "h3", "h4", "br", "img",
        ]
        .into_iter()
        .collect();
        let mut attributes: HashMap<&str, HashSet<&str>> = HashMap::new();
        attributes.insert("a", ["href"].into_iter().collect());
        attributes.insert("img", ["src"].into_iter().collect());
        let mut builder = ammonia::Builder::default();
        builder
            .tags(tags)
            .tag_attributes(attributes)
            .generic_attributes(HashSet::new())
            .url_schemes(["http", "https", "mailto", "tel"].into_iter().collect())
            .url_relative(ammonia::UrlRelative::PassThrough)
            .link_rel(Some("noopener noreferrer"));
        builder
    })
}

/// Sanitises an HTML fragment and drops its empty paragraphs.
pub fn sanitize(html: &str) -> String {
    let clean = cleaner().clean(html).to_string();
    remove_empty_paragraphs(&clean)
}

/// The text of a rich-text fragment, for search words and calendar files: tags become spaces
/// (so words of adjacent blocks stay apart), entities are decoded, runs of space collapse.
pub fn plain_text(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => {
                in_tag = true;
                out.push(' ');
            }
            '>' if in_tag => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    html_escape::decode_html_entities(&out)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Removes `<p>` elements whose content is only whitespace, `&nbsp;` or `<br>`.
pub fn remove_empty_paragraphs(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(start) = rest.find("<p>") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 3..];
        match after.find("</p>") {
            Some(end) if is_blank(&after[..end]) => {
                rest = &after[end + 4..];
            }
            _ => {
                out.push_str("<p>");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

fn is_blank(inner: &str) -> bool {
    // Any other tag inside (even an empty <em>) keeps the paragraph.
    inner
        .replace("<br>", "")
        .replace("<br/>", "")
        .replace("<br />", "")
        .replace("&nbsp;", "")
        .replace('\u{a0}', "")
        .trim()
        .is_empty()
}

#[cfg(test)]
mod tests {

    #[test]
    fn plain_text_drops_tags_and_decodes_entities() {
        assert_eq!(
            plain_text("<p>Fish &amp; <strong>chips</strong></p><p>Tea</p>"),
            "Fish & chips Tea"
        );
        assert_eq!(
            plain_text("<p><strong>Arcadia</strong> restores&nbsp;the head</p><p></p>"),
            "Arcadia restores the head"
        );
        assert_eq!(plain_text("Hip & knee"), "Hip & knee");
        assert_eq!(plain_text("1 &lt; 2 &#8211; 3 > 2"), "1 < 2 \u{2013} 3 > 2");
        assert_eq!(plain_text("plain"), "plain");
    }
    use super::*;

    #[test]
    fn keeps_allowed_tags_and_drops_the_rest() {
        let html = r#"<p onclick="x()">Hi <strong>there</strong> <script>alert(1)</script><span>s</span></p><h4>T</h4><img src="/media/a.svg" onerror="x"><a href="javascript:alert(1)">j</a><a href="https://e.example/x">ok</a>"#;
        let out = sanitize(html);
        assert!(out.contains("<p>Hi <strong>there</strong> s</p>"), "{out}");
        assert!(out.contains("<h4>T</h4>"), "{out}");
        assert!(out.contains(r#"<img src="/media/a.svg">"#), "{out}");
        assert!(
            !out.contains("script") && !out.contains("onclick") && !out.contains("onerror"),
            "{out}"
        );
        assert!(!out.contains("javascript"), "{out}");
        assert!(out.contains(r#"href="https://e.example/x""#), "{out}");
    }

    #[test]
    fn removes_empty_paragraphs() {
        let html = "<p>a</p><p></p><p>&nbsp;</p><p><br></p><p> \u{a0} </p><p>b<br>c</p>";
        assert_eq!(sanitize(html), "<p>a</p><p>b<br>c</p>");
    }

    #[test]
    fn keeps_paragraphs_with_inline_content() {
        assert_eq!(
            remove_empty_paragraphs("<p><strong>x</strong></p><p><em></em></p>"),
            "<p><strong>x</strong></p><p><em></em></p>"
        );
    }
}
