import { Alert, Button, Checkbox, Group, Select, Stack, Text, TextInput } from "@mantine/core";
import { useMemo, useState, type FormEvent } from "react";
import { useCreateInbox, type Inbox, type MyDomain } from "./api";
import { humanDuration, parseDuration, ttlPresets } from "../../lib/duration";
import { useMissingDomainHelp } from "./MissingDomain";
import { ApiError } from "../../components";

const ALIAS = /^[a-z0-9][a-z0-9._-]{0,62}[a-z0-9]$/;
const CUSTOM = "custom";

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
  const [assignmentId, setAssignmentId] = useState<string | null>(
    (usable.find((d) => d.team_id === preferTeamId) ?? usable[0])?.id ?? null,
  );
  const [alias, setAlias] = useState("");
  const [ttlChoice, setTtlChoice] = useState<string | null>(null); // null: the default
  const [customTtl, setCustomTtl] = useState("");
  const [isPrivate, setIsPrivate] = useState(false);
  const create = useCreateInbox();

  const assignment = usable.find((d) => d.id === assignmentId);
  const maxMs = assignment ? (parseDuration(assignment.max_ttl) ?? 86_400_000) : 86_400_000;
  const defaultMs = assignment ? (parseDuration(assignment.default_ttl) ?? 600_000) : 600_000;

  const aliasError =
    alias !== "" && !ALIAS.test(alias) ? "2 to 64 of a–z, 0–9, dot, dash, underscore; starts and ends with a letter or digit" : null;
  const ttl = ttlChoice === CUSTOM ? customTtl.trim() : (ttlChoice ?? "");
  const ttlMs = ttl === "" ? defaultMs : parseDuration(ttl);
  const ttlError =
    ttlChoice === CUSTOM && customTtl.trim() !== ""
      ? ttlMs === null
        ? "A duration such as 90s, 15m, 2h or 1h30m"
        : ttlMs <= 0
          ? "Must be more than 0"
          : ttlMs > maxMs
            ? `At most ${humanDuration(maxMs)} on this domain`
            : null
      : null;

  if (usable.length === 0) return <NoUsableDomain />;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!assignmentId || aliasError || ttlError || (ttlChoice === CUSTOM && customTtl.trim() === "")) return;
    create.mutate(
      { domain_assignment_id: assignmentId, ...(alias ? { alias } : {}), ...(ttl ? { ttl } : {}), ...(isPrivate ? { private: true } : {}) },
      { onSuccess: onCreated },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Create an inbox">
      <Stack gap="sm">
        <Select
          label="Domain"
          description="The domains assigned to your teams"
          data={groupByTeam(usable)}
          value={assignmentId}
          onChange={(v) => {
            setAssignmentId(v);
            setTtlChoice(null);
          }}
          allowDeselect={false}
          required
          comboboxProps={{ withinPortal: true }}
        />
        <TextInput
          label="Alias"
          description="The part before the @; leave it empty for a random one"
          placeholder="signup-test"
          value={alias}
          onChange={(e) => setAlias(e.currentTarget.value.toLowerCase())}
          error={aliasError}
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
          value={ttlChoice ?? ""}
          onChange={(v) => setTtlChoice(v === "" ? null : v)}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
        />
        {ttlChoice === CUSTOM ? (
          <TextInput
            label="Custom time to live"
            placeholder="45m"
            value={customTtl}
            onChange={(e) => setCustomTtl(e.currentTarget.value)}
            error={ttlError}
            autoComplete="off"
            required
          />
        ) : null}
        <Checkbox label="Private: only I can see it" checked={isPrivate} onChange={(e) => setIsPrivate(e.currentTarget.checked)} />
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
