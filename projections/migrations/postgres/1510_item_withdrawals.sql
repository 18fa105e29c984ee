-- A company document withdrawn (or expired) is marked on its item and on every copy of it: why,
-- since when and what replaces it. Lists drop such items everywhere but their owners' My Docs;
-- the item's versions keep the columns so the read model in time shows it too.
alter table doc_items add column withdrawn_state text;
alter table doc_items add column withdrawn_reason text;
alter table doc_items add column withdrawn_at bigint;
alter table doc_items add column replacement_id bigint;
alter table doc_items add column replacement_title text;
alter table doc_items add column replacement_url text;
alter table doc_item_versions add column withdrawn_state text;
alter table doc_item_versions add column withdrawn_reason text;
alter table doc_item_versions add column withdrawn_at bigint;
alter table doc_item_versions add column replacement_id bigint;
alter table doc_item_versions add column replacement_title text;
alter table doc_item_versions add column replacement_url text;
-- The copies of an item (saved or moved to someone's My Docs), found from the original.
create index doc_items_copied_from on doc_items (copied_from);
-- Also through copies since removed: a copy of a copy outlives the copy it was made from.
create index doc_item_versions_copied_from on doc_item_versions (copied_from);
