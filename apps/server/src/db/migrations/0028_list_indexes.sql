-- The lists at a million exams: each filter and order of the screens reads
-- through an index that matches it, so a page costs what the page holds.
--
-- Extensions: pg_trgm (trigram search of names) and btree_gin (the unit in
-- the same GIN index as the name). Both are "trusted" in PostgreSQL 13 and
-- later, so the database's owner creates them without a superuser; PGlite
-- loads them when it opens (db/client.ts, db/pglite-worker.mjs).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS btree_gin;
--> statement-breakpoint
-- The candidate's name as the search compares it: lower case, without
-- accents, with a leading space so that every word starts after a space
-- (' maria da conceição' -> ' maria da conceicao'). translate and lower are
-- immutable, so the column is generated and follows every write.
ALTER TABLE "exams" ADD COLUMN "search_name" text GENERATED ALWAYS AS (
  ' ' || lower(translate("candidate_name",
    'ÀÁÂÃÄÅàáâãäåÇçÈÉÊËèéêëÌÍÎÏìíîïÑñÒÓÔÕÖòóôõöÙÚÛÜùúûüÝýÿ',
    'AAAAAAaaaaaaCcEEEEeeeeIIIIiiiiNnOOOOOoooooUUUUuuuuYyy'))
) STORED;
--> statement-breakpoint
DROP INDEX IF EXISTS "exams_unit_name_idx";
--> statement-breakpoint
CREATE INDEX "exams_unit_search_name_idx" ON "exams" USING gin ("federative_unit", "search_name" gin_trgm_ops);
--> statement-breakpoint
-- Status and result together (the list's filters; the report's exams).
CREATE INDEX "exams_unit_status_result_date_idx" ON "exams" ("federative_unit", "status", "result", "scheduling_date");
--> statement-breakpoint
-- The list sorted by name.
CREATE INDEX "exams_unit_name_order_idx" ON "exams" ("federative_unit", "candidate_name", "id");
--> statement-breakpoint
-- The audit queue: exams done and in analysis, oldest first.
CREATE INDEX "exams_audit_queue_idx" ON "exams" ("federative_unit", "scheduling_date", "scheduling_id")
  WHERE "status" = 'done' AND "result" = 'in_analysis';
--> statement-breakpoint
-- The dashboard's occurrences panel: the occurrences of the exams the report
-- counts in a period, newest exam first. An occurrence keeps a copy of what
-- the panel filters and orders by from its exam (unit, scheduling date, local
-- as sent with '' for none, and whether the exam counts: not cancelled), so
-- one index serves the filter and the order. The copy is made when the
-- occurrence is written and follows every change of those columns of the exam
-- (the triggers below, in the change's own transaction).
ALTER TABLE "occurrences"
  ADD COLUMN "federative_unit" text,
  ADD COLUMN "scheduling_date" timestamp with time zone,
  ADD COLUMN "scheduling_local" text,
  ADD COLUMN "counted" boolean;
--> statement-breakpoint
UPDATE "occurrences" o SET
  "federative_unit" = e."federative_unit",
  "scheduling_date" = e."scheduling_date",
  "scheduling_local" = coalesce(e."scheduling_local", ''),
  "counted" = e."status" <> 'cancelled'
FROM "exams" e WHERE e."id" = o."exam_id";
--> statement-breakpoint
ALTER TABLE "occurrences"
  ALTER COLUMN "federative_unit" SET NOT NULL,
  ALTER COLUMN "scheduling_date" SET NOT NULL,
  ALTER COLUMN "scheduling_local" SET NOT NULL,
  ALTER COLUMN "counted" SET NOT NULL;
--> statement-breakpoint
CREATE FUNCTION occurrences_copy_exam() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT e.federative_unit, e.scheduling_date, coalesce(e.scheduling_local, ''), e.status <> 'cancelled'
    INTO NEW.federative_unit, NEW.scheduling_date, NEW.scheduling_local, NEW.counted
    FROM exams e WHERE e.id = NEW.exam_id;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER occurrences_copy_exam BEFORE INSERT OR UPDATE ON "occurrences"
  FOR EACH ROW EXECUTE FUNCTION occurrences_copy_exam();
--> statement-breakpoint
CREATE FUNCTION exams_to_occurrences() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- The occurrences' own trigger copies the exam's new values.
  UPDATE occurrences SET exam_id = exam_id WHERE exam_id = NEW.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER exams_to_occurrences AFTER UPDATE ON "exams"
  FOR EACH ROW
  WHEN (OLD.federative_unit IS DISTINCT FROM NEW.federative_unit
    OR OLD.scheduling_date IS DISTINCT FROM NEW.scheduling_date
    OR OLD.scheduling_local IS DISTINCT FROM NEW.scheduling_local
    OR (OLD.status = 'cancelled') IS DISTINCT FROM (NEW.status = 'cancelled'))
  EXECUTE FUNCTION exams_to_occurrences();
--> statement-breakpoint
CREATE INDEX "occurrences_panel_idx" ON "occurrences"
  ("federative_unit", "scheduling_date" DESC, "occurred_at" DESC, "id")
  WHERE "counted";
--> statement-breakpoint
CREATE INDEX "occurrences_panel_local_idx" ON "occurrences"
  ("federative_unit", "scheduling_local", "scheduling_date" DESC, "occurred_at" DESC, "id")
  WHERE "counted";
