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

mod entities;

/// What an import did: the catalogue's tables one by one, and the programme rows written.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct ImportReport {
    pub tables: Vec<TableReport>,
    /// `None` when the content folder holds no programmes (no `congresses/` folder).
    pub programmes: Option<crate::programmes::ImportReport>,
    /// How many events the import recorded (0 when the folder holds what is recorded).
    pub recorded: usize,
    /// Where its last event sits in the global stream.
    #[serde(skip)]
    pub last: Option<projections::Position>,
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
        writeln!(f, "{} events recorded", self.recorded)?;
        Ok(())
    }
}

/// Reads every feature's content from `content_dir` and checks all of it before anything is
/// written, then records what changed as events by the default operator (the OS user).
pub async fn import_all(db: &Db, content_dir: &Path) -> Result<ImportReport, ContentError> {
    import_as(db, content_dir, &default_actor()).await
}

/// The importing operator when none is named: the OS user, recorded as `operator:<name>`.
pub fn default_actor() -> String {
    let name = std::env::var("USER")
        .or_else(|_| std::env::var("USERNAME"))
        .unwrap_or_else(|_| "unknown".into());
    operator(&name)
}

/// How an operator is recorded as the actor of the content's events.
pub fn operator(name: &str) -> String {
    let name = name.trim();
    if name.starts_with("operator:") {
        name.to_string()
    } else {
        format!("operator:{name}")
    }
}

/// [`import_all`] with `actor` (`operator:<name>`) recorded on every event: `documents/library.json`
/// once, then the catalogue and the programmes, which name its documents, are read and checked;
/// nothing is written when any file is refused. The library's documents table is then written,
/// and every entity that is new, changed or gone is recorded on its own stream (see
/// [`crate::content_folder::entities`]), all in one transaction; the content projection writes
/// the tables from those events.
pub async fn import_as(
    db: &Db,
    content_dir: &Path,
    actor: &str,
) -> Result<ImportReport, ContentError> {
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

    // The library's documents keep their own table: their lifecycle is recorded elsewhere.
    let (documents, catalogue): (Vec<TableRows>, Vec<TableRows>) = catalogue
        .into_iter()
        .partition(|t| t.table == "library_documents");
    let mut tables = tables::write_tables(db, &documents).await?;
    let library_last = record_library(db, &library, actor).await?;
    let mut wanted = Vec::new();
    for t in &catalogue {
        wanted.push(entities::Wanted::of_table(t)?);
    }
    if let Some(rows) = &programmes {
        wanted.extend(entities::Wanted::of_programmes(rows));
    }
    // Kinds the folder does not hold at all (no `congresses/`) are left as they are.
    let recorded = entities::record(db, &wanted, actor).await?;
    tables.extend(recorded.tables);
    Ok(ImportReport {
        tables,
        programmes: programmes.as_ref().map(|rows| rows.report()),
        recorded: recorded.events,
        last: recorded.last.max(library_last),
    })
}

/// Runs the library's `Import` command for every document of the folder, with `actor` as the
/// one who released it: a new document is created released, a changed file or changed details
/// record a new released version, an unchanged one records nothing, and a document the
/// company withdrew or that expired stays so whatever the folder says.
async fn record_library(
    db: &Db,
    library: &library::Library,
    actor: &str,
) -> Result<Option<projections::Position>, ContentError> {
    use events::documents::{FileFormat, Labels, UserRef};
    use events::library::{Audience, DocMetadata, LibraryCommand, LibraryDocument, VersionFile};
    use sha2::{Digest, Sha256};

    let store = crate::event_store::EventStore::<LibraryDocument>::append_only(db, ());
    let by = UserRef {
        id: actor.to_string(),
        name: actor.to_string(),
    };
    let at = projections::now_ms();
    let mut last = None;
    for doc in &library.documents {
        let d = &doc.entry;
        let Some(file) = &doc.file else {
            continue;
        };
        let format = match file.kind {
            crate::content_folder::file_kind::FileKind::Pdf => FileFormat::Pdf,
            crate::content_folder::file_kind::FileKind::Xls => FileFormat::Xls,
        };
        let command = LibraryCommand::Import {
            id: d.id,
            by: by.clone(),
            metadata: DocMetadata {
                title: d.title.clone(),
                audience: Audience::All,
                labels: Labels {
                    for_internal_use: d.for_internal_use,
                    controlled_release: d.controlled_release,
                    upon_request: d.upon_request,
                    external_release: false,
                },
                products: Vec::new(),
                programmes: Vec::new(),
                category: d.category.clone(),
                release_at: None,
                expires_at: None,
            },
            file: VersionFile {
                file_name: d.name.clone(),
                // The folder's bytes live in `library_documents`, not in the blob storage.
                blob: String::new(),
                size: file.bytes.len() as i64,
                sha256: Some(hex::encode(Sha256::digest(&file.bytes))),
                format,
            },
            at,
        };
        let position = store
            .execute(
                &d.id.to_string(),
                command,
                crate::event_store::Metadata::by(actor),
            )
            .await
            .map_err(|e| ContentError::Recording {
                id: d.id,
                reason: e.to_string(),
            })?;
        last = last.max(Some(position));
    }
    Ok(last)
}

/// Waits until the server's projections show what an import recorded.
pub async fn wait_for(projector: &projections::ProjectorHandle, report: &ImportReport) -> bool {
    match report.last {
        None => true,
        Some(last) => {
            projector.wake();
            projector
                .wait_for(last, std::time::Duration::from_secs(30))
                .await
        }
    }
}

/// The ids of the rows of `table`.
fn keys(tables: &[TableRows], table: &str) -> HashSet<i64> {
    tables
        .iter()
        .filter(|t| t.table == table)
        .flat_map(TableRows::int_keys)
        .collect()
}

/// True when no content has been recorded yet (first start).
pub async fn catalogue_is_empty(db: &Db) -> Result<bool, sqlx::Error> {
    let n: i64 = on_db!(db, pool => sqlx::query_scalar(
        "select count(*) from events where aggregate_type = 'content_entity'").fetch_one(pool).await)?;
    Ok(n == 0)
}
