import { attachmentDisposition, safeFilename } from "./content-disposition";

describe("safeFilename", () => {
  it("when the name carries a path, then only its last segment is kept", () => {
    expect(safeFilename("../../etc/passwd")).toBe("passwd");
    expect(safeFilename("C:\\Windows\\evil.txt")).toBe("evil.txt");
  });

  it("when the name has quotes, controls or bidi overrides, then they are removed or replaced", () => {
    expect(safeFilename('a"b\r\nc.pdf')).toBe("a_bc.pdf");
    expect(safeFilename("invoice\u202Efdp.exe")).toBe("invoicefdp.exe");
  });

  it("when nothing usable is left, then the fallback name is used", () => {
    expect(safeFilename("")).toBe("attachment");
    expect(safeFilename("...")).toBe("attachment");
    expect(safeFilename("/")).toBe("attachment");
  });

  it("when the name is very long, then it is cut and keeps its extension", () => {
    const out = safeFilename(`${"x".repeat(400)}.pdf`);
    expect(out).toHaveLength(150);
    expect(out.endsWith(".pdf")).toBe(true);
  });
});

describe("attachmentDisposition", () => {
  it("when the name is plain ASCII, then only a quoted filename is given", () => {
    expect(attachmentDisposition("report.pdf")).toBe('attachment; filename="report.pdf"');
  });

  it("when the name is not ASCII, then an ASCII fallback and the RFC 5987 UTF-8 form are both given", () => {
    expect(attachmentDisposition("résumé 2024.pdf")).toBe(
      "attachment; filename=\"r_sum_ 2024.pdf\"; filename*=UTF-8''r%C3%A9sum%C3%A9%202024.pdf",
    );
  });

  it("when the name contains a percent sign or an apostrophe, then the header stays unambiguous", () => {
    expect(attachmentDisposition("100%'s.txt")).toBe("attachment; filename=\"100_'s.txt\"; filename*=UTF-8''100%25%27s.txt");
  });
});
