-- The auditor's read models (projection "audit"), built from `document_item` events.

-- Every document and folder there ever was, deleted ones included, as it is now or was when it
-- was deleted. `name_key` is the name in lower case (folded by the server, the same on both
-- engines) for case-insensitive search.
create table audit_items (
    id text primary key,
    kind text not null,                 -- 'folder' | 'file'
    format text,                        -- files: 'pdf' | 'xls'
    space text not null,                -- 'my' | 'us'
    owner_id text,                      -- null for the company's US set
    owner_name text,                    -- the owner's name as the events carried it
    name text not null,                 -- folders: the name; files: the title
    name_key text not null,
    created_at bigint not null,
    created_by text not null,
    updated_at bigint not null,
    deleted_at bigint,
    deleted_by text
);
create index audit_items_name on audit_items (name_key);
create index audit_items_owner on audit_items (owner_id, created_at);
create index audit_items_created on audit_items (created_at);
create index audit_items_deleted on audit_items (deleted_at);

-- Every event on a document or folder, by its global position in the event stream (a stable
-- key: pages walked newest first by position never repeat or skip an entry).
create table audit_activity (
    position bigint primary key,
    at bigint not null,
    actor_id text not null,
    action text not null,
    item_id text not null,
    item_kind text not null,
    item_name text not null,            -- the item's name after the event
    detail text not null
);
create index audit_activity_actor on audit_activity (actor_id, position);
create index audit_activity_action on audit_activity (action, position);
create index audit_activity_at on audit_activity (at);
