// The notifications area (console-team builds it out): the list; the header's bell is Bell.tsx.
import { defineArea } from "../../app/area";

export default defineArea({ id: "notifications" });
