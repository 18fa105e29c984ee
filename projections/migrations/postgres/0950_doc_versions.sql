-- The documents read model in time: every version of an item's row and every period an item was
-- shared with a user, valid from `valid_from` until `valid_to` (null: still current). Written by
-- the documents projection in the same transaction as doc_items / doc_shares.
create table doc_item_versions (
    item_id text not null,
    kind text not null,
    space text not null,
    owner_id text,
    owner_name text,
    parent_id text,
    path text not null,
    depth bigint not null,
    name text not null,
    title text not null,
    subtitle text,
    languages_in_file text,
    code_points text,
    size bigint,
    blob text,
    content_type text,
    for_internal_use boolean not null default false,
    controlled_release boolean not null default false,
    upon_request boolean not null default false,
    external_release boolean not null default false,
    copied_from text,
    created_at bigint not null,
    updated_at bigint not null,
    valid_from bigint not null,
    valid_to bigint
);
-- "A folder as of T" reads the folder's own children only.
create index doc_item_versions_parent on doc_item_versions (parent_id, valid_from);
create index doc_item_versions_item on doc_item_versions (item_id, valid_from);

create table doc_share_versions (
    item_id text not null,
    user_id text not null,
    via text not null,
    valid_from bigint not null,
    valid_to bigint
);
create index doc_share_versions_item on doc_share_versions (item_id, user_id, valid_from);

-- A database from before: the current rows are the versions known (their earlier versions were
-- not kept); `companion replay` shows the difference until the projection is rebuilt.
insert into doc_item_versions (item_id, kind, space, owner_id, owner_name, parent_id, path, depth, name, title,
    subtitle, languages_in_file, code_points, size, blob, content_type, for_internal_use, controlled_release,
    upon_request, external_release, copied_from, created_at, updated_at, valid_from)
select id, kind, space, owner_id, owner_name, parent_id, path, depth, name, title,
    subtitle, languages_in_file, code_points, size, blob, content_type, for_internal_use, controlled_release,
    upon_request, external_release, copied_from, created_at, updated_at, updated_at
from doc_items;
insert into doc_share_versions (item_id, user_id, via, valid_from)
select item_id, user_id, via, shared_at from doc_shares;
