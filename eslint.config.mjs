// typescript-eslint with type information over every package; prettier owns formatting.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/** The kit's root entry re-exports every subpath for now; code imports the subpath it needs. */
const KIT_ROOT = {
  name: "@burnbox/service-kit",
  message: "import from the kit's subpath (@burnbox/service-kit/http, /messaging, /data, /security, /runtime or /telemetry)",
};

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/src/generated/**",
      "**/dist/**",
      ".test-results/**",
      ".data/**",
      "**/*.js",
      "**/*.mjs",
      "**/prisma.config.ts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
      // express 5 awaits async handlers and routes their rejections to the error handler
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { arguments: false } }],
      "@typescript-eslint/only-throw-error": "error",
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/switch-exhaustiveness-check": ["error", { considerDefaultExhaustiveForUnions: true }],
      // configuration is read once, in config loading; everything else receives a typed config
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "read configuration in config.ts / main.ts and pass it in" },
      ],
    },
  },
  {
    // the places that load configuration (and tooling that is not a service)
    files: [
      "services/*/src/main.ts",
      "services/*/src/smtp-main.ts",
      "services/*/src/migrate.ts",
      "services/*/src/config.ts",
      "services/*/prisma.config.ts",
      "packages/test-kit/src/**/*.ts",
      "packages/cli/src/cli.ts",
      "packages/mcp/src/main.ts",
      "packages/playwright/src/env.ts",
      "examples/env.ts",
      "packages/console/vite.config.ts",
      "tests-e2e/**/*.ts",
      "bench/**/*.ts",
    ],
    rules: { "no-restricted-properties": "off" },
  },
  {
    // the kit is imported by its subpaths (/http, /messaging, /data, /security, /runtime, /telemetry)
    files: ["services/**/*.ts", "tests-e2e/**/*.ts", "bench/**/*.ts", "packages/*/src/**/*.ts", "packages/*/test/**/*.ts"],
    ignores: ["packages/service-kit/**"],
    rules: { "no-restricted-imports": ["error", { paths: [KIT_ROOT] }] },
  },
  {
    // domain/ is rules and use cases: code that talks to the network or disk lives in src/adapters/
    // (docs/service-layout.md, "Adapters")
    files: ["services/*/src/domain/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          // exact names (a pattern "http" would also refuse "@burnbox/service-kit/http")
          paths: [
            ...[...["net", "tls", "dgram", "dns", "http", "https", "http2", "fs"].flatMap((m) => [m, `node:${m}`])].map((name) => ({
              name,
              message: "network and disk access belongs in src/adapters/ (docs/service-layout.md)",
            })),
            KIT_ROOT,
          ],
          patterns: [
            {
              group: ["dns/*", "node:dns/*", "fs/*", "node:fs/*"],
              message: "network and disk access belongs in src/adapters/ (docs/service-layout.md)",
            },
            {
              group: ["@aws-sdk/*", "nodemailer", "openid-client", "ws", "smtp-server", "undici"],
              message: "SDK and socket clients belong in src/adapters/ (docs/service-layout.md)",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["**/*.spec.ts", "**/*.test.ts", "**/*.type-test.ts", "**/test/**/*.ts", "tests-e2e/**/*.ts", "bench/**/*.ts"],
    rules: {
      "@typescript-eslint/no-non-null-assertion": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/require-await": "off",
    },
  },
  {
    // type tests hold deliberate type errors under @ts-expect-error
    files: ["**/*.type-test.ts"],
    rules: { "@typescript-eslint/no-unsafe-return": "off" },
  },
);
