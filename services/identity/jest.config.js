// openid-client and its dependencies (oauth4webapi, jose) ship ES modules only: jest's CommonJS
// runtime cannot require them, so @swc/jest compiles them too (the dist bundle requires them natively).
const preset = require("../../jest.preset.js");
module.exports = {
  ...preset,
  transformIgnorePatterns: ["/node_modules/(?!(\\.pnpm/[^/]+/node_modules/)?(openid-client|oauth4webapi|jose)/)"],
};
