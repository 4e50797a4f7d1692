import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";

const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

interface AxeViolation {
  id: string;
  impact: "minor" | "moderate" | "serious" | "critical" | null;
  help: string;
  nodes: Array<{ target: unknown[]; failureSummary?: string }>;
}

/**
 * The page's serious and critical accessibility violations (axe-core, WCAG 2.0/2.1 A and AA rules),
 * as readable lines: `expect(await seriousViolations(page)).toEqual([])`. axe is injected through
 * the DevTools protocol's evaluate, which the page's CSP does not govern.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  // a dialog still fading in is half transparent, and axe would measure its colours mid-way: wait
  // for the running transitions to end (the finite ones: a skeleton's pulse never ends)
  await page.evaluate(async () => {
    type Running = { finished: Promise<unknown>; effect: { getComputedTiming(): { endTime?: number | string } } | null };
    const doc = (globalThis as unknown as { document: { getAnimations(): Running[] } }).document;
    const finite = doc.getAnimations().filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime)));
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
  });
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const g = globalThis as unknown as {
      document: unknown;
      axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: AxeViolation[] }> };
    };
    const result = await g.axe.run(g.document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
      resultTypes: ["violations"],
    });
    return result.violations;
  });
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(", ")}`);
}
