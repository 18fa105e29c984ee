// Over 600 lines: one test per programme rule and refusal, over one shared content fixture.
//! Congresses, training, courses, calendar files and course registration.

use chrono::{DateTime, Datelike, NaiveDate, Utc};
use icalendar::{Calendar, CalendarDateTime, Component, DatePerhapsTime, EventLike};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::both_dbs;
use crate::helpers::TestApp;

const ALREADY: &str = "You are already registered to this course day";

fn current_year() -> String {
    Utc::now().year().to_string()
}

/// Removes the `ended` flag a served course (or day) carries, checking it is a boolean.
fn take_ended(item: &mut Value) {
    let ended = item.as_object_mut().expect("an object").remove("ended");
    assert!(
        ended.as_ref().is_some_and(Value::is_boolean),
        "ended: {ended:?}"
    );
}

fn ids(list: &Value) -> Vec<i64> {
    list.as_array()
        .expect("a list")
        .iter()
        .map(|i| i["id"].as_i64().expect("id"))
        .collect()
}

fn option_values(options: &Value) -> Vec<String> {
    options
        .as_array()
        .expect("options")
        .iter()
        .map(|o| o["value"].as_str().expect("text value").to_string())
        .collect()
}

/// `(id, json)` rows read straight from the database.
async fn stored(app: &TestApp, sql: &str) -> Vec<(i64, Value)> {
    let rows: Vec<(i64, String)> = projections::on_db!(&app.state.db, pool =>
        sqlx::query_as(sql).fetch_all(pool).await)
    .expect("stored rows");
    rows.into_iter()
        .map(|(id, json)| (id, serde_json::from_str(&json).expect("stored JSON")))
        .collect()
}

async fn items_years(app: &TestApp, table: &str) -> Vec<i64> {
    projections::on_db!(&app.state.db, pool =>
        sqlx::query_scalar(&format!("select distinct year from {table}")).fetch_all(pool).await)
    .expect("years")
}

async fn get_ok(app: &TestApp, path: &str, token: &str) -> Value {
    let (status, body) = crate::helpers::json_of(app.get(path, Some(token)).await).await;
    assert_eq!(status, StatusCode::OK, "{path}: {body}");
    body
}

/// Downloads a calendar file and parses it back.
async fn calendar(app: &TestApp, path: &str, token: &str) -> Calendar {
    let res = app.get(path, Some(token)).await;
    assert_eq!(res.status(), StatusCode::OK, "{path}");
    let content_type = res.headers()[reqwest::header::CONTENT_TYPE]
        .to_str()
        .unwrap()
        .to_string();
    assert!(content_type.starts_with("text/calendar"), "{content_type}");
    assert!(res.headers()[reqwest::header::CONTENT_DISPOSITION]
        .to_str()
        .unwrap()
        .contains(".ics"));
    let text = res.text().await.expect("text");
    assert!(text.starts_with("BEGIN:VCALENDAR\r\n"), "{text}");
    assert!(text.contains("VERSION:2.0"), "{text}");
    text.parse::<Calendar>().expect("a valid iCalendar file")
}

fn utc(dt: Option<DatePerhapsTime>) -> DateTime<Utc> {
    match dt {
        Some(DatePerhapsTime::DateTime(CalendarDateTime::Utc(t))) => t,
        other => panic!("expected a UTC date-time, got {other:?}"),
    }
}

fn day(dt: Option<DatePerhapsTime>) -> NaiveDate {
    match dt {
        Some(DatePerhapsTime::Date(d)) => d,
        other => panic!("expected a date, got {other:?}"),
    }
}

fn at(text: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(text)
        .unwrap()
        .with_timezone(&Utc)
}

fn form(days: &[&str]) -> Value {
    json!({
        "id": 1,
        "days": days,
        "name": "Anna Rossi",
        "email": "anna.rossi@example.com",
        "hospital": "Ospedale Nord",
        "category": "surgeon",
        "newsletter": true,
        "privacy_consent": true,
        "data_consent": true,
    })
}

fn with(mut body: Value, key: &str, value: Value) -> Value {
    body[key] = value;
    body
}

async fn register(app: &TestApp, token: &str, course: i64, body: &Value) -> (StatusCode, Value) {
    crate::helpers::json_of(
        app.post_json(&format!("/courses/{course}/register"), Some(token), body)
            .await,
    )
    .await
}

async fn registration_rows(app: &TestApp, course: i64) -> Vec<Value> {
    let admin = app.token(crate::helpers::ADMIN).await;
    let body = get_ok(app, &format!("/courses/{course}/registrations"), &admin).await;
    body["registrations"].as_array().expect("rows").clone()
}

async fn stored_events(app: &TestApp, aggregate_id: &str) -> i64 {
    projections::on_db!(&app.state.db, pool => sqlx::query_scalar::<_, i64>(
        "select count(*) from events where aggregate_type = 'CourseRegistration' and aggregate_id = $1")
        .bind(aggregate_id).fetch_one(pool).await)
    .expect("count events")
}

async fn anna_id(app: &TestApp) -> String {
    backend::auth::User::find_by_email(&app.state.db, crate::helpers::ANNA)
        .await
        .unwrap()
        .unwrap()
        .id
}

/// Every document address of a programme response: the `url` of its files and a venue's
/// floor-plan link; a raw content path (`/files/...`) anywhere fails the test.
fn collect_document_urls(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(m) => {
            for (key, v) in m {
                if let Value::String(s) = v {
                    assert!(!s.starts_with("/files/"), "raw content path at {key}: {s}");
                    if (key == "url" || key == "link_download") && s.starts_with("/api/library/") {
                        out.push(s.clone());
                    }
                }
                collect_document_urls(v, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| collect_document_urls(v, out)),
        _ => {}
    }
}

/// A copy of the programme content (and the documents it refers to) that a test may break.
fn content_copy() -> tempfile::TempDir {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../content");
    let dir = tempfile::tempdir().expect("temp dir");
    for folder in ["congresses", "training", "courses", "documents"] {
        std::fs::create_dir_all(dir.path().join(folder)).unwrap();
        for entry in std::fs::read_dir(src.join(folder)).unwrap() {
            let entry = entry.unwrap();
            std::fs::copy(
                entry.path(),
                dir.path().join(folder).join(entry.file_name()),
            )
            .unwrap();
        }
    }
    dir
}

/// A change made to a content file.
type Edit = Box<dyn Fn(&mut Value)>;

fn edit_json(path: &std::path::Path, change: impl FnOnce(&mut Value)) {
    let mut value: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    change(&mut value);
    std::fs::write(path, value.to_string()).unwrap();
}

async fn table_counts(app: &TestApp) -> (i64, i64, i64, i64) {
    let db = &app.state.db;
    let count = |sql: &'static str| async move {
        projections::on_db!(db, pool => sqlx::query_scalar::<_, i64>(sql).fetch_one(pool).await)
            .unwrap()
    };
    (
        count("select count(*) from congresses").await,
        count("select count(*) from congress_activities").await,
        count("select count(*) from trainings").await,
        count("select count(*) from courses").await,
    )
}

both_dbs! {
    // The typed answers carry exactly the JSON the importer stored (and the API sent as it was
    // before it was typed): every field, `null` and absent ones included.
    async fn every_programme_answer_is_the_stored_json(app) {
        let token = app.token(ANNA).await;
        for (table, detail) in [("congresses", "/congresses"), ("congress_activities", "/congresses/activities"),
                                ("trainings", "/training"), ("courses", "/courses")] {
            let rows = stored(&app, &format!("select id, data from {table} order by id")).await;
            assert!(!rows.is_empty(), "{table} has demo content");
            for (id, mut data) in rows {
                if table == "trainings" {
                    data["title"] = data["name"].clone();
                }
                let mut answer = get_ok(&app, &format!("{detail}/{id}"), &token).await;
                if table == "courses" {
                    // The one field added when served: whether the course and each day have ended.
                    take_ended(&mut answer);
                    for day in answer["days"].as_array_mut().expect("days") {
                        take_ended(day);
                    }
                }
                assert_eq!(answer, data, "{detail}/{id}");
            }
        }
        for (table, list) in [("congresses", "/congresses"), ("trainings", "/training"), ("courses", "/courses")] {
            let items = stored(&app, &format!("select id, item from {table} order by id")).await;
            let mut seen = 0;
            for year in items_years(&app, table).await {
                let body = get_ok(&app, &format!("{list}?year={year}"), &token).await;
                for row in body["list"].as_array().expect("list") {
                    let mut row = row.clone();
                    if table == "courses" {
                        take_ended(&mut row);
                    }
                    let row = &row;
                    let id = row["id"].as_i64().expect("id");
                    let (_, item) = items.iter().find(|(i, _)| *i == id).expect("a stored item");
                    assert_eq!(row, item, "{list} row {id}");
                    seen += 1;
                }
                let filters = body["filters"].as_object().expect("filters");
                assert!(filters["year"].as_array().is_some_and(|y| !y.is_empty()), "{list} filters");
            }
            assert_eq!(seen, items.len(), "{list}: every item listed in its year");
        }
        let home = get_ok(&app, "/congresses/home", &token).await;
        let items = stored(&app, "select id, item from congresses order by id").await;
        for row in home["list"].as_array().expect("list") {
            let (_, item) = items.iter().find(|(i, _)| Some(*i) == row["id"].as_i64()).expect("stored");
            assert_eq!(row, item);
        }
    }

    async fn every_programme_call_needs_a_signed_in_user(app) {
        for path in ["/congresses", "/congresses/home", "/congresses/1", "/congresses/activities/1", "/training",
                     "/training/1", "/courses", "/courses/1", "/calendar/congress/1.ics", "/courses/1/registrations",
                     "/courses/1/registrations.csv"] {
            let (status, _) = json_of(app.get(path, None).await).await;
            assert_eq!(status, StatusCode::UNAUTHORIZED, "{path}");
            let (status, _) = json_of(app.get(path, Some("forged.token.value")).await).await;
            assert_eq!(status, StatusCode::UNAUTHORIZED, "{path}");
        }
        let (status, _) = json_of(app.post_json("/courses/1/register", None, &form(&["2026-03-19"])).await).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }

    async fn congress_list_defaults_to_the_current_year_and_filters_by_year(app) {
        let token = app.token(ANNA).await;
        let body = get_ok(&app, "/congresses", &token).await;
        assert_eq!(body["selected"]["year"], current_year());
        let years = option_values(&body["filters"]["year"]);
        assert!(years.contains(&current_year()) && years.contains(&"2026".into()) && years.contains(&"2025".into()), "{years:?}");
        assert!(years.windows(2).all(|w| w[0] > w[1]), "newest first: {years:?}");

        let y2026 = get_ok(&app, "/congresses?year=2026", &token).await;
        assert_eq!(ids(&y2026["list"]), vec![1, 2, 3, 4, 5, 6, 7]);
        let first = &y2026["list"][0];
        assert_eq!(first["name"], "Alpine Arthroplasty Meeting 2026");
        assert_eq!(first["type"], "congress");
        assert_eq!(first["dates"], "22–24 January 2026");
        assert_eq!(first["preview"], "/media/congresses/congress-1-preview.svg");
        assert!(first["subtitle"].is_string());
        assert_eq!(y2026["list"][1]["type"], "event");
        let dates: Vec<&str> = y2026["list"].as_array().unwrap().iter().map(|c| c["date"].as_str().unwrap()).collect();
        assert!(dates.iter().all(|d| d.starts_with("2026")));
        assert!(dates.windows(2).all(|w| w[0] <= w[1]), "in date order: {dates:?}");

        let y2025 = get_ok(&app, "/congresses?year=2025", &token).await;
        assert_eq!(ids(&y2025["list"]), vec![8, 9, 10]);
        assert_eq!(get_ok(&app, "/congresses?year=2019", &token).await["list"], json!([]));

        let events = get_ok(&app, "/congresses?year=2026&type=event", &token).await;
        assert_eq!(ids(&events["list"]), vec![2, 4, 7]);

        for bad in ["/congresses?year=abc", "/congresses?year=20266"] {
            let (status, body) = json_of(app.get(bad, Some(&token)).await).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}");
            assert_eq!(body["message"], "The year must be a year such as 2026");
        }
    }

    async fn congress_home_lists_what_is_not_over(app) {
        let token = app.token(ANNA).await;
        let body = get_ok(&app, "/congresses/home", &token).await;
        let today = Utc::now().date_naive().to_string();
        let list = body["list"].as_array().unwrap();
        assert!(list.len() <= 10);
        assert!(list.iter().all(|c| c["end_date"].as_str().unwrap() >= today.as_str()), "{list:?}");
        let starts: Vec<&str> = list.iter().map(|c| c["date"].as_str().unwrap()).collect();
        assert!(starts.windows(2).all(|w| w[0] <= w[1]), "soonest first: {starts:?}");
        // The Sports Medicine Winter Summit (9-11 December 2026) is shown until it is over.
        assert_eq!(ids(&body["list"]).contains(&7), today.as_str() <= "2026-12-11");
    }

    async fn congress_detail_carries_every_tab_of_the_spec(app) {
        let token = app.token(ANNA).await;
        let c = get_ok(&app, "/congresses/1", &token).await;
        assert_eq!(c["name"], "Alpine Arthroplasty Meeting 2026");
        let tabs = c["tabs"].as_object().unwrap();
        for (key, title) in [("info", "Info"), ("details", "Details"), ("hotel", "Hotel & Transfer"), ("day", "Day by day"),
                             ("activities", "Activities"), ("messages", "Key messages"), ("media", "Media"),
                             ("downloads", "Downloads"), ("contacts", "Contacts")] {
            assert_eq!(tabs[key]["title"], title, "{key}");
            assert!(tabs[key]["content"].is_object(), "{key}");
        }
        // The tabs' order of the content, which the app keeps (spec 2.18).
        assert_eq!(c["tab_order"], json!(["info", "details", "hotel", "day", "activities", "messages", "media", "downloads", "contacts"]));
        let info = &tabs["info"]["content"];
        assert_eq!(info["first_date"], "2026-01-22");
        assert_eq!(info["first_date_time"], "08:00");
        assert_eq!(info["last_date_time"], "17:30");
        assert_eq!(info["calendar"], "/api/calendar/congress/1.ics");
        assert!(info["description"].as_str().unwrap().len() > info["description_short"].as_str().unwrap().len());

        let details = &tabs["details"]["content"];
        assert!(details["congress_venue"]["gallery"].as_array().unwrap().len() >= 2);
        assert_eq!(details["timing_dates"]["calendar"], "/api/calendar/timing/congress-1.ics");
        assert!(details["meridian_booth"]["description"].is_string());
        assert!(details["useful_information"]["description"].is_string());

        let hotel = &tabs["hotel"]["content"];
        assert_eq!(hotel["hotel"]["calendar"], "/api/calendar/hotel/congress-1-0.ics");
        assert_eq!(hotel["transfer"]["calendar"], "/api/calendar/transfer/congress-1-0.ics");
        assert_eq!(hotel["additional_hotels"].as_array().unwrap().len(), 1);
        // An entry without 'save in calendar' gets no address.
        assert!(hotel["additional_hotels"][0].get("calendar").is_none());
        assert!(hotel["transfer"]["info"].as_str().unwrap().len() > 400);

        let day1 = &tabs["day"]["content"]["events"][1];
        assert_eq!(day1["date"], "2026-01-23");
        assert!(day1["events"][0].get("calendar").is_none());
        assert_eq!(day1["events"][1]["calendar"], "/api/calendar/day-event/congress-1-1-1.ics");

        let groups = tabs["activities"]["content"]["activities"].as_array().unwrap();
        assert_eq!(groups[0]["label"], "Workshops");
        let activity = &groups[0]["events"][0];
        assert_eq!(activity["id"], 1);
        assert_eq!(activity["title"], "Cementless knee fixation: when and how");
        assert_eq!(activity["experts"][0]["name"], "Prof. Henrik Aalto");
        assert!(activity["experts"][0]["preview"].is_string());

        let files = tabs["downloads"]["content"]["files"].as_array().unwrap();
        assert_eq!(files.len(), 4);
        assert_eq!(files[0]["id"], 57);
        assert_eq!(files[0]["type"], "file");
        assert!(files[0]["title"].is_string());
        assert_eq!(files[0]["url"], "/api/library/57/file");
        assert!(files[0].get("file").is_none(), "no raw content path reaches the app");
        assert_eq!(details["congress_venue"]["link_download"], "/api/library/58/file");

        assert!(tabs["messages"]["content"]["messages"].as_array().unwrap().len() >= 2);
        assert!(!tabs["media"]["content"]["accordions"].as_array().unwrap().is_empty());
        assert_eq!(tabs["contacts"]["content"]["name"], "Anja Weber");

        // An intro video where the content has one.
        let c2 = get_ok(&app, "/congresses/2", &token).await;
        assert!(c2["tabs"]["info"]["content"]["intro_video"]["preview_image"].is_string());

        for path in ["/congresses/999", "/congresses/abc", "/congresses/0"] {
            let (status, body) = json_of(app.get(path, Some(&token)).await).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
            assert_eq!(body["message"], "Congress not found");
        }
    }

    async fn congress_activity_has_faculty_files_and_calendar(app) {
        let token = app.token(ANNA).await;
        let a = get_ok(&app, "/congresses/activities/1", &token).await;
        assert_eq!(a["title"], "Cementless knee fixation: when and how");
        assert_eq!(a["parent_id"], 1);
        assert_eq!(a["parent_name"], "Alpine Arthroplasty Meeting 2026");
        assert_eq!(a["calendar"], "/api/calendar/activity/1.ics");
        assert_eq!(a["experts"].as_array().unwrap().len(), 2);
        for key in ["name", "subtitle", "image", "description"] {
            assert!(a["experts"][0][key].is_string(), "{key}");
        }
        assert_eq!(a["files"][0]["id"], 60);
        assert!(a["files"][0]["title"].is_string());
        for path in ["/congresses/activities/9999", "/congresses/activities/x"] {
            let (status, body) = json_of(app.get(path, Some(&token)).await).await;
            assert_eq!(status, StatusCode::NOT_FOUND);
            assert_eq!(body["message"], "Activity not found");
        }
    }

    async fn training_list_and_detail(app) {
        let token = app.token(ANNA).await;
        let list = get_ok(&app, "/training", &token).await;
        assert_eq!(list["selected"]["year"], current_year());
        assert!(option_values(&list["filters"]["year"]).contains(&"2025".into()));

        let y2026 = get_ok(&app, "/training?year=2026", &token).await;
        assert_eq!(ids(&y2026["list"]), vec![1, 5, 2, 3, 4], "in date order");
        let row = &y2026["list"][0];
        assert_eq!(row["name"], "Shoulder Portfolio Sales Academy");
        assert_eq!(row["dates"], "3–5 February 2026");
        assert!(row["preview"].is_string() && row["subtitle"].is_string());
        assert_eq!(ids(&get_ok(&app, "/training?year=2025", &token).await["list"]), vec![6, 7]);
        assert_eq!(json_of(app.get("/training?year=x", Some(&token)).await).await.0, StatusCode::BAD_REQUEST);

        let t = get_ok(&app, "/training/1", &token).await;
        assert_eq!(t["title"], "Shoulder Portfolio Sales Academy");
        assert_eq!(t["website"], "https://training.meridian-ortho.example/1");
        assert!(t["text_over_website"].is_string() && t["link"].is_string());
        let tabs = t["tabs"].as_object().unwrap();
        for key in ["info", "details", "hotel", "day", "activities", "key", "downloads", "contacts"] {
            assert!(tabs[key]["title"].is_string() && tabs[key]["content"].is_object(), "{key}");
        }
        assert_eq!(t["tab_order"], json!(["info", "details", "hotel", "day", "activities", "key", "downloads", "contacts"]));
        assert_eq!(tabs["info"]["content"]["calendar"], "/api/calendar/training/1.ics");
        assert_eq!(tabs["info"]["content"]["registration"]["link"], "https://training.meridian-ortho.example/1/register");
        assert!(tabs["details"]["content"]["main_topics"]["description"].is_string());
        let events: Vec<&Value> = tabs["activities"]["content"]["activities"].as_array().unwrap().iter()
            .flat_map(|g| g["events"].as_array().unwrap().iter()).collect();
        assert!(events.iter().any(|e| e["type"] == "lunch"));
        assert!(events.iter().all(|e| e["googlemaps"].is_string()));
        assert_eq!(tabs["downloads"]["content"]["files"][0]["id"], 92);
        assert!(tabs["key"]["content"]["messages"][0]["title"].is_string());

        for path in ["/training/99", "/training/abc"] {
            let (status, body) = json_of(app.get(path, Some(&token)).await).await;
            assert_eq!(status, StatusCode::NOT_FOUND);
            assert_eq!(body["message"], "Training not found");
        }
    }

    async fn course_list_filters_come_from_the_server(app) {
        let token = app.token(ANNA).await;
        let body = get_ok(&app, "/courses", &token).await;
        // The course calendar's year (the tests read it at a fixed instant of 2026).
        assert_eq!(body["selected"]["year"], "2026");
        for kind in ["year", "month", "category", "segment", "language", "typology", "speaker"] {
            assert!(!body["filters"][kind].as_array().unwrap().is_empty(), "{kind}");
        }
        assert_eq!(body["filters"]["category"][2], json!({ "value": "third", "label": "3rd-Party event" }));
        assert_eq!(body["filters"]["segment"][0], json!({ "value": "1", "label": "Shoulder" }));

        let y2026 = get_ok(&app, "/courses?year=2026", &token).await;
        let list = y2026["list"].as_array().unwrap();
        assert_eq!(list.len(), 14);
        let starts: Vec<&str> = list.iter().map(|c| c["start_date"].as_str().unwrap()).collect();
        assert!(starts.windows(2).all(|w| w[0] <= w[1]), "{starts:?}");
        let card = list.iter().find(|c| c["id"] == 1).unwrap();
        assert_eq!(card["category"], json!({ "class": "course", "label": "Course" }));
        assert_eq!(card["typology"], "Cadaver lab");
        assert_eq!(card["print_date"], "19–20 March 2026");
        assert_eq!(card["language"], "English");
        assert_eq!(card["segment"][0]["id"], 1);
        assert!(card["segment"][0]["image"].is_string());
        assert_eq!(card["speakers"].as_array().unwrap().len(), 5);
        assert!(card["speakers"][0]["image"].is_string());
        assert_eq!(ids(&get_ok(&app, "/courses?year=2025", &token).await["list"]), vec![15, 16, 17]);

        let q = |query: &str| format!("/courses?year=2026&{query}");
        assert_eq!(ids(&get_ok(&app, &q("category=online"), &token).await["list"]), vec![2, 4, 9, 13]);
        assert_eq!(ids(&get_ok(&app, &q("category=third"), &token).await["list"]), vec![5, 11]);
        assert_eq!(ids(&get_ok(&app, &q("month=03"), &token).await["list"]), vec![1]);
        assert_eq!(ids(&get_ok(&app, &q("month=3"), &token).await["list"]), vec![1]);
        assert_eq!(ids(&get_ok(&app, &q("language=French"), &token).await["list"]), vec![3]);
        assert_eq!(ids(&get_ok(&app, &q("typology=Hands-on"), &token).await["list"]), vec![6, 12]);
        let shoulder = ids(&get_ok(&app, &q("segment=1"), &token).await["list"]);
        assert!(shoulder.contains(&1) && !shoulder.contains(&3), "{shoulder:?}");
        let speaker = ids(&get_ok(&app, &q("speaker=Dr.%20Elena%20Marchetti"), &token).await["list"]);
        assert!(speaker.contains(&1), "{speaker:?}");
        let both = get_ok(&app, &q("category=course&language=French&month=04"), &token).await;
        assert_eq!(ids(&both["list"]), vec![3]);
        assert_eq!(both["selected"]["month"], "04");
        assert_eq!(both["selected"]["segment"], Value::Null);
        // Empty values mean "all".
        assert_eq!(get_ok(&app, &q("category=&month=&speaker="), &token).await["list"].as_array().unwrap().len(), 14);

        for (bad, message) in [("month=13", "The month must be a number from 01 to 12"), ("segment=knee", "The segment must be a segment id")] {
            let (status, body) = json_of(app.get(&q(bad), Some(&token)).await).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}");
            assert_eq!(body["message"], message);
        }
    }

    async fn course_detail_has_info_agenda_and_flags(app) {
        let token = app.token(ANNA).await;
        let c = get_ok(&app, "/courses/1", &token).await;
        assert_eq!(c["title"], "Reverse Shoulder Arthroplasty: Cadaver Course");
        assert_eq!(c["show_tabs"], true);
        assert_eq!(c["show_register"], true);
        assert_eq!(c["evenium"], Value::Null);
        assert_eq!(c["show_learn_contact"], true);
        assert_eq!(c["learn_contact"]["email"], "education@meridian-ortho.example");
        assert_eq!(c["save_outlook"]["link"], "/api/calendar/course/1.ics");
        assert_eq!(c["save_outlook"]["start_date"], json!({ "date": "2026-03-19", "time": "08:30" }));
        assert_eq!(c["speakers"].as_array().unwrap().len(), 5);
        assert_eq!(c["days"][0]["date_value"], "2026-03-19");
        assert_eq!(c["days"][0]["date_text"], "Day 1 - 19 March 2026");
        assert_eq!(c["days"][0]["files"][0]["id"], 106);
        assert_eq!(c["files"][0]["id"], 106);

        let online = get_ok(&app, "/courses/2", &token).await;
        assert!(online.get("location").is_none(), "the app shows 'Online'");
        assert_eq!(online["save_outlook"]["link"], Value::Null);
        assert!(online.get("learn_contact").is_none());
        let external = get_ok(&app, "/courses/5", &token).await;
        assert!(external["evenium"].as_str().unwrap().starts_with("https://"));
        assert_eq!(external["show_register"], false);

        for path in ["/courses/999", "/courses/one"] {
            let (status, body) = json_of(app.get(path, Some(&token)).await).await;
            assert_eq!(status, StatusCode::NOT_FOUND);
            assert_eq!(body["message"], "Course not found");
        }
    }

    async fn calendar_files_parse_back_with_start_end_and_title(app) {
        let token = app.token(ANNA).await;

        // Alpine Arthroplasty Meeting: 22 Jan 08:00 to 24 Jan 17:30, Vienna time (UTC+1).
        let cal = calendar(&app, "/calendar/congress/1.ics", &token).await;
        let events: Vec<_> = cal.events().collect();
        assert_eq!(events.len(), 1);
        let e = events[0];
        assert_eq!(e.get_summary(), Some("Alpine Arthroplasty Meeting 2026"));
        assert_eq!(utc(e.get_start()), at("2026-01-22T07:00:00Z"));
        assert_eq!(utc(e.get_end()), at("2026-01-24T16:30:00Z"));
        assert!(e.get_location().unwrap().contains("Innsbruck"));
        assert_eq!(e.get_uid(), Some("congress-1@companion.meridian-ortho.example"));
        assert!(e.get_timestamp().is_some(), "DTSTAMP");

        let cal = calendar(&app, "/calendar/activity/1.ics", &token).await;
        let e = cal.events().next().unwrap();
        assert_eq!(e.get_summary(), Some("Cementless knee fixation: when and how"));
        assert_eq!(utc(e.get_start()), at("2026-01-23T13:00:00Z"));
        assert_eq!(utc(e.get_end()), at("2026-01-23T14:30:00Z"));
        assert_eq!(e.get_location(), Some("Room Patscherkofel, Innsbruck Alpine Congress Hall"));

        // Training 1 in Milan, 3 Feb 08:30 to 5 Feb 17:00 (UTC+1).
        let cal = calendar(&app, "/calendar/training/1.ics", &token).await;
        let e = cal.events().next().unwrap();
        assert_eq!(e.get_summary(), Some("Shoulder Portfolio Sales Academy"));
        assert_eq!(utc(e.get_start()), at("2026-02-03T07:30:00Z"));
        assert_eq!(utc(e.get_end()), at("2026-02-05T16:00:00Z"));

        // Course 1 in Milan: 19 March 08:30 to 20 March 17:30.
        let cal = calendar(&app, "/calendar/course/1.ics", &token).await;
        let e = cal.events().next().unwrap();
        assert_eq!(e.get_summary(), Some("Reverse Shoulder Arthroplasty: Cadaver Course"));
        assert_eq!(utc(e.get_start()), at("2026-03-19T07:30:00Z"));
        assert_eq!(utc(e.get_end()), at("2026-03-20T16:30:00Z"));
        assert_eq!(e.get_location(), Some("Meridian Training Centre, Milan, Italy"));
        // An online course in summer time (UTC+2), located 'Online'.
        let cal = calendar(&app, "/calendar/course/4.ics", &token).await;
        let e = cal.events().next().unwrap();
        assert_eq!(utc(e.get_start()), at("2026-05-20T16:00:00Z"));
        assert_eq!(e.get_location(), Some("Online"));

        // Hotel: whole days from check-in to check-out.
        let cal = calendar(&app, "/calendar/hotel/congress-1-0.ics", &token).await;
        let e = cal.events().next().unwrap();
        assert_eq!(e.get_summary(), Some("Hotel Nordkette View (Alpine Arthroplasty Meeting 2026)"));
        assert_eq!(day(e.get_start()), NaiveDate::from_ymd_opt(2026, 1, 21).unwrap());
        assert_eq!(day(e.get_end()), NaiveDate::from_ymd_opt(2026, 1, 25).unwrap());

        // Transfer: the outward and the return legs.
        let cal = calendar(&app, "/calendar/transfer/congress-1-0.ics", &token).await;
        let legs: Vec<_> = cal.events().collect();
        assert_eq!(legs.len(), 2);
        assert_eq!(legs[0].get_summary(), Some("Transfer: Alpine Arthroplasty Meeting 2026"));
        assert_eq!(utc(legs[0].get_start()), at("2026-01-21T13:00:00Z"));
        assert_eq!(legs[1].get_summary(), Some("Return transfer: Alpine Arthroplasty Meeting 2026"));
        assert_eq!(utc(legs[1].get_start()), at("2026-01-24T14:00:00Z"));
        assert_ne!(legs[0].get_uid(), legs[1].get_uid());

        // Day by day: "12:30–13:30" on 23 January.
        let cal = calendar(&app, "/calendar/day-event/congress-1-1-1.ics", &token).await;
        let e = cal.events().next().unwrap();
        assert_eq!(e.get_summary(), Some("Lunch symposium: dual mobility in primary hip"));
        assert_eq!(utc(e.get_start()), at("2026-01-23T11:30:00Z"));
        assert_eq!(utc(e.get_end()), at("2026-01-23T12:30:00Z"));

        let cal = calendar(&app, "/calendar/timing/congress-1.ics", &token).await;
        assert_eq!(utc(cal.events().next().unwrap().get_start()), at("2026-01-22T07:00:00Z"));
        let cal = calendar(&app, "/calendar/hotel/training-1-0.ics", &token).await;
        assert_eq!(day(cal.events().next().unwrap().get_start()), NaiveDate::from_ymd_opt(2026, 2, 2).unwrap());

        for path in ["/calendar/course/2.ics", "/calendar/congress/99.ics", "/calendar/congress/1", "/calendar/planet/1.ics",
                     "/calendar/hotel/congress-1-9.ics", "/calendar/hotel/shop-1-0.ics", "/calendar/day-event/congress-1-0-99.ics",
                     "/calendar/activity/abc.ics"] {
            let (status, body) = json_of(app.get(path, Some(&token)).await).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
            assert_eq!(body["message"], "Calendar entry not found");
        }
    }

    async fn registration_succeeds_once_per_day_and_is_listed(app) {
        let token = app.token(ANNA).await;
        let (status, body) = register(&app, &token, 1, &form(&["2026-03-19"])).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        assert_eq!(body, json!({ "message": "You have been registered to the course" }));

        let (status, body) = register(&app, &token, 1, &form(&["2026-03-19"])).await;
        assert_eq!(status, StatusCode::CONFLICT);
        assert!(body["message"].as_str().unwrap().starts_with(ALREADY), "{body}");

        // Another day of the same course is fine; both days at once is refused for the first one.
        let (status, _) = register(&app, &token, 1, &form(&["2026-03-19", "2026-03-20"])).await;
        assert_eq!(status, StatusCode::CONFLICT);
        let (status, _) = register(&app, &token, 1, &form(&["2026-03-20"])).await;
        assert_eq!(status, StatusCode::OK);

        let anna = anna_id(&app).await;
        assert_eq!(stored_events(&app, &format!("course-1:user-{anna}")).await, 2);
        let rows = registration_rows(&app, 1).await;
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0]["day"], "2026-03-19");
        assert_eq!(rows[1]["day"], "2026-03-20");
        assert_eq!(rows[0]["name"], "Anna Rossi");
        assert_eq!(rows[0]["email"], "anna.rossi@example.com");
        assert_eq!(rows[0]["hospital"], "Ospedale Nord");
        assert_eq!(rows[0]["category"], "surgeon");
        assert_eq!(rows[0]["newsletter"], true);
        assert_eq!(rows[0]["user_id"], anna.as_str());

        // Another user registers to the same day independently.
        let john = app.token(JOHN).await;
        let body = with(with(form(&["2026-03-19"]), "name", json!("John Miller")), "hospital", Value::Null);
        let body = with(with(body, "category", Value::Null), "email", json!("john.miller@example.com"));
        let (status, _) = register(&app, &john, 1, &body).await;
        assert_eq!(status, StatusCode::OK);
        let rows = registration_rows(&app, 1).await;
        assert_eq!(rows.len(), 3);
        let john_row = rows.iter().find(|r| r["name"] == "John Miller").unwrap();
        assert_eq!(john_row["hospital"], Value::Null);
        assert_eq!(john_row["category"], Value::Null);
    }

    async fn registration_rules_are_checked_on_the_server(app) {
        let token = app.token(ANNA).await;
        let base = form(&["2026-03-19"]);
        let cases: Vec<(Value, StatusCode, &str)> = vec![
            (with(base.clone(), "days", json!([])), StatusCode::BAD_REQUEST, "Choose at least one day"),
            (with(base.clone(), "days", json!(["2026-03-21"])), StatusCode::BAD_REQUEST, "The day 2026-03-21 is not a day of this course"),
            (with(base.clone(), "days", json!(["2026-06-03"])), StatusCode::BAD_REQUEST, "The day 2026-06-03 is not a day of this course"),
            (with(base.clone(), "name", json!(" ")), StatusCode::BAD_REQUEST, "The name is required"),
            (with(base.clone(), "name", Value::Null), StatusCode::BAD_REQUEST, "The name is required"),
            (with(base.clone(), "email", json!("anna@rossi")), StatusCode::BAD_REQUEST, "Enter a valid e-mail address"),
            (with(base.clone(), "email", json!("")), StatusCode::BAD_REQUEST, "Enter a valid e-mail address"),
            (with(base.clone(), "privacy_consent", json!(false)), StatusCode::BAD_REQUEST, "Accept the privacy policy and the use of your data to register"),
            (with(base.clone(), "data_consent", json!(false)), StatusCode::BAD_REQUEST, "Accept the privacy policy and the use of your data to register"),
            (with(base.clone(), "category", json!("nurse")), StatusCode::BAD_REQUEST, "The category must be surgeon or staff"),
            (with(base.clone(), "name", json!("a".repeat(201))), StatusCode::BAD_REQUEST, "The name and the hospital must be at most 200 characters"),
            (with(base.clone(), "id", json!(2)), StatusCode::BAD_REQUEST, "The course of the form is not the course of the address"),
        ];
        for (body, status, message) in cases {
            let (got, answer) = register(&app, &token, 1, &body).await;
            assert_eq!(got, status, "{body}: {answer}");
            assert_eq!(answer["message"], message, "{body}");
        }
        // Without the consents fields at all.
        let mut no_consents = base.clone();
        no_consents.as_object_mut().unwrap().remove("data_consent");
        assert_eq!(register(&app, &token, 1, &no_consents).await.0, StatusCode::BAD_REQUEST);

        // A course that registers on an external platform only.
        let (status, body) = register(&app, &token, 5, &with(with(base.clone(), "id", json!(5)), "days", json!(["2026-06-03"]))).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(body["message"], "Registration to this course is not open in the app");

        for course in ["999", "abc"] {
            let (status, body) = json_of(app.post_json(&format!("/courses/{course}/register"), Some(&token),
                &with(base.clone(), "id", Value::Null)).await).await;
            assert_eq!(status, StatusCode::NOT_FOUND);
            assert_eq!(body["message"], "Course not found");
        }
        let (status, _) = json_of(app.post_raw("/courses/1/register", Some(&token), "application/json", "{not json").await).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);

        // Nothing was recorded by the refusals.
        let anna = anna_id(&app).await;
        assert_eq!(stored_events(&app, &format!("course-1:user-{anna}")).await, 0);
        assert!(registration_rows(&app, 1).await.is_empty());

        // Category is matched without regard to case, hospital and category may be left out.
        let body = with(with(base.clone(), "category", json!("Staff")), "hospital", Value::Null);
        assert_eq!(register(&app, &token, 1, &body).await.0, StatusCode::OK);
        assert_eq!(registration_rows(&app, 1).await[0]["category"], "staff");
    }

    async fn concurrent_registrations_to_one_day_record_it_once(app) {
        let token = app.token(ANNA).await;
        let body = form(&["2026-03-19"]);
        let attempts = (0..6).map(|_| register(&app, &token, 1, &body));
        let results = futures::future::join_all(attempts).await;
        let ok = results.iter().filter(|(s, _)| *s == StatusCode::OK).count();
        assert_eq!(ok, 1, "{results:?}");
        assert!(results.iter().all(|(s, _)| *s == StatusCode::OK || *s == StatusCode::CONFLICT), "{results:?}");
        let anna = anna_id(&app).await;
        assert_eq!(stored_events(&app, &format!("course-1:user-{anna}")).await, 1);
        assert_eq!(registration_rows(&app, 1).await.len(), 1);
    }

    async fn registrations_are_for_the_course_team_only_and_export_as_csv(app) {
        let anna = app.token(ANNA).await;
        let body = with(form(&["2026-03-19"]), "name", json!("Rossi, \"Anna\""));
        assert_eq!(register(&app, &anna, 1, &body).await.0, StatusCode::OK);

        for who in [ANNA, JOHN, AUDITOR] {
            let token = app.token(who).await;
            for path in ["/courses/1/registrations", "/courses/1/registrations.csv"] {
                let (status, body) = json_of(app.get(path, Some(&token)).await).await;
                assert_eq!(status, StatusCode::FORBIDDEN, "{who} {path}");
                assert_eq!(body["message"], "Only the course team can see the registrations");
            }
        }

        let admin = app.token(ADMIN).await;
        let list = get_ok(&app, "/courses/1/registrations", &admin).await;
        assert_eq!(list["course_id"], 1);
        assert_eq!(list["title"], "Reverse Shoulder Arthroplasty: Cadaver Course");

        let res = app.get("/courses/1/registrations.csv", Some(&admin)).await;
        assert_eq!(res.status(), StatusCode::OK);
        assert!(res.headers()[reqwest::header::CONTENT_TYPE].to_str().unwrap().starts_with("text/csv"));
        assert!(res.headers()[reqwest::header::CONTENT_DISPOSITION].to_str().unwrap().contains("course-1-registrations.csv"));
        let text = res.text().await.unwrap();
        assert!(text.contains("\"Rossi, \"\"Anna\"\"\""), "quoted: {text}");
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        assert_eq!(reader.headers().unwrap().iter().collect::<Vec<_>>(),
            vec!["course_id", "course", "day", "name", "email", "hospital", "category", "newsletter", "registered_at", "user_id"]);
        let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.unwrap()).collect();
        assert_eq!(rows.len(), 1);
        assert_eq!(&rows[0][2], "2026-03-19");
        assert_eq!(&rows[0][3], "Rossi, \"Anna\"");
        assert_eq!(&rows[0][4], "anna.rossi@example.com");
        assert_eq!(&rows[0][7], "yes");
        assert!(rows[0][8].ends_with('Z'));

        for path in ["/courses/999/registrations", "/courses/999/registrations.csv"] {
            assert_eq!(json_of(app.get(path, Some(&admin)).await).await.0, StatusCode::NOT_FOUND, "{path}");
        }
    }

    async fn the_import_is_idempotent_and_refuses_bad_files(app) {
        let before = table_counts(&app).await;
        assert_eq!(before, (10, 33, 7, 17));
        let token = app.token(ANNA).await;
        assert_eq!(register(&app, &token, 1, &form(&["2026-03-19"])).await.0, StatusCode::OK);

        let content = content_copy();
        let report = backend::programmes::import(&app.state.db, content.path()).await.expect("import again");
        assert_eq!((report.congresses, report.activities, report.trainings, report.courses), (10, 33, 7, 17));
        assert_eq!(table_counts(&app).await, before);
        assert_eq!(registration_rows(&app, 1).await.len(), 1, "registrations survive a new import");
        assert_eq!(get_ok(&app, "/congresses/1", &token).await["name"], "Alpine Arthroplasty Meeting 2026");

        let cases: Vec<(&str, Edit, &str)> = vec![
            ("congresses/congresses.json", Box::new(|v| v[2]["tabs"]["info"]["content"]["first_date"] = json!("2026-13-01")),
             "congresses/congresses.json: [2] id 3.tabs.info.content.first_date: '2026-13-01' is not a date (yyyy-mm-dd)"),
            ("congresses/congresses.json", Box::new(|v| v[0]["type"] = json!("party")),
             "congresses/congresses.json: [0] id 1.type: must be 'event' or 'congress'"),
            ("congresses/congresses.json", Box::new(|v| v[0]["tabs"]["downloads"]["content"]["files"] = json!([99999])),
             "congresses/congresses.json: [0] id 1.tabs.downloads.content.files: document 99999 not in documents/library.json"),
            ("congresses/congresses.json",
             Box::new(|v| v[0]["tabs"]["details"]["content"]["congress_venue"]["link_download"] = json!("/files/congress/missing-floor-plan.pdf")),
             "congresses/congresses.json: [0] id 1.tabs.details.content.congress_venue.link_download: '/files/congress/missing-floor-plan.pdf' is not the file of a document in documents/library.json"),
            ("training/trainings.json",
             Box::new(|v| v[0]["tabs"]["details"]["content"]["congress_venue"]["link_download"] = json!("https://example.com/plan.pdf")),
             "training/trainings.json: [0] id 1.tabs.details.content.congress_venue.link_download: 'https://example.com/plan.pdf' is not the file of a document in documents/library.json"),
            ("congresses/activities.json", Box::new(|v| v[0]["end_date"] = json!("2026-01-01")),
             "congresses/activities.json: [0] id 1.end_date: the end is before the start"),
            ("training/trainings.json", Box::new(|v| v[0]["timezone"] = json!("Mars/Olympus")),
             "training/trainings.json: [0] id 1.timezone: 'Mars/Olympus' is not a time zone"),
            ("courses/courses.json", Box::new(|v| v[1]["category"]["class"] = json!("webinar")),
             "courses/courses.json: [1] id 2.category.class: must be course, online, third or other"),
            ("courses/courses.json", Box::new(|v| v[0]["days"][0]["date_value"] = json!("2026-04-01")),
             "courses/courses.json: [0] id 1.days[0].date_value: 2026-04-01 is outside the course dates"),
            ("courses/courses.json", Box::new(|v| v[0].as_object_mut().unwrap().remove("title").map(|_| ()).unwrap_or(())),
             "courses/courses.json: [0] id 1.title: missing"),
        ];
        for (file, change, message) in cases {
            let broken = content_copy();
            edit_json(&broken.path().join(file), change);
            let err = backend::programmes::import(&app.state.db, broken.path()).await.expect_err(message);
            assert_eq!(err.to_string(), message);
            assert_eq!(table_counts(&app).await, before, "a refused import changes nothing");
        }
        let broken = content_copy();
        std::fs::write(broken.path().join("courses/courses.json"), "[{").unwrap();
        let err = backend::programmes::import(&app.state.db, broken.path()).await.expect_err("bad json");
        assert!(err.to_string().starts_with("courses/courses.json: line 1: invalid JSON"), "{err}");
        std::fs::remove_file(broken.path().join("training/trainings.json")).unwrap();
        let err = backend::programmes::import(&app.state.db, broken.path()).await.expect_err("missing");
        assert_eq!(err.to_string(), "training/trainings.json: -: file missing");
    }

    async fn every_programme_document_is_served_as_the_real_file(app) {
        let token = app.token(ANNA).await;
        let mut urls = Vec::new();
        collect_document_urls(&get_ok(&app, "/congresses/1", &token).await, &mut urls);
        collect_document_urls(&get_ok(&app, "/congresses/activities/1", &token).await, &mut urls);
        collect_document_urls(&get_ok(&app, "/training/1", &token).await, &mut urls);
        collect_document_urls(&get_ok(&app, "/courses/1", &token).await, &mut urls);
        urls.sort();
        urls.dedup();
        assert!(urls.len() >= 7, "{urls:?}");
        for url in &urls {
            let path = url.strip_prefix("/api").expect("an API address");
            let res = app.get(path, Some(&token)).await;
            assert_eq!(res.status(), StatusCode::OK, "{url}");
            assert_eq!(res.headers()["content-type"], "application/pdf", "{url}");
            let bytes = res.bytes().await.unwrap();
            assert!(bytes.starts_with(b"%PDF-"), "{url} is a PDF");
            // The file is for signed-in users only.
            let (status, body) = json_of(app.get(path, None).await).await;
            assert_eq!(status, StatusCode::UNAUTHORIZED, "{url}");
            assert!(body["message"].is_string());
        }
    }

    async fn applying_a_registration_event_twice_changes_nothing(app) {
        use events::course_registration::RegistrationEvent;
        use projections::Projection;
        let event = RegistrationEvent::Registered {
            course_id: 3, user_id: "u-1".into(), days: vec!["2026-04-23".into(), "2026-04-24".into()],
            name: "Replay".into(), email: "replay@example.com".into(), hospital: None, category: None,
            newsletter: false, registered_at: 1,
        };
        let stored = projections::StoredEvent {
            at: projections::Position::default(),
            aggregate_type: "CourseRegistration".into(),
            aggregate_id: "course-3:user-u-1".into(),
            sequence: 1,
            event_type: "Registered".into(),
            event_version: "1.0".into(),
            payload: serde_json::value::to_raw_value(&event).unwrap(),
            metadata: serde_json::value::to_raw_value(&json!({})).unwrap(),
            recorded_at: 1,
        };
        let projection = projections::course_registrations::RegistrationsProjection;
        for _ in 0..2 {
            let mut tx = projections::Tx::begin(&app.state.db).await.unwrap();
            projection.apply(&mut tx, &stored).await.unwrap();
            tx.commit().await.unwrap();
        }
        assert_eq!(registration_rows(&app, 3).await.len(), 2);
    }

    async fn registrations_are_rebuilt_by_replay_equal_to_live(app) {
        let token = app.token(ANNA).await;
        assert_eq!(register(&app, &token, 1, &form(&["2026-03-19"])).await.0, StatusCode::OK);
        assert_eq!(register(&app, &token, 1, &form(&["2026-03-20"])).await.0, StatusCode::OK);
        let john = app.token(JOHN).await;
        let body = with(with(form(&["2026-04-23", "2026-04-24"]), "id", json!(3)), "name", json!("John Miller"));
        assert_eq!(register(&app, &john, 3, &body).await.0, StatusCode::OK);
        let report = backend::replay::run(&app.state.db, &app.state.config, &["course_registrations".into()])
            .await
            .expect("replay");
        assert!(report.differences.is_empty(), "{:?}", report.differences);
        assert_eq!(report.tables_compared, 1);
        assert_eq!(report.rows_compared, 4);
        assert!(report.events_applied >= 3, "{report:?}");
    }
}

/// Holds the projector on every course registration until the test opens the gate.
struct HeldRegistrations(std::sync::Arc<tokio::sync::Semaphore>);

#[async_trait::async_trait]
impl projections::Projection for HeldRegistrations {
    fn name(&self) -> &'static str {
        "test_held_registrations"
    }
    fn tables(&self) -> &'static [projections::TableSpec] {
        &[]
    }
    fn reads(&self, aggregate_type: &str) -> bool {
        aggregate_type == "CourseRegistration"
    }
    async fn apply(
        &self,
        _tx: &mut projections::Tx,
        event: &projections::StoredEvent,
    ) -> Result<(), projections::ProjectionError> {
        if event.aggregate_type == "CourseRegistration" {
            let _ =
                tokio::time::timeout(std::time::Duration::from_secs(60), self.0.acquire()).await;
        }
        Ok(())
    }
}

/// A registration goes through the command path of every command: when the projections do not
/// show it within READ_YOUR_WRITE_SECONDS the answer is the same 503 as any other command's, and
/// the registration is kept (the projector shows it later, a retry is a duplicate).
async fn a_registration_not_projected_in_time_is_answered_behind(engine: crate::helpers::Engine) {
    let gate = std::sync::Arc::new(tokio::sync::Semaphore::new(0));
    let held: std::sync::Arc<dyn projections::Projection> =
        std::sync::Arc::new(HeldRegistrations(gate.clone()));
    let Some(app) = crate::helpers::spawn_app_with_projections(
        engine,
        |config| config.read_your_write_seconds = 1,
        vec![held],
    )
    .await
    else {
        return;
    };
    let token = app.token(crate::helpers::ANNA).await;
    let admin = app.token(crate::helpers::ADMIN).await;
    let (status, body) = register(&app, &token, 1, &form(&["2026-03-19"])).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert_eq!(body["message"], backend::event_store::BEHIND_MESSAGE);
    let anna = anna_id(&app).await;
    assert_eq!(
        stored_events(&app, &format!("course-1:user-{anna}")).await,
        1,
        "the registration is kept"
    );

    gate.add_permits(1_000);
    let mut rows = Vec::new();
    for _ in 0..200 {
        let body = get_ok(&app, "/courses/1/registrations", &admin).await;
        rows = body["registrations"].as_array().expect("rows").clone();
        if !rows.is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(rows.len(), 1, "the projector shows it once it runs");
    let (status, body) = register(&app, &token, 1, &form(&["2026-03-19"])).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(
        body["message"].as_str().unwrap().starts_with(ALREADY),
        "{body}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_registration_not_projected_in_time_is_answered_behind_sqlite() {
    a_registration_not_projected_in_time_is_answered_behind(crate::helpers::Engine::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_registration_not_projected_in_time_is_answered_behind_postgres() {
    a_registration_not_projected_in_time_is_answered_behind(crate::helpers::Engine::Postgres).await;
}
