-- The second factor of a password sign-in. `user_factors` holds an
-- authenticator app (its TOTP secret sealed with a key derived from the
-- master key, and the last time step used, so a code works once) or a
-- passkey (WebAuthn credential id, public key and signature counter).
-- `recovery_codes` keeps only hashes of the single-use codes. `mfa_tickets`
-- holds the step between a right password and the second factor (hash of
-- the ticket, 10 minutes, wrong codes counted), and a set-up under way (a
-- TOTP secret or a WebAuthn challenge waiting for its confirmation), keyed
-- by the hash of the ticket or of the session that asked for it.
CREATE TABLE "user_factors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"kind" text NOT NULL,
	"label" text NOT NULL,
	"totp_secret" text,
	"totp_last_step" bigint,
	"credential_id" text,
	"public_key" text,
	"sign_count" bigint DEFAULT 0 NOT NULL,
	"transports" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "user_factors_kind_check" CHECK (kind in ('totp', 'passkey'))
);
--> statement-breakpoint
CREATE INDEX "user_factors_user_idx" ON "user_factors" ("user_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "user_factors_credential_key" ON "user_factors" ("credential_id") WHERE credential_id is not null;
--> statement-breakpoint
CREATE TABLE "recovery_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"code_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "recovery_codes_user_code_key" ON "recovery_codes" ("user_id", "code_hash");
--> statement-breakpoint
CREATE TABLE "mfa_tickets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key_hash" text NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"purpose" text NOT NULL,
	"pending_totp_secret" text,
	"webauthn_challenge" text,
	"failures" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "mfa_tickets_purpose_check" CHECK (purpose in ('sign-in', 'enrol-at-sign-in', 'account'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "mfa_tickets_key" ON "mfa_tickets" ("key_hash");
--> statement-breakpoint
CREATE INDEX "mfa_tickets_expires_idx" ON "mfa_tickets" ("expires_at");
