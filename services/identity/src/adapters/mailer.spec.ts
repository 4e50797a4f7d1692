import net, { type AddressInfo } from "node:net";
import type { Logger } from "@burnbox/service-kit/runtime";
import { outboundPolicy } from "@burnbox/service-kit/security";
import { waitFor } from "@burnbox/test-kit";
import { loadIdentityConfig } from "../config";
import { Mailer, type MailerSettings } from "./mailer";

/** A local relay speaking just enough SMTP to take one message; `messages` holds each DATA received. */
async function relay() {
  const messages: string[] = [];
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    let inData = false;
    let data = "";
    let buffer = "";
    socket.write("220 relay.test ESMTP\r\n");
    socket.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      let nl: number;
      while ((nl = buffer.indexOf("\r\n")) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 2);
        if (inData) {
          if (line === ".") {
            inData = false;
            messages.push(data);
            socket.write("250 queued\r\n");
          } else data += `${line}\n`;
        } else if (/^(EHLO|HELO)/i.test(line)) socket.write("250 relay.test\r\n");
        else if (/^DATA/i.test(line)) {
          inData = true;
          socket.write("354 go on\r\n");
        } else if (/^QUIT/i.test(line)) socket.end("221 bye\r\n");
        else socket.write("250 ok\r\n");
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    port: (server.address() as AddressInfo).port,
    messages,
    connections: () => connections,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** The log lines the mailer writes, as (level, message, fields). */
function logger() {
  const lines: Array<{ level: string; msg: string; fields: unknown }> = [];
  const at =
    (level: string) =>
    (fields: unknown, msg?: string): void => {
      lines.push(typeof fields === "string" ? { level, msg: fields, fields: {} } : { level, msg: msg ?? "", fields });
    };
  return { lines, log: { info: at("info"), warn: at("warn"), error: at("error"), debug: at("debug") } as unknown as Logger };
}

describe("the saved platform mailer's port (mailer.allowed_ports)", () => {
  const policy = outboundPolicy({ dns: { servers: [], timeout_ms: 1000 }, allowedTargets: ["127.0.0.1"] });
  const saved = (port: number): MailerSettings => ({
    host: "127.0.0.1",
    port,
    secure: false,
    requireTls: false,
    ignoreTls: true,
    user: "",
    password: "",
    from: "BurnBox <no-reply@burnbox.test>",
    source: "platform",
  });

  it("when a saved mailer is on a local relay's port, then the default ports refuse it without connecting, and a setting that lists the port sends through it", async () => {
    const rx = await relay();
    try {
      // the defaults: 25, 465, 587, 2525
      const defaults = loadIdentityConfig({ BB_INTERNAL_SECRET: "s".repeat(32), BB_AUTH_JWT_SECRET: "j".repeat(32) }).mailer.allowed_ports;
      expect(defaults).toEqual([25, 465, 587, 2525]);
      const refusedLog = logger();
      const refusing = new Mailer(saved(rx.port), refusedLog.log, policy, defaults);
      refusing.send({ to: "a@x.test", subject: "refused", text: "hi" });
      const refused = await waitFor(() => refusedLog.lines.find((l) => l.level === "error"), { what: "the refusal" });
      expect(refused.fields).toMatchObject({ refused: true, err: { message: "port not allowed: use one of 25, 465, 587, 2525" } });
      expect(rx.connections()).toBe(0);

      const allowed = loadIdentityConfig({
        BB_INTERNAL_SECRET: "s".repeat(32),
        BB_AUTH_JWT_SECRET: "j".repeat(32),
        BB_MAILER_ALLOWED_PORTS: `587,${rx.port}`,
      }).mailer.allowed_ports;
      const sentLog = logger();
      const sending = new Mailer(saved(rx.port), sentLog.log, policy, allowed);
      sending.send({ to: "a@x.test", subject: "through the relay", text: "hi" });
      const message = await waitFor(() => rx.messages[0], { what: "the mail at the relay" });
      expect(message).toContain("Subject: through the relay");
      expect(sentLog.lines.filter((l) => l.level === "error")).toEqual([]);
      sending.close();
      refusing.close();
    } finally {
      await rx.close();
    }
  });
});
