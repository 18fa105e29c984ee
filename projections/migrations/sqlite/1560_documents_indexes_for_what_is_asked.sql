-- Indexes kept for what queries ask, and only over the rows they can find.
-- No query looks items up by their seed key (the demo content's seeding reads the events) or
-- by the item they were copied from (copies are found through the versions, below): those two
-- indexes were kept up to date at every item written, and built again at every rebuild, for
-- nothing. The versions' index of copies holds the copies alone: `copied_from in (...)` never
-- matches a null, and most items are no copy (nine in ten and more), so an entry for each of
-- them only made the index larger to keep and to build.
drop index doc_items_seed;
drop index doc_items_copied_from;
drop index doc_item_versions_copied_from;
create index doc_item_versions_copied_from on doc_item_versions (copied_from)
    where copied_from is not null;
