//! The aggregates a command store loaded or committed last, kept between commands: a command on
//! one of them reads nothing from the database before it decides.
//!
//! Stored events never change, so an entry is either what the store holds or behind it (another
//! node, or a tool, appended since). Nothing decided on an entry that is behind is kept:
//! - a command that records events appends them at the sequence after the entry's, which is then
//!   taken, so the append loses, and the command runs again on what the database holds (as any
//!   command that loses a race does, see [`super::EventStore::execute`]);
//! - a command that is refused, or that records nothing, on an entry runs again on what the
//!   database holds before it is answered.
//!
//! A command takes its aggregate's entry out while it runs and puts the aggregate back, with its
//! new events, once they are stored; an entry is never replaced by an older one. The entries are
//! bounded by the size of their JSON text.

use std::sync::Mutex;

use cqrs_es::persist::{SerializedEvent, SerializedSnapshot};
use lru::LruCache;

/// The JSON text a store's entries hold at most, all together.
pub const BUDGET_BYTES: usize = 4 << 20;
/// One entry's share of the budget at most: a bigger aggregate is read each time.
const ENTRY_MAX_BYTES: usize = BUDGET_BYTES / 64;

/// An aggregate as cqrs-es loads it: its snapshot (if any) and the events after it.
pub struct Loaded {
    pub snapshot: Option<SerializedSnapshot>,
    pub events: Vec<SerializedEvent>,
    /// The size of its JSON text.
    pub bytes: usize,
}

impl Loaded {
    /// An aggregate with no events. It counts as some bytes, so that entries made for commands
    /// that never ran stay within the budget.
    pub fn new_aggregate(id: &str) -> Loaded {
        Loaded {
            snapshot: None,
            events: Vec::new(),
            bytes: id.len() + 64,
        }
    }

    /// The sequence of its last event.
    pub fn sequence(&self) -> usize {
        self.events
            .last()
            .map(|e| e.sequence)
            .or_else(|| self.snapshot.as_ref().map(|s| s.current_sequence))
            .unwrap_or(0)
    }

    /// A copy of its snapshot, for cqrs-es (the type has no `Clone`).
    pub fn snapshot_copy(&self) -> Option<SerializedSnapshot> {
        self.snapshot.as_ref().map(|s| SerializedSnapshot {
            aggregate_id: s.aggregate_id.clone(),
            aggregate: s.aggregate.clone(),
            current_sequence: s.current_sequence,
            current_snapshot: s.current_snapshot,
        })
    }

    /// Adds events just stored after it.
    pub fn extend(&mut self, stored: &[SerializedEvent]) {
        for event in stored {
            self.bytes += event.payload.to_string().len() + event.metadata.to_string().len();
            self.events.push(event.clone());
        }
    }
}

struct Entries {
    lru: LruCache<String, Loaded>,
    bytes: usize,
}

pub struct Recent {
    entries: Mutex<Entries>,
}

impl Default for Recent {
    fn default() -> Self {
        Self {
            entries: Mutex::new(Entries {
                lru: LruCache::unbounded(),
                bytes: 0,
            }),
        }
    }
}

impl Recent {
    fn lock(&self) -> std::sync::MutexGuard<'_, Entries> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes aggregate `id`'s entry out, if there is one.
    pub fn take(&self, id: &str) -> Option<Loaded> {
        let mut entries = self.lock();
        let loaded = entries.lru.pop(id)?;
        entries.bytes -= loaded.bytes;
        Some(loaded)
    }

    /// Keeps `loaded` as aggregate `id`'s entry, unless the entry there is as recent or the
    /// aggregate is too big; the least recently used entries make room for it.
    pub fn keep(&self, id: &str, loaded: Loaded) {
        if loaded.bytes > ENTRY_MAX_BYTES {
            return;
        }
        let mut entries = self.lock();
        if let Some(there) = entries.lru.peek(id) {
            if there.sequence() >= loaded.sequence() {
                return;
            }
        }
        let added = loaded.bytes;
        if let Some(old) = entries.lru.put(id.to_string(), loaded) {
            entries.bytes -= old.bytes;
        }
        entries.bytes += added;
        while entries.bytes > BUDGET_BYTES {
            match entries.lru.pop_lru() {
                Some((_, old)) => entries.bytes -= old.bytes,
                None => break,
            }
        }
    }

    /// Drops aggregate `id`'s entry.
    pub fn forget(&self, id: &str) {
        self.take(id);
    }

    /// Entries and their bytes.
    #[cfg(test)]
    pub fn size(&self) -> (usize, usize) {
        let entries = self.lock();
        (entries.lru.len(), entries.bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn event(sequence: usize, filler: usize) -> SerializedEvent {
        SerializedEvent::new(
            "a".into(),
            sequence,
            "Item".into(),
            "Renamed".into(),
            "1".into(),
            json!({ "name": "x".repeat(filler) }),
            json!({}),
        )
    }

    fn loaded(sequences: std::ops::RangeInclusive<usize>, filler: usize) -> Loaded {
        let mut loaded = Loaded {
            snapshot: None,
            events: Vec::new(),
            bytes: 0,
        };
        let events: Vec<_> = sequences.map(|s| event(s, filler)).collect();
        loaded.extend(&events);
        loaded
    }

    #[test]
    fn an_entry_is_never_replaced_by_an_older_one() {
        let recent = Recent::default();
        recent.keep("a", loaded(1..=3, 10));
        recent.keep("a", loaded(1..=2, 10));
        assert_eq!(recent.take("a").map(|l| l.sequence()), Some(3));
        assert!(recent.take("a").is_none(), "taking an entry leaves none");
        recent.keep("a", loaded(1..=2, 10));
        recent.keep("a", loaded(1..=4, 10));
        assert_eq!(recent.take("a").map(|l| l.sequence()), Some(4));
    }

    #[test]
    fn the_entries_stay_within_the_budget_and_the_least_recently_used_go_first() {
        let recent = Recent::default();
        let one = loaded(1..=1, ENTRY_MAX_BYTES - 100).bytes;
        let fit = BUDGET_BYTES / one;
        for i in 0..fit + 10 {
            recent.keep(&format!("item-{i}"), loaded(1..=1, ENTRY_MAX_BYTES - 100));
        }
        let (count, bytes) = recent.size();
        assert_eq!(count, fit);
        assert!(bytes <= BUDGET_BYTES);
        assert!(recent.take("item-0").is_none(), "the oldest went first");
        assert!(recent.take(&format!("item-{}", fit + 9)).is_some());
        assert_eq!(
            recent.size().1,
            bytes - one,
            "taking an entry frees its bytes"
        );
    }

    #[test]
    fn an_aggregate_too_big_is_not_kept() {
        let recent = Recent::default();
        recent.keep("a", loaded(1..=1, ENTRY_MAX_BYTES + 1));
        assert_eq!(recent.size(), (0, 0));
        recent.forget("a");
    }
}
