-- A post's exams whatever their room (DEMO.POSTO01-S2 belongs to DEMO.POSTO01),
-- by day: the room board polls its post's day every few seconds, and before
-- this it read every exam of the unit's day to keep the post's.
CREATE INDEX "exams_unit_post_date_idx" ON "exams" USING btree ("federative_unit",split_part("scheduling_local", '-', 1),"scheduling_date");
