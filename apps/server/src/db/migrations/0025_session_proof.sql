-- When the person last proved who they are in this session: at sign-in
-- (password or identity provider) and at each re-authentication. Sensitive
-- actions ask for a new proof when this is older than a few minutes.
-- Sessions opened before this version count as never proved.
ALTER TABLE "sessions" ADD COLUMN "proven_at" timestamp with time zone;
