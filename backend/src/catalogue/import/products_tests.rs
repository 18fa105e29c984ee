//! Each refusal of `catalogue/products.json` and `catalogue/components.json`, on small inline content.

use super::super::check::TestContent;
use super::super::{library, tree};
use super::*;

const PRODUCT: &str = r#"{"id": 100, "name": "Hip X", "parent_id": 10, "subcategory": null, "order": 1,
    "release_date": "2026-01-01", "preview": "/media/p.svg", "description": "<p>x</p>",
    "images": ["/media/p.svg"], "banner": null, "inDepth": null, "components": [200]}"#;
const COMPONENT: &str = r#"{"id": 200, "title": "Stem", "parent_id": 100, "gallery": [],
    "material": "Ti", "sterile": true, "variants": []}"#;

/// Segment 1 > category 10 (subcategory `short`) > product 100 with component 200.
fn content(products: &str, components: &str) -> TestContent {
    let content = TestContent::new();
    content
        .media("/media/p.svg")
        .write("documents/library.json", "[]")
        .write(
            "catalogue/segments.json",
            r#"[{"id": 1, "name": "Hip", "preview": "/media/p.svg", "red_label": null, "categories": [10]}]"#,
        )
        .write(
            "catalogue/categories.json",
            r#"[{"id": 10, "name": "Stems", "preview": "/media/p.svg", "red_label": null, "parent_id": 1,
                 "subcategories": [{"value": "short", "label": "Short stems"}]}]"#,
        )
        .write("catalogue/filters.json", r#"{"order": []}"#)
        .write("catalogue/products.json", format!("[{products}]"))
        .write("catalogue/components.json", format!("[{components}]"))
        .write(
            "catalogue/catalogues.json",
            r#"{"title": "Catalogues", "documents": []}"#,
        );
    content
}

fn read_products(content: &TestContent) -> Result<Products, ContentError> {
    let media = Media { dir: content.dir() };
    let tree = tree::read(content.dir(), &media)?;
    let (library, _) = library::read(&crate::content_folder::library::read(content.dir())?)?;
    let mut meta = TableRows::new("catalogue_meta", &["key", "data"]);
    read(content.dir(), &media, &tree, &library, &mut meta)
}

fn refusal(products: &str, components: &str) -> String {
    let content = content(products, components);
    content.refusal(read_products(&content).err().expect("refused"))
}

#[test]
fn a_product_with_its_component_is_accepted() {
    let content = content(PRODUCT, COMPONENT);
    let products = read_products(&content).expect("accepted");
    assert_eq!(products.products.rows.len(), 1);
    assert_eq!(products.components.rows.len(), 1);
    assert_eq!(
        products.list_items[0].item.category.as_deref(),
        Some("Stems")
    );
}

#[test]
fn each_broken_reference_is_refused_with_its_field() {
    assert_eq!(
        refusal(
            &PRODUCT.replace("\"parent_id\": 10", "\"parent_id\": 11"),
            COMPONENT
        ),
        "catalogue/products.json: products[0].parent_id: category 11 does not exist"
    );
    assert_eq!(
        refusal(&PRODUCT.replace("\"subcategory\": null", "\"subcategory\": \"long\""), COMPONENT),
        "catalogue/products.json: products[0].subcategory: 'long' is not a subcategory of category 10"
    );
    assert_eq!(
        refusal(&PRODUCT.replace("[200]", "[201]"), COMPONENT),
        "catalogue/products.json: products[0].components[0]: component 201 does not exist"
    );
    assert_eq!(
        refusal(&PRODUCT.replace("[200]", "[]"), COMPONENT),
        "catalogue/components.json: components[0].parent_id: product 100 does not list this component"
    );
    assert_eq!(
        refusal(
            &PRODUCT.replace("\"banner\": null", "\"relatedProducts\": {\"products\": [{\"id\": 7}]}"),
            COMPONENT
        ),
        "catalogue/products.json: products[0].relatedProducts.products[0].id: product 7 does not exist"
    );
    assert_eq!(
        refusal(&PRODUCT.replace("[\"/media/p.svg\"]", "[]"), COMPONENT),
        "catalogue/products.json: products[0].images: needs at least one image"
    );
    assert_eq!(
        refusal(&PRODUCT.replace("\"id\": 100", "\"id\": 10"), COMPONENT),
        "catalogue/products.json: products[0].id: id 10 is also a segment or category id"
    );
}

#[test]
fn what_the_content_tool_writes_must_agree_with_the_tree() {
    assert_eq!(
        refusal(
            &PRODUCT.replace("\"order\": 1", "\"order\": 1, \"parent_first_level\": true"),
            COMPONENT
        ),
        "catalogue/products.json: products[0].parent_first_level: must be false for parent 10"
    );
    assert_eq!(
        refusal(
            PRODUCT,
            &COMPONENT.replace("\"title\": \"Stem\"", "\"title\": \"Stem\", \"parent_name\": \"Knee Y\"")
        ),
        "catalogue/components.json: components[0].parent_name: must be 'Hip X', the name of product 100"
    );
}

#[test]
fn an_unknown_field_is_refused_by_name() {
    let text = refusal(
        &PRODUCT.replace("\"order\": 1", "\"order\": 1, \"category\": \"knee\""),
        COMPONENT,
    );
    assert!(
        text.starts_with("catalogue/products.json: products[0].category: unknown field `category`"),
        "{text}"
    );
}
