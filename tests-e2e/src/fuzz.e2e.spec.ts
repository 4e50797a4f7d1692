import { SharedSystem } from "./shared-system";
import { describeReport, fuzzCampaign } from "./fuzz/campaign";
import { apiClient } from "./clients";
import { registerAdmin } from "./world";

/**
 * The seeded fuzzing campaign over every operation the gateway's document lists (so operations
 * added later are covered with no edit): malformed paths, queries and bodies, wrong types and
 * content types, unicode edge cases, oversized and deeply nested bodies, with each kind of
 * credential. The long run is `pnpm --filter @burnbox/bench fuzz` (figures in docs/reliability.md).
 */
describe("fuzzing every operation", () => {
  const system = SharedSystem.attach();

  it("when 2,000 seeded malformed requests are sent, then none is a 5xx, every error is in the envelope, and no refused request changed anything", async () => {
    const report = await fuzzCampaign({
      gatewayUrl: system.gatewayUrl,
      namespace: system.namespace,
      seed: 20261123,
      total: 2000,
      admin: () => registerAdmin(apiClient(system.gatewayUrl), system),
    });
    process.stdout.write(`\nfuzz: ${describeReport(report).replace(/\n/g, "; ")}\n`);
    expect(report.requests).toBeGreaterThanOrEqual(2000);
    expect(report.operations).toBeGreaterThanOrEqual(50);
    const summary = report.findings
      .slice(0, 10)
      .map(
        (f) =>
          `${f.status} ${f.problem}: ${f.case.method} ${f.case.url.slice(0, 80)} (${f.case.mutation}, ${f.credential}) -> ${f.body.slice(0, 120)}`,
      );
    expect(summary).toEqual([]);
    expect(report.serverErrors).toBe(0);
  }, 600_000);
});
