-- The activity search's text when it holds a colon, as a key does
-- (`exam:DEMO-000000124`, `user:<id>`): found by what follows the colon
-- instead of by the trigrams of the whole text. Every exam event's target
-- shares the trigrams of "exam:<unit>-0000…", so through the trigram index
-- (0029) such a text read more of the unit's events as the log grew.
--
-- A text with a colon lies in a target either across the target's first
-- colon (the target's part after that colon starts with the text's part
-- after its own; its part before ends with the text's) or wholly after it,
-- in a target with a second colon: one index each. The two parts are in the
-- searchable form (searchable(), 0029); the part after is null without a
-- colon. The part before is in the index for the planner's statistics.
CREATE INDEX "activity_log_unit_target_key_idx" ON "activity_log" (
  "federative_unit",
  substring(
    lower(translate("target",
      'ÀÁÂÃÄÅàáâãäåÇçÈÉÊËèéêëÌÍÎÏìíîïÑñÒÓÔÕÖòóôõöÙÚÛÜùúûüÝýÿ',
      'AAAAAAaaaaaaCcEEEEeeeeIIIIiiiiNnOOOOOoooooUUUUuuuuYyy'))
    FROM '^[^:]*:(.*)$'
  ) text_pattern_ops,
  split_part(
    lower(translate("target",
      'ÀÁÂÃÄÅàáâãäåÇçÈÉÊËèéêëÌÍÎÏìíîïÑñÒÓÔÕÖòóôõöÙÚÛÜùúûüÝýÿ',
      'AAAAAAaaaaaaCcEEEEeeeeIIIIiiiiNnOOOOOoooooUUUUuuuuYyy')),
    ':', 1)
);
--> statement-breakpoint
CREATE INDEX "activity_log_unit_target_colons_idx" ON "activity_log" USING gin (
  "federative_unit",
  lower(translate("target",
    'ÀÁÂÃÄÅàáâãäåÇçÈÉÊËèéêëÌÍÎÏìíîïÑñÒÓÔÕÖòóôõöÙÚÛÜùúûüÝýÿ',
    'AAAAAAaaaaaaCcEEEEeeeeIIIIiiiiNnOOOOOoooooUUUUuuuuYyy')) gin_trgm_ops
) WHERE "target" LIKE '%:%:%';
--> statement-breakpoint
-- The statistics of the new index's expressions, which the planner weighs a
-- key's part against (without them it takes any part for a rare one).
ANALYZE "activity_log";
