-- The activity log as evidence: one hash chain per federative unit (events
-- with no unit form a chain of their own), appended under a row lock on the
-- chain's head so two transactions never fork it, and no UPDATE or DELETE
-- except the retention redaction (a CPF replaced by its keyed pseudonym).
ALTER TABLE "activity_log" ADD COLUMN "seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "activity_log" ADD COLUMN "prev_hash" text;--> statement-breakpoint
ALTER TABLE "activity_log" ADD COLUMN "hash" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "activity_log" ADD COLUMN "target" text;--> statement-breakpoint
ALTER TABLE "activity_log" ADD COLUMN "device_id" text;--> statement-breakpoint
ALTER TABLE "activity_log" ADD COLUMN "app_version" text;--> statement-breakpoint
ALTER TABLE "activity_log" ADD COLUMN "client_id" uuid;--> statement-breakpoint
ALTER TABLE "activity_log" ADD COLUMN "occurred_at" timestamp with time zone;--> statement-breakpoint
CREATE TABLE "activity_chain_heads" (
	"chain" text PRIMARY KEY NOT NULL,
	"seq" bigint NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
-- What an event's hash covers: every column but the hashes themselves, and the
-- payload without `cpf`/`cpfPseudonym` (the only thing the retention redaction
-- changes; the person stays in `target` as `cpf:<pseudonym>`).
CREATE FUNCTION "activity_hash_material"("e" "activity_log") RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT jsonb_build_array(
    e.seq, e.type, e.actor_id, e.federative_unit, e.target, e.device_id, e.app_version, e.client_id,
    to_char(e.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    e.payload - 'cpf' - 'cpfPseudonym'
  )::text
$$;
--> statement-breakpoint
CREATE FUNCTION "activity_event_hash"("prev" text, "e" "activity_log") RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT encode(sha256(convert_to(coalesce(prev, '') || '|' || activity_hash_material(e), 'UTF8')), 'hex')
$$;
--> statement-breakpoint
DO $$
DECLARE
  r "activity_log"%ROWTYPE;
  chain_key text := NULL;
  n bigint := 0;
  prev text := NULL;
BEGIN
  FOR r IN SELECT * FROM "activity_log" ORDER BY coalesce("federative_unit", ''), "created_at", "id" LOOP
    IF chain_key IS DISTINCT FROM coalesce(r.federative_unit, '') THEN
      chain_key := coalesce(r.federative_unit, '');
      n := 0;
      prev := NULL;
    END IF;
    n := n + 1;
    r.seq := n;
    r.prev_hash := prev;
    r.occurred_at := r.created_at;
    r.hash := activity_event_hash(prev, r);
    UPDATE "activity_log"
      SET "seq" = r.seq, "prev_hash" = r.prev_hash, "occurred_at" = r.occurred_at, "hash" = r.hash
      WHERE "id" = r.id;
    prev := r.hash;
  END LOOP;
END $$;
--> statement-breakpoint
INSERT INTO "activity_chain_heads" ("chain", "seq", "hash")
  SELECT DISTINCT ON (coalesce("federative_unit", '')) coalesce("federative_unit", ''), "seq", "hash"
  FROM "activity_log" ORDER BY coalesce("federative_unit", ''), "seq" DESC;
--> statement-breakpoint
ALTER TABLE "activity_log" ALTER COLUMN "occurred_at" SET DEFAULT now();--> statement-breakpoint
ALTER TABLE "activity_log" ALTER COLUMN "occurred_at" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "activity_log_chain_seq_idx" ON "activity_log" USING btree (coalesce("federative_unit", ''),"seq");--> statement-breakpoint
CREATE UNIQUE INDEX "activity_log_actor_client_idx" ON "activity_log" USING btree ("actor_id","client_id") WHERE "client_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "activity_log_target_idx" ON "activity_log" USING btree ("target");--> statement-breakpoint
CREATE FUNCTION "activity_log_append"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  chain_key text := coalesce(NEW.federative_unit, '');
  head "activity_chain_heads"%ROWTYPE;
BEGIN
  INSERT INTO "activity_chain_heads" ("chain", "seq", "hash") VALUES (chain_key, 0, '')
    ON CONFLICT ("chain") DO NOTHING;
  -- The head's row lock orders every append of the chain: the next one waits for this commit.
  SELECT * INTO head FROM "activity_chain_heads" WHERE "chain" = chain_key FOR UPDATE;
  NEW.seq := head.seq + 1;
  NEW.prev_hash := nullif(head.hash, '');
  IF NEW.occurred_at IS NULL THEN NEW.occurred_at := NEW.created_at; END IF;
  NEW.hash := activity_event_hash(NEW.prev_hash, NEW);
  UPDATE "activity_chain_heads" SET "seq" = NEW.seq, "hash" = NEW.hash WHERE "chain" = chain_key;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "activity_log_append" BEFORE INSERT ON "activity_log"
  FOR EACH ROW EXECUTE FUNCTION "activity_log_append"();
--> statement-breakpoint
-- Append-only: no DELETE; the one UPDATE allowed is the retention redaction,
-- `payload.cpf` replaced by `payload.cpfPseudonym` (the one of `target` when
-- it names the person), every other column and key unchanged.
CREATE FUNCTION "activity_log_guard"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE'
    AND (NEW.id, NEW.type, NEW.actor_id, NEW.federative_unit, NEW.created_at, NEW.seq, NEW.prev_hash,
         NEW.hash, NEW.target, NEW.device_id, NEW.app_version, NEW.client_id, NEW.occurred_at)
      IS NOT DISTINCT FROM
        (OLD.id, OLD.type, OLD.actor_id, OLD.federative_unit, OLD.created_at, OLD.seq, OLD.prev_hash,
         OLD.hash, OLD.target, OLD.device_id, OLD.app_version, OLD.client_id, OLD.occurred_at)
    AND OLD.payload ? 'cpf'
    AND NOT NEW.payload ? 'cpf'
    AND jsonb_typeof(NEW.payload -> 'cpfPseudonym') = 'string'
    AND NEW.payload = (OLD.payload - 'cpf') || jsonb_build_object('cpfPseudonym', NEW.payload ->> 'cpfPseudonym')
    AND (OLD.target IS NULL OR OLD.target NOT LIKE 'cpf:%'
         OR OLD.target = 'cpf:' || (NEW.payload ->> 'cpfPseudonym'))
  THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'activity_log is append-only: % refused (only the retention redaction of a CPF may change an event)', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER "activity_log_guard" BEFORE UPDATE OR DELETE ON "activity_log"
  FOR EACH ROW EXECUTE FUNCTION "activity_log_guard"();
