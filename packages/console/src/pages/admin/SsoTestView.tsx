import { Alert, List, Text } from "@mantine/core";
import type { components } from "@burnbox/sdk";

type SsoTestResult = components["schemas"]["SsoTestResult"];

/** The answer of `POST /admin/sso/test`: passed or failed, why, and the endpoints the discovery document named. */
export function SsoTestView({ result }: { result: SsoTestResult | undefined }) {
  if (!result) return null;
  const endpoints = [
    ["Authorization", result.endpoints.authorization],
    ["Token", result.endpoints.token],
    ["Keys (JWKS)", result.endpoints.jwks],
  ] as const;
  return (
    <Alert
      role="status"
      variant="light"
      color={result.success ? "green" : "red"}
      title={result.success ? "Provider test passed" : "Provider test failed"}
    >
      <Text size="sm">{result.message}</Text>
      {result.issuer && <Text size="sm">Issuer: {result.issuer}</Text>}
      {result.success && (
        <List size="sm" mt={4}>
          {endpoints.map(([label, url]) => (
            <List.Item key={label}>
              {label}: {url ?? "—"}
            </List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}
