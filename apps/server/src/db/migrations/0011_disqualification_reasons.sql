CREATE TABLE "disqualification_reasons" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"federative_unit" text NOT NULL,
	"code" text NOT NULL,
	"text" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "disqualification_reasons" ADD CONSTRAINT "disqualification_reasons_federative_unit_federative_units_uf_fk" FOREIGN KEY ("federative_unit") REFERENCES "public"."federative_units"("uf") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "disqualification_reasons_unit_code_key" ON "disqualification_reasons" USING btree ("federative_unit","code");