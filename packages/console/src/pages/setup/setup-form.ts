import { SetupCompleteBody } from "@burnbox/contracts/src/tenancy/setup.schemas";
import type { UseFormReturnType } from "@mantine/form";
import { samePassword } from "../../components/AccountFields";
import { useContractForm } from "../../lib/contract-form";
import { mailerBody, storageBody, type Mailer, type Storage } from "./api";

/** Everything the four steps ask for; nothing is sent before the last (`POST /setup/complete`). */
export interface SetupValues extends Record<string, unknown> {
  setup_token: string;
  admin: { display_name: string; email: string; password: string };
  /** the administrator's password typed again */
  confirm: string;
  org: { name: string };
  team: { name: string };
  domain: { domain_name: string };
  with_mailer: boolean;
  mailer: Mailer;
  with_storage: boolean;
  storage: Storage;
}
export type SetupForm = UseFormReturnType<SetupValues>;

/** The body of `POST /setup/complete`: the optional team, domain, mailer and storage only when given. */
export const setupBody = (v: SetupValues) => ({
  setup_token: v.setup_token.trim(),
  admin: v.admin,
  org: { name: v.org.name },
  ...(v.team.name.trim() ? { team: { name: v.team.name.trim() } } : {}),
  ...(v.domain.domain_name.trim() ? { domain: { domain_name: v.domain.domain_name.trim() } } : {}),
  ...(v.with_mailer ? { mailer: mailerBody(v.mailer) } : {}),
  ...(v.with_storage ? { storage: storageBody(v.storage) } : {}),
  use_cookie: true,
});

/** The fields each step but the last checks before it goes on (the last checks them all as it sends). */
export const STEP_FIELDS: string[][] = [
  ["setup_token"],
  ["admin.display_name", "admin.email", "admin.password", "confirm"],
  ["org.name", "team.name", "domain.domain_name"],
];

/** The setup's one form, checked by the contract's `SetupCompleteBody` (and the password typed twice alike). */
export function useSetupForm(token: string): SetupForm {
  return useContractForm<SetupValues>(
    SetupCompleteBody,
    {
      setup_token: token,
      admin: { display_name: "", email: "", password: "" },
      confirm: "",
      org: { name: "" },
      team: { name: "" },
      domain: { domain_name: "" },
      with_mailer: false,
      mailer: { host: "", port: 587, username: "", password: "", tls: true, from: "" },
      with_storage: false,
      storage: { provider: "s3", local_path: "", endpoint: "", bucket: "", region: "", access_key: "", secret_key: "", use_ssl: true },
    },
    { toBody: setupBody, rules: (v) => ({ confirm: samePassword(v.admin.password, v.confirm) }) },
  );
}

/** Whether the step's fields pass, each failing one showing its message. */
export const stepPasses = (form: SetupForm, step: number): boolean =>
  (STEP_FIELDS[step] ?? []).map((f) => form.validateField(f).hasError).every((failed) => !failed);
