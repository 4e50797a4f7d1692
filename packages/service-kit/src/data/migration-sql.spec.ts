import { NO_TRANSACTION_MARKER, concurrentIndexName, isNoTransaction, splitStatements } from "./migration-sql";

describe("isNoTransaction", () => {
  it("when the marker comes before the first statement, after other comments, then the migration runs outside a transaction", () => {
    expect(
      isNoTransaction(
        `-- Rebuilds the subject index without holding writes.\n\n${NO_TRANSACTION_MARKER}\nCREATE INDEX CONCURRENTLY x ON t (a);`,
      ),
    ).toBe(true);
  });

  it("when the marker is missing or comes after a statement, then the migration runs in one transaction", () => {
    expect(isNoTransaction("CREATE TABLE t (a int);")).toBe(false);
    expect(isNoTransaction(`CREATE TABLE t (a int);\n${NO_TRANSACTION_MARKER}\n`)).toBe(false);
    expect(isNoTransaction("-- migrate: no-transaction, someday\nCREATE TABLE t (a int);")).toBe(false);
  });
});

describe("splitStatements", () => {
  it("when semicolons stand in comments, strings, quoted names and function bodies, then only the top-level ones split", () => {
    const sql = [
      "-- first; a comment",
      'CREATE INDEX CONCURRENTLY IF NOT EXISTS "a;b" ON t (a);',
      "/* a block; comment */",
      "INSERT INTO t (s) VALUES ('x; y', 'it''s; here');",
      "CREATE FUNCTION f() RETURNS void LANGUAGE plpgsql AS $body$ BEGIN PERFORM 1; END $body$;",
      "ANALYZE t;",
      "-- trailing; comment only",
      "VACUUM t",
    ].join("\n");
    expect(splitStatements(sql)).toEqual([
      '-- first; a comment\nCREATE INDEX CONCURRENTLY IF NOT EXISTS "a;b" ON t (a)',
      "/* a block; comment */\nINSERT INTO t (s) VALUES ('x; y', 'it''s; here')",
      "CREATE FUNCTION f() RETURNS void LANGUAGE plpgsql AS $body$ BEGIN PERFORM 1; END $body$",
      "ANALYZE t",
      "-- trailing; comment only\nVACUUM t",
    ]);
  });
});

describe("concurrentIndexName", () => {
  it.each([
    ['CREATE INDEX CONCURRENTLY IF NOT EXISTS "emails_subject_idx" ON "emails" ("subject")', '"emails_subject_idx"'],
    ["-- the subject\ncreate unique index\n  concurrently emails_key on emails (message_id)", "emails_key"],
    ['CREATE INDEX CONCURRENTLY public."Odd ""name""" ON emails (a)', 'public."Odd ""name"""'],
  ])("when the statement is %j, then the index is %s", (statement, name) => {
    expect(concurrentIndexName(statement)).toBe(name);
  });

  it("when the statement builds in a transaction or names no index, then there is none to look for", () => {
    expect(concurrentIndexName('CREATE INDEX "x" ON emails (a)')).toBeNull();
    expect(concurrentIndexName("CREATE INDEX CONCURRENTLY ON emails (a)")).toBeNull();
    expect(concurrentIndexName("ANALYZE emails")).toBeNull();
  });
});
