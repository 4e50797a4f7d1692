import createClient, { type Client } from "openapi-fetch";
import type { components, paths } from "./generated/openapi.js";
import type { LinkKind, MailSnapshot, SnapshotComparison, SnapshotMask, WaitEmailSummary, WaitResponse } from "./extensions.js";
import { BurnBoxError, errorFromResponse, WaitTimeoutError } from "./errors.js";
import { InboxStream, resolveWebSocket, type ReconnectOptions, type WebSocketConstructor } from "./stream.js";
import { buildWaitQuery, type WaitOptions } from "./wait-query.js";

type Schemas = components["schemas"];
export type Inbox = Schemas["Inbox"];
export type InboxPage = Schemas["InboxPage"];
export type Email = Schemas["Email"];
export type EmailSummary = Schemas["EmailSummary"];
export type EmailPage = Schemas["EmailPage"];
export type CreateInboxRequest = Schemas["CreateInboxRequest"];
export type AuthResult = Schemas["AuthResult"];
export type RegisterRequest = Schemas["RegisterRequest"];
export type Org = Schemas["Org"];
export type OrgWithRole = Schemas["OrgWithRole"];
export type OrgPage = Schemas["OrgPage"];
export type CreateOrgRequest = Schemas["CreateOrgRequest"];
export type Team = Schemas["Team"];
export type TeamPage = Schemas["TeamPage"];
export type CreateTeamRequest = Schemas["CreateTeamRequest"];
export type Domain = Schemas["Domain"];
export type DomainPage = Schemas["DomainPage"];
export type DomainAssignment = Schemas["DomainAssignment"];
export type DomainAssignmentPage = Schemas["DomainAssignmentPage"];
export type MyDomainPage = Schemas["MyDomainPage"];
export type SnapshotPage = Omit<Schemas["SnapshotPage"], "data"> & { data: MailSnapshot[] };
export type ApiKeyWithRawKey = Schemas["ApiKeyWithRawKey"];
/** Mail out (extensions section 10). */
export type SendEmailRequest = Schemas["SendEmailRequest"];
export type ReplyEmailRequest = Schemas["ReplyEmailRequest"];
export type ReleaseEmailRequest = Schemas["ReleaseEmailRequest"];
export type OutboundQueued = Schemas["OutboundQueued"];
export type OutboundMessage = Schemas["OutboundMessage"];
export type OutboundMessagePage = Schemas["OutboundMessagePage"];

type PageQuery = { page?: number; per_page?: number };

/** Every operation of the served OpenAPI document. */
export type BurnBoxPaths = paths;

export interface BurnBoxOptions {
  /** Where BurnBox answers: `https://burnbox.example.com` (`/api/v1` is added unless the URL ends with it). */
  baseUrl: string;
  /** A team API key (`bb_…`), sent as `Authorization: Bearer`. */
  apiKey?: string;
  /** A JWT access token (from login), sent as `Authorization: Bearer`. */
  token?: string;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** The WebSocket class for stream() (default: the global one, else the `ws` package). */
  WebSocket?: WebSocketConstructor;
  /**
   * Browsers: asked before every request for the current access token (it wins over `token`), so a
   * client built once follows the sign-in that refreshes its token; `undefined` sends none.
   */
  getToken?: () => string | undefined;
  /**
   * Browsers: called once when a request that carried a credential answers 401; resolve `true`
   * after obtaining a new token (e.g. `POST /auth/refresh` with the cookie) and the request is sent
   * again once with it. Not called for the sign-in operations themselves (login, register, refresh,
   * logout, SSO exchange), whose 401 is their answer.
   */
  onUnauthorized?: () => Promise<boolean>;
  /**
   * The fetch `credentials` mode. Browsers on another origin than BurnBox set `"include"` so the
   * httpOnly refresh cookie of `use_cookie` sign-ins travels with `/auth/refresh` and `/auth/logout`
   * (the same origin sends it anyway).
   */
  credentials?: RequestCredentials;
}

export interface WaitForLinkOptions extends WaitOptions {
  /** The kind of link; absent: the first link that is not an unsubscribe link. */
  kind?: LinkKind;
}

/** The operations whose 401 is an answer about the credentials sent, never a stale access token. */
const SIGN_IN_PATH = /\/api\/v1\/auth\/(login|register|refresh|logout|sso\/exchange)(?:[/?]|$)/;

/** The mail came, but held no code (or no link of the kind asked for). */
export class NothingExtractedError extends Error {
  override readonly name = "NothingExtractedError";
  constructor(
    message: string,
    readonly email: WaitEmailSummary,
  ) {
    super(message);
  }
}

/** Throws the envelope of a non-2xx answer as a BurnBoxError, else gives the body. */
function unwrap<T>(r: { data?: T; error?: unknown; response: Response }): T {
  if (!r.response.ok) throw errorFromResponse(r.response.status, r.error, r.response.headers);
  return r.data as T;
}

/**
 * A BurnBox client. `api` is the raw typed client (openapi-fetch: every operation of the OpenAPI
 * document, answering `{data, error, response}`); the methods below throw a BurnBoxError for any
 * answer other than 2xx.
 */
export class BurnBox {
  readonly api: Client<BurnBoxPaths>;
  readonly baseUrl: string;
  private credential: string | undefined;
  private readonly getToken: (() => string | undefined) | undefined;
  private readonly WebSocketImpl: WebSocketConstructor | undefined;

  constructor(options: BurnBoxOptions) {
    if (!options?.baseUrl) throw new TypeError("baseUrl is required");
    if (options.apiKey !== undefined && !options.apiKey.startsWith("bb_")) throw new TypeError("an API key starts with bb_");
    const root = options.baseUrl.replace(/\/+$/, "");
    this.baseUrl = root.endsWith("/api/v1") ? root : `${root}/api/v1`;
    this.credential = options.apiKey ?? options.token;
    this.getToken = options.getToken;
    this.WebSocketImpl = options.WebSocket;
    const fetchImpl = options.fetch;
    const onUnauthorized = options.onUnauthorized;
    const send = (req: Request): Promise<Response> => (fetchImpl ? fetchImpl(req) : fetch(req));
    this.api = createClient<BurnBoxPaths>({
      baseUrl: this.baseUrl,
      ...(options.credentials ? { credentials: options.credentials } : {}),
      ...(fetchImpl || onUnauthorized ? { fetch: onUnauthorized ? (req: Request) => this.retrying(req, send, onUnauthorized) : send } : {}),
    });
    this.api.use({
      onRequest: ({ request }) => {
        const credential = this.currentCredential();
        if (credential && !request.headers.has("authorization")) request.headers.set("authorization", `Bearer ${credential}`);
        return request;
      },
    });
  }

  private currentCredential(): string | undefined {
    return this.getToken?.() ?? this.credential;
  }

  /** Sends `req`; on a 401 to a request that carried a credential, asks for a new one and sends it again once. */
  private async retrying(req: Request, send: (r: Request) => Promise<Response>, onUnauthorized: () => Promise<boolean>): Promise<Response> {
    const carried = req.headers.get("authorization");
    const again = carried && !SIGN_IN_PATH.test(req.url) ? req.clone() : undefined;
    const res = await send(req);
    if (res.status !== 401 || !again || !(await onUnauthorized())) return res;
    const credential = this.currentCredential();
    if (!credential || `Bearer ${credential}` === carried) return res;
    again.headers.set("authorization", `Bearer ${credential}`);
    return send(again);
  }

  /** Uses this access token (or `bb_` key) from now on; `undefined` sends no credential. */
  setToken(token: string | undefined): void {
    this.credential = token;
  }

  /** Password login; the client then uses the access token. */
  async login(email: string, password: string): Promise<AuthResult> {
    const result = unwrap(await this.api.POST("/auth/login", { body: { email, password } }));
    this.credential = result.tokens.access_token;
    return result;
  }

  /** Creates an account (the first step on a fresh system); the client then uses its access token. */
  async register(body: Pick<RegisterRequest, "email" | "password" | "display_name"> & Partial<RegisterRequest>): Promise<AuthResult> {
    const result = unwrap(await this.api.POST("/auth/register", { body }));
    this.credential = result.tokens.access_token;
    return result;
  }

  // ---- setting up: what a new user does once before creating inboxes (needs a login, not a team key)

  /** Creates an organization; the caller becomes its owner. */
  async createOrg(body: CreateOrgRequest): Promise<Org> {
    return unwrap(await this.api.POST("/orgs", { body }));
  }

  /** The caller's organizations, each with the caller's role. */
  async listOrgs(query: PageQuery = {}): Promise<OrgPage> {
    return unwrap(await this.api.GET("/orgs", { params: { query } }));
  }

  /** Creates a team in an organization; the caller becomes its lead. */
  async createTeam(orgId: string, body: CreateTeamRequest): Promise<Team> {
    return unwrap(await this.api.POST("/orgs/{orgId}/teams", { params: { path: { orgId } }, body }));
  }

  async listTeams(orgId: string, query: PageQuery & { q?: string } = {}): Promise<TeamPage> {
    return unwrap(await this.api.GET("/orgs/{orgId}/teams", { params: { path: { orgId }, query } }));
  }

  /** Adds a mail domain to an organization (then point its MX at BurnBox and verify it, unless it is trusted). */
  async createDomain(orgId: string, domainName: string, description?: string): Promise<Domain> {
    const body = { domain_name: domainName, ...(description ? { description } : {}) };
    return unwrap(await this.api.POST("/orgs/{orgId}/domains", { params: { path: { orgId } }, body }));
  }

  async listDomains(orgId: string, query: PageQuery = {}): Promise<DomainPage> {
    return unwrap(await this.api.GET("/orgs/{orgId}/domains", { params: { path: { orgId }, query } }));
  }

  /** Checks the domain's DNS records now (MX, TXT, SPF) and gives the domain with its new status. */
  async verifyDomain(orgId: string, domainId: string): Promise<Domain> {
    return unwrap(await this.api.POST("/orgs/{orgId}/domains/{domainId}/verify", { params: { path: { orgId, domainId } } }));
  }

  /** Assigns a domain to a team; the assignment's `id` is what `createInbox` takes. */
  async assignDomain(
    orgId: string,
    teamId: string,
    domainId: string,
    accessLevel: DomainAssignment["access_level"] = "full",
  ): Promise<DomainAssignment> {
    return unwrap(
      await this.api.POST("/orgs/{orgId}/teams/{teamId}/domains", {
        params: { path: { orgId, teamId } },
        body: { domain_id: domainId, access_level: accessLevel },
      }),
    );
  }

  /** The domains assigned to a team (each assignment's `id` is what `createInbox` takes). */
  async listTeamDomains(orgId: string, teamId: string, query: PageQuery = {}): Promise<DomainAssignmentPage> {
    return unwrap(await this.api.GET("/orgs/{orgId}/teams/{teamId}/domains", { params: { path: { orgId, teamId }, query } }));
  }

  /** Every domain assignment the caller may create inboxes on, with its team's name and TTL limits. */
  async listMyDomains(query: PageQuery = {}): Promise<MyDomainPage> {
    return unwrap(await this.api.GET("/my/domains", { params: { query } }));
  }

  /** Creates a team API key; `raw_key` (`bb_…`) is shown only in this answer. */
  async createApiKey(
    orgId: string,
    teamId: string,
    body: { name: string; scopes: string[]; expires_in?: string; allowed_ips?: string[] },
  ): Promise<ApiKeyWithRawKey> {
    return unwrap(
      await this.api.POST("/orgs/{orgId}/teams/{teamId}/api-keys", {
        params: { path: { orgId, teamId } },
        body: { ...body, allowed_ips: body.allowed_ips ?? [] },
      }),
    );
  }

  // ---- inboxes and mail

  async createInbox(body: CreateInboxRequest): Promise<Inbox> {
    return unwrap(await this.api.POST("/inboxes", { body }));
  }

  async listInboxes(query: NonNullable<paths["/inboxes"]["get"]["parameters"]["query"]> = {}): Promise<InboxPage> {
    return unwrap(await this.api.GET("/inboxes", { params: { query } }));
  }

  async getInbox(id: string): Promise<Inbox> {
    return unwrap(await this.api.GET("/inboxes/{id}", { params: { path: { id } } }));
  }

  async deleteInbox(id: string): Promise<void> {
    unwrap(await this.api.DELETE("/inboxes/{id}", { params: { path: { id } } }));
  }

  async listEmails(
    inboxId: string,
    query: NonNullable<paths["/inboxes/{id}/emails"]["get"]["parameters"]["query"]> = {},
  ): Promise<EmailPage> {
    return unwrap(await this.api.GET("/inboxes/{id}/emails", { params: { path: { id: inboxId }, query } }));
  }

  async getEmail(id: string): Promise<Email> {
    return unwrap(await this.api.GET("/emails/{id}", { params: { path: { id } } }));
  }

  /** The team an email belongs to (through its inbox): where its snapshots live. */
  async teamOfEmail(emailId: string): Promise<{ orgId: string; teamId: string }> {
    const email = await this.getEmail(emailId);
    const inbox = await this.getInbox(email.inbox_id);
    return { orgId: inbox.org_id, teamId: inbox.team_id };
  }

  async listSnapshots(
    orgId: string,
    teamId: string,
    query: NonNullable<paths["/orgs/{orgId}/teams/{teamId}/snapshots"]["get"]["parameters"]["query"]> = {},
  ): Promise<SnapshotPage> {
    return unwrap(
      await this.api.GET("/orgs/{orgId}/teams/{teamId}/snapshots", { params: { path: { orgId, teamId }, query } }),
    ) as SnapshotPage;
  }

  /** The team's snapshot of this name, or null. */
  async findSnapshot(orgId: string, teamId: string, name: string): Promise<MailSnapshot | null> {
    return (await this.listSnapshots(orgId, teamId, { name })).data[0] ?? null;
  }

  async createSnapshot(
    orgId: string,
    teamId: string,
    body: { name: string; email_id: string; masks?: SnapshotMask[] },
  ): Promise<MailSnapshot> {
    return unwrap(
      await this.api.POST("/orgs/{orgId}/teams/{teamId}/snapshots", { params: { path: { orgId, teamId } }, body }),
    ) as MailSnapshot;
  }

  /** Re-baselines a snapshot from another email (and, when given, other masks). */
  async updateSnapshot(
    orgId: string,
    teamId: string,
    snapshotId: string,
    body: { email_id: string; masks?: SnapshotMask[] },
  ): Promise<MailSnapshot> {
    return unwrap(
      await this.api.PUT("/orgs/{orgId}/teams/{teamId}/snapshots/{snapshotId}", { params: { path: { orgId, teamId, snapshotId } }, body }),
    ) as MailSnapshot;
  }

  async deleteSnapshot(orgId: string, teamId: string, snapshotId: string): Promise<void> {
    unwrap(
      await this.api.DELETE("/orgs/{orgId}/teams/{teamId}/snapshots/{snapshotId}", { params: { path: { orgId, teamId, snapshotId } } }),
    );
  }

  /**
   * Saves an email as the baseline `name` of its team: creates the snapshot, or re-baselines the
   * one of that name. Answers the snapshot and whether it was created.
   */
  async saveSnapshot(
    emailId: string,
    name: string,
    options: { masks?: SnapshotMask[] } = {},
  ): Promise<{ snapshot: MailSnapshot; created: boolean }> {
    const { orgId, teamId } = await this.teamOfEmail(emailId);
    const existing = await this.findSnapshot(orgId, teamId, name);
    const masks = options.masks ? { masks: options.masks } : {};
    if (existing)
      return { snapshot: await this.updateSnapshot(orgId, teamId, existing.id, { email_id: emailId, ...masks }), created: false };
    return { snapshot: await this.createSnapshot(orgId, teamId, { name, email_id: emailId, ...masks }), created: true };
  }

  /** `POST /emails/{id}/compare`: the email against its team's snapshot `name` (extensions section 12). */
  async compareWithSnapshot(emailId: string, name: string, options: { maxChangedRatio?: number } = {}): Promise<SnapshotComparison> {
    const body = { snapshot: name, ...(options.maxChangedRatio !== undefined ? { max_changed_ratio: options.maxChangedRatio } : {}) };
    return unwrap(await this.api.POST("/emails/{id}/compare", { params: { path: { id: emailId } }, body }));
  }

  /** `POST /inboxes/{id}/send`: a new message from the inbox's address, queued (extensions section 10). */
  async sendEmail(inboxId: string, body: SendEmailRequest): Promise<OutboundQueued> {
    return unwrap(await this.api.POST("/inboxes/{id}/send", { params: { path: { id: inboxId } }, body }));
  }

  /** `POST /emails/{id}/reply`: a reply from the email's inbox to its Reply-To or From (`reply_all` for the others too). */
  async replyToEmail(emailId: string, body: ReplyEmailRequest): Promise<OutboundQueued> {
    return unwrap(await this.api.POST("/emails/{id}/reply", { params: { path: { id: emailId } }, body }));
  }

  /** `POST /emails/{id}/release`: the received message, byte for byte under Resent-* headers, to new recipients. */
  async releaseEmail(emailId: string, to: string[]): Promise<OutboundQueued> {
    return unwrap(await this.api.POST("/emails/{id}/release", { params: { path: { id: emailId } }, body: { to } }));
  }

  /** `GET /inboxes/{id}/outbound`: what the inbox sent, replied or released, newest first. */
  async listOutbound(inboxId: string, query: PageQuery = {}): Promise<OutboundMessagePage> {
    return unwrap(await this.api.GET("/inboxes/{id}/outbound", { params: { path: { id: inboxId }, query } }));
  }

  /**
   * `GET /inboxes/{id}/emails/wait` as it answers: `{data, matched, timed_out}`; a timed-out wait
   * is an answer here, not an error.
   */
  async wait(inboxId: string, options: WaitOptions = {}): Promise<WaitResponse> {
    const query = buildWaitQuery(options);
    return unwrap(
      await this.api.GET("/inboxes/{id}/emails/wait", {
        params: { path: { id: inboxId }, query },
        ...(options.signal ? { signal: options.signal } : {}),
      }),
    );
  }

  /** Waits for `count` (default 1) matching emails; rejects with WaitTimeoutError when fewer came in time. */
  async waitForEmail(inboxId: string, options: WaitOptions = {}): Promise<WaitResponse> {
    const result = await this.wait(inboxId, options);
    if (result.timed_out) throw new WaitTimeoutError(result);
    return result;
  }

  /** Waits for the first matching email and gives its first one-time code (`extracted.codes[0].value`). */
  async waitForCode(inboxId: string, options: WaitOptions = {}): Promise<string> {
    const email = (await this.waitForEmail(inboxId, { ...options, count: 1 })).data[0]!;
    const code = email.extracted.codes[0]?.value;
    if (code === undefined) throw new NothingExtractedError(`email ${email.id} holds no code`, email);
    return code;
  }

  /** Waits for the first matching email and gives the URL of its first link of `kind` (absent: any but unsubscribe). */
  async waitForLink(inboxId: string, options: WaitForLinkOptions = {}): Promise<string> {
    const { kind, ...wait } = options;
    const email = (await this.waitForEmail(inboxId, { ...wait, count: 1 })).data[0]!;
    const link = email.extracted.links.find((l) => (kind ? l.kind === kind : l.kind !== "unsubscribe"));
    if (!link) throw new NothingExtractedError(`email ${email.id} holds no ${kind ?? ""} link`.replace("  ", " "), email);
    return link.url;
  }

  /** A single-use WebSocket ticket (30 s) standing for this client's credential. */
  async wsTicket(): Promise<string> {
    return unwrap(await this.api.POST("/ws/ticket")).ticket;
  }

  /**
   * The inbox's live frames (`email.received`, …) as an async iterator: takes a ticket, opens
   * `/ws/inboxes/{id}`; `await s.ready` before relying on a frame for mail sent next. When the
   * socket drops it takes a new ticket and reopens with `last_event_id` (the `id` of the last
   * frame), so the server sends what was missed first (`reconnect: false` to end instead);
   * `lastEventId` starts from a frame seen before.
   */
  stream(
    inboxId: string,
    options: {
      signal?: AbortSignal;
      WebSocket?: WebSocketConstructor;
      reconnect?: boolean | ReconnectOptions;
      lastEventId?: string;
    } = {},
  ): InboxStream {
    return new InboxStream(
      async (lastEventId) => {
        const [Impl, ticket] = await Promise.all([resolveWebSocket(options.WebSocket ?? this.WebSocketImpl), this.wsTicket()]);
        const url = new URL(`${this.baseUrl}/ws/inboxes/${encodeURIComponent(inboxId)}`);
        url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
        url.searchParams.set("ticket", ticket);
        if (lastEventId) url.searchParams.set("last_event_id", lastEventId);
        return new Impl(url.toString());
      },
      options.signal,
      { reconnect: options.reconnect ?? true, ...(options.lastEventId ? { lastEventId: options.lastEventId } : {}) },
    );
  }
}

export { BurnBoxError };
