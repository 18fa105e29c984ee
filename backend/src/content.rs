//! Loading reference content (catalogue, news, contacts, congresses, training, courses, ...) from
//! a content folder into the database.
//!
//! Three layers, each importing only from below:
//! - [`crate::content_folder`]: what every reader uses (content files and their errors, dates,
//!   document kinds, `documents/library.json`, the checks of the folder as a whole, table rows);
//! - each feature's readers (`catalogue::import`, `programmes::import`), which read and check
//!   their own files and hand back the complete rows their tables must hold;
//! - here, [`import_all`], which reads and checks everything first, so a bad folder is refused
//!   before anything is written, then writes: the catalogue's rows are upserted by key and rows
//!   whose key is no longer in the content are deleted, the programmes' tables are replaced.
//!   Importing the same folder twice leaves the same state.

use std::collections::HashSet;
use std::fmt;
use std::path::Path;

use projections::{on_db, Db};

use crate::notifications::demo::LinkTargets;

pub use crate::content_folder::file::ContentError;
pub use crate::content_folder::tables::TableReport;
use crate::content_folder::tables::{self, TableRows};
use crate::content_folder::{checks, library};

/// What an import did: the catalogue's tables one by one, and the programme rows written.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct ImportReport {
    pub tables: Vec<TableReport>,
    /// `None` when the content folder holds no programmes (no `congresses/` folder).
    pub programmes: Option<crate::programmes::ImportReport>,
}

impl fmt::Display for ImportReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for t in &self.tables {
            writeln!(f, "{t}")?;
        }
        if let Some(p) = &self.programmes {
            writeln!(
                f,
                "programmes: {} congresses, {} activities, {} trainings, {} courses",
                p.congresses, p.activities, p.trainings, p.courses
            )?;
        }
        Ok(())
    }
}

/// Reads every feature's content from `content_dir` and checks all of it before anything is
/// written: `documents/library.json` once, then the catalogue and the programmes, which name
/// its documents. Nothing is written when any file is refused. The catalogue's tables are then
/// replaced in one transaction and the programmes' in the next.
pub async fn import_all(db: &Db, content_dir: &Path) -> Result<ImportReport, ContentError> {
    let library = library::read(content_dir)?;
    let catalogue = crate::catalogue::import::read(content_dir, &library)?;
    // A content folder without programmes (no `congresses/`) leaves theirs as they are.
    let programmes = if content_dir.join("congresses").is_dir() {
        let rows = crate::programmes::import::read(content_dir, &library)?;
        rows.check_segments(&keys(&catalogue, "catalogue_segments"))?;
        Some(rows)
    } else {
        None
    };
    let mut targets = LinkTargets {
        products: keys(&catalogue, "catalogue_products"),
        news: keys(&catalogue, "news"),
        ..LinkTargets::default()
    };
    if let Some(rows) = &programmes {
        [targets.congresses, targets.trainings, targets.courses] = rows.ids();
    }
    crate::notifications::demo::check_links(content_dir, &targets)?;
    // What no feature's reader looks at: every path any file names, the rich text, the media
    // and document files themselves and the folder's size.
    checks::check_folder(content_dir)?;

    let tables = tables::write_tables(db, &catalogue).await?;
    if let Some(rows) = &programmes {
        crate::programmes::import::write(db, rows).await?;
    }
    Ok(ImportReport {
        tables,
        programmes: programmes.as_ref().map(|rows| rows.report()),
    })
}

/// The ids of the rows of `table`.
fn keys(tables: &[TableRows], table: &str) -> HashSet<i64> {
    tables
        .iter()
        .filter(|t| t.table == table)
        .flat_map(TableRows::int_keys)
        .collect()
}

/// True when no catalogue content has been imported yet (first start).
pub async fn catalogue_is_empty(db: &Db) -> Result<bool, sqlx::Error> {
    let n: i64 = on_db!(db, pool => sqlx::query_scalar("select count(*) from catalogue_segments").fetch_one(pool).await)?;
    Ok(n == 0)
}
