CREATE TABLE "demo_candidates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"federative_unit" text NOT NULL,
	"cpf" text NOT NULL,
	"name" text NOT NULL,
	"birth_date" date NOT NULL,
	"email" text,
	"phone" text,
	"consent_at" timestamp with time zone,
	"consent_version" text,
	"consent_text_sha256" text,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_verification" jsonb,
	CONSTRAINT "demo_candidates_demo_unit" CHECK ("demo_candidates"."federative_unit" = 'DEMO')
);
--> statement-breakpoint
ALTER TABLE "demo_candidates" ADD CONSTRAINT "demo_candidates_federative_unit_federative_units_uf_fk" FOREIGN KEY ("federative_unit") REFERENCES "public"."federative_units"("uf") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "demo_candidates" ADD CONSTRAINT "demo_candidates_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "demo_candidates_unit_cpf_key" ON "demo_candidates" USING btree ("federative_unit","cpf");