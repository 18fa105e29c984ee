//! Every transition and refusal of [`LibraryDocument`].

use cqrs_es::test::TestFramework;

use super::*;
use crate::documents::{FileFormat, UserRef};

type Test = TestFramework<LibraryDocument>;

const NOW: i64 = 1_000_000;

fn publisher() -> UserRef {
    UserRef {
        id: "p".into(),
        name: "Pat Publisher".into(),
    }
}

fn approver() -> UserRef {
    UserRef {
        id: "a".into(),
        name: "Ann Approver".into(),
    }
}

fn metadata() -> DocMetadata {
    DocMetadata {
        title: "Knee IFU".into(),
        ..DocMetadata::default()
    }
}

fn file(name: &str) -> VersionFile {
    VersionFile {
        file_name: name.into(),
        blob: format!("blob-{name}"),
        size: 10,
        sha256: None,
        format: FileFormat::Pdf,
    }
}

fn created_with(metadata: DocMetadata) -> Vec<LibraryEvent> {
    vec![
        LibraryEvent::Created {
            id: 100_000,
            by: publisher(),
            metadata,
            at: NOW,
        },
        LibraryEvent::VersionUploaded {
            version: 1,
            file: file("v1.pdf"),
            note: None,
            by: publisher(),
            at: NOW,
        },
    ]
}

fn created() -> Vec<LibraryEvent> {
    created_with(metadata())
}

fn submitted() -> Vec<LibraryEvent> {
    let mut events = created();
    events.push(LibraryEvent::Submitted {
        version: 1,
        by: publisher(),
        at: NOW,
    });
    events
}

fn released() -> Vec<LibraryEvent> {
    let mut events = submitted();
    events.push(LibraryEvent::Approved {
        version: 1,
        by: approver(),
        comment: None,
        at: NOW,
    });
    events.push(LibraryEvent::Released {
        version: 1,
        by: Some(approver()),
        at: NOW,
    });
    events
}

fn state(events: Vec<LibraryEvent>) -> LibraryDocument {
    let mut doc = LibraryDocument::default();
    for e in events {
        cqrs_es::Aggregate::apply(&mut doc, e);
    }
    doc
}

#[test]
fn create_records_the_document_and_its_first_version_as_a_draft() {
    Test::with(())
        .given_no_previous_events()
        .when(LibraryCommand::Create {
            id: 100_000,
            by: publisher(),
            metadata: metadata(),
            file: file("v1.pdf"),
            note: None,
            at: NOW,
        })
        .then_expect_events(created());
    assert_eq!(state(created()).status(), Status::Draft);
}

#[test]
fn create_refuses_a_taken_id_a_missing_title_a_wrong_type_and_an_early_expiry() {
    let create = |metadata: DocMetadata, file: VersionFile| LibraryCommand::Create {
        id: 100_000,
        by: publisher(),
        metadata,
        file,
        note: None,
        at: NOW,
    };
    Test::with(())
        .given(created())
        .when(create(metadata(), file("v.pdf")))
        .then_expect_error(LibraryError::AlreadyExists);
    let untitled = DocMetadata {
        title: "  ".into(),
        ..metadata()
    };
    Test::with(())
        .given_no_previous_events()
        .when(create(untitled, file("v.pdf")))
        .then_expect_error(LibraryError::TitleRequired);
    Test::with(())
        .given_no_previous_events()
        .when(create(metadata(), file("v.docx")))
        .then_expect_error(LibraryError::UnsupportedType);
    let early = DocMetadata {
        release_at: Some(NOW + 100),
        expires_at: Some(NOW + 50),
        ..metadata()
    };
    Test::with(())
        .given_no_previous_events()
        .when(create(early, file("v.pdf")))
        .then_expect_error(LibraryError::ExpiryBeforeRelease);
    let past = DocMetadata {
        expires_at: Some(NOW - 1),
        ..metadata()
    };
    Test::with(())
        .given_no_previous_events()
        .when(create(past, file("v.pdf")))
        .then_expect_error(LibraryError::ExpiryBeforeRelease);
}

#[test]
fn only_a_draft_is_submitted() {
    Test::with(())
        .given(created())
        .when(LibraryCommand::Submit {
            by: publisher(),
            at: NOW,
        })
        .then_expect_events(vec![LibraryEvent::Submitted {
            version: 1,
            by: publisher(),
            at: NOW,
        }]);
    Test::with(())
        .given(submitted())
        .when(LibraryCommand::Submit {
            by: publisher(),
            at: NOW,
        })
        .then_expect_error(LibraryError::NotDraft);
}

#[test]
fn approval_releases_at_once_without_a_release_time() {
    Test::with(())
        .given(submitted())
        .when(LibraryCommand::Approve {
            by: approver(),
            comment: Some("ok".into()),
            at: NOW,
        })
        .then_expect_events(vec![
            LibraryEvent::Approved {
                version: 1,
                by: approver(),
                comment: Some("ok".into()),
                at: NOW,
            },
            LibraryEvent::Released {
                version: 1,
                by: Some(approver()),
                at: NOW,
            },
        ]);
    let doc = state(released());
    assert_eq!(doc.status(), Status::Released);
    assert_eq!(doc.cascade_due, Some(CascadeStep::Release { version: 1 }));
}

#[test]
fn four_eyes_the_author_never_approves_or_rejects_their_version() {
    for command in [
        LibraryCommand::Approve {
            by: publisher(),
            comment: None,
            at: NOW,
        },
        LibraryCommand::Reject {
            by: publisher(),
            comment: None,
            at: NOW,
        },
    ] {
        Test::with(())
            .given(submitted())
            .when(command)
            .then_expect_error(LibraryError::OwnVersion);
    }
}

#[test]
fn approve_and_reject_only_in_review() {
    Test::with(())
        .given(created())
        .when(LibraryCommand::Approve {
            by: approver(),
            comment: None,
            at: NOW,
        })
        .then_expect_error(LibraryError::NotInReview);
    Test::with(())
        .given(released())
        .when(LibraryCommand::Reject {
            by: approver(),
            comment: None,
            at: NOW,
        })
        .then_expect_error(LibraryError::NotInReview);
}

#[test]
fn a_rejection_sends_the_version_back_to_draft() {
    let mut events = submitted();
    events.push(LibraryEvent::Rejected {
        version: 1,
        by: approver(),
        comment: Some("typo".into()),
        at: NOW,
    });
    let doc = state(events.clone());
    assert_eq!(doc.status(), Status::Draft);
    Test::with(())
        .given(events)
        .when(LibraryCommand::Submit {
            by: publisher(),
            at: NOW,
        })
        .then_expect_events(vec![LibraryEvent::Submitted {
            version: 1,
            by: publisher(),
            at: NOW,
        }]);
}

#[test]
fn a_later_release_time_waits_for_the_scheduler_which_releases_once() {
    let timed = DocMetadata {
        release_at: Some(NOW + 1_000),
        ..metadata()
    };
    let mut events = created_with(timed);
    events.push(LibraryEvent::Submitted {
        version: 1,
        by: publisher(),
        at: NOW,
    });
    let approved = LibraryEvent::Approved {
        version: 1,
        by: approver(),
        comment: None,
        at: NOW,
    };
    Test::with(())
        .given(events.clone())
        .when(LibraryCommand::Approve {
            by: approver(),
            comment: None,
            at: NOW,
        })
        .then_expect_events(vec![approved.clone()]);
    events.push(approved);
    assert_eq!(state(events.clone()).status(), Status::Approved);
    Test::with(())
        .given(events.clone())
        .when(LibraryCommand::Release { at: NOW + 999 })
        .then_expect_error(LibraryError::TooEarly);
    let release = LibraryEvent::Released {
        version: 1,
        by: None,
        at: NOW + 1_000,
    };
    Test::with(())
        .given(events.clone())
        .when(LibraryCommand::Release { at: NOW + 1_000 })
        .then_expect_events(vec![release.clone()]);
    events.push(release);
    Test::with(())
        .given(events)
        .when(LibraryCommand::Release { at: NOW + 2_000 })
        .then_expect_events(vec![]);
}

#[test]
fn release_refuses_what_is_not_approved() {
    Test::with(())
        .given(submitted())
        .when(LibraryCommand::Release { at: NOW })
        .then_expect_error(LibraryError::NotApproved);
    Test::with(())
        .given_no_previous_events()
        .when(LibraryCommand::Release { at: NOW })
        .then_expect_error(LibraryError::NotFound);
}

#[test]
fn a_new_version_is_numbered_next_and_leaves_the_released_one_released() {
    let add = LibraryCommand::AddVersion {
        by: publisher(),
        file: file("v2.pdf"),
        note: Some("new data".into()),
        at: NOW,
    };
    let v2 = LibraryEvent::VersionUploaded {
        version: 2,
        file: file("v2.pdf"),
        note: Some("new data".into()),
        by: publisher(),
        at: NOW,
    };
    Test::with(())
        .given(released())
        .when(add.clone())
        .then_expect_events(vec![v2.clone()]);
    let mut events = released();
    events.push(v2);
    let doc = state(events);
    assert_eq!(doc.status(), Status::Draft);
    assert_eq!(doc.released_version, Some(1));
    Test::with(())
        .given(submitted())
        .when(add)
        .then_expect_error(LibraryError::VersionPending);
}

#[test]
fn expiry_happens_once_after_release_at_its_time() {
    let expiring = DocMetadata {
        expires_at: Some(NOW + 500),
        ..metadata()
    };
    let mut events = created_with(expiring);
    events.extend(released().into_iter().skip(2));
    Test::with(())
        .given(events.clone())
        .when(LibraryCommand::Expire { at: NOW + 499 })
        .then_expect_events(vec![]);
    Test::with(())
        .given(events.clone())
        .when(LibraryCommand::Expire { at: NOW + 500 })
        .then_expect_events(vec![LibraryEvent::Expired { at: NOW + 500 }]);
    events.push(LibraryEvent::Expired { at: NOW + 500 });
    assert_eq!(state(events.clone()).status(), Status::Expired);
    Test::with(())
        .given(events)
        .when(LibraryCommand::Expire { at: NOW + 900 })
        .then_expect_events(vec![]);
    Test::with(())
        .given(created())
        .when(LibraryCommand::Expire { at: NOW })
        .then_expect_error(LibraryError::NotReleased);
}

#[test]
fn withdrawal_needs_a_reason_and_another_released_replacement() {
    let withdraw = |reason: &str, replacement| LibraryCommand::Withdraw {
        by: approver(),
        reason: reason.into(),
        replacement,
        at: NOW,
    };
    Test::with(())
        .given(released())
        .when(withdraw(" ", None))
        .then_expect_error(LibraryError::ReasonRequired);
    Test::with(())
        .given(released())
        .when(withdraw("recall", Some((100_000, true))))
        .then_expect_error(LibraryError::ReplacementIsSelf);
    Test::with(())
        .given(released())
        .when(withdraw("recall", Some((7, false))))
        .then_expect_error(LibraryError::ReplacementNotReleased);
    let withdrawn = LibraryEvent::Withdrawn {
        by: approver(),
        reason: "recall".into(),
        replacement: Some(7),
        at: NOW,
    };
    Test::with(())
        .given(released())
        .when(withdraw("recall", Some((7, true))))
        .then_expect_events(vec![withdrawn.clone()]);
    // From a draft too.
    Test::with(())
        .given(created())
        .when(withdraw("never mind", None))
        .then_expect_events(vec![LibraryEvent::Withdrawn {
            by: approver(),
            reason: "never mind".into(),
            replacement: None,
            at: NOW,
        }]);
    let mut events = released();
    events.push(withdrawn);
    let doc = state(events.clone());
    assert_eq!(doc.status(), Status::Withdrawn);
    assert_eq!(doc.cascade_due, Some(CascadeStep::End));
    Test::with(())
        .given(events.clone())
        .when(withdraw("again", None))
        .then_expect_error(LibraryError::Withdrawn);
    Test::with(())
        .given(events)
        .when(LibraryCommand::Submit {
            by: publisher(),
            at: NOW,
        })
        .then_expect_error(LibraryError::Withdrawn);
}

/// The operator a content import acts as.
fn operator() -> UserRef {
    UserRef {
        id: "operator:ops".into(),
        name: "ops".into(),
    }
}

/// The import of document 5 with `metadata` and `file`.
fn import(metadata: DocMetadata, file: VersionFile) -> LibraryCommand {
    LibraryCommand::Import {
        id: 5,
        by: operator(),
        metadata,
        file,
        at: NOW,
    }
}

/// What the first import of document 5 with `file` records: created, uploaded, released.
fn imported(file: VersionFile) -> Vec<LibraryEvent> {
    vec![
        LibraryEvent::Created {
            id: 5,
            by: operator(),
            metadata: metadata(),
            at: NOW,
        },
        LibraryEvent::VersionUploaded {
            version: 1,
            file,
            note: None,
            by: operator(),
            at: NOW,
        },
        LibraryEvent::Released {
            version: 1,
            by: Some(operator()),
            at: NOW,
        },
    ]
}

#[test]
fn import_releases_directly_records_changes_and_nothing_when_unchanged() {
    let operator = operator();
    let first = imported(file("a.pdf"));
    Test::with(())
        .given_no_previous_events()
        .when(import(metadata(), file("a.pdf")))
        .then_expect_events(first.clone());
    Test::with(())
        .given(first.clone())
        .when(import(metadata(), file("a.pdf")))
        .then_expect_events(vec![]);
    let renamed = DocMetadata {
        title: "Knee IFU 2".into(),
        ..metadata()
    };
    Test::with(())
        .given(first.clone())
        .when(import(renamed.clone(), file("a.pdf")))
        .then_expect_events(vec![LibraryEvent::MetadataChanged {
            by: operator.clone(),
            metadata: renamed,
            changed: vec!["title".into()],
            at: NOW,
        }]);
    Test::with(())
        .given(first)
        .when(import(metadata(), file("b.pdf")))
        .then_expect_events(vec![
            LibraryEvent::VersionUploaded {
                version: 2,
                file: file("b.pdf"),
                note: None,
                by: operator.clone(),
                at: NOW,
            },
            LibraryEvent::Released {
                version: 2,
                by: Some(operator),
                at: NOW,
            },
        ]);
}

#[test]
fn a_folder_files_import_is_released_with_nothing_left_to_cascade() {
    let folder_file = VersionFile {
        blob: String::new(),
        ..file("a.pdf")
    };
    let mut expected = imported(folder_file.clone());
    expected.push(LibraryEvent::CascadeCompleted {
        step: CascadeStep::Release { version: 1 },
        items: vec![],
        holders: vec![],
        at: NOW,
    });
    Test::with(())
        .given_no_previous_events()
        .when(import(metadata(), folder_file))
        .then_expect_events(expected.clone());
    assert_eq!(state(expected).cascade_due, None);
}

#[test]
fn reads_pins_and_purges_are_recorded_once_each() {
    let mut events = released();
    events.push(LibraryEvent::Read {
        by: "u".into(),
        version: 1,
        download: false,
        at: NOW,
    });
    events.push(LibraryEvent::PinnedOffline {
        by: "u".into(),
        device: "d1".into(),
        at: NOW,
    });
    events.push(LibraryEvent::PurgeConfirmed {
        by: "u".into(),
        device: "d1".into(),
        at: NOW,
    });
    let read = |download| LibraryCommand::RecordRead {
        by: "u".into(),
        download,
        at: NOW,
    };
    Test::with(())
        .given(events.clone())
        .when(read(false))
        .then_expect_events(vec![]);
    Test::with(())
        .given(events.clone())
        .when(read(true))
        .then_expect_events(vec![LibraryEvent::Read {
            by: "u".into(),
            version: 1,
            download: true,
            at: NOW,
        }]);
    Test::with(())
        .given(events.clone())
        .when(LibraryCommand::RecordPin {
            by: "u".into(),
            device: "d1".into(),
            at: NOW,
        })
        .then_expect_events(vec![]);
    Test::with(())
        .given(events.clone())
        .when(LibraryCommand::ConfirmPurge {
            by: "u".into(),
            device: "d1".into(),
            at: NOW,
        })
        .then_expect_events(vec![]);
    Test::with(())
        .given(events)
        .when(LibraryCommand::ConfirmPurge {
            by: "u".into(),
            device: "d2".into(),
            at: NOW,
        })
        .then_expect_events(vec![LibraryEvent::PurgeConfirmed {
            by: "u".into(),
            device: "d2".into(),
            at: NOW,
        }]);
    Test::with(())
        .given(created())
        .when(read(false))
        .then_expect_error(LibraryError::NotFound);
}

#[test]
fn a_cascade_is_due_until_its_completion_is_recorded_once() {
    let mut events = released();
    let done = LibraryEvent::CascadeCompleted {
        step: CascadeStep::Release { version: 1 },
        items: vec!["item".into()],
        holders: vec![],
        at: NOW,
    };
    Test::with(())
        .given(events.clone())
        .when(LibraryCommand::CompleteCascade {
            items: vec!["item".into()],
            holders: vec![],
            at: NOW,
        })
        .then_expect_events(vec![done.clone()]);
    events.push(done);
    assert_eq!(state(events.clone()).cascade_due, None);
    Test::with(())
        .given(events)
        .when(LibraryCommand::CompleteCascade {
            items: vec!["item".into()],
            holders: vec![],
            at: NOW,
        })
        .then_expect_events(vec![]);
}

#[test]
fn metadata_changes_record_the_changed_fields_only() {
    let new = DocMetadata {
        products: vec![3],
        ..metadata()
    };
    Test::with(())
        .given(created())
        .when(LibraryCommand::ChangeMetadata {
            by: publisher(),
            metadata: new.clone(),
            at: NOW,
        })
        .then_expect_events(vec![LibraryEvent::MetadataChanged {
            by: publisher(),
            metadata: new,
            changed: vec!["products".into()],
            at: NOW,
        }]);
    Test::with(())
        .given(created())
        .when(LibraryCommand::ChangeMetadata {
            by: publisher(),
            metadata: metadata(),
            at: NOW,
        })
        .then_expect_events(vec![]);
}
