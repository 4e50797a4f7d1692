import { sentinelOptions } from "./redis";

describe("sentinelOptions (redis.url behind Sentinel)", () => {
  it("when redis.url is a plain redis:// or rediss:// URL, then it is not a Sentinel one (ioredis reads it as it is)", () => {
    for (const url of ["redis://127.0.0.1:6379", "redis://:pw@redis:6379/2", "rediss://redis.example:6380", "redis-sentinel.example:6379"])
      expect(sentinelOptions(url)).toBeNull();
  });

  it("when redis.url names sentinels and a master, then those are ioredis' sentinels and name, port 26379 unless given", () => {
    expect(sentinelOptions("redis+sentinel://sentinel-0.sentinel:26379,sentinel-1.sentinel,10.0.0.7:26380/mymaster")).toEqual({
      sentinels: [
        { host: "sentinel-0.sentinel", port: 26379 },
        { host: "sentinel-1.sentinel", port: 26379 },
        { host: "10.0.0.7", port: 26380 },
      ],
      name: "mymaster",
    });
    expect(sentinelOptions("REDIS+SENTINEL://[fd00::7]:26381,[::1]/bb")).toEqual({
      sentinels: [
        { host: "fd00::7", port: 26381 },
        { host: "::1", port: 26379 },
      ],
      name: "bb",
    });
  });

  it("when the URL carries credentials, a database and the sentinels' own credentials, then each goes to its option, percent-decoded", () => {
    expect(
      sentinelOptions(
        "redis+sentinel://burnbox:p%40ss%3Aword@s1:26379,s2:26379/my%20master/3?sentinel_password=s%26cret&sentinel_username=watch",
      ),
    ).toEqual({
      sentinels: [
        { host: "s1", port: 26379 },
        { host: "s2", port: 26379 },
      ],
      name: "my master",
      username: "burnbox",
      password: "p@ss:word",
      db: 3,
      sentinelUsername: "watch",
      sentinelPassword: "s&cret",
    });
    // a password alone, as redis://:password@ gives it
    expect(sentinelOptions("redis+sentinel://:secret@s1/mymaster")).toEqual({
      sentinels: [{ host: "s1", port: 26379 }],
      name: "mymaster",
      password: "secret",
    });
  });

  it("when the URL is malformed, then the error names the problem and the form, never the URL's password", () => {
    const bad: Array<[string, RegExp]> = [
      ["redis+sentinel://:hunter2@s1:26379", /must name the master/],
      ["redis+sentinel://:hunter2@s1:26379/", /must name the master/],
      ["redis+sentinel://:hunter2@/mymaster", /names no sentinel/],
      ["redis+sentinel://:hunter2@s1:0/mymaster", /port must be 1 to 65535/],
      ["redis+sentinel://:hunter2@s1:70000/mymaster", /port must be 1 to 65535/],
      ["redis+sentinel://:hunter2@s1:x/mymaster", /host or host:port/],
      ["redis+sentinel://:hunter2@s1,,s2/mymaster", /host or host:port/],
      ["redis+sentinel://:hunter2@fd00::7/mymaster", /host or host:port/],
      ["redis+sentinel://:hunter2@s1/mymaster/db1", /database number/],
      ["redis+sentinel://:hunter2@s1/mymaster/1/2", /database number/],
      ["redis+sentinel://:hunter2@s1/mymaster?sentinel_pasword=x", /unknown parameter "sentinel_pasword"/],
      ["redis+sentinel://:hunter2%zz@s1/mymaster", /password is not valid percent-encoding/],
    ];
    for (const [url, problem] of bad) {
      let message = "";
      try {
        sentinelOptions(url);
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toMatch(problem);
      expect(message).toMatch(/^redis\.url \(REDIS_URL\): .*redis\+sentinel:\/\/\[\[user\]:password@\]host/);
      expect(message).not.toContain("hunter2");
    }
  });
});
