//! Reads the catalogue's content files, checks them and builds the rows of its tables.
//!
//! Files (relative to the content folder): `documents/library.json` (+ the files it names),
//! `catalogue/{segments,categories,products,components,catalogues,filters}.json`,
//! `news/{news,filters}.json`, `contacts/{contacts,subsidiaries}.json`, `useful/links.json`,
//! `multimedia/{videos,images,filters}.json`. Every reference between them is checked, every
//! image path must exist under `media/`, and rich text is sanitised here, once.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

use serde::Deserialize;

use super::contacts::{ContactSection, Subsidiary, Voice};
use super::html::sanitize;
use super::multimedia::{MultimediaFilters, MultimediaImage, MultimediaVideo};
use super::news::{NewsDetail, NewsItem};
use super::products::*;
use super::useful::UsefulLink;
use super::{DocumentItem, FilterOption};
use crate::content::{Arg, ContentError, ContentFile, TableRows};

/// Order values the category call knows how to sort by.
const KNOWN_ORDERS: [&str; 5] = ["featured", "az", "za", "newest", "oldest"];

// ---- content file shapes ---------------------------------------------------------------------

#[derive(Deserialize)]
struct LibraryDoc {
    id: i64,
    title: String,
    name: String,
    #[serde(default)]
    subtitle: String,
    category: Option<String>,
    size: String,
    #[serde(default)]
    languages_in_file: String,
    #[serde(default)]
    code_points: String,
    file: String,
    for_internal_use: bool,
    controlled_release: bool,
    upon_request: bool,
}

#[derive(Deserialize)]
struct SegmentIn {
    id: i64,
    name: String,
    preview: String,
    red_label: Option<String>,
    categories: Vec<i64>,
    #[serde(default)]
    thinkclinical: Vec<i64>,
}

#[derive(Deserialize)]
struct CategoryIn {
    id: i64,
    name: String,
    preview: String,
    red_label: Option<String>,
    parent_id: i64,
    #[serde(default)]
    subcategories: Vec<FilterOption>,
}

#[derive(Deserialize)]
struct ProductIn {
    id: i64,
    name: String,
    parent_id: i64,
    subcategory: Option<String>,
    order: i64,
    release_date: String,
    preview: String,
    description: String,
    images: Vec<String>,
    #[serde(default)]
    videos: Vec<Video>,
    #[serde(default)]
    benefits: Vec<String>,
    #[serde(default)]
    disclaimers: String,
    banner: Option<Banner>,
    #[serde(rename = "relatedProducts", default)]
    related_products: Option<RelatedIn>,
    #[serde(rename = "inDepth")]
    in_depth: Option<InDepthIn>,
    #[serde(default)]
    attachments: Vec<AttachmentIn>,
    #[serde(default)]
    components: Vec<i64>,
}

#[derive(Deserialize)]
struct RelatedIn {
    products: Vec<RelatedRef>,
}

#[derive(Deserialize)]
struct RelatedRef {
    id: i64,
}

#[derive(Deserialize)]
struct InDepthIn {
    carousel: Option<InDepthCarousel>,
    page: InDepthPageIn,
}

#[derive(Deserialize)]
struct InDepthPageIn {
    title: String,
    sections: Vec<InDepthSection>,
}

#[derive(Deserialize)]
struct AttachmentIn {
    name: String,
    files: Vec<i64>,
}

#[derive(Deserialize)]
struct ComponentIn {
    id: i64,
    title: String,
    parent_id: i64,
    gallery: Vec<GalleryImage>,
    material: String,
    sterile: bool,
    #[serde(default)]
    notes: String,
    variants: Vec<VariantGroup>,
}

#[derive(Deserialize)]
struct CataloguesIn {
    title: String,
    documents: Vec<i64>,
}

#[derive(Deserialize)]
struct ProductFiltersIn {
    order: Vec<FilterOption>,
}

#[derive(Deserialize)]
struct NewsIn {
    id: i64,
    title: String,
    date: String,
    preview: String,
    description: String,
    category: String,
}

#[derive(Deserialize)]
struct NewsFiltersIn {
    category: Vec<FilterOption>,
}

#[derive(Deserialize)]
struct SubsidiaryIn {
    title: String,
    address: Option<String>,
    phone: Option<String>,
    fax: Option<String>,
    email: Option<String>,
}

#[derive(Deserialize)]
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
struct MultimediaFiltersIn {
    videos: MultimediaFilters,
    images: MultimediaFilters,
}

// ---- helpers -----------------------------------------------------------------------------------

/// Checks media paths (`/media/...`) against the content folder.
struct Media<'a> {
    dir: &'a Path,
}

impl Media<'_> {
    fn check(&self, file: &ContentFile, field: &str, path: &str) -> Result<(), ContentError> {
        let rel = path
            .strip_prefix("/media/")
            .filter(|r| !r.is_empty() && !r.split('/').any(|p| p == ".." || p.is_empty()))
            .ok_or_else(|| file.invalid(field, format!("'{path}' must be a path under /media/")))?;
        if !self.dir.join("media").join(rel).is_file() {
            return Err(file.invalid(field, format!("image {path} does not exist")));
        }
        Ok(())
    }
}

fn unique<T>(file: &ContentFile, items: &[T], id: impl Fn(&T) -> i64) -> Result<(), ContentError> {
    let mut seen = HashSet::new();
    for (i, item) in items.iter().enumerate() {
        let v = id(item);
        if v <= 0 {
            return Err(file.invalid(format!("[{i}].id"), format!("id {v} must be positive")));
        }
        if !seen.insert(v) {
            return Err(file.invalid(format!("[{i}].id"), format!("duplicate id {v}")));
        }
    }
    Ok(())
}

fn not_blank(file: &ContentFile, field: String, value: &str) -> Result<(), ContentError> {
    if value.trim().is_empty() {
        return Err(file.invalid(field, "must not be empty"));
    }
    Ok(())
}

fn date(file: &ContentFile, field: String, value: &str) -> Result<i32, ContentError> {
    use chrono::Datelike;
    chrono::NaiveDate::parse_from_str(value, "%Y-%m-%d")
        .map(|d| d.year())
        .map_err(|_| file.invalid(field, format!("'{value}' is not a date (YYYY-MM-DD)")))
}

fn json<T: serde::Serialize>(value: &T) -> String {
    // Serialising our own plain structs cannot fail.
    serde_json::to_string(value).unwrap_or_else(|_| "null".into())
}

fn non_empty(s: Option<String>) -> Option<String> {
    s.map(|v| v.trim().to_string()).filter(|v| !v.is_empty())
}

/// Reads and checks every file of the catalogue family and returns the full rows of its tables.
pub fn read(dir: &Path) -> Result<Vec<TableRows>, ContentError> {
    let media = Media { dir };
    let mut tables = Vec::new();

    // ---- library documents
    let f = ContentFile::new(dir, "documents/library.json");
    let library: Vec<LibraryDoc> = f.read()?;
    unique(&f, &library, |d| d.id)?;
    let mut docs: HashMap<i64, DocumentItem> = HashMap::new();
    let mut t = TableRows::new(
        "library_documents",
        &[
            "id",
            "category",
            "position",
            "item",
            "file_name",
            "content_type",
            "bytes",
        ],
    );
    for (i, d) in library.iter().enumerate() {
        not_blank(&f, format!("[{i}].title"), &d.title)?;
        let rel = d
            .file
            .strip_prefix("/files/")
            .filter(|r| !r.is_empty() && !r.split('/').any(|p| p == ".." || p.is_empty()))
            .ok_or_else(|| {
                f.invalid(
                    format!("[{i}].file"),
                    format!("'{}' must be a path under /files/", d.file),
                )
            })?;
        let content_type = if rel.ends_with(".pdf") {
            "application/pdf"
        } else if rel.ends_with(".xls") {
            "application/vnd.ms-excel"
        } else {
            return Err(f.invalid(
                format!("[{i}].file"),
                "only .pdf and .xls documents are accepted",
            ));
        };
        let bytes = std::fs::read(dir.join("files").join(rel)).map_err(|_| {
            f.invalid(
                format!("[{i}].file"),
                format!("file {} does not exist", d.file),
            )
        })?;
        let magic_ok = if content_type == "application/pdf" {
            bytes.starts_with(b"%PDF-")
        } else {
            bytes.starts_with(&[0xD0, 0xCF, 0x11, 0xE0])
        };
        if !magic_ok {
            return Err(f.invalid(
                format!("[{i}].file"),
                format!(
                    "{} is not a valid {} file",
                    d.file,
                    if content_type == "application/pdf" {
                        "PDF"
                    } else {
                        "XLS"
                    }
                ),
            ));
        }
        let item = DocumentItem {
            id: d.id,
            kind: "file".into(),
            title: d.title.clone(),
            name: d.name.clone(),
            subtitle: d.subtitle.clone(),
            size: d.size.clone(),
            languages_in_file: d.languages_in_file.clone(),
            code_points: d.code_points.clone(),
            url: format!("/api/library/{}/file", d.id),
            actions: Vec::new(),
            for_internal_use: d.for_internal_use,
            controlled_release: d.controlled_release,
            upon_request: d.upon_request,
        };
        t.push(vec![
            d.id.into(),
            d.category.clone().into(),
            (i as i64).into(),
            json(&item).into(),
            d.name.clone().into(),
            content_type.into(),
            bytes.into(),
        ]);
        docs.insert(d.id, item);
    }
    tables.push(t);
    let doc_list = |file: &ContentFile,
                    field: String,
                    ids: &[i64]|
     -> Result<Vec<DocumentItem>, ContentError> {
        ids.iter()
            .enumerate()
            .map(|(j, id)| {
                docs.get(id).cloned().ok_or_else(|| {
                    file.invalid(
                        format!("{field}[{j}]"),
                        format!("document {id} does not exist in documents/library.json"),
                    )
                })
            })
            .collect()
    };

    // ---- segments, categories
    let fs = ContentFile::new(dir, "catalogue/segments.json");
    let segments: Vec<SegmentIn> = fs.read()?;
    unique(&fs, &segments, |s| s.id)?;
    let fc = ContentFile::new(dir, "catalogue/categories.json");
    let categories: Vec<CategoryIn> = fc.read()?;
    unique(&fc, &categories, |c| c.id)?;
    let seg_by: HashMap<i64, (usize, &SegmentIn)> = segments
        .iter()
        .enumerate()
        .map(|(i, s)| (s.id, (i, s)))
        .collect();
    let cat_by: HashMap<i64, (usize, &CategoryIn)> = categories
        .iter()
        .enumerate()
        .map(|(i, c)| (c.id, (i, c)))
        .collect();
    for (i, c) in categories.iter().enumerate() {
        not_blank(&fc, format!("[{i}].name"), &c.name)?;
        media.check(&fc, &format!("[{i}].preview"), &c.preview)?;
        if seg_by.contains_key(&c.id) {
            return Err(fc.invalid(
                format!("[{i}].id"),
                format!("id {} is also a segment id", c.id),
            ));
        }
        if !seg_by.contains_key(&c.parent_id) && !cat_by.contains_key(&c.parent_id) {
            return Err(fc.invalid(
                format!("[{i}].parent_id"),
                format!("segment or category {} does not exist", c.parent_id),
            ));
        }
        if c.parent_id == c.id {
            return Err(fc.invalid(
                format!("[{i}].parent_id"),
                "a category cannot be its own parent",
            ));
        }
    }
    for (i, s) in segments.iter().enumerate() {
        not_blank(&fs, format!("[{i}].name"), &s.name)?;
        media.check(&fs, &format!("[{i}].preview"), &s.preview)?;
        for (j, c) in s.categories.iter().enumerate() {
            match cat_by.get(c) {
                None => {
                    return Err(fs.invalid(
                        format!("[{i}].categories[{j}]"),
                        format!("category {c} does not exist"),
                    ))
                }
                Some((_, cat)) if cat.parent_id != s.id => {
                    return Err(fs.invalid(
                        format!("[{i}].categories[{j}]"),
                        format!(
                            "category {c} has parent_id {}, not this segment",
                            cat.parent_id
                        ),
                    ))
                }
                _ => {}
            }
        }
    }

    // ---- products, components
    let fp = ContentFile::new(dir, "catalogue/products.json");
    let products: Vec<ProductIn> = fp.read()?;
    unique(&fp, &products, |p| p.id)?;
    let prod_by: HashMap<i64, &ProductIn> = products.iter().map(|p| (p.id, p)).collect();
    let fco = ContentFile::new(dir, "catalogue/components.json");
    let components: Vec<ComponentIn> = fco.read()?;
    unique(&fco, &components, |c| c.id)?;
    let comp_by: HashMap<i64, &ComponentIn> = components.iter().map(|c| (c.id, c)).collect();
    let ff = ContentFile::new(dir, "catalogue/filters.json");
    let filters: ProductFiltersIn = ff.read()?;
    for (i, o) in filters.order.iter().enumerate() {
        if !KNOWN_ORDERS.contains(&o.query_value().as_str()) {
            return Err(ff.invalid(
                format!("order[{i}].value"),
                format!(
                    "unknown order '{}' (known: {})",
                    o.query_value(),
                    KNOWN_ORDERS.join(", ")
                ),
            ));
        }
    }

    let parent_name = |id: i64| -> String {
        seg_by
            .get(&id)
            .map(|(_, s)| s.name.clone())
            .or_else(|| cat_by.get(&id).map(|(_, c)| c.name.clone()))
            .unwrap_or_default()
    };

    let mut product_items: HashMap<i64, ListItem> = HashMap::new();
    let mut tp = TableRows::new(
        "catalogue_products",
        &[
            "id",
            "parent_id",
            "subcategory",
            "sort_order",
            "release_date",
            "name",
            "item",
            "details",
            "attachments",
            "indepth",
            "components",
        ],
    );
    for (i, p) in products.iter().enumerate() {
        let w = |field: &str| format!("[{i}].{field}");
        not_blank(&fp, w("name"), &p.name)?;
        if seg_by.contains_key(&p.id) || cat_by.contains_key(&p.id) {
            return Err(fp.invalid(
                w("id"),
                format!("id {} is also a segment or category id", p.id),
            ));
        }
        let parent_first_level = seg_by.contains_key(&p.parent_id);
        let parent_cat = cat_by.get(&p.parent_id).map(|(_, c)| *c);
        if !parent_first_level && parent_cat.is_none() {
            return Err(fp.invalid(
                w("parent_id"),
                format!("category {} does not exist", p.parent_id),
            ));
        }
        let subs: Vec<&FilterOption> = parent_cat
            .map(|c| c.subcategories.iter().collect())
            .unwrap_or_default();
        let sub_label = match &p.subcategory {
            Some(s) => Some(
                subs.iter()
                    .find(|o| &o.query_value() == s)
                    .map(|o| o.label.clone())
                    .ok_or_else(|| {
                        fp.invalid(
                            w("subcategory"),
                            format!("'{s}' is not a subcategory of category {}", p.parent_id),
                        )
                    })?,
            ),
            None => None,
        };
        date(&fp, w("release_date"), &p.release_date)?;
        media.check(&fp, &w("preview"), &p.preview)?;
        if p.images.is_empty() {
            return Err(fp.invalid(w("images"), "needs at least one image"));
        }
        for (j, img) in p.images.iter().enumerate() {
            media.check(&fp, &format!("[{i}].images[{j}]"), img)?;
        }
        for (j, v) in p.videos.iter().enumerate() {
            media.check(&fp, &format!("[{i}].videos[{j}].preview"), &v.preview)?;
            if non_empty(v.code.clone()).is_none() && non_empty(v.url.clone()).is_none() {
                return Err(fp.invalid(format!("[{i}].videos[{j}]"), "needs a url or a code"));
            }
        }
        if let Some(b) = &p.banner {
            media.check(&fp, &w("banner.banner"), &b.banner)?;
        }
        let mut related = Vec::new();
        for (j, r) in p
            .related_products
            .as_ref()
            .map(|r| r.products.as_slice())
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            let other = prod_by.get(&r.id).ok_or_else(|| {
                fp.invalid(
                    format!("[{i}].relatedProducts.products[{j}].id"),
                    format!("product {} does not exist", r.id),
                )
            })?;
            related.push(RelatedProduct {
                id: other.id,
                name: other.name.clone(),
                image: other.images[0].clone(),
            });
        }
        let in_depth = match &p.in_depth {
            None => None,
            Some(d) => {
                let mut anchors: HashMap<&str, HashSet<&str>> = HashMap::new();
                for (j, s) in d.page.sections.iter().enumerate() {
                    let sw = format!("[{i}].inDepth.page.sections[{j}]");
                    not_blank(&fp, format!("{sw}.path"), &s.path)?;
                    if anchors.contains_key(s.path.as_str()) {
                        return Err(fp.invalid(
                            format!("{sw}.path"),
                            format!("duplicate section path '{}'", s.path),
                        ));
                    }
                    media.check(&fp, &format!("{sw}.content.image"), &s.content.image)?;
                    let set = anchors.entry(s.path.as_str()).or_default();
                    for (k, fe) in s.features.iter().enumerate() {
                        media.check(&fp, &format!("{sw}.features[{k}].image"), &fe.image)?;
                        if !set.insert(fe.anchor.as_str()) {
                            return Err(fp.invalid(
                                format!("{sw}.features[{k}].anchor"),
                                format!("duplicate anchor '{}'", fe.anchor),
                            ));
                        }
                    }
                }
                if let Some(c) = &d.carousel {
                    for (j, it) in c.items.iter().enumerate() {
                        let cw = format!("[{i}].inDepth.carousel.items[{j}]");
                        media.check(&fp, &format!("{cw}.image"), &it.image)?;
                        let ok = anchors.get(it.link.path.as_str()).is_some_and(|a| {
                            it.link
                                .anchor
                                .as_deref()
                                .is_none_or(|x| x.is_empty() || a.contains(x))
                        });
                        if !ok {
                            return Err(fp.invalid(
                                format!("{cw}.link"),
                                format!(
                                    "section '{}' anchor '{}' does not exist on the in-depth page",
                                    it.link.path,
                                    it.link.anchor.clone().unwrap_or_default()
                                ),
                            ));
                        }
                    }
                }
                Some(d)
            }
        };
        let mut groups = Vec::new();
        for (j, a) in p.attachments.iter().enumerate() {
            groups.push(AttachmentGroup {
                name: a.name.clone(),
                files: doc_list(&fp, format!("[{i}].attachments[{j}].files"), &a.files)?,
            });
        }
        let mut comp_items = Vec::new();
        for (j, c) in p.components.iter().enumerate() {
            let comp = comp_by.get(c).ok_or_else(|| {
                fp.invalid(
                    format!("[{i}].components[{j}]"),
                    format!("component {c} does not exist"),
                )
            })?;
            if comp.parent_id != p.id {
                return Err(fp.invalid(
                    format!("[{i}].components[{j}]"),
                    format!("component {c} belongs to product {}", comp.parent_id),
                ));
            }
            comp_items.push(ComponentItem {
                id: comp.id,
                title: comp.title.clone(),
                preview: comp.gallery.first().map(|g| g.big.clone()),
                material: comp.material.clone(),
                sterile: comp.sterile,
            });
        }

        let category_label = sub_label
            .clone()
            .or_else(|| parent_cat.map(|c| c.name.clone()));
        let item = ListItem {
            id: p.id,
            kind: "product".into(),
            name: p.name.clone(),
            preview: p.preview.clone(),
            red_label: None,
            category: category_label,
        };
        let details = ProductDetails {
            id: p.id,
            name: p.name.clone(),
            parent_id: p.parent_id,
            parent_first_level,
            parent_name: parent_name(p.parent_id),
            preview: p.preview.clone(),
            description: sanitize(&p.description),
            images: p.images.clone(),
            videos: p.videos.clone(),
            benefits: p.benefits.clone(),
            disclaimers: sanitize(&p.disclaimers),
            banner: p.banner.clone(),
            related_products: RelatedProducts { products: related },
            in_depth: in_depth.map(|d| InDepthSummary {
                carousel: d.carousel.clone(),
            }),
            has_attachments: !groups.is_empty(),
            has_components: !comp_items.is_empty(),
        };
        let attachments = ProductAttachments {
            id: p.id,
            name: p.name.clone(),
            parent_id: p.parent_id,
            parent_first_level,
            attachments: groups,
        };
        let indepth = in_depth.map(|d| InDepthPage {
            id: p.id,
            name: p.name.clone(),
            title: d.page.title.clone(),
            sections: d
                .page
                .sections
                .iter()
                .map(|s| InDepthSection {
                    label: s.label.clone(),
                    path: s.path.clone(),
                    content: SectionContent {
                        image: s.content.image.clone(),
                        title: s.content.title.clone(),
                        main_text: sanitize(&s.content.main_text),
                        sub_text: sanitize(&s.content.sub_text),
                    },
                    features: s
                        .features
                        .iter()
                        .map(|fe| Feature {
                            description: sanitize(&fe.description),
                            ..fe.clone()
                        })
                        .collect(),
                })
                .collect(),
        });
        let comps = ProductComponents {
            id: p.id,
            name: p.name.clone(),
            list: comp_items,
        };
        tp.push(vec![
            p.id.into(),
            p.parent_id.into(),
            p.subcategory.clone().into(),
            p.order.into(),
            p.release_date.clone().into(),
            p.name.clone().into(),
            json(&item).into(),
            json(&details).into(),
            json(&attachments).into(),
            Arg::OptText(indepth.as_ref().map(json)),
            json(&comps).into(),
        ]);
        product_items.insert(p.id, item);
    }

    let mut tco = TableRows::new(
        "catalogue_components",
        &["id", "parent_id", "position", "details"],
    );
    for (i, c) in components.iter().enumerate() {
        not_blank(&fco, format!("[{i}].title"), &c.title)?;
        let parent = prod_by.get(&c.parent_id).ok_or_else(|| {
            fco.invalid(
                format!("[{i}].parent_id"),
                format!("product {} does not exist", c.parent_id),
            )
        })?;
        if !parent.components.contains(&c.id) {
            return Err(fco.invalid(
                format!("[{i}].parent_id"),
                format!("product {} does not list this component", c.parent_id),
            ));
        }
        for (j, g) in c.gallery.iter().enumerate() {
            media.check(&fco, &format!("[{i}].gallery[{j}].big"), &g.big)?;
        }
        for (j, g) in c.variants.iter().enumerate() {
            for (k, v) in g.variants.iter().enumerate() {
                not_blank(
                    &fco,
                    format!("[{i}].variants[{j}].variants[{k}].code"),
                    &v.code,
                )?;
            }
        }
        let details = ComponentDetails {
            id: c.id,
            title: c.title.clone(),
            parent_id: c.parent_id,
            parent_name: parent.name.clone(),
            gallery: c.gallery.clone(),
            material: c.material.clone(),
            sterile: c.sterile,
            notes: c.notes.clone(),
            variants: c.variants.clone(),
        };
        tco.push(vec![
            c.id.into(),
            c.parent_id.into(),
            (i as i64).into(),
            json(&details).into(),
        ]);
    }

    // Segment and category pages, now that products are known.
    let category_item = |c: &CategoryIn| ListItem {
        id: c.id,
        kind: "category".into(),
        name: c.name.clone(),
        preview: c.preview.clone(),
        red_label: non_empty(c.red_label.clone()),
        category: None,
    };
    let mut products_under: BTreeMap<i64, Vec<&ProductIn>> = BTreeMap::new();
    for p in &products {
        products_under.entry(p.parent_id).or_default().push(p);
    }
    for v in products_under.values_mut() {
        v.sort_by(|a, b| a.order.cmp(&b.order).then(a.name.cmp(&b.name)));
    }
    let mut ts = TableRows::new("catalogue_segments", &["id", "position", "item", "page"]);
    for (i, s) in segments.iter().enumerate() {
        let tile = SegmentTile {
            id: s.id,
            kind: "segment".into(),
            name: s.name.clone(),
            preview: s.preview.clone(),
            red_label: non_empty(s.red_label.clone()),
        };
        let mut entries: Vec<ListItem> = s
            .categories
            .iter()
            .filter_map(|c| cat_by.get(c))
            .map(|(_, c)| category_item(c))
            .collect();
        for p in products_under.get(&s.id).into_iter().flatten() {
            entries.push(product_items[&p.id].clone());
        }
        let grouped = s.name == SHOULDER_SEGMENT_NAME;
        let groups = if grouped {
            let (first, rest): (Vec<ListItem>, Vec<ListItem>) = entries
                .into_iter()
                .partition(|e| e.kind == "category" && SHOULDER_FIRST_CATEGORIES.contains(&e.id));
            let mut first = first;
            first.sort_by_key(|e| SHOULDER_FIRST_CATEGORIES.iter().position(|x| *x == e.id));
            vec![SegmentGroup { list: first }, SegmentGroup { list: rest }]
        } else {
            vec![SegmentGroup { list: entries }]
        };
        let page = SegmentPage {
            id: s.id,
            kind: "segment".into(),
            name: s.name.clone(),
            preview: s.preview.clone(),
            red_label: tile.red_label.clone(),
            list: groups.iter().flat_map(|g| g.list.clone()).collect(),
            grouped,
            groups,
            thinkclinical: doc_list(&fs, format!("[{i}].thinkclinical"), &s.thinkclinical)?,
        };
        ts.push(vec![
            s.id.into(),
            (i as i64).into(),
            json(&tile).into(),
            json(&page).into(),
        ]);
    }
    let mut tc = TableRows::new(
        "catalogue_categories",
        &["id", "parent_id", "position", "item", "page"],
    );
    for (i, c) in categories.iter().enumerate() {
        let base = CategoryBase {
            id: c.id,
            category_name: c.name.clone(),
            preview: c.preview.clone(),
            red_label: non_empty(c.red_label.clone()),
            parent_id: c.parent_id,
            parent_first_level: seg_by.contains_key(&c.parent_id),
            filters: CategoryFilters {
                order: filters.order.clone(),
                subcategory: c.subcategories.clone(),
            },
            categories: categories
                .iter()
                .filter(|x| x.parent_id == c.id)
                .map(category_item)
                .collect(),
        };
        tc.push(vec![
            c.id.into(),
            c.parent_id.into(),
            (i as i64).into(),
            json(&category_item(c)).into(),
            json(&base).into(),
        ]);
    }

    let fca = ContentFile::new(dir, "catalogue/catalogues.json");
    let catalogues: CataloguesIn = fca.read()?;
    let catalogues = Catalogues {
        title: catalogues.title.clone(),
        documents: doc_list(&fca, "documents".into(), &catalogues.documents)?,
    };
    let mut meta = TableRows::new("catalogue_meta", &["key", "data"]);
    meta.push(vec!["products.catalogues".into(), json(&catalogues).into()]);

    tables.push(ts);
    tables.push(tc);
    tables.push(tp);
    tables.push(tco);

    // ---- news
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
        &["id", "date", "year", "category", "item", "details"],
    );
    for (i, n) in news.iter().enumerate() {
        not_blank(&fn_, format!("[{i}].title"), &n.title)?;
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
        ]);
    }
    tables.push(tn);

    // ---- contacts
    let fcs = ContentFile::new(dir, "contacts/contacts.json");
    let sections: Vec<ContactSection> = fcs.read()?;
    let fsub = ContentFile::new(dir, "contacts/subsidiaries.json");
    let subsidiaries: BTreeMap<String, SubsidiaryIn> = fsub.read()?;
    let mut voice_ids = HashSet::new();
    let mut tsec = TableRows::new("contact_sections", &["id", "position", "data"]);
    for (i, s) in sections.iter().enumerate() {
        not_blank(&fcs, format!("[{i}].tab"), &s.tab)?;
        for (j, v) in s.voices.iter().enumerate() {
            if !voice_ids.insert(v.id) {
                return Err(fcs.invalid(
                    format!("[{i}].voices[{j}].id"),
                    format!("duplicate id {}", v.id),
                ));
            }
            if !subsidiaries.contains_key(&v.id.to_string()) {
                return Err(fcs.invalid(
                    format!("[{i}].voices[{j}].id"),
                    format!("entry {} has no detail in contacts/subsidiaries.json", v.id),
                ));
            }
        }
        let section = ContactSection {
            tab: s.tab.clone(),
            voices: s
                .voices
                .iter()
                .map(|v| Voice {
                    id: v.id,
                    title: v.title.clone(),
                    subtitle: v.subtitle.clone(),
                })
                .collect(),
        };
        tsec.push(vec![
            (i as i64 + 1).into(),
            (i as i64).into(),
            json(&section).into(),
        ]);
    }
    let mut tsub = TableRows::new("contact_subsidiaries", &["id", "data"]);
    for (key, s) in &subsidiaries {
        let id: i64 = key
            .parse()
            .ok()
            .filter(|id| voice_ids.contains(id))
            .ok_or_else(|| {
                fsub.invalid(
                    key.as_str(),
                    format!("'{key}' is not an entry id of contacts/contacts.json"),
                )
            })?;
        not_blank(&fsub, format!("{key}.title"), &s.title)?;
        let detail = Subsidiary {
            id,
            title: s.title.clone(),
            address: non_empty(s.address.clone())
                .map(|a| sanitize(&a))
                .filter(|a| !a.is_empty()),
            phone: non_empty(s.phone.clone()),
            fax: non_empty(s.fax.clone()),
            email: non_empty(s.email.clone()),
        };
        tsub.push(vec![id.into(), json(&detail).into()]);
    }
    tables.push(tsec);
    tables.push(tsub);

    // ---- useful links
    let fu = ContentFile::new(dir, "useful/links.json");
    let links: Vec<UsefulLink> = fu.read()?;
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
        tu.push(vec![l.id.into(), (i as i64).into(), json(l).into()]);
    }
    tables.push(tu);

    // ---- multimedia
    let fmf = ContentFile::new(dir, "multimedia/filters.json");
    let mm_filters: MultimediaFiltersIn = fmf.read()?;
    for (kind, f) in [
        ("videos", &mm_filters.videos),
        ("images", &mm_filters.images),
    ] {
        for (j, o) in f.segment.iter().enumerate() {
            if !o.value.as_i64().is_some_and(|s| seg_by.contains_key(&s)) {
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
        json(&mm_filters.videos).into(),
    ]);
    meta.push(vec![
        "multimedia.images.filters".into(),
        json(&mm_filters.images).into(),
    ]);
    let offered =
        |f: &MultimediaFilters, segment: i64, category: &str, year: i64| -> Option<&'static str> {
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
        };
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
        if let Some(field) = offered(&mm_filters.videos, v.segment, &v.category, v.year) {
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
        if let Some(field) = offered(&mm_filters.images, m.segment, &m.category, m.year) {
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
    tables.push(tv);
    tables.push(ti);
    tables.push(meta);
    Ok(tables)
}
