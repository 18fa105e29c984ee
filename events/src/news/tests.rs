use cqrs_es::test::TestFramework;
use cqrs_es::Aggregate;

use super::*;

fn content(title: &str) -> NewsContent {
    NewsContent {
        title: title.into(),
        category: "Company".into(),
        date: "2026-03-01".into(),
        preview: "/media/news/a.svg".into(),
        body_html: "<p>Body</p>".into(),
        image: None,
    }
}

fn created(window: Window) -> NewsEvent {
    NewsEvent::Created {
        id: 100_000,
        content: content("Launch"),
        window,
        by: "pub".into(),
        at: 10,
    }
}

fn submitted() -> NewsEvent {
    NewsEvent::Submitted {
        version: 1,
        by: "pub".into(),
        at: 20,
    }
}

fn approved(by: &str, at: i64) -> NewsEvent {
    NewsEvent::Approved {
        version: 1,
        by: by.into(),
        at,
        comment: None,
    }
}

fn approve(by: &str, at: i64) -> NewsCommand {
    NewsCommand::Approve {
        by: by.into(),
        at,
        comment: None,
    }
}

fn news() -> TestFramework<NewsItem> {
    TestFramework::<NewsItem>::with(())
}

#[test]
fn approval_without_a_release_time_releases_at_once() {
    news()
        .given(vec![created(Window::default()), submitted()])
        .when(approve("appr", 30))
        .then_expect_events(vec![
            approved("appr", 30),
            NewsEvent::Released { version: 1, at: 30 },
        ]);
}

#[test]
fn the_author_cannot_approve_their_own_version() {
    news()
        .given(vec![created(Window::default()), submitted()])
        .when(approve("pub", 30))
        .then_expect_error(NewsError::OwnVersion);
}

#[test]
fn only_a_draft_is_submitted_and_only_a_version_in_review_is_approved() {
    news()
        .given(vec![created(Window::default()), submitted()])
        .when(NewsCommand::Submit {
            by: "pub".into(),
            at: 25,
        })
        .then_expect_error_message(
            "Only a draft version can be submitted; the latest version is in review.",
        );
    news()
        .given(vec![created(Window::default())])
        .when(approve("appr", 30))
        .then_expect_error_message(
            "Only a in review version can be approved; the latest version is draft.",
        );
}

#[test]
fn a_scheduled_release_happens_once_at_its_time() {
    let window = Window {
        release_at: Some(100),
        expires_at: None,
    };
    news()
        .given(vec![created(window), submitted()])
        .when(approve("appr", 30))
        .then_expect_events(vec![approved("appr", 30)]);
    news()
        .given(vec![created(window), submitted(), approved("appr", 30)])
        .when(NewsCommand::ReleaseDue { at: 99 })
        .then_expect_events(vec![]);
    news()
        .given(vec![created(window), submitted(), approved("appr", 30)])
        .when(NewsCommand::ReleaseDue { at: 100 })
        .then_expect_events(vec![NewsEvent::Released {
            version: 1,
            at: 100,
        }]);
    news()
        .given(vec![
            created(window),
            submitted(),
            approved("appr", 30),
            NewsEvent::Released {
                version: 1,
                at: 100,
            },
        ])
        .when(NewsCommand::ReleaseDue { at: 101 })
        .then_expect_events(vec![]);
}

#[test]
fn a_released_item_expires_once_at_its_time() {
    let window = Window {
        release_at: None,
        expires_at: Some(500),
    };
    let released = vec![
        created(window),
        submitted(),
        approved("appr", 30),
        NewsEvent::Released { version: 1, at: 30 },
    ];
    news()
        .given(released.clone())
        .when(NewsCommand::ExpireDue { at: 499 })
        .then_expect_events(vec![]);
    news()
        .given(released.clone())
        .when(NewsCommand::ExpireDue { at: 600 })
        .then_expect_events(vec![NewsEvent::Expired { at: 500 }]);
    let mut expired = released;
    expired.push(NewsEvent::Expired { at: 500 });
    news()
        .given(expired)
        .when(NewsCommand::ExpireDue { at: 700 })
        .then_expect_events(vec![]);
}

#[test]
fn expiry_must_come_after_release_and_now() {
    news()
        .given_no_previous_events()
        .when(NewsCommand::Create {
            id: 100_000,
            content: content("Launch"),
            window: Window {
                release_at: Some(100),
                expires_at: Some(50),
            },
            by: "pub".into(),
            at: 10,
        })
        .then_expect_error_message("expires_at must be after release_at and after now.");
}

#[test]
fn withdrawal_needs_a_reason_and_happens_once() {
    news()
        .given(vec![created(Window::default())])
        .when(NewsCommand::Withdraw {
            by: "appr".into(),
            at: 40,
            reason: "  ".into(),
        })
        .then_expect_error_message("Say why the news item is withdrawn (reason).");
    let withdrawn = NewsEvent::Withdrawn {
        by: "appr".into(),
        at: 40,
        reason: "Wrong figures".into(),
    };
    news()
        .given(vec![created(Window::default())])
        .when(NewsCommand::Withdraw {
            by: "appr".into(),
            at: 40,
            reason: "Wrong figures".into(),
        })
        .then_expect_events(vec![withdrawn.clone()]);
    news()
        .given(vec![created(Window::default()), withdrawn])
        .when(NewsCommand::Withdraw {
            by: "appr".into(),
            at: 41,
            reason: "Again".into(),
        })
        .then_expect_error_message("This news item was already withdrawn.");
}

#[test]
fn a_new_version_keeps_the_released_one_live_until_it_is_released() {
    let mut item = NewsItem::default();
    for e in [
        created(Window::default()),
        submitted(),
        approved("appr", 30),
        NewsEvent::Released { version: 1, at: 30 },
        NewsEvent::VersionDrafted {
            version: 2,
            content: content("Launch, corrected"),
            window: Window::default(),
            by: "pub".into(),
            at: 50,
        },
    ] {
        item.apply(e);
    }
    assert_eq!(item.status(), "draft");
    assert_eq!(
        item.live().map(|v| v.content.title.as_str()),
        Some("Launch")
    );
    item.apply(NewsEvent::Released { version: 2, at: 60 });
    assert_eq!(item.status(), "released");
    assert_eq!(
        item.live().map(|v| v.content.title.as_str()),
        Some("Launch, corrected")
    );
}

#[test]
fn commands_on_a_missing_item_are_refused() {
    news()
        .given_no_previous_events()
        .when(NewsCommand::Submit {
            by: "pub".into(),
            at: 1,
        })
        .then_expect_error(NewsError::NotFound);
}
