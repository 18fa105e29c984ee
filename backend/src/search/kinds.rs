//! The types of result, in the order the answer lists them.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Products,
    Components,
    News,
    Congresses,
    Activities,
    Training,
    /// Medical-education courses (their screens live under /learn).
    Learn,
    Contacts,
    Links,
    /// Library documents every rep may open (catalogue documents).
    Library,
    Documents,
}

impl Kind {
    pub const ALL: [Kind; 11] = [
        Kind::Products,
        Kind::Components,
        Kind::News,
        Kind::Congresses,
        Kind::Activities,
        Kind::Training,
        Kind::Learn,
        Kind::Contacts,
        Kind::Links,
        Kind::Library,
        Kind::Documents,
    ];

    /// Reference content, reloaded as a whole at import (documents follow their events).
    pub const CONTENT: [Kind; 9] = [
        Kind::Products,
        Kind::Components,
        Kind::News,
        Kind::Congresses,
        Kind::Activities,
        Kind::Training,
        Kind::Learn,
        Kind::Contacts,
        Kind::Links,
    ];

    /// The key of the group in the answer.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Products => "products",
            Kind::Components => "components",
            Kind::News => "news",
            Kind::Congresses => "congresses",
            Kind::Activities => "activities",
            Kind::Training => "training",
            Kind::Learn => "learn",
            Kind::Contacts => "contacts",
            Kind::Links => "links",
            Kind::Library => "library",
            Kind::Documents => "documents",
        }
    }

    /// The number stored in the index's `kind` field.
    pub fn code(self) -> u64 {
        Kind::ALL
            .iter()
            .position(|k| *k == self)
            .map_or(u64::MAX, |p| p as u64)
    }
}
