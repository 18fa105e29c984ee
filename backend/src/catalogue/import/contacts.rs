//! `contacts/contacts.json` (the directory's tabs and entries) and `contacts/subsidiaries.json`
//! (each entry's detail, by entry id).

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

use serde::Deserialize;

use super::check::{json, non_empty, not_blank};
use crate::catalogue::contacts::{ContactSection, Subsidiary, Voice};
use crate::content_folder::file::{ContentError, ContentFile};
use crate::content_folder::tables::TableRows;
use crate::html::sanitize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SectionIn {
    tab: String,
    voices: Vec<VoiceIn>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VoiceIn {
    id: i64,
    title: String,
    subtitle: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SubsidiaryIn {
    title: String,
    address: Option<String>,
    phone: Option<String>,
    fax: Option<String>,
    email: Option<String>,
}

pub(super) fn read(dir: &Path) -> Result<(TableRows, TableRows), ContentError> {
    let fcs = ContentFile::new(dir, "contacts/contacts.json");
    let sections: Vec<SectionIn> = fcs.read()?;
    let fsub = ContentFile::new(dir, "contacts/subsidiaries.json");
    let subsidiaries: BTreeMap<String, SubsidiaryIn> = fsub.read()?;
    let mut voice_ids = HashSet::new();
    let mut tsec = TableRows::new("contact_sections", &["id", "position", "data"]);
    for (i, s) in sections.iter().enumerate() {
        not_blank(&fcs, format!("[{i}].tab"), &s.tab)?;
        for (j, v) in s.voices.iter().enumerate() {
            if !voice_ids.insert(v.id) {
                return Err(fcs.invalid(
                    format!("[{i}].voices[{j}].id"),
                    format!("duplicate id {}", v.id),
                ));
            }
            if !subsidiaries.contains_key(&v.id.to_string()) {
                return Err(fcs.invalid(
                    format!("[{i}].voices[{j}].id"),
                    format!("entry {} has no detail in contacts/subsidiaries.json", v.id),
                ));
            }
        }
        let section = ContactSection {
            tab: s.tab.clone(),
            voices: s
                .voices
                .iter()
                .map(|v| Voice {
                    id: v.id,
                    title: v.title.clone(),
                    subtitle: v.subtitle.clone(),
                })
                .collect(),
        };
        tsec.push(vec![
            (i as i64 + 1).into(),
            (i as i64).into(),
            json(&section).into(),
        ]);
    }
    let mut tsub = TableRows::new("contact_subsidiaries", &["id", "data"]);
    for (key, s) in &subsidiaries {
        let id: i64 = key
            .parse()
            .ok()
            .filter(|id| voice_ids.contains(id))
            .ok_or_else(|| {
                fsub.invalid(
                    key.as_str(),
                    format!("'{key}' is not an entry id of contacts/contacts.json"),
                )
            })?;
        not_blank(&fsub, format!("{key}.title"), &s.title)?;
        let detail = Subsidiary {
            id,
            title: s.title.clone(),
            address: non_empty(s.address.clone())
                .map(|a| sanitize(&a))
                .filter(|a| !a.is_empty()),
            phone: non_empty(s.phone.clone()),
            fax: non_empty(s.fax.clone()),
            email: non_empty(s.email.clone()),
        };
        tsub.push(vec![id.into(), json(&detail).into()]);
    }
    Ok((tsec, tsub))
}

#[cfg(test)]
mod tests {
    use super::super::check::TestContent;
    use super::*;

    fn refusal(contacts: &str, subsidiaries: &str) -> String {
        let content = TestContent::new();
        content
            .write("contacts/contacts.json", contacts)
            .write("contacts/subsidiaries.json", subsidiaries);
        content.refusal(read(content.dir()).err().expect("refused"))
    }

    const TAB: &str =
        r#"[{"tab": "Italy", "voices": [{"id": 5, "title": "Milan", "subtitle": ""}]}]"#;

    #[test]
    fn every_entry_needs_its_detail_and_every_detail_its_entry() {
        assert_eq!(
            refusal(TAB, "{}"),
            "contacts/contacts.json: contacts[0].voices[0].id: entry 5 has no detail in contacts/subsidiaries.json"
        );
        assert_eq!(
            refusal(TAB, r#"{"5": {"title": "Milan"}, "6": {"title": "Rome"}}"#),
            "contacts/subsidiaries.json: subsidiaries.6: '6' is not an entry id of contacts/contacts.json"
        );
        assert_eq!(
            refusal(TAB, r#"{"5": {"title": " "}}"#),
            "contacts/subsidiaries.json: subsidiaries.5.title: must not be empty"
        );
    }

    #[test]
    fn a_duplicate_entry_is_refused() {
        let twice = r#"[{"tab": "Italy", "voices": [{"id": 5, "title": "Milan", "subtitle": ""},
                                                   {"id": 5, "title": "Rome", "subtitle": ""}]}]"#;
        assert_eq!(
            refusal(twice, r#"{"5": {"title": "Milan"}}"#),
            "contacts/contacts.json: contacts[0].voices[1].id: duplicate id 5"
        );
    }
}
