import { startSharedSystem } from "./shared-system";

export default startSharedSystem;
