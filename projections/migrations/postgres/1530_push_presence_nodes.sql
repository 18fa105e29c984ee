-- Each node writes its sessions with a socket open as they open and close, and says it still
-- runs in its own row here: a steady node writes one row a second, not every session (each
-- rewrite of thousands of rows was a transaction that held back the projector's reading).
-- A session row counts only while its node's row is fresh; `seen_at` of a session row is when
-- it was written.
create table push_presence_nodes (
    node_id text primary key,
    seen_at bigint not null
);
