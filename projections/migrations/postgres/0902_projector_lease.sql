-- The projector's lease: one row per lease name. The owner renews `expires_at` every second or
-- so; another node takes the row over once it has expired, raising `fencing`. Every projector
-- batch checks (owner, fencing) in the transaction that moves its checkpoint.
create table projector_lease (
    name text primary key,
    owner text not null,
    fencing bigint not null,
    expires_at timestamptz not null,
    taken_at timestamptz not null default now()
);

-- The nodes that use this database, with where they keep their files.
create table cluster_nodes (
    node_id text primary key,
    data_dir text not null,
    file_store text not null,
    started_at timestamptz not null default now(),
    last_seen timestamptz not null default now()
);
