//! Search index benchmark: build time of an index of N generated items, then query latency
//! (p50 / p99) and queries per second for whole words, prefixes, typos and two-word queries,
//! next to a baseline measured in the same run: a lookup of one entry by its exact key term.
//!
//! cargo run --release -p bench --bin search_bench -- [--items 100000] [--queries 2000]
//!     [--threads 2] [--seconds 5] [--only word|prefix|typo|two]

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use backend::search::{Entry, IndexChange, Kind, SearchIndex};

const WORDS: &[&str] = &[
    "shoulder",
    "knee",
    "hip",
    "elbow",
    "ankle",
    "spine",
    "arthroplasty",
    "revision",
    "reverse",
    "anatomic",
    "glenoid",
    "humeral",
    "femoral",
    "tibial",
    "acetabular",
    "cemented",
    "cementless",
    "porous",
    "titanium",
    "polyethylene",
    "ceramic",
    "augment",
    "baseplate",
    "stem",
    "liner",
    "insert",
    "navigation",
    "planning",
    "instrument",
    "trial",
    "implant",
    "fixation",
    "screw",
    "plate",
    "nail",
    "arthroscopic",
    "shaver",
    "anchor",
    "suture",
    "cartilage",
    "ligament",
    "meniscus",
    "fracture",
    "trauma",
    "osteotomy",
    "congress",
    "workshop",
    "cadaver",
    "course",
    "training",
    "symposium",
    "faculty",
    "surgeon",
    "theatre",
    "sterile",
    "reimbursement",
    "pricing",
    "catalogue",
    "brochure",
    "technique",
    "guide",
    "summary",
    "report",
    "visit",
    "account",
    "territory",
    "review",
    "checklist",
    "template",
    "contract",
    "availability",
    "regulatory",
];
const NAMES: &[&str] = &[
    "Arcadia",
    "Solace",
    "Veritas",
    "Brightline",
    "Meridian",
    "Lumen",
    "Orbis",
    "Cadence",
    "Keystone",
    "Aurora",
    "Zenith",
    "Halcyon",
    "Tessera",
    "Vireo",
    "Quanta",
    "Sable",
];

/// A small deterministic generator (xorshift), so runs are comparable.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len())]
    }
}

fn generate(n: usize, rng: &mut Rng) -> Vec<Entry> {
    (0..n)
        .map(|i| {
            let kind = Kind::ALL[i % Kind::ALL.len()];
            let name = format!(
                "{} {} {} {}",
                rng.pick(NAMES),
                rng.pick(WORDS),
                rng.pick(WORDS),
                i
            );
            let body = (0..40)
                .map(|_| rng.pick(WORDS))
                .collect::<Vec<_>>()
                .join(" ");
            let acl = if kind == Kind::Documents {
                // Documents belong to one of 1,000 users.
                vec![format!("owner:user-{}", rng.below(1000))]
            } else {
                vec!["public".to_string()]
            };
            Entry {
                kind,
                id: i.to_string(),
                name,
                subtitle: Some(format!("{} {}", rng.pick(WORDS), rng.pick(WORDS))),
                preview: Some(format!("/media/generated/{i}.svg")),
                date: Some("2026-11-22".to_string()),
                body,
                acl,
            }
        })
        .collect()
}

fn typo(word: &str, rng: &mut Rng) -> String {
    let mut chars: Vec<char> = word.chars().collect();
    let at = 1 + rng.below(chars.len() - 2);
    chars.swap(at, at + 1);
    chars.into_iter().collect()
}

#[derive(Clone, Copy, PartialEq)]
enum QueryKind {
    Baseline,
    Word,
    Prefix,
    Typo,
    TwoWords,
}

impl QueryKind {
    fn short_name(self) -> &'static str {
        match self {
            QueryKind::Baseline => "baseline",
            QueryKind::Word => "word",
            QueryKind::Prefix => "prefix",
            QueryKind::Typo => "typo",
            QueryKind::TwoWords => "two",
        }
    }

    fn label(self) -> &'static str {
        match self {
            QueryKind::Baseline => "baseline: one key term",
            QueryKind::Word => "whole word",
            QueryKind::Prefix => "prefix (typing)",
            QueryKind::Typo => "one typo",
            QueryKind::TwoWords => "two words",
        }
    }
}

fn queries(kind: QueryKind, count: usize, items: usize, rng: &mut Rng) -> Vec<String> {
    let long_words: Vec<&str> = WORDS.iter().copied().filter(|w| w.len() >= 6).collect();
    (0..count)
        .map(|_| match kind {
            QueryKind::Baseline => {
                let i = rng.below(items);
                backend::search::index::entry_key(Kind::ALL[i % Kind::ALL.len()], &i.to_string())
            }
            QueryKind::Word => rng.pick(WORDS).to_string(),
            QueryKind::Prefix => {
                let word = rng.pick(&long_words);
                word[..3 + rng.below(3)].to_string()
            }
            QueryKind::Typo => typo(rng.pick(&long_words), rng),
            QueryKind::TwoWords => format!("{} {}", rng.pick(NAMES), rng.pick(WORDS)),
        })
        .collect()
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let at = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[at.min(sorted.len() - 1)]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn arg(name: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() -> anyhow::Result<()> {
    let items = arg("--items", 100_000).clamp(1_000, 2_000_000);
    let per_kind = arg("--queries", 2_000).clamp(100, 100_000);
    let threads = arg("--threads", 2).clamp(1, 16);
    let seconds = arg("--seconds", 5).clamp(1, 60);
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    // A user who owns some documents and is shared a few folders.
    let acl: Vec<String> = ["public", "owner:user-7", "node:none-1", "node:none-2"]
        .iter()
        .map(|s| s.to_string())
        .collect();

    let entries = generate(items, &mut rng);
    let index = Arc::new(SearchIndex::new()?);
    let started = Instant::now();
    for chunk in entries.chunks(20_000) {
        index.update(IndexChange {
            upsert: chunk.to_vec(),
            ..IndexChange::default()
        })?;
    }
    let build = started.elapsed();
    println!(
        "index build: {items} items in {:.2} s ({:.0} items/s)",
        build.as_secs_f64(),
        items as f64 / build.as_secs_f64()
    );

    println!("segments: {}", index.segments()?);
    // `--only NAME` (word, prefix, typo, two) keeps one query kind beside the baseline, for a
    // profile of that kind alone; its queries then differ from those of a full run.
    let only = std::env::args()
        .skip_while(|a| a != "--only")
        .nth(1)
        .unwrap_or_default();
    let kinds: Vec<QueryKind> = [
        QueryKind::Baseline,
        QueryKind::Word,
        QueryKind::Prefix,
        QueryKind::Typo,
        QueryKind::TwoWords,
    ]
    .into_iter()
    .filter(|kind| only.is_empty() || *kind == QueryKind::Baseline || kind.short_name() == only)
    .collect();
    let mut baseline_p50 = None;
    for kind in kinds {
        let texts = queries(kind, per_kind, items, &mut rng);
        let mut latencies = Vec::with_capacity(texts.len());
        let mut found = 0usize;
        for text in &texts {
            let t = Instant::now();
            let hits = if kind == QueryKind::Baseline {
                usize::from(index.lookup_key(text)?)
            } else {
                index.search(text, &acl, 20)?.len()
            };
            latencies.push(t.elapsed());
            found += hits;
        }
        latencies.sort();
        let p50 = percentile(&latencies, 0.5);
        let p99 = percentile(&latencies, 0.99);
        let base = *baseline_p50.get_or_insert(p50);

        // Throughput: `threads` threads searching for `seconds`.
        let stop = Arc::new(AtomicBool::new(false));
        let done = Arc::new(AtomicU64::new(0));
        let texts = Arc::new(texts);
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let (index, stop, done, texts, acl) = (
                    index.clone(),
                    stop.clone(),
                    done.clone(),
                    texts.clone(),
                    acl.clone(),
                );
                std::thread::spawn(move || {
                    let mut i = t;
                    while !stop.load(Ordering::Relaxed) {
                        let text = &texts[i % texts.len()];
                        let _ = if kind == QueryKind::Baseline {
                            index.lookup_key(text).map(usize::from)
                        } else {
                            index.search(text, &acl, 20).map(|h| h.len())
                        };
                        done.fetch_add(1, Ordering::Relaxed);
                        i += threads;
                    }
                })
            })
            .collect();
        std::thread::sleep(Duration::from_secs(seconds as u64));
        stop.store(true, Ordering::Relaxed);
        for w in workers {
            let _ = w.join();
        }
        let qps = done.load(Ordering::Relaxed) as f64 / seconds as f64;
        println!(
            "{:<24} p50 {:>7.3} ms  p99 {:>7.3} ms  {:>8.0} q/s ({threads} threads)  p50 vs baseline {:>6.1}x  avg hits {:.1}",
            kind.label(),
            ms(p50),
            ms(p99),
            qps,
            p50.as_secs_f64() / base.as_secs_f64(),
            found as f64 / per_kind as f64
        );
    }
    Ok(())
}
