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

/**
 * Text of the "light", "outline" and "subtle" variants (badges, secondary buttons) and "dimmed"
 * text at 4.5:1 or better on their backgrounds in both schemes: Mantine's defaults (shade 6 on
 * a tint in light mode, shade 8 outlines) fall short for green, yellow, red and the rest.
 */
export const cssVariablesResolver: CSSVariablesResolver = (t) => {
  const light: Record<string, string> = { "--mantine-color-dimmed": t.colors.gray[7] };
  const dark: Record<string, string> = { "--mantine-color-dimmed": t.colors.dark[1] };
  for (const [name, shades] of Object.entries(t.colors)) {
    if (name === "dark" || name === "gray") continue;
    const deep = `color-mix(in srgb, ${shades[9]} 72%, black)`;
    light[`--mantine-color-${name}-light-color`] = deep;
    light[`--mantine-color-${name}-outline`] = deep;
    light[`--mantine-color-${name}-text`] = deep;
    dark[`--mantine-color-${name}-light-color`] = shades[2]!;
    dark[`--mantine-color-${name}-outline`] = shades[3]!;
    dark[`--mantine-color-${name}-text`] = shades[3]!;
  }
  return { variables: {}, light, dark };
};
