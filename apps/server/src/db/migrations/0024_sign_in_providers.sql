-- Single sign-on with a unit's OpenID Connect providers. A provider belongs
-- to one unit and signs in only that unit's users; its client secret is
-- sealed with a key derived from the master key. `sso_logins` holds a
-- sign-in under way (hash of its state, PKCE verifier, nonce, and the hash
-- of the cookie that ties it to the browser that started it; 10 minutes)
-- and then the one-time hand-off the browser exchanges for its session (hash
-- only; 60 seconds). `user_identities` links a provider's subject to a user.
CREATE TABLE "identity_providers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"federative_unit" text NOT NULL REFERENCES "federative_units"("uf"),
	"name" text NOT NULL,
	"issuer" text NOT NULL,
	"client_id" text NOT NULL,
	"client_secret" text,
	"allowed_domains" text[] DEFAULT '{}'::text[] NOT NULL,
	"cpf_claim" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "identity_providers_unit_idx" ON "identity_providers" ("federative_unit", "name");
--> statement-breakpoint
CREATE TABLE "sso_logins" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"provider_id" uuid NOT NULL REFERENCES "identity_providers"("id") ON DELETE CASCADE,
	"state_hash" text NOT NULL,
	"code_verifier" text NOT NULL,
	"nonce" text NOT NULL,
	"browser_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone,
	"handoff_hash" text,
	"user_id" uuid REFERENCES "users"("id") ON DELETE CASCADE,
	"handoff_expires_at" timestamp with time zone,
	"logout_url" text
);
--> statement-breakpoint
CREATE UNIQUE INDEX "sso_logins_state_key" ON "sso_logins" ("state_hash");
--> statement-breakpoint
CREATE UNIQUE INDEX "sso_logins_handoff_key" ON "sso_logins" ("handoff_hash") WHERE handoff_hash is not null;
--> statement-breakpoint
CREATE INDEX "sso_logins_expires_idx" ON "sso_logins" ("expires_at");
--> statement-breakpoint
CREATE TABLE "user_identities" (
	"provider_id" uuid NOT NULL REFERENCES "identity_providers"("id") ON DELETE CASCADE,
	"subject" text NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"linked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_identities_pkey" PRIMARY KEY ("provider_id", "subject")
);
--> statement-breakpoint
CREATE INDEX "user_identities_user_idx" ON "user_identities" ("user_id");
