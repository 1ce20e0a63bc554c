-- The exam list's name search within a period, in date order: the date index
-- also carries the exam's id (the list's order: date, then id) and the
-- searched form of the name, so the period's entries are tested against the
-- name in the index alone (an index-only scan), for the page's ids and for the
-- total counted up to the cap, and only the page's rows are read from the
-- table (exams.repository.ts). Before, a prepared search planned for any name
-- read every exam of the period from the table, twice (the total, then the
-- page sorted in memory): ~9 500 rows for 30 days at 100 000 exams, 8-16 ms.
DROP INDEX IF EXISTS "exams_unit_date_idx";
--> statement-breakpoint
CREATE INDEX "exams_unit_date_idx" ON "exams" ("federative_unit", "scheduling_date", "id") INCLUDE ("search_name");
