module.exports = { ...require("../jest.preset.js"), testTimeout: 120_000 };
