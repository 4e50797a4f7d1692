import { Alert, Anchor, createTheme, type CSSVariablesResolver, type MantineColorsTuple } from "@mantine/core";

/**
 * An orange whose working shades keep text readable (WCAG AA, 4.5:1): white on the filled shade
 * (7), and the shade itself as text on white. Mantine's own orange is too light for both.
 */
const ember: MantineColorsTuple = [
  "#fff7ed",
  "#ffedd5",
  "#fed7aa",
  "#fdba74",
  "#fb923c",
  "#f97316",
  "#ea580c",
  "#c2410c",
  "#9a3412",
  "#7c2d12",
];

export const theme = createTheme({
  colors: { ember },
  primaryColor: "ember",
  primaryShade: { light: 7, dark: 7 },
  autoContrast: true,
  defaultRadius: "md",
  fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
  components: {
    // a link inside a sentence must not be told apart by colour alone
    Anchor: Anchor.extend({ defaultProps: { underline: "always" } }),
    // the light alerts' coloured titles fall short of 4.5:1 on their tinted background: the icon carries the colour
    Alert: Alert.extend({ styles: { title: { color: "var(--mantine-color-text)" } } }),
  },
});

/** "Dimmed" text dark enough (light) and light enough (dark) for 4.5:1 on the page background. */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: { "--mantine-color-dimmed": t.colors.gray[7]! },
  dark: { "--mantine-color-dimmed": t.colors.dark[1]! },
});
