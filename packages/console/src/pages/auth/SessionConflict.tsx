import { Alert, Button, Radio, Stack, Text, Title } from "@mantine/core";
import { useState } from "react";
import { BurnBoxError, type AuthResult } from "@burnbox/sdk";
import { ApiErrorAlert, Time } from "../../components";
import { describeAgent } from "../../lib/user-agent";
import { type SessionEntry, type SessionLimitConflict, useAuthCalls } from "./api";

export interface Conflict {
  pendingToken: string;
  sessions: SessionEntry[];
  limit: number;
}

export const conflictOf = (body: SessionLimitConflict): Conflict => ({
  pendingToken: body.pending_token,
  sessions: body.sessions,
  limit: body.limit,
});

/** The session limit was met: the user picks a session to end, then the login completes (`POST /auth/login/resolve`). */
export function SessionConflict({
  conflict,
  onSignedIn,
  onCancel,
}: {
  conflict: Conflict;
  onSignedIn: (r: AuthResult) => void;
  onCancel: () => void;
}) {
  const auth = useAuthCalls();
  const [current, setCurrent] = useState(conflict);
  const [chosen, setChosen] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const resolve = async () => {
    if (!chosen) return;
    setBusy(true);
    setError(null);
    try {
      const body = { pending_token: current.pendingToken, revoke_session_id: chosen, use_cookie: true };
      onSignedIn(await auth.resolveLogin(body));
    } catch (e) {
      // still over the limit (another sign-in raced this one): the fresh list and token come with the 409
      if (e instanceof BurnBoxError && e.code === "session_limit") {
        setCurrent(conflictOf(e.body as SessionLimitConflict));
        setChosen(null);
      }
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack>
      <Title order={1} size="h3">
        Too many sessions
      </Title>
      <Alert color="yellow" variant="light">
        You are signed in on {current.sessions.length} devices and the limit is {current.limit}. Choose a session to end to sign in here.
      </Alert>
      <ApiErrorAlert error={error} />
      <Radio.Group label="Session to end" value={chosen} onChange={setChosen} required>
        <Stack gap="sm" mt="xs">
          {current.sessions.map((s) => (
            <Radio
              key={s.id}
              value={s.id}
              label={describeAgent(s.user_agent)}
              description={
                <Text span size="xs">
                  {s.ip_address} · last used <Time value={s.last_used_at} />
                </Text>
              }
            />
          ))}
        </Stack>
      </Radio.Group>
      <Button onClick={() => void resolve()} disabled={!chosen} loading={busy}>
        End that session and sign in
      </Button>
      <Button variant="subtle" onClick={onCancel}>
        Cancel
      </Button>
    </Stack>
  );
}
