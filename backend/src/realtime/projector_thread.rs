//! The projector runs on a thread of its own, with a runtime of its own.
//!
//! Its loop is the one path every command goes through in turn: it appends the waiting
//! commands' events, applies the projections and commits, a dozen statements one after the
//! other. On the server's runtime each of its steps waited behind whatever request handlers
//! the workers were running when its answer came back from the database. On its own thread it
//! is woken by the operating system as soon as its answer is there, and the requests keep
//! every worker of the server's runtime.

use std::future::Future;
use std::sync::{Arc, Mutex};

/// The projector thread's name, as `top -H` and the profilers show it.
pub const THREAD_NAME: &str = "projector";

/// Runs `work` to its end on a new thread with a single-threaded runtime, and returns a future
/// that ends when it has (for the server's task tracker). Dropping that future drops `work` too,
/// as it did on the server's runtime: the projector goes with the runtime that owns it (a server
/// whose runtime is torn down must not keep renewing the projector lease). If no thread or
/// runtime can be made, `work` runs on the caller's runtime instead.
pub fn run<W>(work: W) -> impl Future<Output = ()> + Send
where
    W: Future<Output = ()> + Send + 'static,
{
    // Where `work` waits until the thread takes it: given back if the thread never starts.
    let slot = Arc::new(Mutex::new(Some(work)));
    let (done, finished) = tokio::sync::oneshot::channel::<()>();
    // Never sent: dropped with the returned future, which ends `work` wherever it is.
    let (owner_alive, owner_gone) = tokio::sync::oneshot::channel::<()>();
    let started = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| tracing::error!(error = %e, "cannot build the projector's runtime"))
        .and_then(|runtime| {
            let slot = slot.clone();
            std::thread::Builder::new()
                .name(THREAD_NAME.into())
                .spawn(move || {
                    if let Some(work) = take(&slot) {
                        runtime.block_on(async {
                            tokio::select! {
                                _ = work => {}
                                _ = owner_gone => {}
                            }
                        });
                    }
                    let _ = done.send(());
                })
                .map_err(|e| tracing::error!(error = %e, "cannot start the projector's thread"))
        })
        .is_ok();
    async move {
        let _owner_alive = owner_alive;
        if started {
            let _ = finished.await;
        } else if let Some(work) = take(&slot) {
            work.await
        }
    }
}

fn take<W>(slot: &Mutex<Option<W>>) -> Option<W> {
    slot.lock().unwrap_or_else(|e| e.into_inner()).take()
}
