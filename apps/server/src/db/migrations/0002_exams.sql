CREATE TABLE "exam_photos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"exam_id" uuid NOT NULL,
	"captured_at" timestamp with time zone NOT NULL,
	"storage_key" text NOT NULL,
	"content_type" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exam_status_history" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"exam_id" uuid NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"from_result" text,
	"to_result" text,
	"source" text NOT NULL,
	"actor_id" uuid,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exams" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"federative_unit" text NOT NULL,
	"scheduling_id" text NOT NULL,
	"candidate_name" text NOT NULL,
	"candidate_cpf" text NOT NULL,
	"candidate_renach" text,
	"scheduling_date" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"result" text,
	"score" numeric(5, 2),
	"scheduling_local" text,
	"pending_audit" integer DEFAULT 0 NOT NULL,
	"absence" integer DEFAULT 0 NOT NULL,
	"interrupted" integer DEFAULT 0 NOT NULL,
	"room" text,
	"station" text,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integration_api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"federative_unit" text NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"key_hash" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"revoked_by" uuid
);
--> statement-breakpoint
CREATE TABLE "occurrences" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"exam_id" uuid NOT NULL,
	"external_id" text,
	"type" text NOT NULL,
	"description" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"photo_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scheduling_locals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"federative_unit" text NOT NULL,
	"identifier" text NOT NULL,
	"description" text NOT NULL,
	"address" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "exam_photos" ADD CONSTRAINT "exam_photos_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_status_history" ADD CONSTRAINT "exam_status_history_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exams" ADD CONSTRAINT "exams_federative_unit_federative_units_uf_fk" FOREIGN KEY ("federative_unit") REFERENCES "public"."federative_units"("uf") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_api_keys" ADD CONSTRAINT "integration_api_keys_federative_unit_federative_units_uf_fk" FOREIGN KEY ("federative_unit") REFERENCES "public"."federative_units"("uf") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_api_keys" ADD CONSTRAINT "integration_api_keys_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integration_api_keys" ADD CONSTRAINT "integration_api_keys_revoked_by_users_id_fk" FOREIGN KEY ("revoked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "occurrences" ADD CONSTRAINT "occurrences_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "occurrences" ADD CONSTRAINT "occurrences_photo_id_exam_photos_id_fk" FOREIGN KEY ("photo_id") REFERENCES "public"."exam_photos"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduling_locals" ADD CONSTRAINT "scheduling_locals_federative_unit_federative_units_uf_fk" FOREIGN KEY ("federative_unit") REFERENCES "public"."federative_units"("uf") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "exam_photos_exam_idx" ON "exam_photos" USING btree ("exam_id","captured_at");--> statement-breakpoint
CREATE UNIQUE INDEX "exam_photos_exam_sha_key" ON "exam_photos" USING btree ("exam_id","sha256");--> statement-breakpoint
CREATE INDEX "exam_status_history_exam_idx" ON "exam_status_history" USING btree ("exam_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "exams_unit_scheduling_id_key" ON "exams" USING btree ("federative_unit","scheduling_id");--> statement-breakpoint
CREATE INDEX "exams_unit_date_idx" ON "exams" USING btree ("federative_unit","scheduling_date");--> statement-breakpoint
CREATE INDEX "exams_report_idx" ON "exams" USING btree ("federative_unit","scheduling_date","scheduling_local") WHERE status <> 'cancelled';--> statement-breakpoint
CREATE INDEX "exams_unit_status_date_idx" ON "exams" USING btree ("federative_unit","status","scheduling_date");--> statement-breakpoint
CREATE INDEX "exams_unit_local_date_idx" ON "exams" USING btree ("federative_unit","scheduling_local","scheduling_date");--> statement-breakpoint
CREATE INDEX "exams_unit_cpf_idx" ON "exams" USING btree ("federative_unit","candidate_cpf");--> statement-breakpoint
CREATE INDEX "exams_unit_name_idx" ON "exams" USING btree ("federative_unit",lower("candidate_name") text_pattern_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "integration_api_keys_hash_key" ON "integration_api_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "occurrences_exam_idx" ON "occurrences" USING btree ("exam_id","occurred_at");--> statement-breakpoint
CREATE UNIQUE INDEX "occurrences_exam_external_key" ON "occurrences" USING btree ("exam_id","external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "scheduling_locals_unit_identifier_key" ON "scheduling_locals" USING btree ("federative_unit","identifier");--> statement-breakpoint
CREATE INDEX "scheduling_locals_unit_description_idx" ON "scheduling_locals" USING btree ("federative_unit","description");