//! Over 600 lines: one program whose history generator, timed rebuild, read baseline and as-of
//! timings share one setup.
//!
//! Rebuilding the documents projection from position 0 over a large event history: events per
//! second and peak memory, next to a plain read of the same events in the same run.
//!
//! ```text
//! cargo run --release -p bench --bin rebuild_bench -- [--events 1000000] [--users 2000]
//!     [--rebuilds 3] [--timeout 3600] [--database-url postgres://postgres@127.0.0.1:5432/postgres]
//! ```
//!
//! 1. Generates a document history straight into the `events` table of a fresh database (a
//!    SQLite file in a temporary folder, or a throw-away PostgreSQL database created on the
//!    server of `--database-url`): many users each working in their own My Docs, with folders
//!    created, PDF and XLS files uploaded, renamed, moved, shared with colleagues and by link,
//!    opened and downloaded (by the owner and by the colleagues they were shared with), copied
//!    into the colleagues' My Docs, removed and deleted with their folder. Rows are written as
//!    cqrs-es writes them (`document_item`, one stream per item with sequences from 1, the event
//!    as `{"Variant": {...}}` JSON, the metadata the server records), a thousand rows per
//!    `INSERT` and 50,000 per transaction; every event is one the `Item` aggregate would accept
//!    at that point, so the rebuild takes the same branches as the live projection.
//! 2. Reads every event back in stream order, in batches of 2,000 as a rebuild does, and
//!    decodes each into an `ItemEvent`: the baseline (what any rebuild must at least do).
//! 3. Rebuilds the documents projection into a fresh, empty database in a child process (this
//!    program again, `rebuild` subcommand) with the projector `companion replay` uses
//!    (`Projector::rebuilding(..).run_to_end()`, 2,000 events per transaction), without the
//!    row-by-row comparison that follows it there. The child reports its time and its peak
//!    resident memory (`VmHWM` of `/proc/self/status`), so the generator's memory is not in it.
//!    It also counts the rebuilt rows, which the generator knows in advance.
//!
//! The rebuild keeps the projection's state in memory and writes it at the end
//! (`Projection::rebuilder`, what `companion replay` uses); `--batched` rebuilds with the live
//! projection instead, batch after batch, for comparison.
//!
//! `rebuild_bench swap LIVE SCRATCH` times the blue/green swap of `companion rebuild` instead:
//! on a history made with `generate`, the documents projection rebuilt into `SCRATCH` beside
//! `LIVE` and swapped in, against the database copying the same tables on its own.
//!
//! Steps 2 and 3 are repeated `--rebuilds` times, each into a new database. `--profile` adds
//! the time spent inside the projection against the rest. Bounded: at most 5,000,000 events; the
//! child is killed once `--timeout` seconds have passed since the first rebuild started. Temporary files and
//! databases are removed at the end, also after an error.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use cqrs_es::DomainEvent;
use events::documents::{
    CopyReason, FileFacts, FileFormat, ItemEvent, ItemRef, Kind, Labels, ShareVia, Space, UserRef,
    ITEM_TYPE,
};
use projections::documents::DocumentsProjection;
use projections::{on_db, Db, Position, Projection, Projector};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::json;

/// The allocator `companion` runs with (see `backend/src/main.rs`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Events per `INSERT` statement, and per transaction.
const ROWS_PER_INSERT: usize = 1000;
const ROWS_PER_TX: u64 = 50_000;
/// A rebuild's batch (`projections::projector::REBUILD_BATCH`).
const READ_BATCH: i64 = 2_000;
/// Folder depth allowed by default (`MAX_FOLDER_DEPTH`).
const MAX_DEPTH: usize = 5;
/// A deleted folder takes at most this many items with it (larger ones are not deleted).
const MAX_DELETE: usize = 60;
/// The folder whose as-of latency is measured, and how many files it holds.
const AS_OF_FOLDER: &str = "As-of folder";
const AS_OF_ITEMS: usize = 50;
/// As-of queries timed per rebuilt database.
const AS_OF_QUERIES: usize = 500;

fn usage() -> ! {
    eprintln!(
        "usage: rebuild_bench [--events 1000..5000000] [--users 10..100000] [--rebuilds 1..10] \
         [--timeout 60..43200] [--database-url postgres://user@host:port/db] [--profile] [--batched]\n\
         \x20      rebuild_bench rebuild SOURCE_URL TARGET_URL [--profile] [--batched] [--batch EVENTS]   (used by the above)\n\
         \x20      rebuild_bench generate TARGET_URL EVENTS   (a history kept for other runs)\n\
         \x20      rebuild_bench swap LIVE_URL SCRATCH_URL   (`companion rebuild` of documents into SCRATCH, swapped into LIVE)"
    );
    std::process::exit(2);
}

struct Args {
    events: u64,
    users: usize,
    rebuilds: usize,
    timeout: u64,
    postgres: Option<String>,
    profile: bool,
    batched: bool,
}

fn args() -> Args {
    let mut out = Args {
        events: 1_000_000,
        users: 2_000,
        rebuilds: 3,
        timeout: 3_600,
        postgres: None,
        profile: false,
        batched: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        if a == "--profile" {
            out.profile = true;
            continue;
        }
        if a == "--batched" {
            out.batched = true;
            continue;
        }
        let Some(value) = it.next() else { usage() };
        let number = value.parse::<u64>().ok();
        match (a.as_str(), number) {
            ("--events", Some(v)) if (1_000..=5_000_000).contains(&v) => out.events = v,
            ("--users", Some(v)) if (10..=100_000).contains(&v) => out.users = v as usize,
            ("--rebuilds", Some(v)) if (1..=10).contains(&v) => out.rebuilds = v as usize,
            ("--timeout", Some(v)) if (60..=43_200).contains(&v) => out.timeout = v,
            ("--database-url", _)
                if value.starts_with("postgres://") || value.starts_with("postgresql://") =>
            {
                out.postgres = Some(value)
            }
            _ => usage(),
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// The history

struct User {
    id: String,
    name: String,
    email: String,
}

struct Node {
    id: String,
    folder: bool,
    parent: Option<usize>,
    /// Folder name or file title.
    name: String,
    file: Option<FileFacts>,
    /// Last sequence written to this item's stream.
    seq: i64,
    alive: bool,
    children: Vec<usize>,
    /// Users the item itself was shared with.
    shared_with: Vec<usize>,
}

/// One row of the `events` table.
struct Row {
    aggregate_id: String,
    sequence: i64,
    event_type: String,
    event_version: String,
    payload: String,
    metadata: String,
    recorded_at: i64,
}

const FOLDER_NAMES: &[&str] = &[
    "Visits",
    "Congress",
    "Training",
    "Price lists",
    "Hospital accounts",
    "Quarterly reviews",
    "Product sheets",
    "Contracts",
    "Travel",
    "Team",
];
const FILE_TITLES: &[&str] = &[
    "Visit report",
    "Account plan",
    "Price list",
    "Competitive comparison",
    "Quick reference",
    "Case notes",
    "Territory review",
    "Objection handling",
    "Expense summary",
    "Booth layout",
    "Congress plan",
    "Account list",
];

struct History {
    rng: StdRng,
    users: Vec<User>,
    nodes: Vec<Node>,
    /// Per user: their items, folders, and the items shared with them (alive or not).
    mine: Vec<Vec<usize>>,
    folders: Vec<Vec<usize>>,
    received: Vec<Vec<usize>>,
    /// Milliseconds since the epoch of the next event.
    clock: i64,
    rows: Vec<Row>,
    emitted: u64,
    counter: u64,
}

impl History {
    fn new(users: usize, seed: u64) -> Self {
        let users: Vec<User> = (0..users)
            .map(|i| User {
                id: uuid::Builder::from_random_bytes(StdRng::seed_from_u64(seed ^ i as u64).gen())
                    .into_uuid()
                    .to_string(),
                name: format!("User {i}"),
                email: format!("user{i}@example.com"),
            })
            .collect();
        let n = users.len();
        Self {
            rng: StdRng::seed_from_u64(seed),
            users,
            nodes: Vec::new(),
            mine: vec![Vec::new(); n],
            folders: vec![Vec::new(); n],
            received: vec![Vec::new(); n],
            // 2025-01-01T00:00:00Z
            clock: 1_735_689_600_000,
            rows: Vec::new(),
            emitted: 0,
            counter: 0,
        }
    }

    fn new_id(&mut self) -> String {
        uuid::Builder::from_random_bytes(self.rng.gen())
            .into_uuid()
            .to_string()
    }

    fn user_ref(&self, u: usize) -> UserRef {
        UserRef {
            id: self.users[u].id.clone(),
            name: self.users[u].name.clone(),
        }
    }

    fn item_ref(&self, n: usize) -> ItemRef {
        ItemRef {
            id: self.nodes[n].id.clone(),
            name: self.nodes[n].name.clone(),
        }
    }

    /// Appends `event` to item `n`'s stream, as user `by` did it.
    fn emit(&mut self, n: usize, by: usize, event: ItemEvent) {
        self.nodes[n].seq += 1;
        let at = chrono::DateTime::from_timestamp_millis(self.clock)
            .unwrap_or_default()
            .to_rfc3339();
        let request_id = self.new_id();
        // What `EventStore::execute` records: a map of strings.
        let metadata = json!({
            "user_id": self.users[by].id,
            "user_email": self.users[by].email,
            "request_id": request_id,
            "at": at,
        });
        // cqrs-es stores `serde_json::to_value(event)`, whose objects have sorted keys.
        let payload = serde_json::to_value(&event).unwrap_or_default();
        self.rows.push(Row {
            aggregate_id: self.nodes[n].id.clone(),
            sequence: self.nodes[n].seq,
            event_type: event.event_type(),
            event_version: event.event_version(),
            payload: payload.to_string(),
            metadata: metadata.to_string(),
            recorded_at: self.clock,
        });
        self.emitted += 1;
        // A busy team: a few seconds between events on average.
        self.clock += self.rng.gen_range(1..8_000);
    }

    /// A user, the active ones more often.
    fn pick_user(&mut self) -> usize {
        let r: f64 = self.rng.gen();
        ((r * r) * self.users.len() as f64) as usize % self.users.len()
    }

    fn pick_from(&mut self, list: &[usize], ok: impl Fn(&Node) -> bool) -> Option<usize> {
        if list.is_empty() {
            return None;
        }
        for _ in 0..8 {
            let n = list[self.rng.gen_range(0..list.len())];
            if ok(&self.nodes[n]) {
                return Some(n);
            }
        }
        None
    }

    /// Folder depth: 1 at the root.
    fn depth(&self, folder: usize) -> usize {
        let mut d = 1;
        let mut at = self.nodes[folder].parent;
        while let Some(p) = at {
            d += 1;
            at = self.nodes[p].parent;
        }
        d
    }

    /// Levels of folders from this one down (1 for a folder without folders inside).
    fn height(&self, folder: usize) -> usize {
        1 + self.nodes[folder]
            .children
            .iter()
            .filter(|c| self.nodes[**c].folder)
            .map(|c| self.height(*c))
            .max()
            .unwrap_or(0)
    }

    fn is_below(&self, n: usize, folder: usize) -> bool {
        let mut at = Some(n);
        while let Some(x) = at {
            if x == folder {
                return true;
            }
            at = self.nodes[x].parent;
        }
        false
    }

    fn subtree(&self, n: usize) -> Vec<usize> {
        let mut out = vec![n];
        let mut i = 0;
        while i < out.len() {
            out.extend(self.nodes[out[i]].children.iter().copied());
            i += 1;
        }
        out
    }

    /// A live folder of `u` where a new item may go (`None`: the root).
    fn place(&mut self, u: usize, root_share: f64, max_depth: usize) -> Option<usize> {
        if self.rng.gen_bool(root_share) {
            return None;
        }
        let list = std::mem::take(&mut self.folders[u]);
        let found = (0..6).find_map(|_| {
            let f = *list.get(self.rng.gen_range(0..list.len().max(1)))?;
            (self.nodes[f].alive && self.depth(f) <= max_depth).then_some(f)
        });
        self.folders[u] = list;
        found
    }

    fn add_node(
        &mut self,
        owner: usize,
        folder: bool,
        parent: Option<usize>,
        name: String,
    ) -> usize {
        let id = self.new_id();
        let n = self.nodes.len();
        self.nodes.push(Node {
            id,
            folder,
            parent,
            name,
            file: None,
            seq: 0,
            alive: true,
            children: Vec::new(),
            shared_with: Vec::new(),
        });
        if let Some(p) = parent {
            self.nodes[p].children.push(n);
        }
        self.mine[owner].push(n);
        if folder {
            self.folders[owner].push(n);
        }
        n
    }

    fn detach(&mut self, n: usize) {
        if let Some(p) = self.nodes[n].parent {
            self.nodes[p].children.retain(|c| *c != n);
        }
    }

    fn create_folder(&mut self, u: usize) {
        let parent = self.place(u, 0.4, MAX_DEPTH - 1);
        self.counter += 1;
        let name = format!(
            "{} {}",
            FOLDER_NAMES[self.rng.gen_range(0..FOLDER_NAMES.len())],
            self.counter
        );
        let n = self.add_node(u, true, parent, name.clone());
        let event = ItemEvent::FolderCreated {
            id: self.nodes[n].id.clone(),
            space: Space::My,
            owner: Some(self.user_ref(u)),
            parent: parent.map(|p| self.item_ref(p)),
            name,
            seed_key: None,
        };
        self.emit(n, u, event);
    }

    fn upload(&mut self, u: usize) {
        let parent = self.place(u, 0.3, MAX_DEPTH);
        self.upload_into(u, parent);
    }

    /// The folder the as-of latency is measured on: [`AS_OF_ITEMS`] files uploaded by user 0
    /// into a new folder at the start of the history; the random steps never touch it again,
    /// so everything after is unrelated history.
    fn as_of_folder(&mut self) {
        let u = 0;
        let folder = self.add_node(u, true, None, AS_OF_FOLDER.to_string());
        let event = ItemEvent::FolderCreated {
            id: self.nodes[folder].id.clone(),
            space: Space::My,
            owner: Some(self.user_ref(u)),
            parent: None,
            name: AS_OF_FOLDER.to_string(),
            seed_key: None,
        };
        self.emit(folder, u, event);
        for _ in 0..AS_OF_ITEMS {
            self.upload_into(u, Some(folder));
        }
        self.mine[u].retain(|n| *n < folder);
        self.folders[u].retain(|n| *n < folder);
    }

    fn upload_into(&mut self, u: usize, parent: Option<usize>) {
        self.counter += 1;
        let title = format!(
            "{} {}",
            FILE_TITLES[self.rng.gen_range(0..FILE_TITLES.len())],
            self.counter
        );
        let format = if self.rng.gen_bool(0.9) {
            FileFormat::Pdf
        } else {
            FileFormat::Xls
        };
        let blob_id = self.new_id().replace('-', "");
        let file = FileFacts {
            name: format.file_name_for(&title),
            title: title.clone(),
            blob: format!("{blob_id}.{}", format.extension()),
            size: self.rng.gen_range(20_000..5_000_000),
            format,
            sha256: None,
            subtitle: None,
            languages_in_file: None,
            code_points: None,
            labels: Labels::default(),
        };
        let n = self.add_node(u, false, parent, title);
        self.nodes[n].file = Some(file.clone());
        let event = ItemEvent::FileUploaded {
            id: self.nodes[n].id.clone(),
            space: Space::My,
            owner: Some(self.user_ref(u)),
            parent: parent.map(|p| self.item_ref(p)),
            file,
            seed_key: None,
        };
        self.emit(n, u, event);
    }

    fn rename(&mut self, u: usize) -> bool {
        let list = std::mem::take(&mut self.mine[u]);
        let picked = self.pick_from(&list, |n| n.alive);
        self.mine[u] = list;
        let Some(n) = picked else { return false };
        let from = self.nodes[n].name.clone();
        let to = match from.rsplit_once(" (v") {
            Some((base, v)) => {
                let v: u32 = v.trim_end_matches(')').parse().unwrap_or(1);
                format!("{base} (v{})", v + 1)
            }
            None => format!("{from} (v2)"),
        };
        let file_name = self.nodes[n]
            .file
            .as_ref()
            .map(|f| f.format.file_name_for(&to));
        if let (Some(file), Some(name)) = (self.nodes[n].file.as_mut(), &file_name) {
            file.title = to.clone();
            file.name = name.clone();
        }
        self.nodes[n].name = to.clone();
        self.emit(
            n,
            u,
            ItemEvent::Renamed {
                from,
                to,
                file_name,
            },
        );
        true
    }

    fn move_item(&mut self, u: usize) -> bool {
        let list = std::mem::take(&mut self.mine[u]);
        let picked = self.pick_from(&list, |n| n.alive);
        self.mine[u] = list;
        let Some(n) = picked else { return false };
        let dest = self.place(u, 0.25, MAX_DEPTH);
        if dest == self.nodes[n].parent {
            return false;
        }
        if self.nodes[n].folder {
            if let Some(d) = dest {
                if self.is_below(d, n) || self.depth(d) + self.height(n) > MAX_DEPTH {
                    return false;
                }
            }
        }
        let from = self.nodes[n].parent.map(|p| self.item_ref(p));
        let to = dest.map(|d| self.item_ref(d));
        self.detach(n);
        self.nodes[n].parent = dest;
        if let Some(d) = dest {
            self.nodes[d].children.push(n);
        }
        self.emit(n, u, ItemEvent::Moved { from, to });
        true
    }

    fn share(&mut self, u: usize) -> bool {
        let list = std::mem::take(&mut self.mine[u]);
        let picked = self.pick_from(&list, |n| n.alive);
        self.mine[u] = list;
        let Some(n) = picked else { return false };
        let with = self.rng.gen_range(0..self.users.len());
        if with == u || self.nodes[n].shared_with.contains(&with) {
            return false;
        }
        self.nodes[n].shared_with.push(with);
        self.received[with].push(n);
        let event = ItemEvent::Shared {
            by: self.user_ref(u),
            with: self.user_ref(with),
            via: ShareVia::Internal,
        };
        self.emit(n, u, event);
        true
    }

    fn share_externally(&mut self, u: usize) -> bool {
        let list = std::mem::take(&mut self.mine[u]);
        let picked = self.pick_from(&list, |n| n.alive && !n.folder);
        self.mine[u] = list;
        let Some(n) = picked else { return false };
        let hash: [u8; 32] = self.rng.gen();
        self.counter += 1;
        let event = ItemEvent::SharedExternally {
            by: self.users[u].id.clone(),
            email: format!("contact{}@hospital.example", self.counter),
            token_hash: hex::encode(hash),
            expires_at: self.clock + 7 * 24 * 3_600_000,
            share: hex::encode(hash),
            allow_download: true,
            max_opens: None,
            title: String::new(),
            owner: Some(self.users[u].id.clone()),
        };
        self.emit(n, u, event);
        true
    }

    fn open_own(&mut self, u: usize) -> bool {
        let list = std::mem::take(&mut self.mine[u]);
        let picked = self.pick_from(&list, |n| n.alive);
        self.mine[u] = list;
        let Some(n) = picked else { return false };
        self.open(n, u);
        true
    }

    fn open_received(&mut self, u: usize) -> bool {
        let list = std::mem::take(&mut self.received[u]);
        let picked = self.pick_from(&list, |n| n.alive && n.shared_with.contains(&u));
        self.received[u] = list;
        let Some(n) = picked else { return false };
        self.open(n, u);
        true
    }

    fn open(&mut self, n: usize, by: usize) {
        let by_id = self.users[by].id.clone();
        let event = if !self.nodes[n].folder && self.rng.gen_bool(0.3) {
            ItemEvent::Downloaded { by: by_id }
        } else {
            ItemEvent::Opened { by: by_id }
        };
        self.emit(n, by, event);
    }

    /// A colleague saves a copy of a file shared with them into their My Docs.
    fn save_copy(&mut self, u: usize) -> bool {
        let list = std::mem::take(&mut self.received[u]);
        let picked = self.pick_from(&list, |n| {
            n.alive && !n.folder && n.shared_with.contains(&u)
        });
        self.received[u] = list;
        let Some(source) = picked else { return false };
        let parent = self.place(u, 0.5, MAX_DEPTH);
        let name = self.nodes[source].name.clone();
        let file = self.nodes[source].file.clone();
        let copy = self.add_node(u, false, parent, name.clone());
        self.nodes[copy].file = file.clone();
        let event = ItemEvent::Copied {
            id: self.nodes[copy].id.clone(),
            kind: Kind::File,
            owner: self.user_ref(u),
            parent: parent.map(|p| self.item_ref(p)),
            source: self.item_ref(source),
            reason: CopyReason::Save,
            name,
            file,
        };
        self.emit(copy, u, event);
        let copy_id = self.nodes[copy].id.clone();
        let by = self.users[u].id.clone();
        self.emit(source, u, ItemEvent::SavedToMyDocs { by, copy: copy_id });
        true
    }

    fn remove_file(&mut self, u: usize) -> bool {
        let list = std::mem::take(&mut self.mine[u]);
        let picked = self.pick_from(&list, |n| n.alive && !n.folder);
        self.mine[u] = list;
        let Some(n) = picked else { return false };
        self.detach(n);
        self.nodes[n].alive = false;
        let by = self.users[u].id.clone();
        self.emit(n, u, ItemEvent::FileRemoved { by });
        true
    }

    /// Deletes a folder and, as the server does, records the deletion on every item in it.
    fn delete_folder(&mut self, u: usize, room: u64) -> bool {
        let list = std::mem::take(&mut self.folders[u]);
        let picked = self.pick_from(&list, |n| n.alive);
        self.folders[u] = list;
        let Some(n) = picked else { return false };
        let subtree = self.subtree(n);
        if subtree.len() > MAX_DELETE || subtree.len() as u64 > room {
            return false;
        }
        let folder = self.item_ref(n);
        let removed: Vec<String> = subtree[1..]
            .iter()
            .map(|c| self.nodes[*c].id.clone())
            .collect();
        self.detach(n);
        for x in &subtree {
            self.nodes[*x].alive = false;
        }
        let by = self.users[u].id.clone();
        self.emit(n, u, ItemEvent::FolderDeleted { by, removed });
        for x in subtree[1..].iter().copied() {
            self.emit(
                x,
                u,
                ItemEvent::DeletedWithFolder {
                    folder: folder.clone(),
                },
            );
        }
        true
    }

    /// One user action (one or more events); falls back to an upload when the chosen action
    /// has nothing to act on yet.
    fn step(&mut self, room: u64) {
        let u = self.pick_user();
        let roll = self.rng.gen_range(0..1000);
        let done = match roll {
            0..=279 => self.open_own(u),
            280..=419 => self.open_received(u),
            420..=599 => {
                self.upload(u);
                true
            }
            600..=669 => {
                self.create_folder(u);
                true
            }
            670..=749 => self.rename(u),
            750..=809 => self.move_item(u),
            810..=899 => self.share(u),
            900..=914 => self.share_externally(u),
            915..=944 => room >= 2 && self.save_copy(u),
            945..=979 => self.remove_file(u),
            _ => self.delete_folder(u, room),
        };
        if !done {
            self.upload(u);
        }
    }

    /// Rows the rebuilt tables must hold: live items, and shares of live items.
    fn expected(&self) -> (usize, usize) {
        let live = self.nodes.iter().filter(|n| n.alive);
        let items = live.clone().count();
        let shares = live.map(|n| n.shared_with.len()).sum();
        (items, shares)
    }
}

// ---------------------------------------------------------------------------------------------
// Writing it

async fn insert_rows(db: &Db, conn: &mut Conn, rows: &[Row]) -> anyhow::Result<()> {
    const COLUMNS: &str = "insert into events (aggregate_type, aggregate_id, sequence, event_type, event_version, payload, metadata, recorded_at) ";
    match (db, conn) {
        (Db::Sqlite { .. }, Conn::Sqlite(tx)) => {
            let mut q = sqlx::QueryBuilder::<sqlx::Sqlite>::new(COLUMNS);
            q.push_values(rows, |mut b, r| {
                b.push_bind(ITEM_TYPE)
                    .push_bind(&r.aggregate_id)
                    .push_bind(r.sequence)
                    .push_bind(&r.event_type)
                    .push_bind(&r.event_version)
                    .push_bind(&r.payload)
                    .push_bind(&r.metadata)
                    .push_bind(r.recorded_at);
            });
            q.build().execute(&mut **tx).await?;
        }
        (Db::Postgres { .. }, Conn::Postgres(tx)) => {
            let mut q = sqlx::QueryBuilder::<sqlx::Postgres>::new(COLUMNS);
            q.push_values(rows, |mut b, r| {
                b.push_bind(ITEM_TYPE)
                    .push_bind(&r.aggregate_id)
                    .push_bind(r.sequence)
                    .push_bind(&r.event_type)
                    .push_bind(&r.event_version)
                    .push_bind(&r.payload)
                    .push_unseparated("::json")
                    .push_bind(&r.metadata)
                    .push_unseparated("::json")
                    .push_bind(r.recorded_at);
            });
            q.build().execute(&mut **tx).await?;
        }
        _ => anyhow::bail!("engine mismatch"),
    }
    Ok(())
}

enum Conn {
    Sqlite(sqlx::Transaction<'static, sqlx::Sqlite>),
    Postgres(sqlx::Transaction<'static, sqlx::Postgres>),
}

async fn begin(db: &Db) -> anyhow::Result<Conn> {
    Ok(match db {
        Db::Sqlite { pool, .. } => Conn::Sqlite(pool.begin().await?),
        Db::Postgres { pool } => Conn::Postgres(pool.begin().await?),
    })
}

async fn commit(conn: Conn) -> anyhow::Result<()> {
    match conn {
        Conn::Sqlite(tx) => tx.commit().await?,
        Conn::Postgres(tx) => tx.commit().await?,
    }
    Ok(())
}

/// Generates `total` events into `db`; returns the expected (items, shares).
async fn generate(db: &Db, total: u64, users: usize) -> anyhow::Result<(usize, usize)> {
    let mut history = History::new(users, 20_261_122);
    history.as_of_folder();
    let mut conn = begin(db).await?;
    let mut in_tx = 0u64;
    let mut written = 0u64;
    while written < total {
        while history.rows.len() < ROWS_PER_INSERT && history.emitted < total {
            history.step(total - history.emitted);
        }
        let rows = std::mem::take(&mut history.rows);
        insert_rows(db, &mut conn, &rows).await?;
        written += rows.len() as u64;
        in_tx += rows.len() as u64;
        if in_tx >= ROWS_PER_TX {
            commit(conn).await?;
            conn = begin(db).await?;
            in_tx = 0;
        }
    }
    commit(conn).await?;
    let counts: Vec<(String, i64)> = on_db!(db, pool => sqlx::query_as(
        "select event_type, count(*) from events group by event_type order by count(*) desc")
        .fetch_all(pool).await)?;
    let mix: Vec<String> = counts
        .iter()
        .map(|(k, n)| format!("{k} {:.1}%", *n as f64 * 100.0 / written as f64))
        .collect();
    let (items, shares) = history.expected();
    println!(
        "history: {written} events, {} users, {} items ({items} live), {shares} live shares, {:.0} days",
        history.users.len(),
        history.nodes.len(),
        (history.clock - 1_735_689_600_000) as f64 / 86_400_000.0
    );
    println!("mix: {}", mix.join(", "));
    Ok((items, shares))
}

// ---------------------------------------------------------------------------------------------
// Reading and rebuilding

/// Reads every event in stream order and decodes it; (events, seconds).
async fn scan(db: &Db) -> anyhow::Result<(u64, f64)> {
    let start = Instant::now();
    let mut after = Position::default();
    let mut n = 0u64;
    loop {
        let batch = projections::stream::read_after(db, after, READ_BATCH).await?;
        let Some(last) = batch.last() else { break };
        after = last.at;
        for event in &batch {
            let _: ItemEvent = event.decode()?;
        }
        n += batch.len() as u64;
    }
    Ok((n, start.elapsed().as_secs_f64()))
}

/// `VmRSS` or `VmHWM` of this process, in KiB.
fn proc_status_kib(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(field))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

async fn count(db: &Db, table: &str) -> anyhow::Result<i64> {
    let sql = format!("select cast(count(*) as bigint) from {table}");
    Ok(on_db!(db, pool => sqlx::query_scalar(&sql).fetch_one(pool).await)?)
}

/// The documents projection with a stopwatch (`--profile`): the time spent inside the
/// projection (reading what a batch needs, applying it in memory, writing it) against the rest
/// of the rebuild (reading the events, moving the checkpoint, committing).
struct Timed {
    inner: Arc<dyn Projection>,
    spent: std::sync::Mutex<(u64, Duration)>,
    /// Of `spent`, the final write (`finish_rebuild`).
    finishing: std::sync::Mutex<Duration>,
}

#[async_trait::async_trait]
impl Projection for Timed {
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    fn tables(&self) -> &'static [projections::TableSpec] {
        self.inner.tables()
    }

    async fn apply(
        &self,
        tx: &mut projections::Tx,
        event: &projections::StoredEvent,
    ) -> Result<(), projections::ProjectionError> {
        self.inner.apply(tx, event).await
    }

    async fn apply_all(
        &self,
        tx: &mut projections::Tx,
        events: &[&projections::StoredEvent],
    ) -> Result<(), projections::BatchFailure> {
        let start = Instant::now();
        let result = self.inner.apply_all(tx, events).await;
        let took = start.elapsed();
        if let Ok(mut spent) = self.spent.lock() {
            spent.0 += 1;
            spent.1 += took;
        }
        result
    }

    fn rebuild_batch(&self) -> Option<i64> {
        self.inner.rebuild_batch()
    }

    fn rebuild_reads_back(&self) -> bool {
        self.inner.rebuild_reads_back()
    }

    fn prepare_ahead(&self, events: &[projections::StoredEvent]) {
        self.inner.prepare_ahead(events)
    }

    fn rebuild_round_writes_nothing(&self) -> bool {
        self.inner.rebuild_round_writes_nothing()
    }

    async fn finish_rebuild(
        &self,
        tx: &mut projections::Tx,
    ) -> Result<(), projections::ProjectionError> {
        let start = Instant::now();
        let result = self.inner.finish_rebuild(tx).await;
        let took = start.elapsed();
        if let Ok(mut spent) = self.spent.lock() {
            spent.1 += took;
        }
        if let Ok(mut finishing) = self.finishing.lock() {
            *finishing += took;
        }
        result
    }
}

/// The child: rebuilds the documents projection from `source` into `target` and prints one
/// `key=value` line.
/// `swap`: the blue/green swap of `companion rebuild` on a generated history. The live tables
/// are built first where they are missing (the projection's tables as the live projector
/// would have them; a rebuild writes no feed, which a swap leaves as it is), then the
/// documents projection is rebuilt into `scratch` and swapped in. Baseline, same run: the
/// database copying the same tables into new ones on its own (`create table .. as select`).
async fn swap(live: &str, scratch: &str) -> anyhow::Result<()> {
    let live = Db::connect(live).await?;
    let name = projections::documents::projection::NAME;
    let head = projections::stream::head(&live).await?.unwrap_or_default();
    if projections::projector::checkpoint_of(&live, name).await? < head {
        let started = Instant::now();
        let rebuilder = DocumentsProjection
            .rebuilder(&live, projections::replay::DEFAULT_SPILL_BYTES)
            .context("the documents projection has a resident rebuilder")?;
        Projector::rebuilding(live.clone(), live.clone(), vec![rebuilder], Some(head))
            .run_to_end()
            .await?;
        println!(
            "live tables built in {:.1} s",
            started.elapsed().as_secs_f64()
        );
    }
    let scratch = Db::connect_scratch(scratch).await?;
    let documents: Arc<dyn Projection> = Arc::new(DocumentsProjection);
    let started = Instant::now();
    let (report, swaps) = projections::replay::rebuild_and_swap(
        &live,
        &scratch,
        vec![documents.clone()],
        projections::replay::DEFAULT_SPILL_BYTES,
        Arc::new(|_| {}),
    )
    .await?;
    let total = started.elapsed().as_secs_f64();
    let swapped = swaps.first().context("one swap")?;
    let held = swapped.held.as_secs_f64();
    // The baseline: the same tables copied by the database itself, outside any lock.
    let started = Instant::now();
    for table in documents.tables() {
        on_db!(&live, pool => sqlx::query(&format!(
            "create table baseline_{t} as select * from {t}", t = table.name))
            .execute(pool).await.map(|_| ()))?;
    }
    let baseline = started.elapsed().as_secs_f64();
    for table in documents.tables() {
        on_db!(&live, pool => sqlx::query(&format!("drop table baseline_{}", table.name))
            .execute(pool).await.map(|_| ()))?;
    }
    println!(
        "swap events={} rebuild_and_swap_seconds={total:.3} rows={} caught_up={} held_ms={:.1} \
         baseline_copy_ms={:.1} held_over_copy={:.2}",
        report.events_applied,
        swapped.rows,
        swapped.caught_up,
        held * 1000.0,
        baseline * 1000.0,
        held / baseline.max(1e-9),
    );
    live.close().await;
    scratch.close().await;
    Ok(())
}

async fn rebuild_child(
    source: &str,
    target: &str,
    profile: bool,
    batched: bool,
    batch: Option<i64>,
) -> anyhow::Result<()> {
    let source = Db::connect(source).await?;
    let target = Db::connect_scratch(target).await?;
    let head = projections::stream::head(&source)
        .await?
        .unwrap_or_default();
    let spill_bytes = std::env::var("REBUILD_SPILL_MIB")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .map_or(projections::replay::DEFAULT_SPILL_BYTES, |mib| mib << 20);
    let inner: Arc<dyn Projection> = match DocumentsProjection.rebuilder(&target, spill_bytes) {
        Some(resident) if !batched => resident,
        _ => Arc::new(DocumentsProjection),
    };
    let timed = Arc::new(Timed {
        inner: inner.clone(),
        spent: Default::default(),
        finishing: Default::default(),
    });
    let projection: Arc<dyn Projection> = if profile { timed.clone() } else { inner };
    let rss_start = proc_status_kib("VmRSS:");
    let start = Instant::now();
    let mut projector =
        Projector::rebuilding(source.clone(), target.clone(), vec![projection], Some(head));
    if let Some(batch) = batch {
        projector = projector.with_batch_size(batch);
    }
    let mut applied = projector.run_to_end().await?;
    // On PostgreSQL an event is readable only once older transactions of the cluster have
    // ended; wait for the last ones rather than stop short.
    while projections::projector::checkpoint_of(&target, projections::documents::projection::NAME)
        .await?
        < head
    {
        tokio::time::sleep(Duration::from_millis(20)).await;
        applied += projector.run_to_end().await?;
    }
    let seconds = start.elapsed().as_secs_f64();
    let hwm = proc_status_kib("VmHWM:");
    println!(
        "rebuilt events={applied} seconds={seconds:.3} rss_start_kib={rss_start} hwm_kib={hwm} doc_items={} doc_shares={} doc_unread={} doc_item_versions={}",
        count(&target, "doc_items").await?,
        count(&target, "doc_shares").await?,
        count(&target, "doc_unread").await?,
        count(&target, "doc_item_versions").await?,
    );
    println!("{}", as_of_latency(&target).await?);
    if profile {
        let finishing = timed
            .finishing
            .lock()
            .map(|f| f.as_secs_f64())
            .unwrap_or_default();
        if let Ok(spent) = timed.spent.lock() {
            let (batches, took) = *spent;
            let inside = took.as_secs_f64();
            println!(
                "profile projection {batches} batches {inside:.1} s ({:.2} ms/batch, {:.1}% of the time), of which the final write {finishing:.1} s; outside it {:.1} s",
                inside * 1000.0 / batches.max(1) as f64,
                inside * 100.0 / seconds,
                seconds - inside
            );
        }
    }
    source.close().await;
    target.close().await;
    Ok(())
}

/// p50 / p99 of `GET /api/folders/{id}/as-of` and `GET /api/items/{id}/access-as-of` as the
/// server reads them (one read transaction each), on the [`AS_OF_ITEMS`]-file folder as of
/// just after it was filled, with the rest of the history after it; and the version rows the
/// folder's query reads. One `as-of ...` line.
async fn as_of_latency(target: &Db) -> anyhow::Result<String> {
    use projections::documents::temporal;
    let folder: String = on_db!(target, pool => sqlx::query_scalar(
        "select id from doc_items where title = $1").bind(AS_OF_FOLDER).fetch_one(pool).await)?;
    let at: i64 = on_db!(target, pool => sqlx::query_scalar(
        "select max(valid_from) from doc_item_versions where parent_id = $1")
        .bind(&folder).fetch_one(pool).await)?;
    let mut folder_ms = Vec::with_capacity(AS_OF_QUERIES);
    let mut access_ms = Vec::with_capacity(AS_OF_QUERIES);
    let mut file = None;
    for _ in 0..AS_OF_QUERIES {
        let start = Instant::now();
        let mut tx = projections::Tx::begin(target).await?;
        let found = temporal::item_as_of(&mut tx, &folder, at).await?;
        let rows = temporal::children_as_of(&mut tx, &folder, at).await?;
        tx.rollback().await?;
        folder_ms.push(start.elapsed().as_secs_f64() * 1000.0);
        anyhow::ensure!(
            found.is_some() && rows.len() == AS_OF_ITEMS,
            "as-of read {} items",
            rows.len()
        );
        let file = file.get_or_insert_with(|| rows[rows.len() / 2].id.clone());
        let start = Instant::now();
        let mut tx = projections::Tx::begin(target).await?;
        temporal::item_as_of(&mut tx, file, at).await?;
        temporal::shares_as_of(&mut tx, file, at).await?;
        tx.rollback().await?;
        access_ms.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    let mut tx = projections::Tx::begin(target).await?;
    let rows_read = temporal::rows_read_as_of(&mut tx, &folder, at).await?;
    tx.rollback().await?;
    let versions = count(target, "doc_item_versions").await?;
    Ok(format!(
        "as-of folder_p50_ms={:.3} folder_p99_ms={:.3} access_p50_ms={:.3} access_p99_ms={:.3} rows_read={rows_read} versions={versions}",
        percentile(&folder_ms, 0.5),
        percentile(&folder_ms, 0.99),
        percentile(&access_ms, 0.5),
        percentile(&access_ms, 0.99),
    ))
}

fn percentile(values: &[f64], p: f64) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let i = ((v.len() as f64 - 1.0) * p).round() as usize;
    v.get(i).copied().unwrap_or(f64::NAN)
}

/// Where the databases of one run live, and how to remove them.
enum Place {
    Sqlite(PathBuf),
    Postgres { admin: String },
}

impl Place {
    async fn create(&self, name: &str) -> anyhow::Result<String> {
        match self {
            Place::Sqlite(dir) => Ok(format!(
                "sqlite://{}",
                dir.join(format!("{name}.db")).display()
            )),
            Place::Postgres { admin } => {
                admin_query(admin, &format!("create database {name}")).await?;
                let mut url = url::Url::parse(admin)?;
                url.set_path(&format!("/{name}"));
                Ok(url.to_string())
            }
        }
    }

    async fn remove(&self, name: &str) {
        match self {
            Place::Sqlite(dir) => {
                for ext in ["", "-wal", "-shm"] {
                    let _ = std::fs::remove_file(dir.join(format!("{name}.db{ext}")));
                }
            }
            Place::Postgres { admin } => {
                if let Err(e) = admin_query(
                    admin,
                    &format!("drop database if exists {name} with (force)"),
                )
                .await
                {
                    eprintln!("could not drop the database {name}: {e}");
                }
            }
        }
    }
}

async fn admin_query(admin_url: &str, sql: &str) -> anyhow::Result<()> {
    use sqlx::Connection;
    let mut conn = sqlx::PgConnection::connect(admin_url).await?;
    sqlx::query(sql).execute(&mut conn).await?;
    conn.close().await?;
    Ok(())
}

fn field(line: &str, key: &str) -> Option<f64> {
    line.split_whitespace()
        .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
        .and_then(|v| v.parse().ok())
}

fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

struct Round {
    scan_per_s: f64,
    rebuild_per_s: f64,
    hwm_mib: f64,
    rss_start_mib: f64,
}

async fn run(a: &Args, place: &Place, names: &mut Vec<String>) -> anyhow::Result<()> {
    let engine = match place {
        Place::Sqlite(_) => "SQLite",
        Place::Postgres { .. } => "PostgreSQL",
    };
    let suffix = uuid::Uuid::new_v4().simple().to_string();
    let source_name = format!("rebuild_src_{}", &suffix[..12]);
    let source_url = place.create(&source_name).await?;
    names.push(source_name);
    let source = Db::connect(&source_url).await?;
    println!(
        "rebuild_bench: {engine}, {} events, {} users, {} rebuilds, {} cores",
        a.events,
        a.users,
        a.rebuilds,
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    let started = Instant::now();
    let (items, shares) = generate(&source, a.events, a.users).await?;
    let generation = started.elapsed().as_secs_f64();
    println!(
        "generated in {generation:.1} s ({:.0} events/s, bulk inserts)",
        a.events as f64 / generation
    );

    let exe = std::env::current_exe()?;
    let deadline = Instant::now() + Duration::from_secs(a.timeout);
    let mut rounds = Vec::new();
    let mut as_of: Vec<(f64, f64)> = Vec::new();
    for round in 1..=a.rebuilds {
        let (scanned, scan_s) = scan(&source).await?;
        anyhow::ensure!(
            scanned == a.events,
            "read {scanned} events, expected {}",
            a.events
        );
        let target_name = format!("rebuild_tgt_{}_{round}", &suffix[..12]);
        let target_url = place.create(&target_name).await?;
        names.push(target_name.clone());
        let left = deadline.saturating_duration_since(Instant::now());
        let mut command = tokio::process::Command::new(&exe);
        command.args(["rebuild", &source_url, &target_url]);
        if a.profile {
            command.arg("--profile");
        }
        if a.batched {
            command.arg("--batched");
        }
        let child = command.kill_on_drop(true).output();
        let output = tokio::time::timeout(left, child)
            .await
            .map_err(|_| anyhow::anyhow!("rebuild stopped after the {} s timeout", a.timeout))??;
        place.remove(&target_name).await;
        names.retain(|n| n != &target_name);
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        let line = stdout
            .lines()
            .find(|l| l.starts_with("rebuilt "))
            .ok_or_else(|| {
                anyhow::anyhow!("the rebuild failed ({}): {stdout}{stderr}", output.status)
            })?;
        if !stderr.trim().is_empty() {
            eprintln!("{}", stderr.trim_end());
        }
        for l in stdout.lines().filter(|l| l.starts_with("profile ")) {
            println!("{l}");
        }
        if let Some(l) = stdout.lines().find(|l| l.starts_with("as-of ")) {
            let get = |k: &str| field(l, k).unwrap_or(f64::NAN);
            println!(
                "round {round}: as-of of a {AS_OF_ITEMS}-file folder p50 {:.3} / p99 {:.3} ms, \
                 who-could-see p50 {:.3} / p99 {:.3} ms; version rows read {} of {}",
                get("folder_p50_ms"),
                get("folder_p99_ms"),
                get("access_p50_ms"),
                get("access_p99_ms"),
                get("rows_read"),
                get("versions")
            );
            as_of.push((get("folder_p50_ms"), get("access_p50_ms")));
        }
        let get = |k: &str| field(line, k).unwrap_or(f64::NAN);
        let events = get("events");
        let seconds = get("seconds");
        let r = Round {
            scan_per_s: scanned as f64 / scan_s,
            rebuild_per_s: events / seconds,
            hwm_mib: get("hwm_kib") / 1024.0,
            rss_start_mib: get("rss_start_kib") / 1024.0,
        };
        let rows_ok = get("doc_items") as usize == items && get("doc_shares") as usize == shares;
        println!(
            "round {round}: read+decode {:.0} events/s ({scan_s:.1} s); rebuild {:.0} events/s ({seconds:.1} s), \
             peak RSS {:.1} MiB (at start {:.1} MiB); doc_items {} doc_shares {} doc_unread {} doc_item_versions {} ({})",
            r.scan_per_s,
            r.rebuild_per_s,
            r.hwm_mib,
            r.rss_start_mib,
            get("doc_items"),
            get("doc_shares"),
            get("doc_unread"),
            get("doc_item_versions"),
            if rows_ok {
                "as expected".to_string()
            } else {
                format!("EXPECTED {items} items, {shares} shares")
            }
        );
        anyhow::ensure!(
            events as u64 == a.events,
            "the rebuild applied {events} events"
        );
        rounds.push(r);
    }
    let scan = median(&rounds.iter().map(|r| r.scan_per_s).collect::<Vec<_>>());
    let rebuild = median(&rounds.iter().map(|r| r.rebuild_per_s).collect::<Vec<_>>());
    let hwm = median(&rounds.iter().map(|r| r.hwm_mib).collect::<Vec<_>>());
    println!(
        "rebuild: {rebuild:.0} events/s ({:.1} s for {} events), peak RSS {hwm:.1} MiB (medians of {})",
        a.events as f64 / rebuild,
        a.events,
        rounds.len()
    );
    println!("read+decode: {scan:.0} events/s (median)");
    println!(
        "as-of of the {AS_OF_ITEMS}-file folder: p50 {:.3} ms; who could see one of its files: p50 {:.3} ms (medians)",
        median(&as_of.iter().map(|a| a.0).collect::<Vec<_>>()),
        median(&as_of.iter().map(|a| a.1).collect::<Vec<_>>())
    );
    println!(
        "ratio: rebuild / read+decode = {:.4} ({:.1}x slower than reading the events)",
        rebuild / scan,
        scan / rebuild
    );
    source.close().await;
    Ok(())
}

fn main() -> anyhow::Result<()> {
    // As `companion replay` and `companion rebuild` run.
    backend::allocator::keep_freed_memory_a_second();
    let runtime = tokio::runtime::Runtime::new()?;
    let argv: Vec<String> = std::env::args().collect();
    if argv.get(1).map(String::as_str) == Some("rebuild") {
        let (Some(source), Some(target)) = (argv.get(2), argv.get(3)) else {
            usage()
        };
        let profile = argv.iter().any(|a| a == "--profile");
        let batched = argv.iter().any(|a| a == "--batched");
        let batch = argv
            .iter()
            .position(|a| a == "--batch")
            .and_then(|i| argv.get(i + 1)?.parse::<i64>().ok());
        tracing_subscriber::fmt()
            .with_writer(std::io::stderr)
            .with_env_filter(tracing_subscriber::EnvFilter::new("warn,sqlx=error"))
            .init();
        return runtime.block_on(rebuild_child(source, target, profile, batched, batch));
    }
    if argv.get(1).map(String::as_str) == Some("swap") {
        let (Some(live), Some(scratch)) = (argv.get(2), argv.get(3)) else {
            usage()
        };
        return runtime.block_on(swap(live, scratch));
    }
    if argv.get(1).map(String::as_str) == Some("generate") {
        let (Some(target), Some(Ok(events))) = (argv.get(2), argv.get(3).map(|n| n.parse::<u64>()))
        else {
            usage()
        };
        return runtime.block_on(async {
            let db = Db::connect(target).await?;
            let (items, shares) = generate(&db, events, 2000).await?;
            println!("generated events={events} live_items={items} live_shares={shares}");
            db.close().await;
            Ok(())
        });
    }
    let a = args();
    let dir = tempfile::tempdir()?;
    let place = match &a.postgres {
        Some(admin) => Place::Postgres {
            admin: admin.clone(),
        },
        None => Place::Sqlite(dir.path().to_path_buf()),
    };
    runtime.block_on(async {
        let mut names = Vec::new();
        let result = run(&a, &place, &mut names).await;
        for name in names {
            place.remove(&name).await;
        }
        result
    })
}
