//! Identifiers as the keys of a batch's maps.

use std::borrow::Borrow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;

use arrayvec::ArrayString;

/// Bytes an identifier may take to be held inline: a UUID's 36 characters, with room.
const INLINE: usize = 40;

/// An identifier as a map's key (an item's, a user's). Up to 40 bytes, every id a UUID gives,
/// it is held in the map's own memory: a look-up compares it where it found the entry, where a
/// `String` key sent it to the text elsewhere in memory, a cache miss on maps of hundreds of
/// thousands of entries (those comparisons were a sixth of a rebuild's applying thread). Longer
/// ones are kept on the heap. It hashes, compares and borrows as its text, so a map keyed by it
/// is looked up by `&str`, and making one from a short id allocates nothing.
#[derive(Clone)]
pub enum Key {
    Inline(ArrayString<INLINE>),
    Heap(Box<str>),
}

impl Key {
    pub fn as_str(&self) -> &str {
        match self {
            Key::Inline(s) => s.as_str(),
            Key::Heap(s) => s,
        }
    }
}

impl From<&str> for Key {
    fn from(id: &str) -> Self {
        match ArrayString::from(id) {
            Ok(inline) => Key::Inline(inline),
            Err(_) => Key::Heap(id.into()),
        }
    }
}

impl From<&String> for Key {
    fn from(id: &String) -> Self {
        Key::from(id.as_str())
    }
}

impl From<String> for Key {
    fn from(id: String) -> Self {
        if id.len() <= INLINE {
            Key::from(id.as_str())
        } else {
            Key::Heap(id.into_boxed_str())
        }
    }
}

impl From<&Key> for String {
    fn from(key: &Key) -> Self {
        key.as_str().to_string()
    }
}

impl Deref for Key {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for Key {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Key {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for Key {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Key {}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Key {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

/// As `str` hashes: a map keyed by `Key` finds an entry by the `&str` it was made from.
impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use std::hash::BuildHasher;

    use super::*;

    #[test]
    fn a_key_is_found_by_its_text_whether_inline_or_not() {
        let uuid = "00006ecb-3dea-48fe-81e3-85c5c75f6c1b";
        let long = "a".repeat(INLINE + 1);
        assert!(matches!(Key::from(uuid), Key::Inline(_)));
        assert!(matches!(Key::from(&long[..INLINE]), Key::Inline(_)));
        assert!(matches!(Key::from(long.as_str()), Key::Heap(_)));
        assert!(matches!(Key::from(long.clone()), Key::Heap(_)));
        let mut map: hashbrown::HashMap<Key, usize> = hashbrown::HashMap::new();
        for (n, id) in [uuid, long.as_str(), "", "é"].into_iter().enumerate() {
            map.insert(Key::from(id), n);
        }
        assert_eq!(map.get(uuid), Some(&0));
        assert_eq!(map.get(long.as_str()), Some(&1));
        assert_eq!(map.get(""), Some(&2));
        assert_eq!(map.get("é"), Some(&3));
        assert_eq!(map.get(&long[..INLINE]), None);
        // Hashed as its text, inline or not.
        let hasher = map.hasher();
        for id in [uuid, long.as_str()] {
            assert_eq!(hasher.hash_one(Key::from(id)), hasher.hash_one(id));
        }
        assert_eq!(
            Key::from("b").cmp(&Key::from(long.as_str())),
            "b".cmp(&long)
        );
        assert_eq!(Key::from(long.as_str()).as_str(), long);
    }
}
