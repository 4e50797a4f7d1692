#!/usr/bin/env node
// burnbox-mcp: MCP over stdio (the default; stdout carries the protocol, so every human message
// goes to stderr) or streamable HTTP with --http <port>.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { clientFor, readSettings, USAGE, UsageError } from "./config.js";
import { serveHttp } from "./http.js";
import { createServer } from "./server.js";

const args = process.argv.slice(2);
if (args.includes("--help") || args.includes("-h")) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
try {
  const settings = readSettings(args, process.env);
  const bb = clientFor(settings);
  if (settings.http) {
    const handle = await serveHttp(bb, settings.http.port, settings.http.host, settings.http.token);
    process.stderr.write(`burnbox-mcp: listening on ${handle.url}\n`);
    const stop = () => void handle.close().then(() => process.exit(0));
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  } else {
    await createServer(bb).connect(new StdioServerTransport());
  }
} catch (err) {
  process.stderr.write(`burnbox-mcp: ${err instanceof Error ? err.message : String(err)}\n`);
  if (err instanceof UsageError) process.stderr.write(`\n${USAGE}\n`);
  process.exit(err instanceof UsageError ? 64 : 1);
}
