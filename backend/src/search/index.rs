//! The search index: one in-memory tantivy index over everything the app can find.
//!
//! Every entry has a type (`kind`), the fields the results show (stored), the words it is found
//! by (`name`, weighted, and `body`) and who may see it (`acl`): `public` for reference content,
//! and for documents `owner:{user}`, `us` and `node:{id}` for the item and each folder above it.
//! A query for a user keeps only entries whose `acl` holds one of that user's keys, so a search
//! can never return another user's document; the API checks each document again against the
//! documents read model before answering.

use std::sync::Mutex;

use tantivy::collector::Count;
use tantivy::query::TermQuery;
use tantivy::schema::{
    Field, IndexRecordOption, Schema, TextFieldIndexing, TextOptions, Value, FAST, INDEXED, STORED,
    STRING,
};
use tantivy::tokenizer::{
    AsciiFoldingFilter, LowerCaser, RemoveLongFilter, SimpleTokenizer, TextAnalyzer,
};
use tantivy::{
    Index, IndexReader, IndexWriter, ReloadPolicy, Score, Searcher, TantivyDocument, Term,
};

use super::kinds::Kind;
use super::query;

/// The tokenizer of every text field: words, lower case, accents folded ("Épaule" = "epaule").
const ANALYZER: &str = "folded";
/// Words longer than this are not indexed (codes, URLs glued together).
const MAX_WORD: usize = 40;
/// A query uses at most this many words and characters; the rest is ignored.
pub const MAX_QUERY_WORDS: usize = 8;
pub const MAX_QUERY_CHARS: usize = 200;
/// Memory of the index writer (tantivy's minimum is 15 MB per thread).
const WRITER_MEMORY: usize = 32 * 1024 * 1024;

/// The `acl` key of everything public.
pub const PUBLIC: &str = "public";

/// One thing that can be found.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub kind: Kind,
    pub id: String,
    pub name: String,
    pub subtitle: Option<String>,
    pub preview: Option<String>,
    /// yyyy-mm-dd
    pub date: Option<String>,
    /// Further words it is found by (descriptions, codes, places).
    pub body: String,
    /// Who may see it (see the module comment).
    pub acl: Vec<String>,
}

impl Entry {
    /// The unique key of the entry in the index.
    pub fn key(&self) -> String {
        entry_key(self.kind, &self.id)
    }
}

pub fn entry_key(kind: Kind, id: &str) -> String {
    format!("{}:{id}", kind.as_str())
}

/// One result: what the API shows, and its score.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub kind: Kind,
    pub id: String,
    pub name: String,
    pub subtitle: Option<String>,
    pub preview: Option<String>,
    pub date: Option<String>,
    pub score: Score,
}

#[derive(Debug, thiserror::Error)]
#[error("search index: {0}")]
pub struct IndexError(#[from] tantivy::TantivyError);

#[derive(Clone, Copy)]
struct Fields {
    key: Field,
    kind: Field,
    id: Field,
    name: Field,
    subtitle: Field,
    preview: Field,
    date: Field,
    body: Field,
    acl: Field,
    /// `{kind}|{acl key}` (see [`query::kind_acl_key`]): one type's entries a key may see.
    kind_acl: Field,
}

pub struct SearchIndex {
    reader: IndexReader,
    writer: Mutex<IndexWriter>,
    fields: Fields,
    analyzer: TextAnalyzer,
}

fn analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(MAX_WORD))
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .build()
}

impl SearchIndex {
    pub fn new() -> Result<SearchIndex, IndexError> {
        let mut schema = Schema::builder();
        let words = |stored: bool| {
            let options = TextOptions::default().set_indexing_options(
                TextFieldIndexing::default()
                    .set_tokenizer(ANALYZER)
                    .set_index_option(IndexRecordOption::WithFreqs),
            );
            if stored {
                options.set_stored()
            } else {
                options
            }
        };
        let fields = Fields {
            key: schema.add_text_field("key", STRING | STORED),
            kind: schema.add_u64_field("kind", INDEXED | FAST | STORED),
            id: schema.add_text_field("id", STORED),
            name: schema.add_text_field("name", words(true)),
            subtitle: schema.add_text_field("subtitle", STORED),
            preview: schema.add_text_field("preview", STORED),
            date: schema.add_text_field("date", STORED),
            body: schema.add_text_field("body", words(false)),
            acl: schema.add_text_field("acl", STRING),
            kind_acl: schema.add_text_field("kind_acl", STRING),
        };
        let index = Index::create_in_ram(schema.build());
        index.tokenizers().register(ANALYZER, analyzer());
        let writer = index.writer_with_num_threads(1, WRITER_MEMORY)?;
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()?;
        Ok(SearchIndex {
            reader,
            writer: Mutex::new(writer),
            fields,
            analyzer: analyzer(),
        })
    }

    fn document(&self, entry: &Entry) -> TantivyDocument {
        let f = self.fields;
        let mut doc = TantivyDocument::default();
        doc.add_text(f.key, entry.key());
        doc.add_u64(f.kind, entry.kind.code());
        doc.add_text(f.id, &entry.id);
        doc.add_text(f.name, &entry.name);
        if let Some(subtitle) = &entry.subtitle {
            doc.add_text(f.subtitle, subtitle);
        }
        if let Some(preview) = &entry.preview {
            doc.add_text(f.preview, preview);
        }
        if let Some(date) = &entry.date {
            doc.add_text(f.date, date);
        }
        // The subtitle is found like the body.
        doc.add_text(f.body, entry.subtitle.as_deref().unwrap_or_default());
        doc.add_text(f.body, &entry.body);
        for key in &entry.acl {
            doc.add_text(f.acl, key);
            doc.add_text(f.kind_acl, query::kind_acl_key(entry.kind, key));
        }
        doc
    }

    /// Applies `change` to the index as one commit, then makes it visible to searches.
    pub fn update(&self, change: IndexChange) -> Result<(), IndexError> {
        let f = self.fields;
        {
            let mut writer = self
                .writer
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            if let Some(kinds) = &change.replace_kinds {
                for kind in kinds {
                    writer.delete_term(Term::from_field_u64(f.kind, kind.code()));
                }
            }
            for key in &change.delete_keys {
                writer.delete_term(Term::from_field_text(f.key, key));
            }
            for acl in &change.delete_acl {
                writer.delete_term(Term::from_field_text(f.acl, acl));
            }
            for entry in &change.upsert {
                writer.delete_term(Term::from_field_text(f.key, &entry.key()));
                writer.add_document(self.document(entry))?;
            }
            writer.commit()?;
        }
        self.reader.reload()?;
        Ok(())
    }

    /// The words of `text` as the index sees them.
    pub fn words(&self, text: &str) -> Vec<String> {
        let clipped: String = text.chars().take(MAX_QUERY_CHARS).collect();
        let mut analyzer = self.analyzer.clone();
        let mut stream = analyzer.token_stream(&clipped);
        let mut words = Vec::new();
        while let Some(token) = stream.next() {
            if !words.contains(&token.text) {
                words.push(token.text.clone());
            }
            if words.len() == MAX_QUERY_WORDS {
                break;
            }
        }
        words
    }

    /// The best `per_kind` hits of each type for `text`, among entries any of `acl` may see
    /// (every word found as a word, the start of one, or with one typo when it has at least
    /// five letters; whole words and words in the name rank higher: see [`query`]).
    pub fn search(
        &self,
        text: &str,
        acl: &[String],
        per_kind: usize,
    ) -> Result<Vec<Hit>, IndexError> {
        let words = self.words(text);
        if words.is_empty() || acl.is_empty() || per_kind == 0 {
            return Ok(Vec::new());
        }
        let f = self.fields;
        let searcher = self.reader.searcher();
        let fields = query::QueryFields {
            name: f.name,
            body: f.body,
            acl: f.acl,
            kind_acl: f.kind_acl,
        };
        let tops = query::top_per_kind(&searcher, fields, &words, acl, per_kind)?;
        self.hits(&searcher, tops)
    }

    /// The shown fields of each top entry: the only stored fields a search reads.
    fn hits(&self, searcher: &Searcher, tops: query::KindTops) -> Result<Vec<Hit>, IndexError> {
        let f = self.fields;
        let mut hits = Vec::new();
        for (kind, top) in Kind::ALL.iter().zip(tops) {
            for (score, address) in top {
                let doc: TantivyDocument = searcher.doc(address)?;
                let text = |field: Field| {
                    doc.get_first(field)
                        .and_then(|v| v.as_str())
                        .map(str::to_string)
                };
                hits.push(Hit {
                    kind: *kind,
                    id: text(f.id).unwrap_or_default(),
                    name: text(f.name).unwrap_or_default(),
                    subtitle: text(f.subtitle),
                    preview: text(f.preview),
                    date: text(f.date),
                    score,
                });
            }
        }
        Ok(hits)
    }

    /// Whether an entry with this key is indexed (one exact term: the cheapest query there is).
    pub fn lookup_key(&self, key: &str) -> Result<bool, IndexError> {
        let query = TermQuery::new(
            Term::from_field_text(self.fields.key, key),
            IndexRecordOption::Basic,
        );
        Ok(self.reader.searcher().search(&query, &Count)? > 0)
    }

    /// How many segments the index is in (each is searched on its own).
    pub fn segments(&self) -> Result<usize, IndexError> {
        Ok(self.reader.searcher().segment_readers().len())
    }

    /// How many entries the index holds.
    pub fn len(&self) -> u64 {
        self.reader.searcher().num_docs()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// What one commit changes.
#[derive(Debug, Default)]
pub struct IndexChange {
    /// Drop every entry of these types first (a full reload of them).
    pub replace_kinds: Option<Vec<Kind>>,
    /// Entries to drop by key.
    pub delete_keys: Vec<String>,
    /// Entries to drop by an `acl` key (`node:{id}` drops an item and everything below it).
    pub delete_acl: Vec<String>,
    /// Entries to add or replace (by key).
    pub upsert: Vec<Entry>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(kind: Kind, id: &str, name: &str, body: &str) -> Entry {
        Entry {
            kind,
            id: id.into(),
            name: name.into(),
            subtitle: None,
            preview: None,
            date: None,
            body: body.into(),
            acl: vec![PUBLIC.into()],
        }
    }

    fn ids(hits: &[Hit]) -> Vec<&str> {
        hits.iter().map(|h| h.id.as_str()).collect()
    }

    fn index() -> SearchIndex {
        let index = SearchIndex::new().expect("index");
        index
            .update(IndexChange {
                upsert: vec![
                    entry(
                        Kind::Products,
                        "1",
                        "Arcadia Anatomic Shoulder System",
                        "stemmed",
                    ),
                    entry(
                        Kind::Products,
                        "2",
                        "Knee planning guide",
                        "shoulder mentioned once",
                    ),
                    entry(Kind::News, "3", "Épaule inversée: nouveau cours", ""),
                ],
                ..IndexChange::default()
            })
            .expect("update");
        index
    }

    #[test]
    fn words_are_folded_clipped_and_deduplicated() {
        let index = SearchIndex::new().expect("index");
        assert_eq!(index.words("ÉPAULE épaule Knee"), vec!["epaule", "knee"]);
        assert_eq!(index.words("a b c d e f g h i j").len(), MAX_QUERY_WORDS);
        assert!(index.words("+-:(\")*~^").is_empty());
    }

    #[test]
    fn name_ranks_above_body_and_typos_and_prefixes_match() {
        let index = index();
        let public = [PUBLIC.to_string()];
        let hits = index.search("shoulder", &public, 10).expect("search");
        assert_eq!(ids(&hits), vec!["1", "2"]);
        assert_eq!(
            ids(&index.search("shuolder", &public, 10).unwrap()),
            vec!["1", "2"]
        );
        assert_eq!(ids(&index.search("arca", &public, 10).unwrap()), vec!["1"]);
        assert_eq!(
            ids(&index.search("epaule", &public, 10).unwrap()),
            vec!["3"]
        );
        // One typo only, and none in short words.
        assert!(index.search("shxxlder", &public, 10).unwrap().is_empty());
        assert!(index.search("knxe", &public, 10).unwrap().is_empty());
    }

    #[test]
    fn acl_hides_what_the_user_may_not_see() {
        let index = index();
        assert!(index
            .search("shoulder", &["owner:someone".to_string()], 10)
            .unwrap()
            .is_empty());
    }
}

/// The answer checked against scoring every match: the query as it was before the two passes
/// (fuzzy queries, a permission term set, one filtered top list per type).
#[cfg(test)]
mod exhaustive {
    use tantivy::collector::{FilterCollector, MultiCollector, TopDocs};
    use tantivy::query::{
        BooleanQuery, BoostQuery, ConstScoreQuery, DisjunctionMaxQuery, FuzzyTermQuery, Occur,
        Query, TermQuery, TermSetQuery,
    };
    use tantivy::schema::{IndexRecordOption, Value};
    use tantivy::{DocAddress, Score, TantivyDocument, Term};

    use super::{query, Kind, SearchIndex};

    fn text_query(index: &SearchIndex, words: &[String]) -> Box<dyn Query> {
        let f = index.fields;
        let clauses = words
            .iter()
            .map(|word| {
                let mut ways: Vec<Box<dyn Query>> = Vec::new();
                for (field, weight) in [(f.name, query::NAME_WEIGHT), (f.body, query::BODY_WEIGHT)]
                {
                    let term = Term::from_field_text(field, word);
                    let exact = TermQuery::new(term.clone(), IndexRecordOption::WithFreqs);
                    ways.push(Box::new(BoostQuery::new(Box::new(exact), weight)));
                    let prefix = FuzzyTermQuery::new_prefix(term.clone(), 0, true);
                    ways.push(Box::new(BoostQuery::new(Box::new(prefix), weight * 0.6)));
                    if word.chars().count() >= query::TYPO_MIN_LETTERS {
                        let typo = FuzzyTermQuery::new(term.clone(), 1, true);
                        ways.push(Box::new(BoostQuery::new(Box::new(typo), weight * 0.4)));
                        let typo_prefix = FuzzyTermQuery::new_prefix(term, 1, true);
                        ways.push(Box::new(BoostQuery::new(
                            Box::new(typo_prefix),
                            weight * 0.3,
                        )));
                    }
                }
                let word: Box<dyn Query> = Box::new(DisjunctionMaxQuery::with_tie_breaker(
                    ways,
                    query::TIE_BREAKER,
                ));
                (Occur::Must, word)
            })
            .collect();
        Box::new(BooleanQuery::new(clauses))
    }

    /// `(kind, id, score)` of the best `per_kind` entries of each type.
    pub fn search(
        index: &SearchIndex,
        text: &str,
        acl: &[String],
        per_kind: usize,
    ) -> Vec<(Kind, String, Score)> {
        let words = index.words(text);
        let f = index.fields;
        let visible = TermSetQuery::new(acl.iter().map(|key| Term::from_field_text(f.acl, key)));
        let query = BooleanQuery::new(vec![
            (Occur::Must, text_query(index, &words)),
            (
                Occur::Must,
                Box::new(ConstScoreQuery::new(Box::new(visible), 0.0)),
            ),
        ]);
        let searcher = index.reader.searcher();
        let mut collectors = MultiCollector::new();
        let handles: Vec<_> = Kind::ALL
            .iter()
            .map(|kind| {
                let code = kind.code();
                let top = TopDocs::with_limit(per_kind).order_by_score();
                let only_kind =
                    FilterCollector::new("kind".to_string(), move |k: u64| k == code, top);
                (*kind, collectors.add_collector(only_kind))
            })
            .collect();
        let mut fruits = searcher.search(&query, &collectors).expect("search");
        let mut hits = Vec::new();
        for (kind, handle) in handles {
            let top: Vec<(Score, DocAddress)> = handle.extract(&mut fruits);
            for (score, address) in top {
                let doc: TantivyDocument = searcher.doc(address).expect("doc");
                let id = doc
                    .get_first(f.id)
                    .and_then(|v| v.as_str())
                    .unwrap_or_default();
                hits.push((kind, id.to_string(), score));
            }
        }
        hits
    }
}

#[cfg(test)]
mod same_answer_as_scoring_every_match {
    use super::*;

    const WORDS: &[&str] = &[
        "shoulder",
        "knee",
        "hip",
        "elbow",
        "arthroplasty",
        "revision",
        "reverse",
        "anatomic",
        "glenoid",
        "humeral",
        "femoral",
        "tibial",
        "cemented",
        "cementless",
        "porous",
        "titanium",
        "ceramic",
        "augment",
        "baseplate",
        "stem",
        "liner",
        "planning",
        "instrument",
        "implant",
        "fixation",
        "screw",
        "anchor",
        "suture",
        "congress",
        "workshop",
        "course",
        "training",
    ];
    const RARE: &[&str] = &["zirconia", "tantalum", "scapula"];

    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
        fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
            from[self.below(from.len())]
        }
    }

    /// One generated entry of `kind`.
    fn generated(rng: &mut Rng, kind: Kind, id: usize) -> Entry {
        let body_words = 1 + rng.below(12);
        let mut body: Vec<&str> = (0..body_words).map(|_| rng.pick(WORDS)).collect();
        if rng.below(20) == 0 {
            body.push(rng.pick(RARE));
        }
        let acl = match (kind, rng.below(3)) {
            (Kind::Documents, 0) => {
                vec![format!("owner:u{}", rng.below(5)), "us".to_string()]
            }
            (Kind::Documents, _) => vec![format!("owner:u{}", rng.below(5))],
            _ => vec![PUBLIC.to_string()],
        };
        Entry {
            kind,
            id: id.to_string(),
            // Some names hold a longer word starting with a rare one, found by prefix at a
            // constant score that entries with the rare word itself in their body can beat.
            name: match rng.below(10) {
                0 => format!("{}s {}", rng.pick(RARE), rng.pick(WORDS)),
                _ => format!("{} {}", rng.pick(WORDS), rng.pick(WORDS)),
            },
            subtitle: (rng.below(2) == 0).then(|| rng.pick(WORDS).to_string()),
            preview: None,
            date: None,
            body: body.join(" "),
            acl,
        }
    }

    /// Generated entries in several commits (several segments), with ties, rare words found
    /// only in bodies, documents owned by a handful of users, and one entry in seven replaced
    /// by a last commit (the old ones stay in their segments as deleted documents).
    fn corpus(rng: &mut Rng, n: usize) -> SearchIndex {
        let index = SearchIndex::new().expect("index");
        let kinds: Vec<Kind> = (0..n)
            .map(|_| Kind::ALL[rng.below(Kind::ALL.len())])
            .collect();
        let ids: Vec<usize> = (0..n).collect();
        let replaced: Vec<usize> = (0..n).step_by(7).collect();
        for chunk in ids.chunks(n / 4).chain([replaced.as_slice()]) {
            let upsert = chunk.iter().map(|&i| generated(rng, kinds[i], i)).collect();
            index
                .update(IndexChange {
                    upsert,
                    ..IndexChange::default()
                })
                .expect("update");
        }
        assert_eq!(index.len(), n as u64);
        index
    }

    fn queries(rng: &mut Rng) -> Vec<String> {
        let mut queries: Vec<String> = WORDS.iter().chain(RARE).map(|w| w.to_string()).collect();
        for _ in 0..40 {
            let word = rng.pick(WORDS);
            let cut = 2 + rng.below(word.len() - 1);
            queries.push(word[..cut].to_string());
            let mut chars: Vec<char> = word.chars().collect();
            if chars.len() >= 4 {
                let at = 1 + rng.below(chars.len() - 2);
                chars.swap(at, at + 1);
            }
            queries.push(chars.into_iter().collect());
            queries.push(format!("{} {}", rng.pick(WORDS), rng.pick(WORDS)));
            queries.push(format!("{} {}", rng.pick(WORDS), rng.pick(RARE)));
        }
        queries.push("nothing-like-it".into());
        queries
    }

    /// Equal up to the last bit of a score: summed in another order, a score can differ in its
    /// last bit, which may swap two entries that tie, or pick another at the cut of a full list.
    fn same_answer(
        got: &[(Kind, String, Score)],
        expected: &[(Kind, String, Score)],
        per_kind: usize,
        what: &str,
    ) {
        let close = |a: Score, b: Score| (a - b).abs() <= 1e-5 * a.abs().max(1.0);
        for kind in Kind::ALL {
            let of = |hits: &[(Kind, String, Score)]| -> Vec<(String, Score)> {
                hits.iter()
                    .filter(|h| h.0 == kind)
                    .map(|h| (h.1.clone(), h.2))
                    .collect()
            };
            let (got, expected) = (of(got), of(expected));
            assert_eq!(
                got.len(),
                expected.len(),
                "{what}: {kind:?}\n{got:?}\n{expected:?}"
            );
            for (g, e) in got.iter().zip(&expected) {
                assert!(close(g.1, e.1), "{what}: {kind:?}\n{got:?}\n{expected:?}");
            }
            let cut = if got.len() == per_kind {
                got.last().map_or(0.0, |h| h.1)
            } else {
                Score::MIN
            };
            let above = |hits: &[(String, Score)]| -> std::collections::BTreeSet<String> {
                hits.iter()
                    .filter(|h| !close(h.1, cut) && h.1 > cut)
                    .map(|h| h.0.clone())
                    .collect()
            };
            assert_eq!(
                above(&got),
                above(&expected),
                "{what}: {kind:?}\n{got:?}\n{expected:?}"
            );
        }
    }

    #[test]
    fn for_every_kind_of_query_and_reader() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let index = corpus(&mut rng, 4_000);
        let readers: Vec<Vec<String>> = vec![
            vec![PUBLIC.into()],
            vec![PUBLIC.into(), "owner:u1".into()],
            vec!["owner:u2".into(), "us".into()],
            vec![PUBLIC.into(), "owner:u3".into(), "us".into()],
        ];
        let mut compared = 0;
        for text in queries(&mut rng) {
            for acl in &readers {
                for per_kind in [1, 5, 20] {
                    let expected = exhaustive::search(&index, &text, acl, per_kind);
                    let got: Vec<(Kind, String, Score)> = index
                        .search(&text, acl, per_kind)
                        .expect("search")
                        .into_iter()
                        .map(|h| (h.kind, h.id, h.score))
                        .collect();
                    same_answer(
                        &got,
                        &expected,
                        per_kind,
                        &format!("{text:?} for {acl:?}, {per_kind} per type"),
                    );
                    compared += expected.len();
                }
            }
        }
        // The comparison saw real answers, not only empty ones.
        assert!(compared > 10_000, "{compared}");
    }
}
