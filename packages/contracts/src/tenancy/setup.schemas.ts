import { z } from "../zod";
import { DisplayName, EmailAddress, Password, User } from "../identity/account.schemas";
import { TokenPair } from "../identity/auth.schemas";
import { Domain, DomainName } from "./domains.schemas";
import { Org, TenantName } from "./orgs.schemas";
import { InfraTestResult, UpdateMailerConfigBody, UpdateStorageConfigBody } from "./platform-config.schemas";
import { Team } from "./teams.schemas";

/** Where the datastores are, as `host:port/name`: never a user name, password or query string. */
export const SetupDatastores = z
  .object({ postgres: z.string(), redis: z.string(), nats: z.string(), storage: z.string() })
  .openapi("SetupDatastores");
export type SetupDatastores = z.infer<typeof SetupDatastores>;

/** `GET /setup/status`: `datastores` only while setup is incomplete. */
export const SetupStatus = z.object({ completed: z.boolean(), datastores: SetupDatastores.optional() }).openapi("SetupStatus");
export type SetupStatus = z.infer<typeof SetupStatus>;

/**
 * The setup token (`setup.token`) every setup call but status carries. Optional on the wire: a
 * missing or wrong token is 403, decided before the rest of the body is looked at.
 */
const SetupToken = z.string().max(500).optional();

export const SetupTestSmtpBody = z
  .object({
    setup_token: SetupToken,
    host: z.string().trim().min(1).max(253),
    port: z.number().int().min(1).max(65535),
    username: z.string().max(320).optional(),
    password: z.string().max(1000).optional(),
    tls: z.boolean().default(false),
  })
  .openapi("SetupTestSmtpRequest");
export type SetupTestSmtpBody = z.infer<typeof SetupTestSmtpBody>;

export const SetupTestStorageBody = z
  .object({
    setup_token: SetupToken,
    provider: z.enum(["local", "s3"]),
    endpoint: z.string().trim().max(500).optional(),
    bucket: z.string().max(63).optional(),
    region: z.string().max(50).optional(),
    access_key: z.string().max(500).optional(),
    secret_key: z.string().max(1000).optional(),
    use_ssl: z.boolean().optional(),
  })
  .openapi("SetupTestStorageRequest");
export type SetupTestStorageBody = z.infer<typeof SetupTestStorageBody>;

export const SetupTestResult = InfraTestResult;

/** `POST /setup/complete`: the first system admin, their org, and optionally a domain, a team, the mailer and storage. */
export const SetupCompleteBody = z
  .object({
    setup_token: SetupToken,
    admin: z.object({ email: EmailAddress, password: Password, display_name: DisplayName }),
    org: z.object({ name: TenantName }),
    domain: z.object({ domain_name: DomainName }).optional(),
    team: z.object({ name: TenantName }).optional(),
    mailer: UpdateMailerConfigBody.optional(),
    storage: UpdateStorageConfigBody.optional(),
    use_cookie: z.boolean().optional(),
  })
  .openapi("SetupCompleteRequest");
export type SetupCompleteBody = z.infer<typeof SetupCompleteBody>;

export const SetupCompleteResult = z
  .object({ user: User, org: Org, team: Team.optional(), domain: Domain.optional(), tokens: TokenPair })
  .openapi("SetupCompleteResult");
export type SetupCompleteResult = z.infer<typeof SetupCompleteResult>;
