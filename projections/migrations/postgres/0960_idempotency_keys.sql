-- Idempotency-Key: one row per user and key, holding the command's first answer (see
-- backend/src/idempotency.rs and docs/offline.md, "Idempotent commands").
--
-- `id` names one execution of the command: the middleware writes it into the metadata of every
-- event the command records (`idempotency_id`). The trigger below runs inside the events' own
-- transaction: it marks the row `events_recorded`, and refuses the events when no row carries
-- that id any more (the reservation expired and another request took it over), so a retried key
-- can never record its events twice, whatever crashes in between.
create table idempotency_keys (
    id text primary key,
    user_id text not null,
    key text not null,
    -- SHA-256 of the method, the path and query, and the body.
    fingerprint text not null,
    created_at bigint not null,
    expires_at bigint not null,
    -- Until then the executing request owns the row; after it, another request may recover it.
    locked_until bigint not null,
    events_recorded boolean not null default false,
    -- Null while the command runs.
    completed_at bigint,
    -- The stored answer; null status on a completed row: no answer kept (see the docs).
    status bigint,
    content_type text,
    location text,
    body bytea,
    unique (user_id, key)
);
create index idempotency_keys_expiry on idempotency_keys (expires_at);
create index idempotency_keys_user_created on idempotency_keys (user_id, created_at);

create function idempotency_keys_mark_recorded() returns trigger language plpgsql as $$
begin
    update idempotency_keys set events_recorded = true where id = new.metadata->>'idempotency_id';
    if not found then
        raise exception 'the Idempotency-Key reservation % is no longer current', new.metadata->>'idempotency_id'
            using errcode = 'P0001';
    end if;
    return new;
end
$$;

create trigger events_idempotency_keys before insert on events
    for each row when ((new.metadata->>'idempotency_id') is not null)
    execute function idempotency_keys_mark_recorded();
