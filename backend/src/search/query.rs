//! How a query is answered at any index size: the cost follows the results shown, not
//! everything that matches.
//!
//! A query word is found in a field in four ways, each with its weight: as the word itself
//! (BM25), as the start of a word, with one typo, or as the start of a word with one typo
//! (constant scores). The prefix and typo ways are expanded against the term dictionary
//! once per query into plain term lists, so every part of the query reads postings lazily
//! and the intersection with the reader's permissions is led by the smallest list.
//!
//! The answer is found in two passes, with the same scores and order as scoring every match:
//! 1. Entries matched in their name, which is weighted three times the body. For each type
//!    whose best `per_kind` such entries all score above the highest score an entry matched
//!    only in its body can reach (a bound from the terms' BM25 maxima), the list is final.
//! 2. Only for the types left open: every visible entry of those types, through the
//!    `kind_acl` term of each (type, permission key), so a user's few documents are read
//!    without walking everyone else's.

use std::collections::BTreeSet;

use tantivy::collector::{Collector, SegmentCollector};
use tantivy::columnar::Column;
use tantivy::query::{
    BooleanQuery, BoostQuery, ConstScoreQuery, DisjunctionMaxQuery, FuzzyTermQuery, Occur, Query,
    TermQuery,
};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{DocAddress, DocId, Score, Searcher, SegmentOrdinal, SegmentReader, Term};

use super::kinds::Kind;

/// Words of at least this many letters tolerate one typo.
pub const TYPO_MIN_LETTERS: usize = 5;
/// The weight of a match in the name and in the body.
pub const NAME_WEIGHT: Score = 3.0;
pub const BODY_WEIGHT: Score = 1.0;
/// Of a way of matching, relative to its field's weight (the word itself scores BM25).
const PREFIX: Score = 0.6;
const TYPO: Score = 0.4;
const TYPO_PREFIX: Score = 0.3;
/// How much the other ways of matching a word add to the best one.
pub const TIE_BREAKER: Score = 0.1;

/// The `kind_acl` term of entries of `kind` that `key` may see.
pub fn kind_acl_key(kind: Kind, key: &str) -> String {
    format!("{}|{key}", kind.code())
}

/// The terms of one word in one field, per way of matching.
struct FieldTerms {
    weight: Score,
    exact: Term,
    /// The word's own term is in the index.
    exact_found: bool,
    prefix: Vec<Term>,
    typo: Vec<Term>,
    typo_prefix: Vec<Term>,
    typos_allowed: bool,
}

impl FieldTerms {
    fn expand(
        searcher: &Searcher,
        field: Field,
        weight: Score,
        word: &str,
    ) -> tantivy::Result<FieldTerms> {
        let exact = Term::from_field_text(field, word);
        let typos_allowed = word.chars().count() >= TYPO_MIN_LETTERS;
        let expand = |query: FuzzyTermQuery| -> tantivy::Result<Vec<Term>> {
            let automaton = query.automaton()?;
            let mut found = BTreeSet::new();
            for segment in searcher.segment_readers() {
                let index = segment.inverted_index(field)?;
                let mut stream = index.terms().search(&automaton).into_stream()?;
                while stream.advance() {
                    found.insert(stream.key().to_vec());
                }
            }
            Ok(found
                .into_iter()
                .map(|bytes| Term::from_field_bytes(field, &bytes))
                .collect())
        };
        let prefix = expand(FuzzyTermQuery::new_prefix(exact.clone(), 0, true))?;
        let (typo, typo_prefix) = if typos_allowed {
            (
                expand(FuzzyTermQuery::new(exact.clone(), 1, true))?,
                expand(FuzzyTermQuery::new_prefix(exact.clone(), 1, true))?,
            )
        } else {
            (Vec::new(), Vec::new())
        };
        // The word itself is a prefix of itself: it is in the index when the prefix way finds it.
        let exact_found = prefix
            .iter()
            .any(|t| t.serialized_value_bytes() == word.as_bytes());
        Ok(FieldTerms {
            weight,
            exact,
            exact_found,
            prefix,
            typo,
            typo_prefix,
            typos_allowed,
        })
    }

    /// The ways this field matches the word, in the order the score adds them up.
    fn ways(&self) -> Vec<Box<dyn Query>> {
        let mut ways: Vec<Box<dyn Query>> = Vec::new();
        let exact = TermQuery::new(self.exact.clone(), IndexRecordOption::WithFreqs);
        ways.push(Box::new(BoostQuery::new(Box::new(exact), self.weight)));
        ways.push(constant(&self.prefix, self.weight * PREFIX));
        if self.typos_allowed {
            ways.push(constant(&self.typo, self.weight * TYPO));
            ways.push(constant(&self.typo_prefix, self.weight * TYPO_PREFIX));
        }
        ways
    }

    /// Every term that matches the word here.
    fn all_terms(&self) -> impl Iterator<Item = &Term> {
        self.prefix
            .iter()
            .chain(&self.typo)
            .chain(&self.typo_prefix)
    }

    /// The highest score an entry can get for this word from this field alone.
    fn bound(&self, searcher: &Searcher) -> tantivy::Result<Score> {
        let mut ways = Vec::new();
        if self.exact_found {
            let bm25 =
                tantivy::query::Bm25Weight::for_terms(searcher, std::slice::from_ref(&self.exact))?;
            ways.push(bm25.boost_by(self.weight).max_score());
        }
        for (terms, share) in [
            (&self.prefix, PREFIX),
            (&self.typo, TYPO),
            (&self.typo_prefix, TYPO_PREFIX),
        ] {
            if !terms.is_empty() {
                ways.push(self.weight * share);
            }
        }
        // The dis-max score, `max + t·(sum - max)`, grows with each part: its value at the
        // parts' maxima bounds it.
        let max = ways.iter().copied().fold(0.0, Score::max);
        let sum: Score = ways.iter().sum();
        Ok(max + TIE_BREAKER * (sum - max))
    }
}

/// A constant score for any of `terms` (no term: nothing matches).
fn constant(terms: &[Term], score: Score) -> Box<dyn Query> {
    Box::new(ConstScoreQuery::new(any_of(terms), score))
}

/// Matches an entry holding any of `terms`, reading their postings lazily.
fn any_of(terms: &[Term]) -> Box<dyn Query> {
    let clauses = terms
        .iter()
        .map(|term| {
            let query: Box<dyn Query> =
                Box::new(TermQuery::new(term.clone(), IndexRecordOption::Basic));
            (Occur::Should, query)
        })
        .collect();
    Box::new(BooleanQuery::new(clauses))
}

/// A filter: matches like `query`, adds nothing to the score.
fn filter(query: Box<dyn Query>) -> Box<dyn Query> {
    Box::new(ConstScoreQuery::new(query, 0.0))
}

/// One word's terms in the name and in the body.
struct WordTerms {
    name: FieldTerms,
    body: FieldTerms,
}

/// The fields a query reads.
#[derive(Clone, Copy)]
pub struct QueryFields {
    pub name: Field,
    pub body: Field,
    pub acl: Field,
    pub kind_acl: Field,
}

/// The best `per_kind` entries of each type: `(score, address)`, best first.
pub type KindTops = Vec<Vec<(Score, DocAddress)>>;

/// Every word must match (in the name or the body, one of the four ways); whole words and
/// words in the name rank higher.
pub fn top_per_kind(
    searcher: &Searcher,
    fields: QueryFields,
    words: &[String],
    acl: &[String],
    per_kind: usize,
) -> tantivy::Result<KindTops> {
    let mut tops: KindTops = vec![Vec::new(); Kind::ALL.len()];
    let mut planned = Vec::with_capacity(words.len());
    for word in words {
        planned.push(WordTerms {
            name: FieldTerms::expand(searcher, fields.name, NAME_WEIGHT, word)?,
            body: FieldTerms::expand(searcher, fields.body, BODY_WEIGHT, word)?,
        });
    }
    // A word found nowhere: nothing matches every word.
    if planned
        .iter()
        .any(|w| w.name.all_terms().next().is_none() && w.body.all_terms().next().is_none())
    {
        return Ok(tops);
    }
    let text = || -> Box<dyn Query> {
        let clauses = planned
            .iter()
            .map(|w| {
                let mut ways = w.name.ways();
                ways.extend(w.body.ways());
                let word: Box<dyn Query> =
                    Box::new(DisjunctionMaxQuery::with_tie_breaker(ways, TIE_BREAKER));
                (Occur::Must, word)
            })
            .collect();
        Box::new(BooleanQuery::new(clauses))
    };

    // Pass 1: entries with a word in their name.
    let mut open: Vec<Kind> = Kind::ALL.to_vec();
    let named: Vec<Term> = planned
        .iter()
        .flat_map(|w| w.name.all_terms().cloned())
        .collect();
    if !named.is_empty() {
        let visible: Vec<Term> = acl
            .iter()
            .map(|key| Term::from_field_text(fields.acl, key))
            .collect();
        let query = BooleanQuery::new(vec![
            (Occur::Must, text()),
            (Occur::Must, filter(any_of(&named))),
            (Occur::Must, filter(any_of(&visible))),
        ]);
        tops = searcher.search(&query, &TopPerKind::new(per_kind, &open))?;
        let mut body_only: Score = 0.0;
        for w in &planned {
            body_only += w.body.bound(searcher)?;
        }
        // A margin for the rounding of scores summed in another order.
        let body_only = body_only * 1.001 + 1e-4;
        open.retain(|kind| {
            let top = &tops[kind.code() as usize];
            top.len() < per_kind || top.last().is_some_and(|(score, _)| *score <= body_only)
        });
    }

    // Pass 2: every visible entry of the types still open.
    if !open.is_empty() {
        let visible: Vec<Term> = open
            .iter()
            .flat_map(|kind| {
                acl.iter()
                    .map(|key| Term::from_field_text(fields.kind_acl, &kind_acl_key(*kind, key)))
            })
            .collect();
        let query = BooleanQuery::new(vec![
            (Occur::Must, text()),
            (Occur::Must, filter(any_of(&visible))),
        ]);
        let more = searcher.search(&query, &TopPerKind::new(per_kind, &open))?;
        for kind in &open {
            let slot = kind.code() as usize;
            tops[slot] = more[slot].clone();
        }
    }
    Ok(tops)
}

/// Collects the best `per_kind` entries of each wanted type in one pass, reading each entry's
/// type once. Ties keep the earlier entry, as tantivy's own top-documents collector does.
struct TopPerKind {
    per_kind: usize,
    wanted: Vec<bool>,
}

impl TopPerKind {
    fn new(per_kind: usize, kinds: &[Kind]) -> TopPerKind {
        let mut wanted = vec![false; Kind::ALL.len()];
        for kind in kinds {
            wanted[kind.code() as usize] = true;
        }
        TopPerKind { per_kind, wanted }
    }
}

struct TopPerKindSegment {
    per_kind: usize,
    wanted: Vec<bool>,
    kind: Column<u64>,
    segment: SegmentOrdinal,
    tops: Vec<Vec<(Score, DocId)>>,
}

impl Collector for TopPerKind {
    type Fruit = KindTops;
    type Child = TopPerKindSegment;

    fn for_segment(
        &self,
        segment: SegmentOrdinal,
        reader: &SegmentReader,
    ) -> tantivy::Result<TopPerKindSegment> {
        Ok(TopPerKindSegment {
            per_kind: self.per_kind,
            wanted: self.wanted.clone(),
            kind: reader.fast_fields().u64("kind")?,
            segment,
            tops: vec![Vec::new(); Kind::ALL.len()],
        })
    }

    fn requires_scoring(&self) -> bool {
        true
    }

    fn merge_fruits(&self, segments: Vec<KindTops>) -> tantivy::Result<KindTops> {
        let mut merged: KindTops = vec![Vec::new(); Kind::ALL.len()];
        for segment in segments {
            for (slot, top) in segment.into_iter().enumerate() {
                merged[slot].extend(top);
            }
        }
        for top in &mut merged {
            // Stable: among equal scores, the earlier segment and document first.
            top.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
            top.truncate(self.per_kind);
        }
        Ok(merged)
    }
}

impl SegmentCollector for TopPerKindSegment {
    type Fruit = KindTops;

    fn collect(&mut self, doc: DocId, score: Score) {
        let Some(code) = self.kind.first(doc) else {
            return;
        };
        let Ok(slot) = usize::try_from(code) else {
            return;
        };
        if !self.wanted.get(slot).copied().unwrap_or(false) {
            return;
        }
        let top = &mut self.tops[slot];
        if top.len() == self.per_kind {
            // Documents arrive in ascending order: an equal score loses to the one kept.
            if top.last().is_some_and(|(worst, _)| score <= *worst) {
                return;
            }
            top.pop();
        }
        let at = top.partition_point(|(s, _)| *s >= score);
        top.insert(at, (score, doc));
    }

    fn harvest(self) -> KindTops {
        let segment = self.segment;
        self.tops
            .into_iter()
            .map(|top| {
                top.into_iter()
                    .map(|(score, doc)| (score, DocAddress::new(segment, doc)))
                    .collect()
            })
            .collect()
    }
}
