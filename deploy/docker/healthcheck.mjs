// The image's HEALTHCHECK: the service's own /healthz on the port it listens on (BB_HTTP_PORT,
// which every image target sets to its service's port). Exit 0 when it answers 2xx.
const port = process.env.BB_HTTP_PORT;
if (!port) {
  process.stderr.write("BB_HTTP_PORT is not set\n");
  process.exit(1);
}
try {
  const res = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2500) });
  process.exit(res.ok ? 0 : 1);
} catch {
  process.exit(1);
}
