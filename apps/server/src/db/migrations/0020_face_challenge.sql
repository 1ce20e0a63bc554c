-- Issue 29: a face is never the only proof of who a person is, and a face
-- check is a live answer to a one-time challenge.
--
-- A challenge (nonce) the server issues before a capture: a random sequence
-- of head movements, bound to the user who asked, the CPF whose face is
-- captured and the purpose, valid for about a minute and used at most once
-- (`used_at` is set by the first take that presents it, whatever its outcome).
CREATE TABLE "face_challenges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"federative_unit" text NOT NULL REFERENCES "federative_units"("uf"),
	"requested_by" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"cpf" text NOT NULL,
	"purpose" text NOT NULL,
	"steps" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "face_challenges_expires_idx" ON "face_challenges" ("expires_at");
--> statement-breakpoint
-- A unit may let a person enter a room's custody by face alone (without their
-- session or password). Off by default; a record admitted that way says so.
ALTER TABLE "federative_units" ADD COLUMN "face_alone_allowed" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
-- The challenge a verification answered, and the factor of the person's own
-- that came with the face: 'session' (the signed-in user is the person),
-- 'password' (typed in the capture flow), 'proctoring' (examiner 2's
-- confirmed password); NULL = the face alone.
ALTER TABLE "biometric_verifications" ADD COLUMN "challenge_id" uuid;
--> statement-breakpoint
ALTER TABLE "biometric_verifications" ADD COLUMN "own_factor" text;
--> statement-breakpoint
-- How each examiner of a record proved who they are: 'session', 'password',
-- 'proctoring' or 'face_only' (the unit allows it). NULL for records written
-- before this column.
ALTER TABLE "check_in_viewers" ADD COLUMN "admitted_by" text;
