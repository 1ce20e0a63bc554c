CREATE TABLE "audit_claims" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"federative_unit" text NOT NULL,
	"exam_id" uuid NOT NULL,
	"auditor_id" uuid NOT NULL,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"end_reason" text
);
--> statement-breakpoint
ALTER TABLE "audit_claims" ADD CONSTRAINT "audit_claims_federative_unit_federative_units_uf_fk" FOREIGN KEY ("federative_unit") REFERENCES "public"."federative_units"("uf") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_claims" ADD CONSTRAINT "audit_claims_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_claims" ADD CONSTRAINT "audit_claims_auditor_id_users_id_fk" FOREIGN KEY ("auditor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_claims_one_live_key" ON "audit_claims" USING btree ("exam_id") WHERE ended_at is null;--> statement-breakpoint
CREATE INDEX "audit_claims_auditor_idx" ON "audit_claims" USING btree ("auditor_id","claimed_at");