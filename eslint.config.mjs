// typescript-eslint with type information over every package; prettier owns formatting.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/** The kit's root entry re-exports every subpath for now; code imports the subpath it needs. */
const KIT_ROOT = {
  name: "@burnbox/service-kit",
  message: "import from the kit's subpath (@burnbox/service-kit/http, /messaging, /data, /security, /runtime or /telemetry)",
};

/**
 * The console's layers (packages/console/README.md, "Layout"): an area under src/pages/<area>/ imports
 * its own files and the shared layers (src/components, src/lib, src/api, src/app), never another
 * area; the shared layers import neither the app shell (src/app) nor an area. Imports are relative,
 * so each depth of folder gets the patterns that leave it.
 */
function consoleBoundaries() {
  const src = "packages/console/src";
  const AREA =
    "an area imports only its own files and the shared layers (components/, lib/, api/, app/): move what two areas use to components/ or lib/";
  const SHARED = "components/, lib/ and api/ are shared layers: they import neither the app shell (app/) nor an area (pages/)";
  const DATA = "an area's pages and hooks call the API through its api.ts (query and mutation hooks over the SDK), not api/query's client";
  const up = (n) => "\\.\\./".repeat(n);
  const area = (depth, dataModule = false) => ({
    // pages/<area>/x.ts is depth 1, pages/<area>/<sub>/x.ts depth 2: `depth` times ../ reaches pages/
    files: dataModule ? [`${src}/pages/*/api.ts`] : [`${src}/pages/*/${"*/".repeat(depth - 1)}*.{ts,tsx}`],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [KIT_ROOT],
          patterns: [
            { regex: `^${up(depth)}(?!\\.\\./)`, message: AREA },
            { regex: `^${up(depth + 1)}pages(/|$)`, message: AREA },
            // the SDK client (useApi) and the query helpers are for the area's api.ts alone
            ...(dataModule ? [] : [{ regex: `^${up(depth + 1)}api/query$`, message: DATA }]),
          ],
        },
      ],
    },
  });
  return [
    area(1),
    area(2),
    area(1, true),
    {
      files: [`${src}/{components,lib,api}/**/*.{ts,tsx}`],
      rules: {
        "no-restricted-imports": ["error", { paths: [KIT_ROOT], patterns: [{ regex: "^(\\.\\./)+(app|pages)(/|$)", message: SHARED }] }],
      },
    },
  ];
}

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
      "**/*.cjs",
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
      "services/*/src/mailbox-main.ts",
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
  ...consoleBoundaries(),
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
