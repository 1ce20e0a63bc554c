-- The auditor role is written `auditor`, as the specification writes it, in the API and in the database alike.
UPDATE "users" SET "role" = 'auditor' WHERE "role" = 'AUDITOR';
