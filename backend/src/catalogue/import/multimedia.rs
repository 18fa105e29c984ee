//! `multimedia/videos.json`, `multimedia/images.json` and `multimedia/filters.json`.

use std::path::Path;

use serde::Deserialize;

use super::check::{json, non_empty, unique, Media};
use super::tree::Tree;
use crate::catalogue::multimedia::{MultimediaFilters, MultimediaImage, MultimediaVideo};
use crate::content_folder::file::{ContentError, ContentFile};
use crate::content_folder::tables::TableRows;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VideoIn {
    id: i64,
    label: String,
    title: String,
    preview: String,
    preview_image: String,
    url: Option<String>,
    code: Option<String>,
    #[serde(default)]
    hero: bool,
    segment: i64,
    category: String,
    year: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ImageIn {
    id: i64,
    preview: String,
    hd: String,
    image: String,
    img: String,
    label: String,
    #[serde(default)]
    text: String,
    segment: i64,
    category: String,
    year: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MultimediaFiltersIn {
    videos: MultimediaFilters,
    images: MultimediaFilters,
}

/// The filter an entry's value is not offered by, if any.
fn not_offered(
    f: &MultimediaFilters,
    segment: i64,
    category: &str,
    year: i64,
) -> Option<&'static str> {
    if !f.segment.iter().any(|o| o.value.as_i64() == Some(segment)) {
        return Some("segment");
    }
    if !f.category.iter().any(|o| o.query_value() == category) {
        return Some("category");
    }
    if !f.year.iter().any(|o| o.value.as_i64() == Some(year)) {
        return Some("year");
    }
    None
}

/// Returns the rows of the video and image tables; the filters go to `meta`.
pub(super) fn read(
    dir: &Path,
    media: &Media<'_>,
    tree: &Tree,
    meta: &mut TableRows,
) -> Result<(TableRows, TableRows), ContentError> {
    let fmf = ContentFile::new(dir, "multimedia/filters.json");
    let filters: MultimediaFiltersIn = fmf.read()?;
    for (kind, f) in [("videos", &filters.videos), ("images", &filters.images)] {
        for (j, o) in f.segment.iter().enumerate() {
            if o.value.as_i64().is_none_or(|s| tree.segment(s).is_none()) {
                return Err(fmf.invalid(
                    format!("{kind}.segment[{j}].value"),
                    format!("segment {} does not exist", o.value),
                ));
            }
        }
        for (j, o) in f.year.iter().enumerate() {
            if o.value.as_i64().is_none() {
                return Err(
                    fmf.invalid(format!("{kind}.year[{j}].value"), "a year must be a number")
                );
            }
        }
    }
    meta.push(vec![
        "multimedia.videos.filters".into(),
        json(&filters.videos).into(),
    ]);
    meta.push(vec![
        "multimedia.images.filters".into(),
        json(&filters.images).into(),
    ]);
    let videos = read_videos(dir, media, &filters.videos)?;
    let images = read_images(dir, media, &filters.images)?;
    Ok((videos, images))
}

fn read_videos(
    dir: &Path,
    media: &Media<'_>,
    filters: &MultimediaFilters,
) -> Result<TableRows, ContentError> {
    let fv = ContentFile::new(dir, "multimedia/videos.json");
    let videos: Vec<VideoIn> = fv.read()?;
    unique(&fv, &videos, |v| v.id)?;
    let mut tv = TableRows::new(
        "multimedia_videos",
        &[
            "id", "position", "segment", "category", "year", "hero", "data",
        ],
    );
    for (i, v) in videos.iter().enumerate() {
        media.check(&fv, &format!("[{i}].preview"), &v.preview)?;
        media.check(&fv, &format!("[{i}].preview_image"), &v.preview_image)?;
        if non_empty(v.code.clone()).is_none() && non_empty(v.url.clone()).is_none() {
            return Err(fv.invalid(format!("[{i}]"), "needs a url or a code"));
        }
        if let Some(field) = not_offered(filters, v.segment, &v.category, v.year) {
            return Err(fv.invalid(
                format!("[{i}].{field}"),
                format!("value not offered in multimedia/filters.json videos.{field}"),
            ));
        }
        let item = MultimediaVideo {
            id: v.id,
            label: v.label.clone(),
            title: v.title.clone(),
            preview: v.preview.clone(),
            preview_image: v.preview_image.clone(),
            url: non_empty(v.url.clone()),
            code: non_empty(v.code.clone()),
            hero: v.hero,
        };
        tv.push(vec![
            v.id.into(),
            (i as i64).into(),
            v.segment.into(),
            v.category.clone().into(),
            v.year.into(),
            v.hero.into(),
            json(&item).into(),
        ]);
    }
    if videos.iter().filter(|v| v.hero).count() > 1 {
        return Err(fv.invalid("hero", "at most one video can be the hero"));
    }
    Ok(tv)
}

fn read_images(
    dir: &Path,
    media: &Media<'_>,
    filters: &MultimediaFilters,
) -> Result<TableRows, ContentError> {
    let fi = ContentFile::new(dir, "multimedia/images.json");
    let images: Vec<ImageIn> = fi.read()?;
    unique(&fi, &images, |v| v.id)?;
    let mut ti = TableRows::new(
        "multimedia_images",
        &["id", "position", "segment", "category", "year", "data"],
    );
    for (i, m) in images.iter().enumerate() {
        for (field, path) in [
            ("preview", &m.preview),
            ("hd", &m.hd),
            ("image", &m.image),
            ("img", &m.img),
        ] {
            media.check(&fi, &format!("[{i}].{field}"), path)?;
        }
        if let Some(field) = not_offered(filters, m.segment, &m.category, m.year) {
            return Err(fi.invalid(
                format!("[{i}].{field}"),
                format!("value not offered in multimedia/filters.json images.{field}"),
            ));
        }
        let item = MultimediaImage {
            id: m.id,
            preview: m.preview.clone(),
            hd: m.hd.clone(),
            image: m.image.clone(),
            img: m.img.clone(),
            label: m.label.clone(),
            text: m.text.clone(),
        };
        ti.push(vec![
            m.id.into(),
            (i as i64).into(),
            m.segment.into(),
            m.category.clone().into(),
            m.year.into(),
            json(&item).into(),
        ]);
    }
    Ok(ti)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filters() -> MultimediaFilters {
        serde_json::from_str(
            r#"{"segment": [{"value": 1, "label": "Hip"}],
                "category": [{"value": "surgery", "label": "Surgery"}],
                "year": [{"value": 2026, "label": "2026"}]}"#,
        )
        .expect("filters")
    }

    #[test]
    fn an_entry_must_use_offered_filter_values() {
        let f = filters();
        assert_eq!(not_offered(&f, 1, "surgery", 2026), None);
        assert_eq!(not_offered(&f, 2, "surgery", 2026), Some("segment"));
        assert_eq!(not_offered(&f, 1, "talk", 2026), Some("category"));
        assert_eq!(not_offered(&f, 1, "surgery", 2025), Some("year"));
    }
}
