// Over 600 lines: the load, rebuild and swap scenarios share one workload and its helpers.
//! Documents under load, on both databases: 8 concurrent writers and thousands of commands
//! leave every event in the read model; a long mixed workload rebuilds from position 0 into a
//! fresh database with no difference, and a rebuild swapped in while commands go on replaces
//! damaged live tables without writing any feed message twice.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use backend::documents::{Actor, Documents, ListType};
use backend::error::AppError;
use events::documents::{ItemEvent, ShareVia};
use projections::stream::read_after;
use projections::{on_db, Position, Projection};

use crate::helpers::{spawn_app, spawn_app_with, Engine, TestApp};

const WRITERS: usize = 8;

/// A small deterministic generator, one per writer.
struct Dice(u64);

impl Dice {
    fn roll(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

async fn writers(app: &TestApp) -> Vec<Actor> {
    let mut out = Vec::new();
    for w in 0..WRITERS {
        let email = format!("writer{w}@example.com");
        let id = backend::auth::User::insert(
            &app.state.db,
            backend::auth::NewUser {
                email: &email,
                first_name: "Writer",
                last_name: &w.to_string(),
                password_hash: None,
                role: backend::auth::Role::User,
                certificate: (w % 2 == 0).then_some("US"),
                terms_accepted: true,
                onboarding_done: true,
            },
        )
        .await
        .unwrap();
        let user = backend::auth::User::find_by_id(&app.state.db, &id)
            .await
            .unwrap()
            .unwrap();
        out.push(Actor::of(&user));
    }
    out
}

fn pdf_on_disk(app: &TestApp) -> std::path::PathBuf {
    let path = app.state.config.data_dir.join("load.pdf");
    std::fs::write(&path, crate::documents::PDF).unwrap();
    path
}

/// Refusals a racing workload may meet; anything else fails the test.
fn expected(result: Result<(), AppError>) -> bool {
    match result {
        Ok(()) => true,
        Err(AppError::BadRequest(_) | AppError::NotFound(_) | AppError::Conflict(_)) => false,
        Err(e) => panic!("unexpected refusal: {e:?}"),
    }
}

/// One writer's share of the workload: folders, uploads, renames, moves, shares, opens,
/// deletions, copies. Returns how many operations succeeded.
async fn work(
    docs: Arc<Documents>,
    me: Actor,
    all: Vec<Actor>,
    hot: String,
    pdf: std::path::PathBuf,
    rounds: usize,
    seed: u64,
) -> usize {
    let mut dice = Dice(seed);
    let mut folders: Vec<String> = Vec::new();
    let mut items: Vec<String> = Vec::new();
    let mut ok = 0;
    for round in 0..rounds {
        let parent = if folders.is_empty() || dice.roll(3) == 0 {
            None
        } else {
            Some(folders[dice.roll(folders.len())].clone())
        };
        match docs
            .create_folder(&me, parent.clone(), format!("F{round}"))
            .await
        {
            Ok(item) => {
                folders.push(item.id.clone());
                items.push(item.id);
                ok += 1;
            }
            Err(e) => assert!(!expected(Err(e))),
        }
        let stored = docs.storage.import(&pdf).await.unwrap();
        match docs
            .upload(
                &me,
                parent,
                format!("Doc {round}"),
                "doc.pdf".into(),
                stored,
            )
            .await
        {
            Ok(item) => {
                items.push(item.id);
                ok += 1;
            }
            Err(e) => assert!(!expected(Err(e))),
        }
        if !items.is_empty() {
            let target = items[dice.roll(items.len())].clone();
            ok += usize::from(expected(
                docs.rename(&me, &target, format!("R{round}"))
                    .await
                    .map(|_| ()),
            ));
            let target = items[dice.roll(items.len())].clone();
            let to = if dice.roll(4) == 0 || folders.is_empty() {
                None
            } else {
                Some(folders[dice.roll(folders.len())].clone())
            };
            ok += usize::from(expected(docs.move_item(&me, &target, to).await.map(|_| ())));
            let target = items[dice.roll(items.len())].clone();
            let other = &all[dice.roll(all.len())];
            if other.id != me.id {
                ok += usize::from(expected(
                    docs.share(&me, &target, Some(other.email.clone()), ShareVia::Internal)
                        .await
                        .map(|_| ()),
                ));
            }
        }
        // Everyone reads the same hot file: one aggregate, many writers, many conflicts.
        ok += usize::from(expected(
            docs.open(&me, &hot, round % 2 == 0).await.map(|_| ()),
        ));
        // Something shared with me: open it, now and then keep a copy.
        if let Ok(shared) = docs.list(&me, ListType::Shared).await {
            if let Some(item) = shared.iter().find(|i| i.kind == "file") {
                ok += usize::from(expected(docs.open(&me, &item.id, false).await.map(|_| ())));
                if round % 10 == 3 {
                    ok += usize::from(expected(
                        docs.save_to_mydocs(&me, &item.id, None).await.map(|_| ()),
                    ));
                }
            }
        }
        if round % 15 == 14 && folders.len() > 2 {
            let victim = folders.remove(dice.roll(folders.len()));
            ok += usize::from(expected(docs.delete(&me, &victim).await.map(|_| ())));
        }
    }
    ok
}

async fn all_document_events(app: &TestApp) -> Vec<projections::StoredEvent> {
    let mut out = Vec::new();
    let mut after = Position::default();
    loop {
        let batch = read_after(&app.state.db, after, 1000).await.unwrap();
        let Some(last) = batch.last() else { break };
        after = last.at;
        out.extend(
            batch
                .into_iter()
                .filter(|e| e.aggregate_type == events::documents::ITEM_TYPE),
        );
    }
    out
}

/// `doc_items` as id -> (title, parent), and `doc_shares` as (item, user).
type Expected = (
    BTreeMap<String, (String, Option<String>)>,
    BTreeSet<(String, String)>,
);

/// What the events say should be in `doc_items` and `doc_shares`.
fn fold(events: &[projections::StoredEvent]) -> Expected {
    let mut items: BTreeMap<String, (String, Option<String>)> = BTreeMap::new();
    let mut shares: BTreeSet<(String, String)> = BTreeSet::new();
    for e in events {
        let id = e.aggregate_id.clone();
        match e.decode::<ItemEvent>().unwrap() {
            ItemEvent::FolderCreated { name, parent, .. } => {
                items.insert(id, (name, parent.map(|p| p.id)));
            }
            ItemEvent::FileUploaded { file, parent, .. } => {
                items.insert(id, (file.title, parent.map(|p| p.id)));
            }
            ItemEvent::Copied { name, parent, .. } => {
                items.insert(id, (name, parent.map(|p| p.id)));
            }
            ItemEvent::Renamed { to, .. } => {
                if let Some(item) = items.get_mut(&id) {
                    item.0 = to;
                }
            }
            ItemEvent::Moved { to, .. } => {
                if let Some(item) = items.get_mut(&id) {
                    item.1 = to.map(|t| t.id);
                }
            }
            ItemEvent::FolderDeleted { removed, .. } => {
                for gone in removed.iter().chain([&id]) {
                    items.remove(gone);
                    shares.retain(|(item, _)| item != gone);
                }
            }
            ItemEvent::FileRemoved { .. } => {
                items.remove(&id);
                shares.retain(|(item, _)| item != &id);
            }
            ItemEvent::Shared { with, .. } => {
                shares.insert((id, with.id));
            }
            ItemEvent::MovedToMyDocs { by, .. } => {
                shares.remove(&(id, by));
            }
            _ => {}
        }
    }
    (items, shares)
}

async fn read_model(app: &TestApp) -> Expected {
    let rows: Vec<(String, String, Option<String>)> = on_db!(&app.state.db, pool => sqlx::query_as(
        "select id, title, parent_id from doc_items").fetch_all(pool).await)
    .unwrap();
    let shares: Vec<(String, String)> = on_db!(&app.state.db, pool => sqlx::query_as(
        "select item_id, user_id from doc_shares").fetch_all(pool).await)
    .unwrap();
    (
        rows.into_iter().map(|(id, t, p)| (id, (t, p))).collect(),
        shares.into_iter().collect(),
    )
}

async fn concurrent_writers_lose_no_document_event(app: TestApp) {
    let docs = app.state.documents.clone();
    let people = writers(&app).await;
    let pdf = pdf_on_disk(&app);
    // A file every writer can open: shared by writer 0 with all the others.
    let stored = docs.storage.import(&pdf).await.unwrap();
    let hot = docs
        .upload(&people[0], None, "Hot".into(), "hot.pdf".into(), stored)
        .await
        .unwrap()
        .id;
    for other in &people[1..] {
        docs.share(
            &people[0],
            &hot,
            Some(other.email.clone()),
            ShareVia::Internal,
        )
        .await
        .unwrap();
    }
    let before = all_document_events(&app).await.len();

    const ROUNDS: usize = 45;
    let mut tasks = Vec::new();
    for (w, me) in people.iter().enumerate() {
        tasks.push(tokio::spawn(work(
            docs.clone(),
            me.clone(),
            people.clone(),
            hot.clone(),
            pdf.clone(),
            ROUNDS,
            0x9E37_79B9_7F4A_7C15 ^ (w as u64 + 1),
        )));
    }
    let mut succeeded = 0;
    for t in tasks {
        succeeded += t.await.unwrap();
    }
    let recorded = all_document_events(&app).await;
    let commands = recorded.len() - before;
    assert!(
        commands >= 2000,
        "thousands of commands: {commands} events from {succeeded} operations"
    );
    // Many writers on one aggregate: its stream has every accepted open, in sequence.
    let hot_events =
        projections::stream::events_of(&app.state.db, events::documents::ITEM_TYPE, &hot)
            .await
            .unwrap();
    assert!(
        hot_events.len() > WRITERS * ROUNDS / 2,
        "{}",
        hot_events.len()
    );
    assert!(hot_events
        .iter()
        .enumerate()
        .all(|(i, e)| e.sequence == i as i64 + 1));

    // Nothing was left unread by the projector...
    let checkpoint = projections::projector::checkpoint_of(&app.state.db, "documents")
        .await
        .unwrap();
    assert!(
        read_after(&app.state.db, checkpoint, 10)
            .await
            .unwrap()
            .iter()
            .all(|e| e.aggregate_type != events::documents::ITEM_TYPE),
        "the documents projection has applied every document event"
    );
    // ...and the read model holds exactly what the events say.
    let (items, shares) = fold(&recorded);
    let (rows, shared) = read_model(&app).await;
    assert!(items.len() > 500, "{}", items.len());
    assert_eq!(rows, items, "doc_items == the events folded");
    assert_eq!(shared, shares, "doc_shares == the events folded");
    // Unread marks and badges: a rebuild from the first event gives the same tables.
    let report = backend::replay::run(&app.state.db, &app.state.config, &["documents".into()])
        .await
        .unwrap();
    assert!(report.differences.is_empty(), "{:?}", report.differences);
    assert_eq!(report.tables_compared, 8);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_writers_lose_no_document_event_sqlite() {
    concurrent_writers_lose_no_document_event(spawn_app(Engine::Sqlite).await.unwrap()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_writers_lose_no_document_event_postgres() {
    // Eight writers on the tests' pool of eight: the tree locks' connections are not the pool's.
    let Some(app) = spawn_app(Engine::Postgres).await else {
        return;
    };
    concurrent_writers_lose_no_document_event(app).await;
}

/// Structural commands in several trees at once on a pool smaller than their number: each holds
/// its tree's lock on a connection of the lock pool, so none waits on the main pool for a
/// connection another lock holder keeps (that wait ended in the pool's timeout and a 500).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn structural_commands_in_many_trees_at_once_on_a_small_pool_postgres() {
    // Three connections: one is the projector's lease, two serve every request.
    let Some(app) = spawn_app_with(Engine::Postgres, |config| config.database_pool_size = 3).await
    else {
        return;
    };
    let app = Arc::new(app);
    let mut tokens = Vec::new();
    for email in [
        crate::helpers::ANNA,
        crate::helpers::JOHN,
        crate::helpers::MARCO,
        crate::helpers::ADMIN,
    ] {
        tokens.push(app.token(email).await);
    }
    let mut tasks = Vec::new();
    for (n, token) in tokens.into_iter().enumerate() {
        let app = app.clone();
        tasks.push(tokio::spawn(async move {
            let mut statuses = Vec::new();
            for round in 0..3 {
                let body = serde_json::json!({"name": format!("Busy {n}-{round}"), "type": "my", "parent": null});
                statuses.push(app.post_json("/folders", Some(&token), &body).await.status());
            }
            statuses
        }));
    }
    for task in tasks {
        for status in task.await.unwrap() {
            assert_eq!(status, reqwest::StatusCode::CREATED);
        }
    }
    let folders: i64 = on_db!(&app.state.db, pool => sqlx::query_scalar(
        "select count(*) from doc_items where title like 'Busy %'").fetch_one(pool).await)
    .unwrap();
    assert_eq!(folders, 12);
}

/// A long workload touching every event kind, including the ones whose read-model effects are
/// hardest to get right: moves in and out of shared folders, deletions of shared folders,
/// copies into My Docs, external links, opens of US documents.
async fn mixed_workload(app: &TestApp) {
    let docs = app.state.documents.clone();
    let people = writers(app).await;
    let pdf = pdf_on_disk(app);
    let (a, b, c) = (&people[0], &people[1], &people[2]);
    for round in 0..30 {
        let shared_root = docs
            .create_folder(a, None, format!("Shared {round}"))
            .await
            .unwrap()
            .id;
        let private = docs
            .create_folder(a, None, format!("Private {round}"))
            .await
            .unwrap()
            .id;
        let inner = docs
            .create_folder(a, Some(private.clone()), "Inner".into())
            .await
            .unwrap()
            .id;
        let mut files = Vec::new();
        for (n, parent) in [&shared_root, &private, &inner].into_iter().enumerate() {
            let stored = docs.storage.import(&pdf).await.unwrap();
            files.push(
                docs.upload(
                    a,
                    Some(parent.clone()),
                    format!("File {round}.{n}"),
                    "f.pdf".into(),
                    stored,
                )
                .await
                .unwrap()
                .id,
            );
        }
        docs.share(a, &shared_root, Some(b.email.clone()), ShareVia::Internal)
            .await
            .unwrap();
        docs.share(a, &files[2], Some(c.email.clone()), ShareVia::Internal)
            .await
            .unwrap();
        // Into the shared folder (b gains the subtree), read some, out again (b loses it).
        docs.move_item(a, &private, Some(shared_root.clone()))
            .await
            .unwrap();
        docs.open(b, &files[1], false).await.unwrap();
        docs.folder(b, &shared_root, ListType::Shared)
            .await
            .unwrap();
        docs.rename(a, &inner, format!("Inner {round}"))
            .await
            .unwrap();
        if round % 2 == 0 {
            docs.move_item(a, &private, None).await.unwrap();
        }
        docs.share_externally(
            a,
            &files[0],
            Some(format!("guest{round}@clinic.example")),
            Default::default(),
        )
        .await
        .unwrap();
        docs.save_to_mydocs(b, &files[0], None).await.unwrap();
        docs.open(c, &files[2], true).await.unwrap();
        if round % 3 == 0 {
            docs.move_to_mydocs(b, &shared_root).await.unwrap();
        }
        if round % 5 == 2 {
            docs.delete(a, &files[2]).await.unwrap();
        }
        if round % 4 == 1 {
            docs.delete(a, &shared_root).await.unwrap();
        }
    }
    // The seeded US set, opened by US writers.
    let us = docs.list(a, ListType::Us).await.unwrap();
    for item in us.iter().filter(|i| i.kind == "file") {
        docs.open(a, &item.id, false).await.unwrap();
    }
}

async fn rebuild_equals_live_after_a_long_mixed_workload(app: TestApp) {
    mixed_workload(&app).await;
    let report = backend::replay::run(&app.state.db, &app.state.config, &[])
        .await
        .unwrap();
    assert!(report.events_applied > 500, "{}", report.events_applied);
    assert!(report.rows_compared > 100, "{}", report.rows_compared);
    assert!(report.differences.is_empty(), "{:?}", report.differences);
    // With no memory for settled rows, every batch spills them (on PostgreSQL on a connection
    // of their own while the rebuild goes on): the same rows.
    let mut spilling = (*app.state.config).clone();
    spilling.rebuild_spill_mib = 0;
    let report = backend::replay::run(&app.state.db, &spilling, &["documents".into()])
        .await
        .unwrap();
    assert!(report.rows_compared > 100, "{}", report.rows_compared);
    assert!(report.differences.is_empty(), "{:?}", report.differences);
    // A damaged live row is found.
    on_db!(&app.state.db, pool => sqlx::query(
        "update doc_items set title = 'tampered' where id = (select min(id) from doc_items)")
        .execute(pool).await.map(|r| r.rows_affected()))
    .unwrap();
    let report = backend::replay::run(&app.state.db, &app.state.config, &["documents".into()])
        .await
        .unwrap();
    assert_eq!(report.differences.len(), 1);
    assert_eq!(report.differences[0].table, "doc_items");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rebuild_equals_live_after_a_long_mixed_workload_sqlite() {
    rebuild_equals_live_after_a_long_mixed_workload(spawn_app(Engine::Sqlite).await.unwrap()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rebuild_equals_live_after_a_long_mixed_workload_postgres() {
    let Some(app) = spawn_app(Engine::Postgres).await else {
        return;
    };
    rebuild_equals_live_after_a_long_mixed_workload(app).await;
}

/// Every user's feed rows, counted by kind.
async fn feed_rows(app: &TestApp) -> BTreeMap<String, i64> {
    let rows: Vec<(String, i64)> = on_db!(&app.state.db, pool => sqlx::query_as(
        "select kind, count(*) from user_feed group by kind").fetch_all(pool).await)
    .unwrap();
    rows.into_iter().collect()
}

/// Staging schemas a swap left behind (PostgreSQL; none on SQLite).
async fn staging_schemas_left(app: &TestApp) -> i64 {
    match &app.state.db {
        projections::Db::Postgres { pool } => {
            sqlx::query_scalar("select count(*) from pg_namespace where nspname like 'swap\\_%'")
                .fetch_one(pool)
                .await
                .unwrap()
        }
        projections::Db::Sqlite { .. } => 0,
    }
}

/// The projections' tables as the database describes them: columns, keys, indexes and foreign
/// keys with their names and definitions.
async fn projection_schema(app: &TestApp) -> Vec<String> {
    let tables: Vec<String> = backend::read_models::all()
        .iter()
        .flat_map(|p| p.tables().iter().map(|t| t.name.to_string()))
        .collect();
    schema_of(&app.state.db, &tables).await
}

/// `tables` as `db` describes them: columns, keys, indexes and foreign keys with their names
/// and definitions, sorted.
async fn schema_of(db: &projections::Db, tables: &[String]) -> Vec<String> {
    let rows: Vec<(String, String)> = match db {
        projections::Db::Sqlite { pool, .. } => {
            let mut rows = Vec::new();
            for table in tables {
                rows.extend(
                    sqlx::query_as::<_, (String, String)>(
                        "select name, coalesce(sql, 'automatic') from sqlite_master
                         where tbl_name = $1 and type in ('table', 'index')",
                    )
                    .bind(table)
                    .fetch_all(pool)
                    .await
                    .unwrap(),
                );
            }
            rows
        }
        projections::Db::Postgres { pool } => sqlx::query_as(
            "select c.relname::text || '.' || k.conname::text, pg_get_constraintdef(k.oid)
             from pg_constraint k join pg_class c on c.oid = k.conrelid
             where c.relname = any($1) and c.relnamespace = current_schema()::regnamespace
             union all
             select indexname::text, indexdef from pg_indexes
             where tablename = any($1) and schemaname = current_schema()
             union all
             select table_name::text || '.' || column_name::text,
                    data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '')
             from information_schema.columns
             where table_name = any($1) and table_schema = current_schema()",
        )
        .bind(tables)
        .fetch_all(pool)
        .await
        .unwrap(),
    };
    let mut rows: Vec<String> = rows.into_iter().map(|(n, d)| format!("{n}: {d}")).collect();
    rows.sort();
    rows
}

/// Every documents table of `rebuilt` holds the rows of `live`'s, row for row.
async fn assert_documents_as_live(rebuilt: &projections::Db, live: &projections::Db) {
    for table in projections::documents::DocumentsProjection.tables() {
        let rows = projections::replay::table_rows(rebuilt, table)
            .await
            .unwrap();
        let expected = projections::replay::table_rows(live, table).await.unwrap();
        assert!(rows == expected, "{} differs", table.name);
    }
}

/// The documents rebuild drops the indexes of the tables it fills (on PostgreSQL their keys
/// too) and builds them again at the end: the rebuilt database has every key and index the
/// migrations made, by the same names, as well as the live rows; and the same rebuild, gone
/// on batch by batch after more commands, writes through those keys.
/// `pool`: the rebuilt database's connections on PostgreSQL (with two its end is written on
/// two connections instead of three).
async fn a_rebuilt_database_has_every_key_and_index(app: TestApp, pool: u32) {
    mixed_workload(&app).await;
    let tables: Vec<String> = projections::documents::DocumentsProjection
        .tables()
        .iter()
        .map(|t| t.name.to_string())
        .chain(["user_feed".to_string()])
        .collect();
    let live = &app.state.db;
    let (fresh, _guard) = match live {
        projections::Db::Sqlite { .. } => {
            let path = app.state.config.data_dir.join("rebuilt.db");
            let url = format!("sqlite://{}", path.display());
            (projections::Db::connect_scratch(&url).await.unwrap(), None)
        }
        projections::Db::Postgres { .. } => {
            let Some(target) = crate::helpers::PgDatabase::create().await else {
                return;
            };
            (
                projections::Db::connect_scratch_with_pool(&target.url(), pool)
                    .await
                    .unwrap(),
                Some(target),
            )
        }
    };
    let documents: Arc<dyn projections::Projection> =
        Arc::new(projections::documents::DocumentsProjection);
    let rebuilder = documents
        .rebuilder(&fresh, 0)
        .expect("the documents projection rebuilds resident");
    let to = projections::projector::checkpoint_of(live, "documents")
        .await
        .unwrap();
    let rebuilding = |to| {
        projections::Projector::rebuilding(
            live.clone(),
            fresh.clone(),
            vec![rebuilder.clone()],
            Some(to),
        )
    };
    let applied = rebuilding(to).run_to_end().await.unwrap();
    assert!(applied > 500, "{applied}");
    assert_eq!(
        schema_of(&fresh, &tables).await,
        schema_of(live, &tables).await
    );
    assert_documents_as_live(&fresh, live).await;
    // The rebuild tells nobody: the feed is the live projection's record of what was sent.
    let feed: i64 = on_db!(&fresh, pool => sqlx::query_scalar(
        "select count(*) from user_feed").fetch_one(pool).await)
    .unwrap();
    assert_eq!(feed, 0, "a rebuild writes no feed message");
    // On PostgreSQL the rebuild's own tables skip the write-ahead log (the feed, which it does
    // not write, keeps it); the live ones keep it.
    if let (projections::Db::Postgres { pool: fresh_pool }, projections::Db::Postgres { pool }) =
        (&fresh, live)
    {
        let persistence = |pool| {
            let tables = tables.clone();
            async move {
                let rows: Vec<(String, String)> = sqlx::query_as(
                    "select relname::text, relpersistence::text from pg_class
                     where relkind = 'r' and relname = any($1) order by relname",
                )
                .bind(tables)
                .fetch_all(pool)
                .await
                .unwrap();
                rows
            }
        };
        let rebuilt = persistence(fresh_pool).await;
        assert_eq!(rebuilt.len(), tables.len(), "{rebuilt:?}");
        assert!(
            rebuilt
                .iter()
                .all(|(t, p)| p == if t == "user_feed" { "p" } else { "u" }),
            "{rebuilt:?}"
        );
        let kept = persistence(pool).await;
        assert!(kept.iter().all(|(_, p)| p == "p"), "{kept:?}");
    }
    // More commands; the rebuild goes on from where it is, batch by batch, with conflict
    // clauses that need the keys.
    let actor = |email: &'static str| async move {
        let user = backend::auth::User::find_by_email(live, email)
            .await
            .unwrap()
            .unwrap();
        Actor::of(&user)
    };
    let (a, b) = (
        actor("writer0@example.com").await,
        actor("writer1@example.com").await,
    );
    let docs = app.state.documents.clone();
    for round in 0..5 {
        let folder = docs
            .create_folder(&a, None, format!("Later {round}"))
            .await
            .unwrap()
            .id;
        docs.rename(&a, &folder, format!("Renamed later {round}"))
            .await
            .unwrap();
        docs.share(&a, &folder, Some(b.email.clone()), ShareVia::Internal)
            .await
            .unwrap();
    }
    let to = projections::projector::checkpoint_of(live, "documents")
        .await
        .unwrap();
    let applied = rebuilding(to).run_to_end().await.unwrap();
    assert!(applied >= 15, "{applied}");
    assert_documents_as_live(&fresh, live).await;
    fresh.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rebuilt_database_has_every_key_and_index_sqlite() {
    a_rebuilt_database_has_every_key_and_index(spawn_app(Engine::Sqlite).await.unwrap(), 1).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rebuilt_database_has_every_key_and_index_postgres() {
    let Some(app) = spawn_app(Engine::Postgres).await else {
        return;
    };
    a_rebuilt_database_has_every_key_and_index(app, projections::db::POSTGRES_POOL_SIZE).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rebuilt_database_has_every_key_and_index_postgres_on_a_pool_of_two() {
    let Some(app) = spawn_app(Engine::Postgres).await else {
        return;
    };
    a_rebuilt_database_has_every_key_and_index(app, 2).await;
}

/// On PostgreSQL a resident rebuild's rounds after its first write nothing but their
/// checkpoints: each moves them in one statement that commits on its own (a light round),
/// instead of reading them and moving them in a transaction of its own. The checkpoint is where
/// the rows are after every round, and the rebuilt rows are the live ones.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resident_rebuilds_rounds_commit_once_each_on_postgres() {
    let Some(app) = spawn_app(Engine::Postgres).await else {
        return;
    };
    mixed_workload(&app).await;
    let live = &app.state.db;
    let Some(target) = crate::helpers::PgDatabase::create().await else {
        return;
    };
    let rounds_of = |light: &str| {
        let series = format!(
            "{}{{light=\"{light}\"}}",
            projections::rebuild_progress::metric_names::ROUNDS_TOTAL
        );
        crate::helpers::counter(&backend::http::metrics::render(&app.state), &series) as usize
    };
    let (light_before, heavy_before) = (rounds_of("true"), rounds_of("false"));
    let fresh = projections::Db::connect_scratch(&target.url())
        .await
        .unwrap();
    let documents: Arc<dyn projections::Projection> =
        Arc::new(projections::documents::DocumentsProjection);
    // Never spilled: a spill commits on its own connection.
    let rebuilder = documents
        .rebuilder(&fresh, usize::MAX)
        .expect("the documents projection rebuilds resident");
    let to = projections::projector::checkpoint_of(live, "documents")
        .await
        .unwrap();
    const BATCH: usize = 20;
    let projector = projections::Projector::rebuilding(
        live.clone(),
        fresh.clone(),
        vec![rebuilder.clone()],
        Some(to),
    )
    .with_batch_size(BATCH as i64);
    let (mut rounds, mut applied, mut light_rounds) = (0, 0, 0);
    loop {
        let n = projector.run_once().await.unwrap();
        if n == 0 {
            break;
        }
        rounds += 1;
        applied += n;
        // Light from the round after the first that applied a documents event (the stream
        // begins with other aggregates' events), then every round.
        let light = rounds_of("true") - light_before;
        if light_rounds > 0 {
            assert_eq!(light, light_rounds + 1, "round {rounds} is not light");
        }
        light_rounds = light;
        // Where the rows are: every event read so far.
        let at = projections::projector::checkpoint_of(&fresh, "documents")
            .await
            .unwrap();
        let read = read_after(live, Position::default(), applied as i64)
            .await
            .unwrap();
        assert_eq!(Some(at), read.last().map(|e| e.at), "round {rounds}");
    }
    assert_eq!(projector.run_to_end().await.unwrap(), 0);
    let heavy = rounds_of("false") - heavy_before;
    assert!(
        light_rounds >= 20 && light_rounds + heavy == rounds + 2,
        "{rounds} rounds of {applied} events: {light_rounds} light, {heavy} others"
    );
    assert_documents_as_live(&fresh, live).await;
    fresh.close().await;
}

/// `companion rebuild`: every projection rebuilt beside the live projector and swapped in, while
/// a writer keeps creating folders through the API. Damaged live rows (in the shared lane and in
/// one that rebuilds alone) are gone afterwards, the live projector went on from the swapped
/// tables (a rebuild compared with them finds no difference), every command was answered, and
/// the swap itself wrote no feed message.
async fn a_rebuild_swapped_in_replaces_damaged_tables_while_commands_go_on(app: TestApp) {
    mixed_workload(&app).await;
    let anna = app.token(crate::helpers::ANNA).await;
    for damage in [
        "update doc_items set title = 'tampered' where id = (select min(id) from doc_items)",
        "delete from doc_shares where item_id = (select min(item_id) from doc_shares)",
        "update item_reads set opens = opens + 100",
    ] {
        let n = on_db!(&app.state.db, pool => sqlx::query(damage)
            .execute(pool).await.map(|r| r.rows_affected()))
        .unwrap();
        assert!(n > 0, "{damage}");
    }
    let damaged = backend::replay::run(&app.state.db, &app.state.config, &[])
        .await
        .unwrap();
    let tables: BTreeSet<_> = damaged.differences.iter().map(|d| d.table).collect();
    assert_eq!(
        tables,
        BTreeSet::from(["doc_items", "doc_shares", "item_reads"])
    );

    // The swap alone writes no feed message: counted with nothing else writing.
    let feed_before = feed_rows(&app).await;
    let schema_before = projection_schema(&app).await;
    assert!(schema_before.len() > 40, "{schema_before:?}");
    let (report, swaps) = backend::replay::rebuild(&app.state.db, &app.state.config, &[])
        .await
        .unwrap();
    assert!(report.events_applied > 500, "{}", report.events_applied);
    let names: Vec<_> = swaps.iter().map(|s| s.projection).collect();
    let all: Vec<_> = backend::read_models::all()
        .iter()
        .map(|p| p.name())
        .collect();
    assert_eq!(names, all, "one swap per projection, in the server's order");
    assert_eq!(feed_rows(&app).await, feed_before);
    assert_eq!(
        projection_schema(&app).await,
        schema_before,
        "every column, key, index and foreign key as before, by the same names"
    );
    if let projections::Db::Postgres { pool } = &app.state.db {
        // Statistics gathered for the columns queries use, not for the text only shown.
        let analyzed: Vec<String> = sqlx::query_scalar(
            "select attname::text from pg_stats where schemaname = current_schema()
             and tablename = 'doc_items'",
        )
        .fetch_all(pool)
        .await
        .unwrap();
        for column in ["id", "parent_id", "path", "owner_id"] {
            assert!(
                analyzed.iter().any(|c| c == column),
                "{column}: {analyzed:?}"
            );
        }
        assert!(!analyzed.iter().any(|c| c == "subtitle"), "{analyzed:?}");
    }
    let repaired = backend::replay::run(&app.state.db, &app.state.config, &[])
        .await
        .unwrap();
    assert!(
        repaired.differences.is_empty(),
        "{:?}",
        repaired.differences
    );

    // Again with a writer going on: its commands wait through the swap and are all answered,
    // and the live projector carries on from the swapped tables.
    on_db!(&app.state.db, pool => sqlx::query(
        "update doc_items set title = 'tampered again' where id = (select max(id) from doc_items)")
        .execute(pool).await.map(|r| r.rows_affected()))
    .unwrap();
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let app = Arc::new(app);
    let writer = {
        let (app, stop, anna) = (app.clone(), stop.clone(), anna.clone());
        tokio::spawn(async move {
            let mut statuses = Vec::new();
            let mut n = 0;
            while !stop.load(std::sync::atomic::Ordering::Acquire) || n < 5 {
                let body = serde_json::json!({"name": format!("During the swap {n}"), "type": "my", "parent": null});
                statuses.push(app.post_json("/folders", Some(&anna), &body).await.status());
                n += 1;
            }
            statuses
        })
    };
    let (_, swaps) =
        backend::replay::rebuild(&app.state.db, &app.state.config, &["documents".into()])
            .await
            .unwrap();
    stop.store(true, std::sync::atomic::Ordering::Release);
    let statuses = writer.await.unwrap();
    assert!(
        statuses.iter().all(|s| *s == reqwest::StatusCode::CREATED),
        "{statuses:?}"
    );
    assert_eq!(swaps.len(), 1);
    let folders: i64 = on_db!(&app.state.db, pool => sqlx::query_scalar(
        "select count(*) from doc_items where title like 'During the swap %'").fetch_one(pool).await)
    .unwrap();
    assert_eq!(folders, statuses.len() as i64);
    let after = backend::replay::run(&app.state.db, &app.state.config, &[])
        .await
        .unwrap();
    assert!(after.differences.is_empty(), "{:?}", after.differences);
    assert_eq!(staging_schemas_left(&app).await, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rebuild_swapped_in_replaces_damaged_tables_while_commands_go_on_sqlite() {
    a_rebuild_swapped_in_replaces_damaged_tables_while_commands_go_on(
        spawn_app(Engine::Sqlite).await.unwrap(),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rebuild_swapped_in_replaces_damaged_tables_while_commands_go_on_postgres() {
    let Some(app) = spawn_app(Engine::Postgres).await else {
        return;
    };
    a_rebuild_swapped_in_replaces_damaged_tables_while_commands_go_on(app).await;
}

/// The value of a gauge of one projection in `/metrics`, when there.
fn gauge(metrics: &str, name: &str, projection: &str) -> Option<f64> {
    let prefix = format!("{name}{{projection=\"{projection}\"}} ");
    metrics
        .lines()
        .find_map(|line| line.strip_prefix(&prefix))
        .and_then(|v| v.trim().parse().ok())
}

/// Polls `/metrics` (the projector samples once a second) until `check` holds.
async fn metrics_until(app: &TestApp, check: impl Fn(&str) -> bool) -> String {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let metrics = backend::http::metrics::render(&app.state);
        if check(&metrics) || std::time::Instant::now() > deadline {
            return metrics;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

/// A rebuild in another process records how far it is in the live database; the server shows it
/// in `/metrics` with an estimate, and stops showing it when the row goes or grows stale (its
/// process killed).
async fn a_rebuild_beside_the_server_shows_in_metrics(app: TestApp) {
    use projections::rebuild_progress::{self, metric_names};
    let db = &app.state.db;
    let now = projections::now_ms();
    let progress = projections::replay::RebuildProgress {
        projection: "documents",
        applied: 250_000,
        total: 1_000_000,
        elapsed: std::time::Duration::from_secs(5),
    };
    rebuild_progress::record(db, &progress, now).await.unwrap();
    // A rebuild of the library last heard of a minute ago: its process is gone.
    let gone = projections::replay::RebuildProgress {
        projection: "library",
        ..progress
    };
    rebuild_progress::record(db, &gone, now - 60_000)
        .await
        .unwrap();
    let metrics = metrics_until(&app, |m| {
        gauge(m, metric_names::RUNNING, "documents") == Some(1.0)
    })
    .await;
    assert_eq!(
        gauge(&metrics, metric_names::RUNNING, "documents"),
        Some(1.0),
        "{metrics}"
    );
    assert_eq!(
        gauge(&metrics, metric_names::EVENTS_APPLIED, "documents"),
        Some(250_000.0)
    );
    assert_eq!(
        gauge(&metrics, metric_names::EVENTS_TOTAL, "documents"),
        Some(1_000_000.0)
    );
    // 750,000 events left at 50,000 a second.
    assert_eq!(
        gauge(&metrics, metric_names::SECONDS_LEFT, "documents"),
        Some(15.0)
    );
    assert_eq!(gauge(&metrics, metric_names::RUNNING, "library"), Some(0.0));
    assert_eq!(gauge(&metrics, metric_names::RUNNING, "terms"), Some(0.0));

    rebuild_progress::clear(db, "documents").await.unwrap();
    let metrics = metrics_until(&app, |m| {
        gauge(m, metric_names::RUNNING, "documents") == Some(0.0)
    })
    .await;
    assert_eq!(
        gauge(&metrics, metric_names::RUNNING, "documents"),
        Some(0.0),
        "{metrics}"
    );
    assert_eq!(
        gauge(&metrics, metric_names::SECONDS_LEFT, "documents"),
        Some(0.0)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rebuild_beside_the_server_shows_in_metrics_sqlite() {
    a_rebuild_beside_the_server_shows_in_metrics(spawn_app(Engine::Sqlite).await.unwrap()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rebuild_beside_the_server_shows_in_metrics_postgres() {
    let Some(app) = spawn_app(Engine::Postgres).await else {
        return;
    };
    a_rebuild_beside_the_server_shows_in_metrics(app).await;
}

/// A swap that fails halfway (here the live table has a column the rebuilt one lacks, as after a
/// migration the rebuild did not get) rolls back: the live rows stay as they were, damage
/// included, the checkpoint too, and the server's connections work on.
async fn a_failed_swap_leaves_the_live_tables_as_they_were(app: TestApp) {
    let db = &app.state.db;
    let rows = |db: &projections::Db| {
        let db = db.clone();
        async move {
            let rows: Vec<(String, String, i64)> = on_db!(&db, pool => sqlx::query_as(
                "select user_id, version, accepted_at from terms_acceptances order by user_id, version")
                .fetch_all(pool).await)
            .unwrap();
            rows
        }
    };
    let damaged = on_db!(db, pool => sqlx::query(
        "update terms_acceptances set accepted_at = 1 where user_id = (select min(user_id) from terms_acceptances)")
        .execute(pool).await.map(|r| r.rows_affected()))
    .unwrap();
    assert!(damaged > 0);
    on_db!(db, pool => sqlx::query(
        "alter table terms_acceptances add column note text not null default 'kept'")
        .execute(pool).await.map(|r| r.rows_affected()))
    .unwrap();
    let before = rows(db).await;
    let checkpoint = projections::projector::checkpoint_of(db, "terms")
        .await
        .unwrap();

    let failed = backend::replay::rebuild(db, &app.state.config, &["terms".into()]).await;
    let error = failed
        .expect_err("the rebuilt table has no `note`")
        .to_string();
    assert!(error.contains("note"), "{error}");
    assert_eq!(rows(db).await, before, "nothing swapped");
    assert!(
        before.iter().any(|(_, _, at)| *at == 1),
        "the damage is still there"
    );
    assert_eq!(
        projections::projector::checkpoint_of(db, "terms")
            .await
            .unwrap(),
        checkpoint
    );
    // Every connection of the pool still answers (none was left inside the failed swap).
    for _ in 0..12 {
        let one: i64 =
            on_db!(db, pool => sqlx::query_scalar("select count(*) from terms_acceptances")
            .fetch_one(pool).await)
            .unwrap();
        assert_eq!(one, before.len() as i64);
    }
    let folder = app
        .post_json(
            "/folders",
            Some(&app.token(crate::helpers::ANNA).await),
            &serde_json::json!({"name": "After the failed swap", "type": "my", "parent": null}),
        )
        .await;
    assert_eq!(folder.status(), reqwest::StatusCode::CREATED);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_swap_leaves_the_live_tables_as_they_were_sqlite() {
    a_failed_swap_leaves_the_live_tables_as_they_were(spawn_app(Engine::Sqlite).await.unwrap())
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_swap_leaves_the_live_tables_as_they_were_postgres() {
    let Some(app) = spawn_app(Engine::Postgres).await else {
        return;
    };
    a_failed_swap_leaves_the_live_tables_as_they_were(app).await;
}
