import type { BurnBoxOptions } from "./index.js";

/** The settings the environment gives (BURNBOX_URL, BURNBOX_API_KEY, BURNBOX_DOMAIN_ASSIGNMENT_ID); the one place that reads it. */
export function fromEnvironment(env: NodeJS.ProcessEnv = process.env): BurnBoxOptions {
  return {
    ...(env.BURNBOX_URL ? { baseUrl: env.BURNBOX_URL } : {}),
    ...(env.BURNBOX_API_KEY ? { apiKey: env.BURNBOX_API_KEY } : {}),
    ...(env.BURNBOX_DOMAIN_ASSIGNMENT_ID ? { domainAssignmentId: env.BURNBOX_DOMAIN_ASSIGNMENT_ID } : {}),
  };
}
