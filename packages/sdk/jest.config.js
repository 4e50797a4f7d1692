// The sources are ESM with `.js` specifiers (as Node needs them); jest runs them through swc as
// CommonJS and maps the specifiers back to the .ts files.
import preset from "../../jest.preset.js";

/** @type {import('jest').Config} */
export default {
  ...preset,
  moduleNameMapper: { "^(\\.{1,2}/.*)\\.js$": "$1" },
};
