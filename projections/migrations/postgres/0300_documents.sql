-- Documents and folders: read models built from `document_item` events (projection "documents").

-- Every live folder and file. `path` is '/' + the ids from the root down to the item + '/', so a
-- subtree is every row whose path starts with the folder's path.
create table doc_items (
    id text primary key,
    kind text not null,                 -- 'folder' | 'file'
    space text not null,                -- 'my' | 'us'
    owner_id text,                      -- null for the company's US set
    owner_name text,
    parent_id text,
    path text not null,
    depth bigint not null,              -- folders: 1 at the root; files: their folder's depth
    name text not null,                 -- folders: the name; files: the download file name
    title text not null,                -- what lists show
    subtitle text,
    languages_in_file text,
    code_points text,
    size bigint,
    blob text,                          -- stored file name in DATA_DIR/files
    content_type text,
    for_internal_use boolean not null default false,
    controlled_release boolean not null default false,
    upon_request boolean not null default false,
    external_release boolean not null default false,
    copied_from text,
    seed_key text,
    created_at bigint not null,
    updated_at bigint not null
);
create index doc_items_parent on doc_items (parent_id);
create index doc_items_owner on doc_items (owner_id, parent_id);
create index doc_items_space on doc_items (space, parent_id);
create index doc_items_seed on doc_items (seed_key);

-- Items shared with a user directly: the roots of their Shared with me.
create table doc_shares (
    item_id text not null,
    user_id text not null,
    shared_by text not null,
    via text not null,                  -- 'internal' | 'storage'
    shared_at bigint not null,
    primary key (item_id, user_id)
);
create index doc_shares_user on doc_shares (user_id);

-- Items that reached a user through a share and that they have not opened yet.
create table doc_unread (
    user_id text not null,
    item_id text not null,
    since bigint not null,
    primary key (user_id, item_id)
);
create index doc_unread_item on doc_unread (item_id);

-- US items a user has opened (US items are unread for a US user until then).
create table doc_seen (
    user_id text not null,
    item_id text not null,
    seen_at bigint not null,
    primary key (user_id, item_id)
);
create index doc_seen_item on doc_seen (item_id);

-- The last 'shared' badge count pushed to each user's feed.
create table doc_badges (
    user_id text primary key,
    shared_unread bigint not null
);

-- Expiring links of external shares, by the SHA-256 of their token.
create table doc_external_links (
    token_hash text primary key,
    item_id text not null,
    email text not null,
    created_by text not null,
    created_at bigint not null,
    expires_at bigint not null
);
create index doc_external_links_item on doc_external_links (item_id);

-- E-mails waiting for a mail relay. Without an SMTP server they stay here (and in the log).
create table outbox (
    id bigint generated always as identity primary key,
    recipient text not null,
    subject text not null,
    body text not null,
    created_at bigint not null,
    sent_at bigint
);
