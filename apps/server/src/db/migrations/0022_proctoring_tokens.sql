-- Examiner 2's confirmation (`api/Auth/viewer-checkin`) is a
-- single-use proof kept on the server, bound to the examiner 1 it was given
-- to (and that session of theirs: `issued_session`, a hash of its hash), to the post it was asked for and, when asked for an open record
-- (adding to it, or receiving it by transfer), to that record. The first
-- admission that uses it marks it used (`used_at`, `used_for`); a removed
-- examiner 2 is not put back, nor taken to another post, by the same token.
-- Only the SHA-256 of the token is stored.
CREATE TABLE "proctoring_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"federative_unit" text NOT NULL REFERENCES "federative_units"("uf"),
	"issued_to" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"issued_session" text NOT NULL,
	"person_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"scheduling_local" text NOT NULL,
	"check_in_id" uuid REFERENCES "check_ins"("id") ON DELETE CASCADE,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"used_for" uuid REFERENCES "check_ins"("id") ON DELETE SET NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "proctoring_tokens_token_key" ON "proctoring_tokens" ("token_hash");
--> statement-breakpoint
CREATE INDEX "proctoring_tokens_expires_idx" ON "proctoring_tokens" ("expires_at");
