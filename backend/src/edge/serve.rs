//! The connection loop (hyper-util instead of `axum::serve`, which has no header-read timeout
//! and no bound on its graceful shutdown).
//!
//! - A client gets `header_read_timeout` to send a request's headers; the same timer runs while
//!   a keep-alive connection waits idle for its next request, so neither a slow client nor an
//!   idle one holds a connection for longer.
//! - Each request carries `ConnectInfo<SocketAddr>` (the peer) for the rate limits.
//! - WebSocket upgrades are served (`serve_connection_with_upgrades`).
//! - On shutdown: stop accepting, let each connection finish its current request, and drop
//!   whatever is left once `grace` has passed.

use std::future::Future;
use std::net::SocketAddr;
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::task::JoinSet;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use tower::ServiceExt;

use crate::metrics::HTTP_CONNECTIONS_OPEN;

/// Counts an open connection for as long as it lives (also when its task is aborted).
struct OpenConnection;

impl OpenConnection {
    fn new() -> Self {
        metrics::gauge!(HTTP_CONNECTIONS_OPEN).increment(1.0);
        OpenConnection
    }
}

impl Drop for OpenConnection {
    fn drop(&mut self) {
        metrics::gauge!(HTTP_CONNECTIONS_OPEN).decrement(1.0);
    }
}

/// Serves `app` until `shutdown` completes, then drains the connections for at most `grace`.
/// Returns when every connection is closed or dropped; the instant the grace period ends is
/// returned for what the caller still has to stop.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    header_read_timeout: Duration,
    grace: Duration,
    shutdown: impl Future<Output = ()>,
) -> Instant {
    // HTTP/1.1 only: browsers speak HTTP/2 to a TLS proxy in front, never in clear text here;
    // detecting the version would wait for a silent client's first bytes without a timeout.
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(header_read_timeout)
        .keep_alive(true);
    let draining = CancellationToken::new();
    let mut connections = JoinSet::new();
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            _ = &mut shutdown => break,
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
            accepted = listener.accept() => {
                let (stream, peer) = match accepted {
                    Ok(accepted) => accepted,
                    Err(e) => {
                        // Out of file descriptors and the like: wait instead of spinning.
                        tracing::warn!(error = %e, "accepting a connection failed");
                        tokio::time::sleep(Duration::from_millis(100)).await;
                        continue;
                    }
                };
                let _ = stream.set_nodelay(true);
                let app = app.clone();
                let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
                    request.extensions_mut().insert(ConnectInfo::<SocketAddr>(peer));
                    app.clone().oneshot(request)
                });
                let connection = builder
                    .serve_connection(TokioIo::new(stream), service)
                    .with_upgrades();
                let draining = draining.clone();
                connections.spawn(async move {
                    let _open = OpenConnection::new();
                    tokio::pin!(connection);
                    let ended = tokio::select! {
                        ended = connection.as_mut() => ended,
                        _ = draining.cancelled() => {
                            // Finish the request in flight, then close.
                            connection.as_mut().graceful_shutdown();
                            connection.await
                        }
                    };
                    if let Err(e) = ended {
                        // Timeouts and clients that go away are routine.
                        tracing::debug!(error = %e, %peer, "connection ended");
                    }
                });
            }
        }
    }
    drop(listener);
    let deadline = Instant::now() + grace;
    draining.cancel();
    let drained = tokio::time::timeout_at(deadline, async {
        while connections.join_next().await.is_some() {}
    })
    .await;
    if drained.is_err() {
        tracing::warn!(
            left = connections.len(),
            "connections still open at the end of the shutdown grace period: dropped"
        );
    }
    connections.shutdown().await;
    deadline
}
