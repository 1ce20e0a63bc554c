CREATE TABLE "exam_day_counts" (
	"federative_unit" text NOT NULL,
	"day" date NOT NULL,
	"scheduling_local" text NOT NULL,
	"status" text NOT NULL,
	"result" text NOT NULL,
	"exams" bigint DEFAULT 0 NOT NULL,
	"pending_audit" bigint DEFAULT 0 NOT NULL,
	"absence" bigint DEFAULT 0 NOT NULL,
	"interrupted" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "exam_day_counts_pkey" PRIMARY KEY("federative_unit","day","scheduling_local","status","result")
);
--> statement-breakpoint
-- The counters follow every change of exams in the change's own statement
-- and transaction: a statement trigger reads the rows it inserted, updated or
-- deleted (transition tables), adds +1 for each new row and -1 for each old
-- one, groups them by counter row and upserts the sums. The upsert locks the
-- counter row, so concurrent changes to the same post and day wait for each
-- other and lose no increment; rows are taken in key order, so two
-- statements never lock the same rows in opposite orders. An update that
-- changes nothing counted (a name, a room, a similarity) writes nothing.
CREATE FUNCTION exam_day_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO exam_day_counts AS c (federative_unit, day, scheduling_local, status, result, exams, pending_audit, absence, interrupted)
    SELECT federative_unit, (scheduling_date AT TIME ZONE 'America/Sao_Paulo')::date, coalesce(scheduling_local, ''), status, coalesce(result, ''),
           sum(sign), sum(sign * pending_audit), sum(sign * absence), sum(sign * interrupted)
    FROM (SELECT federative_unit, scheduling_date, scheduling_local, status, result, pending_audit, absence, interrupted, 1 AS sign FROM new_rows) AS changed
    GROUP BY 1, 2, 3, 4, 5
    ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (federative_unit, day, scheduling_local, status, result) DO UPDATE SET
      exams = c.exams + excluded.exams,
      pending_audit = c.pending_audit + excluded.pending_audit,
      absence = c.absence + excluded.absence,
      interrupted = c.interrupted + excluded.interrupted;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO exam_day_counts AS c (federative_unit, day, scheduling_local, status, result, exams, pending_audit, absence, interrupted)
    SELECT federative_unit, (scheduling_date AT TIME ZONE 'America/Sao_Paulo')::date, coalesce(scheduling_local, ''), status, coalesce(result, ''),
           sum(sign), sum(sign * pending_audit), sum(sign * absence), sum(sign * interrupted)
    FROM (SELECT federative_unit, scheduling_date, scheduling_local, status, result, pending_audit, absence, interrupted, -1 AS sign FROM old_rows) AS changed
    GROUP BY 1, 2, 3, 4, 5
    ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (federative_unit, day, scheduling_local, status, result) DO UPDATE SET
      exams = c.exams + excluded.exams,
      pending_audit = c.pending_audit + excluded.pending_audit,
      absence = c.absence + excluded.absence,
      interrupted = c.interrupted + excluded.interrupted;
  ELSE
    INSERT INTO exam_day_counts AS c (federative_unit, day, scheduling_local, status, result, exams, pending_audit, absence, interrupted)
    SELECT federative_unit, (scheduling_date AT TIME ZONE 'America/Sao_Paulo')::date, coalesce(scheduling_local, ''), status, coalesce(result, ''),
           sum(sign), sum(sign * pending_audit), sum(sign * absence), sum(sign * interrupted)
    FROM (SELECT federative_unit, scheduling_date, scheduling_local, status, result, pending_audit, absence, interrupted, 1 AS sign FROM new_rows UNION ALL SELECT federative_unit, scheduling_date, scheduling_local, status, result, pending_audit, absence, interrupted, -1 AS sign FROM old_rows) AS changed
    GROUP BY 1, 2, 3, 4, 5
    HAVING sum(sign) <> 0 OR sum(sign * pending_audit) <> 0 OR sum(sign * absence) <> 0 OR sum(sign * interrupted) <> 0
    ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (federative_unit, day, scheduling_local, status, result) DO UPDATE SET
      exams = c.exams + excluded.exams,
      pending_audit = c.pending_audit + excluded.pending_audit,
      absence = c.absence + excluded.absence,
      interrupted = c.interrupted + excluded.interrupted;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER exam_day_counts_insert AFTER INSERT ON exams
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION exam_day_counts_apply();
--> statement-breakpoint
CREATE TRIGGER exam_day_counts_update AFTER UPDATE ON exams
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION exam_day_counts_apply();
--> statement-breakpoint
CREATE TRIGGER exam_day_counts_delete AFTER DELETE ON exams
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION exam_day_counts_apply();
--> statement-breakpoint
CREATE FUNCTION exam_day_counts_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM exam_day_counts;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER exam_day_counts_truncate AFTER TRUNCATE ON exams
  FOR EACH STATEMENT EXECUTE FUNCTION exam_day_counts_truncate();
--> statement-breakpoint
-- The exams already there.
INSERT INTO exam_day_counts (federative_unit, day, scheduling_local, status, result, exams, pending_audit, absence, interrupted)
SELECT federative_unit, (scheduling_date AT TIME ZONE 'America/Sao_Paulo')::date, coalesce(scheduling_local, ''), status, coalesce(result, ''),
       count(*), sum(pending_audit), sum(absence), sum(interrupted)
FROM exams
GROUP BY 1, 2, 3, 4, 5;
