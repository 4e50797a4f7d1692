import { Alert, Button, Checkbox, Group, Select, Stack, Text, TextInput } from "@mantine/core";
import { useEffect, useMemo } from "react";
import { useCreateInbox, type Inbox, type MyDomain } from "./api";
import { humanDuration, parseDuration, ttlPresets } from "../../lib/duration";
import { useContractForm } from "../../lib/contract-form";
import { lazySchema } from "../../lib/lazy-schema";
import { useMissingDomainHelp } from "./MissingDomain";
import { ApiError } from "../../components";

const ALIAS = /^[a-z0-9][a-z0-9._-]{0,62}[a-z0-9]$/;
const CUSTOM = "custom";

// the inbox list is the first signed-in page: zod comes with the schema, after the list has painted
const createInboxBody = lazySchema(() => import("@burnbox/contracts/src/inbox/inboxes.schemas").then((m) => m.CreateInboxBody));

interface Values extends Record<string, unknown> {
  domain_assignment_id: string | null;
  alias: string;
  /** a preset duration, `custom`, or "" for the default */
  ttl_choice: string;
  /** the custom duration typed */
  ttl: string;
  private: boolean;
}

/** The TTL the form asks for: the preset chosen, the custom one typed, or "" (the default). */
const ttlOf = (v: Values) => (v.ttl_choice === CUSTOM ? v.ttl.trim() : v.ttl_choice);

/** `POST /inboxes`: the alias, TTL and privacy only when given. */
const bodyOf = (v: Values) => {
  const ttl = ttlOf(v);
  return {
    domain_assignment_id: v.domain_assignment_id ?? "",
    ...(v.alias ? { alias: v.alias } : {}),
    ...(ttl ? { ttl } : {}),
    ...(v.private ? { private: true } : {}),
  };
};

/** The create form: a domain of the caller's teams, an optional alias, a TTL within the cascade's bounds. */
export function CreateInboxForm({
  domains,
  preferTeamId,
  onCreated,
}: {
  domains: MyDomain[];
  /** The team chosen in the header: its first domain is preselected. */
  preferTeamId?: string;
  onCreated: (inbox: Inbox) => void;
}) {
  const usable = useMemo(() => domains.filter((d) => d.access_level !== "read_only"), [domains]);
  const bounds = (id: string | null) => {
    const assignment = usable.find((d) => d.id === id);
    return {
      assignment,
      maxMs: assignment ? (parseDuration(assignment.max_ttl) ?? 86_400_000) : 86_400_000,
      defaultMs: assignment ? (parseDuration(assignment.default_ttl) ?? 600_000) : 600_000,
    };
  };
  const form = useContractForm<Values>(
    createInboxBody.schema,
    {
      domain_assignment_id: (usable.find((d) => d.team_id === preferTeamId) ?? usable[0])?.id ?? null,
      alias: "",
      ttl_choice: "",
      ttl: "",
      private: false,
    },
    {
      toBody: bodyOf,
      validateInputOnChange: ["alias", "ttl"],
      rules: (v) => {
        const { maxMs, defaultMs } = bounds(v.domain_assignment_id);
        const ttl = ttlOf(v);
        const ttlMs = ttl === "" ? defaultMs : parseDuration(ttl);
        return {
          alias:
            v.alias !== "" && !ALIAS.test(v.alias)
              ? "2 to 64 of a–z, 0–9, dot, dash, underscore; starts and ends with a letter or digit"
              : undefined,
          ttl:
            v.ttl_choice === CUSTOM && v.ttl.trim() !== ""
              ? ttlMs === null
                ? "A duration such as 90s, 15m, 2h or 1h30m"
                : ttlMs <= 0
                  ? "Must be more than 0"
                  : ttlMs > maxMs
                    ? `At most ${humanDuration(maxMs)} on this domain`
                    : undefined
              : undefined,
        };
      },
    },
  );
  const create = useCreateInbox();
  useEffect(() => void createInboxBody.ready(), []);

  const { assignment, maxMs, defaultMs } = bounds(form.values.domain_assignment_id);
  if (usable.length === 0) return <NoUsableDomain />;

  const submit = (v: Values) => {
    // a custom TTL left empty is not sent as the default
    if (v.ttl_choice === CUSTOM && v.ttl.trim() === "") return;
    create.mutate(bodyOf(v), { onSuccess: onCreated });
  };

  return (
    <form onSubmit={createInboxBody.submit(form.onSubmit(submit))} noValidate aria-label="Create an inbox">
      <Stack gap="sm">
        <Select
          label="Domain"
          description="The domains assigned to your teams"
          data={groupByTeam(usable)}
          {...form.getInputProps("domain_assignment_id")}
          onChange={(v: string | null) => {
            form.setFieldValue("domain_assignment_id", v);
            form.setFieldValue("ttl_choice", "");
          }}
          allowDeselect={false}
          required
          comboboxProps={{ withinPortal: true }}
        />
        <TextInput
          label="Alias"
          description="The part before the @; leave it empty for a random one"
          placeholder="signup-test"
          {...form.getInputProps("alias")}
          onChange={(e) => form.setFieldValue("alias", e.currentTarget.value.toLowerCase())}
          rightSection={
            assignment ? (
              <Text size="xs" c="dimmed" pr="xs">
                @{assignment.domain_name}
              </Text>
            ) : null
          }
          rightSectionWidth={assignment ? Math.min(220, 16 + assignment.domain_name.length * 7) : undefined}
          autoComplete="off"
          spellCheck={false}
        />
        <Select
          label="Time to live"
          description={`Default ${humanDuration(defaultMs)}, at most ${humanDuration(maxMs)} (your organization's, domain's and team's settings)`}
          data={[{ value: "", label: `Default (${humanDuration(defaultMs)})` }, ...ttlPresets(maxMs), { value: CUSTOM, label: "Custom…" }]}
          {...form.getInputProps("ttl_choice")}
          onChange={(v: string | null) => form.setFieldValue("ttl_choice", v ?? "")}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
        />
        {form.values.ttl_choice === CUSTOM ? (
          <TextInput label="Custom time to live" placeholder="45m" {...form.getInputProps("ttl")} autoComplete="off" required />
        ) : null}
        <Checkbox label="Private: only I can see it" {...form.getInputProps("private", { type: "checkbox" })} />
        <ApiError error={create.error} title="The inbox was not created" />
        <Group justify="flex-end">
          <Button type="submit" loading={create.isPending}>
            Create inbox
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function groupByTeam(domains: MyDomain[]) {
  const groups = new Map<string, Array<{ value: string; label: string }>>();
  for (const d of domains) {
    const items = groups.get(d.team_name) ?? [];
    items.push({ value: d.id, label: d.domain_name });
    groups.set(d.team_name, items);
  }
  return [...groups].map(([group, items]) => ({ group: `Team ${group}`, items }));
}

/** None of the user's teams may create inboxes on a domain: what to do, or whom to ask. */
function NoUsableDomain() {
  const missing = useMissingDomainHelp();
  return (
    <Alert color="yellow" title="No domain to create inboxes on">
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{missing.text}</Text>
        {missing.action}
      </Stack>
    </Alert>
  );
}
