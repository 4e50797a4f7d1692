// Unit tests of the console's plain modules (formatting, link rules): src/**/*.spec.ts through swc.
// Pages are tested in a real browser instead (tests-e2e/src/console-*.e2e.spec.ts).
import preset from "../../jest.preset.js";

/** @type {import('jest').Config} */
export default { ...preset };
