-- Events a projection could not apply. While a letter of a projection is `stopped`, that
-- projection stands still (its checkpoint sits just before the event); `skipped` letters were
-- stepped over; `retried` letters were handed back to the projection to try again.
create table projection_dead_letters (
    id bigint generated always as identity primary key,
    projection text not null,
    tx_id bigint not null,
    position bigint not null,
    aggregate_type text not null,
    aggregate_id text not null,
    sequence bigint not null,
    event_type text not null,
    error text not null,
    status text not null,
    recorded_at bigint not null,
    resolved_at bigint
);
create index projection_dead_letters_open on projection_dead_letters (projection, status);
