import { AUDIT_CSV_COLUMNS, type AuditEntry, type ExportAuditQuery } from "@burnbox/contracts";

export type AuditExportFormat = ExportAuditQuery["format"];

/** A cell a spreadsheet would run as a formula (`= + - @`, tab, CR) gets a leading `'`. */
export function neutraliseFormula(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}

/** RFC 4180 quoting: a cell with a comma, quote or line break is quoted, its quotes doubled. */
function quoted(cell: string): string {
  return /[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

function cellOf(entry: AuditEntry, column: (typeof AUDIT_CSV_COLUMNS)[number]): string {
  const v = entry[column];
  if (v === null) return "";
  return typeof v === "string" ? v : JSON.stringify(v);
}

export const csvHeader = (): string => `${AUDIT_CSV_COLUMNS.join(",")}\r\n`;

export const csvRow = (entry: AuditEntry): string =>
  `${AUDIT_CSV_COLUMNS.map((c) => quoted(neutraliseFormula(cellOf(entry, c)))).join(",")}\r\n`;

/** How each format is framed: the text before the first entry, each entry (knowing whether it is the first), after the last. */
export const EXPORT_FORMATS: Record<
  AuditExportFormat,
  { contentType: string; open: string; entry: (e: AuditEntry, first: boolean) => string; close: string }
> = {
  csv: { contentType: "text/csv; charset=utf-8", open: csvHeader(), entry: (e) => csvRow(e), close: "" },
  json: {
    contentType: "application/json; charset=utf-8",
    open: "[",
    entry: (e, first) => `${first ? "" : ","}${JSON.stringify(e)}`,
    close: "]",
  },
};

/** `audit-<org slug>-<YYYYMMDD-HHMMSS>.<ext>` in UTC. */
export function exportFilename(slug: string, at: Date, format: AuditExportFormat): string {
  const stamp = at.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `audit-${slug}-${stamp}.${format}`;
}
