import { stopSharedSystem } from "./shared-system";

export default stopSharedSystem;
