import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { inboxServiceRoutes, parseDurationMs, WAITS_PER_USER } from "@burnbox/contracts";
import { createUnitOfWork } from "@burnbox/service-kit/data";
import { outboundPolicy, SecretBox } from "@burnbox/service-kit/security";
import {
  bindRoutes,
  createHttpApp,
  finalizeHttpApp,
  listen,
  metricsOnHttpPort,
  mountHealth,
  serveApi,
  serveMetricsPort,
} from "@burnbox/service-kit/http";
import { startConsumers, startOutboxRelay, type OutboxRelay } from "@burnbox/service-kit/messaging";
import { StopList, type Infra, type PeriodicTask, type Clock } from "@burnbox/service-kit/runtime";
import type { InboxConfig } from "./config";
import { createPrisma, type Db } from "./data/prisma";
import { IntakeRepository } from "./data/intake.repository";
import { hotRepositories, repositories } from "./data/repositories";
import { configuredStore, platformStore } from "./adapters/storage-drivers";
import { SwitchableStore } from "./adapters/switchable-storage";
import { RedisAttemptCounter } from "./adapters/redis-attempt-counter";
import { startPlatformConfig } from "./domain/platform/platform-config";
import { PlatformView } from "./domain/platform/platform-view";
import type { InboxDeps } from "./domain/deps";
import type { DeliveryDeps } from "./domain/outbound/deliver-outbound.use-case";
import { demoHandlers } from "./http/demo.handlers";
import { emailsHandlers } from "./http/emails.handlers";
import { inboxesHandlers } from "./http/inboxes.handlers";
import { smtpBehaviourHandlers } from "./http/smtp-behaviour.handlers";
import { snapshotsHandlers } from "./http/snapshots.handlers";
import { previewsHandlers } from "./http/previews.handlers";
import { rendererClient } from "./adapters/renderer";
import { outboundHandlers } from "./http/outbound.handlers";
import { serveInboxRpc } from "./messaging/inbox.rpc";
import { startTenancyConsumers } from "./messaging/tenancy-events.consumer";
import { liveMail } from "./messaging/live-mail";
import { startWaitWakes } from "./messaging/wait-wakes.consumer";
import { createSmtpIntake } from "./smtp/intake";
import { mailAuthentication } from "./adapters/mail-authentication";
import { rspamdScorer } from "./adapters/rspamd";
import { guardedLinkProber } from "./adapters/link-prober";
import { MailWaits } from "./domain/emails/wait/mail-waits";
import { MatchTurns } from "./domain/emails/wait/match-turns";
import { WaitSlots } from "./domain/emails/wait/wait-slots";
import { startCleanupWorker } from "./workers/cleanup.worker";
import { startOutboundWorker } from "./workers/outbound.worker";
import { startTranscriptBackfill } from "./workers/transcript-backfill.worker";
import { smtpSender } from "./adapters/smtp-sender";
import { intakeTarget, relayTarget } from "./domain/outbound/outbound-targets";
import { outboundSigning } from "./domain/outbound/outbound-signing";
import { dkimSigner } from "./adapters/dkim-signer";

export interface RunningService {
  port: number;
  deps: InboxDeps;
  /** The TTL cleanup; `runNow()` runs a cycle without waiting for the interval. */
  cleanup: PeriodicTask;
  /** The waits held in this process. */
  waits: MailWaits;
  /** The outbound queue's worker; `runNow()` delivers what is due without waiting for the interval. */
  outbound: PeriodicTask;
  stop(): Promise<void>;
}

/** The saved platform storage and settings, applied to `deps` now and on every change. */
export function startLiveConfig(config: InboxConfig, infra: Infra, deps: InboxDeps) {
  const storage = deps.storage;
  if (!(storage instanceof SwitchableStore)) throw new Error("the inbox's store must be switchable");
  const secrets = new SecretBox(config.encryption.key);
  return startPlatformConfig(
    { nc: infra.nc, config, logger: infra.logger },
    {
      storage,
      configured: storage.configuredStore,
      storeFor: (saved) => platformStore(saved, config, secrets),
      platform: deps.platform,
    },
  );
}

/** The use cases' dependencies, and the client and relay only the process itself closes. */
export function buildDeps(config: InboxConfig, infra: Infra, now: Clock): { deps: InboxDeps; db: Db; relay: OutboxRelay } {
  if (!infra.pool) throw new Error("inbox needs its database");
  const db = createPrisma(infra.pool);
  // each email.received also on its inbox's live subject, for the sockets and waits watching it
  const relay = startOutboxRelay({ pool: infra.pool, js: infra.js, logger: infra.logger, live: liveMail(infra.nc, config.nats.namespace) });
  const storage = new SwitchableStore(configuredStore(config));
  infra.checks.storage = () => storage.check();
  // the SMTP intake's statements on the pg pool, one group commit per process, and its recipient cache
  const intake = new IntakeRepository(
    infra.pool,
    relay,
    { nc: infra.nc, namespace: config.nats.namespace },
    { timeoutMs: parseDurationMs(config.smtp.store_timeout) },
  );
  const data = createUnitOfWork({
    client: db,
    transaction: (fn) => db.$transaction(fn),
    repositories,
    hot: hotRepositories(infra.pool, intake),
    relay,
    namespace: config.nats.namespace,
    // what each commit changed goes to every replica's caches (the recipients: RECIPIENT_CHANGES)
    changes: { nc: infra.nc },
  });
  // the SMTP behaviours' attempt counts (defer_first), in the Redis every intake replica shares
  const attempts = new RedisAttemptCounter(infra.redis, config.redis.key_prefix);
  // the link check goes out like a webhook delivery: the same rules, the same operator allow-list
  const links = guardedLinkProber(outboundPolicy({ dns: config.dns, allowedTargets: config.webhooks.unsafe_allowed_targets }));
  // previews: the renderer deployable, asked over NATS (this service never holds a browser)
  const renderer = rendererClient(infra.nc, config.nats.namespace, { timeoutMs: parseDurationMs(config.renderer.timeout) });
  return { deps: { data, nc: infra.nc, storage, config, now, platform: new PlatformView(), attempts, links, renderer }, db, relay };
}

/** The inbox API: inboxes, emails, the TTL cleanup worker and the inbox-access reply for realtime. */
export async function startService(
  config: InboxConfig,
  infra: Infra,
  opts: { now?: Clock; delivery?: Partial<Omit<DeliveryDeps, "logger">> } = {},
): Promise<RunningService> {
  const { deps, db, relay } = buildDeps(config, infra, opts.now ?? Date.now);
  // what starts is added as it starts; stop() stops it in the reverse order (the server first, the store last)
  const stops = new StopList();
  stops.addStep(() => deps.storage.close());
  stops.addStep(() => db.$disconnect());
  stops.add(relay);
  if (config.webhooks.unsafe_allowed_targets.length > 0) {
    infra.logger.warn(
      { unsafe_allowed_targets: config.webhooks.unsafe_allowed_targets },
      "UNSAFE: webhooks.unsafe_allowed_targets is set; the link check may reach these hosts. Use only for local test targets, never in production",
    );
  }
  stops.add(await startLiveConfig(config, infra, deps));
  stops.add(serveInboxRpc(infra.nc, deps, infra.logger));
  stops.add(await startConsumers(deps, infra.logger, [startTenancyConsumers]));
  const cleanup = stops.add(startCleanupWorker(deps, infra.logger));
  // the transcripts of mail stored before migration 0018 into the emails' rows (the migrate step)
  stops.add(startTranscriptBackfill(deps, infra.logger));
  // mail out (extensions 10): the platform mailer held to the outbound rules, like identity's account mail
  const mailerPolicy = outboundPolicy({ dns: config.dns, allowedTargets: config.infra.unsafe_allowed_targets });
  const mailerSecrets = config.encryption.key ? new SecretBox(config.encryption.key) : null;
  const outbound = stops.add(
    startOutboundWorker(
      deps,
      {
        sender: smtpSender,
        intake: intakeTarget(config),
        relay: () => relayTarget(deps, mailerPolicy, mailerSecrets),
        sign: outboundSigning(deps, dkimSigner, mailerSecrets),
        ...opts.delivery,
      },
      infra.logger,
    ),
  );
  // the waits held here (GET /inboxes/:id/emails/wait): woken by every intake's mail, answered on drain
  const waits = new MailWaits((scope, inboxId, ids, columns) => deps.data.hot.emails.named(scope, inboxId, ids, columns), infra.logger);
  stops.add(startWaitWakes(infra.nc, config.nats.namespace, waits, infra.logger));
  const removeDrainHook = infra.drain.onDrain(() => waits.drainAll());
  const slots = new WaitSlots(infra.redis, config.redis.key_prefix, WAITS_PER_USER, infra.logger);
  const api = bindRoutes(inboxServiceRoutes, {
    ...inboxesHandlers(deps),
    ...emailsHandlers(deps, { waits, slots, turns: new MatchTurns() }),
    ...demoHandlers(deps),
    ...smtpBehaviourHandlers(deps),
    ...snapshotsHandlers(deps),
    ...previewsHandlers(deps),
    ...outboundHandlers(deps),
  });
  const server = await serveApi({ config, infra, routers: [api] });
  stops.addStep(() => server.close());
  // stopped first: held waits answer now (what matched so far), so the server's close does not wait for them
  stops.addStep(() => {
    removeDrainHook();
    waits.drainAll();
  });
  return {
    port: server.port,
    deps,
    cleanup,
    waits,
    outbound,
    stop: () => stops.stop(),
  };
}

export interface RunningIntake {
  smtpPort: number;
  healthPort: number;
  deps: InboxDeps;
  stop(): Promise<void>;
}

/** The SMTP intake as its own process: SMTP on smtp.port, health and metrics on http.port. */
export async function startIntake(config: InboxConfig, infra: Infra, opts: { now?: Clock } = {}): Promise<RunningIntake> {
  const { deps, db, relay } = buildDeps(config, infra, opts.now ?? Date.now);
  // what starts is added as it starts; stop() stops it in the reverse order (SMTP first, the store last)
  const stops = new StopList();
  stops.addStep(() => deps.storage.close());
  stops.addStep(() => db.$disconnect());
  stops.add(relay);
  if (config.bench.unsafe_skip_extraction) {
    infra.logger.warn("bench.unsafe_skip_extraction is set: emails are stored without codes and links (a benchmark's baseline only)");
  }
  stops.add(await startLiveConfig(config, infra, deps));
  // once SMTP is closed: the messages still being stored commit, and their events go out before the relay stops
  stops.addStep(async () => {
    await deps.data.hot.intake.idle();
    await relay.flush().catch(() => undefined);
  });
  const authenticator = mailAuthentication(
    {
      enabled: config.authentication.enabled,
      budgetMs: parseDurationMs(config.authentication.dns_budget),
      maxLookups: config.authentication.max_lookups,
      cacheEntries: config.authentication.cache_entries,
      dns: config.dns,
      mta: config.smtp.hostname,
    },
    infra.logger,
  );
  const spamScorer = rspamdScorer({ url: config.spam.rspamd_url ?? null, timeoutMs: parseDurationMs(config.spam.timeout) }, infra.logger);
  const smtp = createSmtpIntake(deps, infra.logger, authenticator, spamScorer);
  smtp.listen(config.smtp.port, config.smtp.host);
  await once(smtp.server, "listening");
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  infra.logger.info({ port: smtpPort }, "SMTP intake listening");
  const app = createHttpApp({ logger: infra.logger, metrics: infra.metrics });
  mountHealth(app, infra.ready, { drain: infra.drain });
  if (metricsOnHttpPort(config)) app.get(config.metrics.path, infra.metrics.handler);
  finalizeHttpApp(app, infra.logger);
  const metricsPort = await serveMetricsPort(config, infra.metrics, infra.logger);
  const health = await listen(app, config.http.port, config.http.host, { drainTimeoutMs: infra.drain.settings.timeoutMs });
  stops.add([{ stop: () => health.close() }, ...(metricsPort ? [{ stop: () => metricsPort.close() }] : [])]);
  // SMTP, though up before the health port, stops first: its close waits out the sessions in
  // flight, and the health port answers meanwhile
  stops.addStep(() => new Promise<void>((resolve) => smtp.close(() => resolve())));
  return { smtpPort, healthPort: health.port, deps, stop: () => stops.stop() };
}
