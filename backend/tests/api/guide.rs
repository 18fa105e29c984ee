//! The guided tour behind the info buttons (`GET /guide`).

use reqwest::StatusCode;

use crate::both_dbs;

both_dbs! {
    async fn the_tour_is_served_to_signed_in_users_in_content_order(app) {
        let token = app.token(ANNA).await;
        let (status, body) = json_of(app.get("/guide", Some(&token)).await).await;
        assert_eq!(status, StatusCode::OK);
        let steps = body["steps"].as_array().expect("steps");
        let screens: Vec<_> = steps.iter().map(|s| s["screen"].as_str().unwrap()).collect();
        assert_eq!(&screens[..5], ["home", "products", "documents", "search", "menu"]);
        for s in steps {
            assert!(s["title"].as_str().is_some_and(|t| !t.is_empty()));
            assert!(s["text"].as_str().is_some_and(|t| !t.is_empty()));
            assert!(s["path"].as_str().is_some_and(|p| p.starts_with('/')));
        }

        let (status, body) = json_of(app.get("/guide", None).await).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        assert!(body["message"].is_string());

        let (_, doc) = json_of(app.get("/openapi.json", None).await).await;
        assert!(doc["paths"]["/api/guide"]["get"].is_object(), "documented");
    }
}
