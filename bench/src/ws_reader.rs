//! The reading side of every socket of `ws-load`, on one thread of its own.
//!
//! The tool runs on the same cores as the node it measures, so what it spends reading a round
//! for everyone is taken from the node. A socket is opened, upgraded and authenticated by the
//! async side, then handed here: one `epoll` set (`mio`) for all of them, read with the
//! synchronous `tungstenite` over the non-blocking stream. Against a task per socket this saves
//! the runtime's wake-up and poll of each socket's task, and the read that only learns the
//! socket is empty (see [`Drained`]).
//!
//! Receipts are timed when their frame is read and handed to the async side in batches, one per
//! look. While frames arrive, the thread pauses [`BATCH_PAUSE`] between looks instead of
//! waiting in `epoll`, so they pile up and are read together: a frame that arrives while a
//! thread waits in `epoll` wakes it, and loopback runs that wake-up in the sender's system
//! call, on the node's processor time. Only after [`IDLE_LOOKS`] empty looks does it wait, and
//! the first frame then wakes it at once.

use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc as std_mpsc, Arc};
use std::time::{Duration, Instant};

use mio::net::TcpStream;
use mio::{Events, Interest, Poll, Token, Waker};
use tokio::sync::{mpsc, OwnedSemaphorePermit};
use tokio_tungstenite::tungstenite::protocol::{Role, WebSocketConfig};
use tokio_tungstenite::tungstenite::{Error as WsError, Message, WebSocket};

use super::{socket_failed, tag_of, Frame, Sample};

/// How long the thread pauses between looks while frames arrive (a receipt is read at most this
/// late).
const BATCH_PAUSE: Duration = Duration::from_micros(250);
/// Empty looks, a pause apart, before the thread waits in `epoll` (5 ms without a frame).
const IDLE_LOOKS: u32 = 20;
/// Wakes the thread to take new sockets.
const ADOPT: Token = Token(usize::MAX);

/// A socket's stream that remembers it was read empty. A read shorter than the buffer, or one
/// that would wait, empties the socket's receive queue; the next read is answered "would wait"
/// without a system call until `epoll` reports the socket readable again. Sound with the
/// edge-triggered `epoll` `mio` uses: every arrival after that read raises a new event.
pub struct Drained {
    stream: TcpStream,
    empty: bool,
}

impl Read for Drained {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.empty {
            return Err(io::ErrorKind::WouldBlock.into());
        }
        match self.stream.read(buf) {
            Ok(n) => {
                self.empty = n < buf.len();
                Ok(n)
            }
            Err(e) => {
                self.empty = e.kind() == io::ErrorKind::WouldBlock;
                Err(e)
            }
        }
    }
}

impl Write for Drained {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.stream.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.stream.flush()
    }
}

/// A socket handed over once its `auth` frame is sent.
pub struct Adopted {
    pub stream: std::net::TcpStream,
    /// The socket's user (its index among the load users).
    pub user: usize,
    /// Held until the socket is ready: bounds the handshakes in flight.
    pub permit: OwnedSemaphorePermit,
}

struct Conn {
    ws: WebSocket<Drained>,
    user: usize,
    permit: Option<OwnedSemaphorePermit>,
}

/// Where the async side hands sockets over.
#[derive(Clone)]
pub struct Reader {
    adopt: std_mpsc::Sender<Adopted>,
    waker: Arc<Waker>,
}

impl Reader {
    /// Starts the thread. `ready` counts sockets that received `ready`, `failed` those that
    /// closed or failed after the hand-over; receipts go to `samples`, a batch per look.
    pub fn start(
        config: WebSocketConfig,
        start: Instant,
        samples: mpsc::UnboundedSender<Vec<Sample>>,
        ready: Arc<AtomicUsize>,
        failed: Arc<AtomicUsize>,
    ) -> io::Result<Reader> {
        let poll = Poll::new()?;
        let waker = Arc::new(Waker::new(poll.registry(), ADOPT)?);
        let (adopt, adopted) = std_mpsc::channel();
        let state = Thread {
            poll,
            adopted,
            conns: Vec::new(),
            config,
            start,
            samples,
            ready,
            failed,
        };
        std::thread::Builder::new()
            .name("ws-reader".into())
            .spawn(move || {
                if let Err(e) = state.run() {
                    eprintln!("socket reader stopped: {e}");
                }
            })?;
        Ok(Reader { adopt, waker })
    }

    /// Hands a socket over. Its first frames (`ready` and whatever follows) are read there.
    pub fn adopt(&self, socket: Adopted) -> anyhow::Result<()> {
        self.adopt
            .send(socket)
            .map_err(|_| anyhow::anyhow!("the socket reader has stopped"))?;
        self.waker.wake()?;
        Ok(())
    }
}

struct Thread {
    poll: Poll,
    adopted: std_mpsc::Receiver<Adopted>,
    conns: Vec<Option<Conn>>,
    config: WebSocketConfig,
    start: Instant,
    samples: mpsc::UnboundedSender<Vec<Sample>>,
    ready: Arc<AtomicUsize>,
    failed: Arc<AtomicUsize>,
}

impl Thread {
    fn run(mut self) -> io::Result<()> {
        let mut events = Events::with_capacity(1024);
        let mut idle_looks = IDLE_LOOKS;
        loop {
            let wait = if idle_looks >= IDLE_LOOKS {
                None
            } else {
                Some(Duration::ZERO)
            };
            if let Err(e) = self.poll.poll(&mut events, wait) {
                if e.kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                return Err(e);
            }
            let mut batch = Vec::new();
            let mut read_any = false;
            for event in &events {
                if event.token() == ADOPT {
                    self.take_new()?;
                    continue;
                }
                read_any = true;
                self.read(event.token().0, &mut batch);
            }
            if !batch.is_empty() && self.samples.send(batch).is_err() {
                // The async side is done: so is the tool.
                return Ok(());
            }
            if read_any {
                idle_looks = 0;
            } else {
                idle_looks = idle_looks.saturating_add(1);
            }
            if idle_looks < IDLE_LOOKS {
                std::thread::sleep(BATCH_PAUSE);
            }
        }
    }

    fn take_new(&mut self) -> io::Result<()> {
        while let Ok(socket) = self.adopted.try_recv() {
            let token = Token(self.conns.len());
            let mut stream = TcpStream::from_std(socket.stream);
            // Frames that arrived before this are reported at once: the set is edge-triggered
            // from the socket's state when added.
            self.poll
                .registry()
                .register(&mut stream, token, Interest::READABLE)?;
            // Nothing was read past the handshake's answer: the server sends nothing before it
            // has checked the `auth` frame.
            let ws = WebSocket::from_raw_socket(
                Drained {
                    stream,
                    empty: false,
                },
                Role::Client,
                Some(self.config),
            );
            self.conns.push(Some(Conn {
                ws,
                user: socket.user,
                permit: Some(socket.permit),
            }));
        }
        Ok(())
    }

    /// Reads every frame the socket has.
    fn read(&mut self, index: usize, batch: &mut Vec<Sample>) {
        let Some(Some(conn)) = self.conns.get_mut(index) else {
            return;
        };
        conn.ws.get_mut().empty = false;
        let error = loop {
            let text = match conn.ws.read() {
                Ok(Message::Text(text)) => text,
                Ok(Message::Close(frame)) => {
                    break anyhow::anyhow!("{}", crate::load_setup::closed_by_server(frame));
                }
                Ok(_) => continue,
                Err(WsError::Io(e)) if e.kind() == io::ErrorKind::WouldBlock => {
                    // A pong that could not be written whole is retried on the next event.
                    match conn.ws.flush() {
                        Ok(()) => return,
                        Err(WsError::Io(e)) if e.kind() == io::ErrorKind::WouldBlock => return,
                        Err(e) => break e.into(),
                    }
                }
                Err(e) => break e.into(),
            };
            let recv_us = self.start.elapsed().as_micros() as u64;
            let frame: Frame = match serde_json::from_str(text.as_str()) {
                Ok(frame) => frame,
                Err(e) => break e.into(),
            };
            match frame.frame {
                "ready" => {
                    self.ready.fetch_add(1, Ordering::Relaxed);
                    conn.permit.take();
                }
                "ping" => {
                    // Sent with the next flush (above) if the socket cannot take it now.
                    match conn.ws.send(Message::text(r#"{"type":"pong"}"#)) {
                        Ok(()) => {}
                        Err(WsError::Io(e)) if e.kind() == io::ErrorKind::WouldBlock => {}
                        Err(e) => break e.into(),
                    }
                }
                // `ready`'s other fields (`seq`, `broadcast_seq`, `epoch`) are not needed: these
                // sockets never resume.
                "message" | "broadcast" => batch.push(Sample {
                    tag: tag_of(&frame),
                    recv_us,
                    user: conn.user,
                }),
                _ => {}
            }
        };
        socket_failed(&self.failed, &error);
        if let Some(mut conn) = self.conns[index].take() {
            let _ = self
                .poll
                .registry()
                .deregister(&mut conn.ws.get_mut().stream);
        }
    }
}
