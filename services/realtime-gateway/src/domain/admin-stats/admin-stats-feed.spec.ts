import type { AdminStats } from "@burnbox/contracts";
import { AdminStatsFeed } from "./admin-stats-feed";

const stats = (n: number): AdminStats => ({
  total_emails: n,
  active_inboxes: 0,
  total_domains: 0,
  total_users: 0,
  total_teams: 0,
  storage_used_bytes: 0,
});

describe("AdminStatsFeed", () => {
  it("when many sockets ask at once, then one fetch answers them all", async () => {
    let calls = 0;
    const feed = new AdminStatsFeed(() => Promise.resolve(stats(++calls)));
    const answers = await Promise.all(Array.from({ length: 20 }, () => feed.current(10_000)));
    expect(calls).toBe(1);
    expect(new Set(answers.map((a) => a.total_emails))).toEqual(new Set([1]));
  });

  it("when the last figures are younger than the age asked for, then they are reused; older, fetched again", async () => {
    let clock = 0;
    let calls = 0;
    const feed = new AdminStatsFeed(
      () => Promise.resolve(stats(++calls)),
      () => clock,
    );
    await feed.current(10_000);
    clock = 9_999;
    expect((await feed.current(10_000)).total_emails).toBe(1);
    clock = 10_000;
    expect((await feed.current(10_000)).total_emails).toBe(2);
    expect(feed.fetches).toBe(2);
  });

  it("when a fetch fails, then its waiters get the error and the next call fetches again", async () => {
    let fail = true;
    const feed = new AdminStatsFeed(() => (fail ? Promise.reject(new Error("down")) : Promise.resolve(stats(7))));
    await expect(feed.current(10_000)).rejects.toThrow("down");
    fail = false;
    expect((await feed.current(10_000)).total_emails).toBe(7);
  });
});
