// The sources are ESM with `.js` specifiers; jest runs them through swc as CommonJS, maps the
// specifiers back to the .ts files, and takes the SDK from its sources (no build needed).
import preset from "../../jest.preset.js";

/** @type {import('jest').Config} */
export default {
  ...preset,
  moduleNameMapper: {
    "^@burnbox/sdk$": "<rootDir>/../sdk/src/index.ts",
    "^(\\.{1,2}/.*)\\.js$": "$1",
  },
};
