// One system for the whole run: globalSetup starts it (from the compiled services, see
// deploy/local/build.mjs), globalTeardown stops it. Run the files in band (`--runInBand`, as
// `npm test` does): they share the system, and one of them restarts a process.
module.exports = {
  ...require("../jest.preset.js"),
  testTimeout: 120_000,
  globalSetup: "<rootDir>/src/global-setup.ts",
  globalTeardown: "<rootDir>/src/global-teardown.ts",
};
