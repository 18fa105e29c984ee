-- Session signing keys shared by every node (PostgreSQL without JWT_SECRET). Tokens name their
-- key (`kid`); a key signs from `active_from` and is dropped after `retire_at`, once every token
-- it signed has expired.
create table signing_keys (
    kid text primary key,
    secret text not null,
    created_at timestamptz not null default now(),
    active_from timestamptz not null default now(),
    retire_at timestamptz
);
