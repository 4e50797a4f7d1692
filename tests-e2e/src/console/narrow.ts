import type { Locator, Page } from "playwright-core";

/** The phone width the console is checked at (issue 27 and 28: nothing scrolls sideways at 360 px). */
export const NARROW = { width: 360, height: 740 } as const;

/**
 * How far `document.documentElement.scrollWidth` passes the window's width (0 or less: nothing
 * scrolls sideways), with the element reaching furthest right for the failure's message (it may sit
 * in a scroll container that clips it; the culprit is then one of its ancestors).
 */
export async function sidewaysOverflow(page: Page): Promise<{ overflow: number; widest: string }> {
  return page.evaluate(() => {
    const d = (
      globalThis as unknown as {
        document: {
          documentElement: { scrollWidth: number };
          querySelectorAll(s: string): ArrayLike<{ getBoundingClientRect(): { right: number }; tagName: string; className: unknown }>;
        };
      }
    ).document;
    const width = (globalThis as unknown as { innerWidth: number }).innerWidth;
    let widest = "";
    let right = width;
    for (const el of Array.from(d.querySelectorAll("body *"))) {
      const r = el.getBoundingClientRect().right;
      if (r > right) {
        right = r;
        widest = `${el.tagName.toLowerCase()}.${String(el.className)}`;
      }
    }
    return { overflow: d.documentElement.scrollWidth - width, widest };
  });
}

/** Asserts that the page does not scroll sideways (`document.documentElement.scrollWidth` within the window). */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const { overflow, widest } = await sidewaysOverflow(page);
  expect({ overflow: Math.max(overflow, 0), widest: overflow > 0 ? widest : "" }).toEqual({ overflow: 0, widest: "" });
}

/**
 * Presses Tab from the top of the page until `target` has the focus, as a keyboard user would reach
 * it; fails when it is not reached within `maxTabs` presses (then it is not in the tab order).
 */
export async function tabTo(page: Page, target: Locator, maxTabs = 60): Promise<void> {
  await page.locator("body").focus();
  await page.evaluate(() => {
    const active = (globalThis as unknown as { document: { activeElement: { blur?: () => void } | null } }).document.activeElement;
    active?.blur?.();
  });
  for (let i = 0; i < maxTabs; i++) {
    await page.keyboard.press("Tab");
    if (await target.evaluate((el) => el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement))
      return;
  }
  throw new Error(`not reached by ${maxTabs} presses of Tab: ${target.toString()}`);
}
