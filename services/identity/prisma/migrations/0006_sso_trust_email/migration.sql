-- A provider is trusted for email only when an admin says so: until then it neither links to an
-- existing account by address nor vouches for the addresses of the accounts it creates.
ALTER TABLE "sso_providers" ADD COLUMN "trust_email" BOOLEAN NOT NULL DEFAULT false;
