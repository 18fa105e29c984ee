//! A document tree's lock across nodes, on PostgreSQL: the test holds a tree's advisory lock on
//! a connection of its own, as another node's lock connection holds it, and watches what the
//! server does meanwhile.

use std::sync::Arc;
use std::time::{Duration, Instant};

use backend::documents::lock::{stripe_and_lock_connection, tree_lock_key};
use projections::on_db;
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{spawn_app_with, Engine, TestApp, ANNA, JOHN};

/// The tests' pool: three connections, so the node has two lock connections and trees share them.
const POOL: u32 = 3;

async fn user_id(app: &TestApp, email: &str) -> String {
    on_db!(&app.state.db, pool => sqlx::query_scalar("select id from users where email = $1")
        .bind(email)
        .fetch_one(pool)
        .await)
    .expect("user")
}

/// Tree locks the server holds: advisory locks of the trees' class, granted to its sessions
/// (those of its database: other tests' servers hold theirs meanwhile).
async fn server_tree_locks(app: &TestApp) -> i64 {
    let (class, _) = tree_lock_key("");
    on_db!(&app.state.db, pool => sqlx::query_scalar(
        "select count(*) from pg_locks l join pg_stat_activity a on a.pid = l.pid
         where l.locktype = 'advisory' and l.classid = $1 and l.granted
           and a.application_name = $2 and a.datname = current_database()",
    )
    .bind(i64::from(class))
    .bind(backend::documents::lock::LOCK_CONNECTION_NAME)
    .fetch_one(pool)
    .await)
    .expect("locks")
}

/// Waits until the server holds no tree's lock (it releases them just after its answers).
async fn until_no_tree_is_held(app: &TestApp) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let held = server_tree_locks(app).await;
        if held == 0 {
            return;
        }
        assert!(Instant::now() < deadline, "{held} tree locks still held");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn create_folder(app: &TestApp, token: &str, name: &str) -> StatusCode {
    let body = json!({"name": name, "type": "my", "parent": null});
    app.post_json("/folders", Some(token), &body).await.status()
}

async fn folders_named(app: &TestApp, name: &str) -> i64 {
    on_db!(&app.state.db, pool => sqlx::query_scalar("select count(*) from doc_items where title = $1")
        .bind(name)
        .fetch_one(pool)
        .await)
    .expect("count")
}

/// A signed-in user made for the test, whose id passes `fits` (its tree on a chosen connection).
async fn token_of_new_user(app: &TestApp, name: &str, fits: impl Fn(&str) -> bool) -> String {
    let id = (0..)
        .map(|n| format!("tree-lock-{name}-{n}"))
        .find(|id| fits(id))
        .expect("an id");
    let terms = &app.state.auth.config.terms_version;
    on_db!(&app.state.db, pool => sqlx::query(
        "insert into users (id, email, first_name, last_name, role, created_at)
         values ($1, $2, 'Test', 'Neighbour', 'user', 0)",
    )
    .bind(&id)
    .bind(format!("{id}@example.com"))
    .execute(pool)
    .await
    .map(|r| r.rows_affected()))
    .expect("user");
    on_db!(&app.state.db, pool => sqlx::query(
        "insert into terms_acceptances (user_id, version, accepted_at) values ($1, $2, 0)",
    )
    .bind(&id)
    .bind(terms)
    .execute(pool)
    .await
    .map(|r| r.rows_affected()))
    .expect("terms");
    let (session, ends) =
        backend::auth::sessions::open_on(&app.state.db, &id, 86_400_000, None, None)
            .await
            .expect("session");
    app.state
        .auth
        .jwt
        .issue(&id, &session, ends / 1000)
        .expect("token")
}

/// A connection of the test's own holding `owner`'s tree, as another node would.
async fn hold_tree(app: &TestApp, owner: &str) -> sqlx::PgConnection {
    use sqlx::Connection;
    let url = app.state.config.database_url.clone().expect("PostgreSQL");
    let mut holder = sqlx::PgConnection::connect(&url).await.expect("holder");
    let (class, key) = tree_lock_key(owner);
    sqlx::query("select pg_advisory_lock($1, $2)")
        .bind(class)
        .bind(key)
        .execute(&mut holder)
        .await
        .expect("hold");
    holder
}

async fn release_tree(holder: &mut sqlx::PgConnection, owner: &str) {
    let (class, key) = tree_lock_key(owner);
    let released: bool = sqlx::query_scalar("select pg_advisory_unlock($1, $2)")
        .bind(class)
        .bind(key)
        .fetch_one(holder)
        .await
        .expect("release");
    assert!(released);
}

/// A structural command in a tree another node holds waits for it, and only it: commands in
/// other trees, two of them on the same lock connection, are answered meanwhile. Once the
/// other node lets go, the command is stored once, and the server keeps no lock after it.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_tree_held_by_another_node_waits_and_other_trees_go_on_postgres() {
    let Some(app) = spawn_app_with(Engine::Postgres, |c| c.database_pool_size = POOL).await else {
        return;
    };
    let app = Arc::new(app);
    let anna = user_id(&app, ANNA).await;
    // Colleagues whose trees are on Anna's lock connection (without them the test would not show
    // that a waiting tree leaves its connection free) and on the other one, each in another
    // stripe than hers (trees of one stripe also take turns on the node).
    let (stripe, connection) = stripe_and_lock_connection(&anna, POOL);
    let mut tokens = Vec::new();
    for (name, same_connection) in [("nina", true), ("noah", true), ("nora", false)] {
        let token = token_of_new_user(&app, name, |id| {
            let (their_stripe, their_connection) = stripe_and_lock_connection(id, POOL);
            their_stripe != stripe && (their_connection == connection) == same_connection
        })
        .await;
        tokens.push(token);
    }
    let anna_token = app.token(ANNA).await;
    let mut holder = hold_tree(&app, &anna).await;

    let waiting = {
        let (app, token) = (app.clone(), anna_token.clone());
        tokio::spawn(async move { create_folder(&app, &token, "Waits for its tree").await })
    };
    for (n, token) in tokens.iter().enumerate() {
        for round in 0..3 {
            let name = format!("Goes on {n}-{round}");
            assert_eq!(create_folder(&app, token, &name).await, StatusCode::CREATED);
        }
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        !waiting.is_finished(),
        "answered while another node held the tree"
    );
    assert_eq!(folders_named(&app, "Waits for its tree").await, 0);

    release_tree(&mut holder, &anna).await;
    assert_eq!(waiting.await.expect("task"), StatusCode::CREATED);
    assert_eq!(folders_named(&app, "Waits for its tree").await, 1);
    until_no_tree_is_held(&app).await;
    // The tree is free again, for this node and for others.
    assert_eq!(
        create_folder(&app, &anna_token, "After the wait").await,
        StatusCode::CREATED
    );
    until_no_tree_is_held(&app).await;
}

/// A request given up while its tree is held elsewhere leaves no lock behind: whether its
/// handler was dropped mid-wait or ran on, the node holds no tree once it is over, and the
/// owner's next command goes through.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_request_given_up_while_its_tree_waits_leaves_no_lock_postgres() {
    let Some(app) = spawn_app_with(Engine::Postgres, |c| c.database_pool_size = POOL).await else {
        return;
    };
    let anna = user_id(&app, ANNA).await;
    let token = app.token(ANNA).await;
    let mut holder = hold_tree(&app, &anna).await;
    let impatient = reqwest::Client::builder()
        .timeout(Duration::from_millis(400))
        .build()
        .expect("client");
    let given_up = impatient
        .post(app.url("/folders"))
        .bearer_auth(&token)
        .json(&json!({"name": "Given up", "type": "my", "parent": null}))
        .send()
        .await;
    assert!(
        given_up.is_err_and(|e| e.is_timeout()),
        "answered while held"
    );
    release_tree(&mut holder, &anna).await;
    until_no_tree_is_held(&app).await;
    assert_eq!(
        create_folder(&app, &token, "Next one").await,
        StatusCode::CREATED
    );
    until_no_tree_is_held(&app).await;
    // Whatever the given-up request did, it did it once at most.
    assert!(folders_named(&app, "Given up").await <= 1);
}

/// A lock connection PostgreSQL ends (a restart, an administrator, a network cut) is opened
/// again: the next commands are answered as usual.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_lock_connection_ended_by_postgres_is_opened_again_postgres() {
    let Some(app) = spawn_app_with(Engine::Postgres, |c| c.database_pool_size = POOL).await else {
        return;
    };
    let token = app.token(ANNA).await;
    assert_eq!(
        create_folder(&app, &token, "Before").await,
        StatusCode::CREATED
    );
    until_no_tree_is_held(&app).await;
    let ended: i64 = on_db!(&app.state.db, pool => sqlx::query_scalar(
        "select count(*) from (select pg_terminate_backend(pid) from pg_stat_activity
         where application_name = $1 and datname = current_database()) t",
    )
    .bind(backend::documents::lock::LOCK_CONNECTION_NAME)
    .fetch_one(pool)
    .await)
    .expect("terminate");
    assert!(ended >= 1, "no lock connection to end");
    assert_eq!(
        create_folder(&app, &token, "After").await,
        StatusCode::CREATED
    );
    let john = app.token(JOHN).await;
    assert_eq!(
        create_folder(&app, &john, "Another tree").await,
        StatusCode::CREATED
    );
    assert_eq!(folders_named(&app, "After").await, 1);
    until_no_tree_is_held(&app).await;
}
