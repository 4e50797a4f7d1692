import { Button, Collapse, Group, Paper, Select, SimpleGrid, TextInput } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { IconAdjustmentsHorizontal, IconFilter, IconFilterOff } from "@tabler/icons-react";
import { useState, type ReactNode } from "react";
import { ListAuditQuery } from "@burnbox/contracts/src/tenancy/audit.schemas";
import { useContractForm } from "../../lib/contract-form";
import {
  apiFilters,
  AUDIT_CATEGORIES,
  AUDIT_SEVERITIES,
  categoryLabel,
  localInputToRfc3339,
  rfc3339ToLocalInput,
  type AuditFilterName,
  type AuditFilters,
} from "./format";

const TEXT_FIELDS: Array<{ name: AuditFilterName; label: string; placeholder: string; description?: string }> = [
  { name: "action", label: "Action", placeholder: "inbox.created" },
  { name: "actor_email", label: "Actor email", placeholder: "someone@example.com" },
  { name: "actor_id", label: "Actor id", placeholder: "a user's UUID" },
  { name: "resource_type", label: "Target type", placeholder: "inbox" },
  { name: "resource_id", label: "Target id", placeholder: "the record's id" },
];

/** The window's ends, in the browser's time. */
const DATE_FIELDS: Array<{ name: "date_from" | "date_to"; label: string }> = [
  { name: "date_from", label: "From" },
  { name: "date_to", label: "To" },
];

/** The form's dates (the browser's wall clock) as the API takes them. */
const toApi = (d: AuditFilters): AuditFilters => ({
  ...d,
  date_from: localInputToRfc3339(d.date_from ?? ""),
  date_to: localInputToRfc3339(d.date_to ?? ""),
});

/**
 * Every filter of the contract (`action, category, severity, actor_id, actor_email, resource_type,
 * resource_id, date_from, date_to`). The choices from a list apply at once; typed ones on "Apply
 * filters" (or Enter). The dates are entered in the browser's time and sent as RFC 3339 (UTC).
 */
export function AuditFiltersForm({
  filters,
  onApply,
  actions,
}: {
  filters: AuditFilters;
  onApply: (filters: AuditFilters) => void;
  actions?: ReactNode;
}) {
  // the list's query checks the filters: what the API would refuse shows under its field, and nothing is applied
  const form = useContractForm<AuditFilters>(
    ListAuditQuery,
    { ...filters, date_from: rfc3339ToLocalInput(filters.date_from), date_to: rfc3339ToLocalInput(filters.date_to) },
    { toBody: (d) => apiFilters(toApi(d)) },
  );
  const draft = form.values;
  const set = (name: AuditFilterName, value: string | null) => form.setFieldValue(name, value ?? "");
  const choose = (name: "category" | "severity", value: string | null) => {
    set(name, value);
    const next = { ...form.getValues(), [name]: value ?? "" };
    if (!form.validate().hasErrors) onApply(toApi(next));
  };
  const active = Object.values(filters).filter(Boolean).length;
  const any = active > 0;
  // on a phone the filters fold away under a button, so the rows come first
  const narrow = useMediaQuery("(max-width: 36em)", false, { getInitialValueInEffect: false });
  const [open, setOpen] = useState<boolean | null>(null);
  const shown = open ?? !narrow;

  return (
    <Paper withBorder p="sm" radius="md" component="form" onSubmit={form.onSubmit((d) => onApply(toApi(d)))} aria-label="Audit filters">
      {narrow && (
        <Group justify="space-between" wrap="wrap" gap="sm" mb={shown ? "sm" : 0}>
          <Button
            variant="default"
            size="sm"
            leftSection={<IconAdjustmentsHorizontal size={16} />}
            aria-expanded={shown}
            onClick={() => setOpen(!shown)}
          >
            {shown ? "Hide filters" : any ? `Filters (${active})` : "Filters"}
          </Button>
          {actions}
        </Group>
      )}
      <Collapse expanded={shown}>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 4 }} spacing="sm" verticalSpacing="xs">
          <Select
            label="Category"
            placeholder="Any category"
            clearable
            data={AUDIT_CATEGORIES.map((c) => ({ value: c, label: categoryLabel(c) }))}
            value={draft.category || null}
            onChange={(v) => choose("category", v)}
            size="sm"
          />
          <Select
            label="Severity"
            placeholder="Any severity"
            clearable
            data={AUDIT_SEVERITIES.map((s) => ({ value: s, label: s.charAt(0).toUpperCase() + s.slice(1) }))}
            value={draft.severity || null}
            onChange={(v) => choose("severity", v)}
            size="sm"
          />
          {TEXT_FIELDS.map((f) => (
            <TextInput
              key={f.name}
              label={f.label}
              placeholder={f.placeholder}
              value={draft[f.name] ?? ""}
              error={form.errors[f.name]}
              onChange={(e) => set(f.name, e.currentTarget.value.trim() === "" ? "" : e.currentTarget.value)}
              size="sm"
            />
          ))}
          {DATE_FIELDS.map((f) => (
            <TextInput
              key={f.name}
              type="datetime-local"
              label={f.label}
              value={draft[f.name] ?? ""}
              error={form.errors[f.name]}
              onChange={(e) => set(f.name, e.currentTarget.value)}
              size="sm"
            />
          ))}
        </SimpleGrid>
        <Group justify="space-between" mt="sm" wrap="wrap">
          <Group gap="sm">
            <Button type="submit" size="sm" leftSection={<IconFilter size={16} />}>
              Apply filters
            </Button>
            <Button variant="default" size="sm" leftSection={<IconFilterOff size={16} />} disabled={!any} onClick={() => onApply({})}>
              Clear filters
            </Button>
          </Group>
          {!narrow && actions}
        </Group>
      </Collapse>
    </Paper>
  );
}
