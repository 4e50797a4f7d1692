import net from "node:net";

/** Listens on `address:port` until closed. */
export function listen(server: net.Server, address: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, address, () => resolve());
  });
}

export const close = (server: net.Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/**
 * A TCP relay from `address:2525` (an SMTP port the setup and admin probes may use) to the
 * system's own SMTP intake, so a probe reaches a real SMTP server at an address the test chose.
 */
export async function intakeRelay(address: string, intakePort: number): Promise<net.Server> {
  const server = net.createServer((client) => {
    const upstream = net.connect(intakePort, "127.0.0.1");
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", end);
    upstream.on("error", end);
  });
  await listen(server, address, 2525);
  return server;
}
