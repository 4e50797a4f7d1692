import { Anchor, Badge, Code, Group, Paper, Stack, Text, Title } from "@mantine/core";
import type { Email } from "../api";
import { CopyButton } from "../../../components";
import { LinkCheckView } from "./LinkCheckView";

const KIND_LABEL: Record<string, string> = {
  verify: "Verify",
  reset: "Password reset",
  magic_link: "Sign-in link",
  unsubscribe: "Unsubscribe",
  other: "Link",
};

/** The one-time codes and links found when the mail was received (extensions section 2), each with a copy button. */
export function ExtractedView({ emailId, extracted }: { emailId: string; extracted: Email["extracted"] }) {
  return (
    <Stack gap="lg">
      <section aria-labelledby="codes-title">
        <Title order={3} size="h5" id="codes-title" mb="xs">
          Codes
        </Title>
        {extracted.codes.length === 0 ? (
          <Text size="sm" c="dimmed">
            No one-time code was found: a code is 4–10 digits (or capitals with a digit) next to a word such as “code”, “PIN” or
            “verification”.
          </Text>
        ) : (
          <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: "none" }}>
            {extracted.codes.map((c) => (
              <Paper component="li" withBorder p="xs" key={c.value} data-testid="code">
                <Group gap="xs" wrap="nowrap">
                  <Code fz="lg" fw={700} style={{ letterSpacing: 2 }} data-testid="code-value">
                    {c.value}
                  </Code>
                  <CopyButton value={c.value} label={`Copy the code ${c.value}`} />
                </Group>
                <Text size="xs" c="dimmed" mt={4} style={{ overflowWrap: "anywhere" }}>
                  “{c.context}”
                </Text>
              </Paper>
            ))}
          </Stack>
        )}
      </section>
      <section aria-labelledby="links-title">
        <Title order={3} size="h5" id="links-title" mb="xs">
          Links
        </Title>
        {extracted.links.length === 0 ? (
          <Text size="sm" c="dimmed">
            This mail holds no http or https link.
          </Text>
        ) : (
          <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: "none" }}>
            {extracted.links.map((l) => (
              <Paper component="li" withBorder p="xs" key={l.url} data-testid="link">
                <Group gap="xs" wrap="nowrap" align="flex-start">
                  <Badge
                    variant="light"
                    color={l.kind === "unsubscribe" ? "gray" : l.kind === "other" ? "blue" : "grape"}
                    style={{ flex: "none" }}
                  >
                    {KIND_LABEL[l.kind] ?? l.kind}
                  </Badge>
                  <div style={{ minWidth: 0, flex: 1 }}>
                    {l.text ? (
                      <Text size="sm" fw={600}>
                        {l.text}
                      </Text>
                    ) : null}
                    {/^https?:\/\//i.test(l.url) ? (
                      <Anchor href={l.url} target="_blank" rel="noopener noreferrer" size="xs" style={{ overflowWrap: "anywhere" }}>
                        {l.url}
                      </Anchor>
                    ) : (
                      <Text size="xs" style={{ overflowWrap: "anywhere" }}>
                        {l.url}
                      </Text>
                    )}
                  </div>
                  <CopyButton value={l.url} label="Copy the link" />
                </Group>
              </Paper>
            ))}
          </Stack>
        )}
        {extracted.links.length > 0 ? (
          <div style={{ marginTop: "var(--mantine-spacing-sm)" }}>
            <LinkCheckView emailId={emailId} />
          </div>
        ) : null}
      </section>
    </Stack>
  );
}
