import { checkLinks, linkResultOf } from "./link-check";
import type { LinkProber, ProbeOutcome } from "./link-prober";

/** A prober answering from a table by method and URL, recording each request. */
function fakeProber(
  answers: Record<string, ProbeOutcome | ((signal: AbortSignal) => Promise<ProbeOutcome>)>,
): LinkProber & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    probe: (url, method, signal) => {
      calls.push(`${method} ${url}`);
      const answer = answers[`${method} ${url}`] ?? answers[url] ?? { error: "unreachable" };
      return typeof answer === "function" ? answer(signal) : Promise.resolve(answer);
    },
  };
}

describe("linkResultOf", () => {
  it("when a link answers 2xx, then it is ok; any other status is not", () => {
    expect(linkResultOf("https://a.test/", { status: 204, location: null })).toEqual({ url: "https://a.test/", status: 204, ok: true });
    expect(linkResultOf("https://a.test/", { status: 404, location: null })).toEqual({ url: "https://a.test/", status: 404, ok: false });
  });

  it("when a link redirects, then redirect_to is its Location resolved against the URL", () => {
    expect(linkResultOf("https://a.test/x/y?q=1", { status: 301, location: "../z" })).toEqual({
      url: "https://a.test/x/y?q=1",
      status: 301,
      ok: false,
      redirect_to: "https://a.test/z",
    });
    expect(linkResultOf("https://a.test/", { status: 307, location: "https://b.test/next" }).redirect_to).toBe("https://b.test/next");
  });

  it("when there was no answer, then status is null, ok false and the error given", () => {
    expect(linkResultOf("http://10.0.0.1/", { error: "refused" })).toEqual({
      url: "http://10.0.0.1/",
      status: null,
      ok: false,
      error: "refused",
    });
  });
});

describe("checkLinks", () => {
  it("when HEAD answers 405 or 501, then the link is fetched again with GET; otherwise HEAD's answer stands", async () => {
    const prober = fakeProber({
      "HEAD https://a.test/405": { status: 405, location: null },
      "GET https://a.test/405": { status: 200, location: null },
      "HEAD https://a.test/501": { status: 501, location: null },
      "GET https://a.test/501": { status: 404, location: null },
      "HEAD https://a.test/ok": { status: 200, location: null },
    });
    const results = await checkLinks(prober, ["https://a.test/405", "https://a.test/501", "https://a.test/ok"]);
    expect(results.map((r) => r.status)).toEqual([200, 404, 200]);
    expect(prober.calls.filter((c) => c.startsWith("GET")).sort()).toEqual(["GET https://a.test/405", "GET https://a.test/501"]);
  });

  it("when links answer out of order, then the results keep the links' order", async () => {
    const later = (ms: number, status: number) => () =>
      new Promise<ProbeOutcome>((resolve) => setTimeout(() => resolve({ status, location: null }), ms));
    const prober = fakeProber({
      "https://a.test/1": later(30, 201),
      "https://a.test/2": later(1, 202),
      "https://a.test/3": later(10, 203),
    });
    const results = await checkLinks(prober, ["https://a.test/1", "https://a.test/2", "https://a.test/3"], { concurrency: 3 });
    expect(results.map((r) => r.status)).toEqual([201, 202, 203]);
  });

  it("when a link takes longer than its time, then its request is aborted and the prober reports the timeout", async () => {
    const prober = fakeProber({
      "https://a.test/hang": (signal) =>
        new Promise<ProbeOutcome>((resolve) => signal.addEventListener("abort", () => resolve({ error: "timeout" }), { once: true })),
    });
    expect(await checkLinks(prober, ["https://a.test/hang"], { perLinkMs: 20 })).toEqual([
      { url: "https://a.test/hang", status: null, ok: false, error: "timeout" },
    ]);
  });

  it("when there are no links, then there is nothing to fetch", async () => {
    const prober = fakeProber({});
    expect(await checkLinks(prober, [])).toEqual([]);
    expect(prober.calls).toEqual([]);
  });
});
