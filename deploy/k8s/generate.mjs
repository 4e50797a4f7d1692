// Writes deploy/k8s/base/*.yaml: one file per process (Deployment, Service, HPA, PDB, NetworkPolicy,
// and for a process with a database its migration Job), the shared parts (namespace defaults,
// config, NATS cluster, ingress) and the monitoring objects (ServiceMonitor, PrometheusRule). The YAML is committed;
// edit this script and run it again rather than the files (deploy/k8s/validate.mjs checks that
// the files are what this script writes):
//
//   node deploy/k8s/generate.mjs            write the files
//   node deploy/k8s/generate.mjs --check    exit 1 when a file differs from what it would write
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
const { stringify } = createRequire(path.join(ROOT, "packages", "service-kit", "package.json"))("yaml");
const BASE = path.join(import.meta.dirname, "base");
const PART_OF = { "app.kubernetes.io/part-of": "burnbox" };
const VERSION = "0.1.0";
/** Every process serves /metrics on this port only (BB_METRICS_PORT): never on the port the Ingress reaches. */
const METRICS_PORT = 9464;
/**
 * Peers whose X-Forwarded-For api-gateway believes (BB_RATE_LIMIT_TRUSTED_PROXIES): the ingress
 * controller's pods. The private ranges cover every usual pod network (k3s 10.42.0.0/16, kind
 * 10.244.0.0/16, cloud VPCs); only the ingress controller may reach api-gateway (its
 * NetworkPolicy). Narrow it to your cluster's pod CIDR in an overlay.
 */
const TRUSTED_PROXIES = "10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,fc00::/7";

/**
 * Every process. `db`: the Secret key of its database URL. `s3`: reads the object store. `encryption`:
 * seals or opens stored secrets (`BB_ENCRYPTION_KEY`, the same for all).
 * `from`: who may open its HTTP port ("gateway": api-gateway only; "ingress": the ingress
 * controller and api-gateway). cpu/memory: requests (limits are set from them). `maxReplicas`:
 * its HPA's maximum. `pool`: its database pool (BB_DATABASE_POOL_SIZE, connections per pod).
 *
 * Connections: every database is on one PostgreSQL server, whose default max_connections is 100
 * (3 of them kept for superusers). At the HPAs' maximum, plus the one pod a rollout adds
 * (maxSurge), plus one per migration Job, the pods hold sum((max + 1) x pool) + 5: here
 * 5x2 + 5x2 + 7x2 + 7x2 + 4x1 + 5x2 + 7x2 + 5 = 81. validate.mjs computes it for every overlay and
 * fails above the limit the overlay documents (docs/operations.md, "Connections").
 */
const PROCESSES = [
  { name: "api-gateway", port: 8080, from: "ingress", cpu: "100m", memory: "192Mi", replicas: 2, maxReplicas: 6, gateway: true },
  {
    name: "identity",
    port: 8101,
    from: "gateway",
    db: "IDENTITY_DATABASE_URL",
    cpu: "200m",
    memory: "256Mi",
    replicas: 2,
    jwt: true,
    encryption: true,
    maxReplicas: 4,
    pool: 2,
  },
  {
    name: "tenancy",
    port: 8102,
    from: "gateway",
    db: "TENANCY_DATABASE_URL",
    cpu: "100m",
    memory: "192Mi",
    replicas: 2,
    encryption: true,
    maxReplicas: 4,
    pool: 2,
  },
  {
    name: "inbox",
    port: 8103,
    from: "gateway",
    db: "INBOX_DATABASE_URL",
    s3: true,
    cpu: "150m",
    memory: "256Mi",
    replicas: 2,
    encryption: true,
    maxReplicas: 6,
    pool: 2,
  },
  {
    name: "inbox-smtp",
    image: "inbox-smtp",
    port: 8106,
    smtp: 2525,
    db: "INBOX_DATABASE_URL",
    s3: true,
    cpu: "200m",
    memory: "384Mi",
    replicas: 2,
    encryption: true,
    maxReplicas: 6,
    pool: 2,
  },
  {
    // IMAP and POP3 for mail clients (extensions section 11): the inbox service's third entrypoint,
    // deployed and scaled on its own; its sessions are few and long (IDLE), so one connection per pod
    name: "inbox-mailbox",
    image: "inbox-mailbox",
    port: 8108,
    mailbox: { imap: 1143, pop3: 1110 },
    db: "INBOX_DATABASE_URL",
    s3: true,
    cpu: "100m",
    memory: "256Mi",
    replicas: 2,
    encryption: true,
    maxReplicas: 3,
    pool: 1,
  },
  {
    name: "webhook-dispatcher",
    port: 8104,
    from: "gateway",
    db: "WEBHOOK_DISPATCHER_DATABASE_URL",
    cpu: "100m",
    memory: "192Mi",
    replicas: 2,
    encryption: true,
    maxReplicas: 4,
    pool: 2,
  },
  {
    name: "realtime-gateway",
    port: 8105,
    from: "ingress",
    db: "REALTIME_GATEWAY_DATABASE_URL",
    cpu: "100m",
    memory: "192Mi",
    replicas: 2,
    jwt: true,
    maxReplicas: 6,
    pool: 2,
  },
  {
    // the renderer (extensions section 12): Chromium, fed over NATS only (no HTTP callers), no database
    name: "renderer",
    port: 8107,
    cpu: "500m",
    memory: "1Gi",
    replicas: 2,
    maxReplicas: 6,
  },
];

/** PostgreSQL's default max_connections, and the connections the pods and Jobs hold at most (above). */
const MAX_CONNECTIONS = 100;
/** Whether a process's database is its own, migrated by its Job (the SMTP intake and the mailbox share the inbox's). */
const migrates = (p) => p.db && !p.smtp && !p.mailbox;
const CONNECTIONS = PROCESSES.filter((p) => p.db).reduce((n, p) => n + (p.maxReplicas + 1) * p.pool, 0) + PROCESSES.filter(migrates).length;

const labels = (name) => ({ "app.kubernetes.io/name": name, "app.kubernetes.io/component": "service", ...PART_OF });
const selector = (name) => ({ "app.kubernetes.io/name": name, ...PART_OF });
const secretRef = (key, optional = false) => ({ secretKeyRef: { name: "burnbox-secrets", key, ...(optional ? { optional: true } : {}) } });
/** The NATS user a process connects as (the SMTP intake and the mailbox as the inbox service) and the Secret key of its password. */
const natsUserOf = (p) => (p.smtp || p.mailbox ? "inbox" : p.name);
const natsPasswordKey = (user) => `NATS_PASSWORD_${user.toUpperCase().replaceAll("-", "_")}`;
const twice = (q) => q.replace(/^(\d+)/, (n) => String(Number(n) * 2));

const POD_SECURITY = {
  runAsNonRoot: true,
  runAsUser: 1000,
  runAsGroup: 1000,
  fsGroup: 1000,
  seccompProfile: { type: "RuntimeDefault" },
};

const CONTAINER_SECURITY = {
  runAsNonRoot: true,
  runAsUser: 1000,
  runAsGroup: 1000,
  allowPrivilegeEscalation: false,
  readOnlyRootFilesystem: true,
  privileged: false,
  capabilities: { drop: ["ALL"] },
  seccompProfile: { type: "RuntimeDefault" },
};

function deployment(p) {
  const env = [
    { name: "BB_HTTP_PORT", value: String(p.port) },
    { name: "BB_METRICS_PORT", value: String(METRICS_PORT) },
    { name: "BB_INTERNAL_SECRET", valueFrom: secretRef("BB_INTERNAL_SECRET") },
    { name: "REDIS_URL", valueFrom: secretRef("REDIS_URL") },
    // a NATS user per service (nats.conf's authorization): no one without a password publishes events or answers RPCs
    { name: "BB_NATS_USER", value: natsUserOf(p) },
    { name: "BB_NATS_PASSWORD", valueFrom: secretRef(natsPasswordKey(natsUserOf(p))) },
  ];
  if (p.jwt || p.gateway) env.push({ name: "BB_AUTH_JWT_SECRET", valueFrom: secretRef("BB_AUTH_JWT_SECRET") });
  if (p.db) {
    env.push({ name: "BB_DATABASE_URL", valueFrom: secretRef(p.db) });
    // connections of this pod's one pool: the sum over the pods at the HPAs' maximum stays under max_connections (above)
    env.push({ name: "BB_DATABASE_POOL_SIZE", value: String(p.pool) });
    // the migration Job migrates (migrationJob): a pod never does, so no probe can stop a migration half done
    env.push({ name: "BB_DATABASE_MIGRATE_ON_START", value: "false" });
  }
  // one key for every service that seals or opens stored secrets; without it storing a secret is refused
  if (p.encryption) env.push({ name: "BB_ENCRYPTION_KEY", valueFrom: secretRef("BB_ENCRYPTION_KEY", true) });
  if (p.s3) {
    env.push(
      { name: "BB_STORAGE_S3_ACCESS_KEY_ID", valueFrom: secretRef("BB_STORAGE_S3_ACCESS_KEY_ID") },
      { name: "BB_STORAGE_S3_SECRET_ACCESS_KEY", valueFrom: secretRef("BB_STORAGE_S3_SECRET_ACCESS_KEY") },
    );
  }
  if (p.smtp) env.push({ name: "BB_SMTP_PORT", value: String(p.smtp) });
  // the intake scores each email with the cluster's rspamd (extensions section 9; rspamd.yaml); down, it stores `unavailable`
  if (p.smtp) env.push({ name: "BB_SPAM_RSPAMD_URL", value: `http://rspamd:${RSPAMD_PORT}` });
  if (p.mailbox) env.push({ name: "BB_IMAP_PORT", value: String(p.mailbox.imap) }, { name: "BB_POP3_PORT", value: String(p.mailbox.pop3) });
  // the client's address from the ingress controller's X-Forwarded-For (rate limits, allowed_ips)
  if (p.gateway) env.push({ name: "BB_RATE_LIMIT_TRUSTED_PROXIES", value: TRUSTED_PROXIES });
  if (p.gateway) {
    for (const q of PROCESSES.filter((x) => x.from)) {
      if (q.gateway) continue;
      env.push({ name: `BB_SERVICES_${q.name.replaceAll("-", "_").toUpperCase()}_URL`, value: `http://${q.name}:${q.port}` });
    }
  }
  const ports = [
    { name: "http", containerPort: p.port, protocol: "TCP" },
    { name: "metrics", containerPort: METRICS_PORT, protocol: "TCP" },
  ];
  if (p.smtp) ports.push({ name: "smtp", containerPort: p.smtp, protocol: "TCP" });
  if (p.mailbox)
    ports.push(
      { name: "imap", containerPort: p.mailbox.imap, protocol: "TCP" },
      { name: "pop3", containerPort: p.mailbox.pop3, protocol: "TCP" },
    );
  const http = (pathName) => ({ httpGet: { path: pathName, port: "http" } });
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: p.name, labels: labels(p.name) },
    spec: {
      replicas: p.replicas,
      revisionHistoryLimit: 5,
      selector: { matchLabels: selector(p.name) },
      strategy: { type: "RollingUpdate", rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
      template: {
        metadata: {
          labels: labels(p.name),
          annotations: { "prometheus.io/scrape": "true", "prometheus.io/port": String(METRICS_PORT), "prometheus.io/path": "/metrics" },
        },
        spec: {
          automountServiceAccountToken: false,
          enableServiceLinks: false,
          securityContext: {
            runAsNonRoot: true,
            runAsUser: 1000,
            runAsGroup: 1000,
            fsGroup: 1000,
            seccompProfile: { type: "RuntimeDefault" },
          },
          // SIGTERM: stop taking work, drain, close (service-kit's shutdown); long webhook POSTs included
          terminationGracePeriodSeconds: 40,
          topologySpreadConstraints: [
            {
              maxSkew: 1,
              topologyKey: "kubernetes.io/hostname",
              whenUnsatisfiable: "ScheduleAnyway",
              labelSelector: { matchLabels: selector(p.name) },
            },
          ],
          containers: [
            {
              name: p.name,
              image: `burnbox/${p.image ?? p.name}:${VERSION}`,
              imagePullPolicy: "IfNotPresent",
              ports,
              envFrom: [{ configMapRef: { name: "burnbox-config" } }],
              env,
              resources: { requests: { cpu: p.cpu, memory: p.memory }, limits: { cpu: twice(twice(p.cpu)), memory: twice(p.memory) } },
              // start-up: connect to Postgres, Redis and NATS (no migration: the Job's), within 2 minutes
              startupProbe: { ...http("/healthz"), periodSeconds: 2, failureThreshold: 60, timeoutSeconds: 2 },
              readinessProbe: { ...http("/readyz"), periodSeconds: 5, failureThreshold: 2, timeoutSeconds: 3 },
              livenessProbe: { ...http("/healthz"), periodSeconds: 10, failureThreshold: 3, timeoutSeconds: 3 },
              securityContext: CONTAINER_SECURITY,
              volumeMounts: [{ name: "tmp", mountPath: "/tmp" }],
            },
          ],
          volumes: [{ name: "tmp", emptyDir: { sizeLimit: "64Mi" } }],
        },
      },
    },
  };
}

/** The release in a Kubernetes name: `0.1.0` -> `0-1-0`. */
const VERSION_NAME = VERSION.replaceAll(".", "-");

/**
 * The migration Job of a process with a database, from the same image as its pods:
 * `node services/<svc>/dist/migrate.js` creates the database when missing and applies pending
 * migrations under the advisory lock, then exits. The pods never migrate
 * (BB_DATABASE_MIGRATE_ON_START=false), so a migration longer than any probe allows runs to its
 * end here, in a pod that has no probe, no deadline and that the cluster autoscaler does not
 * evict; a pod that dies anyway (node lost, OOM) drops its connection, and PostgreSQL rolls back
 * the migration's transaction: the next attempt starts it again.
 * Applied once per release: its name carries the version (`identity-migrate-0-1-0`), so each
 * release makes new Jobs and `kubectl apply` of an unchanged release changes nothing; Argo CD
 * runs it in an earlier sync wave than the Deployments and waits for it to complete; Flux
 * replaces it should its template change under the same name. No ttlSecondsAfterFinished: a
 * GitOps tool would make a deleted Job again; the previous release's Jobs are pruned (or deleted
 * by their version label, README's Deploy section).
 */
function migrationJob(p) {
  const jobLabels = { "app.kubernetes.io/name": `${p.name}-migrate`, "app.kubernetes.io/component": "migration", ...PART_OF };
  return {
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: {
      name: `${p.name}-migrate-${VERSION_NAME}`,
      labels: jobLabels,
      annotations: {
        // Argo CD: applied, and complete, before the Deployments (sync wave 0)
        "argocd.argoproj.io/sync-wave": "-1",
        // Flux: a changed template under the same name replaces the Job (its template is immutable)
        "kustomize.toolkit.fluxcd.io/force": "enabled",
      },
    },
    spec: {
      backoffLimit: 3,
      template: {
        metadata: { labels: jobLabels, annotations: { "cluster-autoscaler.kubernetes.io/safe-to-evict": "false" } },
        spec: {
          restartPolicy: "Never",
          automountServiceAccountToken: false,
          enableServiceLinks: false,
          securityContext: POD_SECURITY,
          containers: [
            {
              name: "migrate",
              image: `burnbox/${p.image ?? p.name}:${VERSION}`,
              imagePullPolicy: "IfNotPresent",
              command: ["node", `services/${p.name}/dist/migrate.js`],
              env: [
                { name: "BB_DATABASE_URL", valueFrom: secretRef(p.db) },
                { name: "BB_LOG_LEVEL", value: "info" },
              ],
              resources: { requests: { cpu: "100m", memory: "128Mi" }, limits: { cpu: "500m", memory: "256Mi" } },
              securityContext: CONTAINER_SECURITY,
              volumeMounts: [{ name: "tmp", mountPath: "/tmp" }],
            },
          ],
          volumes: [{ name: "tmp", emptyDir: { sizeLimit: "16Mi" } }],
        },
      },
    },
  };
}

function service(p) {
  // metrics: for Prometheus only (the ServiceMonitor scrapes it; the NetworkPolicy admits only the monitoring namespace)
  const ports = [
    { name: "http", port: p.port, targetPort: "http", protocol: "TCP" },
    { name: "metrics", port: METRICS_PORT, targetPort: "metrics", protocol: "TCP" },
  ];
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: p.name, labels: labels(p.name) },
    spec: { type: "ClusterIP", selector: selector(p.name), ports },
  };
}

/** The public MX: port 25 outside, the unprivileged 2525 inside; client IPs kept (per-IP limits). */
function smtpService(p) {
  return {
    apiVersion: "v1",
    kind: "Service",
    // component "mx": not one of the Services the ServiceMonitor scrapes (it publishes SMTP only)
    metadata: { name: `${p.name}-public`, labels: { ...labels(p.name), "app.kubernetes.io/component": "mx" } },
    spec: {
      type: "LoadBalancer",
      externalTrafficPolicy: "Local",
      selector: selector(p.name),
      ports: [{ name: "smtp", port: 25, targetPort: "smtp", protocol: "TCP" }],
    },
  };
}

/**
 * IMAP (143) and POP3 (110) for mail clients, the unprivileged 1143 and 1110 inside; client IPs
 * kept (the failed-login limit counts per address). STARTTLS/STLS with `mailbox.tls_cert`.
 */
function mailboxService(p) {
  return {
    apiVersion: "v1",
    kind: "Service",
    // component "mail-clients": not one of the Services the ServiceMonitor scrapes (it publishes IMAP and POP3 only)
    metadata: { name: `${p.name}-public`, labels: { ...labels(p.name), "app.kubernetes.io/component": "mail-clients" } },
    spec: {
      type: "LoadBalancer",
      externalTrafficPolicy: "Local",
      selector: selector(p.name),
      ports: [
        { name: "imap", port: 143, targetPort: "imap", protocol: "TCP" },
        { name: "pop3", port: 110, targetPort: "pop3", protocol: "TCP" },
      ],
    },
  };
}

function hpa(p) {
  return {
    apiVersion: "autoscaling/v2",
    kind: "HorizontalPodAutoscaler",
    metadata: { name: p.name, labels: labels(p.name) },
    spec: {
      scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: p.name },
      minReplicas: p.replicas,
      maxReplicas: p.maxReplicas,
      metrics: [{ type: "Resource", resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 70 } } }],
      behavior: { scaleDown: { stabilizationWindowSeconds: 300 } },
    },
  };
}

function pdb(p) {
  return {
    apiVersion: "policy/v1",
    kind: "PodDisruptionBudget",
    metadata: { name: p.name, labels: labels(p.name) },
    spec: { maxUnavailable: 1, selector: { matchLabels: selector(p.name) } },
  };
}

const MONITORING = { namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "monitoring" } } };
const FROM_GATEWAY = { podSelector: { matchLabels: selector("api-gateway") } };

function networkPolicy(p) {
  const ingress = [];
  const anywhere = [{ ipBlock: { cidr: "0.0.0.0/0" } }, { ipBlock: { cidr: "::/0" } }];
  if (p.smtp) {
    // the MX takes mail from anywhere; its HTTP port (health) from no one but the kubelet
    ingress.push({ from: anywhere, ports: [{ port: p.smtp, protocol: "TCP" }] });
  } else if (p.mailbox) {
    // mail clients log in from anywhere (an API key is the password); the HTTP port (health) from no one but the kubelet
    ingress.push({
      from: anywhere,
      ports: [
        { port: p.mailbox.imap, protocol: "TCP" },
        { port: p.mailbox.pop3, protocol: "TCP" },
      ],
    });
  } else if (p.name !== "api-gateway") {
    // the edge's controller is admitted by the edge component (deploy/k8s/components/edge-*), first in this list
    ingress.push({ from: [FROM_GATEWAY], ports: [{ port: p.port, protocol: "TCP" }] });
  }
  ingress.push({ from: [MONITORING], ports: [{ port: METRICS_PORT, protocol: "TCP" }] });
  return {
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: { name: p.name, labels: labels(p.name) },
    spec: { podSelector: { matchLabels: selector(p.name) }, policyTypes: ["Ingress"], ingress },
  };
}

// ---- rspamd (extensions section 9): the official image, as docker-compose.yml runs it. The intake
// asks its normal worker (POST /checkv2 on 11333) for each email's score within spam.timeout; a
// missing or slow rspamd never refuses mail (the email is stored with `status: "unavailable"`).
// Stateless without Redis (no Bayes, no greylisting): more replicas only share the load. Only the
// intake's pods reach it; its controller (11334) answers the probes' /ping and no one else.
const RSPAMD_IMAGE = "rspamd/rspamd:3.11.1";
const RSPAMD_PORT = 11333;
const RSPAMD_CONTROLLER_PORT = 11334;
/** The image's user (USER 11333:11333): its directories under /var/lib and /run are emptyDirs, the root file system read-only. */
const RSPAMD_UID = 11333;
const rspamdLabels = { "app.kubernetes.io/name": "rspamd", "app.kubernetes.io/component": "spam-filter", ...PART_OF };
const rspamdSelector = selector("rspamd");
const rspamdPing = { httpGet: { path: "/ping", port: "controller" } };
const rspamdSecurity = { ...CONTAINER_SECURITY, runAsUser: RSPAMD_UID, runAsGroup: RSPAMD_UID };
const rspamd = [
  {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "rspamd", labels: rspamdLabels },
    spec: {
      replicas: 2,
      revisionHistoryLimit: 5,
      selector: { matchLabels: rspamdSelector },
      strategy: { type: "RollingUpdate", rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
      template: {
        metadata: { labels: rspamdLabels },
        spec: {
          automountServiceAccountToken: false,
          enableServiceLinks: false,
          securityContext: { ...POD_SECURITY, runAsUser: RSPAMD_UID, runAsGroup: RSPAMD_UID, fsGroup: RSPAMD_UID },
          terminationGracePeriodSeconds: 30,
          topologySpreadConstraints: [
            {
              maxSkew: 1,
              topologyKey: "kubernetes.io/hostname",
              whenUnsatisfiable: "ScheduleAnyway",
              labelSelector: { matchLabels: rspamdSelector },
            },
          ],
          containers: [
            {
              name: "rspamd",
              image: RSPAMD_IMAGE,
              imagePullPolicy: "IfNotPresent",
              ports: [
                { name: "normal", containerPort: RSPAMD_PORT, protocol: "TCP" },
                { name: "controller", containerPort: RSPAMD_CONTROLLER_PORT, protocol: "TCP" },
              ],
              resources: { requests: { cpu: "200m", memory: "256Mi" }, limits: { cpu: "1", memory: "512Mi" } },
              // the first start compiles the rules' regular expressions (about 30 s on a small node)
              startupProbe: { ...rspamdPing, periodSeconds: 2, failureThreshold: 90, timeoutSeconds: 2 },
              readinessProbe: { ...rspamdPing, periodSeconds: 5, failureThreshold: 2, timeoutSeconds: 3 },
              livenessProbe: { ...rspamdPing, periodSeconds: 10, failureThreshold: 3, timeoutSeconds: 3 },
              securityContext: rspamdSecurity,
              volumeMounts: [
                { name: "data", mountPath: "/var/lib/rspamd" },
                { name: "run", mountPath: "/run/rspamd" },
                { name: "tmp", mountPath: "/tmp" },
              ],
            },
          ],
          volumes: [
            { name: "data", emptyDir: { sizeLimit: "256Mi" } },
            { name: "run", emptyDir: { sizeLimit: "16Mi" } },
            { name: "tmp", emptyDir: { sizeLimit: "64Mi" } },
          ],
        },
      },
    },
  },
  {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: "rspamd", labels: rspamdLabels },
    spec: {
      type: "ClusterIP",
      selector: rspamdSelector,
      ports: [{ name: "normal", port: RSPAMD_PORT, targetPort: "normal", protocol: "TCP" }],
    },
  },
  {
    apiVersion: "autoscaling/v2",
    kind: "HorizontalPodAutoscaler",
    metadata: { name: "rspamd", labels: rspamdLabels },
    spec: {
      scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: "rspamd" },
      minReplicas: 2,
      maxReplicas: 6,
      metrics: [{ type: "Resource", resource: { name: "cpu", target: { type: "Utilization", averageUtilization: 70 } } }],
      behavior: { scaleDown: { stabilizationWindowSeconds: 300 } },
    },
  },
  {
    apiVersion: "policy/v1",
    kind: "PodDisruptionBudget",
    metadata: { name: "rspamd", labels: rspamdLabels },
    spec: { maxUnavailable: 1, selector: { matchLabels: rspamdSelector } },
  },
  {
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: { name: "rspamd", labels: rspamdLabels },
    spec: {
      podSelector: { matchLabels: rspamdSelector },
      policyTypes: ["Ingress"],
      // the intake's pods only (the kubelet's probes are not subject to it)
      ingress: [{ from: [{ podSelector: { matchLabels: selector("inbox-smtp") } }], ports: [{ port: RSPAMD_PORT, protocol: "TCP" }] }],
    },
  },
];

/** The WebSocket streams realtime-gateway upgrades (GET /ws/inboxes/{id}, /ws/notifications, /ws/admin-stats). */
const WS_UPGRADE_PATHS = [
  ["/api/v1/ws/inboxes", "Prefix"],
  ["/api/v1/ws/notifications", "Exact"],
  ["/api/v1/ws/admin-stats", "Exact"],
];

const common = [
  {
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: { name: "default-deny-ingress", labels: PART_OF },
    spec: { podSelector: {}, policyTypes: ["Ingress"] },
  },
  {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: "burnbox-config", labels: PART_OF },
    data: {
      NODE_ENV: "production",
      // public names required: identity refuses to start without BB_BASE_URL, tenancy and the intake
      // without BB_SMTP_HOSTNAME (each overlay sets both; see the README's Deploy section)
      BB_DEPLOYMENT_MODE: "production",
      BB_LOG_LEVEL: "info",
      NATS_URL: "nats://nats:4222",
      BB_NATS_STREAM_REPLICAS: "3",
      BB_STORAGE_PROVIDER: "s3",
      BB_STORAGE_S3_ENDPOINT: "https://s3.example.com",
      BB_STORAGE_S3_BUCKET: "burnbox-mail",
      BB_STORAGE_S3_REGION: "us-east-1",
      BB_STORAGE_S3_FORCE_PATH_STYLE: "false",
    },
  },
];

// ---- The edge: one Kustomize component per controller (deploy/k8s/components/edge-<name>). Each
// adds the route objects (an Ingress of its class, or a Gateway API HTTPRoute) and admits its
// controller's pods, and only those, to api-gateway's and realtime-gateway's HTTP ports. What
// differs between clusters is a setting, read from the overlay's `burnbox-edge` ConfigMap (a
// local-config object: Kustomize reads it and leaves it out of the output) by `replacements`.
/** What a setting's field holds until the overlay's `burnbox-edge` replaces it (validate.mjs fails on any left). */
const UNSET = "SET-BY-burnbox-edge";
/** The processes the edge's controller reaches: api-gateway (everything) and realtime-gateway (the upgrades). */
const EDGE_TARGETS = PROCESSES.filter((p) => p.from === "ingress");
/**
 * Each controller: its settings' defaults (the component's settings.yaml: copy it into the overlay
 * as edge.yaml) and its route objects. `controllerNamespace` and `controllerPodLabel` (key=value)
 * select the pods that proxy to BurnBox: the NetworkPolicies admit those alone.
 */
const EDGES = {
  "ingress-nginx": {
    summary: "ingress-nginx (an Ingress of class nginx)",
    settings: {
      host: "burnbox.example.com",
      tlsSecretName: "burnbox-tls",
      ingressClassName: "nginx",
      controllerNamespace: "ingress-nginx",
      controllerPodLabel: "app.kubernetes.io/name=ingress-nginx",
    },
    annotations: {
      // WebSockets stay open: no proxy read/send timeout shorter than an hour
      "nginx.ingress.kubernetes.io/proxy-read-timeout": "3600",
      "nginx.ingress.kubernetes.io/proxy-send-timeout": "3600",
      "nginx.ingress.kubernetes.io/proxy-body-size": "2m",
    },
  },
  traefik: {
    summary: "Traefik (an Ingress of class traefik; k3s's default controller, in kube-system)",
    settings: {
      host: "burnbox.example.com",
      tlsSecretName: "burnbox-tls",
      ingressClassName: "traefik",
      controllerNamespace: "kube-system",
      controllerPodLabel: "app.kubernetes.io/name=traefik",
    },
    // HTTPS only (k3s's Traefik has the entry points web :80 and websecure :443). Traefik keeps
    // upgraded connections open without a per-route timeout: WebSockets need no annotation.
    annotations: {
      "traefik.ingress.kubernetes.io/router.entrypoints": "websecure",
      "traefik.ingress.kubernetes.io/router.tls": "true",
    },
  },
  "gateway-api": {
    summary: "a Gateway API HTTPRoute (Envoy Gateway, and the cloud controllers: GKE, AKS, AWS Gateway API controller)",
    settings: {
      host: "burnbox.example.com",
      // the Gateway (TLS terminates there: its listener's certificateRefs) and where it is; it must admit routes from BurnBox's namespace
      gatewayName: "burnbox",
      gatewayNamespace: "envoy-gateway-system",
      // Envoy Gateway runs each Gateway's proxies in its own namespace; a cloud controller's proxies
      // are outside the cluster: replace the NetworkPolicy rule with its ipBlock (docs/operations.md)
      controllerNamespace: "envoy-gateway-system",
      controllerPodLabel: "app.kubernetes.io/name=envoy",
    },
  },
};

const edgeBackend = (p) => ({ service: { name: p.name, port: { name: "http" } } });
const byName = (name) => PROCESSES.find((p) => p.name === name);

function edgeIngress(edge) {
  return {
    apiVersion: "networking.k8s.io/v1",
    kind: "Ingress",
    metadata: { name: "burnbox", labels: PART_OF, annotations: edge.annotations },
    spec: {
      ingressClassName: UNSET,
      tls: [{ hosts: [UNSET], secretName: UNSET }],
      rules: [
        {
          host: UNSET,
          http: {
            // Only the WebSocket upgrades go straight to realtime-gateway (a ticket admits them);
            // every REST operation, POST /api/v1/ws/ticket included, needs api-gateway's
            // authentication and signed context. deploy/k8s/validate.mjs checks every contract route.
            paths: [
              ...WS_UPGRADE_PATHS.map(([path, pathType]) => ({ path, pathType, backend: edgeBackend(byName("realtime-gateway")) })),
              { path: "/", pathType: "Prefix", backend: edgeBackend(byName("api-gateway")) },
            ],
          },
        },
      ],
    },
  };
}

/** Gateway API matching: Exact and PathPrefix (whole path elements), the longest match first, as Ingress's Exact and Prefix. */
function edgeHttpRoute() {
  const realtime = byName("realtime-gateway");
  const gateway = byName("api-gateway");
  return {
    apiVersion: "gateway.networking.k8s.io/v1",
    kind: "HTTPRoute",
    metadata: { name: "burnbox", labels: PART_OF },
    spec: {
      parentRefs: [{ group: "gateway.networking.k8s.io", kind: "Gateway", name: UNSET, namespace: UNSET }],
      hostnames: [UNSET],
      rules: [
        {
          matches: WS_UPGRADE_PATHS.map(([path, pathType]) => ({
            path: { type: pathType === "Exact" ? "Exact" : "PathPrefix", value: path },
          })),
          backendRefs: [{ name: realtime.name, port: realtime.port }],
          // an upgraded stream has no request timeout ("0s": none)
          timeouts: { request: "0s" },
        },
        {
          matches: [{ path: { type: "PathPrefix", value: "/" } }],
          backendRefs: [{ name: gateway.name, port: gateway.port }],
          // long polls (wait, SSE) answer within the contract's own bounds; an hour as ingress-nginx's read timeout
          timeouts: { request: "1h" },
        },
      ],
    },
  };
}

/** The rule a component puts first in each edge target's NetworkPolicy: the controller's pods, by namespace and label. */
const edgeRulePatch = (p) =>
  stringify(
    [
      {
        op: "add",
        path: "/spec/ingress/0",
        value: {
          from: [
            {
              namespaceSelector: { matchExpressions: [{ key: "kubernetes.io/metadata.name", operator: "In", values: [UNSET] }] },
              podSelector: { matchExpressions: [{ key: UNSET, operator: "In", values: [UNSET] }] },
            },
          ],
          ports: [{ port: p.port, protocol: "TCP" }],
        },
      },
    ],
    { lineWidth: 0 },
  );

const edgeReplacement = (key, targets, options) => ({
  source: { kind: "ConfigMap", name: "burnbox-edge", fieldPath: `data.${key}`, ...(options ? { options } : {}) },
  targets,
});

function edgeComponent(name, edge) {
  const isRoute = name === "gateway-api";
  const routeKind = isRoute ? "HTTPRoute" : "Ingress";
  const npPath = "spec.ingress.0.from.0";
  // (a replacement's select names one object: no regular expression as a patch's target takes)
  const policies = (fieldPath) => EDGE_TARGETS.map((p) => ({ select: { kind: "NetworkPolicy", name: p.name }, fieldPaths: [fieldPath] }));
  const replacements = [
    edgeReplacement("controllerNamespace", policies(`${npPath}.namespaceSelector.matchExpressions.0.values.0`)),
    // `key=value`: the label's key, then its value
    edgeReplacement("controllerPodLabel", policies(`${npPath}.podSelector.matchExpressions.0.key`), { delimiter: "=", index: 0 }),
    edgeReplacement("controllerPodLabel", policies(`${npPath}.podSelector.matchExpressions.0.values.0`), { delimiter: "=", index: 1 }),
    ...(isRoute
      ? [
          edgeReplacement("host", [{ select: { kind: routeKind, name: "burnbox" }, fieldPaths: ["spec.hostnames.0"] }]),
          edgeReplacement("gatewayName", [{ select: { kind: routeKind, name: "burnbox" }, fieldPaths: ["spec.parentRefs.0.name"] }]),
          edgeReplacement("gatewayNamespace", [
            { select: { kind: routeKind, name: "burnbox" }, fieldPaths: ["spec.parentRefs.0.namespace"] },
          ]),
        ]
      : [
          edgeReplacement("host", [
            { select: { kind: routeKind, name: "burnbox" }, fieldPaths: ["spec.rules.0.host", "spec.tls.0.hosts.0"] },
          ]),
          edgeReplacement("tlsSecretName", [{ select: { kind: routeKind, name: "burnbox" }, fieldPaths: ["spec.tls.0.secretName"] }]),
          edgeReplacement("ingressClassName", [{ select: { kind: routeKind, name: "burnbox" }, fieldPaths: ["spec.ingressClassName"] }]),
        ]),
  ];
  const settings = {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: "burnbox-edge", annotations: { "config.kubernetes.io/local-config": "true" } },
    data: edge.settings,
  };
  return {
    kustomization: {
      apiVersion: "kustomize.config.k8s.io/v1alpha1",
      kind: "Component",
      resources: ["route.yaml"],
      patches: EDGE_TARGETS.map((p) => ({ target: { kind: "NetworkPolicy", name: p.name }, patch: edgeRulePatch(p) })),
      replacements,
    },
    route: isRoute ? edgeHttpRoute() : edgeIngress(edge),
    settings,
  };
}

// ---- NATS: a three-node JetStream cluster (file store on a volume per node)
const NATS_LABELS = { "app.kubernetes.io/name": "nats", "app.kubernetes.io/component": "messaging", ...PART_OF };
const NATS_SELECTOR = { "app.kubernetes.io/name": "nats", ...PART_OF };
/** The NATS users: one per service, each password from burnbox-secrets (the server reads `$NATS_PASSWORD_…` from its env). */
const NATS_USERS = [...new Set(PROCESSES.map(natsUserOf))];
const natsAuthorization = () => [
  "authorization {",
  "  users: [",
  ...NATS_USERS.map((u) => `    { user: ${u}, password: $${natsPasswordKey(u)} }`),
  "  ]",
  "}",
];
/** Where the NATS TLS component mounts the server's certificate (cert-manager's Secret: tls.crt, tls.key, ca.crt). */
const NATS_TLS_DIR = "/etc/nats/tls";
const natsTls = (extra = []) => [
  "  tls {",
  `    cert_file: ${NATS_TLS_DIR}/tls.crt`,
  `    key_file: ${NATS_TLS_DIR}/tls.key`,
  `    ca_file: ${NATS_TLS_DIR}/ca.crt`,
  ...extra.map((l) => `    ${l}`),
  "  }",
];
const natsConf = (clustered, tls = false) =>
  [
    "# NATS server configuration (the server name is the pod's)",
    "server_name: $POD_NAME",
    "port: 4222",
    "http_port: 8222",
    "max_payload: 8MB",
    "lame_duck_duration: 30s",
    "pid_file: /tmp/nats.pid",
    // clients must speak TLS (the server says so in its INFO; the client upgrades and checks the name "nats")
    ...(tls
      ? [
          "tls {",
          ...natsTls(["timeout: 2"])
            .slice(1, -1)
            .map((l) => l.slice(2)),
          "}",
        ]
      : []),
    "jetstream {",
    "  store_dir: /data",
    "  max_file_store: 8GB",
    "  max_memory_store: 256MB",
    "}",
    ...natsAuthorization(),
    ...(clustered
      ? [
          "cluster {",
          "  name: burnbox",
          "  port: 6222",
          "  routes: [",
          "    nats://nats-0.nats-headless:6222",
          "    nats://nats-1.nats-headless:6222",
          "    nats://nats-2.nats-headless:6222",
          "  ]",
          "  connect_retries: 120",
          // with TLS, clients keep to the name "nats" their certificate check expects, not the nodes' addresses
          ...(tls ? ["  no_advertise: true"] : []),
          // routes: mutual TLS between the nodes, each by the certificate of *.nats-headless
          ...(tls ? natsTls(["verify: true", "timeout: 2"]) : []),
          "}",
        ]
      : []),
    "",
  ].join("\n");

/** 90% of the NATS container's memory limit (1Gi). */
const NATS_GOMEMLIMIT = "921MiB";
const NATS_METRICS_PORT = 7777;
/** The exporter's Service: component messaging-metrics, so the NATS ServiceMonitor selects it alone. */
const NATS_METRICS_LABELS = { ...NATS_LABELS, "app.kubernetes.io/component": "messaging-metrics" };

const nats = [
  { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "nats-config", labels: NATS_LABELS }, data: { "nats.conf": natsConf(true) } },
  {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: "nats", labels: NATS_LABELS },
    spec: { selector: NATS_SELECTOR, ports: [{ name: "client", port: 4222, targetPort: "client" }] },
  },
  {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: "nats-headless", labels: NATS_LABELS },
    spec: {
      clusterIP: "None",
      publishNotReadyAddresses: true,
      selector: NATS_SELECTOR,
      ports: [
        { name: "client", port: 4222, targetPort: "client" },
        { name: "cluster", port: 6222, targetPort: "cluster" },
        { name: "monitor", port: 8222, targetPort: "monitor" },
      ],
    },
  },
  {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: "nats-metrics", labels: NATS_METRICS_LABELS },
    spec: { selector: NATS_SELECTOR, ports: [{ name: "metrics", port: NATS_METRICS_PORT, targetPort: "metrics" }] },
  },
  {
    apiVersion: "apps/v1",
    kind: "StatefulSet",
    metadata: { name: "nats", labels: NATS_LABELS },
    spec: {
      serviceName: "nats-headless",
      replicas: 3,
      podManagementPolicy: "Parallel",
      selector: { matchLabels: NATS_SELECTOR },
      template: {
        metadata: { labels: NATS_LABELS },
        spec: {
          automountServiceAccountToken: false,
          enableServiceLinks: false,
          securityContext: {
            runAsNonRoot: true,
            runAsUser: 1000,
            runAsGroup: 1000,
            fsGroup: 1000,
            seccompProfile: { type: "RuntimeDefault" },
          },
          terminationGracePeriodSeconds: 60,
          // one JetStream node per host, or none: two on one host would lose the stream quorum with it.
          // By zone as well where nodes have zones (ScheduleAnyway: a zoneless node has no zone label,
          // and DoNotSchedule would leave the pods pending there; patch it where every node has one).
          topologySpreadConstraints: [
            {
              maxSkew: 1,
              topologyKey: "kubernetes.io/hostname",
              whenUnsatisfiable: "DoNotSchedule",
              labelSelector: { matchLabels: NATS_SELECTOR },
            },
            {
              maxSkew: 1,
              topologyKey: "topology.kubernetes.io/zone",
              whenUnsatisfiable: "ScheduleAnyway",
              labelSelector: { matchLabels: NATS_SELECTOR },
            },
          ],
          containers: [
            {
              name: "nats",
              image: "nats:2.10.29-alpine",
              args: ["--config", "/etc/nats/nats.conf"],
              env: [
                { name: "POD_NAME", valueFrom: { fieldRef: { fieldPath: "metadata.name" } } },
                // the Go runtime collects before the memory limit (1Gi) rather than being OOM-killed at it
                { name: "GOMEMLIMIT", value: NATS_GOMEMLIMIT },
                ...NATS_USERS.map((u) => ({ name: natsPasswordKey(u), valueFrom: secretRef(natsPasswordKey(u)) })),
              ],
              ports: [
                { name: "client", containerPort: 4222 },
                { name: "cluster", containerPort: 6222 },
                { name: "monitor", containerPort: 8222 },
              ],
              resources: { requests: { cpu: "200m", memory: "256Mi" }, limits: { cpu: "1", memory: "1Gi" } },
              startupProbe: { httpGet: { path: "/healthz", port: "monitor" }, periodSeconds: 5, failureThreshold: 90 },
              readinessProbe: {
                httpGet: { path: "/healthz?js-server-only=true", port: "monitor" },
                periodSeconds: 10,
                failureThreshold: 3,
              },
              livenessProbe: {
                httpGet: { path: "/healthz?js-enabled-only=true", port: "monitor" },
                periodSeconds: 30,
                failureThreshold: 3,
              },
              // lame duck mode: clients move to the other nodes before this one stops
              lifecycle: { preStop: { exec: { command: ["nats-server", "-sl=ldm=/tmp/nats.pid"] } } },
              securityContext: CONTAINER_SECURITY,
              volumeMounts: [
                { name: "config", mountPath: "/etc/nats" },
                { name: "data", mountPath: "/data" },
                { name: "tmp", mountPath: "/tmp" },
              ],
            },
            {
              // JetStream's storage, streams and consumers (pending, ack pending, redelivered) and the
              // server's own figures, from the monitor port on localhost, for Prometheus on :7777
              name: "metrics",
              image: "natsio/prometheus-nats-exporter:0.16.0",
              args: ["-port=7777", "-varz", "-connz", "-routez", "-jsz=all", "http://localhost:8222"],
              env: [{ name: "GOMEMLIMIT", value: "57MiB" }],
              ports: [{ name: "metrics", containerPort: 7777 }],
              resources: { requests: { cpu: "10m", memory: "32Mi" }, limits: { cpu: "100m", memory: "64Mi" } },
              livenessProbe: { httpGet: { path: "/metrics", port: "metrics" }, periodSeconds: 30, failureThreshold: 3, timeoutSeconds: 5 },
              securityContext: CONTAINER_SECURITY,
            },
          ],
          volumes: [
            { name: "config", configMap: { name: "nats-config" } },
            { name: "tmp", emptyDir: { sizeLimit: "16Mi" } },
          ],
        },
      },
      volumeClaimTemplates: [
        {
          metadata: { name: "data" },
          spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "10Gi" } } },
        },
      ],
    },
  },
  {
    apiVersion: "policy/v1",
    kind: "PodDisruptionBudget",
    metadata: { name: "nats", labels: NATS_LABELS },
    spec: { maxUnavailable: 1, selector: { matchLabels: NATS_SELECTOR } },
  },
  {
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: { name: "nats", labels: NATS_LABELS },
    spec: {
      podSelector: { matchLabels: NATS_SELECTOR },
      policyTypes: ["Ingress"],
      ingress: [
        { from: [{ podSelector: { matchLabels: PART_OF } }], ports: [{ port: 4222, protocol: "TCP" }] },
        { from: [{ podSelector: { matchLabels: NATS_SELECTOR } }], ports: [{ port: 6222, protocol: "TCP" }] },
        {
          from: [MONITORING],
          ports: [
            { port: 8222, protocol: "TCP" },
            { port: NATS_METRICS_PORT, protocol: "TCP" },
          ],
        },
      ],
    },
  },
];

// ---- NATS over TLS (deploy/k8s/components/nats-tls): cert-manager makes a CA of BurnBox's own and
// from it the servers' certificate (the name clients dial, "nats", and every node's
// *.nats-headless for the routes); NATS asks every client for TLS, the routes are mutual TLS, and
// the services trust the CA (NODE_EXTRA_CA_CERTS: Node's TLS, no setting of our own).
const NATS_CA_DIR = "/etc/burnbox/nats-ca";
const certManager = (kind, name, spec) => ({ apiVersion: "cert-manager.io/v1", kind, metadata: { name, labels: NATS_LABELS }, spec });
const natsTlsObjects = [
  certManager("Issuer", "burnbox-nats-selfsigned", { selfSigned: {} }),
  certManager("Certificate", "burnbox-nats-ca", {
    isCA: true,
    commonName: "BurnBox NATS CA",
    secretName: "burnbox-nats-ca",
    duration: "87600h",
    privateKey: { algorithm: "ECDSA", size: 256 },
    issuerRef: { name: "burnbox-nats-selfsigned", kind: "Issuer", group: "cert-manager.io" },
  }),
  certManager("Issuer", "burnbox-nats-ca", { ca: { secretName: "burnbox-nats-ca" } }),
  certManager("Certificate", "nats-tls", {
    secretName: "nats-tls",
    dnsNames: ["nats", "*.nats-headless"],
    duration: "2160h",
    renewBefore: "360h",
    usages: ["server auth", "client auth"],
    privateKey: { algorithm: "ECDSA", size: 256, rotationPolicy: "Always" },
    issuerRef: { name: "burnbox-nats-ca", kind: "Issuer", group: "cert-manager.io" },
  }),
];
const jsonPatch = (ops) => stringify(ops, { lineWidth: 0 });
const natsTlsComponent = {
  apiVersion: "kustomize.config.k8s.io/v1alpha1",
  kind: "Component",
  resources: ["certificates.yaml"],
  configMapGenerator: [{ name: "nats-config", behavior: "replace", files: ["nats.conf"] }],
  patches: [
    {
      target: { kind: "StatefulSet", name: "nats" },
      patch: jsonPatch([
        { op: "add", path: "/spec/template/spec/volumes/-", value: { name: "tls", secret: { secretName: "nats-tls" } } },
        {
          op: "add",
          path: "/spec/template/spec/containers/0/volumeMounts/-",
          value: { name: "tls", mountPath: NATS_TLS_DIR, readOnly: true },
        },
      ]),
    },
    {
      // BurnBox's processes (component "service"), the NATS clients; not rspamd beside them
      target: { kind: "Deployment", labelSelector: "app.kubernetes.io/component=service" },
      patch: jsonPatch([
        {
          op: "add",
          path: "/spec/template/spec/volumes/-",
          value: { name: "nats-ca", secret: { secretName: "nats-tls", items: [{ key: "ca.crt", path: "ca.crt" }] } },
        },
        {
          op: "add",
          path: "/spec/template/spec/containers/0/volumeMounts/-",
          value: { name: "nats-ca", mountPath: NATS_CA_DIR, readOnly: true },
        },
        {
          op: "add",
          path: "/spec/template/spec/containers/0/env/-",
          value: { name: "NODE_EXTRA_CA_CERTS", value: `${NATS_CA_DIR}/ca.crt` },
        },
      ]),
    },
  ],
};

// ---- STARTTLS on the SMTP intake (deploy/k8s/components/smtp-starttls): a cert-manager
// Certificate for the MX host name, its Secret mounted into inbox-smtp as a directory (never by
// subPath, which would hide each renewal), and the intake's certificate settings pointing into it
// (BB_SMTP_TLS_CERT, BB_SMTP_TLS_KEY: with both set it offers STARTTLS). The intake reloads the
// files when cert-manager renews them. Settings: the overlay's `burnbox-smtp-tls` (local-config).
const SMTP_TLS_DIR = "/etc/burnbox/smtp-tls";
const SMTP_UNSET = "SET-BY-burnbox-smtp-tls";
const smtpTlsCertificate = {
  apiVersion: "cert-manager.io/v1",
  kind: "Certificate",
  metadata: { name: "inbox-smtp-tls", labels: labels("inbox-smtp") },
  spec: {
    secretName: "inbox-smtp-tls",
    dnsNames: [SMTP_UNSET],
    duration: "2160h",
    renewBefore: "720h",
    usages: ["server auth"],
    privateKey: { algorithm: "ECDSA", size: 256, rotationPolicy: "Always" },
    issuerRef: { name: SMTP_UNSET, kind: SMTP_UNSET, group: "cert-manager.io" },
  },
};
const smtpTlsReplacement = (key, fieldPath) => ({
  source: { kind: "ConfigMap", name: "burnbox-smtp-tls", fieldPath: `data.${key}` },
  targets: [{ select: { kind: "Certificate", name: "inbox-smtp-tls" }, fieldPaths: [fieldPath] }],
});
const smtpTlsComponent = {
  apiVersion: "kustomize.config.k8s.io/v1alpha1",
  kind: "Component",
  resources: ["certificate.yaml"],
  patches: [
    {
      target: { kind: "Deployment", name: "inbox-smtp" },
      patch: jsonPatch([
        { op: "add", path: "/spec/template/spec/volumes/-", value: { name: "smtp-tls", secret: { secretName: "inbox-smtp-tls" } } },
        {
          op: "add",
          path: "/spec/template/spec/containers/0/volumeMounts/-",
          value: { name: "smtp-tls", mountPath: SMTP_TLS_DIR, readOnly: true },
        },
        {
          op: "add",
          path: "/spec/template/spec/containers/0/env/-",
          value: { name: "BB_SMTP_TLS_CERT", value: `${SMTP_TLS_DIR}/tls.crt` },
        },
        { op: "add", path: "/spec/template/spec/containers/0/env/-", value: { name: "BB_SMTP_TLS_KEY", value: `${SMTP_TLS_DIR}/tls.key` } },
      ]),
    },
  ],
  replacements: [
    smtpTlsReplacement("hostname", "spec.dnsNames.0"),
    smtpTlsReplacement("issuerName", "spec.issuerRef.name"),
    smtpTlsReplacement("issuerKind", "spec.issuerRef.kind"),
  ],
};
const smtpTlsSettings = {
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name: "burnbox-smtp-tls", annotations: { "config.kubernetes.io/local-config": "true" } },
  data: {
    // the MX host name (BB_SMTP_HOSTNAME): what senders' STARTTLS checks the certificate against
    hostname: "mx.burnbox.example.com",
    // an issuer that can prove the name: ACME with DNS-01 (the MX host serves no HTTP), or your CA
    issuerName: "letsencrypt",
    issuerKind: "ClusterIssuer",
  },
};

// ---- The sender's address behind a load balancer (deploy/k8s/components/smtp-proxy-protocol):
// the intake believes PROXY protocol v1/v2 headers from the balancer's ranges only
// (BB_SMTP_PROXY_PROTOCOL_TRUSTED_CIDRS) and refuses every other peer (untrusted: refuse), so SPF,
// DMARC, the per-IP limits and the transcripts see the sender, not the balancer. Turn the
// balancer's PROXY protocol on with the annotation of your cloud (docs/operations.md, "SMTP behind
// a load balancer"). Settings: the overlay's `burnbox-smtp-proxy` (local-config).
const SMTP_PROXY_UNSET = "SET-BY-burnbox-smtp-proxy";
const smtpProxyEnv = (name) => ({ name, value: SMTP_PROXY_UNSET });
const smtpProxyReplacement = (key, env) => ({
  source: { kind: "ConfigMap", name: "burnbox-smtp-proxy", fieldPath: `data.${key}` },
  targets: [
    {
      select: { kind: "Deployment", name: "inbox-smtp" },
      fieldPaths: [`spec.template.spec.containers.[name=inbox-smtp].env.[name=${env}].value`],
    },
  ],
});
const smtpProxyComponent = {
  apiVersion: "kustomize.config.k8s.io/v1alpha1",
  kind: "Component",
  patches: [
    {
      target: { kind: "Deployment", name: "inbox-smtp" },
      patch: jsonPatch([
        { op: "add", path: "/spec/template/spec/containers/0/env/-", value: smtpProxyEnv("BB_SMTP_PROXY_PROTOCOL_TRUSTED_CIDRS") },
        { op: "add", path: "/spec/template/spec/containers/0/env/-", value: smtpProxyEnv("BB_SMTP_PROXY_PROTOCOL_UNTRUSTED") },
      ]),
    },
  ],
  replacements: [
    smtpProxyReplacement("trustedCidrs", "BB_SMTP_PROXY_PROTOCOL_TRUSTED_CIDRS"),
    smtpProxyReplacement("untrusted", "BB_SMTP_PROXY_PROTOCOL_UNTRUSTED"),
  ],
};
const smtpProxySettings = {
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name: "burnbox-smtp-proxy", annotations: { "config.kubernetes.io/local-config": "true" } },
  data: {
    // the ranges the balancer's connections come from (its nodes or its subnet), comma-separated
    trustedCidrs: "10.0.0.0/8",
    // a peer outside them: refuse (421, the safe default) or plain (served as its own address)
    untrusted: "refuse",
  },
};

// ---- Traces (deploy/k8s/components/otel-collector): an OpenTelemetry Collector the services send
// their spans to over OTLP/HTTP (docs/operations.md, "Traces"), batching them and passing them on
// to your tracing backend (the exporter's endpoint: a setting of the overlay's copy of its config).
// Including the component turns tracing on: every process gets OTEL_EXPORTER_OTLP_ENDPOINT.
const OTEL_PORT = 4318;
const otelLabels = { "app.kubernetes.io/name": "otel-collector", "app.kubernetes.io/component": "tracing", ...PART_OF };
const otelSelector = { "app.kubernetes.io/name": "otel-collector" };
const otelConfig = {
  receivers: { otlp: { protocols: { http: { endpoint: `0.0.0.0:${OTEL_PORT}` } } } },
  processors: {
    // refuse new spans rather than be killed for memory: the services drop what is refused
    memory_limiter: { check_interval: "1s", limit_percentage: 80, spike_limit_percentage: 20 },
    batch: { timeout: "5s", send_batch_size: 1024 },
  },
  exporters: {
    // your backend's OTLP endpoint (Tempo, Jaeger, Honeycomb, an APM vendor): set it in the overlay
    otlphttp: { endpoint: "https://traces.example.com:4318" },
  },
  extensions: { health_check: { endpoint: "0.0.0.0:13133" } },
  service: {
    extensions: ["health_check"],
    pipelines: { traces: { receivers: ["otlp"], processors: ["memory_limiter", "batch"], exporters: ["otlphttp"] } },
  },
};
const otelCollector = [
  {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: "otel-collector", labels: otelLabels },
    data: { "config.yaml": stringify(otelConfig, { lineWidth: 0 }) },
  },
  {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "otel-collector", labels: otelLabels },
    spec: {
      replicas: 2,
      selector: { matchLabels: otelSelector },
      template: {
        metadata: { labels: otelLabels },
        spec: {
          securityContext: { runAsNonRoot: true, runAsUser: 10001, seccompProfile: { type: "RuntimeDefault" } },
          containers: [
            {
              name: "otel-collector",
              image: "otel/opentelemetry-collector-contrib:0.116.1",
              args: ["--config=/etc/otelcol/config.yaml"],
              ports: [
                { name: "otlp-http", containerPort: OTEL_PORT },
                { name: "health", containerPort: 13133 },
              ],
              readinessProbe: { httpGet: { path: "/", port: 13133 }, periodSeconds: 5 },
              livenessProbe: { httpGet: { path: "/", port: 13133 }, periodSeconds: 10 },
              resources: { requests: { cpu: "100m", memory: "128Mi" }, limits: { cpu: "500m", memory: "512Mi" } },
              env: [{ name: "GOMEMLIMIT", value: "400MiB" }],
              securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ["ALL"] } },
              volumeMounts: [{ name: "config", mountPath: "/etc/otelcol", readOnly: true }],
            },
          ],
          volumes: [{ name: "config", configMap: { name: "otel-collector" } }],
        },
      },
    },
  },
  {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: "otel-collector", labels: otelLabels },
    spec: { selector: otelSelector, ports: [{ name: "otlp-http", port: OTEL_PORT, targetPort: OTEL_PORT }] },
  },
  {
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: { name: "otel-collector", labels: otelLabels },
    spec: {
      podSelector: { matchLabels: otelSelector },
      policyTypes: ["Ingress"],
      // BurnBox's own processes only
      ingress: [{ from: [{ podSelector: { matchLabels: PART_OF } }], ports: [{ port: OTEL_PORT, protocol: "TCP" }] }],
    },
  },
];
const otelComponent = {
  apiVersion: "kustomize.config.k8s.io/v1alpha1",
  kind: "Component",
  resources: ["collector.yaml"],
  patches: [
    {
      target: { kind: "ConfigMap", name: "burnbox-config" },
      patch: jsonPatch([{ op: "add", path: "/data/OTEL_EXPORTER_OTLP_ENDPOINT", value: `http://otel-collector:${OTEL_PORT}` }]),
    },
  ],
};

// ---- Monitoring (Prometheus Operator): a ServiceMonitor for every process's metrics port and the
// alerts docs/operations.md describes. A Kustomize component (deploy/k8s/monitoring), because
// its kinds exist only where the operator's CRDs are installed: the production overlay includes it.
const DEPLOYMENTS = PROCESSES.map((p) => p.name).join("|");
/**
 * The namespace both overlays deploy to. kube-state-metrics reports every namespace's objects, so
 * its alerts name this one (an overlay in another namespace patches the expressions: validate.mjs
 * checks each alert's namespace is its PrometheusRule's). The ServiceMonitor's targets carry it too.
 */
const RELEASE_NAMESPACE = "burnbox";
const NS = `namespace="${RELEASE_NAMESPACE}"`;
const alert = (name, expr, forDuration, severity, summary, description) => ({
  alert: name,
  expr,
  for: forDuration,
  labels: { severity },
  // what to do: docs/operations.md, "When something moves the wrong way"
  annotations: { summary, description },
});
const monitoring = [
  {
    apiVersion: "monitoring.coreos.com/v1",
    kind: "ServiceMonitor",
    metadata: { name: "burnbox", labels: PART_OF },
    spec: {
      // every process's ClusterIP Service (not inbox-smtp-public, which has no metrics port)
      selector: { matchLabels: { "app.kubernetes.io/component": "service", ...PART_OF } },
      endpoints: [{ port: "metrics", path: "/metrics", interval: "30s", scrapeTimeout: "10s" }],
    },
  },
  {
    apiVersion: "monitoring.coreos.com/v1",
    kind: "ServiceMonitor",
    metadata: { name: "burnbox-nats", labels: PART_OF },
    spec: {
      // the JetStream exporter beside each NATS node (jetstream_* and gnatsd_* series)
      selector: { matchLabels: { "app.kubernetes.io/component": "messaging-metrics", ...PART_OF } },
      endpoints: [{ port: "metrics", path: "/metrics", interval: "30s", scrapeTimeout: "10s" }],
    },
  },
  {
    apiVersion: "monitoring.coreos.com/v1",
    kind: "PrometheusRule",
    metadata: { name: "burnbox", labels: PART_OF },
    spec: {
      groups: [
        {
          name: "burnbox.pipeline",
          rules: [
            alert(
              "BurnBoxOutboxBacklog",
              "max by (namespace, service) (burnbox_outbox_backlog) > 500",
              "10m",
              "warning",
              "{{ $labels.service }}: {{ $value }} events wait in the outbox",
              "Events are committed but not leaving for NATS (unreachable, or the stream is full). Nothing is lost: they wait in Postgres. Check the service's /readyz and burnbox_outbox_publish_failures_total.",
            ),
            alert(
              "BurnBoxOutboxPublishFailing",
              "sum by (namespace, service) (rate(burnbox_outbox_publish_failures_total[5m])) > 0",
              "10m",
              "warning",
              "{{ $labels.service }}: outbox publishes fail",
              "The outbox relay cannot publish to NATS; its log says `outbox publish failed`.",
            ),
            alert(
              "BurnBoxConsumerRedeliveries",
              "sum by (namespace, service, durable) (rate(burnbox_consumer_redeliveries_total[10m])) > 0.5",
              "15m",
              "warning",
              "{{ $labels.durable }}: messages are delivered again and again",
              "A dependency of this consumer (its database, another service's RPC) is failing; the log says `event handling failed; will retry`.",
            ),
            alert(
              "BurnBoxDeadLetters",
              'sum by (namespace, service, durable) (increase(burnbox_consumer_messages_total{outcome="dead_lettered"}[15m])) > 0',
              "0m",
              "warning",
              "{{ $labels.durable }}: messages were dead-lettered",
              "A message failed its schema or every delivery; read it from the <NAMESPACE>_DLQ stream and republish once fixed.",
            ),
            alert(
              "BurnBoxWebhookFailureRate",
              'sum by (namespace) (rate(burnbox_webhook_attempts_total{outcome!="success"}[15m])) / sum by (namespace) (rate(burnbox_webhook_attempts_total[15m])) > 0.5 and sum by (namespace) (rate(burnbox_webhook_attempts_total[15m])) > 0.05',
              "15m",
              "warning",
              "More than half of webhook attempts fail",
              "Receivers are down or slow (error: refused, timeout, DNS; http_error: a non-2xx answer). Each webhook's delivery log shows which; attempts retry on the spec's schedule.",
            ),
            alert(
              "BurnBoxSmtpTemporaryFailures",
              'sum by (namespace) (rate(burnbox_smtp_replies_total{code=~"4.."}[10m])) / sum by (namespace) (rate(burnbox_smtp_replies_total[10m])) > 0.05',
              "10m",
              "critical",
              "The SMTP intake answers {{ $value | humanizePercentage }} of commands with 4xx",
              "451: the intake cannot store mail (database or storage down); senders retry, nothing is lost yet. 452/421: a sender over its limits.",
            ),
            alert(
              "BurnBoxSmtpPermanentFailures",
              'sum by (namespace) (rate(burnbox_smtp_replies_total{code=~"5.."}[30m])) / sum by (namespace) (rate(burnbox_smtp_replies_total[30m])) > 0.8',
              "30m",
              "info",
              "The SMTP intake refuses {{ $value | humanizePercentage }} of commands with 5xx",
              "Mostly 550 (no such inbox): senders aim at inboxes that do not exist or expired, normal in bursts; sustained, check that domains' MX and inbox TTLs are what users expect.",
            ),
          ],
        },
        {
          name: "burnbox.http",
          rules: [
            alert(
              "BurnBoxHttp5xxRate",
              `sum by (namespace, service) (rate(http_request_duration_seconds_count{${NS}, status=~"5.."}[5m])) / sum by (namespace, service) (rate(http_request_duration_seconds_count{${NS}}[5m])) > 0.05 and sum by (namespace, service) (rate(http_request_duration_seconds_count{${NS}}[5m])) > 0.1`,
              "10m",
              "critical",
              "{{ $labels.service }}: {{ $value | humanizePercentage }} of HTTP requests answer 5xx",
              "The service fails requests (a dependency down: its /readyz names it; or a bug: its log has the request_id of each). 503 during a rollout that lasts means pods are not ready.",
            ),
            alert(
              "BurnBoxHttpLatency",
              // the long poll (GET /inboxes/{id}/emails/wait) holds its requests by design: left out
              `histogram_quantile(0.95, sum by (namespace, service, le) (rate(http_request_duration_seconds_bucket{${NS}, route!~".*/wait"}[5m]))) > 1`,
              "15m",
              "warning",
              "{{ $labels.service }}: 95% of HTTP requests take up to {{ $value | humanizeDuration }}",
              "Requests are slow: CPU throttling (limits), a slow database (connections at the pool's size, slow statements) or a slow dependency. Compare with the HPA's replicas and the PostgreSQL connections.",
            ),
          ],
        },
        {
          // JetStream, from the exporter beside each NATS node (component messaging-metrics)
          name: "burnbox.nats",
          rules: [
            alert(
              "BurnBoxConsumerLag",
              `max by (namespace, stream_name, consumer_name) (jetstream_consumer_num_pending{${NS}, job="nats-metrics"}) > 1000`,
              "15m",
              "warning",
              "{{ $labels.consumer_name }} on {{ $labels.stream_name }}: {{ $value }} messages not yet delivered",
              "The consumer falls behind its stream: its service has too few replicas, or its handler is failing (BurnBoxConsumerRedeliveries); the events wait in the stream, nothing is lost while it has room.",
            ),
            alert(
              "BurnBoxJetStreamStorageFull",
              `max by (namespace, server_name) (jetstream_server_total_message_bytes{${NS}, job="nats-metrics"}) / max by (namespace, server_name) (jetstream_server_max_storage{${NS}, job="nats-metrics"}) > 0.8`,
              "15m",
              "warning",
              "NATS {{ $labels.server_name }}: JetStream storage {{ $value | humanizePercentage }} full",
              "Streams near max_file_store refuse new messages: outboxes back up (BurnBoxOutboxBacklog). Raise max_file_store and the volume, or find the consumer that does not ack.",
            ),
          ],
        },
        {
          // PostgreSQL's own series, from a postgres_exporter (prometheus-community's chart) beside the database
          name: "burnbox.postgres",
          rules: [
            alert(
              "BurnBoxPostgresConnectionsNearLimit",
              "sum by (instance) (pg_stat_activity_count) / max by (instance) (pg_settings_max_connections) > 0.85",
              "5m",
              "warning",
              "PostgreSQL {{ $labels.instance }}: {{ $value | humanizePercentage }} of max_connections in use",
              "New connections will soon be refused (the pools' statements wait, then fail: 503s, SMTP 451). The overlays' pools sum to a documented number at the HPAs' maximum; something else holds connections, or the pools or HPAs were raised past it (docs/operations.md, Connections).",
            ),
          ],
        },
        {
          name: "burnbox.pods",
          rules: [
            alert(
              "BurnBoxPodsNotReady",
              `kube_deployment_status_replicas_available{${NS}, deployment=~"${DEPLOYMENTS}"} < kube_deployment_spec_replicas{${NS}, deployment=~"${DEPLOYMENTS}"}`,
              "10m",
              "warning",
              "{{ $labels.deployment }}: {{ $value }} pods available, fewer than wanted",
              "Pods of this Deployment are not ready (kube-state-metrics): read their /readyz and events (kubectl describe pod).",
            ),
            alert(
              "BurnBoxScrapeDown",
              // a ServiceMonitor's target has the job of its Service's name
              `up{${NS}, job=~"${DEPLOYMENTS}|nats-metrics"} == 0`,
              "5m",
              "warning",
              "{{ $labels.pod }}: Prometheus cannot scrape its metrics port",
              "The pod is down or its metrics port (9464) is not reachable from the monitoring namespace.",
            ),
            alert(
              "BurnBoxMigrationFailed",
              `kube_job_status_failed{${NS}, job_name=~".+-migrate-.+"} > 0`,
              "0m",
              "critical",
              "{{ $labels.job_name }}: the migration Job failed",
              "Pods of the new version will not find their schema (they do not migrate: BB_DATABASE_MIGRATE_ON_START=false); read the Job's log (kubectl logs job/{{ $labels.job_name }}).",
            ),
          ],
        },
      ],
    },
  },
];

const doc = (objects, header) => `${header ? `# ${header}\n` : ""}${objects.map((o) => stringify(o, { lineWidth: 0 })).join("---\n")}`;

const files = new Map();
for (const p of PROCESSES) {
  const objects = [deployment(p), service(p), hpa(p), pdb(p), networkPolicy(p)];
  // one Job per database: inbox-smtp and inbox-mailbox share the inbox's, which the inbox's Job migrates
  if (migrates(p)) objects.push(migrationJob(p));
  if (p.smtp) objects.splice(2, 0, smtpService(p));
  if (p.mailbox) objects.splice(2, 0, mailboxService(p));
  files.set(`${p.name}.yaml`, doc(objects, `${p.name}: generated by deploy/k8s/generate.mjs, do not edit`));
}
files.set("common.yaml", doc(common, "shared config, default-deny ingress: generated by deploy/k8s/generate.mjs, do not edit"));
for (const [name, edge] of Object.entries(EDGES)) {
  const c = edgeComponent(name, edge);
  const dir = path.join("..", "components", `edge-${name}`);
  files.set(
    path.join(dir, "kustomization.yaml"),
    doc(
      [c.kustomization],
      `The edge through ${edge.summary}: generated by deploy/k8s/generate.mjs, do not edit.\n# Include it with \`components: [../../components/edge-${name}]\` and put its settings (settings.yaml beside this file) in the overlay as edge.yaml.`,
    ),
  );
  files.set(
    path.join(dir, "route.yaml"),
    doc([c.route], `generated by deploy/k8s/generate.mjs, do not edit; every ${UNSET} is set from the overlay's burnbox-edge`),
  );
  files.set(
    path.join(dir, "settings.yaml"),
    doc(
      [c.settings],
      `The settings of edge-${name}: copy this file into your overlay as edge.yaml (a resource of the overlay) and set each value.\n# Kustomize reads it (local-config) and leaves it out of what it builds. Generated by deploy/k8s/generate.mjs.`,
    ),
  );
}
files.set("rspamd.yaml", doc(rspamd, "rspamd, the intake's spam filter: generated by deploy/k8s/generate.mjs, do not edit"));
files.set("nats.yaml", doc(nats, "NATS JetStream cluster: generated by deploy/k8s/generate.mjs, do not edit"));
files.set(
  "kustomization.yaml",
  doc(
    [
      {
        apiVersion: "kustomize.config.k8s.io/v1beta1",
        kind: "Kustomization",
        labels: [{ pairs: { "app.kubernetes.io/version": VERSION }, includeSelectors: false }],
        resources: ["common.yaml", "nats.yaml", "rspamd.yaml", ...PROCESSES.map((p) => `${p.name}.yaml`)],
      },
    ],
    `generated by deploy/k8s/generate.mjs, do not edit\n# Database connections at the HPAs' maximum (a surge pod each, the migration Jobs): ${CONNECTIONS} of PostgreSQL's max_connections ${MAX_CONNECTIONS}`,
  ),
);

// the single-node overlay's NATS: the same file without the cluster (streams have one replica: BB_NATS_STREAM_REPLICAS=1)
files.set(
  path.join("..", "overlays", "single-node", "nats.conf"),
  `# NATS on one node: JetStream without a cluster; generated by deploy/k8s/generate.mjs, do not edit\n${natsConf(false)}`,
);
files.set(
  path.join("..", "components", "nats-tls", "kustomization.yaml"),
  doc(
    [natsTlsComponent],
    "NATS over TLS (needs cert-manager): generated by deploy/k8s/generate.mjs, do not edit; include it with\n# `components: [../../components/nats-tls]` in an overlay with the three-node cluster (its nats.conf is the clustered one)",
  ),
);
files.set(
  path.join("..", "components", "nats-tls", "certificates.yaml"),
  doc(natsTlsObjects, "NATS's CA and certificate (cert-manager): generated by deploy/k8s/generate.mjs, do not edit"),
);
files.set(
  path.join("..", "components", "nats-tls", "nats.conf"),
  `# NATS, three nodes, over TLS; generated by deploy/k8s/generate.mjs, do not edit\n${natsConf(true, true)}`,
);
/**
 * A component with settings the overlay copies in: its kustomization (`what` it does), its other
 * files, and the settings file the overlay puts beside its own as `as`.
 */
function settingsComponent(dir, { what, component, settings, as, more = [] }) {
  files.set(
    path.join("..", "components", dir, "kustomization.yaml"),
    doc(
      [component],
      `${what}: generated by deploy/k8s/generate.mjs, do not edit.\n# Include it with \`components: [../../components/${dir}]\` and put settings.yaml (beside this file) in the overlay as ${as}.`,
    ),
  );
  for (const [file, objects, header] of more) files.set(path.join("..", "components", dir, file), doc(objects, header));
  files.set(
    path.join("..", "components", dir, "settings.yaml"),
    doc(
      [settings],
      `The settings of ${dir}: copy this file into your overlay as ${as} (a resource of the overlay) and set each value.\n# Kustomize reads it (local-config) and leaves it out of what it builds. Generated by deploy/k8s/generate.mjs.`,
    ),
  );
}
settingsComponent("smtp-starttls", {
  what: "STARTTLS on the SMTP intake from a cert-manager Certificate",
  component: smtpTlsComponent,
  settings: smtpTlsSettings,
  as: "smtp-tls.yaml",
  more: [
    [
      "certificate.yaml",
      [smtpTlsCertificate],
      `generated by deploy/k8s/generate.mjs, do not edit; every ${SMTP_UNSET} is set from the overlay's burnbox-smtp-tls`,
    ],
  ],
});
settingsComponent("smtp-proxy-protocol", {
  what: "PROXY protocol on the SMTP intake behind a load balancer",
  component: smtpProxyComponent,
  settings: smtpProxySettings,
  as: "smtp-proxy.yaml",
});
files.set(
  path.join("..", "components", "otel-collector", "kustomization.yaml"),
  doc(
    [otelComponent],
    "Traces: an OpenTelemetry Collector and every process sending to it; generated by deploy/k8s/generate.mjs, do not edit.\n# Include it with `components: [../../components/otel-collector]` and patch the otel-collector ConfigMap's exporter endpoint to your backend.",
  ),
);
files.set(
  path.join("..", "components", "otel-collector", "collector.yaml"),
  doc(otelCollector, "generated by deploy/k8s/generate.mjs, do not edit"),
);
files.set(
  path.join("..", "monitoring", "monitoring.yaml"),
  doc(monitoring, "ServiceMonitor and PrometheusRule (Prometheus Operator): generated by deploy/k8s/generate.mjs, do not edit"),
);
// the Grafana dashboard (deploy/grafana/burnbox.json) as kube-prometheus-stack's Grafana sidecar
// loads it: a ConfigMap labelled grafana_dashboard=1 (its datasource is a variable of the dashboard)
files.set(
  path.join("..", "monitoring", "dashboard.yaml"),
  doc(
    [
      {
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name: "burnbox-dashboard", labels: { ...PART_OF, grafana_dashboard: "1" }, annotations: { grafana_folder: "BurnBox" } },
        data: { "burnbox.json": readFileSync(path.join(ROOT, "deploy", "grafana", "burnbox.json"), "utf8") },
      },
    ],
    "The Grafana dashboard for kube-prometheus-stack's sidecar (from deploy/grafana/burnbox.json): generated by deploy/k8s/generate.mjs, do not edit",
  ),
);
files.set(
  path.join("..", "monitoring", "kustomization.yaml"),
  doc(
    [{ apiVersion: "kustomize.config.k8s.io/v1alpha1", kind: "Component", resources: ["monitoring.yaml", "dashboard.yaml"] }],
    "generated by deploy/k8s/generate.mjs, do not edit; include it with `components: [../../monitoring]` where the Prometheus Operator runs",
  ),
);

const check = process.argv.includes("--check");
let stale = 0;
for (const [name, text] of files) {
  const file = path.join(BASE, name);
  if (check) {
    if (!existsSync(file) || readFileSync(file, "utf8") !== text) {
      process.stderr.write(`${path.relative(path.join(BASE, "..", "..", ".."), file)} differs from what deploy/k8s/generate.mjs writes\n`);
      stale++;
    }
  } else {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
}
if (check && stale > 0) process.exit(1);
if (!check) process.stdout.write(`wrote ${files.size} files in deploy/k8s/base, deploy/k8s/components and deploy/k8s/monitoring\n`);
