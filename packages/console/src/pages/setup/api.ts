// The setup area's server state: the first-run status, the one call that stores everything, the connection tests.
import { useMemo } from "react";
import type { components, paths } from "@burnbox/sdk";
import { SETUP_STATUS_KEY } from "../../app/boot";
import { apiQuery, unwrap, useApi } from "../../api/query";

export type Probe = { success: boolean; message: string; response_time_ms: number };
export type Mailer = components["schemas"]["UpdateMailerConfigRequest"];
export type Storage = components["schemas"]["UpdateStorageConfigRequest"];
type Body<P extends keyof paths> = paths[P] extends { post: { requestBody?: { content: { "application/json": infer B } } } } ? B : never;

/** The query key of `GET /setup/status` (the boot asks for it first; the console's gate reads it too). */
export const STATUS_KEY = SETUP_STATUS_KEY;

/** `GET /setup/status`: whether setup is done, and the data stores this installation connects to. */
export const useSetupStatus = apiQuery(STATUS_KEY, (b, signal) => b.api.GET("/setup/status", { signal }));

/** `POST /setup/complete` (everything at once) and the connection tests, each answering the API's body or throwing. */
export function useSetupCalls() {
  const bb = useApi();
  return useMemo(
    () => ({
      complete: (body: Body<"/setup/complete">) => unwrap(bb.api.POST("/setup/complete", { body })),
      testSmtp: (body: Body<"/setup/test-smtp">) => unwrap(bb.api.POST("/setup/test-smtp", { body })),
      testStorage: (body: Body<"/setup/test-storage">) => unwrap(bb.api.POST("/setup/test-storage", { body })),
    }),
    [bb],
  );
}

export const mailerBody = (m: Mailer): Mailer => ({
  host: m.host.trim(),
  port: m.port,
  tls: m.tls,
  from: m.from.trim(),
  ...(m.username ? { username: m.username } : {}),
  ...(m.password ? { password: m.password } : {}),
});

export function storageBody(s: Storage): Storage {
  if (s.provider === "local") return { provider: "local", ...(s.local_path ? { local_path: s.local_path } : {}) };
  const { local_path: _, ...rest } = s;
  return Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== "")) as Storage;
}
