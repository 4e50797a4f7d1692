import { answerNowPath } from "./proxy";

describe("answerNowPath (a draining gateway asks a long poll to answer now)", () => {
  it.each([
    ["/api/v1/inboxes/1/emails/wait", "/api/v1/inboxes/1/emails/wait?timeout=0"],
    ["/api/v1/inboxes/1/emails/wait?timeout=2m", "/api/v1/inboxes/1/emails/wait?timeout=0"],
    ["/w?subject=a%20b&timeout=30s&count=2", "/w?subject=a%20b&count=2&timeout=0"],
    ["/w?header=X-Run%3A+1&header=Y%3A%202", "/w?header=X-Run%3A+1&header=Y%3A%202&timeout=0"],
    ["/w?time%6Fut=5s&since=x", "/w?since=x&timeout=0"],
    ["/w?timeouts=1&", "/w?timeouts=1&timeout=0"],
    ["/w?bad=%E0%A4%A", "/w?bad=%E0%A4%A&timeout=0"],
  ])("%s -> %s", (from, to) => {
    expect(answerNowPath(from)).toBe(to);
  });
});
