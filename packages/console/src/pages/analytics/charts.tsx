// The charts of the analytics page (recharts), each a <figure> whose caption names it and says in
// words what it shows, with the numbers as a table under it. Colours come from Mantine's CSS
// variables, so light and dark follow the console's scheme.
import { Box, Paper, Table, Text } from "@mantine/core";
import { useId, type ReactNode } from "react";
import { Bar, BarChart, CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

const AXIS = "var(--mantine-color-dimmed)";
const GRID = "var(--mantine-color-default-border)";
const FILL = "var(--mantine-primary-color-filled)";
const TICK = { fill: AXIS, fontSize: 12 };
const TOOLTIP = {
  contentStyle: {
    background: "var(--mantine-color-body)",
    border: "1px solid var(--mantine-color-default-border)",
    borderRadius: 6,
    color: "var(--mantine-color-text)",
    fontSize: 13,
  },
  labelStyle: { color: "var(--mantine-color-text)", fontWeight: 600 },
  itemStyle: { color: "var(--mantine-color-text)" },
  cursor: { fill: "var(--mantine-color-default-hover)" },
};

/** A tooltip's heading: the category (a date, an hour, a domain) as its axis writes it. */
function labelOf(l: unknown, tickFormatter?: (value: string) => string): string {
  const s = typeof l === "string" || typeof l === "number" ? String(l) : "";
  return tickFormatter ? tickFormatter(s) : s;
}

export interface TableColumn<T> {
  label: string;
  value: (row: T) => ReactNode;
  numeric?: boolean;
}

/**
 * A chart with its accessible name (`title`), its text alternative (`summary`, shown under the
 * title and read with the picture), and its numbers in a table behind "Show the numbers".
 */
export function ChartFigure<T>({
  title,
  summary,
  rows,
  columns,
  children,
  height = 220,
}: {
  title: string;
  summary: string;
  rows: T[];
  columns: TableColumn<T>[];
  children: ReactNode;
  height?: number;
}) {
  const tableId = useId();
  return (
    <Paper withBorder radius="md" p="md" component="figure" m={0} aria-label={title}>
      <Box component="figcaption" mb="sm">
        <Text fw={600}>{title}</Text>
        <Text size="sm" c="dimmed">
          {summary}
        </Text>
      </Box>
      {/* the picture says what the caption says; its numbers are in the table below */}
      <Box h={height} role="img" aria-label={`${title}. ${summary}`}>
        {children}
      </Box>
      <Box component="details" mt="xs">
        <Text component="summary" size="sm" c="dimmed" style={{ cursor: "pointer" }} aria-controls={tableId}>
          Show the numbers
        </Text>
        {/* focusable, so the keyboard can scroll a long table (a year is 365 rows) */}
        <Box mah={260} mt="xs" style={{ overflow: "auto" }} tabIndex={0} role="region" aria-label={`${title} (table)`}>
          <Table id={tableId} striped withTableBorder fz="sm" aria-label={`${title}: the numbers`}>
            <Table.Thead>
              <Table.Tr>
                {columns.map((c) => (
                  <Table.Th key={c.label} ta={c.numeric ? "right" : undefined}>
                    {c.label}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row, i) => (
                <Table.Tr key={i}>
                  {columns.map((c) => (
                    <Table.Td key={c.label} ta={c.numeric ? "right" : undefined}>
                      {c.value(row)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Box>
      </Box>
    </Paper>
  );
}

/** Bars over a category axis (days, hours, domains); `layout="vertical"` for long names. */
export function Bars<T extends object>({
  data,
  x,
  y,
  name,
  tickFormatter,
  valueFormatter,
  vertical = false,
}: {
  data: T[];
  x: string;
  y: string;
  name: string;
  tickFormatter?: (value: string) => string;
  valueFormatter?: (value: number) => string;
  vertical?: boolean;
}) {
  const formatValue = (v: unknown) => (valueFormatter ? valueFormatter(Number(v)) : String(v));
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart
        data={data}
        layout={vertical ? "vertical" : "horizontal"}
        margin={{ top: 4, right: 8, bottom: 0, left: 0 }}
        accessibilityLayer={false}
      >
        <CartesianGrid stroke={GRID} strokeDasharray="3 3" vertical={vertical} horizontal={!vertical} />
        {vertical ? (
          <>
            <XAxis type="number" allowDecimals={false} tick={TICK} stroke={GRID} tickFormatter={valueFormatter} />
            <YAxis type="category" dataKey={x} tick={TICK} stroke={GRID} width={140} tickFormatter={tickFormatter} />
          </>
        ) : (
          <>
            <XAxis dataKey={x} tick={TICK} stroke={GRID} tickFormatter={tickFormatter} minTickGap={16} />
            <YAxis allowDecimals={false} tick={TICK} stroke={GRID} width={valueFormatter ? 64 : 40} tickFormatter={valueFormatter} />
          </>
        )}
        <Tooltip {...TOOLTIP} labelFormatter={(l: unknown) => labelOf(l, tickFormatter)} formatter={(v) => [formatValue(v), name]} />
        <Bar
          dataKey={y}
          name={name}
          fill={FILL}
          radius={vertical ? [0, 3, 3, 0] : [3, 3, 0, 0]}
          maxBarSize={32}
          isAnimationActive={false}
        />
      </BarChart>
    </ResponsiveContainer>
  );
}

/** A line over days (the domain series). */
export function DayLine<T extends object>({
  data,
  x,
  y,
  name,
  tickFormatter,
}: {
  data: T[];
  x: string;
  y: string;
  name: string;
  tickFormatter?: (value: string) => string;
}) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <LineChart data={data} margin={{ top: 4, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
        <CartesianGrid stroke={GRID} strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey={x} tick={TICK} stroke={GRID} tickFormatter={tickFormatter} minTickGap={16} />
        <YAxis allowDecimals={false} tick={TICK} stroke={GRID} width={40} />
        <Tooltip {...TOOLTIP} labelFormatter={(l: unknown) => labelOf(l, tickFormatter)} formatter={(v) => [String(v), name]} />
        <Line type="monotone" dataKey={y} name={name} stroke={FILL} strokeWidth={2} dot={data.length <= 31} isAnimationActive={false} />
      </LineChart>
    </ResponsiveContainer>
  );
}
