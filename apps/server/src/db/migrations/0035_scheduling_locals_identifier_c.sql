-- The names of a page's posts (the occurrences panel): each local id is looked
-- up by the ranges of identifiers that can map to it, in code-point order, on
-- this index (report-locals.repository.ts, localNames), instead of mapping
-- every post of the unit on every request. The unique index keeps the
-- database's collation, whose order is not that of a prefix.
CREATE INDEX "scheduling_locals_unit_identifier_c_idx" ON "scheduling_locals" ("federative_unit", "identifier" COLLATE "C");
