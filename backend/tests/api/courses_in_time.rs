//! Courses in time: a registration to a day that has taken place, or to a course whose days have
//! all taken place, is refused with a clear message (400); a day still to come is accepted; the
//! list and the detail say which courses and days have ended. The calendar is read at a fixed
//! instant (`CALENDAR_NOW`), so these tests hold whatever day they run; one test reads the
//! server's own clock against a course of 2025.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::*;

/// Runs each body on SQLite and PostgreSQL with the course calendar read at `$at`
/// (`None`: the server's clock).
macro_rules! both_dbs_at {
    ($(async fn $name:ident($app:ident) at $at:expr; $body:block)*) => {
        $(
            mod $name {
                #[allow(unused_imports)]
                use super::*;

                async fn app(engine: Engine) -> Option<TestApp> {
                    let at: Option<&str> = $at;
                    spawn_app_with(engine, |config| {
                        config.calendar_now = at.map(|t| t.parse().expect("instant"));
                    })
                    .await
                }

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn sqlite() {
                    let $app = app(Engine::Sqlite).await.expect("sqlite app");
                    $body
                }

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn postgres() {
                    let Some($app) = app(Engine::Postgres).await else { return };
                    $body
                }
            }
        )*
    };
}

/// Course 1 (Milan, Europe/Rome, UTC+1 in March) runs on 19 and 20 March 2026; course 2
/// (online, Europe/Rome) on 25 February 2026.
const DURING_COURSE_1: &str = "2026-03-20T10:00:00Z";

fn form(course: i64, days: &[&str]) -> Value {
    json!({
        "id": course,
        "days": days,
        "name": "Anna Rossi",
        "email": "anna.rossi@example.com",
        "hospital": "Ospedale Nord",
        "category": "surgeon",
        "newsletter": false,
        "privacy_consent": true,
        "data_consent": true,
    })
}

async fn register(app: &TestApp, token: &str, course: i64, days: &[&str]) -> (StatusCode, Value) {
    json_of(
        app.post_json(
            &format!("/courses/{course}/register"),
            Some(token),
            &form(course, days),
        )
        .await,
    )
    .await
}

async fn registered_days(app: &TestApp, course: i64) -> Vec<String> {
    let admin = app.token(ADMIN).await;
    let (status, body) = json_of(
        app.get(&format!("/courses/{course}/registrations"), Some(&admin))
            .await,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["registrations"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| r["day"].as_str().expect("day").to_string())
        .collect()
}

both_dbs_at! {
    async fn a_day_that_has_taken_place_is_refused_and_one_to_come_accepted(app) at Some(DURING_COURSE_1); {
        let token = app.token(ANNA).await;
        let (status, body) = register(&app, &token, 1, &["2026-03-19"]).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(body["message"], "The day 2026-03-19 has already taken place: choose a day still to come");
        // Together with a day to come, the past one still refuses the whole form.
        let (status, body) = register(&app, &token, 1, &["2026-03-19", "2026-03-20"]).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert!(registered_days(&app, 1).await.is_empty());

        // 20 March is under way in Milan: it can still be chosen.
        let (status, body) = register(&app, &token, 1, &["2026-03-20"]).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body["message"], "You have been registered to the course");
        assert_eq!(registered_days(&app, 1).await, vec!["2026-03-20".to_string()]);

        // A course still to come as a whole.
        let (status, body) = register(&app, &token, 3, &["2026-04-23"]).await;
        assert_eq!(status, StatusCode::OK, "{body}");
    }

    async fn a_course_whose_days_have_all_taken_place_is_refused(app) at Some(DURING_COURSE_1); {
        let token = app.token(ANNA).await;
        for days in [vec!["2026-02-25"], vec![]] {
            let (status, body) = register(&app, &token, 2, &days).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
            assert_eq!(body["message"], "This course has already taken place: registration is closed");
        }
        assert!(registered_days(&app, 2).await.is_empty());
    }

    async fn a_day_is_over_at_midnight_where_the_course_takes_place(app) at Some("2026-03-20T23:00:00Z"); {
        // Midnight in Milan: 20 March is over there, although it is still 20 March in London.
        let token = app.token(ANNA).await;
        let (status, body) = register(&app, &token, 1, &["2026-03-20"]).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(body["message"], "This course has already taken place: registration is closed");
    }

    async fn the_list_and_the_detail_say_what_has_ended(app) at Some(DURING_COURSE_1); {
        let token = app.token(ANNA).await;
        let (status, list) = json_of(app.get("/courses", Some(&token)).await).await;
        assert_eq!(status, StatusCode::OK);
        // The default year is the calendar's.
        assert_eq!(list["selected"]["year"], "2026");
        let ended = |id: i64| {
            list["list"].as_array().unwrap().iter().find(|c| c["id"] == id).expect("course")["ended"].clone()
        };
        assert_eq!(ended(2), json!(true));
        assert_eq!(ended(1), json!(false));
        assert_eq!(ended(3), json!(false));

        let (status, detail) = json_of(app.get("/courses/1", Some(&token)).await).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(detail["ended"], false);
        assert_eq!(detail["days"][0]["ended"], true);
        assert_eq!(detail["days"][1]["ended"], false);
        let (_, detail) = json_of(app.get("/courses/2", Some(&token)).await).await;
        assert_eq!(detail["ended"], true);
        assert_eq!(detail["days"][0]["ended"], true);
    }

    async fn the_server_clock_judges_a_course_of_2025_ended(app) at None; {
        let token = app.token(ANNA).await;
        let (status, body) = register(&app, &token, 15, &["2025-03-13"]).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(body["message"], "This course has already taken place: registration is closed");
        let (_, detail) = json_of(app.get("/courses/15", Some(&token)).await).await;
        assert_eq!(detail["ended"], true);
    }
}
