//! `catalogue/segments.json`, `catalogue/categories.json` and `catalogue/filters.json`: the
//! tree products hang from, and the segment and category pages built once products are known.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use serde::Deserialize;

use super::check::{json, non_empty, not_blank, unique, Media};
use super::library::Library;
use crate::catalogue::products::{
    CategoryBase, CategoryFilters, ListItem, SegmentGroup, SegmentPage, SegmentTile,
    SHOULDER_FIRST_CATEGORIES, SHOULDER_SEGMENT_NAME,
};
use crate::catalogue::FilterOption;
use crate::content_folder::file::{ContentError, ContentFile};
use crate::content_folder::tables::TableRows;

/// Order values the category call knows how to sort by.
const KNOWN_ORDERS: [&str; 5] = ["featured", "az", "za", "newest", "oldest"];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SegmentIn {
    /// Written by the content tool; must say `segment` when present.
    #[serde(rename = "type", default)]
    kind: Option<String>,
    pub id: i64,
    pub name: String,
    preview: String,
    red_label: Option<String>,
    categories: Vec<i64>,
    #[serde(default)]
    thinkclinical: Vec<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CategoryIn {
    /// Written by the content tool; must say `category` when present.
    #[serde(rename = "type", default)]
    kind: Option<String>,
    /// Written by the content tool; must agree with `parent_id` when present.
    #[serde(default)]
    parent_first_level: Option<bool>,
    pub id: i64,
    pub name: String,
    preview: String,
    red_label: Option<String>,
    pub parent_id: i64,
    #[serde(default)]
    pub subcategories: Vec<FilterOption>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProductFiltersIn {
    order: Vec<FilterOption>,
}

/// A product as segment and category pages list it.
pub(super) struct ListedProduct {
    pub parent_id: i64,
    pub order: i64,
    pub name: String,
    pub item: ListItem,
}

/// The segments and categories, checked against each other.
pub(super) struct Tree {
    segments_file: ContentFile,
    pub segments: Vec<SegmentIn>,
    pub categories: Vec<CategoryIn>,
    order: Vec<FilterOption>,
}

pub(super) fn read(dir: &Path, media: &Media<'_>) -> Result<Tree, ContentError> {
    let fs = ContentFile::new(dir, "catalogue/segments.json");
    let segments: Vec<SegmentIn> = fs.read()?;
    unique(&fs, &segments, |s| s.id)?;
    let fc = ContentFile::new(dir, "catalogue/categories.json");
    let categories: Vec<CategoryIn> = fc.read()?;
    unique(&fc, &categories, |c| c.id)?;
    let tree = Tree {
        segments_file: fs,
        segments,
        categories,
        order: Vec::new(),
    };
    let fs = &tree.segments_file;
    for (i, c) in tree.categories.iter().enumerate() {
        not_blank(&fc, format!("[{i}].name"), &c.name)?;
        media.check(&fc, &format!("[{i}].preview"), &c.preview)?;
        if tree.segment(c.id).is_some() {
            return Err(fc.invalid(
                format!("[{i}].id"),
                format!("id {} is also a segment id", c.id),
            ));
        }
        if tree.segment(c.parent_id).is_none() && tree.category(c.parent_id).is_none() {
            return Err(fc.invalid(
                format!("[{i}].parent_id"),
                format!("segment or category {} does not exist", c.parent_id),
            ));
        }
        if c.kind.as_deref().is_some_and(|k| k != "category") {
            return Err(fc.invalid(format!("[{i}].type"), "must be 'category'"));
        }
        let first_level = tree.segment(c.parent_id).is_some();
        if c.parent_first_level.is_some_and(|f| f != first_level) {
            return Err(fc.invalid(
                format!("[{i}].parent_first_level"),
                format!(
                    "must be {first_level}: {} is {}",
                    c.parent_id,
                    if first_level {
                        "a segment"
                    } else {
                        "a category"
                    }
                ),
            ));
        }
        if c.parent_id == c.id {
            return Err(fc.invalid(
                format!("[{i}].parent_id"),
                "a category cannot be its own parent",
            ));
        }
    }
    for (i, s) in tree.segments.iter().enumerate() {
        not_blank(fs, format!("[{i}].name"), &s.name)?;
        media.check(fs, &format!("[{i}].preview"), &s.preview)?;
        if s.kind.as_deref().is_some_and(|k| k != "segment") {
            return Err(fs.invalid(format!("[{i}].type"), "must be 'segment'"));
        }
        for (j, c) in s.categories.iter().enumerate() {
            match tree.category(*c) {
                None => {
                    return Err(fs.invalid(
                        format!("[{i}].categories[{j}]"),
                        format!("category {c} does not exist"),
                    ))
                }
                Some(cat) if cat.parent_id != s.id => {
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
    let order = read_filters(dir)?;
    Ok(Tree { order, ..tree })
}

/// `catalogue/filters.json`: the orders a category page offers.
fn read_filters(dir: &Path) -> Result<Vec<FilterOption>, ContentError> {
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
    Ok(filters.order)
}

impl Tree {
    pub fn segment(&self, id: i64) -> Option<&SegmentIn> {
        self.segments.iter().find(|s| s.id == id)
    }

    pub fn category(&self, id: i64) -> Option<&CategoryIn> {
        self.categories.iter().find(|c| c.id == id)
    }

    /// The name of a segment or category.
    pub fn parent_name(&self, id: i64) -> String {
        self.segment(id)
            .map(|s| s.name.clone())
            .or_else(|| self.category(id).map(|c| c.name.clone()))
            .unwrap_or_default()
    }

    /// The rows of the segment and category tables, with the products listed under each.
    pub fn pages(
        &self,
        products: &[ListedProduct],
        library: &Library,
    ) -> Result<(TableRows, TableRows), ContentError> {
        let mut products_under: BTreeMap<i64, Vec<&ListedProduct>> = BTreeMap::new();
        for p in products {
            products_under.entry(p.parent_id).or_default().push(p);
        }
        for v in products_under.values_mut() {
            v.sort_by(|a, b| a.order.cmp(&b.order).then(a.name.cmp(&b.name)));
        }
        let by_id: HashMap<i64, &CategoryIn> = self.categories.iter().map(|c| (c.id, c)).collect();
        let mut ts = TableRows::new("catalogue_segments", &["id", "position", "item", "page"]);
        for (i, s) in self.segments.iter().enumerate() {
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
                .filter_map(|c| by_id.get(c))
                .map(|c| category_item(c))
                .collect();
            for p in products_under.get(&s.id).into_iter().flatten() {
                entries.push(p.item.clone());
            }
            let grouped = s.name == SHOULDER_SEGMENT_NAME;
            let groups = if grouped {
                let (mut first, rest): (Vec<ListItem>, Vec<ListItem>) =
                    entries.into_iter().partition(|e| {
                        e.kind == "category" && SHOULDER_FIRST_CATEGORIES.contains(&e.id)
                    });
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
                thinkclinical: library.documents(
                    &self.segments_file,
                    format!("[{i}].thinkclinical"),
                    &s.thinkclinical,
                )?,
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
        for (i, c) in self.categories.iter().enumerate() {
            let base = CategoryBase {
                id: c.id,
                category_name: c.name.clone(),
                preview: c.preview.clone(),
                red_label: non_empty(c.red_label.clone()),
                parent_id: c.parent_id,
                parent_first_level: self.segment(c.parent_id).is_some(),
                filters: CategoryFilters {
                    order: self.order.clone(),
                    subcategory: c.subcategories.clone(),
                },
                categories: self
                    .categories
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
        Ok((ts, tc))
    }
}

fn category_item(c: &CategoryIn) -> ListItem {
    ListItem {
        id: c.id,
        kind: "category".into(),
        name: c.name.clone(),
        preview: c.preview.clone(),
        red_label: non_empty(c.red_label.clone()),
        category: None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::check::TestContent;
    use super::*;

    /// Segment 1 with category 10; `categories` replaces the category list.
    fn tree_content(categories: &str) -> TestContent {
        let content = TestContent::new();
        content
            .media("/media/s.svg")
            .write(
                "catalogue/segments.json",
                r#"[{"id": 1, "name": "Hip", "preview": "/media/s.svg", "red_label": null, "categories": [10]}]"#,
            )
            .write("catalogue/categories.json", categories)
            .write(
                "catalogue/filters.json",
                r#"{"order": [{"value": "az", "label": "A-Z"}]}"#,
            );
        content
    }

    fn refusal(content: &TestContent) -> String {
        let media = Media { dir: content.dir() };
        content.refusal(read(content.dir(), &media).err().expect("refused"))
    }

    const CATEGORY: &str = r#"{"id": 10, "name": "Stems", "preview": "/media/s.svg", "red_label": null, "parent_id": 1}"#;

    #[test]
    fn a_tree_that_holds_together_is_accepted() {
        let content = tree_content(&format!("[{CATEGORY}]"));
        let media = Media { dir: content.dir() };
        let tree = read(content.dir(), &media).expect("accepted");
        assert_eq!(tree.parent_name(10), "Stems");
        assert_eq!(tree.parent_name(1), "Hip");
    }

    #[test]
    fn a_category_under_a_missing_parent_is_refused() {
        let content = tree_content(&format!(
            "[{}]",
            CATEGORY.replace("\"parent_id\": 1", "\"parent_id\": 7")
        ));
        assert_eq!(
            refusal(&content),
            "catalogue/categories.json: categories[0].parent_id: segment or category 7 does not exist"
        );
    }

    #[test]
    fn a_category_with_a_segment_id_or_its_own_parent_is_refused() {
        let content = tree_content(&format!(
            "[{}]",
            CATEGORY.replace("\"id\": 10", "\"id\": 1")
        ));
        assert_eq!(
            refusal(&content),
            "catalogue/categories.json: categories[0].id: id 1 is also a segment id"
        );
        let content = content_with_own_parent();
        assert_eq!(
            refusal(&content),
            "catalogue/categories.json: categories[1].parent_id: a category cannot be its own parent"
        );
    }

    fn content_with_own_parent() -> TestContent {
        let own = CATEGORY
            .replace("\"id\": 10", "\"id\": 11")
            .replace("\"parent_id\": 1", "\"parent_id\": 11");
        tree_content(&format!("[{CATEGORY}, {own}]"))
    }

    #[test]
    fn what_the_content_tool_writes_must_agree_with_the_tree() {
        let content = tree_content(&format!(
            "[{}]",
            CATEGORY.replace("\"id\": 10", "\"type\": \"product\", \"id\": 10")
        ));
        assert_eq!(
            refusal(&content),
            "catalogue/categories.json: categories[0].type: must be 'category'"
        );
        let content = tree_content(&format!(
            "[{}]",
            CATEGORY.replace("\"id\": 10", "\"parent_first_level\": false, \"id\": 10")
        ));
        assert_eq!(
            refusal(&content),
            "catalogue/categories.json: categories[0].parent_first_level: must be true: 1 is a segment"
        );
        let content = tree_content(&format!("[{CATEGORY}]"));
        content.write(
            "catalogue/segments.json",
            r#"[{"type": "category", "id": 1, "name": "Hip", "preview": "/media/s.svg", "red_label": null, "categories": [10]}]"#,
        );
        assert_eq!(
            refusal(&content),
            "catalogue/segments.json: segments[0].type: must be 'segment'"
        );
    }

    #[test]
    fn a_segment_listing_a_category_of_another_parent_is_refused() {
        let other = CATEGORY
            .replace("\"id\": 10", "\"id\": 11")
            .replace("\"parent_id\": 1", "\"parent_id\": 10");
        let content = tree_content(&format!("[{CATEGORY}, {other}]"));
        content.write(
            "catalogue/segments.json",
            r#"[{"id": 1, "name": "Hip", "preview": "/media/s.svg", "red_label": null, "categories": [10, 11]}]"#,
        );
        assert_eq!(
            refusal(&content),
            "catalogue/segments.json: segments[0].categories[1]: category 11 has parent_id 10, not this segment"
        );
    }

    #[test]
    fn an_unknown_order_or_field_is_refused() {
        let content = tree_content(&format!("[{CATEGORY}]"));
        content.write(
            "catalogue/filters.json",
            r#"{"order": [{"value": "random", "label": "?"}]}"#,
        );
        assert_eq!(
            refusal(&content),
            "catalogue/filters.json: filters.order[0].value: unknown order 'random' (known: featured, az, za, newest, oldest)"
        );
        let content = tree_content(&format!(
            "[{}]",
            CATEGORY.replace("\"name\"", "\"colour\": \"red\", \"name\"")
        ));
        assert!(
            refusal(&content).starts_with(
                "catalogue/categories.json: categories[0].colour: unknown field `colour`"
            ),
            "{}",
            refusal(&content)
        );
    }
}
