// Builds every kustomization (base and each overlay) and validates each object it makes, offline:
// 1. against the Kubernetes API schemas (kubernetes-models: validators generated from the
//    Kubernetes OpenAPI document: types, required fields, formats);
// 2. no unknown field names (a misspelled `readinesProbe` is silently ignored by the schemas);
// 3. BurnBox's own deployment rules (probes, limits, hardening, HPA, PDB, ingress, SMTP, NATS).
// Also checks that deploy/k8s/base is what deploy/k8s/generate.mjs writes.
//
//   node deploy/k8s/validate.mjs          (needs `kubectl` 1.14+ or `kustomize` on PATH)
//
// Prints `N passed, N failed` (one check per built object and rule group).
import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
const K8S = import.meta.dirname;
const { parseAllDocuments } = createRequire(path.join(ROOT, "packages", "service-kit", "package.json"))("yaml");
const MODELS = path.join(ROOT, "node_modules", "kubernetes-models");
const KUSTOMIZATIONS = ["base", "overlays/single-node", "overlays/production"];

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

/** `kubectl kustomize <dir>` or `kustomize build <dir>`, whichever is installed. */
function build(dir) {
  const tools = [
    ["kubectl", ["kustomize", dir]],
    ["kustomize", ["build", dir]],
  ];
  for (const [cmd, args] of tools) {
    const r = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
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
  const dirs = [path.join(MODELS, "_schemas"), path.join(apimachinery, "_schemas")];
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
  const file = path.join(MODELS, ...(group ? [group, version] : [version]), `${obj.kind}.js`);
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
function rules(name, objects) {
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
  for (const want of ["api-gateway", "identity", "tenancy", "inbox", "inbox-smtp", "webhook-dispatcher", "realtime-gateway"])
    check(names.has(want), `${name}: a Deployment for ${want}`);

  const ingress = of("Ingress")[0];
  const paths = ingress?.spec.rules.flatMap((r) => r.http.paths) ?? [];
  const backend = (p) => paths.find((x) => x.path === p)?.backend.service.name;
  check(
    backend("/api/v1/ws") === "realtime-gateway" && backend("/") === "api-gateway",
    `${name}: Ingress sends /api/v1/ws to realtime-gateway and the rest to api-gateway`,
  );
  const smtp = of("Service").find((s) => s.spec.type === "LoadBalancer" && s.spec.ports.some((p) => p.port === 25));
  check(smtp?.spec.selector["app.kubernetes.io/name"] === "inbox-smtp", `${name}: inbox-smtp behind a LoadBalancer Service on port 25`);
  check(
    of("NetworkPolicy").some(
      (p) => Object.keys(p.spec.podSelector).length === 0 || Object.keys(p.spec.podSelector.matchLabels ?? {}).length === 0,
    ),
    `${name}: a default-deny ingress NetworkPolicy`,
  );

  const nats = of("StatefulSet").find((s) => s.metadata.name === "nats");
  const replicas = of("ConfigMap").find((c) => c.metadata.name === "burnbox-config")?.data.BB_NATS_STREAM_REPLICAS;
  const want = name.endsWith("single-node") ? { nodes: 1, replicas: "1" } : { nodes: 3, replicas: "3" };
  check(
    nats?.spec.replicas === want.nodes && replicas === want.replicas,
    `${name}: NATS has ${want.nodes} node(s) and streams ${want.replicas} replica(s)`,
    [`nats nodes ${nats?.spec.replicas}, BB_NATS_STREAM_REPLICAS ${replicas}`],
  );
}

const generated = spawnSync(process.execPath, [path.join(K8S, "generate.mjs"), "--check"], { encoding: "utf8" });
check(
  generated.status === 0,
  "deploy/k8s/base is what deploy/k8s/generate.mjs writes",
  generated.stderr.trim().split("\n").filter(Boolean),
);

for (const k of KUSTOMIZATIONS) {
  let objects;
  try {
    const docs = parseAllDocuments(build(path.join(K8S, k)));
    objects = docs.map((d) => d.toJSON()).filter(Boolean);
  } catch (err) {
    check(false, `${k}: builds`, [err.message]);
    continue;
  }
  check(objects.length > 0, `${k}: builds`);
  for (const obj of objects) {
    const id = `${k}: ${obj.kind} ${obj.metadata?.name}`;
    check((await schemaErrors(obj)).length === 0 && unknownFields(obj).length === 0, `${id} matches the Kubernetes API schema`, [
      ...(await schemaErrors(obj)),
      ...unknownFields(obj).map((f) => `unknown field ${f}`),
    ]);
  }
  rules(k, objects);
}

for (const p of problems) process.stdout.write(`[k8s] FAIL ${p}\n`);
process.stdout.write(`[k8s] ${KUSTOMIZATIONS.length} kustomizations built and validated\n`);
process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exit(failed === 0 ? 0 : 1);
