//! `useful/links.json`.

use std::path::Path;

use serde::Deserialize;

use super::check::{json, not_blank, unique, Media};
use crate::catalogue::useful::UsefulLink;
use crate::content_folder::file::{ContentError, ContentFile};
use crate::content_folder::tables::TableRows;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LinkIn {
    id: i64,
    title: String,
    link: String,
    image: String,
}

pub(super) fn read(dir: &Path, media: &Media<'_>) -> Result<TableRows, ContentError> {
    let fu = ContentFile::new(dir, "useful/links.json");
    let links: Vec<LinkIn> = fu.read()?;
    unique(&fu, &links, |l| l.id)?;
    let mut tu = TableRows::new("useful_links", &["id", "position", "data"]);
    for (i, l) in links.iter().enumerate() {
        not_blank(&fu, format!("[{i}].title"), &l.title)?;
        if !(l.link.starts_with("https://") || l.link.starts_with("http://")) {
            return Err(fu.invalid(
                format!("[{i}].link"),
                format!("'{}' must be an http(s) address", l.link),
            ));
        }
        media.check(&fu, &format!("[{i}].image"), &l.image)?;
        let link = UsefulLink {
            id: l.id,
            title: l.title.clone(),
            link: l.link.clone(),
            image: l.image.clone(),
        };
        tu.push(vec![l.id.into(), (i as i64).into(), json(&link).into()]);
    }
    Ok(tu)
}

#[cfg(test)]
mod tests {
    use super::super::check::TestContent;
    use super::*;

    fn refusal(links: &str) -> String {
        let content = TestContent::new();
        content
            .media("/media/l.svg")
            .write("useful/links.json", links);
        let media = Media { dir: content.dir() };
        content.refusal(read(content.dir(), &media).err().expect("refused"))
    }

    #[test]
    fn a_link_must_be_http_and_its_image_must_exist() {
        let link = |href: &str, image: &str| {
            format!(r#"[{{"id": 1, "title": "Society", "link": "{href}", "image": "{image}"}}]"#)
        };
        assert_eq!(
            refusal(&link("javascript:alert(1)", "/media/l.svg")),
            "useful/links.json: links[0].link: 'javascript:alert(1)' must be an http(s) address"
        );
        assert_eq!(
            refusal(&link("https://example.org", "/media/none.svg")),
            "useful/links.json: links[0].image: image /media/none.svg does not exist"
        );
        assert_eq!(
            refusal(&link("https://example.org", "/media/l.svg").replace("\"id\": 1", "\"id\": 0")),
            "useful/links.json: links[0].id: id 0 must be positive"
        );
    }
}
