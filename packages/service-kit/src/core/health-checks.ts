/** A readiness check: resolves when the dependency answers. `/readyz` and the admin health ping run the same ones. */
export type HealthCheck = () => Promise<unknown>;

export async function checkAll(checks: Record<string, HealthCheck>, timeoutMs = 2000): Promise<Record<string, "ok" | "down">> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          check(),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error("timeout")), timeoutMs);
          }),
        ]);
        return [name, "ok"] as const;
      } catch {
        return [name, "down"] as const;
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return Object.fromEntries(entries);
}

/** Each check with its own latency (ms), for the admin health ping. */
export async function timedChecks(
  checks: Record<string, HealthCheck>,
  timeoutMs = 2000,
): Promise<Record<string, { status: "ok" | "down"; latency_ms: number }>> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      const start = performance.now();
      const status = (await checkAll({ [name]: check }, timeoutMs))[name] ?? "down";
      return [name, { status, latency_ms: Math.round(performance.now() - start) }] as const;
    }),
  );
  return Object.fromEntries(entries);
}
