//! One app update: the release notes shown as a slider of big images (spec 2.10). Published once,
//! to everyone.
//!
//! Aggregate id: [`AppUpdate::aggregate_id`] (`update-{id}`).

use cqrs_es::{Aggregate, DomainEvent};
use serde::{Deserialize, Serialize};

use super::{
    is_safe_url, optional_url, required_text, PublishError, MAX_GALLERY, MAX_RELEASE_LEN,
    MAX_TITLE_LEN,
};

/// One slide of the update wizard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GalleryImage {
    /// The big image.
    pub big: String,
    /// What the slide shows, for screen readers.
    pub title: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub enum AppUpdateCommand {
    Publish {
        id: i64,
        name: String,
        release: String,
        preview: Option<String>,
        gallery: Vec<GalleryImage>,
        /// Where 'Discover more' leads; none shows 'Close'.
        url: Option<String>,
        published_at: i64,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum AppUpdateEvent {
    Published {
        id: i64,
        name: String,
        release: String,
        preview: Option<String>,
        gallery: Vec<GalleryImage>,
        url: Option<String>,
        published_at: i64,
    },
}

impl DomainEvent for AppUpdateEvent {
    fn event_type(&self) -> String {
        match self {
            AppUpdateEvent::Published { .. } => "AppUpdatePublished".to_string(),
        }
    }

    fn event_version(&self) -> String {
        "1.0".to_string()
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AppUpdate {
    pub id: Option<i64>,
}

impl AppUpdate {
    pub fn aggregate_id(id: i64) -> String {
        format!("update-{id}")
    }
}

fn gallery(images: Vec<GalleryImage>) -> Result<Vec<GalleryImage>, PublishError> {
    let images: Vec<GalleryImage> = images
        .into_iter()
        .filter(|i| !i.big.trim().is_empty())
        .collect();
    if images.is_empty() {
        return Err(PublishError::GalleryRequired);
    }
    if images.len() > MAX_GALLERY {
        return Err(PublishError::TooManyImages);
    }
    images
        .into_iter()
        .map(|image| {
            let big = image.big.trim().to_string();
            if !is_safe_url(&big) {
                return Err(PublishError::BadUrl("gallery image"));
            }
            let title = image
                .title
                .map(|t| t.trim().to_string())
                .filter(|t| !t.is_empty());
            if title
                .as_ref()
                .is_some_and(|t| t.chars().count() > MAX_TITLE_LEN)
            {
                return Err(PublishError::TooLong("image title"));
            }
            Ok(GalleryImage { big, title })
        })
        .collect()
}

impl Aggregate for AppUpdate {
    const TYPE: &'static str = "AppUpdate";
    type Command = AppUpdateCommand;
    type Event = AppUpdateEvent;
    type Error = PublishError;
    type Services = ();

    async fn handle(
        &mut self,
        command: Self::Command,
        _services: &Self::Services,
        sink: &cqrs_es::event_sink::EventSink<Self>,
    ) -> Result<(), Self::Error> {
        let AppUpdateCommand::Publish {
            id,
            name,
            release,
            preview,
            gallery: images,
            url,
            published_at,
        } = command;
        if self.id.is_some() {
            return Err(PublishError::AlreadyPublished);
        }
        let name = required_text(&name, MAX_TITLE_LEN, PublishError::NameRequired, "name")?;
        let release = required_text(
            &release,
            MAX_RELEASE_LEN,
            PublishError::ReleaseRequired,
            "release",
        )?;
        let preview = optional_url(preview, "preview")?;
        let gallery = gallery(images)?;
        let url = optional_url(url, "url")?;
        sink.write(
            AppUpdateEvent::Published {
                id,
                name,
                release,
                preview,
                gallery,
                url,
                published_at,
            },
            self,
        )
        .await;
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        let AppUpdateEvent::Published { id, .. } = event;
        self.id = Some(id);
    }
}

#[cfg(test)]
mod tests {
    use cqrs_es::test::TestFramework;

    use super::*;

    fn image(big: &str) -> GalleryImage {
        GalleryImage {
            big: big.into(),
            title: Some("Slide".into()),
        }
    }

    fn publish() -> AppUpdateCommand {
        AppUpdateCommand::Publish {
            id: 3,
            name: " Faster documents ".into(),
            release: "2.7.0".into(),
            preview: Some("/media/updates/p.svg".into()),
            gallery: vec![image("/media/updates/1.svg"), image("/media/updates/2.svg")],
            url: Some("/app/news/15".into()),
            published_at: 5,
        }
    }

    fn published() -> AppUpdateEvent {
        AppUpdateEvent::Published {
            id: 3,
            name: "Faster documents".into(),
            release: "2.7.0".into(),
            preview: Some("/media/updates/p.svg".into()),
            gallery: vec![image("/media/updates/1.svg"), image("/media/updates/2.svg")],
            url: Some("/app/news/15".into()),
            published_at: 5,
        }
    }

    fn with<F: FnOnce(&mut AppUpdateCommand)>(change: F) -> AppUpdateCommand {
        let mut command = publish();
        change(&mut command);
        command
    }

    #[test]
    fn publishes_an_update() {
        TestFramework::<AppUpdate>::with(())
            .given_no_previous_events()
            .when(publish())
            .then_expect_events(vec![published()]);
    }

    #[test]
    fn url_is_optional() {
        let events = TestFramework::<AppUpdate>::with(())
            .given_no_previous_events()
            .when(with(|c| {
                let AppUpdateCommand::Publish { url, .. } = c;
                *url = Some("  ".into());
            }))
            .inspect_result()
            .expect("published");
        let AppUpdateEvent::Published { url, .. } = &events[0];
        assert_eq!(url, &None);
    }

    #[test]
    fn refuses_an_empty_name() {
        TestFramework::<AppUpdate>::with(())
            .given_no_previous_events()
            .when(with(|c| {
                let AppUpdateCommand::Publish { name, .. } = c;
                *name = "".into();
            }))
            .then_expect_error(PublishError::NameRequired);
    }

    #[test]
    fn refuses_an_empty_release() {
        TestFramework::<AppUpdate>::with(())
            .given_no_previous_events()
            .when(with(|c| {
                let AppUpdateCommand::Publish { release, .. } = c;
                *release = " ".into();
            }))
            .then_expect_error(PublishError::ReleaseRequired);
    }

    #[test]
    fn refuses_an_empty_gallery() {
        TestFramework::<AppUpdate>::with(())
            .given_no_previous_events()
            .when(with(|c| {
                let AppUpdateCommand::Publish { gallery, .. } = c;
                *gallery = vec![image("  ")];
            }))
            .then_expect_error(PublishError::GalleryRequired);
    }

    #[test]
    fn refuses_an_unsafe_gallery_image() {
        TestFramework::<AppUpdate>::with(())
            .given_no_previous_events()
            .when(with(|c| {
                let AppUpdateCommand::Publish { gallery, .. } = c;
                gallery.push(image("javascript:alert(1)"));
            }))
            .then_expect_error(PublishError::BadUrl("gallery image"));
    }

    #[test]
    fn refuses_an_unsafe_url() {
        TestFramework::<AppUpdate>::with(())
            .given_no_previous_events()
            .when(with(|c| {
                let AppUpdateCommand::Publish { url, .. } = c;
                *url = Some("//evil.example".into());
            }))
            .then_expect_error(PublishError::BadUrl("url"));
    }

    #[test]
    fn refuses_too_many_images() {
        TestFramework::<AppUpdate>::with(())
            .given_no_previous_events()
            .when(with(|c| {
                let AppUpdateCommand::Publish { gallery, .. } = c;
                *gallery = (0..21).map(|i| image(&format!("/media/{i}.svg"))).collect();
            }))
            .then_expect_error(PublishError::TooManyImages);
    }

    #[test]
    fn is_published_only_once() {
        TestFramework::<AppUpdate>::with(())
            .given(vec![published()])
            .when(publish())
            .then_expect_error(PublishError::AlreadyPublished);
    }
}
