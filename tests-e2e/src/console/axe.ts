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
  await settled(page);
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

/**
 * Waits until the page has settled: no finite animation running (a dialog still fading in is half
 * transparent, and axe would measure its colours mid-way; a skeleton's endless pulse does not count)
 * and no change to the DOM for three animation frames (a menu or dialog is unmounted by a timer at
 * the end of its transition, and axe must not scan a tree that React is taking apart). Bounded at 3 s.
 */
async function settled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    type Running = { finished: Promise<unknown>; effect: { getComputedTiming(): { endTime?: number | string } } | null };
    const g = globalThis as unknown as {
      document: { getAnimations(): Running[] };
      requestAnimationFrame(cb: () => void): number;
      MutationObserver: new (cb: () => void) => { observe(target: unknown, options: object): void; disconnect(): void };
    };
    const finite = () => g.document.getAnimations().filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime)));
    const frame = () => new Promise<void>((resolve) => g.requestAnimationFrame(() => resolve()));
    let changed = false;
    const observer = new g.MutationObserver(() => {
      changed = true;
    });
    observer.observe(g.document, { subtree: true, childList: true, attributes: true, characterData: true });
    const deadline = Date.now() + 3_000;
    try {
      while (Date.now() < deadline) {
        await Promise.all(finite().map((a) => a.finished.catch(() => undefined)));
        changed = false;
        for (let i = 0; i < 3; i++) await frame();
        if (!changed && finite().length === 0) return;
      }
    } finally {
      observer.disconnect();
    }
  });
}
