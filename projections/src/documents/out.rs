//! Where a batch's writes go: run one at a time, or, for a live batch, held and sent together.
//!
//! A live round writes a few rows to each of several tables (a share: the share, an unread
//! mark, a badge, a version row, two feed messages), one statement each, and each statement is
//! a round trip: to the server on PostgreSQL, to the connection's own thread and back on
//! SQLite (some 26 µs of the loop's processor time each, `docs/BENCHMARKS.md`).
//!
//! On SQLite the held statements are sent as one text of statements, run in their order, their
//! `?` parameters bound in that order. On PostgreSQL they are sent as one statement: every
//! statement but the last becomes a data-modifying `WITH` part of the last. PostgreSQL runs all
//! parts of such a statement on one snapshot, in no set order, and none sees another's rows. So
//! a group only ever holds statements on different tables, and every statement here writes one
//! table and reads nothing but its own `VALUES`: nothing in a group depends on the order. A
//! statement on a table the group already writes starts the next group, and groups run in the
//! order their statements were written.

use crate::db::{DbKind, Tx};
use crate::on_tx;
use crate::projector::ProjectionError;

type Result<T> = std::result::Result<T, ProjectionError>;

/// Parameters one statement sent together takes at most (PostgreSQL allows 65,535): the size of
/// a live round's writes, never a rebuild's.
const PARAMS_TOGETHER: usize = 8_000;

/// A value bound to a multi-row statement.
#[derive(Debug, Clone, Copy)]
pub(super) enum Value<'a> {
    Text(Option<&'a str>),
    Int(Option<i64>),
    Bool(bool),
}

/// A held value: the batch's rows are borrowed only while a statement is written.
enum Owned {
    Text(Option<String>),
    Int(Option<i64>),
    Bool(bool),
}

impl From<&Value<'_>> for Owned {
    fn from(value: &Value<'_>) -> Self {
        match *value {
            Value::Text(v) => Owned::Text(v.map(str::to_owned)),
            Value::Int(v) => Owned::Int(v),
            Value::Bool(v) => Owned::Bool(v),
        }
    }
}

/// A statement held to be sent with others.
struct Held {
    /// The one table it writes.
    table: String,
    /// Its text, parameters numbered from `$1`.
    sql: String,
    values: Vec<Owned>,
    /// Whether it would stay prepared on its own ([`crate::db::keep_prepared`]).
    keep: bool,
}

/// A batch's writes, run as they come ([`Out::direct`]) or held and sent together
/// ([`Out::together`]).
pub(super) struct Out<'t> {
    tx: &'t mut Tx,
    held: Option<Vec<Held>>,
}

impl<'t> Out<'t> {
    /// Each statement runs when it is written.
    pub fn direct(tx: &'t mut Tx) -> Self {
        Self { tx, held: None }
    }

    /// The statements are held until [`Out::finish`].
    pub fn together(tx: &'t mut Tx) -> Self {
        Self {
            tx,
            held: Some(Vec::new()),
        }
    }

    pub fn kind(&self) -> DbKind {
        self.tx.kind()
    }

    /// The transaction, for what is not a statement of rows (`COPY`). Only while nothing is
    /// held, so that nothing runs ahead of a held statement.
    pub fn tx(&mut self) -> Result<&mut Tx> {
        match &self.held {
            Some(held) if !held.is_empty() => Err(ProjectionError::Database(
                sqlx::Error::Protocol("a statement ran ahead of held ones".into()),
            )),
            _ => Ok(self.tx),
        }
    }

    /// Runs (or holds) `sql`, which writes `table`, with `leading` and then every value of
    /// `rows` bound in order. Returns the statements run (0 when held).
    pub async fn statement(
        &mut self,
        table: &str,
        sql: &str,
        leading: &[Value<'_>],
        rows: &[Vec<Value<'_>>],
        keep: bool,
    ) -> Result<u64> {
        let values = leading.iter().chain(rows.iter().flatten());
        if let Some(held) = &mut self.held {
            held.push(Held {
                table: table.to_owned(),
                sql: sql.to_owned(),
                values: values.map(Owned::from).collect(),
                keep,
            });
            return Ok(0);
        }
        on_tx!(self.tx, c => {
            let mut q = sqlx::query(sql).persistent(keep);
            for value in values {
                q = match *value {
                    Value::Text(v) => q.bind(v),
                    Value::Int(v) => q.bind(v),
                    Value::Bool(v) => q.bind(v),
                };
            }
            q.execute(c).await.map(|_| ())
        })?;
        Ok(1)
    }

    /// Sends what is held: on SQLite in texts of statements in their order, on PostgreSQL in
    /// groups of statements on different tables. Returns the statements sent.
    pub async fn finish(self) -> Result<u64> {
        let Some(held) = self.held else {
            return Ok(0);
        };
        let texts: Vec<(String, Vec<Owned>, bool)> = match self.tx.kind() {
            DbKind::Sqlite => groups(held, false).into_iter().map(in_order).collect(),
            DbKind::Postgres => groups(held, true).into_iter().map(together).collect(),
        };
        let sent = texts.len() as u64;
        for (sql, values, keep) in texts {
            on_tx!(self.tx, c => {
                let mut q = sqlx::query(&sql).persistent(keep);
                for value in values {
                    q = match value {
                        Owned::Text(v) => q.bind(v),
                        Owned::Int(v) => q.bind(v),
                        Owned::Bool(v) => q.bind(v),
                    };
                }
                q.execute(c).await.map(|_| ())
            })?;
        }
        Ok(sent)
    }
}

/// One SQLite text for `run`: its statements in order, separated by `;`, their `?` parameters
/// bound in the same order; whether it stays prepared (every statement would).
fn in_order(run: Vec<Held>) -> (String, Vec<Owned>, bool) {
    let keep = run.iter().all(|h| h.keep);
    let mut sql = String::new();
    let mut values = Vec::new();
    for held in run {
        if !sql.is_empty() {
            sql.push_str(";\n");
        }
        sql.push_str(&held.sql);
        values.extend(held.values);
    }
    (sql, values, keep)
}

/// `held` cut into runs of at most [`PARAMS_TOGETHER`] parameters (a statement larger than
/// that alone), in order; with `tables_apart`, a statement on a table its run already writes
/// starts the next run (PostgreSQL's `WITH` parts do not see each other's rows; SQLite runs the
/// statements of one text one after the other, each seeing what those before it wrote).
fn groups(held: Vec<Held>, tables_apart: bool) -> Vec<Vec<Held>> {
    let mut groups: Vec<Vec<Held>> = Vec::new();
    let mut params = 0;
    for statement in held {
        let fits = groups.last().is_some_and(|g| {
            !(tables_apart && g.iter().any(|h| h.table == statement.table))
                && params + statement.values.len() <= PARAMS_TOGETHER
        });
        if !fits {
            groups.push(Vec::new());
            params = 0;
        }
        params += statement.values.len();
        if let Some(group) = groups.last_mut() {
            group.push(statement);
        }
    }
    groups
}

/// One statement for `group`: `with w1 as (first), w2 as (second) … last`, its parameters
/// numbered on; its values in that order; whether it stays prepared (every part would).
fn together(group: Vec<Held>) -> (String, Vec<Owned>, bool) {
    let keep = group.iter().all(|h| h.keep);
    let parts = group.len();
    let mut sql = String::new();
    let mut values = Vec::new();
    for (i, held) in group.into_iter().enumerate() {
        let last = i + 1 == parts;
        if parts > 1 {
            sql.push_str(match (i, last) {
                (0, _) => "with ",
                (_, true) => " ",
                _ => ", ",
            });
            if !last {
                sql.push_str(&format!("w{} as (", i + 1));
            }
        }
        renumber(&mut sql, &held.sql, values.len());
        if parts > 1 && !last {
            sql.push(')');
        }
        values.extend(held.values);
    }
    (sql, values, keep)
}

/// Appends `sql` to `out` with every parameter `$n` made `$(n + by)`. The statements here are
/// made by this module's callers: they hold no string literal or quoted name with a `$`.
fn renumber(out: &mut String, sql: &str, by: usize) {
    let mut rest = sql;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..=at]);
        rest = &rest[at + 1..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        match rest[..digits].parse::<usize>() {
            Ok(n) => out.push_str(&(n + by).to_string()),
            Err(_) => out.push_str(&rest[..digits]),
        }
        rest = &rest[digits..];
    }
    out.push_str(rest);
}

/// The table a statement of rows writes: the name after `insert into`, `delete from` or
/// `update`.
pub(super) fn table_of(sql: &str) -> &str {
    let sql = sql.trim_start();
    let rest = ["insert into ", "delete from ", "update "]
        .iter()
        .find_map(|head| sql.strip_prefix(head))
        .unwrap_or(sql);
    rest.split(|c: char| c.is_whitespace() || c == '(')
        .next()
        .unwrap_or(rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn held(table: &str, sql: &str, values: usize) -> Held {
        Held {
            table: table.into(),
            sql: sql.into(),
            values: (0..values).map(|i| Owned::Int(Some(i as i64))).collect(),
            keep: true,
        }
    }

    #[test]
    fn parameters_are_numbered_on_across_the_parts() {
        let (sql, values, keep) = together(vec![
            held("a", "insert into a (x, y) values ($1, $2)", 2),
            held("b", "delete from b where id in ($1)", 1),
            held(
                "c",
                "update c set v = t.at from (values ($1, cast($2 as bigint))) as t(k0, at)",
                2,
            ),
        ]);
        assert_eq!(
            sql,
            "with w1 as (insert into a (x, y) values ($1, $2)), \
             w2 as (delete from b where id in ($3)) \
             update c set v = t.at from (values ($4, cast($5 as bigint))) as t(k0, at)"
        );
        assert_eq!(values.len(), 5);
        assert!(keep);
    }

    #[test]
    fn one_statement_alone_is_sent_as_it_is() {
        let (sql, _, _) = together(vec![held("a", "insert into a (x) values ($1), ($2)", 2)]);
        assert_eq!(sql, "insert into a (x) values ($1), ($2)");
    }

    #[test]
    fn a_second_statement_on_a_table_starts_the_next_group_in_order() {
        let groups = groups(
            vec![
                held("doc_seen", "delete from doc_seen where item_id in ($1)", 1),
                held(
                    "doc_badges",
                    "insert into doc_badges (user_id) values ($1)",
                    1,
                ),
                held("doc_seen", "insert into doc_seen (user_id) values ($1)", 1),
                held(
                    "user_feed",
                    "insert into user_feed (user_id) values ($1)",
                    1,
                ),
            ],
            true,
        );
        let tables: Vec<Vec<&str>> = groups
            .iter()
            .map(|g| g.iter().map(|h| h.table.as_str()).collect())
            .collect();
        assert_eq!(
            tables,
            vec![
                vec!["doc_seen", "doc_badges"],
                vec!["doc_seen", "user_feed"]
            ]
        );
    }

    #[test]
    fn a_group_stays_under_the_parameter_limit() {
        let groups = groups(
            vec![
                held("a", "insert into a (x) values ($1)", PARAMS_TOGETHER - 1),
                held("b", "insert into b (x) values ($1)", 2),
                held("c", "insert into c (x) values ($1)", PARAMS_TOGETHER + 5),
            ],
            true,
        );
        assert_eq!(
            groups.iter().map(Vec::len).collect::<Vec<_>>(),
            vec![1, 1, 1]
        );
    }

    #[test]
    fn the_table_is_read_from_the_statement() {
        assert_eq!(
            table_of("insert into doc_shares (item_id) values "),
            "doc_shares"
        );
        assert_eq!(
            table_of("delete from doc_unread x using (select"),
            "doc_unread"
        );
        assert_eq!(
            table_of("delete from doc_seen where item_id in ("),
            "doc_seen"
        );
        assert_eq!(
            table_of("update doc_item_versions set valid_to = t.at"),
            "doc_item_versions"
        );
        assert_eq!(
            table_of("insert into user_feed(user_id) select"),
            "user_feed"
        );
    }

    #[test]
    fn sqlite_sends_statements_in_their_order_with_their_values_in_that_order() {
        let (sql, values, keep) = in_order(vec![
            held("doc_seen", "delete from doc_seen where item_id in (?)", 1),
            held(
                "doc_badges",
                "insert into doc_badges (user_id) values (?)",
                2,
            ),
            held("doc_seen", "insert into doc_seen (user_id) values (?)", 1),
        ]);
        assert_eq!(
            sql,
            "delete from doc_seen where item_id in (?);\n\
             insert into doc_badges (user_id) values (?);\n\
             insert into doc_seen (user_id) values (?)"
        );
        let order: Vec<Option<i64>> = values
            .iter()
            .map(|v| match v {
                Owned::Int(i) => *i,
                _ => None,
            })
            .collect();
        assert_eq!(order, vec![Some(0), Some(0), Some(1), Some(0)]);
        assert!(keep);
    }

    #[test]
    fn sqlite_runs_share_a_text_whatever_their_tables_under_the_parameter_limit() {
        let runs = groups(
            vec![
                held("a", "insert into a (x) values (?)", 3),
                held("a", "insert into a (x) values (?)", 3),
                held("b", "insert into b (x) values (?)", PARAMS_TOGETHER - 6),
                held("c", "insert into c (x) values (?)", 1),
                held("d", "insert into d (x) values (?)", PARAMS_TOGETHER + 5),
            ],
            false,
        );
        assert_eq!(runs.iter().map(Vec::len).collect::<Vec<_>>(), vec![3, 1, 1]);
    }

    #[test]
    fn a_dollar_without_digits_is_left_alone() {
        let mut out = String::new();
        renumber(&mut out, "$1 $ $12x", 3);
        assert_eq!(out, "$4 $ $15x");
    }
}
