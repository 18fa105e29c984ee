//! How a query is answered at any index size: the cost follows the results shown, not
//! everything that matches.
//!
//! A query word is found in a field in four ways, each with its weight: as the word itself
//! (BM25), as the start of a word, with one typo, or as the start of a word with one typo
//! (constant scores). Each word scores the disjunction-max of its ways in the name and the
//! body; the words' scores add up, and every word must match. The prefix and typo ways are
//! expanded against the term dictionary once per query into plain term lists.
//!
//! Entries are scored here from the postings ([`ScoredPass`]), not by a generic query: a
//! generic disjunction reads every posting of its parts in windows of thousands of entries,
//! so its cost follows the long body lists whatever is shown. Each entry gets a bound first
//! (the word's own term read in the name, its highest score assumed in the body, every other
//! way assumed to match), then a tighter one (the word read in the body); only an entry whose
//! bound beats the last of its type's list (across the segments walked so far) has its prefix,
//! typo and permission postings read. Per type, the entries with the best score of the words
//! themselves in the name are scored first, so each list's floor is high before the rest is
//! walked. The answer is the one scoring every match gives, ties to the earlier entry.
//!
//! Two passes:
//! 1. Entries matched in their name, which is weighted three times the body. For each type
//!    whose best `per_kind` such entries all score above the highest score an entry matched
//!    only in its body can reach (a bound from the terms' BM25 maxima), the list is final.
//! 2. Only for the types left open: every visible entry of those types, through the
//!    `kind_acl` term of each (type, permission key), so a user's few documents are read
//!    without walking everyone else's.

use std::collections::BTreeSet;

use tantivy::collector::{Collector, SegmentCollector};
use tantivy::columnar::Column;
use tantivy::fieldnorm::FieldNormReader;
use tantivy::postings::{Postings, SegmentPostings};
use tantivy::query::{
    Bm25Weight, BooleanQuery, EnableScoring, FuzzyTermQuery, Occur, Query, Scorer, TermQuery,
};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{
    DocAddress, DocId, DocSet, Score, Searcher, SegmentOrdinal, SegmentReader, Term, TERMINATED,
};

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

/// A way of matching that scores a constant: its terms and its score.
struct ConstantWay<'a> {
    terms: &'a [Term],
    score: Score,
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

    /// The constant-score ways, in the order the score adds them up after the word itself.
    fn constant_ways(&self) -> Vec<ConstantWay<'_>> {
        let mut ways = vec![ConstantWay {
            terms: &self.prefix,
            score: self.weight * PREFIX,
        }];
        if self.typos_allowed {
            ways.push(ConstantWay {
                terms: &self.typo,
                score: self.weight * TYPO,
            });
            ways.push(ConstantWay {
                terms: &self.typo_prefix,
                score: self.weight * TYPO_PREFIX,
            });
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
    let visible: Vec<Term> = acl
        .iter()
        .map(|key| Term::from_field_text(fields.acl, key))
        .collect();
    // Pass 1: entries with a word in their name.
    let mut open: Vec<Kind> = Kind::ALL.to_vec();
    let named: Vec<Term> = planned
        .iter()
        .flat_map(|w| w.name.all_terms().cloned())
        .collect();
    if !named.is_empty() {
        let pass = ScoredPass {
            searcher,
            fields,
            words: &planned,
            entries: &named,
            visible: &visible,
        };
        tops = pass.run(&TopPerKind::new(per_kind, &open))?;
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
        let visible_of_open: Vec<Term> = open
            .iter()
            .flat_map(|kind| {
                acl.iter()
                    .map(|key| Term::from_field_text(fields.kind_acl, &kind_acl_key(*kind, key)))
            })
            .collect();
        let pass = ScoredPass {
            searcher,
            fields,
            words: &planned,
            entries: &visible_of_open,
            visible: &visible,
        };
        let more = pass.run(&TopPerKind::new(per_kind, &open))?;
        for kind in &open {
            let slot = kind.code() as usize;
            tops[slot] = more[slot].clone();
        }
    }
    Ok(tops)
}

/// One pass over the entries holding any of `entries`' terms, each scored here from the
/// postings with the score the query every word must match gives (each word the disjunction-max
/// of its ways in the name and the body, the words added up), and passed over when its bound
/// cannot enter its type's list.
struct ScoredPass<'a> {
    searcher: &'a Searcher,
    fields: QueryFields,
    words: &'a [WordTerms],
    /// Pass 1: every term of a query word in the name; pass 2: the `kind_acl` terms of the
    /// reader for the types still open.
    entries: &'a [Term],
    /// The reader's permission terms.
    visible: &'a [Term],
}

impl ScoredPass<'_> {
    /// The entries of one segment holding any of `terms`.
    fn docs_of(&self, terms: &[Term], reader: &SegmentReader) -> tantivy::Result<Box<dyn Scorer>> {
        let no_scores = EnableScoring::disabled_from_searcher(self.searcher);
        any_of(terms).weight(no_scores)?.scorer(reader, 1.0)
    }

    fn run(&self, collector: &TopPerKind) -> tantivy::Result<KindTops> {
        let mut bm25 = Vec::with_capacity(self.words.len());
        for word in self.words {
            let of_field = |terms: &FieldTerms| -> tantivy::Result<Option<Bm25Weight>> {
                if !terms.exact_found {
                    return Ok(None);
                }
                let exact = std::slice::from_ref(&terms.exact);
                Ok(Some(
                    Bm25Weight::for_terms(self.searcher, exact)?.boost_by(terms.weight),
                ))
            };
            bm25.push([of_field(&word.name)?, of_field(&word.body)?]);
        }
        let readers = self.searcher.segment_readers();
        let mut tops = Vec::with_capacity(readers.len());
        for (ordinal, reader) in readers.iter().enumerate() {
            tops.push(collector.for_segment(segment_ordinal(ordinal)?, reader)?);
        }
        // First, per type, the entries whose words themselves score highest in their name
        // (found from the postings and lengths alone), so that each list's floor is high
        // before the rest is walked.
        let picked = self.best_named(readers, collector, &bm25)?;
        for (at, reader) in readers.iter().enumerate() {
            let mut entries = Listed {
                docs: &picked[at],
                at: 0,
            };
            self.walk(reader, &mut tops[at], &mut entries, &bm25, &[])?;
        }
        for at in 0..readers.len() {
            let floor = collector.floor(&tops);
            let top = &mut tops[at];
            top.floor = floor;
            let mut entries = self.docs_of(self.entries, &readers[at])?;
            self.walk(&readers[at], top, entries.as_mut(), &bm25, &picked[at])?;
        }
        collector.merge_fruits(tops.into_iter().map(|top| top.harvest()).collect())
    }

    /// Per segment, the entries (ascending) that are among the best `per_kind` of their type by
    /// the BM25 score of the words themselves in the name; none unless every word is a word of
    /// some name.
    fn best_named(
        &self,
        readers: &[SegmentReader],
        collector: &TopPerKind,
        bm25: &[[Option<Bm25Weight>; 2]],
    ) -> tantivy::Result<Vec<Vec<DocId>>> {
        let mut best: Vec<Vec<(Score, DocAddress)>> = vec![Vec::new(); Kind::ALL.len()];
        let weights: Option<Vec<&Bm25Weight>> =
            bm25.iter().map(|[name, _]| name.as_ref()).collect();
        if let Some(weights) = weights {
            for (ordinal, reader) in readers.iter().enumerate() {
                let ordinal = segment_ordinal(ordinal)?;
                let index = reader.inverted_index(self.fields.name)?;
                let mut postings = Vec::with_capacity(self.words.len());
                for word in self.words {
                    match index.read_postings(&word.name.exact, IndexRecordOption::WithFreqs)? {
                        Some(found) => postings.push(found),
                        None => break,
                    }
                }
                if postings.len() < self.words.len() {
                    continue;
                }
                let norms = reader.get_fieldnorms_reader(self.fields.name)?;
                let kinds = reader.fast_fields().u64("kind")?;
                let alive = reader.alive_bitset();
                let (first, others) = postings.split_at_mut(1);
                let first = &mut first[0];
                let mut doc = first.doc();
                while doc != TERMINATED {
                    if let Some(slot) = wanted_slot(&kinds, &collector.wanted, doc) {
                        if alive.is_none_or(|alive| alive.is_alive(doc))
                            && others.iter_mut().all(|p| lands_on(p, doc))
                        {
                            let norm = norms.fieldnorm_id(doc);
                            let mut score = weights[0].score(norm, first.term_freq());
                            for (weight, postings) in weights[1..].iter().zip(others.iter()) {
                                score += weight.score(norm, postings.term_freq());
                            }
                            let here = DocAddress::new(ordinal, doc);
                            keep_best(&mut best[slot], collector.per_kind, score, here);
                        }
                    }
                    doc = first.advance();
                }
            }
        }
        let mut picked = vec![Vec::new(); readers.len()];
        for address in best.into_iter().flatten().map(|(_, at)| at) {
            if let Some(docs) = usize::try_from(address.segment_ord)
                .ok()
                .and_then(|at| picked.get_mut(at))
            {
                docs.push(address.doc_id);
            }
        }
        for docs in &mut picked {
            docs.sort_unstable();
        }
        Ok(picked)
    }

    /// Scores `entries` of one segment into its list, but those of `done` (ascending).
    fn walk(
        &self,
        reader: &SegmentReader,
        top: &mut TopPerKindSegment,
        entries: &mut dyn DocSet,
        bm25: &[[Option<Bm25Weight>; 2]],
        mut done: &[DocId],
    ) -> tantivy::Result<()> {
        let docs_of = |terms: &[Term], reader: &SegmentReader| self.docs_of(terms, reader);
        let mut visible = self.docs_of(self.visible, reader)?;
        let mut words = Vec::with_capacity(self.words.len());
        for (word, [name_bm25, body_bm25]) in self.words.iter().zip(bm25) {
            words.push(WordCursor {
                fields: [
                    FieldCursor::new(reader, self.fields.name, &word.name, name_bm25, docs_of)?,
                    FieldCursor::new(reader, self.fields.body, &word.body, body_bm25, docs_of)?,
                ],
            });
        }
        let alive = reader.alive_bitset();
        let mut doc = entries.doc();
        while doc != TERMINATED {
            while done.first().is_some_and(|first| *first < doc) {
                done = &done[1..];
            }
            if done.first() != Some(&doc) && alive.is_none_or(|alive| alive.is_alive(doc)) {
                if let Some(slot) = top.wanted_slot(doc) {
                    // First with the word's highest score in the body (the body's postings are
                    // the long ones), then with its score there.
                    let may_enter = |words: &mut [WordCursor], read_body: bool| {
                        let mut bound: Score = 0.0;
                        for word in words {
                            bound += word.bound(doc, read_body);
                        }
                        top.may_enter(slot, bound, doc)
                    };
                    if may_enter(&mut words, false)
                        && may_enter(&mut words, true)
                        && lands_on(visible.as_mut(), doc)
                    {
                        let mut score: Option<Score> = Some(0.0);
                        for word in &mut words {
                            score = match (score, word.score(doc)) {
                                (Some(sum), Some(part)) => Some(sum + part),
                                _ => None,
                            };
                        }
                        if let Some(score) = score {
                            top.collect(doc, score);
                        }
                    }
                }
            }
            doc = entries.advance();
        }
        Ok(())
    }
}

/// Entries listed in ascending order, as a [`DocSet`].
struct Listed<'a> {
    docs: &'a [DocId],
    at: usize,
}

impl DocSet for Listed<'_> {
    fn advance(&mut self) -> DocId {
        self.at += 1;
        self.doc()
    }

    fn doc(&self) -> DocId {
        self.docs.get(self.at).copied().unwrap_or(TERMINATED)
    }

    fn size_hint(&self) -> u32 {
        u32::try_from(self.docs.len()).unwrap_or(u32::MAX)
    }
}

/// Whether `docs` holds `doc`, moving it forward to see (it never moves back: the entries are
/// visited in ascending order).
fn lands_on(docs: &mut dyn DocSet, doc: DocId) -> bool {
    if docs.doc() < doc {
        docs.seek(doc);
    }
    docs.doc() == doc
}

/// One query word in one segment.
struct WordCursor<'a> {
    fields: [FieldCursor<'a>; 2],
}

impl WordCursor<'_> {
    /// The highest score the word can give `doc`: exact where the word itself was read (in the
    /// name always, in the body when `read_body`, else its highest score there), and every
    /// constant way not yet read counted as matching.
    fn bound(&mut self, doc: DocId, read_body: bool) -> Score {
        let mut score = DisMax::default();
        for (at, field) in self.fields.iter_mut().enumerate() {
            let exact = if at == 0 || read_body {
                field.read_word(doc);
                field.exact_score
            } else {
                field.highest_exact
            };
            if let Some(exact) = exact {
                score.add(exact);
            }
            for way in &field.ways {
                if way.docs.is_some() {
                    score.add(way.score);
                }
            }
        }
        score.value()
    }

    /// The word's score for `doc` (after [`WordCursor::bound`] has read the body), or `None`
    /// when it matches in no way.
    fn score(&mut self, doc: DocId) -> Option<Score> {
        let mut score = DisMax::default();
        let mut matched = false;
        for field in &mut self.fields {
            if let Some(exact) = field.exact_score {
                score.add(exact);
                matched = true;
            }
            let word_here = field.exact_score.is_some();
            for way in &mut field.ways {
                let here = (word_here && way.holds_word)
                    || way
                        .docs
                        .as_mut()
                        .is_some_and(|docs| lands_on(docs.as_mut(), doc));
                if here {
                    score.add(way.score);
                    matched = true;
                }
            }
        }
        matched.then(|| score.value())
    }
}

/// Tantivy's disjunction-max: `max + tie_breaker × (sum − max)`, the parts added in order.
#[derive(Default)]
struct DisMax {
    max: Score,
    sum: Score,
}

impl DisMax {
    fn add(&mut self, part: Score) {
        self.max = Score::max(part, self.max);
        self.sum += part;
    }

    fn value(&self) -> Score {
        self.max + (self.sum - self.max) * TIE_BREAKER
    }
}

/// One query word in one field of one segment.
struct FieldCursor<'a> {
    /// The postings of the word itself, with its BM25 weight and the field's lengths.
    exact: Option<(SegmentPostings, &'a Bm25Weight, FieldNormReader)>,
    /// The BM25 score of the word itself in the entry last read, if it holds it.
    exact_score: Option<Score>,
    /// The highest BM25 score the word itself can have here.
    highest_exact: Option<Score>,
    ways: Vec<WayCursor>,
}

struct WayCursor {
    score: Score,
    /// The entries holding one of the way's terms (`None`: no term of it in this segment).
    docs: Option<Box<dyn Scorer>>,
    /// The word itself is one of the way's terms: an entry holding it matches this way.
    holds_word: bool,
}

impl<'a> FieldCursor<'a> {
    fn new(
        reader: &SegmentReader,
        field: Field,
        terms: &FieldTerms,
        bm25: &'a Option<Bm25Weight>,
        docs_of: impl Fn(&[Term], &SegmentReader) -> tantivy::Result<Box<dyn Scorer>>,
    ) -> tantivy::Result<FieldCursor<'a>> {
        let exact = match bm25 {
            Some(bm25) => reader
                .inverted_index(field)?
                .read_postings(&terms.exact, IndexRecordOption::WithFreqs)?
                .map(|postings| -> tantivy::Result<_> {
                    Ok((postings, bm25, reader.get_fieldnorms_reader(field)?))
                })
                .transpose()?,
            None => None,
        };
        let mut ways = Vec::new();
        for way in terms.constant_ways() {
            let docs = docs_of(way.terms, reader)?;
            ways.push(WayCursor {
                score: way.score,
                docs: (docs.doc() != TERMINATED).then_some(docs),
                holds_word: way.terms.contains(&terms.exact),
            });
        }
        Ok(FieldCursor {
            highest_exact: exact.as_ref().map(|(_, bm25, _)| bm25.max_score()),
            exact,
            exact_score: None,
            ways,
        })
    }

    fn read_word(&mut self, doc: DocId) {
        self.exact_score = match &mut self.exact {
            Some((postings, bm25, norms)) => lands_on(postings, doc)
                .then(|| bm25.score(norms.fieldnorm_id(doc), postings.term_freq())),
            None => None,
        };
    }
}

/// Collects the best `per_kind` entries of each wanted type in one pass, reading each entry's
/// type once. Ties keep the earlier entry, as tantivy's own top-documents collector does.
struct TopPerKind {
    per_kind: usize,
    wanted: Vec<bool>,
}

/// Whether `(score, at)` ranks before `(other, other_at)`: a higher score, or an equal one at an
/// earlier address (as tantivy's own top-documents collector keeps the earlier of a tie).
fn ranks_before<A: Ord>(score: Score, at: A, other: Score, other_at: A) -> bool {
    score > other || (score == other && at < other_at)
}

/// Puts `(score, at)` in `list` (best first) if it is among the best `per_kind`; entries may
/// come in any order, and of equal scores the earlier entry stays.
fn keep_best<A: Ord + Copy>(list: &mut Vec<(Score, A)>, per_kind: usize, score: Score, at: A) {
    if list.len() == per_kind {
        if !list
            .last()
            .is_some_and(|&(worst, worst_at)| ranks_before(score, at, worst, worst_at))
        {
            return;
        }
        list.pop();
    }
    let place = list.partition_point(|&(s, s_at)| ranks_before(s, s_at, score, at));
    list.insert(place, (score, at));
}

/// The list of `doc`'s type (its `kind` column), if that type is wanted.
fn wanted_slot(kind: &Column<u64>, wanted: &[bool], doc: DocId) -> Option<usize> {
    let slot = usize::try_from(kind.first(doc)?).ok()?;
    wanted.get(slot).copied().unwrap_or(false).then_some(slot)
}

/// A segment's position as tantivy numbers it in a [`DocAddress`].
fn segment_ordinal(at: usize) -> tantivy::Result<SegmentOrdinal> {
    SegmentOrdinal::try_from(at)
        .map_err(|_| tantivy::TantivyError::InternalError("segment ordinal".into()))
}

impl TopPerKind {
    /// Per list, the entry the best `per_kind` of `segments` ends with, when they hold that many.
    fn floor(&self, segments: &[TopPerKindSegment]) -> Vec<Option<(Score, DocAddress)>> {
        (0..Kind::ALL.len())
            .map(|slot| {
                let mut all: Vec<(Score, DocAddress)> = segments
                    .iter()
                    .flat_map(|s| {
                        s.tops[slot]
                            .iter()
                            .map(|&(score, doc)| (score, DocAddress::new(s.segment, doc)))
                    })
                    .collect();
                if all.len() < self.per_kind {
                    return None;
                }
                all.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
                all.get(self.per_kind - 1).copied()
            })
            .collect()
    }

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
    /// Per list, the last entry of the best `per_kind` of every segment so far, when there are
    /// that many: what an entry must beat to be shown.
    floor: Vec<Option<(Score, DocAddress)>>,
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
            floor: vec![None; Kind::ALL.len()],
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

impl TopPerKindSegment {
    /// The list `doc` would go to, if its type is wanted.
    fn wanted_slot(&self, doc: DocId) -> Option<usize> {
        wanted_slot(&self.kind, &self.wanted, doc)
    }

    /// Whether entry `doc` scoring up to `bound` could enter list `slot`.
    fn may_enter(&self, slot: usize, bound: Score, doc: DocId) -> bool {
        let top = &self.tops[slot];
        let full = top.len() == self.per_kind;
        let beats_list = !full
            || top
                .last()
                .is_some_and(|&(worst, at)| ranks_before(bound, doc, worst, at));
        let here = DocAddress::new(self.segment, doc);
        beats_list
            && self.floor[slot].is_none_or(|(floor, at)| ranks_before(bound, here, floor, at))
    }
}

impl SegmentCollector for TopPerKindSegment {
    type Fruit = KindTops;

    fn collect(&mut self, doc: DocId, score: Score) {
        if let Some(slot) = self.wanted_slot(doc) {
            keep_best(&mut self.tops[slot], self.per_kind, score, doc);
        }
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
