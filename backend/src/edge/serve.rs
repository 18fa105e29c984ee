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
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tokio::task::JoinSet;
use tokio::time::Instant;
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
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(header_read_timeout)
        .keep_alive(true);
    builder
        .http2()
        .timer(TokioTimer::new())
        .keep_alive_interval(Some(header_read_timeout));
    let graceful = GracefulShutdown::new();
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
                    .serve_connection_with_upgrades(TokioIo::new(stream), service)
                    .into_owned();
                let connection = graceful.watch(connection);
                connections.spawn(async move {
                    let _open = OpenConnection::new();
                    if let Err(e) = connection.await {
                        // Timeouts and clients that go away are routine.
                        tracing::debug!(error = %e, %peer, "connection ended");
                    }
                });
            }
        }
    }
    drop(listener);
    let deadline = Instant::now() + grace;
    tokio::select! {
        _ = graceful.shutdown() => {}
        _ = tokio::time::sleep_until(deadline) => {
            tracing::warn!(
                left = connections.len(),
                "connections still open at the end of the shutdown grace period: dropped"
            );
        }
    }
    connections.shutdown().await;
    deadline
}
