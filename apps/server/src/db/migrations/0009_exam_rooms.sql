CREATE TABLE "exam_rooms" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"federative_unit" text NOT NULL,
	"scheduling_local_id" uuid NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exam_stations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"exam_room_id" uuid NOT NULL,
	"federative_unit" text NOT NULL,
	"code" text NOT NULL,
	"position" integer NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "exams" ADD COLUMN "interrupted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "check_ins" ADD COLUMN "exam_room_id" uuid;--> statement-breakpoint
ALTER TABLE "exam_rooms" ADD CONSTRAINT "exam_rooms_federative_unit_federative_units_uf_fk" FOREIGN KEY ("federative_unit") REFERENCES "public"."federative_units"("uf") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_rooms" ADD CONSTRAINT "exam_rooms_scheduling_local_id_scheduling_locals_id_fk" FOREIGN KEY ("scheduling_local_id") REFERENCES "public"."scheduling_locals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_stations" ADD CONSTRAINT "exam_stations_exam_room_id_exam_rooms_id_fk" FOREIGN KEY ("exam_room_id") REFERENCES "public"."exam_rooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_stations" ADD CONSTRAINT "exam_stations_federative_unit_federative_units_uf_fk" FOREIGN KEY ("federative_unit") REFERENCES "public"."federative_units"("uf") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "exam_rooms_local_code_key" ON "exam_rooms" USING btree ("scheduling_local_id","code");--> statement-breakpoint
CREATE INDEX "exam_rooms_unit_idx" ON "exam_rooms" USING btree ("federative_unit","scheduling_local_id");--> statement-breakpoint
CREATE UNIQUE INDEX "exam_stations_room_code_key" ON "exam_stations" USING btree ("exam_room_id","code");--> statement-breakpoint
CREATE INDEX "exam_stations_room_position_idx" ON "exam_stations" USING btree ("exam_room_id","position");--> statement-breakpoint
ALTER TABLE "check_ins" ADD CONSTRAINT "check_ins_exam_room_id_exam_rooms_id_fk" FOREIGN KEY ("exam_room_id") REFERENCES "public"."exam_rooms"("id") ON DELETE no action ON UPDATE no action;