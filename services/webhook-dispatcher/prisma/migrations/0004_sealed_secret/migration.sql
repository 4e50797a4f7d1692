-- Webhook signing secrets sealed with encryption.key (SecretBox, AES-256-GCM): the service fills
-- secret_sealed at start-up for every row still holding its secret in clear and empties `secret`
-- (SQL cannot, it has no key). Expand step: `secret` stays, nullable, read only for a row not yet
-- sealed (no key configured); a later release drops it.
ALTER TABLE "webhooks" ADD COLUMN "secret_sealed" TEXT;
ALTER TABLE "webhooks" ALTER COLUMN "secret" DROP NOT NULL;
