-- The read cache of each instance (lib/read-cache.ts) learns that another
-- instance, or anyone with a connection, changed data from a notification:
-- every table a cached answer can be read from gets a statement trigger that
-- sends `NOTIFY read_cache` (no payload: any change makes every cached answer
-- stale). PostgreSQL sends it once per transaction, at commit, and only if
-- the transaction commits.
--
-- Left out, because no cached answer reads them and they change on almost
-- every request or every sign-in: the activity log and its chain heads,
-- sessions, sign-in throttling, rate limits, the mail outbox, password links
-- and their requests, and the realtime events. A test (read-cache.test.ts)
-- fails when a table is neither triggered nor on this list.
CREATE FUNCTION read_cache_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('read_cache', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
DO $$
DECLARE
  t text;
BEGIN
  FOR t IN
    SELECT tablename FROM pg_tables
    WHERE schemaname = 'public'
      AND tablename NOT IN ('activity_log', 'activity_chain_heads', 'sessions', 'login_throttle',
                            'rate_limits', 'mail_outbox', 'password_links', 'password_link_requests',
                            'realtime_events')
    ORDER BY tablename
  LOOP
    EXECUTE format(
      'CREATE TRIGGER read_cache_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I '
      'FOR EACH STATEMENT EXECUTE FUNCTION read_cache_notify()', t);
  END LOOP;
END
$$;
