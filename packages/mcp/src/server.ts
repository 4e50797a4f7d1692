import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { BurnBox } from "@burnbox/sdk";
import { registerTools } from "./tools.js";

export const SERVER_NAME = "burnbox";
export const SERVER_VERSION = "0.1.0";

/** An MCP server whose tools call BurnBox through `bb`. */
export function createServer(bb: BurnBox): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION },
    {
      instructions:
        "Disposable inboxes from BurnBox. create_inbox gives an address; use it, then wait_for_code, wait_for_link or " +
        "wait_for_email (they answer as soon as the mail is in), or list_emails and read_email.",
    },
  );
  registerTools(server, bb);
  return server;
}
