-- The event store (the shape postgres-es writes) plus a global position, the writing
-- transaction's id and the time each event was recorded. Readers use (tx_id, global_position)
-- below the oldest open transaction, so an event committed late is never skipped.
create table if not exists events (
    aggregate_type text not null,
    aggregate_id text not null,
    sequence bigint check (sequence >= 0) not null,
    event_type text not null,
    event_version text not null,
    payload json not null,
    metadata json not null,
    primary key (aggregate_type, aggregate_id, sequence)
);
alter table events add column global_position bigint generated always as identity unique;
alter table events add column tx_id xid8 not null default pg_current_xact_id();
alter table events add column recorded_at bigint not null default (floor(extract(epoch from clock_timestamp()) * 1000)::bigint);
create index events_stream on events (tx_id, global_position);

create table if not exists snapshots (
    aggregate_type text not null,
    aggregate_id text not null,
    last_sequence bigint check (last_sequence >= 0) not null,
    current_snapshot bigint check (current_snapshot >= 0) not null,
    payload json not null,
    primary key (aggregate_type, aggregate_id, last_sequence)
);

create table projection_checkpoints (
    name text primary key,
    tx_id bigint not null,
    position bigint not null,
    updated_at bigint not null
);
