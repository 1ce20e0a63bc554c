-- A sign-in through an identity provider is either a sign-in (its hand-off
-- opens a session) or a re-authentication before a sensitive action (its
-- hand-off, with the session of the same person, renews that session's
-- proof; the provider is asked to authenticate the person again).
ALTER TABLE "sso_logins" ADD COLUMN "purpose" text DEFAULT 'sign-in' NOT NULL;
--> statement-breakpoint
ALTER TABLE "sso_logins" ADD CONSTRAINT "sso_logins_purpose_check" CHECK (purpose in ('sign-in', 'reauth'));
