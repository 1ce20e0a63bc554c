-- Browser events (page views, errors, stream logs: the rows with a client id)
-- are appended to a hash chain of their own per unit, `<unit>/web`, so that
-- their retention can drop the oldest of them while every chain still checks
-- out: a chain loses events only from its start, and its head records the
-- last event dropped (`base_seq`, `base_hash`), where its check then begins.
-- Events of before stay in the chain they were appended to.
ALTER TABLE "activity_log" ADD COLUMN "chain" text;--> statement-breakpoint
ALTER TABLE "activity_log" DISABLE TRIGGER "activity_log_guard";--> statement-breakpoint
UPDATE "activity_log" SET "chain" = coalesce("federative_unit", '');--> statement-breakpoint
ALTER TABLE "activity_log" ENABLE TRIGGER "activity_log_guard";--> statement-breakpoint
ALTER TABLE "activity_log" ALTER COLUMN "chain" SET DEFAULT '';--> statement-breakpoint
ALTER TABLE "activity_log" ALTER COLUMN "chain" SET NOT NULL;--> statement-breakpoint
DROP INDEX "activity_log_chain_seq_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "activity_log_chain_seq_idx" ON "activity_log" USING btree ("chain","seq");--> statement-breakpoint
ALTER TABLE "activity_chain_heads" ADD COLUMN "base_seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "activity_chain_heads" ADD COLUMN "base_hash" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "activity_log_append"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  chain_key text := coalesce(NEW.federative_unit, '')
    || CASE WHEN NEW.client_id IS NOT NULL THEN '/web' ELSE '' END;
  head "activity_chain_heads"%ROWTYPE;
BEGIN
  -- The head's row lock orders every append of the chain: the next one waits for this commit.
  SELECT * INTO head FROM "activity_chain_heads" WHERE "chain" = chain_key FOR UPDATE;
  IF NOT FOUND THEN
    -- A new chain: two first appends at once meet on the primary key, the second waits.
    INSERT INTO "activity_chain_heads" ("chain", "seq", "hash") VALUES (chain_key, 0, '')
      ON CONFLICT ("chain") DO NOTHING;
    SELECT * INTO head FROM "activity_chain_heads" WHERE "chain" = chain_key FOR UPDATE;
  END IF;
  NEW.chain := chain_key;
  NEW.seq := head.seq + 1;
  NEW.prev_hash := nullif(head.hash, '');
  IF NEW.occurred_at IS NULL THEN NEW.occurred_at := NEW.created_at; END IF;
  NEW.hash := activity_event_hash(NEW.prev_hash, NEW);
  UPDATE "activity_chain_heads" SET "seq" = NEW.seq, "hash" = NEW.hash WHERE "chain" = chain_key;
  RETURN NEW;
END $$;
--> statement-breakpoint
-- Append-only: the one UPDATE allowed is the retention redaction (a CPF
-- replaced by its keyed pseudonym), the one DELETE the retention of browser
-- events, and only of events their chain's head already counts as dropped.
CREATE OR REPLACE FUNCTION "activity_log_guard"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE'
    AND OLD.chain LIKE '%/web'
    AND OLD.seq <= (SELECT "base_seq" FROM "activity_chain_heads" WHERE "chain" = OLD.chain)
  THEN
    RETURN OLD;
  END IF;
  IF TG_OP = 'UPDATE'
    AND (NEW.id, NEW.type, NEW.actor_id, NEW.federative_unit, NEW.created_at, NEW.seq, NEW.prev_hash,
         NEW.hash, NEW.target, NEW.device_id, NEW.app_version, NEW.client_id, NEW.occurred_at, NEW.chain)
      IS NOT DISTINCT FROM
        (OLD.id, OLD.type, OLD.actor_id, OLD.federative_unit, OLD.created_at, OLD.seq, OLD.prev_hash,
         OLD.hash, OLD.target, OLD.device_id, OLD.app_version, OLD.client_id, OLD.occurred_at, OLD.chain)
    AND OLD.payload ? 'cpf'
    AND NOT NEW.payload ? 'cpf'
    AND jsonb_typeof(NEW.payload -> 'cpfPseudonym') = 'string'
    AND NEW.payload = (OLD.payload - 'cpf') || jsonb_build_object('cpfPseudonym', NEW.payload ->> 'cpfPseudonym')
    AND (OLD.target IS NULL OR OLD.target NOT LIKE 'cpf:%'
         OR OLD.target = 'cpf:' || (NEW.payload ->> 'cpfPseudonym'))
  THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'activity_log is append-only: % refused (only the retention redaction of a CPF, or of old browser events, may change it)', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
-- A chain's head only moves forward: one more event (seq + 1), or further
-- events dropped by retention (base_seq up to seq). Never reset nor deleted.
CREATE FUNCTION "activity_chain_heads_guard"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.chain = OLD.chain AND (
       (NEW.seq = OLD.seq + 1 AND NEW.base_seq = OLD.base_seq AND NEW.base_hash = OLD.base_hash)
    OR (NEW.seq = OLD.seq AND NEW.hash = OLD.hash AND NEW.base_seq > OLD.base_seq
        AND NEW.base_seq <= NEW.seq AND NEW.chain LIKE '%/web'))
  THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'activity_chain_heads: % refused (a chain head only moves forward)', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER "activity_chain_heads_guard" BEFORE UPDATE OR DELETE ON "activity_chain_heads"
  FOR EACH ROW EXECUTE FUNCTION "activity_chain_heads_guard"();
--> statement-breakpoint
CREATE FUNCTION "activity_no_truncate"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: TRUNCATE refused', TG_TABLE_NAME
    USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER "activity_log_no_truncate" BEFORE TRUNCATE ON "activity_log"
  FOR EACH STATEMENT EXECUTE FUNCTION "activity_no_truncate"();
--> statement-breakpoint
CREATE TRIGGER "activity_chain_heads_no_truncate" BEFORE TRUNCATE ON "activity_chain_heads"
  FOR EACH STATEMENT EXECUTE FUNCTION "activity_no_truncate"();
