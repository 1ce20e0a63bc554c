-- The activity search and the check-in search at volume: each filter and
-- order of the two screens reads through an index that matches it, and their
-- text searches (who, target, details, examiner's name) ignore case and
-- accents through trigram indexes (pg_trgm, btree_gin: migration 0028).
--
-- A text as the searches compare it: lower case, without accents, the same
-- form as exams.search_name (0028) and searchForm() on the query's side. The
-- indexes are on that expression, not on stored columns: an activity event's
-- row stays as its hash chain and guard triggers know it (0017, 0021).
--
-- The activity log, newest first by the server's time and then in chain
-- order (the search's order, whole, so a page stops after its rows).
DROP INDEX IF EXISTS "activity_log_unit_time_idx";
--> statement-breakpoint
CREATE INDEX "activity_log_unit_newest_idx" ON "activity_log"
  ("federative_unit", "created_at", "chain", "seq");
--> statement-breakpoint
-- By type (the type filter and the biometric-access preset).
CREATE INDEX "activity_log_unit_type_newest_idx" ON "activity_log"
  ("federative_unit", "type", "created_at", "chain", "seq");
--> statement-breakpoint
-- By actor (the actor filter: by id, or the users whose name or e-mail match).
CREATE INDEX "activity_log_unit_actor_newest_idx" ON "activity_log"
  ("federative_unit", "actor_id", "created_at", "chain", "seq");
--> statement-breakpoint
-- Part of the target or of the details.
CREATE INDEX "activity_log_unit_text_search_idx" ON "activity_log" USING gin (
  "federative_unit",
  lower(translate("target",
    'ÀÁÂÃÄÅàáâãäåÇçÈÉÊËèéêëÌÍÎÏìíîïÑñÒÓÔÕÖòóôõöÙÚÛÜùúûüÝýÿ',
    'AAAAAAaaaaaaCcEEEEeeeeIIIIiiiiNnOOOOOoooooUUUUuuuuYyy')) gin_trgm_ops,
  lower(translate("payload"::text,
    'ÀÁÂÃÄÅàáâãäåÇçÈÉÊËèéêëÌÍÎÏìíîïÑñÒÓÔÕÖòóôõöÙÚÛÜùúûüÝýÿ',
    'AAAAAAaaaaaaCcEEEEeeeeIIIIiiiiNnOOOOOoooooUUUUuuuuYyy')) gin_trgm_ops
);
--> statement-breakpoint
-- A CPF typed as the target: the events whose details name the person by
-- pseudonym, by user id, or among user ids.
CREATE INDEX "activity_log_cpf_pseudonym_idx" ON "activity_log" (("payload" ->> 'cpfPseudonym'))
  WHERE ("payload" ->> 'cpfPseudonym') IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "activity_log_user_id_idx" ON "activity_log" (("payload" ->> 'userId'));
--> statement-breakpoint
CREATE INDEX "activity_log_user_ids_idx" ON "activity_log" USING gin (("payload" -> 'userIds'));
--> statement-breakpoint
-- The actors whose name or e-mail hold the text.
CREATE INDEX "users_search_idx" ON "users" USING gin (
  lower(translate("name",
    'ÀÁÂÃÄÅàáâãäåÇçÈÉÊËèéêëÌÍÎÏìíîïÑñÒÓÔÕÖòóôõöÙÚÛÜùúûüÝýÿ',
    'AAAAAAaaaaaaCcEEEEeeeeIIIIiiiiNnOOOOOoooooUUUUuuuuYyy')) gin_trgm_ops,
  lower(translate("email",
    'ÀÁÂÃÄÅàáâãäåÇçÈÉÊËèéêëÌÍÎÏìíîïÑñÒÓÔÕÖòóôõöÙÚÛÜùúûüÝýÿ',
    'AAAAAAaaaaaaCcEEEEeeeeIIIIiiiiNnOOOOOoooooUUUUuuuuYyy')) gin_trgm_ops
);
--> statement-breakpoint
-- Check-in records newest first (opened_at, then id: the list's order, whole),
-- of the unit, of a post, the open ones (few among many) and the closed ones
-- (their count reads the index alone).
DROP INDEX IF EXISTS "check_ins_unit_opened_idx";
--> statement-breakpoint
CREATE INDEX "check_ins_unit_opened_idx" ON "check_ins" ("federative_unit", "opened_at", "id");
--> statement-breakpoint
DROP INDEX IF EXISTS "check_ins_unit_local_idx";
--> statement-breakpoint
CREATE INDEX "check_ins_unit_local_idx" ON "check_ins"
  ("federative_unit", "scheduling_local", "opened_at", "id");
--> statement-breakpoint
CREATE INDEX "check_ins_unit_open_idx" ON "check_ins" ("federative_unit", "opened_at", "id")
  WHERE "status" = 'open';
--> statement-breakpoint
CREATE INDEX "check_ins_unit_closed_idx" ON "check_ins" ("federative_unit", "opened_at", "id")
  WHERE "status" <> 'open';
--> statement-breakpoint
-- The examiner's name (the CPF has check_in_viewers_unit_cpf_idx).
CREATE INDEX "check_in_viewers_unit_search_name_idx" ON "check_in_viewers" USING gin (
  "federative_unit",
  lower(translate("name",
    'ÀÁÂÃÄÅàáâãäåÇçÈÉÊËèéêëÌÍÎÏìíîïÑñÒÓÔÕÖòóôõöÙÚÛÜùúûüÝýÿ',
    'AAAAAAaaaaaaCcEEEEeeeeIIIIiiiiNnOOOOOoooooUUUUuuuuYyy')) gin_trgm_ops
);
