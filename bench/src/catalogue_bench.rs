//! Latency of the catalogue calls, and of the reads the Home and Documents tabs open with (the
//! unread counts, My Docs), under a steady load, next to a trivial route of the same server in
//! the same run.
//!
//! ```text
//! cargo run --release -p bench --bin catalogue_bench -- [--rate 500] [--seconds 10]
//! ```
//!
//! Starts the real server on a loopback port with a fresh SQLite database (or
//! `DATABASE_URL`), imports the demo content, signs in, then for each route sends requests at a
//! fixed rate (open loop: a request is sent at its scheduled time whether or not earlier ones
//! have answered, and latency counts from that scheduled time, so a stalled server cannot hide
//! its queue). Routes run one after the other, each after a one-second warm-up. The run is
//! bounded: `rate x seconds` requests per route, then it stops.

use std::sync::Arc;
use std::time::{Duration, Instant};

use backend::{Config, Server};
use tokio::sync::Mutex;

struct Args {
    rate: u64,
    seconds: u64,
}

fn args() -> Args {
    let mut out = Args {
        rate: 500,
        seconds: 10,
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let value = it.next().and_then(|v| v.parse::<u64>().ok());
        match (a.as_str(), value) {
            ("--rate", Some(v)) if (1..=5000).contains(&v) => out.rate = v,
            ("--seconds", Some(v)) if (1..=120).contains(&v) => out.seconds = v,
            _ => {
                eprintln!("usage: catalogue_bench [--rate 1..5000] [--seconds 1..120]");
                std::process::exit(2);
            }
        }
    }
    out
}

struct Outcome {
    latencies_us: Vec<u64>,
    errors: usize,
    elapsed: Duration,
}

async fn run_route(
    client: &reqwest::Client,
    url: &str,
    token: &str,
    rate: u64,
    duration: Duration,
) -> Outcome {
    let total = (rate as f64 * duration.as_secs_f64()).round() as u64;
    let period = Duration::from_secs_f64(1.0 / rate as f64);
    let results = Arc::new(Mutex::new((Vec::with_capacity(total as usize), 0usize)));
    let start = Instant::now();
    let mut handles = Vec::with_capacity(total as usize);
    for i in 0..total {
        let scheduled = start + period * i as u32;
        tokio::time::sleep_until(scheduled.into()).await;
        let client = client.clone();
        let url = url.to_string();
        let token = token.to_string();
        let results = results.clone();
        handles.push(tokio::spawn(async move {
            let ok = match client.get(&url).bearer_auth(&token).send().await {
                Ok(res) if res.status().is_success() => res.bytes().await.is_ok(),
                _ => false,
            };
            let micros = scheduled.elapsed().as_micros() as u64;
            let mut r = results.lock().await;
            if ok {
                r.0.push(micros);
            } else {
                r.1 += 1;
            }
        }));
    }
    for h in handles {
        let _ = h.await;
    }
    let elapsed = start.elapsed();
    let (mut latencies_us, errors) = std::mem::take(&mut *results.lock().await);
    latencies_us.sort_unstable();
    Outcome {
        latencies_us,
        errors,
        elapsed,
    }
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p / 100.0) * (sorted.len() - 1) as f64).round() as usize;
    sorted[rank.min(sorted.len() - 1)] as f64 / 1000.0
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let a = args();
    let data = tempfile::tempdir()?;
    let mut config = Config::from_env_and_args(Vec::<String>::new())?;
    config.port = 0;
    config.bind_address = "127.0.0.1".into();
    config.data_dir = data.path().to_path_buf();
    config.content_dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../content").into();
    config.web_dir = data.path().join("web");
    config.jwt_secret = Some("bench-secret-bench-secret-bench-secret-00".into());
    // The demo accounts sign in; the edge's per-address and per-session limits would answer
    // 429 to a load from one loopback client, so they are lifted for the run.
    config.demo = true;
    config.rate_limit_address_per_second = 1_000_000;
    config.rate_limit_address_burst = 1_000_000;
    config.rate_limit_session_per_second = 1_000_000;
    config.rate_limit_session_burst = 1_000_000;
    let engine = if config
        .database_url
        .as_deref()
        .is_some_and(|u| !u.is_empty())
    {
        "PostgreSQL"
    } else {
        "SQLite"
    };

    let server = Server::bind(config).await?;
    let base = format!("http://{}", server.addr);
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let serving = tokio::spawn(server.run(async {
        let _ = stop_rx.await;
    }));

    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(256)
        .timeout(Duration::from_secs(10))
        .build()?;
    let login: serde_json::Value = client
        .post(format!("{base}/api/users/login"))
        .json(&serde_json::json!({"username": "anna.rossi@example.com", "password": "Companion-2026"}))
        .send()
        .await?
        .json()
        .await?;
    let token = login["jwt"].as_str().unwrap_or_default().to_string();
    anyhow::ensure!(!token.is_empty(), "sign-in failed: {login}");

    let routes = [
        ("GET /api/health", "/api/health"),
        ("GET /api/home", "/api/home"),
        ("GET /api/product/101/details", "/api/product/101/details"),
        ("GET /api/badges", "/api/badges"),
        ("GET /api/documents/my", "/api/documents/my"),
    ];
    println!(
        "catalogue_bench: {} req/s for {} s per route, open loop, {engine}, {} cores",
        a.rate,
        a.seconds,
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    );
    println!(
        "{:<30} {:>8} {:>7} {:>9} {:>9} {:>9} {:>9}",
        "route", "ok", "errors", "rate/s", "p50 ms", "p99 ms", "max ms"
    );
    let mut p50s = Vec::new();
    for (label, path) in routes {
        let url = format!("{base}{path}");
        run_route(&client, &url, &token, a.rate, Duration::from_secs(1)).await;
        let o = run_route(
            &client,
            &url,
            &token,
            a.rate,
            Duration::from_secs(a.seconds),
        )
        .await;
        let p50 = percentile(&o.latencies_us, 50.0);
        let p99 = percentile(&o.latencies_us, 99.0);
        let max = o.latencies_us.last().copied().unwrap_or(0) as f64 / 1000.0;
        let achieved = (o.latencies_us.len() + o.errors) as f64 / o.elapsed.as_secs_f64();
        println!(
            "{label:<30} {:>8} {:>7} {achieved:>9.1} {p50:>9.3} {p99:>9.3} {max:>9.3}",
            o.latencies_us.len(),
            o.errors
        );
        p50s.push((label, p50, p99));
    }
    if let Some((_, base50, base99)) = p50s.first().copied() {
        for (label, p50, p99) in &p50s[1..] {
            println!(
                "{label}: p50 {:.2}x, p99 {:.2}x the trivial route",
                p50 / base50,
                p99 / base99
            );
        }
    }

    let _ = stop_tx.send(());
    let _ = serving.await;
    Ok(())
}
