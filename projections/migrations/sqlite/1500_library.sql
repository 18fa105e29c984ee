-- Library documents' lifecycle, rebuilt from the `library_document` streams.
-- library_state: one row per document (its metadata, the latest and the released version, its
-- end and a cascade still due); library_versions: every version with its review;
-- library_history: every step with its actor; library_holders: who opened, downloaded or
-- pinned which document (on which device); library_purges: devices that confirmed a purge.
create table library_state (
    id bigint primary key,
    title text not null,
    status text not null,
    version bigint not null,
    released_version bigint,
    released_file text,
    released_at bigint,
    audience text not null,
    labels text not null,
    products text not null,
    programmes text not null,
    category text,
    release_at bigint,
    expires_at bigint,
    created_at bigint not null,
    updated_at bigint not null,
    author_id text not null,
    author_name text not null,
    ended_state text,
    ended_at bigint,
    ended_by_id text,
    ended_by_name text,
    ended_reason text,
    replacement bigint,
    ended_items text not null default '[]',
    ended_holders text not null default '[]',
    cascade_due text
);
create index library_state_status on library_state (status);

create table library_versions (
    library_id bigint not null,
    version bigint not null,
    file_name text not null,
    blob text not null,
    size bigint not null,
    sha256 text,
    format text not null,
    note text,
    author_id text not null,
    author_name text not null,
    uploaded_at bigint not null,
    status text not null,
    submitted_at bigint,
    decided_by_id text,
    decided_by_name text,
    decided_at bigint,
    comment text,
    released_at bigint,
    primary key (library_id, version)
);

create table library_history (
    library_id bigint not null,
    seq bigint not null,
    at bigint not null,
    actor_id text not null,
    actor_name text not null,
    action text not null,
    detail text not null,
    primary key (library_id, seq)
);

create table library_holders (
    library_id bigint not null,
    user_id text not null,
    how text not null,
    device text not null,
    at bigint not null,
    primary key (library_id, user_id, how, device)
);

create table library_purges (
    library_id bigint not null,
    device text not null,
    user_id text not null,
    at bigint not null,
    primary key (library_id, device)
);
