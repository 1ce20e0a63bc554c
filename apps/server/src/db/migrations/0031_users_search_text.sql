-- The activity search's actor, by part of the name or e-mail: the two in the
-- search's form (lower case, without accents: searchable(), 0029) stored once
-- in a generated column, one line each, and read through a trigram index.
-- Before, every search computed that form for every user (translate() costs
-- far more than the planner counts, so it read the table instead of the
-- index): tens of milliseconds for a unit of a few thousand people.
ALTER TABLE "users" ADD COLUMN "search_text" text GENERATED ALWAYS AS (
  lower(translate("name",
    'ÀÁÂÃÄÅàáâãäåÇçÈÉÊËèéêëÌÍÎÏìíîïÑñÒÓÔÕÖòóôõöÙÚÛÜùúûüÝýÿ',
    'AAAAAAaaaaaaCcEEEEeeeeIIIIiiiiNnOOOOOoooooUUUUuuuuYyy'))
  || E'\n' ||
  lower(translate("email",
    'ÀÁÂÃÄÅàáâãäåÇçÈÉÊËèéêëÌÍÎÏìíîïÑñÒÓÔÕÖòóôõöÙÚÛÜùúûüÝýÿ',
    'AAAAAAaaaaaaCcEEEEeeeeIIIIiiiiNnOOOOOoooooUUUUuuuuYyy'))
) STORED;
--> statement-breakpoint
DROP INDEX IF EXISTS "users_search_idx";
--> statement-breakpoint
CREATE INDEX "users_search_text_idx" ON "users" USING gin ("search_text" gin_trgm_ops);
