CREATE TABLE "audit_decisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"federative_unit" text NOT NULL,
	"exam_id" uuid NOT NULL,
	"auditor_id" uuid NOT NULL,
	"outcome" text NOT NULL,
	"reason_id" uuid,
	"note" text,
	"state" text NOT NULL,
	"confirmation" text,
	"decided_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_by" uuid,
	"confirmed_at" timestamp with time zone,
	"confirmation_note" text,
	"reopened_by" uuid,
	"reopened_at" timestamp with time zone,
	"reopen_reason" text
);
--> statement-breakpoint
CREATE TABLE "photo_marks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"federative_unit" text NOT NULL,
	"exam_id" uuid NOT NULL,
	"photo_id" uuid NOT NULL,
	"auditor_id" uuid NOT NULL,
	"verdict" text NOT NULL,
	"marked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "exam_photos_exam_sha_key";--> statement-breakpoint
ALTER TABLE "exam_photos" ADD COLUMN "kind" text DEFAULT 'capture' NOT NULL;--> statement-breakpoint
ALTER TABLE "exam_photos" ADD COLUMN "face_status" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "exam_photos" ADD COLUMN "face_descriptor" real[];--> statement-breakpoint
ALTER TABLE "exam_photos" ADD COLUMN "face_analysed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "face_min_similarity" real;--> statement-breakpoint
ALTER TABLE "audit_decisions" ADD CONSTRAINT "audit_decisions_federative_unit_federative_units_uf_fk" FOREIGN KEY ("federative_unit") REFERENCES "public"."federative_units"("uf") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_decisions" ADD CONSTRAINT "audit_decisions_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_decisions" ADD CONSTRAINT "audit_decisions_auditor_id_users_id_fk" FOREIGN KEY ("auditor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_decisions" ADD CONSTRAINT "audit_decisions_reason_id_disqualification_reasons_id_fk" FOREIGN KEY ("reason_id") REFERENCES "public"."disqualification_reasons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_decisions" ADD CONSTRAINT "audit_decisions_confirmed_by_users_id_fk" FOREIGN KEY ("confirmed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_decisions" ADD CONSTRAINT "audit_decisions_reopened_by_users_id_fk" FOREIGN KEY ("reopened_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "photo_marks" ADD CONSTRAINT "photo_marks_federative_unit_federative_units_uf_fk" FOREIGN KEY ("federative_unit") REFERENCES "public"."federative_units"("uf") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "photo_marks" ADD CONSTRAINT "photo_marks_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "photo_marks" ADD CONSTRAINT "photo_marks_photo_id_exam_photos_id_fk" FOREIGN KEY ("photo_id") REFERENCES "public"."exam_photos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "photo_marks" ADD CONSTRAINT "photo_marks_auditor_id_users_id_fk" FOREIGN KEY ("auditor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_decisions_one_open_key" ON "audit_decisions" USING btree ("exam_id") WHERE state in ('awaiting_confirmation', 'effective');--> statement-breakpoint
CREATE INDEX "audit_decisions_exam_idx" ON "audit_decisions" USING btree ("exam_id","decided_at");--> statement-breakpoint
CREATE INDEX "audit_decisions_auditor_idx" ON "audit_decisions" USING btree ("auditor_id","decided_at");--> statement-breakpoint
CREATE UNIQUE INDEX "photo_marks_photo_key" ON "photo_marks" USING btree ("photo_id");--> statement-breakpoint
CREATE INDEX "photo_marks_auditor_idx" ON "photo_marks" USING btree ("auditor_id","marked_at");--> statement-breakpoint
CREATE UNIQUE INDEX "exam_photos_one_reference_key" ON "exam_photos" USING btree ("exam_id") WHERE kind = 'reference';--> statement-breakpoint
CREATE INDEX "exam_photos_face_pending_idx" ON "exam_photos" USING btree ("exam_id") WHERE face_status = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "exam_photos_exam_sha_key" ON "exam_photos" USING btree ("exam_id","kind","sha256");