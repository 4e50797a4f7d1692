// The inbox page's "SMTP behaviour" form and "SMTP log" list (extensions section 8).
import { Badge, Button, Checkbox, Code, Group, NumberInput, Pagination, Paper, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import type { components } from "@burnbox/sdk";
import { useState } from "react";
import { ApiErrorAlert, EmptyState, Time, TableScroll } from "../../components";
import { keys, type Inbox, useSmtpLog, useUpdateSmtpBehaviour, type SmtpBehaviour } from "./api";

type SmtpAttempt = components["schemas"]["SmtpAttempt"];

interface FormState {
  reject: boolean;
  rejectCode: number | string;
  rejectMessage: string;
  defer: boolean;
  deferFirst: number | string;
  delay: boolean;
  delayMs: number | string;
  maxSize: boolean;
  maxSizeBytes: number | string;
}

function formOf(b: SmtpBehaviour | null | undefined): FormState {
  return {
    reject: b?.reject_rcpt != null,
    rejectCode: b?.reject_rcpt?.code ?? 550,
    rejectMessage: b?.reject_rcpt?.message ?? "",
    defer: b?.defer_first != null,
    deferFirst: b?.defer_first ?? 1,
    delay: b?.delay_ms != null,
    delayMs: b?.delay_ms ?? 1000,
    maxSize: b?.max_size_bytes != null,
    maxSizeBytes: b?.max_size_bytes ?? 1_000_000,
  };
}

/** NumberInput gives "" when empty: sent as is, so the API's 400 names the field. */
const num = (v: number | string): number => (typeof v === "number" ? v : Number.parseFloat(v));

function bodyOf(f: FormState): SmtpBehaviour | null {
  const b: SmtpBehaviour = {};
  if (f.reject) b.reject_rcpt = { code: num(f.rejectCode), message: f.rejectMessage };
  if (f.defer) b.defer_first = num(f.deferFirst);
  if (f.delay) b.delay_ms = num(f.delayMs);
  if (f.maxSize) b.max_size_bytes = num(f.maxSizeBytes);
  return Object.keys(b).length > 0 ? b : null;
}

/** The parts of the behaviour that take one whole number: the tick and the number of each in the form. */
const TOGGLED_NUMBERS: Array<
  { on: "defer" | "delay" | "maxSize"; value: "deferFirst" | "delayMs" | "maxSizeBytes" } & Pick<
    Parameters<typeof ToggledNumber>[0],
    "label" | "description" | "numberLabel" | "range" | "thousandSeparator" | "width"
  >
> = [
  {
    on: "defer",
    value: "deferFirst",
    label: "Defer the first attempts",
    description: "The first n attempts of each message get 451 after DATA, then it is accepted, as greylisting does.",
    numberLabel: "Attempts to defer",
    range: "1–10",
  },
  {
    on: "delay",
    value: "delayMs",
    label: "Delay the reply to DATA",
    description: "The sender waits this long after sending the message before it gets the final reply.",
    numberLabel: "Delay (ms)",
    range: "0–30000",
  },
  {
    on: "maxSize",
    value: "maxSizeBytes",
    label: "Limit the message size",
    description: "A larger message gets 552 after DATA (or at RCPT TO when SIZE= declares more).",
    numberLabel: "Maximum size (bytes)",
    range: "1 or more",
    thousandSeparator: " ",
    width: 240,
  },
];

/** One line per set field, or "Normal". */
function summaryOf(b: SmtpBehaviour | null | undefined): string[] {
  const out: string[] = [];
  if (b?.reject_rcpt) out.push(`RCPT TO refused: ${b.reject_rcpt.code} ${b.reject_rcpt.message}`);
  if (b?.defer_first != null) out.push(`First ${b.defer_first} attempt(s) of each message deferred (451)`);
  if (b?.delay_ms != null) out.push(`Reply to DATA held ${b.delay_ms} ms`);
  if (b?.max_size_bytes != null) out.push(`Messages over ${b.max_size_bytes} bytes refused (552)`);
  return out;
}

export function SmtpBehaviourSection({ inbox }: { inbox: Inbox }) {
  const current = (inbox as Inbox & { smtp_behaviour?: SmtpBehaviour | null }).smtp_behaviour ?? null;
  const [form, setForm] = useState<FormState>(() => formOf(current));
  const currentJson = JSON.stringify(current);
  // the stored behaviour changed (saved, reset, or read again): the form shows it
  const [shown, setShown] = useState(currentJson);
  if (shown !== currentJson) {
    setShown(currentJson);
    setForm(formOf(current));
  }
  const save = useUpdateSmtpBehaviour({ inboxId: inbox.id }, { invalidates: [keys.inbox(inbox.id), keys.lists()] });
  const set = <K extends keyof FormState>(k: K, v: FormState[K]) => setForm((f) => ({ ...f, [k]: v }));
  const summary = summaryOf(current);

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="smtp-behaviour-heading">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate(bodyOf(form));
        }}
      >
        <Stack gap="sm">
          <Title order={2} size="h4" id="smtp-behaviour-heading">
            SMTP behaviour
          </Title>
          <Text size="sm" c="dimmed">
            Make the SMTP intake misbehave for this inbox, to test how your sender copes. Each part is off unless ticked.
          </Text>
          <div data-testid="smtp-behaviour-current">
            {summary.length === 0 ? (
              <Text size="sm">
                <Badge variant="light" color="gray" mr="xs">
                  Normal
                </Badge>
                Mail is accepted as usual.
              </Text>
            ) : (
              <Stack gap={2}>
                <Badge variant="light" color="orange">
                  Misbehaving
                </Badge>
                {summary.map((s) => (
                  <Text size="sm" key={s}>
                    {s}
                  </Text>
                ))}
              </Stack>
            )}
          </div>

          <Checkbox
            label="Reject RCPT TO"
            description="The sender's RCPT TO for this inbox gets exactly this code and message; other recipients are unaffected."
            checked={form.reject}
            onChange={(e) => set("reject", e.currentTarget.checked)}
          />
          {form.reject ? (
            <Group align="flex-start" pl="xl">
              <NumberInput
                label="Reply code"
                description="450–599"
                value={form.rejectCode}
                onChange={(v) => set("rejectCode", v)}
                allowDecimal={false}
                w={140}
              />
              <TextInput
                label="Reply message"
                value={form.rejectMessage}
                onChange={(e) => set("rejectMessage", e.currentTarget.value)}
                style={{ flex: 1 }}
              />
            </Group>
          ) : null}

          {TOGGLED_NUMBERS.map(({ on, value, ...part }) => (
            <ToggledNumber
              key={on}
              {...part}
              checked={form[on]}
              onToggle={(checked) => set(on, checked)}
              value={form[value]}
              onChange={(v) => set(value, v)}
            />
          ))}

          <ApiErrorAlert error={save.error} />
          {save.isSuccess && !save.isPending ? (
            <Text size="sm" role="status">
              Saved.
            </Text>
          ) : null}
          <Group gap="xs">
            <Button type="submit" loading={save.isPending && save.variables !== null}>
              Save behaviour
            </Button>
            <Button
              variant="default"
              loading={save.isPending && save.variables === null}
              disabled={current === null}
              onClick={() => save.mutate(null)}
            >
              Reset to normal
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

export function SmtpLogSection({ inboxId }: { inboxId: string }) {
  const [page, setPage] = useState(1);
  const log = useSmtpLog({ inboxId, page }, { placeholderData: (prev) => prev });
  const data = log.data;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="smtp-log-heading">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4" id="smtp-log-heading">
            SMTP log
          </Title>
          <Button variant="subtle" size="xs" onClick={() => void log.refetch()} loading={log.isFetching}>
            Refresh log
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          Attempts this inbox's SMTP behaviour refused or deferred, newest first.
        </Text>
        <ApiErrorAlert error={log.error} />
        {data && data.data.length === 0 ? (
          <EmptyState title="No refused or deferred attempts">Attempts the behaviour answers with an error show here.</EmptyState>
        ) : null}
        {data && data.data.length > 0 ? (
          <TableScroll label="SMTP log" minWidth={640}>
            <Table verticalSpacing="xs" aria-label="SMTP log">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Time</Table.Th>
                  <Table.Th>MAIL FROM</Table.Th>
                  <Table.Th>RCPT TO</Table.Th>
                  <Table.Th>Code</Table.Th>
                  <Table.Th>Reply and transcript</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.data.map((a) => (
                  <AttemptRow key={a.id} attempt={a} />
                ))}
              </Table.Tbody>
            </Table>
          </TableScroll>
        ) : null}
        {data && data.total_pages > 1 ? (
          <Pagination
            total={data.total_pages}
            value={page}
            onChange={setPage}
            getControlProps={(c) => ({ "aria-label": c === "previous" ? "Previous log page" : c === "next" ? "Next log page" : c })}
            getItemProps={(p) => ({ "aria-label": `Log page ${p}` })}
          />
        ) : null}
      </Stack>
    </Paper>
  );
}

/** A part of the behaviour that is off unless ticked, with the one whole number it takes when on. */
function ToggledNumber(props: {
  label: string;
  description: string;
  checked: boolean;
  onToggle: (on: boolean) => void;
  numberLabel: string;
  /** the allowed values, in words (the number's description) */
  range: string;
  value: number | string;
  onChange: (value: number | string) => void;
  thousandSeparator?: string;
  width?: number;
}) {
  return (
    <>
      <Checkbox
        label={props.label}
        description={props.description}
        checked={props.checked}
        onChange={(e) => props.onToggle(e.currentTarget.checked)}
      />
      {props.checked ? (
        <NumberInput
          pl="xl"
          label={props.numberLabel}
          description={props.range}
          value={props.value}
          onChange={props.onChange}
          allowDecimal={false}
          thousandSeparator={props.thousandSeparator}
          w={props.width ?? 200}
        />
      ) : null}
    </>
  );
}

function AttemptRow({ attempt: a }: { attempt: SmtpAttempt }) {
  return (
    // a row opened to its transcript is tall: its other cells stay beside the reply, at the top
    <Table.Tr data-testid="smtp-attempt" style={{ verticalAlign: "top" }}>
      <Table.Td style={{ whiteSpace: "nowrap" }}>
        <Time value={a.at} />
      </Table.Td>
      <Table.Td style={{ overflowWrap: "anywhere" }}>{a.mail_from || "<>"}</Table.Td>
      <Table.Td style={{ overflowWrap: "anywhere" }}>{a.rcpt_to}</Table.Td>
      <Table.Td>{a.code}</Table.Td>
      <Table.Td>
        <Text size="sm" data-testid="smtp-attempt-reply">
          {a.reply}
        </Text>
        <details>
          <summary style={{ cursor: "pointer", fontSize: "var(--mantine-font-size-sm)" }}>Transcript</summary>
          <Text size="xs" c="dimmed">
            From {a.transcript.client_ip}
            {a.transcript.helo ? ` (HELO ${a.transcript.helo})` : ""}
            {a.transcript.tls ? ", TLS" : ", no TLS"}
            {a.message_id ? `, Message-ID ${a.message_id}` : ""}
          </Text>
          <Code block data-testid="smtp-transcript">
            {a.transcript.lines.map((l) => `${l.dir === "c" ? "C:" : "S:"} ${l.text}`).join("\n")}
          </Code>
        </details>
      </Table.Td>
    </Table.Tr>
  );
}
