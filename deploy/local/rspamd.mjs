// The private rspamd of `npm start`: one implementation for it and the end-to-end tests, in
// rspamd.cjs (see there).
export { RSPAMD_BINARY, rspamdInstalled, startRspamd, stopRspamd } from "./rspamd.cjs";
