import { reconnectDelayMs, ticketSocketUrl } from "./live-socket";

describe("the live sockets' rules", () => {
  it("when the SDK's base URL is absolute or relative, then the socket URL is ws(s) on the same host with the ticket", () => {
    expect(ticketSocketUrl("https://bb.example.com/api/v1", "/ws/notifications", "t-1", "https://bb.example.com/inboxes")).toBe(
      "wss://bb.example.com/api/v1/ws/notifications?ticket=t-1",
    );
    expect(ticketSocketUrl("/api/v1/", "/ws/notifications", "a b", "http://127.0.0.1:8080/notifications?page=2")).toBe(
      "ws://127.0.0.1:8080/api/v1/ws/notifications?ticket=a+b",
    );
    expect(ticketSocketUrl("https://bb.example.com/api/v1", "/ws/admin-stats", "t-1", "https://bb.example.com/admin")).toBe(
      "wss://bb.example.com/api/v1/ws/admin-stats?ticket=t-1",
    );
  });

  it("when a drop repeats, then the wait doubles from 1 s up to 30 s; a 4429 (too many sockets) waits 30 s", () => {
    expect([0, 1, 2, 3, 4, 5, 9].map((n) => reconnectDelayMs(n))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    expect(reconnectDelayMs(0, 4429)).toBe(30000);
    expect(reconnectDelayMs(0, 1006)).toBe(1000);
  });
});
