// The shared query of the user's time settings, as the shared <Time> and the pages read it.
import { accountKeys } from "./keys";
import { apiQuery } from "./query";

/** `GET /auth/datetime-settings`: the user's timezone and formats. */
export const useDatetimeSettingsQuery = apiQuery(accountKeys.datetime(), (bb, signal) => bb.api.GET("/auth/datetime-settings", { signal }));
