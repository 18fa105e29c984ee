//! `news/news.json` and `news/filters.json`.

use std::path::Path;

use serde::Deserialize;

use super::check::{date, json, not_blank, unique, Media};
use crate::catalogue::news::{NewsDetail, NewsItem};
use crate::catalogue::FilterOption;
use crate::content_folder::file::{ContentError, ContentFile};
use crate::content_folder::tables::TableRows;
use crate::html::sanitize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewsIn {
    id: i64,
    title: String,
    date: String,
    preview: String,
    description: String,
    category: String,
    /// Hidden from reps before this time (RFC 3339 or `YYYY-MM-DD`).
    #[serde(default)]
    release_at: Option<String>,
    /// Hidden from reps from this time on.
    #[serde(default)]
    expires_at: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewsFiltersIn {
    category: Vec<FilterOption>,
    /// Not used: the years offered are those of the news (`GET /api/news`).
    #[serde(default, rename = "year")]
    _year: Vec<FilterOption>,
}

pub(super) fn read(
    dir: &Path,
    media: &Media<'_>,
    meta: &mut TableRows,
) -> Result<TableRows, ContentError> {
    let fnf = ContentFile::new(dir, "news/filters.json");
    let news_filters: NewsFiltersIn = fnf.read()?;
    meta.push(vec![
        "news.categories".into(),
        json(&news_filters.category).into(),
    ]);
    let fn_ = ContentFile::new(dir, "news/news.json");
    let news: Vec<NewsIn> = fn_.read()?;
    unique(&fn_, &news, |n| n.id)?;
    let mut tn = TableRows::new(
        "news",
        &[
            "id",
            "date",
            "year",
            "category",
            "item",
            "details",
            "release_at",
            "expires_at",
        ],
    );
    for (i, n) in news.iter().enumerate() {
        not_blank(&fn_, format!("[{i}].title"), &n.title)?;
        let instant = |field: &str, text: &Option<String>| match text.as_deref() {
            None => Ok(None),
            Some(t) => crate::content_folder::dates::parse_instant_ms(t)
                .map(Some)
                .map_err(|e| fn_.invalid(format!("[{i}].{field}"), e.to_string())),
        };
        let release_at = instant("release_at", &n.release_at)?;
        let expires_at = instant("expires_at", &n.expires_at)?;
        if let (Some(r), Some(e)) = (release_at, expires_at) {
            if e <= r {
                return Err(fn_.invalid(format!("[{i}].expires_at"), "must be after release_at"));
            }
        }
        let year = date(&fn_, format!("[{i}].date"), &n.date)?;
        media.check(&fn_, &format!("[{i}].preview"), &n.preview)?;
        if !news_filters
            .category
            .iter()
            .any(|o| o.query_value() == n.category)
        {
            return Err(fn_.invalid(
                format!("[{i}].category"),
                format!("category '{}' is not in news/filters.json", n.category),
            ));
        }
        let item = NewsItem {
            id: n.id,
            title: n.title.clone(),
            date: n.date.clone(),
            preview: n.preview.clone(),
            category: n.category.clone(),
        };
        let detail = NewsDetail {
            id: n.id,
            title: n.title.clone(),
            date: n.date.clone(),
            preview: n.preview.clone(),
            category: n.category.clone(),
            description: sanitize(&n.description),
        };
        tn.push(vec![
            n.id.into(),
            n.date.clone().into(),
            i64::from(year).into(),
            n.category.clone().into(),
            json(&item).into(),
            json(&detail).into(),
            release_at.into(),
            expires_at.into(),
        ]);
    }
    Ok(tn)
}

#[cfg(test)]
mod tests {
    use super::super::check::TestContent;
    use super::*;

    const ONE: &str = r#"{"id": 1, "title": "Launch", "date": "2026-03-01", "preview": "/media/n.svg",
        "description": "<p>Hi<script>x()</script></p>", "category": "events"}"#;

    fn content(news: &str) -> TestContent {
        let content = TestContent::new();
        content
            .media("/media/n.svg")
            .write(
                "news/filters.json",
                r#"{"category": [{"value": "events", "label": "Events"}]}"#,
            )
            .write("news/news.json", format!("[{news}]"));
        content
    }

    fn read_news(content: &TestContent) -> Result<TableRows, ContentError> {
        let media = Media { dir: content.dir() };
        read(
            content.dir(),
            &media,
            &mut TableRows::new("m", &["key", "data"]),
        )
    }

    fn refusal(news: &str) -> String {
        let content = content(news);
        content.refusal(read_news(&content).err().expect("refused"))
    }

    #[test]
    fn a_news_item_is_stored_with_its_year_and_sanitised_text() {
        let rows = read_news(&content(ONE)).expect("accepted");
        assert_eq!(rows.rows.len(), 1);
        assert_eq!(
            rows.rows[0][2],
            crate::content_folder::tables::Arg::Int(2026)
        );
        let crate::content_folder::tables::Arg::Text(details) = &rows.rows[0][5] else {
            panic!("details")
        };
        assert!(!details.contains("<script"), "{details}");
    }

    #[test]
    fn each_broken_rule_is_refused_with_its_field() {
        assert_eq!(
            refusal(&ONE.replace("2026-03-01", "01/03/2026")),
            "news/news.json: news[0].date: '01/03/2026' is not a date (YYYY-MM-DD)"
        );
        assert_eq!(
            refusal(&ONE.replace("\"events\"", "\"gossip\"")),
            "news/news.json: news[0].category: category 'gossip' is not in news/filters.json"
        );
        assert_eq!(
            refusal(&ONE.replace("/media/n.svg", "/media/gone.svg")),
            "news/news.json: news[0].preview: image /media/gone.svg does not exist"
        );
        assert_eq!(
            refusal(&ONE.replace("/media/n.svg", "https://elsewhere/n.svg")),
            "news/news.json: news[0].preview: 'https://elsewhere/n.svg' must be a path under /media/"
        );
        assert_eq!(
            refusal(&ONE.replace("\"Launch\"", "\"\"")),
            "news/news.json: news[0].title: must not be empty"
        );
        assert_eq!(
            refusal(&format!("{ONE}, {ONE}")),
            "news/news.json: news[1].id: duplicate id 1"
        );
        assert!(
            refusal(&ONE.replace("\"id\": 1,", "\"id\": 1, \"author\": \"x\","))
                .starts_with("news/news.json: news[0].author: unknown field `author`")
        );
    }
}
