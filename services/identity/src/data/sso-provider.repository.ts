import type { SsoDomainMapping, SsoProvider, SsoProviderType } from "@burnbox/contracts";
import { errors } from "@burnbox/service-kit/runtime";
import type { Prisma } from "../generated/prisma";
import { isUniqueViolation, type Client } from "./prisma";

type ProviderRow = Prisma.SsoProviderGetPayload<object>;
type MappingRow = Prisma.SsoDomainMappingGetPayload<object>;

/** A provider with its sealed secret, for the login flow (never answered as is). */
export interface StoredProvider extends SsoProvider {
  clientSecretEnc: string;
}

export interface ProviderFields {
  name: string;
  providerType: SsoProviderType;
  label: string;
  clientId: string;
  clientSecretEnc: string;
  issuerUrl: string | null;
  tenantId: string | null;
  scopes: string[];
  enabled: boolean;
  autoProvision: boolean;
  trustEmail: boolean;
  defaultOrgId: string | null;
  defaultOrgRole: string;
}

export interface MappingFields {
  domain: string;
  orgId: string;
  teamId: string | null;
  orgRole: string;
  teamRole: string | null;
}

function toProvider(r: ProviderRow): StoredProvider {
  return {
    id: r.id,
    name: r.name,
    provider_type: r.providerType as SsoProviderType,
    label: r.label,
    client_id: r.clientId,
    has_client_secret: r.clientSecretEnc.length > 0,
    issuer_url: r.issuerUrl,
    tenant_id: r.tenantId,
    scopes: r.scopes,
    enabled: r.enabled,
    auto_provision: r.autoProvision,
    trust_email: r.trustEmail,
    default_org_id: r.defaultOrgId,
    default_org_role: r.defaultOrgRole as SsoProvider["default_org_role"],
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
    clientSecretEnc: r.clientSecretEnc,
  };
}

/** The provider as answered: the sealed secret stays here. */
export function publicProvider(p: StoredProvider): SsoProvider {
  const { clientSecretEnc: _sealed, ...rest } = p;
  return rest;
}

function toMapping(r: MappingRow): SsoDomainMapping {
  return {
    id: r.id,
    provider_id: r.providerId,
    domain: r.domain,
    org_id: r.orgId,
    team_id: r.teamId,
    org_role: r.orgRole as SsoDomainMapping["org_role"],
    team_role: r.teamRole as SsoDomainMapping["team_role"],
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

const nameTaken = () => errors.conflict("an SSO provider with that name exists");

/** SSO providers and their domain mappings: platform-wide configuration, not tenant data. */
export class SsoProviderRepository {
  constructor(private readonly db: Client) {}

  async get(id: string): Promise<StoredProvider | null> {
    const row = await this.db.ssoProvider.findUnique({ where: { id } });
    return row ? toProvider(row) : null;
  }

  async byName(name: string): Promise<StoredProvider | null> {
    const row = await this.db.ssoProvider.findUnique({ where: { name } });
    return row ? toProvider(row) : null;
  }

  async list(window: { skip: number; take: number }): Promise<StoredProvider[]> {
    return (await this.db.ssoProvider.findMany({ orderBy: [{ createdAt: "asc" }, { id: "asc" }], ...window })).map(toProvider);
  }

  count(): Promise<number> {
    return this.db.ssoProvider.count();
  }

  async listEnabled(): Promise<StoredProvider[]> {
    return (await this.db.ssoProvider.findMany({ where: { enabled: true }, orderBy: { name: "asc" } })).map(toProvider);
  }

  async create(id: string, fields: ProviderFields): Promise<StoredProvider> {
    try {
      return toProvider(await this.db.ssoProvider.create({ data: { id, ...fields } }));
    } catch (err) {
      if (isUniqueViolation(err)) throw nameTaken();
      throw err;
    }
  }

  async replace(id: string, fields: ProviderFields): Promise<StoredProvider> {
    try {
      return toProvider(await this.db.ssoProvider.update({ where: { id }, data: fields }));
    } catch (err) {
      if (isUniqueViolation(err)) throw nameTaken();
      throw err;
    }
  }

  async delete(id: string): Promise<boolean> {
    return (await this.db.ssoProvider.deleteMany({ where: { id } })).count > 0;
  }

  async mapping(providerId: string, mappingId: string): Promise<SsoDomainMapping | null> {
    const row = await this.db.ssoDomainMapping.findFirst({ where: { id: mappingId, providerId } });
    return row ? toMapping(row) : null;
  }

  async mappings(providerId: string, window?: { skip: number; take: number }): Promise<SsoDomainMapping[]> {
    const rows = await this.db.ssoDomainMapping.findMany({
      where: { providerId },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      ...(window ?? {}),
    });
    return rows.map(toMapping);
  }

  countMappings(providerId: string): Promise<number> {
    return this.db.ssoDomainMapping.count({ where: { providerId } });
  }

  async mappingsForDomain(providerId: string, domain: string): Promise<SsoDomainMapping[]> {
    const rows = await this.db.ssoDomainMapping.findMany({ where: { providerId, domain }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    return rows.map(toMapping);
  }

  /** Another mapping of the provider for the same domain (409), locked against a racing twin. */
  async hasTwin(providerId: string, fields: MappingFields, exceptId: string | null): Promise<boolean> {
    await this.db.$executeRaw`SELECT id FROM sso_providers WHERE id = ${providerId}::uuid FOR UPDATE`;
    const twin = await this.db.ssoDomainMapping.findFirst({
      where: { providerId, domain: fields.domain, ...(exceptId ? { NOT: { id: exceptId } } : {}) },
      select: { id: true },
    });
    return twin !== null;
  }

  async createMapping(id: string, providerId: string, fields: MappingFields): Promise<SsoDomainMapping> {
    return toMapping(await this.db.ssoDomainMapping.create({ data: { id, providerId, ...fields } }));
  }

  async replaceMapping(id: string, fields: MappingFields): Promise<SsoDomainMapping> {
    return toMapping(await this.db.ssoDomainMapping.update({ where: { id }, data: fields }));
  }

  async deleteMapping(providerId: string, id: string): Promise<boolean> {
    return (await this.db.ssoDomainMapping.deleteMany({ where: { id, providerId } })).count > 0;
  }
}
