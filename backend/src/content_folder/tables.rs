//! The rows an import writes, table by table, and the one transaction that writes them.

use std::collections::{BTreeSet, HashSet};
use std::fmt;

use projections::{on_db, Db};

use super::file::ContentError;

/// A value bound into an SQL statement; the same statement runs on both engines.
#[derive(Debug, Clone, PartialEq)]
pub enum Arg {
    Int(i64),
    Text(String),
    OptText(Option<String>),
    /// A whole number that may be empty (a time in milliseconds).
    OptInt(Option<i64>),
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
impl From<Option<i64>> for Arg {
    fn from(v: Option<i64>) -> Self {
        Arg::OptInt(v)
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

    /// The whole-number keys of the rows.
    pub fn int_keys(&self) -> impl Iterator<Item = i64> + '_ {
        self.rows.iter().filter_map(|r| match r.first() {
            Some(Arg::Int(k)) => Some(*k),
            _ => None,
        })
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

impl fmt::Display for TableReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:<24} {:>5} rows ({} new, {} updated, {} removed)",
            self.table, self.rows, self.inserted, self.updated, self.deleted
        )
    }
}

/// Replaces the rows of every table in one transaction: rows are upserted by key and rows
/// whose key is no longer wanted are deleted.
pub async fn write_tables(db: &Db, tables: &[TableRows]) -> Result<Vec<TableReport>, ContentError> {
    let _guard = db.write_guard().await;
    let report = on_db!(db, pool => {
        let mut tx = pool.begin().await?;
        let mut report = Vec::new();
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
                        Arg::OptInt(v) => q.bind(*v),
                        Arg::Bool(v) => q.bind(*v),
                        Arg::Bytes(v) => q.bind(v.clone()),
                    };
                }
                q.execute(&mut *tx).await?;
            }
            report.push(TableReport {
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
