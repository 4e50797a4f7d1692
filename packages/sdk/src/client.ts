import createClient, { type Client } from "openapi-fetch";
import type { components, paths } from "./generated/openapi.js";
import type { LinkKind, WaitEmailSummary, WaitResponse } from "./extensions.js";
import { BurnBoxError, errorFromResponse, WaitTimeoutError } from "./errors.js";
import { InboxStream, resolveWebSocket, type WebSocketConstructor } from "./stream.js";
import { buildWaitQuery, type WaitOptions } from "./wait-query.js";

type Schemas = components["schemas"];
export type Inbox = Schemas["Inbox"];
export type InboxPage = Schemas["InboxPage"];
export type Email = Schemas["Email"];
export type EmailSummary = Schemas["EmailSummary"];
export type EmailPage = Schemas["EmailPage"];
export type CreateInboxRequest = Schemas["CreateInboxRequest"];
export type AuthResult = Schemas["AuthResult"];

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
}

export interface WaitForLinkOptions extends WaitOptions {
  /** The kind of link; absent: the first link that is not an unsubscribe link. */
  kind?: LinkKind;
}

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
  private readonly WebSocketImpl: WebSocketConstructor | undefined;

  constructor(options: BurnBoxOptions) {
    if (!options?.baseUrl) throw new TypeError("baseUrl is required");
    if (options.apiKey !== undefined && !options.apiKey.startsWith("bb_")) throw new TypeError("an API key starts with bb_");
    const root = options.baseUrl.replace(/\/+$/, "");
    this.baseUrl = root.endsWith("/api/v1") ? root : `${root}/api/v1`;
    this.credential = options.apiKey ?? options.token;
    this.WebSocketImpl = options.WebSocket;
    const fetchImpl = options.fetch;
    this.api = createClient<BurnBoxPaths>({
      baseUrl: this.baseUrl,
      ...(fetchImpl ? { fetch: (req: Request) => fetchImpl(req) } : {}),
    });
    this.api.use({
      onRequest: ({ request }) => {
        if (this.credential && !request.headers.has("authorization")) request.headers.set("authorization", `Bearer ${this.credential}`);
        return request;
      },
    });
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
   * `/ws/inboxes/{id}`; `await s.ready` before relying on a frame for mail sent next.
   */
  stream(inboxId: string, options: { signal?: AbortSignal; WebSocket?: WebSocketConstructor } = {}): InboxStream {
    return new InboxStream(async () => {
      const [Impl, ticket] = await Promise.all([resolveWebSocket(options.WebSocket ?? this.WebSocketImpl), this.wsTicket()]);
      const url = new URL(`${this.baseUrl}/ws/inboxes/${encodeURIComponent(inboxId)}`);
      url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
      url.searchParams.set("ticket", ticket);
      return new Impl(url.toString());
    }, options.signal);
  }
}

export { BurnBoxError };
