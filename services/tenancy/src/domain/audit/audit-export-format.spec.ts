import type { AuditEntry } from "@burnbox/contracts";
import { EXPORT_FORMATS, csvHeader, csvRow, exportFilename, neutraliseFormula } from "./audit-export-format";

const entry = (over: Partial<AuditEntry> = {}): AuditEntry => ({
  id: "6b0a3f7e-3f6c-4f7e-9d55-1f1d1d1d1d1d",
  org_id: "7b0a3f7e-3f6c-4f7e-9d55-1f1d1d1d1d1d",
  actor_id: null,
  actor_email: null,
  actor_type: "system",
  action: "team.created",
  resource_type: "team",
  resource_id: "8b0a3f7e-3f6c-4f7e-9d55-1f1d1d1d1d1d",
  resource_name: "Blue",
  metadata: { name: "Blue" },
  ip_address: null,
  user_agent: null,
  severity: "info",
  category: "team",
  created_at: "2026-11-23T10:00:00.000Z",
  ...over,
});

describe("audit export format", () => {
  it("when the CSV starts, then the header has the notes' columns in order", () => {
    expect(csvHeader()).toBe(
      "id,created_at,org_id,actor_id,actor_email,actor_type,action,severity,category,resource_type,resource_id,resource_name,ip_address,user_agent,metadata\r\n",
    );
  });

  it("when a cell starts like a formula, then it gets a leading quote; other cells are untouched", () => {
    for (const c of ["=SUM(A1)", "+1", "-2", "@cmd", "\tx", "\rx"]) expect(neutraliseFormula(c)).toBe(`'${c}`);
    expect(neutraliseFormula("Blue")).toBe("Blue");
    expect(neutraliseFormula("a=b")).toBe("a=b");
  });

  it("when a row is written, then nulls are empty, metadata is JSON, and commas and quotes are quoted", () => {
    const row = csvRow(entry({ resource_name: '=HYPERLINK("http://x.test","a,b")' }));
    const cells = row.trimEnd().split(",");
    expect(cells[0]).toBe("6b0a3f7e-3f6c-4f7e-9d55-1f1d1d1d1d1d");
    expect(cells[3]).toBe("");
    expect(row).toContain(`"'=HYPERLINK(""http://x.test"",""a,b"")"`);
    expect(row).toContain(`"{""name"":""Blue""}"`);
    expect(row.endsWith("\r\n")).toBe(true);
  });

  it("when entries are framed as JSON, then the result is one array", () => {
    const json = EXPORT_FORMATS.json;
    const text = json.open + json.entry(entry(), true) + json.entry(entry({ action: "team.updated" }), false) + json.close;
    expect((JSON.parse(text) as AuditEntry[]).map((e) => e.action)).toEqual(["team.created", "team.updated"]);
    expect(JSON.parse(json.open + json.close)).toEqual([]);
  });

  it("when named, then the file is audit-<slug>-<UTC stamp>.<ext>", () => {
    expect(exportFilename("acme", new Date("2026-11-23T20:05:09.123Z"), "csv")).toBe("audit-acme-20261123-200509.csv");
  });
});
