CREATE TABLE "biometric_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"federative_unit" text NOT NULL,
	"cpf" text NOT NULL,
	"template_sealed" text NOT NULL,
	"image_keys" jsonb NOT NULL,
	"enrolled_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "biometric_verifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"federative_unit" text NOT NULL,
	"cpf" text NOT NULL,
	"requested_by" uuid,
	"device_id" text,
	"scheduling_local" text,
	"match" boolean NOT NULL,
	"distance" real,
	"threshold" real NOT NULL,
	"liveness" jsonb,
	"error_code" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "biometric_templates" ADD CONSTRAINT "biometric_templates_federative_unit_federative_units_uf_fk" FOREIGN KEY ("federative_unit") REFERENCES "public"."federative_units"("uf") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "biometric_templates_unit_cpf_key" ON "biometric_templates" USING btree ("federative_unit","cpf");--> statement-breakpoint
CREATE INDEX "biometric_verifications_unit_cpf_idx" ON "biometric_verifications" USING btree ("federative_unit","cpf","created_at");