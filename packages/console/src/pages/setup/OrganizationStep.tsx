import { Stack, TextInput } from "@mantine/core";
import type { FormEvent } from "react";
import { ApiErrorAlert } from "../../components";
import { StepButtons } from "./StepButtons";

export interface FirstOrg {
  org: string;
  team: string;
  domain: string;
}

/** Step 3: the first org, with an optional first team and domain. */
export function OrganizationStep({
  org,
  setOrg,
  error,
  next,
  back,
}: {
  org: FirstOrg;
  setOrg: (org: FirstOrg) => void;
  error: unknown;
  next: (e: FormEvent) => void;
  back: () => void;
}) {
  return (
    <form onSubmit={next}>
      <Stack mt="md">
        <ApiErrorAlert error={error} />
        <TextInput label="Organization name" required value={org.org} onChange={(e) => setOrg({ ...org, org: e.currentTarget.value })} />
        <TextInput
          label="First team (optional)"
          description="Inboxes, API keys and webhooks belong to a team."
          value={org.team}
          onChange={(e) => setOrg({ ...org, team: e.currentTarget.value })}
        />
        <TextInput
          label="First domain (optional)"
          description="The domain inboxes get their addresses on, e.g. mail.example.com. You verify it with DNS records afterwards."
          value={org.domain}
          onChange={(e) => setOrg({ ...org, domain: e.currentTarget.value })}
        />
        <StepButtons onBack={back} />
      </Stack>
    </form>
  );
}
