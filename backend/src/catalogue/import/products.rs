//! `catalogue/products.json`, `catalogue/components.json` and `catalogue/catalogues.json`.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use serde::Deserialize;

use super::check::{date, json, non_empty, not_blank, unique, Media};
use super::library::Library;
use super::tree::{CategoryIn, ListedProduct, Tree};
use crate::catalogue::products::*;
use crate::catalogue::FilterOption;
use crate::content_folder::file::{ContentError, ContentFile};
use crate::content_folder::tables::{Arg, TableRows};
use crate::html::sanitize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProductIn {
    id: i64,
    /// Written by the content tool; must agree with `parent_id` when present.
    #[serde(default)]
    parent_first_level: Option<bool>,
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
#[serde(deny_unknown_fields)]
struct RelatedIn {
    products: Vec<RelatedRef>,
}

#[derive(Deserialize)]
struct RelatedRef {
    id: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InDepthIn {
    carousel: Option<InDepthCarousel>,
    page: InDepthPageIn,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InDepthPageIn {
    title: String,
    sections: Vec<InDepthSection>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AttachmentIn {
    name: String,
    files: Vec<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ComponentIn {
    id: i64,
    /// Written by the content tool; must be the parent product's name when present.
    #[serde(default)]
    parent_name: Option<String>,
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
#[serde(deny_unknown_fields)]
struct CataloguesIn {
    title: String,
    documents: Vec<i64>,
}

/// The rows of the product and component tables, and the products as pages list them.
pub(super) struct Products {
    pub products: TableRows,
    pub components: TableRows,
    pub list_items: Vec<ListedProduct>,
}

pub(super) fn read(
    dir: &Path,
    media: &Media<'_>,
    tree: &Tree,
    library: &Library,
    meta: &mut TableRows,
) -> Result<Products, ContentError> {
    let fp = ContentFile::new(dir, "catalogue/products.json");
    let products: Vec<ProductIn> = fp.read()?;
    unique(&fp, &products, |p| p.id)?;
    let prod_by: HashMap<i64, &ProductIn> = products.iter().map(|p| (p.id, p)).collect();
    let fco = ContentFile::new(dir, "catalogue/components.json");
    let components: Vec<ComponentIn> = fco.read()?;
    unique(&fco, &components, |c| c.id)?;
    let comp_by: HashMap<i64, &ComponentIn> = components.iter().map(|c| (c.id, c)).collect();

    let neighbours = Neighbours {
        media,
        tree,
        library,
        products: &prod_by,
        components: &comp_by,
    };
    let mut list_items = Vec::new();
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
        let checked = check_product(&fp, &neighbours, i, p)?;
        tp.push(vec![
            p.id.into(),
            p.parent_id.into(),
            p.subcategory.clone().into(),
            p.order.into(),
            p.release_date.clone().into(),
            p.name.clone().into(),
            json(&checked.item).into(),
            json(&checked.details).into(),
            json(&checked.attachments).into(),
            Arg::OptText(checked.in_depth.as_ref().map(json)),
            json(&checked.components).into(),
        ]);
        list_items.push(ListedProduct {
            parent_id: p.parent_id,
            order: p.order,
            name: p.name.clone(),
            item: checked.item,
        });
    }

    let mut tco = TableRows::new(
        "catalogue_components",
        &["id", "parent_id", "position", "details"],
    );
    let mut codes: HashMap<&str, i64> = HashMap::new();
    for (i, c) in components.iter().enumerate() {
        not_blank(&fco, format!("[{i}].title"), &c.title)?;
        let parent = prod_by.get(&c.parent_id).ok_or_else(|| {
            fco.invalid(
                format!("[{i}].parent_id"),
                format!("product {} does not exist", c.parent_id),
            )
        })?;
        if c.parent_name.as_ref().is_some_and(|n| *n != parent.name) {
            return Err(fco.invalid(
                format!("[{i}].parent_name"),
                format!(
                    "must be '{}', the name of product {}",
                    parent.name, c.parent_id
                ),
            ));
        }
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
                let field = format!("[{i}].variants[{j}].variants[{k}].code");
                not_blank(&fco, field.clone(), &v.code)?;
                // A code orders one thing: the same code on two variants is a typing error.
                if let Some(other) = codes.insert(v.code.as_str(), c.id) {
                    return Err(fco.invalid(
                        field,
                        format!("code '{}' is also a variant of component {other}", v.code),
                    ));
                }
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

    let fca = ContentFile::new(dir, "catalogue/catalogues.json");
    let catalogues: CataloguesIn = fca.read()?;
    let catalogues = Catalogues {
        title: catalogues.title.clone(),
        documents: library.documents(&fca, "documents".into(), &catalogues.documents)?,
    };
    meta.push(vec!["products.catalogues".into(), json(&catalogues).into()]);

    Ok(Products {
        products: tp,
        components: tco,
        list_items,
    })
}

/// What one product entry becomes.
struct CheckedProduct {
    item: ListItem,
    details: ProductDetails,
    attachments: ProductAttachments,
    in_depth: Option<InDepthPage>,
    components: ProductComponents,
}

/// What a product is checked against: everything read before it.
struct Neighbours<'a> {
    media: &'a Media<'a>,
    tree: &'a Tree,
    library: &'a Library,
    products: &'a HashMap<i64, &'a ProductIn>,
    components: &'a HashMap<i64, &'a ComponentIn>,
}

/// Where a product sits in the tree.
struct Placement<'a> {
    parent_first_level: bool,
    parent_category: Option<&'a CategoryIn>,
    subcategory_label: Option<String>,
}

/// Checks product `i` and builds what it becomes.
fn check_product(
    fp: &ContentFile,
    n: &Neighbours<'_>,
    i: usize,
    p: &ProductIn,
) -> Result<CheckedProduct, ContentError> {
    not_blank(fp, format!("[{i}].name"), &p.name)?;
    let placement = check_placement(fp, n.tree, i, p)?;
    check_pictures(fp, n.media, i, p)?;
    let related = related_products(fp, n.products, i, p)?;
    if let Some(d) = &p.in_depth {
        check_in_depth(fp, n.media, i, d)?;
    }
    let groups = p
        .attachments
        .iter()
        .enumerate()
        .map(|(j, a)| {
            Ok(AttachmentGroup {
                name: a.name.clone(),
                files: n.library.documents(
                    fp,
                    format!("[{i}].attachments[{j}].files"),
                    &a.files,
                )?,
            })
        })
        .collect::<Result<Vec<_>, ContentError>>()?;
    let comp_items = component_items(fp, n.components, i, p)?;

    let Placement {
        parent_first_level,
        parent_category,
        subcategory_label,
    } = placement;
    let item = ListItem {
        id: p.id,
        kind: "product".into(),
        name: p.name.clone(),
        preview: p.preview.clone(),
        red_label: None,
        category: subcategory_label.or_else(|| parent_category.map(|c| c.name.clone())),
    };
    let details = ProductDetails {
        id: p.id,
        name: p.name.clone(),
        parent_id: p.parent_id,
        parent_first_level,
        parent_name: n.tree.parent_name(p.parent_id),
        preview: p.preview.clone(),
        description: sanitize(&p.description),
        images: p.images.clone(),
        videos: p.videos.clone(),
        benefits: p.benefits.clone(),
        disclaimers: sanitize(&p.disclaimers),
        banner: p.banner.clone(),
        related_products: RelatedProducts { products: related },
        in_depth: p.in_depth.as_ref().map(|d| InDepthSummary {
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
    Ok(CheckedProduct {
        item,
        details,
        attachments,
        in_depth: p.in_depth.as_ref().map(|d| in_depth_page(p, d)),
        components: ProductComponents {
            id: p.id,
            name: p.name.clone(),
            list: comp_items,
        },
    })
}

/// The product's id is its own, its parent exists and its subcategory is one of the parent's.
fn check_placement<'t>(
    fp: &ContentFile,
    tree: &'t Tree,
    i: usize,
    p: &ProductIn,
) -> Result<Placement<'t>, ContentError> {
    let w = |field: &str| format!("[{i}].{field}");
    if tree.segment(p.id).is_some() || tree.category(p.id).is_some() {
        return Err(fp.invalid(
            w("id"),
            format!("id {} is also a segment or category id", p.id),
        ));
    }
    let parent_first_level = tree.segment(p.parent_id).is_some();
    let parent_category = tree.category(p.parent_id);
    if !parent_first_level && parent_category.is_none() {
        return Err(fp.invalid(
            w("parent_id"),
            format!("category {} does not exist", p.parent_id),
        ));
    }
    if p.parent_first_level
        .is_some_and(|f| f != parent_first_level)
    {
        return Err(fp.invalid(
            w("parent_first_level"),
            format!("must be {parent_first_level} for parent {}", p.parent_id),
        ));
    }
    let subcategory_label = match &p.subcategory {
        Some(s) => Some(
            parent_category
                .into_iter()
                .flat_map(|c| c.subcategories.iter())
                .find(|o: &&FilterOption| &o.query_value() == s)
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
    Ok(Placement {
        parent_first_level,
        parent_category,
        subcategory_label,
    })
}

/// The release date, and every picture of the product (preview, images, video previews,
/// banner) exists; a video has a url or a code.
fn check_pictures(
    fp: &ContentFile,
    media: &Media<'_>,
    i: usize,
    p: &ProductIn,
) -> Result<(), ContentError> {
    date(fp, format!("[{i}].release_date"), &p.release_date)?;
    media.check(fp, &format!("[{i}].preview"), &p.preview)?;
    if p.images.is_empty() {
        return Err(fp.invalid(format!("[{i}].images"), "needs at least one image"));
    }
    for (j, img) in p.images.iter().enumerate() {
        media.check(fp, &format!("[{i}].images[{j}]"), img)?;
    }
    for (j, v) in p.videos.iter().enumerate() {
        media.check(fp, &format!("[{i}].videos[{j}].preview"), &v.preview)?;
        if non_empty(v.code.clone()).is_none() && non_empty(v.url.clone()).is_none() {
            return Err(fp.invalid(format!("[{i}].videos[{j}]"), "needs a url or a code"));
        }
    }
    if let Some(b) = &p.banner {
        media.check(fp, &format!("[{i}].banner.banner"), &b.banner)?;
    }
    Ok(())
}

/// The related products, each as the other product shows itself.
fn related_products(
    fp: &ContentFile,
    products: &HashMap<i64, &ProductIn>,
    i: usize,
    p: &ProductIn,
) -> Result<Vec<RelatedProduct>, ContentError> {
    let listed = p
        .related_products
        .as_ref()
        .map(|r| r.products.as_slice())
        .unwrap_or_default();
    listed
        .iter()
        .enumerate()
        .map(|(j, r)| {
            let other = products.get(&r.id).ok_or_else(|| {
                fp.invalid(
                    format!("[{i}].relatedProducts.products[{j}].id"),
                    format!("product {} does not exist", r.id),
                )
            })?;
            Ok(RelatedProduct {
                id: other.id,
                name: other.name.clone(),
                image: other.images[0].clone(),
            })
        })
        .collect()
}

/// The product's components, each of which names this product as its parent.
fn component_items(
    fp: &ContentFile,
    components: &HashMap<i64, &ComponentIn>,
    i: usize,
    p: &ProductIn,
) -> Result<Vec<ComponentItem>, ContentError> {
    p.components
        .iter()
        .enumerate()
        .map(|(j, c)| {
            let comp = components.get(c).ok_or_else(|| {
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
            Ok(ComponentItem {
                id: comp.id,
                title: comp.title.clone(),
                preview: comp.gallery.first().map(|g| g.big.clone()),
                material: comp.material.clone(),
                sterile: comp.sterile,
            })
        })
        .collect()
}

/// The in-depth page as served, its rich text sanitised.
fn in_depth_page(p: &ProductIn, d: &InDepthIn) -> InDepthPage {
    InDepthPage {
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
    }
}

/// Section paths and feature anchors are unique, and every carousel link lands on one.
fn check_in_depth(
    fp: &ContentFile,
    media: &Media<'_>,
    i: usize,
    d: &InDepthIn,
) -> Result<(), ContentError> {
    let mut anchors: HashMap<&str, HashSet<&str>> = HashMap::new();
    for (j, s) in d.page.sections.iter().enumerate() {
        let sw = format!("[{i}].inDepth.page.sections[{j}]");
        not_blank(fp, format!("{sw}.path"), &s.path)?;
        if anchors.contains_key(s.path.as_str()) {
            return Err(fp.invalid(
                format!("{sw}.path"),
                format!("duplicate section path '{}'", s.path),
            ));
        }
        media.check(fp, &format!("{sw}.content.image"), &s.content.image)?;
        let set = anchors.entry(s.path.as_str()).or_default();
        for (k, fe) in s.features.iter().enumerate() {
            media.check(fp, &format!("{sw}.features[{k}].image"), &fe.image)?;
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
            media.check(fp, &format!("{cw}.image"), &it.image)?;
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
    Ok(())
}

#[cfg(test)]
#[path = "products_tests.rs"]
mod tests;
