// Shared jest settings: @swc/jest strips types (tsc --noEmit checks them as its own step).
// Unit tests: src/**/*.spec.ts. Integration: test/**/*.int.spec.ts. End to end: *.e2e.spec.ts.
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  transform: { "^.+\\.(t|j)sx?$": ["@swc/jest", { jsc: { target: "es2022" } }] },
  testMatch: ["<rootDir>/src/**/*.spec.ts", "<rootDir>/test/**/*.spec.ts"],
  testPathIgnorePatterns: ["/node_modules/", "/generated/"],
  testTimeout: 30_000,
  clearMocks: true,
};
