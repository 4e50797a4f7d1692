// Builds every kustomization (base, each overlay, and each overlay again with each edge component
// and with the optional components, in temporary copies) and validates each object it makes, offline:
// 1. against the API schemas (kubernetes-models: validators generated from the Kubernetes OpenAPI
//    document; @kubernetes-models/gateway-api and cert-manager for HTTPRoute and Certificate);
// 2. no unknown field names (a misspelled `readinesProbe` is silently ignored by the schemas);
// 3. BurnBox's own deployment rules (probes, limits, hardening, HPA, PDB, SMTP, NATS), and what a
//    cluster needs at first contact: every contract route (packages/contracts, read through tsx)
//    reaches, by the edge's own path matching (an Ingress's or an HTTPRoute's), the process the
//    api-gateway would send it to (REST: api-gateway; only WebSocket upgrades may go straight to
//    realtime-gateway); the edge's settings are all set and only its controller is admitted;
//    /metrics is on a port of its own that no edge path reaches; api-gateway trusts the
//    controller's X-Forwarded-For; the public URL and MX host name are required and set; every
//    database has its migration Job, named for the release, and no pod migrates; the database
//    connections at the HPAs' maximum are the documented number, within max_connections; the NATS
//    spread, GOMEMLIMIT, exporter and TLS; the SMTP intake's STARTTLS certificate;
// 4. the Prometheus Operator's objects (ServiceMonitor, PrometheusRule), which have no Kubernetes
//    schema here: checked field by field, and every alert and dashboard query parsed with the
//    PromQL grammar and checked against the series the targets serve, so an alert that cannot
//    fire fails (service-kit's registry and deploy/k8s/metrics-fixture.json).
// Also checks that the generated files are what deploy/k8s/generate.mjs writes.
//
//   node deploy/k8s/validate.mjs          (needs `kubectl` 1.14+ or `kustomize` on PATH)
//
// Prints `N passed, N failed` (one check per built object and rule group).
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { parser as promql } from "@prometheus-io/lezer-promql";
import { require as tsxRequire } from "tsx/cjs/api";

const ROOT = path.resolve(import.meta.dirname, "../..");
const K8S = import.meta.dirname;
const { parseAllDocuments } = createRequire(path.join(ROOT, "packages", "service-kit", "package.json"))("yaml");
const MODELS = path.join(ROOT, "node_modules", "kubernetes-models");
/** Schemas of the API groups that are not Kubernetes' own (CRDs: Gateway API, cert-manager), by group. */
const CRD_MODELS = {
  "gateway.networking.k8s.io": path.join(ROOT, "node_modules", "@kubernetes-models", "gateway-api"),
  "cert-manager.io": path.join(ROOT, "node_modules", "@kubernetes-models", "cert-manager"),
};
const KUSTOMIZATIONS = ["base", "overlays/single-node", "overlays/production"];
/** The edge components (deploy/k8s/components/edge-*): each overlay is built again with each of them. */
const EDGE_COMPONENTS = readdirSync(path.join(K8S, "components")).filter((d) => d.startsWith("edge-"));
/** Left in a field an edge setting replaces (generate.mjs's UNSET): none may survive a build. */
const UNSET = "SET-BY-burnbox-edge";
/** The contract's REST operations (every one must reach the api-gateway through the Ingress) and its WebSocket streams. */
const { ROUTES, WS_ROUTES } = tsxRequire("../../packages/contracts/src/routes/index.ts", import.meta.url);
/** The WebSocket streams (upgrades: realtime-gateway admits them by ticket), and any contract route answering 101. */
const UPGRADES = [
  ...new Set([...WS_ROUTES.map((r) => r.path), ...ROUTES.filter((r) => Object.keys(r.responses).includes("101")).map((r) => r.path)]),
];
if (UPGRADES.length < 3) throw new Error("the contract's WebSocket streams (WS_ROUTES) were not found");
const API_PREFIX = "/api/v1";

let passed = 0;
let failed = 0;
const problems = [];
function check(ok, what, details = []) {
  if (ok) passed++;
  else {
    failed++;
    problems.push(`${what}${details.length ? `:\n      ${details.join("\n      ")}` : ""}`);
  }
}

/** Runs a command to its end: its exit status and output (error.code ENOENT when it is not installed). */
function run(cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"] });
    const out = [];
    const err = [];
    child.stdout.on("data", (c) => out.push(c));
    child.stderr.on("data", (c) => err.push(c));
    child.on("error", (error) => resolve({ error }));
    child.on("close", (status) =>
      resolve({ status, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") }),
    );
  });
}

/** `kubectl kustomize <dir>` or `kustomize build <dir>`, whichever is installed. */
async function build(dir) {
  const tools = [
    ["kubectl", ["kustomize", dir]],
    ["kustomize", ["build", dir]],
  ];
  for (const [cmd, args] of tools) {
    const r = await run(cmd, args);
    if (r.error?.code === "ENOENT") continue;
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed:\n${r.stderr}`);
    return r.stdout;
  }
  throw new Error("neither kubectl nor kustomize is installed: install one (kubectl 1.14+ includes kustomize)");
}

/** Every property name some Kubernetes schema knows (read from the generated validators). */
function knownFields() {
  const names = new Set();
  // apimachinery is kubernetes-models' own dependency: found beside it in pnpm's store
  const apimachinery = path.dirname(
    createRequire(path.join(realpathSync(MODELS), "package.json")).resolve("@kubernetes-models/apimachinery/package.json"),
  );
  const dirs = [
    path.join(MODELS, "_schemas"),
    path.join(apimachinery, "_schemas"),
    ...Object.values(CRD_MODELS).map((m) => path.join(m, "_schemas")),
  ];
  for (const dir of dirs) {
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".js"))) {
      for (const m of readFileSync(path.join(dir, file), "utf8").matchAll(/parentDataProperty:"([^"]+)"/g)) names.add(m[1]);
    }
  }
  return names;
}
const KNOWN = knownFields();
// maps whose keys are the user's own: not field names
const FREE_FORM = new Set([
  "labels",
  "annotations",
  "data",
  "stringData",
  "binaryData",
  "matchLabels",
  "nodeSelector",
  "selector",
  "pairs",
  "limits",
  "requests",
  "capacity",
  "hard",
]);
function unknownFields(value, at = "") {
  if (Array.isArray(value)) return value.flatMap((v, i) => unknownFields(v, `${at}[${i}]`));
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([k, v]) => {
    const here = `${at}.${k}`;
    const own = KNOWN.has(k) ? [] : [here];
    return FREE_FORM.has(k) && typeof v === "object" && !Array.isArray(v) ? own : [...own, ...unknownFields(v, here)];
  });
}

async function schemaErrors(obj) {
  const [group, version] = obj.apiVersion.includes("/") ? obj.apiVersion.split("/") : [null, obj.apiVersion];
  const file = path.join(CRD_MODELS[group] ?? MODELS, ...(group ? [group, version] : [version]), `${obj.kind}.js`);
  let Model;
  try {
    Model = (await import(file))[obj.kind];
  } catch {
    return [`no schema for ${obj.apiVersion} ${obj.kind}`];
  }
  try {
    new Model(obj).validate();
    return [];
  } catch (err) {
    const list = err.errors ?? err.details;
    return Array.isArray(list) ? list.map((e) => `${e.instancePath || "/"} ${e.message ?? e.keyword}`) : [String(err.message)];
  }
}

/** BurnBox's rules for one built kustomization. */
/**
 * NATS takes no client without credentials: its configuration has an authorization block, every
 * process connects as a user it lists with that user's password from the Secret, and the NATS
 * container gets every password its configuration reads.
 */
/**
 * A BurnBox process's Deployment (component "service"), not a third party's beside them (rspamd,
 * component "spam-filter"; the OpenTelemetry Collector, "tracing"): only those speak NATS and serve
 * the kit's /metrics. Every Deployment is held to the same pod rules (probes, limits, security).
 */
const isProcess = (d) => d.metadata.labels?.["app.kubernetes.io/component"] === "service";

function natsAuthRules(name, objects) {
  const conf = objects.find((o) => o.kind === "ConfigMap" && o.metadata.name.startsWith("nats-config"))?.data?.["nats.conf"] ?? "";
  const users = new Map([...conf.matchAll(/\{\s*user:\s*([\w-]+),\s*password:\s*\$(\w+)\s*\}/g)].map((m) => [m[1], m[2]]));
  check(/^authorization \{/m.test(conf) && users.size > 0, `${name}: NATS requires a user and password of every client`);
  const nats = objects.find((o) => o.kind === "StatefulSet" && o.metadata.name === "nats");
  const natsEnv = new Map((nats?.spec.template.spec.containers[0].env ?? []).map((e) => [e.name, e.valueFrom?.secretKeyRef?.key]));
  const unread = [...users].filter(([, key]) => natsEnv.get(key) !== key).map(([u, key]) => `${u}: the NATS container lacks ${key}`);
  const bad = objects
    .filter((o) => o.kind === "Deployment" && isProcess(o))
    .flatMap((d) => {
      const env = envOf(objects, d);
      const user = env.BB_NATS_USER;
      if (!users.has(user)) return [`${d.metadata.name}: BB_NATS_USER ${user ?? "unset"} is not a NATS user`];
      return env.BB_NATS_PASSWORD?.secret === users.get(user) ? [] : [`${d.metadata.name}: BB_NATS_PASSWORD is not ${users.get(user)}`];
    });
  check(unread.length === 0 && bad.length === 0, `${name}: each process connects to NATS as its own user`, [...unread, ...bad]);
}

/** The kit's pool size when BB_DATABASE_POOL_SIZE is unset (service-kit's DEFAULT_POOL_SIZE). */
const DEFAULT_POOL_SIZE = Number(
  /DEFAULT_POOL_SIZE = (\d+)/.exec(readFileSync(path.join(ROOT, "packages", "service-kit", "src", "data", "db.ts"), "utf8"))?.[1],
);
/** Connections PostgreSQL keeps for superusers (superuser_reserved_connections' default): the services cannot have them. */
const RESERVED_CONNECTIONS = 3;
const DOCUMENTED_CONNECTIONS = /^# Database connections at the HPAs' maximum[^:\n]*: (\d+) of PostgreSQL's max_connections (\d+)/m;

/**
 * The most connections the build's pods and Jobs hold at once, all databases being on one server:
 * for each Deployment with a database, (its HPA's maxReplicas + the rollout's maxSurge) x its pool
 * (BB_DATABASE_POOL_SIZE, else the kit's default), plus one per migration Job. It must equal the
 * number the kustomization documents and stay within that max_connections less the reserved ones.
 */
function connectionRules(name, objects, documented) {
  const lines = [];
  let total = 0;
  for (const d of objects.filter((o) => o.kind === "Deployment")) {
    const env = envOf(objects, d);
    if (!env.BB_DATABASE_URL) continue;
    const hpa = objects.find((o) => o.kind === "HorizontalPodAutoscaler" && o.spec.scaleTargetRef.name === d.metadata.name);
    const max = hpa?.spec.maxReplicas ?? d.spec.replicas ?? 1;
    const surgeSpec = d.spec.strategy?.rollingUpdate?.maxSurge ?? "25%";
    const surge = typeof surgeSpec === "number" ? surgeSpec : Math.ceil((max * Number(String(surgeSpec).replace("%", ""))) / 100);
    const pool = Number(env.BB_DATABASE_POOL_SIZE ?? DEFAULT_POOL_SIZE);
    total += (max + surge) * pool;
    lines.push(`${d.metadata.name}: (${max} + ${surge}) x ${pool}`);
  }
  const jobs = objects.filter((o) => o.kind === "Job" && envOf(objects, o).BB_DATABASE_URL).length;
  total += jobs;
  lines.push(`${jobs} migration Jobs: 1 each`, `= ${total}`);
  const m = documented ? DOCUMENTED_CONNECTIONS.exec(documented) : null;
  check(m !== null && Number(m[1]) === total, `${name}: the kustomization documents its connections at the HPAs' maximum (${total})`, [
    m ? `it says ${m[1]}` : "no line `# Database connections at the HPAs' maximum ...: N of PostgreSQL's max_connections M`",
    ...lines,
  ]);
  const limit = (m ? Number(m[2]) : 100) - RESERVED_CONNECTIONS;
  check(
    total <= limit,
    `${name}: ${total} database connections at the HPAs' maximum, within max_connections ${limit + RESERVED_CONNECTIONS} less ${RESERVED_CONNECTIONS} reserved`,
    lines,
  );
}

function rules(name, objects, settings, documented) {
  natsAuthRules(name, objects);
  connectionRules(name, objects, documented);
  const of = (kind) => objects.filter((o) => o.kind === kind);
  const deployments = of("Deployment");
  const names = new Set(deployments.map((d) => d.metadata.name));
  for (const d of deployments) {
    const id = `${name}: Deployment ${d.metadata.name}`;
    const pod = d.spec.template.spec;
    const bad = [];
    for (const c of pod.containers) {
      for (const probe of ["startupProbe", "readinessProbe", "livenessProbe"]) if (!c[probe]) bad.push(`${c.name}: no ${probe}`);
      for (const r of ["requests", "limits"])
        for (const k of ["cpu", "memory"]) if (!c.resources?.[r]?.[k]) bad.push(`${c.name}: no ${r}.${k}`);
      const sc = c.securityContext ?? {};
      if (sc.runAsNonRoot !== true) bad.push(`${c.name}: runAsNonRoot is not true`);
      if (sc.allowPrivilegeEscalation !== false) bad.push(`${c.name}: allowPrivilegeEscalation is not false`);
      if (sc.readOnlyRootFilesystem !== true) bad.push(`${c.name}: readOnlyRootFilesystem is not true`);
      if (!(sc.capabilities?.drop ?? []).includes("ALL")) bad.push(`${c.name}: capabilities do not drop ALL`);
      if (/:latest$|^[^:]+$/.test(c.image)) bad.push(`${c.name}: image ${c.image} has no fixed tag`);
      const literalDb = (c.env ?? []).filter((e) => /DATABASE_URL$/.test(e.name) && e.value !== undefined);
      if (literalDb.length > 0) bad.push(`${c.name}: a database URL is a literal, not from the Secret`);
    }
    if (!of("HorizontalPodAutoscaler").some((h) => h.spec.scaleTargetRef.name === d.metadata.name)) bad.push("no HorizontalPodAutoscaler");
    const podLabels = d.spec.template.metadata.labels;
    const matches = (sel) => Object.entries(sel ?? {}).every(([k, v]) => podLabels[k] === v);
    if (!of("PodDisruptionBudget").some((p) => matches(p.spec.selector.matchLabels))) bad.push("no PodDisruptionBudget");
    if (
      !of("NetworkPolicy").some(
        (p) => Object.keys(p.spec.podSelector.matchLabels ?? {}).length > 0 && matches(p.spec.podSelector.matchLabels),
      )
    )
      bad.push("no NetworkPolicy of its own");
    check(bad.length === 0, id, bad);
  }
  for (const want of [
    "api-gateway",
    "identity",
    "tenancy",
    "inbox",
    "inbox-smtp",
    "inbox-mailbox",
    "webhook-dispatcher",
    "realtime-gateway",
    "rspamd",
  ])
    check(names.has(want), `${name}: a Deployment for ${want}`);

  edgeRules(name, objects, settings);
  firstContactRules(name, objects);
  const smtp = of("Service").find((s) => s.spec.type === "LoadBalancer" && s.spec.ports.some((p) => p.port === 25));
  check(smtp?.spec.selector["app.kubernetes.io/name"] === "inbox-smtp", `${name}: inbox-smtp behind a LoadBalancer Service on port 25`);
  mailboxRules(name, objects);
  check(
    of("NetworkPolicy").some(
      (p) => Object.keys(p.spec.podSelector).length === 0 || Object.keys(p.spec.podSelector.matchLabels ?? {}).length === 0,
    ),
    `${name}: a default-deny ingress NetworkPolicy`,
  );

  const nats = of("StatefulSet").find((s) => s.metadata.name === "nats");
  const replicas = of("ConfigMap").find((c) => c.metadata.name === "burnbox-config")?.data.BB_NATS_STREAM_REPLICAS;
  const want = name.includes("single-node") ? { nodes: 1, replicas: "1" } : { nodes: 3, replicas: "3" };
  check(
    nats?.spec.replicas === want.nodes && replicas === want.replicas,
    `${name}: NATS has ${want.nodes} node(s) and streams ${want.replicas} replica(s)`,
    [`nats nodes ${nats?.spec.replicas}, BB_NATS_STREAM_REPLICAS ${replicas}`],
  );
  if (nats) natsRules(name, objects, nats);
  smtpTlsRules(name, objects);
  smtpProxyRules(name, objects);
}

/**
 * IMAP and POP3 (extensions section 11): the mailbox behind a LoadBalancer on 143 and 110 that
 * keeps client addresses (the failed-login limit counts per address), its NetworkPolicy open on
 * both container ports; the intake's BB_SPAM_RSPAMD_URL names the rspamd Service, whose port it is
 * and whose NetworkPolicy admits the intake's pods.
 */
function mailboxRules(name, objects) {
  const problems = [];
  const mailbox = objects.find((o) => o.kind === "Deployment" && o.metadata.name === "inbox-mailbox");
  const env = mailbox ? envOf(objects, mailbox) : {};
  const lb = objects.find(
    (o) => o.kind === "Service" && o.spec.type === "LoadBalancer" && o.spec.selector?.["app.kubernetes.io/name"] === "inbox-mailbox",
  );
  for (const [port, target] of [
    [143, env.BB_IMAP_PORT],
    [110, env.BB_POP3_PORT],
  ]) {
    const p = lb?.spec.ports.find((x) => x.port === port);
    const container = mailbox?.spec.template.spec.containers[0].ports.find((x) => x.name === p?.targetPort);
    if (!p || String(container?.containerPort) !== String(target))
      problems.push(`port ${port} does not reach the container's ${target ?? "unset"}`);
    const np = objects.find((o) => o.kind === "NetworkPolicy" && o.metadata.name === "inbox-mailbox");
    if (!np?.spec.ingress.some((r) => r.ports.some((x) => String(x.port) === String(target))))
      problems.push(`its NetworkPolicy does not admit ${target}`);
  }
  if (lb?.spec.externalTrafficPolicy !== "Local")
    problems.push("the LoadBalancer does not keep client addresses (externalTrafficPolicy: Local)");
  const smtp = objects.find((o) => o.kind === "Deployment" && o.metadata.name === "inbox-smtp");
  const url = smtp ? envOf(objects, smtp).BB_SPAM_RSPAMD_URL : undefined;
  const rspamd = objects.find((o) => o.kind === "Service" && o.metadata.name === "rspamd");
  if (url !== `http://rspamd:${rspamd?.spec.ports[0]?.port}`)
    problems.push(`inbox-smtp's BB_SPAM_RSPAMD_URL ${url ?? "unset"} is not the rspamd Service`);
  const rnp = objects.find((o) => o.kind === "NetworkPolicy" && o.metadata.name === "rspamd");
  if (!rnp?.spec.ingress.some((r) => r.from.some((f) => f.podSelector?.matchLabels?.["app.kubernetes.io/name"] === "inbox-smtp")))
    problems.push("rspamd's NetworkPolicy does not admit the intake");
  check(problems.length === 0, `${name}: IMAP and POP3 behind a LoadBalancer on 143 and 110; the intake asks the rspamd Service`, problems);
}

/**
 * STARTTLS: when the intake has certificate settings, both point into a directory mounted from a
 * cert-manager Certificate's Secret (no subPath: a subPath mount never sees a renewal), for the
 * MX host name the intake greets with, its every setting set.
 */
function smtpTlsRules(name, objects) {
  const d = objects.find((o) => o.kind === "Deployment" && o.metadata.name === "inbox-smtp");
  if (!d) return;
  const env = envOf(objects, d);
  const cert = objects.find((o) => o.kind === "Certificate" && o.metadata.name === "inbox-smtp-tls");
  if (!env.BB_SMTP_TLS_CERT && !env.BB_SMTP_TLS_KEY && !cert) return;
  const pod = d.spec.template.spec;
  const problems = [];
  if (!cert) problems.push("no Certificate inbox-smtp-tls");
  if (JSON.stringify(objects).includes("SET-BY-burnbox-smtp-tls")) problems.push("a setting of burnbox-smtp-tls is unset");
  for (const [setting, file] of [
    ["BB_SMTP_TLS_CERT", "tls.crt"],
    ["BB_SMTP_TLS_KEY", "tls.key"],
  ]) {
    const value = env[setting];
    const m = (pod.containers[0].volumeMounts ?? []).find((v) => typeof value === "string" && value === `${v.mountPath}/${file}`);
    const vol = pod.volumes.find((v) => v.name === m?.name);
    if (!m) problems.push(`${setting} ${value ?? "unset"} is not ${file} in a mounted volume`);
    else if (m.subPath) problems.push(`${setting}: mounted by subPath (renewals would not show)`);
    else if (vol?.secret?.secretName !== cert?.spec.secretName)
      problems.push(`${setting}: not from the Certificate's Secret ${cert?.spec.secretName}`);
  }
  if (cert && !(cert.spec.dnsNames ?? []).includes(env.BB_SMTP_HOSTNAME))
    problems.push(`the certificate names ${cert.spec.dnsNames}, not the MX host ${env.BB_SMTP_HOSTNAME} (BB_SMTP_HOSTNAME)`);
  if (cert && !(cert.spec.issuerRef?.name && ["Issuer", "ClusterIssuer"].includes(cert.spec.issuerRef.kind))) problems.push("no issuer");
  check(
    problems.length === 0,
    `${name}: the SMTP intake's STARTTLS certificate comes from cert-manager, for its MX host, renewable in place`,
    problems,
  );
}

/**
 * PROXY protocol: when the intake reads PROXY headers, from real CIDR ranges only (never every
 * address), with the untrusted peers' treatment set, every setting of burnbox-smtp-proxy set.
 */
function smtpProxyRules(name, objects) {
  const d = objects.find((o) => o.kind === "Deployment" && o.metadata.name === "inbox-smtp");
  if (!d) return;
  const env = envOf(objects, d);
  const cidrs = env.BB_SMTP_PROXY_PROTOCOL_TRUSTED_CIDRS;
  if (cidrs === undefined && env.BB_SMTP_PROXY_PROTOCOL_UNTRUSTED === undefined) return;
  const problems = [];
  if (JSON.stringify(objects).includes("SET-BY-burnbox-smtp-proxy")) problems.push("a setting of burnbox-smtp-proxy is unset");
  const ranges = String(cidrs ?? "")
    .split(",")
    .map((c) => c.trim())
    .filter(Boolean);
  if (ranges.length === 0) problems.push("BB_SMTP_PROXY_PROTOCOL_TRUSTED_CIDRS is empty: no header would be read");
  for (const r of ranges) {
    const m = /^(\d{1,3}(?:\.\d{1,3}){3}|[0-9a-f:]+)(?:\/(\d{1,3}))?$/i.exec(r);
    if (!m) problems.push(`${r} is not an address or CIDR range`);
    else if (m[2] === "0") problems.push(`${r} trusts every address: anyone could claim any sender's address`);
  }
  if (!["refuse", "plain"].includes(env.BB_SMTP_PROXY_PROTOCOL_UNTRUSTED ?? "refuse"))
    problems.push(`BB_SMTP_PROXY_PROTOCOL_UNTRUSTED ${env.BB_SMTP_PROXY_PROTOCOL_UNTRUSTED} is neither refuse nor plain`);
  check(problems.length === 0, `${name}: the SMTP intake believes PROXY headers from the load balancer's ranges only`, problems);
}

/**
 * Traces: with the collector deployed, every BurnBox process sends to its Service's OTLP/HTTP port,
 * which its config receives on and its traces pipeline exports from, and its NetworkPolicy admits
 * BurnBox's pods.
 */
function otelRules(name, objects) {
  const collector = objects.find((o) => o.kind === "Deployment" && o.metadata.name === "otel-collector");
  if (!collector) return;
  const problems = [];
  const svc = objects.find((o) => o.kind === "Service" && o.metadata.name === "otel-collector");
  const port = svc?.spec.ports.find((p) => p.name === "otlp-http")?.port;
  if (!port) problems.push("no otel-collector Service with an otlp-http port");
  for (const d of objects.filter((o) => o.kind === "Deployment" && o.metadata.labels?.["app.kubernetes.io/component"] === "service")) {
    const endpoint = envOf(objects, d).OTEL_EXPORTER_OTLP_ENDPOINT;
    if (endpoint !== `http://otel-collector:${port}`)
      problems.push(`${d.metadata.name}: OTEL_EXPORTER_OTLP_ENDPOINT is ${endpoint ?? "unset"}`);
  }
  const cm = objects.find((o) => o.kind === "ConfigMap" && o.metadata.name === "otel-collector");
  let config = null;
  try {
    config = parseAllDocuments(cm?.data?.["config.yaml"] ?? "")[0]?.toJS();
  } catch {
    problems.push("the collector's config.yaml does not parse");
  }
  const http = config?.receivers?.otlp?.protocols?.http?.endpoint;
  if (http !== `0.0.0.0:${port}`) problems.push(`the collector receives OTLP/HTTP on ${http ?? "nothing"}, not ${port}`);
  const traces = config?.service?.pipelines?.traces;
  if (!traces?.receivers?.includes("otlp")) problems.push("the traces pipeline does not take the otlp receiver");
  for (const e of traces?.exporters ?? [])
    if (!config?.exporters?.[e]) problems.push(`the traces pipeline exports to ${e}, which is not configured`);
  if (!(traces?.exporters ?? []).length) problems.push("the traces pipeline exports nowhere");
  const np = objects.find((o) => o.kind === "NetworkPolicy" && o.metadata.name === "otel-collector");
  const admits = np?.spec.ingress?.some(
    (r) =>
      r.from?.some((f) => f.podSelector?.matchLabels?.["app.kubernetes.io/part-of"] === "burnbox") && r.ports?.some((p) => p.port === port),
  );
  if (!admits) problems.push("the collector's NetworkPolicy does not admit BurnBox's pods on its OTLP port");
  check(problems.length === 0, `${name}: every process sends its traces to the collector, which passes them on`, problems);
}

/** Bytes of a Kubernetes quantity (`1Gi`, `512Mi`) or a Go GOMEMLIMIT (`921MiB`). */
const bytes = (q) => {
  const m = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|KiB|MiB|GiB|TiB|k|M|G|B)?$/.exec(String(q ?? ""));
  if (!m) return NaN;
  const unit = (m[2] ?? "B").replace(/B$/, "") || "B";
  return Number(m[1]) * ({ B: 1, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4, k: 1e3, M: 1e6, G: 1e9 }[unit] ?? NaN);
};

/**
 * The JetStream nodes: one per host or unscheduled (DoNotSchedule), spread by zone where there are
 * zones; each Go process with a GOMEMLIMIT under its memory limit; the JetStream exporter beside
 * each node, its port open to the monitoring namespace only; and, with the TLS component, TLS
 * for clients and routes from the Certificate cert-manager keeps, trusted by every process.
 */
function natsRules(name, objects, nats) {
  const pod = nats.spec.template.spec;
  const spread = pod.topologySpreadConstraints ?? [];
  const selects = (c) => Object.entries(c.labelSelector?.matchLabels ?? {}).every(([k, v]) => nats.spec.template.metadata.labels[k] === v);
  check(
    spread.some(
      (c) => c.topologyKey === "kubernetes.io/hostname" && c.whenUnsatisfiable === "DoNotSchedule" && c.maxSkew === 1 && selects(c),
    ) && spread.some((c) => c.topologyKey === "topology.kubernetes.io/zone" && selects(c)),
    `${name}: the NATS nodes are spread one per host (DoNotSchedule) and by zone`,
    spread.map((c) => `${c.topologyKey}: ${c.whenUnsatisfiable}`),
  );
  const bad = [];
  for (const c of pod.containers) {
    const limit = (c.env ?? []).find((e) => e.name === "GOMEMLIMIT")?.value;
    if (!(bytes(limit) > 0 && bytes(limit) < bytes(c.resources?.limits?.memory)))
      bad.push(`${c.name}: GOMEMLIMIT ${limit ?? "unset"} is not under its memory limit ${c.resources?.limits?.memory}`);
  }
  check(bad.length === 0, `${name}: every NATS container has a GOMEMLIMIT under its memory limit`, bad);
  const exporter = pod.containers.find((c) => /prometheus-nats-exporter:/.test(c.image));
  const port = exporter?.ports?.find((p) => p.name === "metrics")?.containerPort;
  const np = objects.find((o) => o.kind === "NetworkPolicy" && o.metadata.name === "nats");
  const rules = (np?.spec.ingress ?? []).filter((r) => (r.ports ?? []).some((p) => p.port === port));
  const svc = objects.find(
    (o) =>
      o.kind === "Service" &&
      o.spec.ports.some((p) => p.targetPort === "metrics") &&
      o.spec.selector?.["app.kubernetes.io/name"] === "nats",
  );
  check(
    exporter !== undefined &&
      exporter.args?.some((a) => /^-jsz=(all|consumers?)$/.test(a)) &&
      exporter.args?.includes("http://localhost:8222") &&
      rules.length > 0 &&
      rules.every((r) => (r.from ?? []).length > 0 && r.from.every((f) => f.namespaceSelector && !f.podSelector && !f.ipBlock)) &&
      svc !== undefined,
    `${name}: a JetStream exporter (consumers, storage) beside each NATS node, on a port open to the monitoring namespace only, behind a Service`,
  );

  const conf = objects.find((o) => o.kind === "ConfigMap" && o.metadata.name.startsWith("nats-config"))?.data?.["nats.conf"] ?? "";
  const cert = objects.find((o) => o.kind === "Certificate" && (o.spec.dnsNames ?? []).includes("nats"));
  if (!/^tls \{/m.test(conf) && !cert) return;
  const mount = pod.containers[0].volumeMounts?.find(
    (m) => pod.volumes.find((v) => v.name === m.name)?.secret?.secretName === cert?.spec.secretName,
  );
  const dir = mount?.mountPath ?? "(none)";
  const tlsBlocks = [...conf.matchAll(/tls \{([^}]*)\}/g)].map((m) => m[1]);
  const problems = [];
  if (!cert) problems.push("no Certificate for the name nats");
  if (!mount) problems.push(`the Secret ${cert?.spec.secretName} is not mounted into NATS`);
  if (!/^tls \{/m.test(conf)) problems.push("clients are not asked for TLS (no top-level tls block)");
  if (!/cluster \{[\s\S]*tls \{[\s\S]*verify: true/.test(conf)) problems.push("the routes are not mutual TLS");
  for (const b of tlsBlocks)
    for (const f of ["cert_file", "key_file", "ca_file"])
      if (!new RegExp(`${f}: ${dir}/`).test(b)) problems.push(`a tls block's ${f} is not in ${dir}`);
  for (const n of ["nats", "*.nats-headless"])
    if (!(cert?.spec.dnsNames ?? []).includes(n)) problems.push(`the certificate does not name ${n}`);
  if (!["server auth", "client auth"].every((u) => (cert?.spec.usages ?? []).includes(u)))
    problems.push("the certificate is not for server and client auth (routes)");
  for (const d of objects.filter((o) => o.kind === "Deployment" && isProcess(o))) {
    const c = d.spec.template.spec.containers[0];
    const ca = (c.env ?? []).find((e) => e.name === "NODE_EXTRA_CA_CERTS")?.value ?? "";
    const m = (c.volumeMounts ?? []).find((v) => ca.startsWith(`${v.mountPath}/`));
    const vol = d.spec.template.spec.volumes.find((v) => v.name === m?.name);
    if (vol?.secret?.secretName !== cert?.spec.secretName)
      problems.push(`${d.metadata.name}: does not trust NATS's CA (NODE_EXTRA_CA_CERTS from ${cert?.spec.secretName})`);
  }
  check(
    problems.length === 0,
    `${name}: NATS over TLS (clients and mutual-TLS routes) from cert-manager's certificate, trusted by every process`,
    problems,
  );
}

/**
 * The Ingress backend a request path reaches, as networking.k8s.io/v1 defines the matching: Exact
 * is the whole path; Prefix matches whole path elements ("/api/v1/ws" matches "/api/v1/ws/x",
 * never "/api/v1/wsx"); the longest matching path wins, Exact before Prefix at equal length.
 */
export function ingressBackend(paths, requestPath) {
  const elements = (p) => p.split("/").filter(Boolean);
  const matches = (p) => {
    if (p.pathType === "Exact") return requestPath === p.path;
    if (p.pathType !== "Prefix") return false;
    const want = elements(p.path);
    const have = elements(requestPath);
    return want.length <= have.length && want.every((e, i) => e === have[i]);
  };
  const candidates = paths.filter(matches);
  candidates.sort((a, b) => b.path.length - a.path.length || (a.pathType === "Exact" ? -1 : 0) - (b.pathType === "Exact" ? -1 : 0));
  return candidates[0] ?? null;
}

const sample = (p) => `${API_PREFIX}${p.replace(/\{[^}]+\}/g, "00000000-0000-4000-8000-000000000000")}`;

/**
 * The edge's paths, whichever kind routes them: an Ingress's (Exact, Prefix) or a Gateway API
 * HTTPRoute's (Exact, PathPrefix: the same matching, whole path elements, the longest first), as
 * `{ path, pathType, backend: { service: { name, port } } }`.
 */
function edgePaths(objects) {
  const fromIngress = objects.filter((o) => o.kind === "Ingress").flatMap((i) => i.spec.rules.flatMap((r) => r.http?.paths ?? []));
  const fromRoutes = objects
    .filter((o) => o.kind === "HTTPRoute")
    .flatMap((r) =>
      (r.spec.rules ?? []).flatMap((rule) =>
        (rule.matches ?? [{ path: { type: "PathPrefix", value: "/" } }]).map((m) => ({
          path: m.path?.value ?? "/",
          pathType: { PathPrefix: "Prefix", Exact: "Exact" }[m.path?.type ?? "PathPrefix"] ?? m.path?.type,
          // one backend per rule (no traffic split): weights would send a share elsewhere
          backend:
            rule.backendRefs?.length === 1
              ? { service: { name: rule.backendRefs[0].name, port: { number: rule.backendRefs[0].port } } }
              : {},
        })),
      ),
    );
  return [...fromIngress, ...fromRoutes];
}

/**
 * The edge: none in the base (an overlay picks a controller's component); in a build with one,
 * exactly one Ingress or HTTPRoute, its settings all set (no SET-BY-burnbox-edge left), its class,
 * host and Gateway those of the overlay's burnbox-edge, and the NetworkPolicies of the processes
 * it reaches admitting the configured controller's pods only (by namespace and label together).
 */
function edgeRules(name, objects, settings) {
  const routes = objects.filter((o) => o.kind === "Ingress" || o.kind === "HTTPRoute");
  const policies = new Map(objects.filter((o) => o.kind === "NetworkPolicy").map((np) => [np.metadata.name, np]));
  const httpPeers = (proc) => {
    const port = objects
      .find((o) => o.kind === "Deployment" && o.metadata.name === proc)
      ?.spec.template.spec.containers[0].ports.find((p) => p.name === "http")?.containerPort;
    return (policies.get(proc)?.spec.ingress ?? [])
      .filter((r) => (r.ports ?? []).some((p) => p.port === port || p.port === "http"))
      .map((r) => r.from);
  };
  if (!settings) {
    check(routes.length === 0, `${name}: no edge without an edge component (the overlays pick one)`);
    check(
      httpPeers("api-gateway").length === 0,
      `${name}: api-gateway's HTTP port admits no one until an edge component admits its controller`,
    );
    return;
  }
  check(!JSON.stringify(objects).includes(UNSET), `${name}: every edge setting is set (no ${UNSET} left; burnbox-edge has every key)`);
  check(
    !objects.some((o) => o.metadata?.annotations?.["config.kubernetes.io/local-config"] === "true"),
    `${name}: the edge's settings (local-config) are not in the output`,
  );
  check(
    routes.length === 1,
    `${name}: one Ingress or HTTPRoute`,
    routes.map((r) => `${r.kind} ${r.metadata.name}`),
  );
  const route = routes[0];
  const wrong = [];
  if (route?.kind === "Ingress") {
    if (route.spec.ingressClassName !== settings.ingressClassName)
      wrong.push(`ingressClassName ${route.spec.ingressClassName}, not ${settings.ingressClassName}`);
    if (!route.spec.rules.every((r) => r.host === settings.host))
      wrong.push(`hosts ${route.spec.rules.map((r) => r.host)}, not ${settings.host}`);
    if (!(route.spec.tls ?? []).some((t) => t.secretName === settings.tlsSecretName && t.hosts?.includes(settings.host)))
      wrong.push(`no TLS for ${settings.host} from Secret ${settings.tlsSecretName}`);
  } else if (route?.kind === "HTTPRoute") {
    if (JSON.stringify(route.spec.hostnames) !== JSON.stringify([settings.host]))
      wrong.push(`hostnames ${route.spec.hostnames}, not ${settings.host}`);
    const parent = route.spec.parentRefs?.[0];
    if (route.spec.parentRefs?.length !== 1 || parent.name !== settings.gatewayName || parent.namespace !== settings.gatewayNamespace)
      wrong.push(`parentRefs ${JSON.stringify(route.spec.parentRefs)}, not Gateway ${settings.gatewayNamespace}/${settings.gatewayName}`);
    const ws = route.spec.rules.find((r) => r.backendRefs?.[0]?.name === "realtime-gateway");
    if (ws?.timeouts?.request !== "0s") wrong.push("the WebSocket rule has a request timeout (upgraded streams would be cut)");
  }
  check(wrong.length === 0, `${name}: the ${route?.kind ?? "edge"} is the configured edge's (burnbox-edge)`, wrong);

  const [labelKey, labelValue] = String(settings.controllerPodLabel ?? "").split("=");
  const isController = (peer) =>
    !peer.ipBlock &&
    JSON.stringify(peer.namespaceSelector) ===
      JSON.stringify({
        matchExpressions: [{ key: "kubernetes.io/metadata.name", operator: "In", values: [settings.controllerNamespace] }],
      }) &&
    JSON.stringify(peer.podSelector) === JSON.stringify({ matchExpressions: [{ key: labelKey, operator: "In", values: [labelValue] }] });
  const isGateway = (peer) =>
    !peer.ipBlock && !peer.namespaceSelector && peer.podSelector?.matchLabels?.["app.kubernetes.io/name"] === "api-gateway";
  const reached = [...new Set(edgePaths(objects).map((p) => p.backend.service?.name))];
  const open = [];
  for (const proc of reached) {
    const peers = httpPeers(proc);
    if (!peers.flat().some(isController))
      open.push(`${proc}: the controller (${settings.controllerNamespace}, ${settings.controllerPodLabel}) is not admitted`);
    if (peers.some((from) => !from || from.length === 0)) open.push(`${proc}: a rule admits every source`);
    for (const peer of peers.flat())
      if (!isController(peer) && !(proc !== "api-gateway" && isGateway(peer))) open.push(`${proc}: admits ${JSON.stringify(peer)}`);
  }
  check(
    reached.length > 0 && open.length === 0,
    `${name}: the edge's targets admit the configured controller's pods only (${reached.join(", ")})`,
    open,
  );
  ingressRules(name, objects);
}

/** The contract routes an edge's paths send elsewhere than they must go (empty when every one is right). */
function misroutes(paths) {
  const misrouted = [];
  for (const route of ROUTES) {
    // (parameter names aside: the contract may call the inbox stream's `{id}`)
    const shape = (p) => p.replace(/\{[^}]+\}/g, "{}");
    if (UPGRADES.some((u) => shape(u) === shape(route.path))) continue;
    const request = sample(route.path);
    const hit = ingressBackend(paths, request);
    const to = hit?.backend.service?.name ?? "nothing";
    // REST operations need the gateway's authentication, rate limits and signed context, whoever owns them
    if (to !== "api-gateway")
      misrouted.push(`${route.method.toUpperCase()} ${request} (${route.service}, auth ${route.auth}) reaches ${to}, not api-gateway`);
  }
  for (const upgrade of UPGRADES) {
    const request = sample(upgrade);
    const to = ingressBackend(paths, request)?.backend.service?.name ?? "nothing";
    // the api-gateway proxies upgrades to realtime-gateway; realtime-gateway admits them itself
    if (to !== "api-gateway" && to !== "realtime-gateway") misrouted.push(`WebSocket ${request} reaches ${to}`);
  }
  return misrouted;
}

/** Every contract route and WebSocket stream, through the edge as its controller routes it. */
function ingressRules(name, objects) {
  const paths = edgePaths(objects);
  check(
    paths.every((p) => p.pathType === "Exact" || p.pathType === "Prefix"),
    `${name}: edge paths are Exact or Prefix (ImplementationSpecific and RegularExpression matching differ between controllers)`,
    paths.filter((p) => p.pathType !== "Exact" && p.pathType !== "Prefix").map((p) => `${p.path}: ${p.pathType}`),
  );
  const services = new Map(objects.filter((o) => o.kind === "Service").map((s) => [s.metadata.name, s]));
  const misrouted = misroutes(paths);
  check(
    misrouted.length === 0,
    `${name}: every contract route reaches api-gateway through the edge (upgrades may go to realtime-gateway)`,
    misrouted,
  );
  // the check itself: an HTTPRoute that sends all of /api/v1/ws to realtime-gateway takes POST /api/v1/ws/ticket from api-gateway
  const wide = edgePaths([
    {
      kind: "HTTPRoute",
      spec: {
        rules: [
          { matches: [{ path: { type: "PathPrefix", value: "/api/v1/ws" } }], backendRefs: [{ name: "realtime-gateway", port: 8105 }] },
          { matches: [{ path: { type: "PathPrefix", value: "/" } }], backendRefs: [{ name: "api-gateway", port: 8080 }] },
        ],
      },
    },
  ]);
  check(
    misroutes(wide).some((m) => m.includes("/api/v1/ws/ticket")),
    `${name}: the route check refuses an edge that sends a REST operation past api-gateway`,
  );
  const broken = paths
    .map((p) => p.backend.service)
    .filter((b) => !services.get(b?.name)?.spec.ports.some((sp) => (b.port.name ? sp.name === b.port.name : sp.port === b.port.number)));
  check(
    broken.length === 0,
    `${name}: every edge backend is a Service port that exists`,
    broken.map((b) => JSON.stringify(b)),
  );
  // /metrics: no Ingress path reaches a metrics port, and the HTTP ports it reaches do not serve it
  const toMetrics = paths.filter((p) => {
    const b = p.backend.service;
    const sp = services.get(b?.name)?.spec.ports.find((x) => (b.port.name ? x.name === b.port.name : x.port === b.port.number));
    return sp?.name === "metrics" || sp?.targetPort === "metrics";
  });
  const metricsHit = ingressBackend(paths, "/metrics")?.backend.service?.name;
  const metricsServedThere = metricsHit ? metricsPortOf(objects, metricsHit) === null : false;
  check(
    toMetrics.length === 0 && !metricsServedThere,
    `${name}: the edge routes no path to /metrics (no metrics port behind it; ${metricsHit ?? "nothing"} serves /metrics on BB_METRICS_PORT only)`,
    [
      ...toMetrics.map((p) => `${p.path} -> ${p.backend.service.name}:${p.backend.service.port.name ?? p.backend.service.port.number}`),
      ...(metricsServedThere ? [`${metricsHit} serves /metrics on the port the Ingress reaches`] : []),
    ],
  );
}

/** The environment a Deployment's (or Job's) first container gets: its ConfigMaps, then its own env (values only). */
function envOf(objects, workload) {
  const c = workload.spec.template.spec.containers[0];
  const env = {};
  for (const from of c.envFrom ?? []) {
    const cm = objects.find((o) => o.kind === "ConfigMap" && o.metadata.name === from.configMapRef?.name);
    Object.assign(env, cm?.data ?? {});
  }
  for (const e of c.env ?? [])
    env[e.name] = e.value ?? (e.valueFrom?.secretKeyRef ? { secret: e.valueFrom.secretKeyRef.key } : e.valueFrom);
  return env;
}

/** The metrics port of a process (BB_METRICS_PORT, distinct from its HTTP port), or null when /metrics is on its HTTP port. */
function metricsPortOf(objects, deploymentName) {
  const d = objects.find((o) => o.kind === "Deployment" && o.metadata.name === deploymentName);
  if (!d) return null;
  const env = envOf(objects, d);
  return /^\d+$/.test(env.BB_METRICS_PORT ?? "") && env.BB_METRICS_PORT !== env.BB_HTTP_PORT && env.BB_METRICS_ENABLED !== "false"
    ? Number(env.BB_METRICS_PORT)
    : null;
}

const isCidr = (v) => {
  const [ip, bits, extra] = v.split("/");
  if (extra !== undefined || ip === undefined) return false;
  const v4 = /^(\d{1,3})(\.\d{1,3}){3}$/.test(ip) && ip.split(".").every((o) => Number(o) <= 255);
  const v6 = ip.includes(":") && /^[0-9a-fA-F:]+$/.test(ip);
  return (v4 || v6) && (bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (v4 ? 32 : 128)));
};
const LOCAL_HOST = /^(localhost|.*\.(localhost|local|internal)|127\..*|::1|\[::1\]|0\.0\.0\.0)$/i;

/** What breaks at first contact with a cluster: metrics port, client IPs, public names, migrations. */
function firstContactRules(name, objects) {
  const of = (kind) => objects.filter((o) => o.kind === kind);
  const deployments = of("Deployment");
  const byName = new Map(deployments.map((d) => [d.metadata.name, d]));

  // /metrics on a port of its own, published by the Service to Prometheus only
  const bad = [];
  for (const d of deployments.filter(isProcess)) {
    const port = metricsPortOf(objects, d.metadata.name);
    if (port === null) {
      bad.push(`${d.metadata.name}: BB_METRICS_PORT unset or the HTTP port`);
      continue;
    }
    const c = d.spec.template.spec.containers[0];
    if (!c.ports.some((p) => p.name === "metrics" && p.containerPort === port))
      bad.push(`${d.metadata.name}: no container port "metrics" ${port}`);
    const svc = of("Service").find((s) => s.spec.type === "ClusterIP" && s.metadata.name === d.metadata.name);
    if (!svc?.spec.ports.some((p) => p.name === "metrics" && p.targetPort === "metrics"))
      bad.push(`${d.metadata.name}: its Service has no "metrics" port`);
    const podLabels = d.spec.template.metadata.labels;
    const own = of("NetworkPolicy").filter(
      (np) =>
        Object.entries(np.spec.podSelector.matchLabels ?? {}).length > 0 &&
        Object.entries(np.spec.podSelector.matchLabels).every(([k, v]) => podLabels[k] === v),
    );
    const admitting = own
      .flatMap((np) => np.spec.ingress ?? [])
      .filter((r) => (r.ports ?? []).some((p) => p.port === port || p.port === "metrics"));
    if (admitting.length === 0 || admitting.some((r) => !(r.from ?? []).every((f) => f.namespaceSelector && !f.podSelector && !f.ipBlock)))
      bad.push(`${d.metadata.name}: the metrics port is open to more than the monitoring namespace`);
  }
  check(bad.length === 0, `${name}: every process serves /metrics on its own metrics port, open to Prometheus only`, bad);

  // api-gateway believes the ingress controller's X-Forwarded-For, and nobody else's
  const gateway = byName.get("api-gateway");
  const proxies = String((gateway && envOf(objects, gateway).BB_RATE_LIMIT_TRUSTED_PROXIES) ?? "")
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean);
  check(
    proxies.length > 0 && proxies.every(isCidr) && !proxies.some((p) => /^(0\.0\.0\.0|::)\/0$/.test(p)),
    `${name}: api-gateway trusts the ingress controller's X-Forwarded-For (BB_RATE_LIMIT_TRUSTED_PROXIES: IPs or CIDRs, not everyone)`,
    [`BB_RATE_LIMIT_TRUSTED_PROXIES=${proxies.join(",") || "(unset)"}`],
  );

  // the public URL and the MX host name: required (production mode), and set by every overlay
  const ingressHosts = [
    ...of("Ingress").flatMap((i) => i.spec.rules.map((r) => r.host)),
    ...of("HTTPRoute").flatMap((r) => r.spec.hostnames ?? []),
  ];
  const names = [];
  for (const [proc, setting] of [
    ["identity", "BB_BASE_URL"],
    ["tenancy", "BB_SMTP_HOSTNAME"],
    ["inbox", "BB_SMTP_HOSTNAME"],
    ["inbox-smtp", "BB_SMTP_HOSTNAME"],
  ]) {
    const d = byName.get(proc);
    const env = d ? envOf(objects, d) : {};
    if (env.BB_DEPLOYMENT_MODE !== "production")
      names.push(`${proc}: BB_DEPLOYMENT_MODE is not production (${setting} would not be required)`);
    if (name === "base") continue; // each overlay sets the names; the base leaves them to it
    const value = env[setting];
    if (typeof value !== "string" || value === "") {
      names.push(`${proc}: ${setting} unset`);
      continue;
    }
    if (setting === "BB_BASE_URL") {
      let url = null;
      try {
        url = new URL(value);
      } catch {
        names.push(`${proc}: BB_BASE_URL ${value} is not a URL`);
        continue;
      }
      if (url.protocol !== "https:") names.push(`${proc}: BB_BASE_URL ${value} is not https`);
      if (!ingressHosts.includes(url.hostname))
        names.push(`${proc}: BB_BASE_URL's host ${url.hostname} is not the edge's (${ingressHosts.join(", ")})`);
      if (LOCAL_HOST.test(url.hostname)) names.push(`${proc}: BB_BASE_URL ${value} is a local name`);
    } else if (LOCAL_HOST.test(value) || !value.includes(".")) names.push(`${proc}: BB_SMTP_HOSTNAME ${value} is a local name`);
  }
  check(
    names.length === 0,
    `${name}: the public URL and MX host name are required (production mode)${name === "base" ? "" : " and set"}`,
    names,
  );

  // one migration Job per database, from the image of the pods that use it, running its migrate entry
  const jobs = of("Job");
  const missing = [];
  const keys = new Map();
  for (const d of deployments) {
    const db = envOf(objects, d).BB_DATABASE_URL;
    if (db?.secret && !keys.has(db.secret)) keys.set(db.secret, d);
  }
  for (const [key, d] of keys) {
    const job = jobs.find((j) => envOf(objects, j).BB_DATABASE_URL?.secret === key);
    if (!job) {
      missing.push(`${key}: no Job migrates it`);
      continue;
    }
    const c = job.spec.template.spec.containers[0];
    const users = deployments
      .filter((x) => envOf(objects, x).BB_DATABASE_URL?.secret === key)
      .map((x) => x.spec.template.spec.containers[0].image);
    if (!users.includes(c.image))
      missing.push(`${job.metadata.name}: image ${c.image} is none of its database's pods' (${users.join(", ")})`);
    const entry = /^services\/([a-z-]+)\/dist\/migrate\.js$/.exec(
      (c.command ?? []).concat(c.args ?? []).find((a) => a.endsWith(".js")) ?? "",
    );
    if (!entry) missing.push(`${job.metadata.name}: does not run services/<svc>/dist/migrate.js`);
    // build.mjs writes dist/migrate.js (main.js --migrate-only) for every built service with migrations
    else if (!existsSync(path.join(ROOT, "services", entry[1], "prisma", "migrations")) || !BUILT_ENTRIES.get(entry[1])?.includes("main"))
      missing.push(`${job.metadata.name}: services/${entry[1]} has no migrations or no built main (deploy/local/build.mjs)`);
    if (!["Never", "OnFailure"].includes(job.spec.template.spec.restartPolicy)) missing.push(`${job.metadata.name}: restartPolicy`);
    const sc = c.securityContext ?? {};
    if (sc.runAsNonRoot !== true || sc.readOnlyRootFilesystem !== true || sc.allowPrivilegeEscalation !== false)
      missing.push(`${job.metadata.name}: not hardened like the pods`);
    if (!c.resources?.limits?.memory) missing.push(`${job.metadata.name}: no memory limit`);
    // once per release: the name carries the image's tag, Argo CD runs it before the Deployments
    const tag = /:([^:/@]+)$/.exec(c.image)?.[1] ?? "";
    if (!job.metadata.name.endsWith(`-migrate-${tag.replaceAll(".", "-")}`))
      missing.push(
        `${job.metadata.name}: the name does not carry its image's tag ${tag} (-migrate-${tag.replaceAll(".", "-")}): a release would reuse the last one's Job`,
      );
    if (!(Number(job.metadata.annotations?.["argocd.argoproj.io/sync-wave"]) < 0))
      missing.push(`${job.metadata.name}: no argocd.argoproj.io/sync-wave before the Deployments' (0)`);
    if (job.spec.ttlSecondsAfterFinished !== undefined)
      missing.push(`${job.metadata.name}: ttlSecondsAfterFinished (a GitOps tool would run it again once deleted)`);
    // nothing stops a migration half done but its own failure
    if (job.spec.activeDeadlineSeconds !== undefined)
      missing.push(`${job.metadata.name}: activeDeadlineSeconds could stop a long migration`);
    if (["startupProbe", "livenessProbe"].some((k) => c[k])) missing.push(`${job.metadata.name}: a probe could kill a long migration`);
    if (job.spec.template.metadata?.annotations?.["cluster-autoscaler.kubernetes.io/safe-to-evict"] !== "false")
      missing.push(`${job.metadata.name}: the cluster autoscaler may evict it (safe-to-evict is not "false")`);
  }
  // the pods never migrate: only the Job does, outside any probe
  for (const d of deployments) {
    const env = envOf(objects, d);
    if (env.BB_DATABASE_URL && env.BB_DATABASE_MIGRATE_ON_START !== "false")
      missing.push(`${d.metadata.name}: BB_DATABASE_MIGRATE_ON_START is not false (a start-up probe could kill a migration)`);
  }
  check(
    keys.size >= 5 && missing.length === 0,
    `${name}: a migration Job for each of the ${keys.size} databases, from the image, running its migrate entry, once per release; the pods do not migrate`,
    missing,
  );
}

/** Each service's entry points as deploy/local/build.mjs builds them (the image runs these). */
const BUILT_ENTRIES = new Map(
  [...readFileSync(path.join(ROOT, "deploy", "local", "build.mjs"), "utf8").matchAll(/^\s+"?([a-z-]+)"?: \[([^\]]*)\],?$/gm)].map((m) => [
    m[1],
    [...m[2].matchAll(/"([a-z-]+)"/g)].map((x) => x[1]),
  ]),
);

// ---- The Prometheus Operator's kinds (no schema in kubernetes-models): a field-by-field check.
/** Every metric name the code defines (prom-client `name: "..."`), and the series a histogram adds. */
function definedMetrics() {
  const names = new Set();
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name === "node_modules" || e.name === "generated" || e.name === "dist") continue;
      const file = path.join(dir, e.name);
      if (e.isDirectory()) walk(file);
      else if (e.name.endsWith(".ts") && !e.name.includes(".spec."))
        for (const m of readFileSync(file, "utf8").matchAll(/\bname: "([a-z_:][a-z0-9_:]*)"/g)) names.add(m[1]);
    }
  };
  for (const d of ["packages/service-kit/src", "services"]) walk(path.join(ROOT, d));
  for (const n of [...names]) for (const suffix of ["_bucket", "_sum", "_count"]) names.add(`${n}${suffix}`);
  return names;
}
const METRICS = definedMetrics();
const DURATION = /^(0|(\d+(ms|s|m|h|d|w|y))+)$/;
const seconds = (d) =>
  [...d.matchAll(/(\d+)(ms|s|m|h|d|w|y)/g)].reduce(
    (t, [, n, u]) => t + Number(n) * { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400, w: 604800, y: 31536000 }[u],
    0,
  );
const onlyKeys = (obj, keys, at) =>
  Object.keys(obj ?? {})
    .filter((k) => !keys.includes(k))
    .map((k) => `${at}.${k}: unknown field`);

function crdErrors(obj, objects) {
  const errs = [];
  if (obj.apiVersion !== "monitoring.coreos.com/v1") errs.push(`apiVersion ${obj.apiVersion} is not monitoring.coreos.com/v1`);
  if (!obj.metadata?.name) errs.push("metadata.name is missing");
  errs.push(...onlyKeys(obj, ["apiVersion", "kind", "metadata", "spec"], ""));
  if (obj.kind === "ServiceMonitor") {
    const spec = obj.spec ?? {};
    errs.push(...onlyKeys(spec, ["selector", "endpoints", "namespaceSelector", "jobLabel", "targetLabels", "podTargetLabels"], ".spec"));
    const sel = spec.selector?.matchLabels ?? {};
    if (Object.keys(sel).length === 0) errs.push(".spec.selector.matchLabels is empty");
    if (!Array.isArray(spec.endpoints) || spec.endpoints.length === 0) errs.push(".spec.endpoints is empty");
    for (const [i, e] of (spec.endpoints ?? []).entries()) {
      errs.push(
        ...onlyKeys(
          e,
          ["port", "targetPort", "path", "scheme", "interval", "scrapeTimeout", "honorLabels", "relabelings", "metricRelabelings"],
          `.spec.endpoints[${i}]`,
        ),
      );
      if (typeof e.port !== "string") errs.push(`.spec.endpoints[${i}].port must name a Service port`);
      for (const k of ["interval", "scrapeTimeout"])
        if (e[k] !== undefined && !DURATION.test(e[k])) errs.push(`.spec.endpoints[${i}].${k} ${e[k]} is not a duration`);
      if (e.interval && e.scrapeTimeout && seconds(e.scrapeTimeout) > seconds(e.interval))
        errs.push(`.spec.endpoints[${i}].scrapeTimeout exceeds interval`);
      if (e.path !== undefined && !String(e.path).startsWith("/")) errs.push(`.spec.endpoints[${i}].path`);
      // every process's Service is scraped, on a port that exists
      const selected = objects.filter((o) => o.kind === "Service" && Object.entries(sel).every(([k, v]) => o.metadata.labels?.[k] === v));
      const processes = objects.filter((o) => o.kind === "Deployment" && isProcess(o)).map((d) => d.metadata.name);
      if (obj.metadata.name === "burnbox")
        for (const p of processes) if (!selected.some((s) => s.metadata.name === p)) errs.push(`Service ${p} is not selected`);
      if (selected.length === 0) errs.push("selects no Service");
      for (const s of selected)
        if (!s.spec.ports.some((p) => p.name === e.port)) errs.push(`Service ${s.metadata.name} has no port ${e.port}`);
    }
  } else if (obj.kind === "PrometheusRule") {
    const groups = obj.spec?.groups;
    errs.push(...onlyKeys(obj.spec, ["groups"], ".spec"));
    if (!Array.isArray(groups) || groups.length === 0) errs.push(".spec.groups is empty");
    const groupNames = new Set();
    for (const [g, group] of (groups ?? []).entries()) {
      const at = `.spec.groups[${g}]`;
      errs.push(...onlyKeys(group, ["name", "interval", "rules", "limit", "partial_response_strategy"], at));
      if (typeof group.name !== "string" || groupNames.has(group.name)) errs.push(`${at}.name missing or repeated`);
      groupNames.add(group.name);
      for (const [r, rule] of (group.rules ?? []).entries()) {
        const ra = `${at}.rules[${r}]`;
        errs.push(...onlyKeys(rule, ["alert", "record", "expr", "for", "keep_firing_for", "labels", "annotations"], ra));
        if ((rule.alert === undefined) === (rule.record === undefined)) errs.push(`${ra}: exactly one of alert and record`);
        if (typeof rule.expr !== "string" || rule.expr.trim() === "") errs.push(`${ra}.expr is empty`);
        else {
          let depth = 0;
          for (const ch of rule.expr.replace(/"[^"]*"/g, "")) {
            depth += ch === "(" || ch === "{" || ch === "[" ? 1 : ch === ")" || ch === "}" || ch === "]" ? -1 : 0;
            if (depth < 0) break;
          }
          if (depth !== 0) errs.push(`${ra}.expr: unbalanced brackets`);
          for (const [m] of rule.expr.replace(/"[^"]*"/g, "").matchAll(/\bburnbox_[a-z0-9_]+/g))
            if (!METRICS.has(m)) errs.push(`${ra}.expr: ${m} is no metric the code defines`);
        }
        if (rule.for !== undefined && !DURATION.test(rule.for)) errs.push(`${ra}.for ${rule.for} is not a duration`);
        if (rule.alert !== undefined) {
          if (!["critical", "warning", "info"].includes(rule.labels?.severity)) errs.push(`${ra}.labels.severity`);
          if (typeof rule.annotations?.summary !== "string") errs.push(`${ra}.annotations.summary is missing`);
        }
      }
    }
  } else errs.push(`no check for ${obj.kind}`);
  return errs;
}

// ---- Alerts that can fire: each expression parsed (Prometheus's own PromQL grammar) and each of
// its selectors checked against the series the build's targets would have: the services' (read
// from service-kit's registry, as /metrics serves them, with the labels a ServiceMonitor target
// adds), and the exporters' of deploy/k8s/metrics-fixture.json. A selector naming a series or
// label nobody has, or a value no target can have (a job that is no scraped Service, a namespace
// that is not the release's), selects nothing, and an alert on it never fires.
/** The labels Prometheus gives a ServiceMonitor's target (the scraped `service` label becomes exported_service). */
const TARGET_LABELS = ["job", "instance", "namespace", "pod", "service", "endpoint", "container"];
/** Every series a service process serves: service-kit's registry (its own metrics, the pipeline's, Node's defaults). */
async function kitSeries() {
  const { createMetrics } = tsxRequire("../../packages/service-kit/src/core/metrics.ts", import.meta.url);
  const out = new Map();
  for (const m of createMetrics("fixture").registry.getMetricsAsArray()) {
    const { type } = await m.get();
    const own = ["service", ...(m.labelNames ?? [])];
    if (type === "histogram") {
      out.set(`${m.name}_bucket`, [...own, "le"]);
      out.set(`${m.name}_sum`, own);
      out.set(`${m.name}_count`, own);
    } else if (type === "summary") {
      out.set(m.name, [...own, "quantile"]);
      out.set(`${m.name}_sum`, own);
      out.set(`${m.name}_count`, own);
    } else out.set(m.name, own);
  }
  return out;
}
const KIT_SERIES = await kitSeries();
const EXPORTERS = JSON.parse(readFileSync(path.join(K8S, "metrics-fixture.json"), "utf8"));

/** The series a build's Prometheus would hold: name -> { labels, values (label -> possible values, when known) }. */
function seriesOf(objects) {
  const rule = objects.find((o) => o.kind === "PrometheusRule");
  const namespace = rule?.metadata.namespace ?? objects.find((o) => o.metadata?.namespace)?.metadata.namespace;
  const jobsOf = (monitor) =>
    objects
      .filter(
        (o) =>
          o.kind === "Service" && Object.entries(monitor?.spec.selector.matchLabels ?? {}).every(([k, v]) => o.metadata.labels?.[k] === v),
      )
      .filter((svc) => svc.spec.ports.some((p) => monitor.spec.endpoints.some((e) => e.port === p.name)))
      .map((svc) => svc.metadata.name);
  const monitors = objects.filter((o) => o.kind === "ServiceMonitor");
  const serviceJobs = jobsOf(monitors.find((m) => m.metadata.name === "burnbox"));
  const natsJobs = jobsOf(monitors.find((m) => m.metadata.name === "burnbox-nats"));
  const series = new Map();
  const target = (jobs) => ({ job: jobs, service: jobs, namespace: [namespace] });
  for (const [name, labels] of KIT_SERIES)
    series.set(name, { labels: new Set([...TARGET_LABELS, ...labels, "exported_service"]), values: target(serviceJobs) });
  series.set("up", { labels: new Set(TARGET_LABELS), values: target(monitors.flatMap(jobsOf)) });
  const names = (kind) => objects.filter((o) => o.kind === kind).map((o) => o.metadata.name);
  for (const [source, metrics] of Object.entries(EXPORTERS)) {
    if (source === "//") continue;
    for (const [name, m] of Object.entries(metrics)) {
      const values = m.scraped
        ? target(natsJobs)
        : source === "kube-state-metrics"
          ? { namespace: [namespace], deployment: names("Deployment"), job_name: names("Job") }
          : {};
      series.set(name, { labels: new Set([...m.labels, ...(m.scraped ? TARGET_LABELS : [])]), values });
    }
  }
  return series;
}

/** Why an expression can select nothing (empty when every selector can match a series), by its PromQL syntax tree. */
export function unfireable(expr, series) {
  const tree = promql.parse(expr);
  const problems = [];
  const text = (n) => expr.slice(n.from, n.to);
  const unquote = (s) =>
    JSON.parse(s.startsWith("'") ? `"${s.slice(1, -1).replaceAll('"', '\\"')}"` : s.startsWith("`") ? JSON.stringify(s.slice(1, -1)) : s);
  tree.iterate({
    enter(n) {
      if (n.type.isError) problems.push(`does not parse at ${n.from}: ${JSON.stringify(expr.slice(Math.max(0, n.from - 10), n.to + 10))}`);
      if (n.name !== "VectorSelector") return;
      const id = n.node.getChild("Identifier");
      const metric = id ? text(id) : null;
      const known = metric ? series.get(metric) : null;
      if (metric && !known) {
        problems.push(`${metric}: no target serves this series`);
        return false;
      }
      const matchers = n.node.getChild("LabelMatchers");
      for (const m of matchers?.getChildren("UnquotedLabelMatcher") ?? []) {
        const label = text(m.getChild("LabelName"));
        const op = text(m.getChild("MatchOp"));
        const value = unquote(text(m.getChild("StringLiteral")));
        if (known && !known.labels.has(label)) {
          // a matcher of a missing label matches "" only
          if ((op === "=" && value !== "") || (op === "=~" && !new RegExp(`^(?:${value})$`).test("")))
            problems.push(`${metric}{${label}${op}"${value}"}: ${metric} has no label ${label}`);
          continue;
        }
        const values = known?.values[label];
        if (!values || (op !== "=" && op !== "=~")) continue;
        let re;
        try {
          re = new RegExp(`^(?:${value})$`);
        } catch (err) {
          problems.push(`${metric}{${label}${op}"${value}"}: ${err.message}`);
          continue;
        }
        if (!values.some((v) => (op === "=" ? v === value : re.test(v))))
          problems.push(`${metric}{${label}${op}"${value}"}: matches none of ${label} ${JSON.stringify(values)}`);
      }
      return false;
    },
  });
  return problems;
}

/** Every alert of the build can fire: its selectors match series its targets serve. */
function alertFixtureRules(name, objects) {
  const series = seriesOf(objects);
  for (const rule of objects.filter((o) => o.kind === "PrometheusRule")) {
    for (const r of rule.spec.groups.flatMap((g) => g.rules)) {
      const problems = unfireable(r.expr, series);
      check(problems.length === 0, `${name}: ${r.alert ?? r.record} can fire (its selectors match the fixture's series)`, problems);
    }
  }
  // kube-state-metrics reports every namespace's objects: its alerts keep to the release's
  const ns = objects.find((o) => o.kind === "PrometheusRule")?.metadata.namespace;
  const wide = objects
    .filter((o) => o.kind === "PrometheusRule")
    .flatMap((o) => o.spec.groups.flatMap((g) => g.rules))
    .filter((r) => [...r.expr.matchAll(/\bkube_[a-z_]+(\{[^}]*\})?/g)].some((m) => !(m[1] ?? "").includes(`namespace="${ns}"`)))
    .map((r) => r.alert);
  check(wide.length === 0, `${name}: the kube-state-metrics alerts keep to the release's namespace (${ns})`, wide);
  // the dashboard, through kube-prometheus-stack's sidecar: no import-time inputs, a datasource variable, panels that can show data
  const dashboards = objects.filter((o) => o.kind === "ConfigMap" && o.metadata.labels?.grafana_dashboard === "1");
  const board = dashboards.length === 1 ? JSON.parse(Object.values(dashboards[0].data)[0]) : {};
  const exprs = (board.panels ?? []).flatMap((p) => (p.targets ?? []).map((t) => [p.title, t.expr]));
  const boardProblems = [
    ...(dashboards.length === 1 ? [] : [`${dashboards.length} ConfigMaps labelled grafana_dashboard=1`]),
    ...["__inputs", "__requires"].filter((k) => k in board).map((k) => `${k}: the sidecar does not fill import inputs`),
    ...(JSON.stringify(board).includes("${DS_") ? ["a datasource is an import input (${DS_...})"] : []),
    ...(board.templating?.list?.some((v) => v.type === "datasource" && v.query === "prometheus") ? [] : ["no datasource variable"]),
    ...(exprs.length > 0 ? [] : ["no panel queries"]),
    ...exprs.flatMap(([title, e]) =>
      // Grafana's own interval variables as a duration, the dashboard's variables as "any"
      unfireable(e.replace(/\$__(rate_interval|interval|range)\b/g, "5m").replace(/\$\{?[a-z_]+\}?/gi, ".*"), series).map(
        (p) => `${title}: ${p}`,
      ),
    ),
  ];
  check(
    boardProblems.length === 0,
    `${name}: the Grafana dashboard loads through the sidecar and its panels read series the targets serve`,
    boardProblems,
  );
  // the check itself: it must refuse what never fires (the scrape-down alert before it substituted its job names)
  const caught = [
    'up{job=~"${DEPLOYMENTS}"} == 0',
    'kube_job_status_failed{namespace="burnbox", job_name=~".+-migrate"} > 0',
    'rate(burnbox_smtp_replies_total{cod=~"4.."}[5m]) > 0',
    "burnbox_no_such_metric > 0",
    "sum(rate(http_request_duration_seconds_count[5m]) > 0",
  ].filter((e) => unfireable(e, series).length > 0);
  check(caught.length === 5, `${name}: the alert fixture check refuses expressions that cannot fire`, [`caught ${caught.length} of 5`]);
}

/** The alerts docs/operations.md describes in prose, each by the series it reads. */
const WANTED_ALERTS = {
  "outbox backlog": "burnbox_outbox_backlog",
  "consumer redeliveries": "burnbox_consumer_redeliveries_total",
  "webhook failure rate": "burnbox_webhook_attempts_total",
  "SMTP 4xx/5xx rate": "burnbox_smtp_replies_total",
  "pods not ready": "kube_deployment_status_replicas_available",
  "HTTP 5xx rate and latency": "http_request_duration_seconds",
  "PostgreSQL connections": "pg_stat_activity_count",
  "NATS consumer lag": "jetstream_consumer_num_pending",
  "scrape down": "up{",
};

const generated = spawnSync(process.execPath, [path.join(K8S, "generate.mjs"), "--check"], { encoding: "utf8" });
check(
  generated.status === 0,
  "deploy/k8s/base and deploy/k8s/monitoring are what deploy/k8s/generate.mjs writes",
  generated.stderr.trim().split("\n").filter(Boolean),
);

/** The `burnbox-edge` settings a kustomization directory holds (its edge.yaml), or null. */
function edgeSettings(dir) {
  const file = path.join(dir, "edge.yaml");
  if (!existsSync(file)) return null;
  return (
    parseAllDocuments(readFileSync(file, "utf8"))
      .map((d) => d.toJSON())
      .find((o) => o?.metadata?.name === "burnbox-edge")?.data ?? null
  );
}

/**
 * An overlay as a user would change it: a copy of its directory (in a temporary one; its
 * `../../` paths made absolute) with its edge component replaced by `edge` (and edge.yaml by that
 * component's settings.yaml), and `extra` components added.
 */
/** The list item of an overlay's `components` that names its edge component. */
const EDGE_ITEM = /^(\s*-\s*\.\.\/\.\.\/components\/)(edge-[a-z-]+)\s*$/m;
const TMP = mkdtempSync(path.join(tmpdir(), "burnbox-k8s-"));
process.on("exit", () => rmSync(TMP, { recursive: true, force: true }));
function variant(overlay, { edge, extra = [], settings = [] }) {
  const dir = path.join(TMP, `${path.basename(overlay)}-${edge ?? "same"}-${extra.map((e) => path.basename(e)).join("-")}`);
  cpSync(path.join(K8S, overlay), dir, { recursive: true });
  let text = readFileSync(path.join(dir, "kustomization.yaml"), "utf8");
  if (edge) {
    if (!EDGE_ITEM.test(text)) throw new Error(`${overlay} includes no edge component`);
    text = text.replace(EDGE_ITEM, `$1${edge}`);
    cpSync(path.join(K8S, "components", edge, "settings.yaml"), path.join(dir, "edge.yaml"));
  }
  if (extra.length > 0) text = text.replace(/^components:\n/m, `components:\n${extra.map((e) => `  - ../../${e}\n`).join("")}`);
  // a component's settings.yaml, copied into the overlay as `as` and made one of its resources
  for (const { from, as } of settings) {
    cpSync(path.join(K8S, from, "settings.yaml"), path.join(dir, as));
    text = text.replace(/^resources:\n/m, `resources:\n  - ${as}\n`);
  }
  // (Kustomize takes no absolute path: relative from the copy to deploy/k8s)
  writeFileSync(path.join(dir, "kustomization.yaml"), text.replaceAll("../../", `${path.relative(dir, K8S)}/`));
  return dir;
}

const BUILDS = KUSTOMIZATIONS.map((k) => ({ name: k, dir: path.join(K8S, k) }));
for (const overlay of KUSTOMIZATIONS.filter((k) => k.startsWith("overlays/"))) {
  const own = EDGE_ITEM.exec(readFileSync(path.join(K8S, overlay, "kustomization.yaml"), "utf8"))?.[2];
  for (const edge of EDGE_COMPONENTS.filter((e) => e !== own)) BUILDS.push({ name: `${overlay}+${edge}`, dir: variant(overlay, { edge }) });
}
// the optional components, on the overlay they are for
BUILDS.push({ name: "overlays/production+nats-tls", dir: variant("overlays/production", { extra: ["components/nats-tls"] }) });
for (const overlay of ["overlays/production", "overlays/single-node"])
  BUILDS.push({
    name: `${overlay}+smtp-starttls`,
    dir: variant(overlay, { extra: ["components/smtp-starttls"], settings: [{ from: "components/smtp-starttls", as: "smtp-tls.yaml" }] }),
  });

for (const overlay of ["overlays/production", "overlays/single-node"])
  BUILDS.push({
    name: `${overlay}+smtp-proxy-protocol`,
    dir: variant(overlay, {
      extra: ["components/smtp-proxy-protocol"],
      settings: [{ from: "components/smtp-proxy-protocol", as: "smtp-proxy.yaml" }],
    }),
  });

BUILDS.push({ name: "overlays/production+otel-collector", dir: variant("overlays/production", { extra: ["components/otel-collector"] }) });

// two builds at a time (the machines have two cores), checked in order
const built = [];
for (let i = 0; i < BUILDS.length; i += 2)
  built.push(
    ...(await Promise.all(
      BUILDS.slice(i, i + 2).map((b) =>
        build(b.dir).then(
          (text) => ({ text }),
          (error) => ({ error }),
        ),
      ),
    )),
  );
for (const [i, { name: k, dir }] of BUILDS.entries()) {
  let objects;
  try {
    if (built[i].error) throw built[i].error;
    const docs = parseAllDocuments(built[i].text);
    objects = docs.map((d) => d.toJSON()).filter(Boolean);
  } catch (err) {
    check(false, `${k}: builds`, [err.message]);
    continue;
  }
  check(objects.length > 0, `${k}: builds`);
  for (const obj of objects) {
    const id = `${k}: ${obj.kind} ${obj.metadata?.name}`;
    if (obj.apiVersion?.startsWith("monitoring.coreos.com/")) {
      const errs = crdErrors(obj, objects);
      check(errs.length === 0, `${id} is a well-formed Prometheus Operator object`, errs);
      continue;
    }
    check((await schemaErrors(obj)).length === 0 && unknownFields(obj).length === 0, `${id} matches the Kubernetes API schema`, [
      ...(await schemaErrors(obj)),
      ...unknownFields(obj).map((f) => `unknown field ${f}`),
    ]);
  }
  // BurnBox's own processes and their stores: an add-on such as the traces collector has rules of its own
  const addOn = (o) => o.metadata?.labels?.["app.kubernetes.io/component"] === "tracing";
  otelRules(k, objects);
  rules(
    k,
    objects.filter((o) => !addOn(o)),
    edgeSettings(dir),
    readFileSync(path.join(dir, "kustomization.yaml"), "utf8"),
  );
  const alerts = objects.filter((o) => o.kind === "PrometheusRule").flatMap((o) => o.spec.groups.flatMap((g) => g.rules));
  if (alerts.length > 0) alertFixtureRules(k, objects);
  if (k === "overlays/production") {
    check(
      objects.some((o) => o.kind === "ServiceMonitor"),
      `${k}: a ServiceMonitor scrapes every process`,
    );
    const uncovered = Object.entries(WANTED_ALERTS).filter(([, metric]) => !alerts.some((a) => a.alert && a.expr.includes(metric)));
    check(
      uncovered.length === 0,
      `${k}: a PrometheusRule alerts on what docs/operations.md describes`,
      uncovered.map(([what, m]) => `${what} (${m})`),
    );
  }
}

for (const p of problems) process.stdout.write(`[k8s] FAIL ${p}\n`);
process.stdout.write(`[k8s] ${BUILDS.length} kustomizations built and validated (${BUILDS.map((b) => b.name).join(", ")})\n`);
process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exit(failed === 0 ? 0 : 1);
