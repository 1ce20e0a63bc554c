-- Possible proxy test-takers ("Possíveis fraudes", modules/fraud): each
-- exam's face (the mean of its captures' descriptors) is kept while it is
-- searchable, and exams of different CPFs with the same face form a case.
-- `seq` grows with every write of a face: the processes that hold the
-- unit's search index in memory catch up from the last one they saw.
CREATE SEQUENCE "exam_faces_seq";
--> statement-breakpoint
CREATE TABLE "exam_faces" (
	"exam_id" uuid PRIMARY KEY NOT NULL REFERENCES "exams"("id") ON DELETE cascade,
	"federative_unit" text NOT NULL REFERENCES "federative_units"("uf"),
	"candidate_cpf" text NOT NULL,
	"scheduling_date" timestamp with time zone NOT NULL,
	"descriptor" real[] NOT NULL,
	"descriptor_version" text NOT NULL,
	"captures" integer NOT NULL,
	"seq" bigint DEFAULT nextval('exam_faces_seq') NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "exam_faces_unit_seq_idx" ON "exam_faces" ("federative_unit", "seq");
--> statement-breakpoint
CREATE INDEX "exam_faces_unit_date_idx" ON "exam_faces" ("federative_unit", "scheduling_date");
--> statement-breakpoint
CREATE TABLE "fraud_cases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"federative_unit" text NOT NULL REFERENCES "federative_units"("uf"),
	"number" integer NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"highest_similarity" real NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_to_audit_at" timestamp with time zone,
	"sent_to_audit_by" uuid REFERENCES "users"("id"),
	"closed_at" timestamp with time zone,
	"closed_by" uuid REFERENCES "users"("id"),
	"note" text,
	CONSTRAINT "fraud_cases_status_check" CHECK (status in ('open', 'confirmed', 'dismissed')),
	CONSTRAINT "fraud_cases_closed_check" CHECK ((status = 'open') = (closed_at is null))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "fraud_cases_unit_number_key" ON "fraud_cases" ("federative_unit", "number");
--> statement-breakpoint
CREATE INDEX "fraud_cases_unit_created_idx" ON "fraud_cases" ("federative_unit", "created_at" DESC, "id");
--> statement-breakpoint
CREATE TABLE "fraud_case_exams" (
	"case_id" uuid NOT NULL REFERENCES "fraud_cases"("id") ON DELETE cascade,
	"exam_id" uuid NOT NULL REFERENCES "exams"("id") ON DELETE cascade,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fraud_case_exams_pkey" PRIMARY KEY ("case_id", "exam_id")
);
--> statement-breakpoint
CREATE INDEX "fraud_case_exams_exam_idx" ON "fraud_case_exams" ("exam_id");
--> statement-breakpoint
CREATE TABLE "fraud_case_matches" (
	"case_id" uuid NOT NULL REFERENCES "fraud_cases"("id") ON DELETE cascade,
	"exam_a" uuid NOT NULL REFERENCES "exams"("id") ON DELETE cascade,
	"exam_b" uuid NOT NULL REFERENCES "exams"("id") ON DELETE cascade,
	"similarity" real NOT NULL,
	"capture_a" uuid REFERENCES "exam_photos"("id") ON DELETE set null,
	"capture_b" uuid REFERENCES "exam_photos"("id") ON DELETE set null,
	"found_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fraud_case_matches_pkey" PRIMARY KEY ("case_id", "exam_a", "exam_b"),
	CONSTRAINT "fraud_case_matches_order_check" CHECK (exam_a < exam_b)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "fraud_case_matches_pair_key" ON "fraud_case_matches" ("exam_a", "exam_b");
