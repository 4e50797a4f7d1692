import { describeUrl } from "./datastores";

describe("describeUrl", () => {
  it("when a URL carries credentials and options, then only host:port/name remain", () => {
    expect(describeUrl("postgresql://bb:s3cret@db.internal:6432/burnbox_tenancy?sslmode=require", 5432)).toBe(
      "db.internal:6432/burnbox_tenancy",
    );
    expect(describeUrl("redis://:pw@cache:6379/2", 6379)).toBe("cache:6379/2");
    expect(describeUrl("nats://user:pw@n1:4222,nats://n2:4222", 4222, "burnbox")).toBe("n1:4222/burnbox");
  });

  it("when the port is absent, then the default port is named", () => {
    expect(describeUrl("postgres://localhost/identity", 5432)).toBe("localhost:5432/identity");
    expect(describeUrl("redis://cache", 6379)).toBe("cache:6379");
  });

  it("when the URL cannot be parsed, then nothing of it is repeated", () => {
    expect(describeUrl("::not a url::", 5432)).toBe("unparseable");
  });
});
