//! What the task handling a request knows about it without being handed it: the request's id
//! (set by `edge::request_id`) and the `Idempotency-Key` execution it runs (set by
//! `idempotency`). The event store writes both into the metadata of every event it records.

use std::future::Future;

/// The metadata entry naming the `Idempotency-Key` execution (row id) that recorded an event.
pub const IDEMPOTENCY_METADATA_ENTRY: &str = "idempotency_id";

tokio::task_local! {
    static REQUEST_ID: String;
    static EXECUTION: Option<String>;
}

/// The id of the request being handled by this task, if any.
pub fn request_id() -> Option<String> {
    REQUEST_ID.try_with(Clone::clone).ok()
}

/// Runs `work` as the request `id`.
pub fn with_request_id<F: Future>(id: String, work: F) -> impl Future<Output = F::Output> {
    REQUEST_ID.scope(id, work)
}

/// The execution (row id) of the command this task runs, if it came with a key.
pub fn execution() -> Option<String> {
    EXECUTION.try_with(Clone::clone).ok().flatten()
}

/// Runs `work` as the command execution `id`.
pub fn with_execution<F: Future>(id: Option<String>, work: F) -> impl Future<Output = F::Output> {
    EXECUTION.scope(id, work)
}

/// Runs `work` (e.g. a task spawned to do a request's work) under the current request's id and
/// `Idempotency-Key` execution, so the events it records carry both.
pub fn carry<F: Future>(work: F) -> impl Future<Output = F::Output> {
    let id = request_id().unwrap_or_default();
    REQUEST_ID.scope(id, EXECUTION.scope(execution(), work))
}
