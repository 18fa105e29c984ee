//! Reads the catalogue's content files, checks them and builds the rows of its tables.
//!
//! One module per file family, each with the typed shape of its files (unknown fields are
//! refused) and its checks: [`library`] (the documents of `documents/library.json`, read once by
//! [`crate::content_folder::library`]),
//! [`tree`] (`catalogue/{segments,categories,filters}.json`), [`products`]
//! (`catalogue/{products,components,catalogues}.json`), [`news`] (`news/{news,filters}.json`),
//! [`contacts`] (`contacts/{contacts,subsidiaries}.json`), [`useful`] (`useful/links.json`) and
//! [`multimedia`] (`multimedia/{videos,images,filters}.json`). Every reference between them is
//! checked, every image path must exist under `media/`, and rich text is sanitised here, once.
//! A refusal names the file, the entry and the field, e.g.
//! `content/catalogue/products.json: products[3].parent_id: category 999 does not exist`.

mod check;
mod contacts;
mod library;
mod multimedia;
mod news;
mod products;
mod tree;
mod useful;

use std::path::Path;

use crate::content_folder::file::ContentError;
use crate::content_folder::library::Library;
use crate::content_folder::tables::TableRows;

/// Reads and checks every file of the catalogue family and returns the full rows of its tables.
/// `library` is `documents/library.json`, read and checked once for every feature.
pub fn read(dir: &Path, library: &Library) -> Result<Vec<TableRows>, ContentError> {
    let media = check::Media { dir };
    let mut meta = TableRows::new("catalogue_meta", &["key", "data"]);

    let (library, library_rows) = library::read(library)?;
    let tree = tree::read(dir, &media)?;
    let products = products::read(dir, &media, &tree, &library, &mut meta)?;
    let (segment_rows, category_rows) = tree.pages(&products.list_items, &library)?;
    let news = news::read(dir, &media, &mut meta)?;
    let (sections, subsidiaries) = contacts::read(dir)?;
    let links = useful::read(dir, &media)?;
    let (videos, images) = multimedia::read(dir, &media, &tree, &mut meta)?;

    Ok(vec![
        library_rows,
        segment_rows,
        category_rows,
        products.products,
        products.components,
        news,
        sections,
        subsidiaries,
        links,
        videos,
        images,
        meta,
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demo_content_is_accepted() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../content");
        let library = crate::content_folder::library::read(&dir).expect("library");
        let tables = read(&dir, &library).expect("demo content imports");
        let names: Vec<&str> = tables.iter().map(|t| t.table).collect();
        assert_eq!(
            names,
            [
                "library_documents",
                "catalogue_segments",
                "catalogue_categories",
                "catalogue_products",
                "catalogue_components",
                "news",
                "contact_sections",
                "contact_subsidiaries",
                "useful_links",
                "multimedia_videos",
                "multimedia_images",
                "catalogue_meta",
            ]
        );
        assert!(tables.iter().all(|t| !t.rows.is_empty()));
    }
}
