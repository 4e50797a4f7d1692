import { createHash, randomUUID } from "node:crypto";
import { EventType, RpcName, subjects, type Actor } from "@burnbox/contracts";
import type { RequestCtx } from "@burnbox/service-kit/http";
import { rpcRequest, type NatsConnection } from "@burnbox/service-kit/messaging";
import { pipeline, type Infra, type Logger } from "@burnbox/service-kit/runtime";
type Redis = NonNullable<Infra["redis"]>;
type Subscription = ReturnType<NatsConnection["subscribe"]>;
import type { MailboxRepository } from "../data/mailbox.repository";
import type { InboxDeps } from "../domain/deps";
import { deleteEmail } from "../domain/emails/delete-email.use-case";
import { updateEmail } from "../domain/emails/update-email.use-case";
import { authorizeInbox } from "../domain/inboxes/inbox-access";
import { isTrustedPeer, trustedPeers } from "../smtp/proxy-protocol";
import type { MailboxBackend, MailboxSession } from "./backend";

const API_KEY_PATTERN = /^bb_[0-9a-f]{64}$/;

/**
 * The sessions of each inbox are told of its mail (any replica may have received it): one
 * subscription per inbox with a session here, to its live subject (the outbox relay's copy of
 * each `email.received`, `subjects().live`), so mail of an inbox no session watches never reaches
 * this process, and what does is not even parsed (the subject names the inbox).
 */
export class MailWakes {
  private readonly byInbox = new Map<string, { wakes: Set<() => void>; sub: Subscription }>();

  constructor(
    private readonly nc: NatsConnection,
    private readonly namespace: string,
    private readonly logger: Logger,
  ) {}

  on(inboxId: string, wake: () => void): () => void {
    let entry = this.byInbox.get(inboxId);
    if (!entry) {
      const wakes = new Set<() => void>();
      const sub = this.nc.subscribe(subjects(this.namespace).live(EventType.emailReceived, inboxId), {
        callback: (err) => {
          if (err) return this.logger.warn({ err }, "mailbox wake subscription failed");
          for (const w of wakes) w();
        },
      });
      this.byInbox.set(inboxId, (entry = { wakes, sub }));
      // once the server has the subscription, one wake: mail published before it got there is looked for
      void this.nc.flush().then(
        () => {
          for (const w of wakes) w();
        },
        () => undefined,
      );
    }
    const held = entry;
    held.wakes.add(wake);
    return () => {
      held.wakes.delete(wake);
      if (held.wakes.size > 0 || this.byInbox.get(inboxId) !== held) return;
      held.sub.unsubscribe();
      this.byInbox.delete(inboxId);
    };
  }

  stop(): void {
    for (const { sub } of this.byInbox.values()) sub.unsubscribe();
    this.byInbox.clear();
  }
}

export interface MailboxAccessOptions {
  /** How long a refused login waits before its answer. */
  failureDelayMs: number;
  /** Failed logins one client IP may make per minute; beyond, every login from it is refused until the minute ends. */
  failuresPerMinute: number;
  protocol: "imap" | "pop3";
}

/**
 * Logins of extensions section 11: the user is the inbox's full address, the password an API key
 * of the inbox's team that may read its emails through the API (`team.emails.view`, checked as
 * the API checks it). A wrong key, another team's key, a key without the scope, an unknown
 * address: refused alike, after the same delay; failures are counted per client IP in Redis (like
 * the gateway's login limit) and a client past the limit is refused without a look.
 */
export class MailboxAccess implements MailboxBackend {
  constructor(
    private readonly deps: InboxDeps,
    private readonly repo: MailboxRepository,
    private readonly redis: Redis | null,
    private readonly wakes: MailWakes,
    private readonly opts: MailboxAccessOptions,
    private readonly logger: Logger,
  ) {}

  private failureKey(ip: string): string {
    return `${this.deps.config.redis.key_prefix}mailbox:login-failures:${ip}:${Math.floor(Date.now() / 60_000)}`;
  }

  private async overLimit(ip: string): Promise<boolean> {
    if (!this.redis) return false;
    try {
      const n = Number((await this.redis.get(this.failureKey(ip))) ?? 0);
      return n >= this.opts.failuresPerMinute;
    } catch {
      return false;
    }
  }

  private async refused(ip: string, started: number, reason: string): Promise<null> {
    if (this.redis) {
      const key = this.failureKey(ip);
      await this.redis
        .multi()
        .incr(key)
        .expire(key, 120)
        .exec()
        .catch(() => undefined);
    }
    pipeline.mailboxLogins.inc({ protocol: this.opts.protocol, outcome: "refused" });
    this.logger.info({ ip, reason, protocol: this.opts.protocol }, "mailbox login refused");
    const wait = this.opts.failureDelayMs - (Date.now() - started);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    return null;
  }

  async login(address: string, password: string, clientIp: string): Promise<MailboxSession | null> {
    const started = Date.now();
    if (await this.overLimit(clientIp)) return this.refused(clientIp, started, "too many failures");
    if (!API_KEY_PATTERN.test(password)) return this.refused(clientIp, started, "not an API key");
    const key = (
      await rpcRequest(this.deps.nc, this.deps.config.nats.namespace, RpcName.resolveApiKey, {
        key_hash: createHash("sha256").update(password).digest("hex"),
      })
    ).key;
    if (!key || !key.is_active || key.revoked_at || (key.expires_at && Date.parse(key.expires_at) <= Date.now())) {
      return this.refused(clientIp, started, "unknown or inactive key");
    }
    if (key.allowed_ips.length > 0 && !isTrustedPeer(trustedPeers(key.allowed_ips), clientIp))
      return this.refused(clientIp, started, "IP not allowed");
    const inbox = await this.repo.inboxByAddress(address);
    if (!inbox || !inbox.is_active || inbox.expires_at.getTime() <= Date.now()) return this.refused(clientIp, started, "no such inbox");
    const actor: Actor = {
      user_id: key.creator.user_id,
      email: key.creator.email,
      is_system_admin: false,
      session_id: null,
      api_key: { id: key.id, team_id: key.team_id, scopes: key.scopes },
    };
    const ctx: RequestCtx = { actor, ip: clientIp, requestId: randomUUID(), userAgent: this.opts.protocol };
    let scope;
    try {
      scope = await authorizeInbox(this.deps, ctx, inbox, "team.emails.view", "inbox");
    } catch {
      return this.refused(clientIp, started, "key may not read the inbox");
    }
    const canManage = await authorizeInbox(this.deps, ctx, inbox, "team.emails.manage", "inbox").then(
      () => true,
      () => false,
    );
    const { deps, repo, wakes } = this;
    pipeline.mailboxLogins.inc({ protocol: this.opts.protocol, outcome: "ok" });
    return {
      inboxId: inbox.id,
      address: inbox.full_address,
      // the inbox's creation second: it changes only when the address is a new inbox
      uidValidity: Math.max(1, Math.floor(inbox.created_at.getTime() / 1000) % 2 ** 32),
      canManage,
      list: () => repo.messages(scope, inbox.id),
      raw: async (emailId) => {
        const file = await deps.data.repos.emails.rawMessage(scope, emailId);
        if (!file) throw new Error("email gone");
        return deps.storage.get(file.key);
      },
      setSeen: async (emailId, seen) => {
        await updateEmail(deps, ctx, { emailId, body: { is_read: seen } });
      },
      remove: (emailId) => deleteEmail(deps, ctx, { emailId }),
      onMail: (wake) => wakes.on(inbox.id, wake),
    };
  }
}
