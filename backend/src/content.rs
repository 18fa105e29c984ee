//! Loading reference content (catalogue, news, contacts, ... ) from a content folder into the
//! database.
//!
//! Each feature reads and checks its own files and hands back [`TableRows`]: the complete set of
//! rows its tables must hold. [`import_all`] collects them from every feature first, so a bad
//! file is refused before anything is written, then applies them in one transaction: rows are
//! upserted by key and rows whose key is no longer in the content are deleted. Importing the
//! same folder twice therefore leaves the same state.

pub mod file_kind;

use std::collections::{BTreeSet, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};

use projections::{on_db, Db};
use serde::de::DeserializeOwned;

/// Why a content folder was refused. `Invalid` names the file, the field and the reason, e.g.
/// `content/catalogue/products.json: products[3].parent_id: category 999 does not exist`.
#[derive(Debug, thiserror::Error)]
pub enum ContentError {
    #[error("{file}: {field}: {reason}")]
    Invalid {
        file: String,
        field: String,
        reason: String,
    },
    #[error("writing the content to the database: {0}")]
    Database(#[from] sqlx::Error),
}

/// One content file being read: knows its path (for messages) and the name of its root value.
#[derive(Clone)]
pub struct ContentFile {
    pub path: PathBuf,
    /// The name of the top-level value in field paths (`products` in `products[3].name`).
    pub root: String,
}

impl ContentFile {
    pub fn new(content_dir: &Path, relative: &str) -> ContentFile {
        let root = Path::new(relative)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        ContentFile {
            path: content_dir.join(relative),
            root,
        }
    }

    /// An error about `field` (a path below the root, e.g. `[3].parent_id`) of this file.
    pub fn invalid(&self, field: impl AsRef<str>, reason: impl Into<String>) -> ContentError {
        let field = field.as_ref();
        let field = if field.is_empty() || field == "." {
            self.root.clone()
        } else if field.starts_with('[') {
            format!("{}{}", self.root, field)
        } else {
            format!("{}.{}", self.root, field)
        };
        ContentError::Invalid {
            file: self.path.display().to_string(),
            field,
            reason: reason.into(),
        }
    }

    /// Reads and parses the file; a shape error names the exact field.
    pub fn read<T: DeserializeOwned>(&self) -> Result<T, ContentError> {
        let text = std::fs::read_to_string(&self.path).map_err(|e| ContentError::Invalid {
            file: self.path.display().to_string(),
            field: "-".into(),
            reason: format!("cannot be read: {e}"),
        })?;
        let mut de = serde_json::Deserializer::from_str(&text);
        serde_path_to_error::deserialize(&mut de).map_err(|e| {
            let path = e.path().to_string();
            let inner = e.into_inner();
            let field = if path == "." { String::new() } else { path };
            self.invalid(field, inner.to_string())
        })
    }
}

/// A value bound into an SQL statement; the same statement runs on both engines.
#[derive(Debug, Clone, PartialEq)]
pub enum Arg {
    Int(i64),
    Text(String),
    OptText(Option<String>),
    Bool(bool),
    Bytes(Vec<u8>),
}

impl From<i64> for Arg {
    fn from(v: i64) -> Self {
        Arg::Int(v)
    }
}
impl From<String> for Arg {
    fn from(v: String) -> Self {
        Arg::Text(v)
    }
}
impl From<&str> for Arg {
    fn from(v: &str) -> Self {
        Arg::Text(v.to_string())
    }
}
impl From<Option<String>> for Arg {
    fn from(v: Option<String>) -> Self {
        Arg::OptText(v)
    }
}
impl From<bool> for Arg {
    fn from(v: bool) -> Self {
        Arg::Bool(v)
    }
}
impl From<Vec<u8>> for Arg {
    fn from(v: Vec<u8>) -> Self {
        Arg::Bytes(v)
    }
}

/// The complete content of one table: after the import it holds exactly these rows.
pub struct TableRows {
    pub table: &'static str,
    /// The key column (`id` or `key`); its value is the first column of every row.
    pub key: &'static str,
    pub columns: &'static [&'static str],
    pub rows: Vec<Vec<Arg>>,
}

impl TableRows {
    pub fn new(table: &'static str, columns: &'static [&'static str]) -> TableRows {
        TableRows {
            table,
            key: columns[0],
            columns,
            rows: Vec::new(),
        }
    }

    pub fn push(&mut self, row: Vec<Arg>) {
        debug_assert_eq!(row.len(), self.columns.len(), "row of {}", self.table);
        self.rows.push(row);
    }

    fn key_text(arg: &Arg) -> String {
        match arg {
            Arg::Int(i) => i.to_string(),
            Arg::Text(s) => s.clone(),
            other => format!("{other:?}"),
        }
    }

    fn upsert_sql(&self) -> String {
        let cols = self.columns.join(", ");
        let params: Vec<String> = (1..=self.columns.len()).map(|i| format!("${i}")).collect();
        let updates: Vec<String> = self.columns[1..]
            .iter()
            .map(|c| format!("{c} = excluded.{c}"))
            .collect();
        format!(
            "insert into {} ({cols}) values ({}) on conflict ({}) do update set {}",
            self.table,
            params.join(", "),
            self.key,
            updates.join(", ")
        )
    }
}

/// What one table went through in an import.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TableReport {
    pub table: String,
    pub rows: usize,
    pub inserted: usize,
    pub updated: usize,
    pub deleted: usize,
}

/// What an import did, table by table.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct ImportReport {
    pub tables: Vec<TableReport>,
}

impl fmt::Display for ImportReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for t in &self.tables {
            writeln!(
                f,
                "{:<24} {:>5} rows ({} new, {} updated, {} removed)",
                t.table, t.rows, t.inserted, t.updated, t.deleted
            )?;
        }
        Ok(())
    }
}

/// Reads every feature's content from `content_dir`, checks it, and replaces the reference data
/// in one transaction. Nothing is written when any file is refused.
pub async fn import_all(db: &Db, content_dir: &Path) -> Result<ImportReport, ContentError> {
    // Every feature that owns reference content adds its reader here. Each returns the full
    // rows of its tables or the first problem it finds.
    let mut tables: Vec<TableRows> = Vec::new();
    tables.extend(crate::catalogue::import::read(content_dir)?);
    // (congresses, training and courses add their `import::read(content_dir)?` here)

    write_tables(db, &tables).await
}

/// True when no catalogue content has been imported yet (first start).
pub async fn catalogue_is_empty(db: &Db) -> Result<bool, sqlx::Error> {
    let n: i64 = on_db!(db, pool => sqlx::query_scalar("select count(*) from catalogue_segments").fetch_one(pool).await)?;
    Ok(n == 0)
}

async fn write_tables(db: &Db, tables: &[TableRows]) -> Result<ImportReport, ContentError> {
    let _guard = db.write_guard().await;
    let report = on_db!(db, pool => {
        let mut tx = pool.begin().await?;
        let mut report = ImportReport::default();
        for t in tables {
            let existing: Vec<String> = sqlx::query_scalar(&format!(
                "select cast({} as text) from {}", t.key, t.table
            ))
            .fetch_all(&mut *tx)
            .await?;
            let existing: HashSet<String> = existing.into_iter().collect();
            let wanted: BTreeSet<String> = t.rows.iter().map(|r| TableRows::key_text(&r[0])).collect();
            let mut deleted = 0;
            let delete_sql = format!("delete from {} where cast({} as text) = $1", t.table, t.key);
            for stale in existing.iter().filter(|k| !wanted.contains(*k)) {
                sqlx::query(&delete_sql).bind(stale.clone()).execute(&mut *tx).await?;
                deleted += 1;
            }
            let sql = t.upsert_sql();
            let mut inserted = 0;
            for row in &t.rows {
                if !existing.contains(&TableRows::key_text(&row[0])) {
                    inserted += 1;
                }
                let mut q = sqlx::query(&sql);
                for arg in row {
                    q = match arg {
                        Arg::Int(v) => q.bind(*v),
                        Arg::Text(v) => q.bind(v.clone()),
                        Arg::OptText(v) => q.bind(v.clone()),
                        Arg::Bool(v) => q.bind(*v),
                        Arg::Bytes(v) => q.bind(v.clone()),
                    };
                }
                q.execute(&mut *tx).await?;
            }
            report.tables.push(TableReport {
                table: t.table.to_string(),
                rows: t.rows.len(),
                inserted,
                updated: t.rows.len() - inserted,
                deleted,
            });
        }
        tx.commit().await?;
        Ok::<_, sqlx::Error>(report)
    })?;
    Ok(report)
}
