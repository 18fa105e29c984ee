//! The search index: one in-memory tantivy index over everything the app can find.
//!
//! Every entry has a type (`kind`), the fields the results show (stored), the words it is found
//! by (`name`, weighted, and `body`) and who may see it (`acl`): `public` for reference content,
//! and for documents `owner:{user}`, `us` and `node:{id}` for the item and each folder above it.
//! A query for a user keeps only entries whose `acl` holds one of that user's keys, so a search
//! can never return another user's document; the API checks each document again against the
//! documents read model before answering.

use std::sync::Mutex;

use tantivy::collector::{Count, FilterCollector, MultiCollector, TopDocs};
use tantivy::query::{
    BooleanQuery, BoostQuery, ConstScoreQuery, DisjunctionMaxQuery, FuzzyTermQuery, Occur, Query,
    TermQuery, TermSetQuery,
};
use tantivy::schema::{
    Field, IndexRecordOption, Schema, TextFieldIndexing, TextOptions, Value, FAST, INDEXED, STORED,
    STRING,
};
use tantivy::tokenizer::{
    AsciiFoldingFilter, LowerCaser, RemoveLongFilter, SimpleTokenizer, TextAnalyzer,
};
use tantivy::{
    DocAddress, Index, IndexReader, IndexWriter, ReloadPolicy, Score, TantivyDocument, Term,
};

use super::kinds::Kind;

/// The tokenizer of every text field: words, lower case, accents folded ("Épaule" = "epaule").
const ANALYZER: &str = "folded";
/// Words longer than this are not indexed (codes, URLs glued together).
const MAX_WORD: usize = 40;
/// A query uses at most this many words and characters; the rest is ignored.
pub const MAX_QUERY_WORDS: usize = 8;
pub const MAX_QUERY_CHARS: usize = 200;
/// Words of at least this many letters tolerate one typo.
const TYPO_MIN_LETTERS: usize = 5;
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

    /// Every word must be found (as a word, the start of one, or with one typo when it has
    /// at least five letters); whole words and words in the name rank higher.
    fn text_query(&self, words: &[String]) -> Box<dyn Query> {
        let f = self.fields;
        let clauses = words
            .iter()
            .map(|word| {
                let mut ways: Vec<Box<dyn Query>> = Vec::new();
                for (field, weight) in [(f.name, 3.0), (f.body, 1.0)] {
                    let term = Term::from_field_text(field, word);
                    let exact = TermQuery::new(term.clone(), IndexRecordOption::WithFreqs);
                    ways.push(Box::new(BoostQuery::new(Box::new(exact), weight)));
                    let prefix = FuzzyTermQuery::new_prefix(term.clone(), 0, true);
                    ways.push(Box::new(BoostQuery::new(Box::new(prefix), weight * 0.6)));
                    if word.chars().count() >= TYPO_MIN_LETTERS {
                        let typo = FuzzyTermQuery::new(term.clone(), 1, true);
                        ways.push(Box::new(BoostQuery::new(Box::new(typo), weight * 0.4)));
                        let typo_prefix = FuzzyTermQuery::new_prefix(term, 1, true);
                        ways.push(Box::new(BoostQuery::new(
                            Box::new(typo_prefix),
                            weight * 0.3,
                        )));
                    }
                }
                let word: Box<dyn Query> =
                    Box::new(DisjunctionMaxQuery::with_tie_breaker(ways, 0.1));
                (Occur::Must, word)
            })
            .collect();
        Box::new(BooleanQuery::new(clauses))
    }

    /// The best `per_kind` hits of each type for `text`, among entries any of `acl` may see.
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
        let visible = TermSetQuery::new(acl.iter().map(|key| Term::from_field_text(f.acl, key)));
        let query = BooleanQuery::new(vec![
            (Occur::Must, self.text_query(&words)),
            (
                Occur::Must,
                Box::new(ConstScoreQuery::new(Box::new(visible), 0.0)),
            ),
        ]);

        let searcher = self.reader.searcher();
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
        let mut fruits = searcher.search(&query, &collectors)?;

        let mut hits = Vec::new();
        for (kind, handle) in handles {
            let top: Vec<(Score, DocAddress)> = handle.extract(&mut fruits);
            for (score, address) in top {
                let doc: TantivyDocument = searcher.doc(address)?;
                let text = |field: Field| {
                    doc.get_first(field)
                        .and_then(|v| v.as_str())
                        .map(str::to_string)
                };
                hits.push(Hit {
                    kind,
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
