import { LogCapture, waitFor } from "@burnbox/test-kit";
import { createHttpApp, finalizeHttpApp, listen, type RunningServer } from "../src/http";
import { createLogger } from "../src/runtime";

describe("access log", () => {
  const capture = new LogCapture();
  const logger = createLogger({ service: "kit-test", level: "debug", destination: capture });
  let server: RunningServer;

  beforeAll(async () => {
    const app = createHttpApp({ logger });
    app.post("/things/:id", (_req, res) => {
      res.status(201).json({ ok: true });
    });
    finalizeHttpApp(app, logger);
    server = await listen(app, 0, "127.0.0.1");
  });
  afterAll(() => server.close());

  it("when a request is answered, then one line has its method, route pattern, status, duration and request id, and neither body, query nor token", async () => {
    const res = await fetch(`http://127.0.0.1:${server.port}/things/42?secret=q`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-request-id": "req-access-1", authorization: "Bearer tok-123" },
      body: JSON.stringify({ password: "hunter2" }),
    });
    expect(res.status).toBe(201);
    const lines = await waitFor(() => {
      const mine = capture.entries().filter((l) => l.msg === "request" && l.request_id === "req-access-1");
      return mine.length > 0 ? mine : null;
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ method: "POST", route: "/things/:id", status: 201, level: 30 });
    expect(typeof lines[0]!.duration_ms).toBe("number");
    expect(capture.text()).not.toMatch(/hunter2|tok-123|secret=q/);
  });

  it("when no route matches, then the line says unmatched with the envelope's 404", async () => {
    await fetch(`http://127.0.0.1:${server.port}/nowhere/7`, { headers: { "x-request-id": "req-access-2" } });
    const line = await waitFor(() => capture.entries().find((l) => l.msg === "request" && l.request_id === "req-access-2"));
    expect(line).toMatchObject({ method: "GET", route: "unmatched", status: 404 });
  });
});
