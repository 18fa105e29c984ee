-- Rebuilds running beside the server (`companion rebuild`, `companion replay`): how far each
-- projection's rebuild is, written about once a second by the process rebuilding it and shown
-- in `/metrics` by the node running the projector. A row not written for a while is a rebuild
-- that ended without removing it (its process killed).
create table rebuild_progress (
    projection text primary key,
    applied bigint not null,
    total bigint not null,
    started_at bigint not null,
    updated_at bigint not null
);
