//! The company's reference content (products, components, news, contacts, congresses, ...) as
//! events: one stream per entity of the content folder, aggregate type `content_entity`, id
//! `"{kind}:{key}"` ([`ContentEntity::aggregate_id`]).
//!
//! `companion content import` sends one [`ContentCommand::Record`] per entity the folder holds
//! and one [`ContentCommand::Remove`] per recorded entity it no longer holds. The aggregate
//! compares the folder's value with what is recorded, so a re-import of an unchanged folder
//! records nothing, and a change records only the fields that changed.

use cqrs_es::{Aggregate, DomainEvent};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// An entity's value: its fields by name (the columns of its table row).
pub type Fields = Map<String, Value>;

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub enum ContentCommand {
    /// The folder holds this entity with this value.
    Record {
        kind: String,
        key: String,
        value: Fields,
        /// Who imported it: `operator:<name>`.
        by: String,
    },
    /// The folder no longer holds this entity.
    Remove { by: String },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ContentEvent {
    Created {
        kind: String,
        key: String,
        value: Fields,
        by: String,
    },
    /// Only the fields that changed, with their new value (`null` for a field that is gone).
    Changed {
        fields: Fields,
        by: String,
    },
    Removed {
        by: String,
    },
}

impl DomainEvent for ContentEvent {
    fn event_type(&self) -> String {
        match self {
            ContentEvent::Created { .. } => "Created",
            ContentEvent::Changed { .. } => "Changed",
            ContentEvent::Removed { .. } => "Removed",
        }
        .to_string()
    }

    fn event_version(&self) -> String {
        "1.0".to_string()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ContentError {
    #[error("The entity's kind and key must not be empty")]
    NoKey,
    #[error("This stream holds {recorded}, not {given}")]
    WrongEntity { recorded: String, given: String },
}

/// One entity of the content folder as recorded.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ContentEntity {
    pub kind: String,
    pub key: String,
    /// `None` before it was created and after it was removed.
    pub value: Option<Fields>,
}

impl ContentEntity {
    pub const TYPE: &'static str = "content_entity";

    pub fn aggregate_id(kind: &str, key: &str) -> String {
        format!("{kind}:{key}")
    }

    /// The fields of `new` whose value differs from `old`; fields `old` had and `new` has not
    /// become `null`.
    pub fn changed_fields(old: &Fields, new: &Fields) -> Fields {
        let mut fields: Fields = new
            .iter()
            .filter(|(k, v)| old.get(*k) != Some(*v))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        for k in old.keys().filter(|k| !new.contains_key(*k)) {
            if old.get(k) != Some(&Value::Null) {
                fields.insert(k.clone(), Value::Null);
            }
        }
        fields
    }

    /// The decision for one command, without I/O: the events it records.
    pub fn decide(&self, command: ContentCommand) -> Result<Vec<ContentEvent>, ContentError> {
        match command {
            ContentCommand::Record {
                kind,
                key,
                value,
                by,
            } => {
                if kind.trim().is_empty() || key.trim().is_empty() {
                    return Err(ContentError::NoKey);
                }
                if !self.kind.is_empty() && (self.kind != kind || self.key != key) {
                    return Err(ContentError::WrongEntity {
                        recorded: Self::aggregate_id(&self.kind, &self.key),
                        given: Self::aggregate_id(&kind, &key),
                    });
                }
                Ok(match &self.value {
                    None => vec![ContentEvent::Created {
                        kind,
                        key,
                        value,
                        by,
                    }],
                    Some(old) => {
                        let fields = Self::changed_fields(old, &value);
                        if fields.is_empty() {
                            vec![]
                        } else {
                            vec![ContentEvent::Changed { fields, by }]
                        }
                    }
                })
            }
            // Removing what is not there records nothing.
            ContentCommand::Remove { by } => Ok(match self.value {
                Some(_) => vec![ContentEvent::Removed { by }],
                None => vec![],
            }),
        }
    }
}

impl Aggregate for ContentEntity {
    const TYPE: &'static str = ContentEntity::TYPE;
    type Command = ContentCommand;
    type Event = ContentEvent;
    type Error = ContentError;
    type Services = ();

    async fn handle(
        &mut self,
        command: Self::Command,
        _services: &Self::Services,
        sink: &cqrs_es::event_sink::EventSink<Self>,
    ) -> Result<(), Self::Error> {
        for event in self.decide(command)? {
            sink.write(event, self).await;
        }
        Ok(())
    }

    fn apply(&mut self, event: Self::Event) {
        match event {
            ContentEvent::Created {
                kind, key, value, ..
            } => {
                self.kind = kind;
                self.key = key;
                self.value = Some(value);
            }
            ContentEvent::Changed { fields, .. } => {
                let value = self.value.get_or_insert_with(Fields::new);
                for (k, v) in fields {
                    if v.is_null() {
                        value.remove(&k);
                    } else {
                        value.insert(k, v);
                    }
                }
            }
            ContentEvent::Removed { .. } => self.value = None,
        }
    }
}

#[cfg(test)]
mod tests {
    use cqrs_es::test::TestFramework;
    use serde_json::json;

    use super::*;

    fn fields(v: Value) -> Fields {
        v.as_object().cloned().unwrap_or_default()
    }

    fn record(value: Value) -> ContentCommand {
        ContentCommand::Record {
            kind: "products".into(),
            key: "7".into(),
            value: fields(value),
            by: "operator:ops".into(),
        }
    }

    fn created(value: Value) -> ContentEvent {
        ContentEvent::Created {
            kind: "products".into(),
            key: "7".into(),
            value: fields(value),
            by: "operator:ops".into(),
        }
    }

    #[test]
    fn a_new_entity_is_created_with_its_whole_value() {
        TestFramework::<ContentEntity>::with(())
            .given_no_previous_events()
            .when(record(json!({"id": 7, "name": "Knee"})))
            .then_expect_events(vec![created(json!({"id": 7, "name": "Knee"}))]);
    }

    #[test]
    fn the_same_value_again_records_nothing() {
        TestFramework::<ContentEntity>::with(())
            .given(vec![created(json!({"id": 7, "name": "Knee"}))])
            .when(record(json!({"id": 7, "name": "Knee"})))
            .then_expect_events(vec![]);
    }

    #[test]
    fn a_change_records_only_the_changed_fields() {
        TestFramework::<ContentEntity>::with(())
            .given(vec![created(json!({"id": 7, "name": "Knee", "size": 3}))])
            .when(record(json!({"id": 7, "name": "Hip"})))
            .then_expect_events(vec![ContentEvent::Changed {
                fields: fields(json!({"name": "Hip", "size": null})),
                by: "operator:ops".into(),
            }]);
    }

    #[test]
    fn removal_is_recorded_once_and_a_removed_entity_comes_back_created() {
        let by = || "operator:ops".to_string();
        TestFramework::<ContentEntity>::with(())
            .given(vec![created(json!({"id": 7}))])
            .when(ContentCommand::Remove { by: by() })
            .then_expect_events(vec![ContentEvent::Removed { by: by() }]);
        TestFramework::<ContentEntity>::with(())
            .given(vec![
                created(json!({"id": 7})),
                ContentEvent::Removed { by: by() },
            ])
            .when(ContentCommand::Remove { by: by() })
            .then_expect_events(vec![]);
        TestFramework::<ContentEntity>::with(())
            .given(vec![
                created(json!({"id": 7})),
                ContentEvent::Removed { by: by() },
            ])
            .when(record(json!({"id": 7})))
            .then_expect_events(vec![created(json!({"id": 7}))]);
    }

    #[test]
    fn a_stream_holds_one_entity() {
        TestFramework::<ContentEntity>::with(())
            .given(vec![created(json!({"id": 7}))])
            .when(ContentCommand::Record {
                kind: "news".into(),
                key: "7".into(),
                value: Fields::new(),
                by: "operator:ops".into(),
            })
            .then_expect_error(ContentError::WrongEntity {
                recorded: "products:7".into(),
                given: "news:7".into(),
            });
    }
}
