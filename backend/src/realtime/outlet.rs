//! Where a socket's messages go out: its sink, shared between the socket's task and the hub.
//!
//! While the task waits (nothing queued, nothing half-written) the outlet is *open*: the hub
//! writes the next entry itself, into the socket's send buffer, without waking the task. A
//! change for everyone then costs each socket one write, not a queue push, a task wake-up and a
//! poll of its whole loop. Anything the hub cannot write at once (a write that would wait, a gap
//! in the numbers, a session revocation) is queued and closes the outlet; the task takes over,
//! works through its queue in order, and opens the outlet again when the queue is empty. Both
//! sides decide under the outlet's lock, so an entry is never written ahead of one queued
//! before it.

use std::future::poll_fn;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll, Waker};

use axum::extract::ws::{Message, WebSocket};
use futures::stream::SplitSink;
use futures::Sink as _;
use tokio::sync::{mpsc, Notify};

use super::hub::Live;

pub type Sink = SplitSink<WebSocket, Message>;

/// The last numbers sent on a socket, in each stream.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cursors {
    pub user: i64,
    pub broadcast: i64,
}

impl Cursors {
    pub fn of(&mut self, broadcast: bool) -> &mut i64 {
        if broadcast {
            &mut self.broadcast
        } else {
            &mut self.user
        }
    }
}

/// What became of an entry offered to a socket.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Offer {
    /// Written into the socket (or sent before, by the replay).
    Written,
    /// Queued for the socket's task.
    Queued,
    /// The task's queue is full: the socket is too slow.
    Full,
    /// The socket is gone.
    Closed,
    /// Writing failed: the client is gone.
    Failed,
}

struct State {
    sink: Sink,
    sent: Cursors,
    /// The task waits with nothing queued or half-written: the hub may write.
    open: bool,
}

pub struct Outlet {
    state: Mutex<State>,
    /// Tells the task to finish a write the hub began.
    unfinished: Notify,
}

impl Outlet {
    /// Closed until the task has replayed what the client missed.
    pub fn new(sink: Sink) -> Arc<Outlet> {
        Arc::new(Outlet {
            state: Mutex::new(State {
                sink,
                sent: Cursors::default(),
                open: false,
            }),
            unfinished: Notify::new(),
        })
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Called by the hub: writes `live` now if the outlet is open and it is the next entry of
    /// its stream, or queues it on `tx` for the task.
    pub fn offer(&self, live: &Live, tx: &mpsc::Sender<Live>) -> Offer {
        let mut state = self.lock();
        if state.open && live.revocation.is_none() {
            let last = *state.sent.of(live.broadcast);
            if live.seq <= last {
                return Offer::Written;
            }
            if live.seq == last + 1 {
                match write_now(&mut state.sink, &live.text) {
                    Now::Sent => {
                        *state.sent.of(live.broadcast) = live.seq;
                        return Offer::Written;
                    }
                    Now::Started => {
                        // In the sink's buffer; the task finishes the write.
                        *state.sent.of(live.broadcast) = live.seq;
                        state.open = false;
                        self.unfinished.notify_one();
                        return Offer::Written;
                    }
                    Now::Failed => return Offer::Failed,
                    Now::NotReady => {}
                }
            }
        }
        match tx.try_send(live.clone()) {
            Ok(()) => {
                state.open = false;
                Offer::Queued
            }
            Err(mpsc::error::TrySendError::Full(_)) => Offer::Full,
            Err(mpsc::error::TrySendError::Closed(_)) => Offer::Closed,
        }
    }

    /// Called by the task before it writes: closes the outlet to the hub and returns the
    /// numbers sent so far.
    pub fn hold(&self) -> Cursors {
        let mut state = self.lock();
        state.open = false;
        state.sent
    }

    /// Called by the task when it is done: records what it sent and opens the outlet, unless
    /// something was queued meanwhile (then `false`: the task goes on with its queue).
    pub fn release(&self, sent: Cursors, queue: &mpsc::Receiver<Live>) -> bool {
        let mut state = self.lock();
        state.sent = sent;
        if queue.is_empty() {
            state.open = true;
        }
        state.open
    }

    /// Woken when the hub began a write it could not finish.
    pub async fn woken(&self) {
        self.unfinished.notified().await
    }

    /// Queues `message` and, with `flush`, sends everything queued. The outlet must be held.
    pub async fn write(&self, message: Option<Message>, flush: bool) -> Result<(), axum::Error> {
        let mut message = message;
        poll_fn(|cx| {
            let mut state = self.lock();
            let mut sink = Pin::new(&mut state.sink);
            if message.is_some() {
                match sink.as_mut().poll_ready(cx) {
                    Poll::Ready(Ok(())) => {}
                    other => return other,
                }
                if let Some(m) = message.take() {
                    sink.as_mut().start_send(m)?;
                }
            }
            if flush {
                sink.poll_flush(cx)
            } else {
                Poll::Ready(Ok(()))
            }
        })
        .await
    }

    /// Closes the sink (after the close frame). The outlet must be held.
    pub async fn close(&self) -> Result<(), axum::Error> {
        poll_fn(|cx| Pin::new(&mut self.lock().sink).poll_close(cx)).await
    }
}

enum Now {
    Sent,
    /// Taken, not yet all written.
    Started,
    /// The sink cannot take it now.
    NotReady,
    Failed,
}

/// One write without waiting. Its waker wakes nobody: the socket's stream wakes the waker of
/// the last write whenever the socket's readiness changes (each acknowledgement of a write), and
/// a change for everyone must not wake every socket's task. A write that cannot finish is
/// handed to the task, which waits with its own waker.
fn write_now(sink: &mut Sink, text: &axum::extract::ws::Utf8Bytes) -> Now {
    let mut cx = Context::from_waker(Waker::noop());
    let mut sink = Pin::new(sink);
    match sink.as_mut().poll_ready(&mut cx) {
        Poll::Pending => return Now::NotReady,
        Poll::Ready(Err(_)) => return Now::Failed,
        Poll::Ready(Ok(())) => {}
    }
    if sink
        .as_mut()
        .start_send(Message::Text(text.clone()))
        .is_err()
    {
        return Now::Failed;
    }
    match sink.poll_flush(&mut cx) {
        Poll::Ready(Ok(())) => Now::Sent,
        Poll::Ready(Err(_)) => Now::Failed,
        Poll::Pending => Now::Started,
    }
}
