// Over 600 lines: one given/when/then test per documents rule; they share the fixtures above them.
//! Given / when / then, one test per rule. The services are maps describing the tree around
//! the item under test.

use std::collections::{HashMap, HashSet};

use async_trait::async_trait;
use cqrs_es::test::TestFramework;

use super::*;

const ANNA: &str = "anna";
const JOHN: &str = "john";
const MARCO: &str = "marco";

fn user(id: &str) -> UserRef {
    UserRef {
        id: id.into(),
        name: format!("{id} name"),
    }
}

/// The world around the item under test.
#[derive(Clone, Default)]
struct World {
    items: HashMap<String, ItemInfo>,
    files: HashMap<String, FileFacts>,
    /// (user, item) pairs: the item was shared with the user.
    shares: HashSet<(String, String)>,
    us_users: HashSet<String>,
    withdrawn: HashMap<String, WithdrawalFacts>,
    max_depth: u32,
}

impl World {
    /// Anna's chain of folders a1 (depth 1) / a2 / a3 / a4 / a5, a file `af` in a1, Anna's
    /// folder `shared` shared with John containing `sf`, a US folder `usf` with `usfile`.
    fn demo() -> World {
        let mut w = World {
            max_depth: DEFAULT_MAX_FOLDER_DEPTH,
            ..World::default()
        };
        w.us_users.insert(JOHN.into());
        let mut ancestors = Vec::new();
        for depth in 1..=5 {
            let id = format!("a{depth}");
            let above: Vec<&str> = ancestors.iter().map(String::as_str).collect();
            w.folder(&id, Space::My, Some(ANNA), depth, &above);
            ancestors.push(id);
        }
        w.file("af", Space::My, Some(ANNA), 1, &["a1"], Labels::default());
        w.folder("shared", Space::My, Some(ANNA), 1, &[]);
        w.file(
            "sf",
            Space::My,
            Some(ANNA),
            1,
            &["shared"],
            Labels::default(),
        );
        w.shares.insert((JOHN.into(), "shared".into()));
        w.folder("usf", Space::Us, None, 1, &[]);
        w.file("usfile", Space::Us, None, 1, &["usf"], Labels::default());
        w
    }

    fn folder(&mut self, id: &str, space: Space, owner: Option<&str>, depth: u32, anc: &[&str]) {
        let ancestors = anc.iter().map(|s| s.to_string()).collect();
        self.items.insert(
            id.into(),
            ItemInfo {
                id: id.into(),
                kind: Kind::Folder,
                name: format!("{id} folder"),
                space,
                owner: owner.map(String::from),
                depth,
                ancestors,
            },
        );
    }

    fn file(
        &mut self,
        id: &str,
        space: Space,
        owner: Option<&str>,
        depth: u32,
        anc: &[&str],
        labels: Labels,
    ) {
        self.items.insert(
            id.into(),
            ItemInfo {
                id: id.into(),
                kind: Kind::File,
                name: format!("{id} title"),
                space,
                owner: owner.map(String::from),
                depth,
                ancestors: anc.iter().map(|s| s.to_string()).collect(),
            },
        );
        self.files
            .insert(id.into(), facts(&format!("{id} title"), labels));
    }

    fn with_max_depth(mut self, depth: u32) -> World {
        self.max_depth = depth;
        self
    }

    fn services(self) -> ItemServices {
        ItemServices::new(self)
    }
}

#[async_trait]
impl DocumentServices for World {
    fn max_folder_depth(&self) -> u32 {
        self.max_depth
    }
    async fn item(&self, id: &str) -> Result<Option<ItemInfo>, ServiceError> {
        Ok(self.items.get(id).cloned())
    }
    async fn source(&self, id: &str) -> Result<Option<SourceItem>, ServiceError> {
        Ok(self.items.get(id).map(|info| SourceItem {
            info: info.clone(),
            file: self.files.get(id).cloned(),
            withdrawn: self.withdrawn.get(id).cloned(),
        }))
    }
    async fn access(&self, user: &str, id: &str) -> Result<Access, ServiceError> {
        let Some(info) = self.items.get(id) else {
            return Ok(Access::default());
        };
        let shared = |item: &str| self.shares.contains(&(user.to_string(), item.to_string()));
        Ok(Access {
            owner: info.space == Space::My && info.owner.as_deref() == Some(user),
            direct: shared(id),
            inside: info.ancestors.iter().any(|a| shared(a)),
            us: info.space == Space::Us && self.us_users.contains(user),
        })
    }
    async fn shared_through(&self, user: &str, folder: &str) -> Result<bool, ServiceError> {
        let shared = |item: &str| self.shares.contains(&(user.to_string(), item.to_string()));
        Ok(shared(folder)
            || self
                .items
                .get(folder)
                .is_some_and(|f| f.ancestors.iter().any(|a| shared(a))))
    }
    async fn sees_us(&self, user: &str) -> Result<bool, ServiceError> {
        Ok(self.us_users.contains(user))
    }
    async fn descendants(&self, folder: &str) -> Result<Vec<ItemId>, ServiceError> {
        let mut below: Vec<&ItemInfo> = self
            .items
            .values()
            .filter(|i| i.ancestors.iter().any(|a| a == folder))
            .collect();
        below.sort_by_key(|i| (i.ancestors.len(), i.id.clone()));
        Ok(below.into_iter().map(|i| i.id.clone()).collect())
    }
    async fn subtree_height(&self, folder: &str) -> Result<u32, ServiceError> {
        let base = self.items.get(folder).map_or(0, |f| f.depth);
        Ok(self
            .items
            .values()
            .filter(|i| {
                i.kind == Kind::Folder
                    && (i.id == folder || i.ancestors.iter().any(|a| a == folder))
            })
            .map(|i| i.depth - base + 1)
            .max()
            .unwrap_or(1))
    }
}

fn facts(title: &str, labels: Labels) -> FileFacts {
    FileFacts {
        title: title.into(),
        name: format!("{title}.pdf"),
        blob: "0b6c.pdf".into(),
        size: 1234,
        format: FileFormat::Pdf,
        sha256: None,
        subtitle: None,
        languages_in_file: None,
        code_points: None,
        labels,
    }
}

fn folder_ref(id: &str) -> ItemRef {
    ItemRef {
        id: id.into(),
        name: format!("{id} folder"),
    }
}

fn created_folder(id: &str, owner: &str, parent: Option<&str>) -> ItemEvent {
    ItemEvent::FolderCreated {
        id: id.into(),
        space: Space::My,
        owner: Some(user(owner)),
        parent: parent.map(folder_ref),
        name: format!("{id} folder"),
        seed_key: None,
    }
}

fn uploaded(id: &str, owner: Option<&str>, parent: Option<&str>, labels: Labels) -> ItemEvent {
    ItemEvent::FileUploaded {
        id: id.into(),
        space: if owner.is_some() {
            Space::My
        } else {
            Space::Us
        },
        owner: owner.map(user),
        parent: parent.map(folder_ref),
        file: facts(&format!("{id} title"), labels),
        seed_key: None,
    }
}

fn shared_with(by: &str, with: &str) -> ItemEvent {
    ItemEvent::Shared {
        by: user(by),
        with: user(with),
        via: ShareVia::Internal,
    }
}

fn upload(title: &str, original: &str, sniffed: Option<FileFormat>) -> Upload {
    Upload {
        title: title.into(),
        file_name: None,
        original_name: original.into(),
        sniffed,
        blob: "5f3e0c.pdf".into(),
        size: 2048,
        sha256: None,
        subtitle: Some("  ".into()),
        languages_in_file: None,
        code_points: None,
        labels: Labels::default(),
    }
}

fn framework(world: World) -> TestFramework<Item> {
    TestFramework::with(world.services())
}

async fn expect_error(
    given: Vec<ItemEvent>,
    world: World,
    command: ItemCommand,
    error: DocumentError,
) {
    framework(world)
        .given(given)
        .when_async(command)
        .await
        .then_expect_error(error);
}

async fn expect_events(
    given: Vec<ItemEvent>,
    world: World,
    command: ItemCommand,
    events: Vec<ItemEvent>,
) {
    framework(world)
        .given(given)
        .when_async(command)
        .await
        .then_expect_events(events);
}

fn create_folder(parent: Option<&str>, name: &str, by: &str) -> ItemCommand {
    ItemCommand::CreateFolder {
        id: "new".into(),
        by: Creator::User(user(by)),
        parent: parent.map(String::from),
        name: name.into(),
        seed_key: None,
    }
}

// ---- create folder ----

#[tokio::test]
async fn a_folder_is_created_at_the_root_or_in_an_own_folder() {
    expect_events(
        vec![],
        World::demo(),
        create_folder(None, "  Plans  ", ANNA),
        vec![ItemEvent::FolderCreated {
            id: "new".into(),
            space: Space::My,
            owner: Some(user(ANNA)),
            parent: None,
            name: "Plans".into(),
            seed_key: None,
        }],
    )
    .await;
    expect_events(
        vec![],
        World::demo(),
        create_folder(Some("a4"), "Deep", ANNA),
        vec![ItemEvent::FolderCreated {
            id: "new".into(),
            space: Space::My,
            owner: Some(user(ANNA)),
            parent: Some(folder_ref("a4")),
            name: "Deep".into(),
            seed_key: None,
        }],
    )
    .await;
}

#[tokio::test]
async fn a_folder_needs_a_name() {
    for blank in ["", "   ", "\t"] {
        expect_error(
            vec![],
            World::demo(),
            create_folder(None, blank, ANNA),
            DocumentError::NameRequired,
        )
        .await;
    }
}

#[tokio::test]
async fn a_name_has_a_maximum_length_and_no_control_characters() {
    let long = "x".repeat(MAX_NAME_LEN + 1);
    expect_error(
        vec![],
        World::demo(),
        create_folder(None, &long, ANNA),
        DocumentError::NameTooLong,
    )
    .await;
    let just_right = "é".repeat(MAX_NAME_LEN);
    let result = framework(World::demo())
        .given_no_previous_events()
        .when_async(create_folder(None, &just_right, ANNA))
        .await
        .inspect_result();
    assert!(result.is_ok(), "200 characters are accepted: {result:?}");
    expect_error(
        vec![],
        World::demo(),
        create_folder(None, "two\nlines", ANNA),
        DocumentError::NameInvalid,
    )
    .await;
}

#[tokio::test]
async fn folders_stop_at_the_max_depth_with_the_spec_message() {
    expect_error(
        vec![],
        World::demo(),
        create_folder(Some("a5"), "Too deep", ANNA),
        DocumentError::MaxDepth,
    )
    .await;
    assert_eq!(
        DocumentError::MaxDepth.to_string(),
        "You cannot create further folders, you have reached max depth level"
    );
    // The limit is configurable.
    expect_error(
        vec![],
        World::demo().with_max_depth(2),
        create_folder(Some("a2"), "Third", ANNA),
        DocumentError::MaxDepth,
    )
    .await;
    // Files may still go into the deepest folder.
    let result = framework(World::demo())
        .given_no_previous_events()
        .when_async(ItemCommand::UploadFile {
            id: "f".into(),
            by: Creator::User(user(ANNA)),
            parent: Some("a5".into()),
            upload: upload("Deep file", "deep.pdf", Some(FileFormat::Pdf)),
            seed_key: None,
        })
        .await
        .inspect_result();
    assert!(result.is_ok(), "{result:?}");
}

#[tokio::test]
async fn nothing_is_added_to_shared_or_us_folders() {
    // John sees Anna's shared folder, but it is read-only for him.
    expect_error(
        vec![],
        World::demo(),
        create_folder(Some("shared"), "Mine", JOHN),
        DocumentError::ReadOnly,
    )
    .await;
    expect_error(
        vec![],
        World::demo(),
        create_folder(Some("usf"), "Mine", JOHN),
        DocumentError::ReadOnly,
    )
    .await;
    // Marco does not even see Anna's folder.
    expect_error(
        vec![],
        World::demo(),
        create_folder(Some("a1"), "Mine", MARCO),
        DocumentError::DestinationNotFound,
    )
    .await;
    expect_error(
        vec![],
        World::demo(),
        create_folder(Some("nowhere"), "Mine", ANNA),
        DocumentError::DestinationNotFound,
    )
    .await;
}

#[tokio::test]
async fn nothing_is_added_inside_a_file() {
    expect_error(
        vec![],
        World::demo(),
        create_folder(Some("af"), "Inside", ANNA),
        DocumentError::NotAFolder,
    )
    .await;
}

#[tokio::test]
async fn an_item_is_created_once() {
    expect_error(
        vec![created_folder("new", ANNA, None)],
        World::demo(),
        create_folder(None, "Again", ANNA),
        DocumentError::AlreadyExists,
    )
    .await;
}

#[tokio::test]
async fn the_company_adds_to_the_us_set_only() {
    let command = |parent: Option<&str>| ItemCommand::CreateFolder {
        id: "new".into(),
        by: Creator::Company,
        parent: parent.map(String::from),
        name: "US Sales".into(),
        seed_key: Some("us-sales".into()),
    };
    expect_events(
        vec![],
        World::demo(),
        command(Some("usf")),
        vec![ItemEvent::FolderCreated {
            id: "new".into(),
            space: Space::Us,
            owner: None,
            parent: Some(folder_ref("usf")),
            name: "US Sales".into(),
            seed_key: Some("us-sales".into()),
        }],
    )
    .await;
    expect_error(
        vec![],
        World::demo(),
        command(Some("a1")),
        DocumentError::ReadOnly,
    )
    .await;
}

// ---- upload ----

#[tokio::test]
async fn a_pdf_or_xls_is_uploaded_with_a_server_file_name() {
    let mut expected = facts("Visit plan", Labels::default());
    expected.name = "Visit plan.pdf".into();
    expected.blob = "5f3e0c.pdf".into();
    expected.size = 2048;
    expect_events(
        vec![],
        World::demo(),
        ItemCommand::UploadFile {
            id: "f".into(),
            by: Creator::User(user(ANNA)),
            parent: Some("a1".into()),
            upload: upload(" Visit plan ", "PLAN.PDF", Some(FileFormat::Pdf)),
            seed_key: None,
        },
        vec![ItemEvent::FileUploaded {
            id: "f".into(),
            space: Space::My,
            owner: Some(user(ANNA)),
            parent: Some(folder_ref("a1")),
            file: expected,
            seed_key: None,
        }],
    )
    .await;
    let mut xls = upload("Accounts", "accounts.xls", Some(FileFormat::Xls));
    xls.blob = "77aa.xls".into();
    let events = framework(World::demo())
        .given_no_previous_events()
        .when_async(ItemCommand::UploadFile {
            id: "x".into(),
            by: Creator::User(user(ANNA)),
            parent: None,
            upload: xls,
            seed_key: None,
        })
        .await
        .inspect_result()
        .expect("xls accepted");
    let ItemEvent::FileUploaded { file, .. } = &events[0] else {
        panic!("{events:?}")
    };
    assert_eq!(file.name, "Accounts.xls");
    assert_eq!(file.format, FileFormat::Xls);
}

#[tokio::test]
async fn uploads_are_checked_by_content_and_by_name() {
    let cases = [
        // An .exe renamed .pdf: the content is not a PDF.
        ("setup.pdf", None),
        // A PDF named .xls, an XLS named .pdf, a PDF without extension, another type.
        ("report.xls", Some(FileFormat::Pdf)),
        ("sheet.pdf", Some(FileFormat::Xls)),
        ("report", Some(FileFormat::Pdf)),
        ("report.docx", Some(FileFormat::Pdf)),
    ];
    for (original, sniffed) in cases {
        expect_error(
            vec![],
            World::demo(),
            ItemCommand::UploadFile {
                id: "f".into(),
                by: Creator::User(user(ANNA)),
                parent: None,
                upload: upload("File", original, sniffed),
                seed_key: None,
            },
            DocumentError::UnsupportedType,
        )
        .await;
    }
}

#[tokio::test]
async fn an_upload_needs_a_name_and_a_safe_stored_name() {
    expect_error(
        vec![],
        World::demo(),
        ItemCommand::UploadFile {
            id: "f".into(),
            by: Creator::User(user(ANNA)),
            parent: None,
            upload: upload("  ", "a.pdf", Some(FileFormat::Pdf)),
            seed_key: None,
        },
        DocumentError::NameRequired,
    )
    .await;
    for blob in ["../etc/passwd", "a/b.pdf", "", ".hidden", "a\\b.pdf"] {
        let mut bad = upload("File", "a.pdf", Some(FileFormat::Pdf));
        bad.blob = blob.into();
        let result = framework(World::demo())
            .given_no_previous_events()
            .when_async(ItemCommand::UploadFile {
                id: "f".into(),
                by: Creator::User(user(ANNA)),
                parent: None,
                upload: bad,
                seed_key: None,
            })
            .await
            .inspect_result();
        assert!(
            matches!(result, Err(DocumentError::Services(_))),
            "{blob}: {result:?}"
        );
    }
}

#[tokio::test]
async fn uploads_go_only_into_my_docs() {
    expect_error(
        vec![],
        World::demo(),
        ItemCommand::UploadFile {
            id: "f".into(),
            by: Creator::User(user(JOHN)),
            parent: Some("shared".into()),
            upload: upload("Mine", "mine.pdf", Some(FileFormat::Pdf)),
            seed_key: None,
        },
        DocumentError::ReadOnly,
    )
    .await;
}

// ---- rename ----

#[tokio::test]
async fn the_owner_renames_a_file_and_its_download_name_follows() {
    expect_events(
        vec![uploaded("af", Some(ANNA), Some("a1"), Labels::default())],
        World::demo(),
        ItemCommand::Rename {
            by: ANNA.into(),
            name: "Final plan".into(),
        },
        vec![ItemEvent::Renamed {
            from: "af title".into(),
            to: "Final plan".into(),
            file_name: Some("Final plan.pdf".into()),
        }],
    )
    .await;
    expect_events(
        vec![created_folder("a1", ANNA, None)],
        World::demo(),
        ItemCommand::Rename {
            by: ANNA.into(),
            name: "Renamed".into(),
        },
        vec![ItemEvent::Renamed {
            from: "a1 folder".into(),
            to: "Renamed".into(),
            file_name: None,
        }],
    )
    .await;
    // The same name records nothing.
    expect_events(
        vec![created_folder("a1", ANNA, None)],
        World::demo(),
        ItemCommand::Rename {
            by: ANNA.into(),
            name: "a1 folder".into(),
        },
        vec![],
    )
    .await;
}

#[tokio::test]
async fn a_rename_needs_a_name() {
    expect_error(
        vec![created_folder("a1", ANNA, None)],
        World::demo(),
        ItemCommand::Rename {
            by: ANNA.into(),
            name: " ".into(),
        },
        DocumentError::NameRequired,
    )
    .await;
}

#[tokio::test]
async fn shared_and_us_items_are_read_only_for_the_receiver() {
    // Shared directly with John.
    let given = vec![
        uploaded("doc", Some(ANNA), None, Labels::default()),
        shared_with(ANNA, JOHN),
    ];
    for command in [
        ItemCommand::Rename {
            by: JOHN.into(),
            name: "Mine now".into(),
        },
        ItemCommand::Move {
            by: JOHN.into(),
            destination: None,
        },
        ItemCommand::Delete { by: JOHN.into() },
    ] {
        let action = match &command {
            ItemCommand::Rename { .. } => Action::Rename,
            ItemCommand::Move { .. } => Action::Move,
            _ => Action::Delete,
        };
        expect_error(
            given.clone(),
            World::demo(),
            command,
            DocumentError::NotAllowed(action),
        )
        .await;
    }
    // Inside a folder shared with John.
    expect_error(
        vec![uploaded(
            "sf",
            Some(ANNA),
            Some("shared"),
            Labels::default(),
        )],
        World::demo(),
        ItemCommand::Rename {
            by: JOHN.into(),
            name: "x".into(),
        },
        DocumentError::NotAllowed(Action::Rename),
    )
    .await;
    // The US set.
    expect_error(
        vec![uploaded("usfile", None, Some("usf"), Labels::default())],
        World::demo(),
        ItemCommand::Delete { by: JOHN.into() },
        DocumentError::NotAllowed(Action::Delete),
    )
    .await;
}

#[tokio::test]
async fn other_users_items_are_not_found() {
    let given = vec![uploaded("doc", Some(ANNA), None, Labels::default())];
    for command in [
        ItemCommand::Rename {
            by: MARCO.into(),
            name: "x".into(),
        },
        ItemCommand::Delete { by: MARCO.into() },
        ItemCommand::Open {
            by: MARCO.into(),
            download: false,
        },
        ItemCommand::Share {
            by: user(MARCO),
            with: Some(user(JOHN)),
            via: ShareVia::Internal,
        },
    ] {
        expect_error(
            given.clone(),
            World::demo(),
            command,
            DocumentError::NotFound,
        )
        .await;
    }
    // The US set is not there for users without the US certificate.
    expect_error(
        vec![uploaded("usfile", None, Some("usf"), Labels::default())],
        World::demo(),
        ItemCommand::Open {
            by: ANNA.into(),
            download: false,
        },
        DocumentError::NotFound,
    )
    .await;
    // Nor is an item that was never created.
    expect_error(
        vec![],
        World::demo(),
        ItemCommand::Rename {
            by: ANNA.into(),
            name: "x".into(),
        },
        DocumentError::NotFound,
    )
    .await;
}

// ---- move ----

fn move_to(destination: Option<&str>) -> ItemCommand {
    ItemCommand::Move {
        by: ANNA.into(),
        destination: destination.map(String::from),
    }
}

#[tokio::test]
async fn an_item_moves_into_an_own_folder_or_to_the_root() {
    expect_events(
        vec![uploaded("af", Some(ANNA), Some("a1"), Labels::default())],
        World::demo(),
        move_to(Some("a3")),
        vec![ItemEvent::Moved {
            from: Some(folder_ref("a1")),
            to: Some(folder_ref("a3")),
        }],
    )
    .await;
    expect_events(
        vec![uploaded("af", Some(ANNA), Some("a1"), Labels::default())],
        World::demo(),
        move_to(None),
        vec![ItemEvent::Moved {
            from: Some(folder_ref("a1")),
            to: None,
        }],
    )
    .await;
    // Where it already is: nothing to record.
    expect_events(
        vec![uploaded("af", Some(ANNA), Some("a1"), Labels::default())],
        World::demo(),
        move_to(Some("a1")),
        vec![],
    )
    .await;
}

#[tokio::test]
async fn a_folder_never_moves_into_itself_or_below_itself() {
    let a2 = vec![created_folder("a2", ANNA, Some("a1"))];
    expect_error(
        a2.clone(),
        World::demo(),
        move_to(Some("a2")),
        DocumentError::MoveIntoItself,
    )
    .await;
    for below in ["a3", "a5"] {
        expect_error(
            a2.clone(),
            World::demo(),
            move_to(Some(below)),
            DocumentError::MoveIntoItself,
        )
        .await;
    }
}

#[tokio::test]
async fn a_move_keeps_the_depth_limit() {
    // `shared` has no subfolders: depth 5 + 1 is too deep, depth 4 + 1 fits.
    let shared = vec![created_folder("shared", ANNA, None)];
    expect_error(
        shared.clone(),
        World::demo(),
        move_to(Some("a5")),
        DocumentError::MoveTooDeep,
    )
    .await;
    let result = framework(World::demo())
        .given(shared)
        .when_async(move_to(Some("a4")))
        .await
        .inspect_result();
    assert!(result.is_ok(), "{result:?}");
    // a3 holds a4 and a5 (height 3): under `shared` (depth 1) it would reach depth 4.
    let mut world = World::demo();
    world.folder("a3", Space::My, Some(ANNA), 3, &["a1", "a2"]);
    let result = framework(world.clone())
        .given(vec![created_folder("a3", ANNA, Some("a2"))])
        .when_async(move_to(Some("shared")))
        .await
        .inspect_result();
    assert!(result.is_ok(), "{result:?}");
    expect_error(
        vec![created_folder("a3", ANNA, Some("a2"))],
        world.with_max_depth(3),
        move_to(Some("shared")),
        DocumentError::MoveTooDeep,
    )
    .await;
}

#[tokio::test]
async fn a_move_goes_only_to_own_folders() {
    let doc = vec![uploaded("af", Some(ANNA), Some("a1"), Labels::default())];
    let mut world = World::demo();
    world.folder("johns", Space::My, Some(JOHN), 1, &[]);
    expect_error(
        doc.clone(),
        world.clone(),
        move_to(Some("johns")),
        DocumentError::DestinationNotFound,
    )
    .await;
    // John sees the US set, but moving into it is refused.
    expect_error(
        vec![uploaded("jd", Some(JOHN), None, Labels::default())],
        world,
        ItemCommand::Move {
            by: JOHN.into(),
            destination: Some("usf".into()),
        },
        DocumentError::ReadOnly,
    )
    .await;
    expect_error(
        doc,
        World::demo(),
        move_to(Some("af")),
        DocumentError::NotAFolder,
    )
    .await;
}

// ---- delete ----

#[tokio::test]
async fn deleting_a_folder_deletes_and_records_its_contents() {
    expect_events(
        vec![created_folder("a3", ANNA, Some("a2"))],
        World::demo(),
        ItemCommand::Delete { by: ANNA.into() },
        vec![ItemEvent::FolderDeleted {
            by: ANNA.into(),
            removed: vec!["a4".into(), "a5".into()],
        }],
    )
    .await;
    expect_events(
        vec![uploaded("af", Some(ANNA), Some("a1"), Labels::default())],
        World::demo(),
        ItemCommand::Delete { by: ANNA.into() },
        vec![ItemEvent::FileRemoved { by: ANNA.into() }],
    )
    .await;
    // Contents record that they went with the folder, once.
    let given = vec![uploaded("af", Some(ANNA), Some("a1"), Labels::default())];
    let folder = ItemRef {
        id: "a1".into(),
        name: "a1 folder".into(),
    };
    expect_events(
        given.clone(),
        World::demo(),
        ItemCommand::DeleteWithFolder {
            folder: folder.clone(),
        },
        vec![ItemEvent::DeletedWithFolder {
            folder: folder.clone(),
        }],
    )
    .await;
    let mut gone = given;
    gone.push(ItemEvent::DeletedWithFolder {
        folder: folder.clone(),
    });
    expect_events(
        gone,
        World::demo(),
        ItemCommand::DeleteWithFolder { folder },
        vec![],
    )
    .await;
}

#[tokio::test]
async fn a_deleted_item_takes_no_more_commands() {
    let given = vec![
        uploaded("af", Some(ANNA), Some("a1"), Labels::default()),
        ItemEvent::FileRemoved { by: ANNA.into() },
    ];
    for command in [
        ItemCommand::Rename {
            by: ANNA.into(),
            name: "x".into(),
        },
        ItemCommand::Delete { by: ANNA.into() },
        ItemCommand::Open {
            by: ANNA.into(),
            download: true,
        },
    ] {
        expect_error(
            given.clone(),
            World::demo(),
            command,
            DocumentError::NotFound,
        )
        .await;
    }
}

// ---- internal shares ----

/// A share with `with`, as the server sends it: the account it found for the address, none
/// for `GHOST` (an address nobody uses).
fn share(by: &str, with: &str, via: ShareVia) -> ItemCommand {
    ItemCommand::Share {
        by: user(by),
        with: (with != GHOST).then(|| user(with)),
        via,
    }
}

/// A recipient address no account uses.
const GHOST: &str = "ghost";

#[tokio::test]
async fn the_owner_shares_with_a_colleague() {
    expect_events(
        vec![created_folder("shared", ANNA, None)],
        World::demo(),
        share(ANNA, JOHN, ShareVia::Internal),
        vec![shared_with(ANNA, JOHN)],
    )
    .await;
    // Labels do not stop internal shares.
    let internal = Labels {
        for_internal_use: true,
        controlled_release: true,
        upon_request: true,
        external_release: false,
    };
    expect_events(
        vec![uploaded("af", Some(ANNA), Some("a1"), internal)],
        World::demo(),
        share(ANNA, MARCO, ShareVia::Internal),
        vec![shared_with(ANNA, MARCO)],
    )
    .await;
}

#[tokio::test]
async fn shares_need_a_real_colleague_other_than_oneself() {
    let doc = vec![uploaded("af", Some(ANNA), Some("a1"), Labels::default())];
    expect_error(
        doc.clone(),
        World::demo(),
        share(ANNA, ANNA, ShareVia::Internal),
        DocumentError::ShareWithSelf,
    )
    .await;
    expect_error(
        doc,
        World::demo(),
        share(ANNA, GHOST, ShareVia::Internal),
        DocumentError::RecipientNotFound,
    )
    .await;
    assert_eq!(
        DocumentError::RecipientNotFound.to_string(),
        "The user associated with that e-mail was not found. Check again the e-mail or try an external share."
    );
}

#[tokio::test]
async fn receivers_do_not_share_further() {
    expect_error(
        vec![
            uploaded("doc", Some(ANNA), None, Labels::default()),
            shared_with(ANNA, JOHN),
        ],
        World::demo(),
        share(JOHN, MARCO, ShareVia::Internal),
        DocumentError::NotAllowed(Action::InternalShare),
    )
    .await;
}

#[tokio::test]
async fn storage_shares_are_for_us_files() {
    let us_file = vec![uploaded("usfile", None, Some("usf"), Labels::default())];
    expect_events(
        us_file.clone(),
        World::demo(),
        share(JOHN, ANNA, ShareVia::Storage),
        vec![ItemEvent::Shared {
            by: user(JOHN),
            with: user(ANNA),
            via: ShareVia::Storage,
        }],
    )
    .await;
    // Not for a user's own documents, not for US folders.
    expect_error(
        vec![uploaded("af", Some(ANNA), Some("a1"), Labels::default())],
        World::demo(),
        share(ANNA, JOHN, ShareVia::Storage),
        DocumentError::NotAllowed(Action::StorageInternalShare),
    )
    .await;
    expect_error(
        vec![ItemEvent::FolderCreated {
            id: "usf".into(),
            space: Space::Us,
            owner: None,
            parent: None,
            name: "usf folder".into(),
            seed_key: None,
        }],
        World::demo(),
        share(JOHN, ANNA, ShareVia::Storage),
        DocumentError::NotAllowed(Action::StorageInternalShare),
    )
    .await;
}

// ---- external shares ----

fn external(by: &str, email: &str) -> ItemCommand {
    ItemCommand::ShareExternally {
        by: by.into(),
        email: email.into(),
        token_hash: "ab12".into(),
        expires_at: 1_900_000_000_000,
        share: "s-1".into(),
        allow_download: false,
        max_opens: Some(3),
    }
}

#[tokio::test]
async fn an_unlabelled_file_is_shared_externally_with_an_expiring_link() {
    expect_events(
        vec![uploaded("af", Some(ANNA), Some("a1"), Labels::default())],
        World::demo(),
        external(ANNA, " Dr.Who@Clinic.example "),
        vec![ItemEvent::SharedExternally {
            by: ANNA.into(),
            email: "dr.who@clinic.example".into(),
            token_hash: "ab12".into(),
            expires_at: 1_900_000_000_000,
            share: "s-1".into(),
            allow_download: false,
            max_opens: Some(3),
            title: "af title".into(),
            owner: Some(ANNA.into()),
        }],
    )
    .await;
    expect_error(
        vec![uploaded("af", Some(ANNA), Some("a1"), Labels::default())],
        World::demo(),
        external(ANNA, "not-an-email"),
        DocumentError::InvalidEmail,
    )
    .await;
}

#[tokio::test]
async fn for_internal_use_is_never_shared_externally() {
    let internal = Labels {
        for_internal_use: true,
        external_release: true,
        ..Labels::default()
    };
    expect_error(
        vec![uploaded("af", Some(ANNA), Some("a1"), internal)],
        World::demo(),
        external(ANNA, "x@clinic.example"),
        DocumentError::InternalUseOnly,
    )
    .await;
    expect_error(
        vec![uploaded("usfile", None, Some("usf"), internal)],
        World::demo(),
        external(JOHN, "x@clinic.example"),
        DocumentError::InternalUseOnly,
    )
    .await;
}

#[tokio::test]
async fn controlled_release_and_upon_request_stay_internal_unless_released() {
    for labels in [
        Labels {
            controlled_release: true,
            ..Labels::default()
        },
        Labels {
            upon_request: true,
            ..Labels::default()
        },
    ] {
        expect_error(
            vec![uploaded("af", Some(ANNA), Some("a1"), labels)],
            World::demo(),
            external(ANNA, "x@clinic.example"),
            DocumentError::InternalShareOnly,
        )
        .await;
        let released = Labels {
            external_release: true,
            ..labels
        };
        let result = framework(World::demo())
            .given(vec![uploaded("af", Some(ANNA), Some("a1"), released)])
            .when_async(external(ANNA, "x@clinic.example"))
            .await
            .inspect_result();
        assert!(result.is_ok(), "{labels:?}: {result:?}");
    }
}

#[tokio::test]
async fn folders_and_received_items_are_not_shared_externally() {
    expect_error(
        vec![created_folder("a1", ANNA, None)],
        World::demo(),
        external(ANNA, "x@clinic.example"),
        DocumentError::NotAllowed(Action::ExternalShare),
    )
    .await;
    expect_error(
        vec![
            uploaded("doc", Some(ANNA), None, Labels::default()),
            shared_with(ANNA, JOHN),
        ],
        World::demo(),
        external(JOHN, "x@clinic.example"),
        DocumentError::NotAllowed(Action::ExternalShare),
    )
    .await;
}

// ---- save / move to My Docs ----

fn copy(source: &str, reason: CopyReason, part_of: Option<&str>) -> ItemCommand {
    ItemCommand::Copy {
        id: "copy".into(),
        by: user(JOHN),
        source: source.into(),
        parent: None,
        reason,
        part_of: part_of.map(String::from),
    }
}

#[tokio::test]
async fn a_shared_or_us_file_is_saved_as_a_copy_in_my_docs() {
    for source in ["sf", "usfile"] {
        let events = framework(World::demo())
            .given_no_previous_events()
            .when_async(copy(source, CopyReason::Save, None))
            .await
            .inspect_result()
            .unwrap_or_else(|e| panic!("{source}: {e}"));
        let ItemEvent::Copied {
            owner,
            parent,
            source: from,
            file,
            kind,
            ..
        } = &events[0]
        else {
            panic!("{events:?}")
        };
        assert_eq!(owner, &user(JOHN));
        assert_eq!(parent, &None);
        assert_eq!(from.id, source);
        assert_eq!(*kind, Kind::File);
        assert!(file.is_some());
    }
}

#[tokio::test]
async fn what_cannot_be_saved_is_refused() {
    // A folder is not saved (it is moved), an own file is already in My Docs, Marco sees nothing.
    expect_error(
        vec![],
        World::demo(),
        copy("shared", CopyReason::Save, None),
        DocumentError::NotAllowed(Action::SaveToMydocs),
    )
    .await;
    expect_error(
        vec![],
        World::demo(),
        ItemCommand::Copy {
            id: "copy".into(),
            by: user(ANNA),
            source: "af".into(),
            parent: None,
            reason: CopyReason::Save,
            part_of: None,
        },
        DocumentError::NotAllowed(Action::SaveToMydocs),
    )
    .await;
    expect_error(
        vec![],
        World::demo(),
        ItemCommand::Copy {
            id: "copy".into(),
            by: user(MARCO),
            source: "sf".into(),
            parent: None,
            reason: CopyReason::Save,
            part_of: None,
        },
        DocumentError::NotFound,
    )
    .await;
    // The copy goes into John's own My Docs only.
    expect_error(
        vec![],
        World::demo(),
        ItemCommand::Copy {
            id: "copy".into(),
            by: user(JOHN),
            source: "sf".into(),
            parent: Some("shared".into()),
            reason: CopyReason::Save,
            part_of: None,
        },
        DocumentError::ReadOnly,
    )
    .await;
}

#[tokio::test]
async fn a_shared_folder_moves_to_my_docs_with_its_contents() {
    let result = framework(World::demo())
        .given_no_previous_events()
        .when_async(copy("shared", CopyReason::Move, None))
        .await
        .inspect_result();
    assert!(
        matches!(
            result.as_deref(),
            Ok([ItemEvent::Copied {
                kind: Kind::Folder,
                ..
            }])
        ),
        "{result:?}"
    );
    // Its contents are copied as part of it.
    let result = framework(World::demo())
        .given_no_previous_events()
        .when_async(copy("sf", CopyReason::Move, Some("shared")))
        .await
        .inspect_result();
    assert!(result.is_ok(), "{result:?}");
    // Only the item shared with John moves; what is merely inside it does not on its own.
    expect_error(
        vec![],
        World::demo(),
        copy("sf", CopyReason::Move, None),
        DocumentError::NotAllowed(Action::MoveToMydocs),
    )
    .await;
    // And "part of" must be true.
    expect_error(
        vec![],
        World::demo(),
        copy("usfile", CopyReason::Move, Some("shared")),
        DocumentError::NotAllowed(Action::MoveToMydocs),
    )
    .await;
}

#[tokio::test]
async fn moving_to_my_docs_ends_the_share_for_the_mover() {
    let given = vec![
        created_folder("shared", ANNA, None),
        shared_with(ANNA, JOHN),
    ];
    expect_events(
        given.clone(),
        World::demo(),
        ItemCommand::RecordCopy {
            by: JOHN.into(),
            copy: "copy".into(),
            reason: CopyReason::Move,
        },
        vec![ItemEvent::MovedToMyDocs {
            by: JOHN.into(),
            copy: "copy".into(),
        }],
    )
    .await;
    let mut moved = given;
    moved.push(ItemEvent::MovedToMyDocs {
        by: JOHN.into(),
        copy: "copy".into(),
    });
    // A root-level folder: no longer shared with John, so gone for him.
    expect_error(
        moved,
        World::demo(),
        ItemCommand::Open {
            by: JOHN.into(),
            download: false,
        },
        DocumentError::NotFound,
    )
    .await;
}

// ---- open / download ----

#[tokio::test]
async fn opening_and_downloading_are_recorded_for_whoever_sees_the_item() {
    let doc = vec![uploaded(
        "sf",
        Some(ANNA),
        Some("shared"),
        Labels::default(),
    )];
    expect_events(
        doc.clone(),
        World::demo(),
        ItemCommand::Open {
            by: JOHN.into(),
            download: false,
        },
        vec![ItemEvent::Opened { by: JOHN.into() }],
    )
    .await;
    expect_events(
        doc,
        World::demo(),
        ItemCommand::Open {
            by: ANNA.into(),
            download: true,
        },
        vec![ItemEvent::Downloaded { by: ANNA.into() }],
    )
    .await;
    expect_events(
        vec![uploaded("usfile", None, Some("usf"), Labels::default())],
        World::demo(),
        ItemCommand::Open {
            by: JOHN.into(),
            download: true,
        },
        vec![ItemEvent::Downloaded { by: JOHN.into() }],
    )
    .await;
    expect_error(
        vec![created_folder("a1", ANNA, None)],
        World::demo(),
        ItemCommand::Open {
            by: ANNA.into(),
            download: true,
        },
        DocumentError::NotAFile,
    )
    .await;
}

// ---- the rule table ----

#[test]
fn each_user_gets_exactly_the_actions_of_how_they_reach_an_item() {
    let none = Labels::default();
    let names = |a: Vec<Action>| a.into_iter().map(Action::as_str).collect::<Vec<_>>();
    let owner = Access {
        owner: true,
        ..Access::default()
    };
    assert_eq!(
        names(owner.actions(Kind::Folder, &none)),
        ["rename", "internal_share", "move", "delete"]
    );
    assert_eq!(
        names(owner.actions(Kind::File, &none)),
        [
            "rename",
            "internal_share",
            "external_share",
            "move",
            "delete"
        ]
    );
    let direct = Access {
        direct: true,
        ..Access::default()
    };
    assert_eq!(
        names(direct.actions(Kind::Folder, &none)),
        ["move_to_mydocs"]
    );
    assert_eq!(
        names(direct.actions(Kind::File, &none)),
        ["save_to_mydocs", "move_to_mydocs"]
    );
    let inside = Access {
        inside: true,
        ..Access::default()
    };
    assert!(inside.actions(Kind::Folder, &none).is_empty());
    assert_eq!(names(inside.actions(Kind::File, &none)), ["save_to_mydocs"]);
    let us = Access {
        us: true,
        ..Access::default()
    };
    assert!(us.actions(Kind::Folder, &none).is_empty());
    assert_eq!(
        names(us.actions(Kind::File, &none)),
        ["storage_internal_share", "external_share", "save_to_mydocs"]
    );
    let controlled = Labels {
        controlled_release: true,
        ..none
    };
    assert_eq!(
        names(us.actions(Kind::File, &controlled)),
        ["storage_internal_share", "save_to_mydocs"]
    );
    assert!(Access::default().actions(Kind::File, &none).is_empty());
}

#[test]
fn file_types_are_told_by_their_first_bytes() {
    assert_eq!(FileFormat::sniff(b"%PDF-1.7\n"), Some(FileFormat::Pdf));
    assert_eq!(
        FileFormat::sniff(&[0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1, 0, 0]),
        Some(FileFormat::Xls)
    );
    assert_eq!(FileFormat::sniff(b"MZ\x90\x00"), None);
    assert_eq!(FileFormat::sniff(b"%PD"), None);
    assert_eq!(FileFormat::sniff(b""), None);
    assert_eq!(FileFormat::from_file_name("A.PDF"), Some(FileFormat::Pdf));
    assert_eq!(FileFormat::from_file_name("a.pdf.exe"), None);
    assert_eq!(FileFormat::Pdf.file_name_for("plan"), "plan.pdf");
    assert_eq!(FileFormat::Pdf.file_name_for("plan.PDF"), "plan.PDF");
}

#[test]
fn labels_name_the_first_that_applies() {
    let all = Labels {
        for_internal_use: true,
        controlled_release: true,
        upon_request: true,
        external_release: false,
    };
    assert_eq!(all.label(), Some("For internal use"));
    assert_eq!(
        Labels {
            upon_request: true,
            ..Labels::default()
        }
        .label(),
        Some("Upon request")
    );
    assert_eq!(Labels::default().label(), None);
}

// ---- the company's files: new versions and withdrawal ----

fn withdrawal() -> WithdrawalFacts {
    WithdrawalFacts {
        state: WithdrawnState::Withdrawn,
        reason: "Superseded by the 2027 edition".into(),
        at: 1_800_000_000_000,
        replacement: Some(ReplacementRef {
            id: 100_001,
            title: "Surgical technique 2027".into(),
            url: "/api/library/100001/file".into(),
        }),
    }
}

fn withdraw(facts: &WithdrawalFacts) -> ItemCommand {
    ItemCommand::Withdraw {
        by: "publisher".into(),
        state: facts.state,
        reason: facts.reason.clone(),
        at: facts.at,
        replacement: facts.replacement.clone(),
    }
}

fn withdrawn_event(facts: &WithdrawalFacts) -> ItemEvent {
    ItemEvent::Withdrawn {
        by: "publisher".into(),
        state: facts.state,
        reason: facts.reason.clone(),
        at: facts.at,
        replacement: facts.replacement.clone(),
    }
}

fn replace(version: u32, blob: &str) -> ItemCommand {
    let mut upload = upload("usfile title", "usfile.pdf", Some(FileFormat::Pdf));
    upload.blob = blob.into();
    upload.file_name = Some("usfile title.pdf".into());
    ItemCommand::ReplaceFile {
        by: user("publisher"),
        upload,
        version,
        note: Some(" Corrected dosage table ".into()),
    }
}

fn copied_by_anna() -> ItemEvent {
    ItemEvent::Copied {
        id: "copy".into(),
        kind: Kind::File,
        owner: user(ANNA),
        parent: None,
        source: ItemRef {
            id: "usfile".into(),
            name: "usfile title".into(),
        },
        reason: CopyReason::Save,
        name: "usfile title".into(),
        file: Some(facts("usfile title", Labels::default())),
    }
}

#[tokio::test]
async fn a_company_file_gets_a_new_version_in_place_once() {
    let mut file = facts("usfile title", Labels::default());
    file.blob = "v2.pdf".into();
    file.size = 2048;
    let replaced = ItemEvent::FileReplaced {
        by: user("publisher"),
        file,
        version: 2,
        note: Some("Corrected dosage table".into()),
    };
    let given = vec![uploaded("usfile", None, Some("usf"), Labels::default())];
    expect_events(
        given.clone(),
        World::demo(),
        replace(2, "v2.pdf"),
        vec![replaced.clone()],
    )
    .await;
    // The same version again (a re-run release) and an older one record nothing.
    let mut after = given.clone();
    after.push(replaced);
    expect_events(after.clone(), World::demo(), replace(2, "v2.pdf"), vec![]).await;
    expect_events(after, World::demo(), replace(1, "v1.pdf"), vec![]).await;
}

#[tokio::test]
async fn only_the_company_s_files_get_new_versions() {
    expect_error(
        vec![uploaded("af", Some(ANNA), Some("a1"), Labels::default())],
        World::demo(),
        replace(2, "v2.pdf"),
        DocumentError::NotACompanyFile,
    )
    .await;
    expect_error(
        vec![copied_by_anna()],
        World::demo(),
        replace(2, "v2.pdf"),
        DocumentError::NotACompanyFile,
    )
    .await;
}

#[tokio::test]
async fn a_withdrawal_is_recorded_once() {
    let facts = withdrawal();
    let given = vec![uploaded("usfile", None, Some("usf"), Labels::default())];
    expect_events(
        given.clone(),
        World::demo(),
        withdraw(&facts),
        vec![withdrawn_event(&facts)],
    )
    .await;
    let mut after = given;
    after.push(withdrawn_event(&facts));
    expect_events(after, World::demo(), withdraw(&facts), vec![]).await;
}

#[tokio::test]
async fn a_withdrawn_item_refuses_every_command_with_why() {
    let facts = withdrawal();
    let mut expired = withdrawal();
    expired.state = WithdrawnState::Expired;
    expired.reason = String::new();
    expired.replacement = None;
    let gone = |f: &WithdrawalFacts| DocumentError::Withdrawn(Box::new(f.clone()));
    let us = vec![
        uploaded("usfile", None, Some("usf"), Labels::default()),
        withdrawn_event(&facts),
    ];
    let commands = vec![
        ItemCommand::Open {
            by: JOHN.into(),
            download: false,
        },
        ItemCommand::Open {
            by: JOHN.into(),
            download: true,
        },
        ItemCommand::Share {
            by: user(JOHN),
            with: Some(user(ANNA)),
            via: ShareVia::Storage,
        },
        ItemCommand::ShareExternally {
            by: JOHN.into(),
            email: "guest@clinic.example".into(),
            token_hash: "hash".into(),
            expires_at: 4_102_444_800_000,
            share: "share".into(),
            allow_download: true,
            max_opens: None,
        },
        ItemCommand::RecordCopy {
            by: JOHN.into(),
            copy: "copy".into(),
            reason: CopyReason::Save,
        },
        replace(3, "v3.pdf"),
    ];
    for command in commands {
        expect_error(us.clone(), World::demo(), command, gone(&facts)).await;
    }
    // A copy in Anna's My Docs: she can neither rename, move nor share it, but may delete it.
    let mut copy = vec![copied_by_anna()];
    copy.push(withdrawn_event(&expired));
    for command in [
        ItemCommand::Rename {
            by: ANNA.into(),
            name: "Mine".into(),
        },
        ItemCommand::Move {
            by: ANNA.into(),
            destination: Some("a1".into()),
        },
        ItemCommand::Share {
            by: user(ANNA),
            with: Some(user(JOHN)),
            via: ShareVia::Internal,
        },
    ] {
        expect_error(copy.clone(), World::demo(), command, gone(&expired)).await;
    }
    expect_events(
        copy.clone(),
        World::demo(),
        ItemCommand::Delete { by: ANNA.into() },
        vec![ItemEvent::FileRemoved { by: ANNA.into() }],
    )
    .await;
    // Someone else still cannot delete it (the usual rules).
    expect_error(
        copy,
        World::demo(),
        ItemCommand::Delete { by: JOHN.into() },
        DocumentError::NotFound,
    )
    .await;
    // The US item itself is never deleted by anyone.
    expect_error(
        us,
        World::demo(),
        ItemCommand::Delete { by: JOHN.into() },
        gone(&facts),
    )
    .await;
}

#[tokio::test]
async fn no_copy_is_made_of_a_withdrawn_file() {
    let mut world = World::demo();
    world.withdrawn.insert("usfile".into(), withdrawal());
    expect_error(
        vec![],
        world,
        ItemCommand::Copy {
            id: "copy".into(),
            by: user(JOHN),
            source: "usfile".into(),
            parent: None,
            reason: CopyReason::Save,
            part_of: None,
        },
        DocumentError::Withdrawn(Box::new(withdrawal())),
    )
    .await;
}

#[test]
fn the_refusal_says_withdrawn_or_expired() {
    let mut facts = withdrawal();
    assert_eq!(
        DocumentError::Withdrawn(Box::new(facts.clone())).to_string(),
        "This document was withdrawn."
    );
    facts.state = WithdrawnState::Expired;
    assert_eq!(
        DocumentError::Withdrawn(Box::new(facts)).to_string(),
        "This document has expired."
    );
}
