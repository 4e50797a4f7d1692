-- CreateTable
CREATE TABLE "sso_providers" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "provider_type" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "client_secret_enc" TEXT NOT NULL,
    "issuer_url" TEXT,
    "tenant_id" TEXT,
    "scopes" TEXT[],
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "auto_provision" BOOLEAN NOT NULL DEFAULT false,
    "default_org_id" UUID,
    "default_org_role" TEXT NOT NULL DEFAULT 'member',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sso_providers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sso_domain_mappings" (
    "id" UUID NOT NULL,
    "provider_id" UUID NOT NULL,
    "domain" TEXT NOT NULL,
    "org_id" UUID NOT NULL,
    "team_id" UUID,
    "org_role" TEXT NOT NULL,
    "team_role" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sso_domain_mappings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sso_identities" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "provider_id" UUID NOT NULL,
    "subject" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "linked_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sso_identities_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sso_grants" (
    "handle_hash" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sso_grants_pkey" PRIMARY KEY ("handle_hash")
);

-- CreateIndex
CREATE UNIQUE INDEX "sso_providers_name_key" ON "sso_providers"("name");

-- CreateIndex
CREATE INDEX "sso_domain_mappings_provider_id_domain_idx" ON "sso_domain_mappings"("provider_id", "domain");

-- CreateIndex
CREATE UNIQUE INDEX "sso_identities_provider_id_subject_key" ON "sso_identities"("provider_id", "subject");

-- CreateIndex
CREATE UNIQUE INDEX "sso_identities_user_id_provider_id_key" ON "sso_identities"("user_id", "provider_id");

-- CreateIndex
CREATE INDEX "sso_grants_expires_at_idx" ON "sso_grants"("expires_at");

-- AddForeignKey
ALTER TABLE "sso_domain_mappings" ADD CONSTRAINT "sso_domain_mappings_provider_id_fkey" FOREIGN KEY ("provider_id") REFERENCES "sso_providers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sso_identities" ADD CONSTRAINT "sso_identities_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sso_identities" ADD CONSTRAINT "sso_identities_provider_id_fkey" FOREIGN KEY ("provider_id") REFERENCES "sso_providers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

