-- Each face reading of an exam photo names the engine that made it (the
-- descriptor version of face-engine.ts). Readings of another version, and
-- those stored before this column (NULL), are not comparable with the
-- running engine's: the audit reads them again (photo-faces.service.ts).
ALTER TABLE "exam_photos" ADD COLUMN "face_descriptor_version" text;
--> statement-breakpoint
-- So does the exam's lowest similarity, which ranks the audit queue: a value
-- of another engine is neither shown nor ranked until the photos are read
-- again.
ALTER TABLE "exams" ADD COLUMN "face_min_similarity_version" text;
