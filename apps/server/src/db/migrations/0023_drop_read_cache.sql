-- The tables no longer announce their changes on the `read_cache` channel:
-- nothing listens to it. Every statement trigger that sends it goes, and
-- then its function.
DO $$
DECLARE
  t regclass;
BEGIN
  FOR t IN
    SELECT tgrelid::regclass FROM pg_trigger
    WHERE tgname = 'read_cache_notify' AND NOT tgisinternal
    ORDER BY 1
  LOOP
    EXECUTE format('DROP TRIGGER read_cache_notify ON %s', t);
  END LOOP;
END
$$;
--> statement-breakpoint
DROP FUNCTION IF EXISTS read_cache_notify();
