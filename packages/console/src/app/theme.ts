import { createTheme } from "@mantine/core";

export const theme = createTheme({
  primaryColor: "orange",
  // orange-7 and up keeps white text readable (WCAG AA) on filled buttons
  primaryShade: { light: 7, dark: 8 },
  defaultRadius: "md",
  fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
});
