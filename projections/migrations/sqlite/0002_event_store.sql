-- The event store (the shape sqlite-es writes) plus the time each event was recorded.
-- The rowid is the global position: SQLite has one writer at a time, so rowid order is commit order.
create table if not exists events (
    aggregate_type text not null,
    aggregate_id text not null,
    sequence integer check (sequence >= 0) not null,
    event_type text not null,
    event_version text not null,
    payload text not null,
    metadata text not null,
    recorded_at bigint not null default (cast(unixepoch('subsec') * 1000 as integer)),
    primary key (aggregate_type, aggregate_id, sequence)
);

create table if not exists snapshots (
    aggregate_type text not null,
    aggregate_id text not null,
    last_sequence integer check (last_sequence >= 0) not null,
    current_snapshot integer check (current_snapshot >= 0) not null,
    payload text not null,
    primary key (aggregate_type, aggregate_id, last_sequence)
);

-- How far each projection has read the global stream; written in the same transaction as its rows.
create table projection_checkpoints (
    name text primary key,
    tx_id bigint not null,
    position bigint not null,
    updated_at bigint not null
);
