CREATE TABLE "check_in_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigserial NOT NULL,
	"check_in_id" uuid NOT NULL,
	"federative_unit" text NOT NULL,
	"type" text NOT NULL,
	"actor_id" uuid,
	"viewer_id" uuid,
	"reason" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "check_in_viewers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"check_in_id" uuid NOT NULL,
	"federative_unit" text NOT NULL,
	"seq" bigserial NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"cpf" text NOT NULL,
	"check_in_date" timestamp with time zone DEFAULT now() NOT NULL,
	"verification_id" uuid,
	"face_key" text,
	"check_out_date" timestamp with time zone,
	"check_out_validated" boolean DEFAULT false NOT NULL,
	"check_out_verification_id" uuid,
	"check_out_face_key" text,
	"removed_at" timestamp with time zone,
	"active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "check_ins" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"federative_unit" text NOT NULL,
	"scheduling_local_id" uuid NOT NULL,
	"scheduling_local" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"opened_by" uuid NOT NULL,
	"device_id" text,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	"closed_by" uuid,
	"close_reason" text,
	"face_validation_required" boolean NOT NULL
);
--> statement-breakpoint
ALTER TABLE "biometric_verifications" ADD COLUMN "verified" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "biometric_verifications" ADD COLUMN "capture_key" text;--> statement-breakpoint
ALTER TABLE "biometric_verifications" ADD COLUMN "consumed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "check_in_events" ADD CONSTRAINT "check_in_events_check_in_id_check_ins_id_fk" FOREIGN KEY ("check_in_id") REFERENCES "public"."check_ins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_in_events" ADD CONSTRAINT "check_in_events_federative_unit_federative_units_uf_fk" FOREIGN KEY ("federative_unit") REFERENCES "public"."federative_units"("uf") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_in_events" ADD CONSTRAINT "check_in_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_in_events" ADD CONSTRAINT "check_in_events_viewer_id_check_in_viewers_id_fk" FOREIGN KEY ("viewer_id") REFERENCES "public"."check_in_viewers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_in_viewers" ADD CONSTRAINT "check_in_viewers_check_in_id_check_ins_id_fk" FOREIGN KEY ("check_in_id") REFERENCES "public"."check_ins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_in_viewers" ADD CONSTRAINT "check_in_viewers_federative_unit_federative_units_uf_fk" FOREIGN KEY ("federative_unit") REFERENCES "public"."federative_units"("uf") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_in_viewers" ADD CONSTRAINT "check_in_viewers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_in_viewers" ADD CONSTRAINT "check_in_viewers_verification_id_biometric_verifications_id_fk" FOREIGN KEY ("verification_id") REFERENCES "public"."biometric_verifications"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_in_viewers" ADD CONSTRAINT "check_in_viewers_check_out_verification_id_biometric_verifications_id_fk" FOREIGN KEY ("check_out_verification_id") REFERENCES "public"."biometric_verifications"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_ins" ADD CONSTRAINT "check_ins_federative_unit_federative_units_uf_fk" FOREIGN KEY ("federative_unit") REFERENCES "public"."federative_units"("uf") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_ins" ADD CONSTRAINT "check_ins_scheduling_local_id_scheduling_locals_id_fk" FOREIGN KEY ("scheduling_local_id") REFERENCES "public"."scheduling_locals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_ins" ADD CONSTRAINT "check_ins_opened_by_users_id_fk" FOREIGN KEY ("opened_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_ins" ADD CONSTRAINT "check_ins_closed_by_users_id_fk" FOREIGN KEY ("closed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "check_in_events_record_idx" ON "check_in_events" USING btree ("check_in_id","seq");--> statement-breakpoint
CREATE INDEX "check_in_viewers_record_idx" ON "check_in_viewers" USING btree ("check_in_id","check_in_date","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "check_in_viewers_one_open_key" ON "check_in_viewers" USING btree ("user_id") WHERE active;--> statement-breakpoint
CREATE INDEX "check_in_viewers_unit_cpf_idx" ON "check_in_viewers" USING btree ("federative_unit","cpf");--> statement-breakpoint
CREATE INDEX "check_ins_unit_opened_idx" ON "check_ins" USING btree ("federative_unit","opened_at");--> statement-breakpoint
CREATE INDEX "check_ins_unit_local_idx" ON "check_ins" USING btree ("federative_unit","scheduling_local","opened_at");--> statement-breakpoint
CREATE INDEX "biometric_verifications_capture_idx" ON "biometric_verifications" USING btree ("capture_key") WHERE capture_key is not null;