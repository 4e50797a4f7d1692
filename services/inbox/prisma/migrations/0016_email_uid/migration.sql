-- Extensions section 11: IMAP UIDs, stable and increasing per inbox. One sequence for every
-- inbox (a number drawn from it is larger than every number drawn before, so it increases within
-- each inbox too). The column is added without a default (no table rewrite) and the default set
-- after it, which applies to rows inserted from now on; rows received before are given theirs
-- when their inbox is first opened over IMAP or POP3 (services/inbox/src/data/mailbox.repository.ts).
CREATE SEQUENCE "emails_uid_seq" AS BIGINT;
ALTER TABLE "emails" ADD COLUMN "uid" BIGINT;
ALTER TABLE "emails" ALTER COLUMN "uid" SET DEFAULT nextval('emails_uid_seq');
ALTER SEQUENCE "emails_uid_seq" OWNED BY "emails"."uid";
