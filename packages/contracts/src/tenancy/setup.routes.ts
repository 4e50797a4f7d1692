import { errorResponses } from "../shared/common.schemas";
import { defineRoutes } from "../routes/route";
import {
  SetupCompleteBody,
  SetupCompleteResult,
  SetupStatus,
  SetupTestResult,
  SetupTestSmtpBody,
  SetupTestStorageBody,
} from "./setup.schemas";

/**
 * First-run setup (public, guarded by `setup.token`): complete once a system admin exists. After
 * completion the tests are 403 and complete is 409, whatever the token or body.
 */
export const setupRoutes = defineRoutes({ service: "tenancy", tag: "Setup" }, [
  {
    operationId: "getSetupStatus",
    method: "get",
    path: "/setup/status",
    auth: "public",
    summary: "Whether first-run setup is complete; while it is not, where the datastores are (never credentials)",
    responses: { 200: { description: "Status", schema: SetupStatus } },
  },
  {
    operationId: "completeSetup",
    method: "post",
    path: "/setup/complete",
    auth: "public",
    summary: "Create the first system admin and their org (and optionally a domain, a team, the mailer and storage) and sign in",
    request: { body: SetupCompleteBody },
    responses: {
      201: { description: "Set up", schema: SetupCompleteResult },
      400: errorResponses[400],
      403: { description: "Missing or wrong setup token" },
      409: { description: "Setup is already complete" },
    },
  },
  {
    operationId: "setupTestSmtp",
    method: "post",
    path: "/setup/test-smtp",
    auth: "public",
    summary:
      "Try an SMTP server (public addresses, ports of mailer.allowed_ports only: 25, 465, 587, 2525 by default) before setup completes",
    request: { body: SetupTestSmtpBody },
    responses: {
      200: { description: "Result", schema: SetupTestResult },
      400: errorResponses[400],
      403: { description: "Wrong token or setup complete" },
    },
  },
  {
    operationId: "setupTestStorage",
    method: "post",
    path: "/setup/test-storage",
    auth: "public",
    summary: "Try object storage (public addresses, ports 443, 80, 9000 only) before setup completes",
    request: { body: SetupTestStorageBody },
    responses: {
      200: { description: "Result", schema: SetupTestResult },
      400: errorResponses[400],
      403: { description: "Wrong token or setup complete" },
    },
  },
] as const);
