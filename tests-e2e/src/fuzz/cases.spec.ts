import { casesFor, operationsOf, seededRandom } from "./cases";
import { envelopeProblem } from "./run";

const doc = {
  paths: {
    "/orgs/{orgId}/teams": {
      post: {
        operationId: "createTeam",
        parameters: [{ in: "path", name: "orgId", schema: { type: "string", format: "uuid" } }],
        requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/CreateTeam" } } } },
      },
      get: {
        operationId: "listTeams",
        parameters: [
          { in: "path", name: "orgId", schema: { type: "string", format: "uuid" } },
          { in: "query", name: "page", schema: { type: "integer" } },
        ],
      },
    },
  },
  components: { schemas: { CreateTeam: { type: "object", properties: { name: { type: "string" }, private: { type: "boolean" } } } } },
};

describe("fuzz cases", () => {
  it("when the document is read, then every operation is found with its path params, query and resolved body schema", () => {
    const ops = operationsOf(doc);
    expect(ops.map((o) => o.operationId)).toEqual(["createTeam", "listTeams"]);
    expect(ops[0]?.body?.properties).toHaveProperty("name");
    expect(ops[1]?.query.map((q) => q.name)).toEqual(["page"]);
  });

  it("when the same seed is used twice, then the same requests are generated", () => {
    const [op] = operationsOf(doc);
    expect(casesFor(op!, 50, seededRandom(1))).toEqual(casesFor(op!, 50, seededRandom(1)));
    expect(casesFor(op!, 50, seededRandom(1))).not.toEqual(casesFor(op!, 50, seededRandom(2)));
  });

  it("when enough cases are drawn for an operation, then bad paths, bad bodies, wrong content types and oversized bodies all appear", () => {
    const [op] = operationsOf(doc);
    const kinds = new Set(casesFor(op!, 300, seededRandom(3)).map((c) => c.mutation.split(/[ =]/)[0]));
    for (const k of ["path", "body", "malformed", "wrong", "oversized", "deep", "missing"]) expect(kinds).toContain(k);
  });

  it("when an error answer is checked, then only the envelope (or the 429 body) passes", () => {
    expect(envelopeProblem(400, '{"error":"x","code":"validation_error"}')).toBeNull();
    expect(envelopeProblem(429, '{"error":"x","retry_after":3}')).toBeNull();
    expect(envelopeProblem(431, "")).toBe("error body is not JSON");
    expect(envelopeProblem(404, '{"message":"x"}')).toBe("error body has no string `error`");
    expect(envelopeProblem(200, "anything")).toBeNull();
  });
});
