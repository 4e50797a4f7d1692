import { errors } from "@burnbox/service-kit/runtime";
import type { DispatcherDeps } from "../deps";
import { webhookUrlProblem } from "../url-policy";

/** The URL rules of create and update, as a 400 on `url`. */
export function assertWebhookUrl(deps: DispatcherDeps, url: string): void {
  const problem = webhookUrlProblem(url, deps.allowed);
  if (problem) throw errors.validation(problem, [{ path: "url", message: problem }]);
}
