// The gate moved to the shared components (the snapshots area uses it too).
export { TeamGate, type TeamScope } from "../../components/TeamGate";
