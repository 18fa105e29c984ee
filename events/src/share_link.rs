//! The engagement of one external share's link: one aggregate per share (its id is the share's
//! id, recorded by the item's `SharedExternally`), one event per open, batch of pages viewed,
//! download, revocation and expiry.
//!
//! The link's terms (expiry, open limit, download) are fixed when it is shared; commands carry
//! them from the read model so the rules are checked here, against the stream's own state.
//! Nothing here is a raw IP address or user agent: a coarse device class and a keyed hash of the
//! client's network and device class (made by the server) are all an open records.

use std::collections::{BTreeMap, BTreeSet};

use cqrs_es::{Aggregate, DomainEvent};
use serde::{Deserialize, Serialize};

/// The aggregate type in the event store.
pub const SHARE_TYPE: &str = "share_link";

/// Beacons one link accepts per day (UTC); past it the viewer is told 429.
pub const BEACONS_PER_LINK_PER_DAY: u32 = 2_000;
/// Entries of one beacon.
pub const MAX_PAGES_PER_BEACON: usize = 50;
/// Most seconds one entry of a beacon may report.
pub const MAX_SECONDS_PER_ENTRY: f64 = 3_600.0;

const DAY_MS: i64 = 86_400_000;

/// The serde default of `SharedExternally::allow_download` (shares made before the option
/// allowed downloads: they served the raw file).
pub fn default_allow_download() -> bool {
    true
}

/// The terms a link was shared with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkTerms {
    /// When the link stops working (ms since the epoch).
    pub expires_at: i64,
    pub max_opens: Option<u32>,
    pub allow_download: bool,
}

/// One page's dwell in a beacon.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PageDwell {
    /// 1 and up.
    pub page: u32,
    /// Seconds the page was visible since the viewer's previous beacon.
    pub seconds: f64,
}

/// `phone`, `tablet`, `desktop` or `other`, from the user agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeviceClass {
    Phone,
    Tablet,
    Desktop,
    Other,
}

impl DeviceClass {
    /// The class of a `User-Agent` (only this class is kept, never the agent itself).
    pub fn of(user_agent: &str) -> DeviceClass {
        let ua = user_agent;
        if ua.contains("iPad")
            || ua.contains("Tablet")
            || (ua.contains("Android") && !ua.contains("Mobile"))
        {
            DeviceClass::Tablet
        } else if ua.contains("Mobi") || ua.contains("iPhone") || ua.contains("Android") {
            DeviceClass::Phone
        } else if ["Windows", "Macintosh", "X11", "Linux", "CrOS"]
            .iter()
            .any(|s| ua.contains(s))
        {
            DeviceClass::Desktop
        } else {
            DeviceClass::Other
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            DeviceClass::Phone => "phone",
            DeviceClass::Tablet => "tablet",
            DeviceClass::Desktop => "desktop",
            DeviceClass::Other => "other",
        }
    }
}

/// Why a link was taken back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RevokeReason {
    Sender,
    Admin,
    AccountDisabled,
    DocumentEnded,
    /// The company withdrew the document (or it expired).
    Withdrawn,
}

impl RevokeReason {
    pub fn as_str(self) -> &'static str {
        match self {
            RevokeReason::Sender => "sender",
            RevokeReason::Admin => "admin",
            RevokeReason::AccountDisabled => "account_disabled",
            RevokeReason::DocumentEnded => "document_ended",
            RevokeReason::Withdrawn => "withdrawn",
        }
    }
}

/// How the client was seen: its device class and the keyed hash of its network and class.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Client {
    pub device_class: DeviceClass,
    pub device: String,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub enum ShareCommand {
    /// The viewer `view` loads the document (the first load of a view counts as an open).
    Open {
        view: String,
        client: Client,
        at: i64,
        terms: LinkTerms,
    },
    /// The viewer `view` downloads the file (an open too when the view had not loaded it).
    Download {
        view: String,
        client: Client,
        at: i64,
        terms: LinkTerms,
    },
    /// A beacon of the viewer `view`, numbered `seq`.
    ReportPages {
        view: String,
        seq: u64,
        pages: Vec<PageDwell>,
        at: i64,
        terms: LinkTerms,
    },
    Revoke {
        by: String,
        reason: RevokeReason,
        at: i64,
        replacement: Option<String>,
    },
    /// Records the expiry once the link's time is over (a no-op before, and once recorded).
    Expire { at: i64, terms: LinkTerms },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ShareEvent {
    LinkOpened {
        view: String,
        device_class: DeviceClass,
        /// The keyed hash of the client's network and device class.
        device: String,
        /// No earlier open of this link came from this device.
        new_device: bool,
        at: i64,
    },
    PagesViewed {
        view: String,
        seq: u64,
        pages: Vec<PageDwell>,
        at: i64,
    },
    LinkDownloaded {
        view: String,
        device_class: DeviceClass,
        at: i64,
    },
    LinkRevoked {
        by: String,
        reason: RevokeReason,
        at: i64,
        /// The item that replaces the document, when it was superseded.
        #[serde(default)]
        replacement: Option<String>,
    },
    LinkExpired {
        at: i64,
    },
}

impl DomainEvent for ShareEvent {
    fn event_type(&self) -> String {
        match self {
            ShareEvent::LinkOpened { .. } => "LinkOpened",
            ShareEvent::PagesViewed { .. } => "PagesViewed",
            ShareEvent::LinkDownloaded { .. } => "LinkDownloaded",
            ShareEvent::LinkRevoked { .. } => "LinkRevoked",
            ShareEvent::LinkExpired { .. } => "LinkExpired",
        }
        .to_string()
    }

    fn event_version(&self) -> String {
        "1.0".to_string()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShareError {
    #[error("This link is no longer available.")]
    Revoked,
    #[error("This link is no longer available.")]
    Ended,
    #[error("This link is no longer available.")]
    Expired,
    #[error("This link is no longer available.")]
    UsedUp,
    #[error("The sender allowed viewing only.")]
    ViewOnly,
    #[error("This view has not opened the document")]
    UnknownView,
    #[error("Too many reports for this link today. Try again tomorrow")]
    TooManyBeacons,
    #[error("Pages must be numbered from 1, with 0 to 3600 seconds each, at most 50 at a time")]
    BadPages,
}

impl ShareError {
    /// The state a refused link is in (`revoked`, `ended`, `expired`, `used_up`), if gone.
    pub fn gone_state(&self) -> Option<&'static str> {
        match self {
            ShareError::Revoked => Some("revoked"),
            ShareError::Ended => Some("ended"),
            ShareError::Expired => Some("expired"),
            ShareError::UsedUp => Some("used_up"),
            _ => None,
        }
    }
}

/// A link's engagement as its stream has it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ShareLink {
    pub opens: u32,
    /// Views that opened the document.
    pub views: BTreeSet<String>,
    /// Devices (keyed hashes) that opened it.
    pub devices: BTreeSet<String>,
    /// Beacons already recorded, by view: their numbers.
    pub beacons: BTreeMap<String, BTreeSet<u64>>,
    /// Beacons recorded on the day (`at / DAY_MS`) of the last one.
    pub beacon_day: (i64, u32),
    pub revoked: Option<RevokeReason>,
    pub expired: bool,
}

impl ShareLink {
    /// Refuses anything once the link was revoked or ended, or its time is over.
    fn live(&self, at: i64, terms: &LinkTerms) -> Result<(), ShareError> {
        match self.revoked {
            Some(RevokeReason::DocumentEnded | RevokeReason::Withdrawn) => {
                return Err(ShareError::Ended)
            }
            Some(_) => return Err(ShareError::Revoked),
            None => {}
        }
        if self.expired || at >= terms.expires_at {
            return Err(ShareError::Expired);
        }
        Ok(())
    }

    fn used_up(&self, terms: &LinkTerms) -> bool {
        terms.max_opens.is_some_and(|max| self.opens >= max)
    }

    fn opened(&self, view: String, client: Client, at: i64) -> ShareEvent {
        ShareEvent::LinkOpened {
            view,
            device_class: client.device_class,
            new_device: !self.devices.contains(&client.device),
            device: client.device,
            at,
        }
    }

    /// The state of the link now, as the contract names it.
    pub fn state(&self, at: i64, terms: &LinkTerms) -> &'static str {
        match self.live(at, terms) {
            Err(e) => e.gone_state().unwrap_or("revoked"),
            Ok(()) if self.used_up(terms) => "used_up",
            Ok(()) => "active",
        }
    }
}

fn pages_valid(pages: &[PageDwell]) -> bool {
    pages.len() <= MAX_PAGES_PER_BEACON
        && pages.iter().all(|p| {
            p.page >= 1
                && p.seconds.is_finite()
                && (0.0..=MAX_SECONDS_PER_ENTRY).contains(&p.seconds)
        })
}

impl Aggregate for ShareLink {
    const TYPE: &'static str = SHARE_TYPE;
    type Command = ShareCommand;
    type Event = ShareEvent;
    type Error = ShareError;
    type Services = ();

    async fn handle(
        &mut self,
        command: Self::Command,
        _services: &Self::Services,
        sink: &cqrs_es::event_sink::EventSink<Self>,
    ) -> Result<(), Self::Error> {
        match command {
            ShareCommand::Open {
                view,
                client,
                at,
                terms,
            } => {
                self.live(at, &terms)?;
                // A view counts once; a counted view may load the file again even when the
                // link has since been used up.
                if self.views.contains(&view) {
                    return Ok(());
                }
                if self.used_up(&terms) {
                    return Err(ShareError::UsedUp);
                }
                let event = self.opened(view, client, at);
                sink.write(event, self).await;
            }
            ShareCommand::Download {
                view,
                client,
                at,
                terms,
            } => {
                self.live(at, &terms)?;
                if !terms.allow_download {
                    return Err(ShareError::ViewOnly);
                }
                if !self.views.contains(&view) {
                    if self.used_up(&terms) {
                        return Err(ShareError::UsedUp);
                    }
                    let event = self.opened(view.clone(), client.clone(), at);
                    sink.write(event, self).await;
                }
                sink.write(
                    ShareEvent::LinkDownloaded {
                        view,
                        device_class: client.device_class,
                        at,
                    },
                    self,
                )
                .await;
            }
            ShareCommand::ReportPages {
                view,
                seq,
                pages,
                at,
                terms,
            } => {
                self.live(at, &terms)?;
                if !pages_valid(&pages) {
                    return Err(ShareError::BadPages);
                }
                if !self.views.contains(&view) {
                    return Err(ShareError::UnknownView);
                }
                if self
                    .beacons
                    .get(&view)
                    .is_some_and(|seen| seen.contains(&seq))
                {
                    return Ok(());
                }
                let (day, count) = self.beacon_day;
                if day == at.div_euclid(DAY_MS) && count >= BEACONS_PER_LINK_PER_DAY {
                    return Err(ShareError::TooManyBeacons);
                }
                sink.write(
                    ShareEvent::PagesViewed {
                        view,
                        seq,
                        pages,
                        at,
                    },
                    self,
                )
                .await;
            }
            ShareCommand::Revoke {
                by,
                reason,
                at,
                replacement,
            } => {
                // Revoking twice records nothing the second time.
                if self.revoked.is_none() {
                    let event = ShareEvent::LinkRevoked {
                        by,
                        reason,
                        at,
                        replacement,
                    };
                    sink.write(event, self).await;
                }
            }
            ShareCommand::Expire { at, terms } => {
                if self.revoked.is_none() && !self.expired && at >= terms.expires_at {
                    sink.write(ShareEvent::LinkExpired { at }, self).await;
                }
            }
        }
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        match event {
            ShareEvent::LinkOpened { view, device, .. } => {
                self.opens += 1;
                self.views.insert(view);
                self.devices.insert(device);
            }
            ShareEvent::PagesViewed { view, seq, at, .. } => {
                self.beacons.entry(view).or_default().insert(seq);
                let day = at.div_euclid(DAY_MS);
                self.beacon_day = match self.beacon_day {
                    (d, n) if d == day => (d, n + 1),
                    _ => (day, 1),
                };
            }
            ShareEvent::LinkDownloaded { .. } => {}
            ShareEvent::LinkRevoked { reason, .. } => self.revoked = Some(reason),
            ShareEvent::LinkExpired { .. } => self.expired = true,
        }
    }
}

#[cfg(test)]
mod tests {
    use cqrs_es::test::TestFramework;

    use super::*;

    const NOW: i64 = 1_000_000;

    fn terms(max_opens: Option<u32>, allow_download: bool) -> LinkTerms {
        LinkTerms {
            expires_at: NOW + 10_000,
            max_opens,
            allow_download,
        }
    }

    fn client(device: &str) -> Client {
        Client {
            device_class: DeviceClass::Phone,
            device: device.into(),
        }
    }

    fn open(view: &str, device: &str, max: Option<u32>) -> ShareCommand {
        ShareCommand::Open {
            view: view.into(),
            client: client(device),
            at: NOW,
            terms: terms(max, true),
        }
    }

    fn opened(view: &str, device: &str, new_device: bool) -> ShareEvent {
        ShareEvent::LinkOpened {
            view: view.into(),
            device_class: DeviceClass::Phone,
            device: device.into(),
            new_device,
            at: NOW,
        }
    }

    fn pages(view: &str, seq: u64) -> ShareCommand {
        ShareCommand::ReportPages {
            view: view.into(),
            seq,
            pages: vec![PageDwell {
                page: 1,
                seconds: 2.5,
            }],
            at: NOW,
            terms: terms(None, true),
        }
    }

    fn viewed(view: &str, seq: u64) -> ShareEvent {
        ShareEvent::PagesViewed {
            view: view.into(),
            seq,
            pages: vec![PageDwell {
                page: 1,
                seconds: 2.5,
            }],
            at: NOW,
        }
    }

    fn revoked() -> ShareEvent {
        ShareEvent::LinkRevoked {
            by: "u".into(),
            reason: RevokeReason::Sender,
            at: NOW,
            replacement: None,
        }
    }

    #[test]
    fn a_view_opens_once_and_a_second_device_is_new() {
        TestFramework::<ShareLink>::with(())
            .given_no_previous_events()
            .when(open("v1", "d1", None))
            .then_expect_events(vec![opened("v1", "d1", true)]);
        TestFramework::<ShareLink>::with(())
            .given(vec![opened("v1", "d1", true)])
            .when(open("v1", "d1", None))
            .then_expect_events(vec![]);
        TestFramework::<ShareLink>::with(())
            .given(vec![opened("v1", "d1", true)])
            .when(open("v2", "d1", None))
            .then_expect_events(vec![opened("v2", "d1", false)]);
        TestFramework::<ShareLink>::with(())
            .given(vec![opened("v1", "d1", true)])
            .when(open("v2", "d2", None))
            .then_expect_events(vec![opened("v2", "d2", true)]);
    }

    #[test]
    fn an_open_limit_refuses_new_views_but_not_counted_ones() {
        TestFramework::<ShareLink>::with(())
            .given(vec![opened("v1", "d1", true)])
            .when(open("v2", "d1", Some(1)))
            .then_expect_error(ShareError::UsedUp);
        TestFramework::<ShareLink>::with(())
            .given(vec![opened("v1", "d1", true)])
            .when(open("v1", "d1", Some(1)))
            .then_expect_events(vec![]);
    }

    #[test]
    fn revoked_and_expired_links_refuse_everything() {
        TestFramework::<ShareLink>::with(())
            .given(vec![opened("v1", "d1", true), revoked()])
            .when(pages("v1", 1))
            .then_expect_error(ShareError::Revoked);
        TestFramework::<ShareLink>::with(())
            .given(vec![ShareEvent::LinkRevoked {
                by: "system".into(),
                reason: RevokeReason::DocumentEnded,
                at: NOW,
                replacement: None,
            }])
            .when(open("v1", "d1", None))
            .then_expect_error(ShareError::Ended);
        TestFramework::<ShareLink>::with(())
            .given_no_previous_events()
            .when(ShareCommand::Open {
                view: "v1".into(),
                client: client("d1"),
                at: NOW + 10_000,
                terms: terms(None, true),
            })
            .then_expect_error(ShareError::Expired);
        TestFramework::<ShareLink>::with(())
            .given(vec![ShareEvent::LinkExpired { at: NOW }])
            .when(open("v1", "d1", None))
            .then_expect_error(ShareError::Expired);
    }

    #[test]
    fn beacons_are_idempotent_per_view_and_number() {
        TestFramework::<ShareLink>::with(())
            .given(vec![opened("v1", "d1", true)])
            .when(pages("v1", 1))
            .then_expect_events(vec![viewed("v1", 1)]);
        TestFramework::<ShareLink>::with(())
            .given(vec![opened("v1", "d1", true), viewed("v1", 1)])
            .when(pages("v1", 1))
            .then_expect_events(vec![]);
        TestFramework::<ShareLink>::with(())
            .given(vec![opened("v1", "d1", true)])
            .when(pages("v9", 1))
            .then_expect_error(ShareError::UnknownView);
        TestFramework::<ShareLink>::with(())
            .given(vec![opened("v1", "d1", true)])
            .when(ShareCommand::ReportPages {
                view: "v1".into(),
                seq: 2,
                pages: vec![PageDwell {
                    page: 0,
                    seconds: 1.0,
                }],
                at: NOW,
                terms: terms(None, true),
            })
            .then_expect_error(ShareError::BadPages);
    }

    #[test]
    fn beacons_are_bounded_per_day() {
        let mut given = vec![opened("v1", "d1", true)];
        given.extend((0..u64::from(BEACONS_PER_LINK_PER_DAY)).map(|seq| viewed("v1", seq + 10)));
        TestFramework::<ShareLink>::with(())
            .given(given)
            .when(pages("v1", 1))
            .then_expect_error(ShareError::TooManyBeacons);
    }

    #[test]
    fn downloads_need_permission_and_count_as_an_open_for_a_new_view() {
        TestFramework::<ShareLink>::with(())
            .given_no_previous_events()
            .when(ShareCommand::Download {
                view: "v1".into(),
                client: client("d1"),
                at: NOW,
                terms: terms(None, false),
            })
            .then_expect_error(ShareError::ViewOnly);
        TestFramework::<ShareLink>::with(())
            .given_no_previous_events()
            .when(ShareCommand::Download {
                view: "v1".into(),
                client: client("d1"),
                at: NOW,
                terms: terms(None, true),
            })
            .then_expect_events(vec![
                opened("v1", "d1", true),
                ShareEvent::LinkDownloaded {
                    view: "v1".into(),
                    device_class: DeviceClass::Phone,
                    at: NOW,
                },
            ]);
    }

    #[test]
    fn revocation_and_expiry_are_recorded_once() {
        TestFramework::<ShareLink>::with(())
            .given(vec![revoked()])
            .when(ShareCommand::Revoke {
                by: "u".into(),
                reason: RevokeReason::Admin,
                at: NOW,
                replacement: None,
            })
            .then_expect_events(vec![]);
        TestFramework::<ShareLink>::with(())
            .given_no_previous_events()
            .when(ShareCommand::Expire {
                at: NOW,
                terms: terms(None, true),
            })
            .then_expect_events(vec![]);
        TestFramework::<ShareLink>::with(())
            .given_no_previous_events()
            .when(ShareCommand::Expire {
                at: NOW + 10_000,
                terms: terms(None, true),
            })
            .then_expect_events(vec![ShareEvent::LinkExpired { at: NOW + 10_000 }]);
        TestFramework::<ShareLink>::with(())
            .given(vec![ShareEvent::LinkExpired { at: NOW }])
            .when(ShareCommand::Expire {
                at: NOW + 20_000,
                terms: terms(None, true),
            })
            .then_expect_events(vec![]);
    }

    #[test]
    fn device_classes_come_from_the_user_agent() {
        let iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148";
        let ipad = "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X)";
        let android_tab = "Mozilla/5.0 (Linux; Android 14; SM-X700)";
        let android_phone = "Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile Safari/537.36";
        let desktop = "Mozilla/5.0 (Windows NT 10.0; Win64; x64)";
        assert_eq!(DeviceClass::of(iphone), DeviceClass::Phone);
        assert_eq!(DeviceClass::of(ipad), DeviceClass::Tablet);
        assert_eq!(DeviceClass::of(android_tab), DeviceClass::Tablet);
        assert_eq!(DeviceClass::of(android_phone), DeviceClass::Phone);
        assert_eq!(DeviceClass::of(desktop), DeviceClass::Desktop);
        assert_eq!(DeviceClass::of("curl/8.0"), DeviceClass::Other);
    }
}
