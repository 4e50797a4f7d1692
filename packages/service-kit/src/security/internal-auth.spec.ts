import { signInternalContext, verifyInternalContext } from "./internal-auth";

const secret = "k".repeat(32);
const ctx = {
  actor: { user_id: "0b6d8a70-1111-4a1a-9a9a-0b6d8a701111", email: "a@b.test", is_system_admin: false, session_id: null, api_key: null },
  client_ip: "127.0.0.1",
  request_id: "r1",
};

describe("internal context", () => {
  it("when signed and verified with the same secret, then the context comes back", () => {
    expect(verifyInternalContext(signInternalContext(ctx, secret), secret)).toMatchObject(ctx);
  });

  it("when the payload is altered, then verification fails", () => {
    const [payload, sig] = signInternalContext(ctx, secret).split(".");
    const forged = Buffer.from(
      JSON.stringify({
        ...JSON.parse(Buffer.from(payload as string, "base64url").toString()),
        actor: { ...ctx.actor, is_system_admin: true },
      }),
    ).toString("base64url");
    expect(verifyInternalContext(`${forged}.${sig}`, secret)).toBeNull();
  });

  it("when a rotation accepts the previous secret too, then a context of either is accepted and of a third refused", () => {
    const previous = "p".repeat(32);
    expect(verifyInternalContext(signInternalContext(ctx, secret), [secret, previous])).toMatchObject(ctx);
    expect(verifyInternalContext(signInternalContext(ctx, previous), [secret, previous])).toMatchObject(ctx);
    expect(verifyInternalContext(signInternalContext(ctx, "x".repeat(32)), [secret, previous])).toBeNull();
    // and once the rotation ends, the previous secret's contexts are refused
    expect(verifyInternalContext(signInternalContext(ctx, previous), [secret])).toBeNull();
  });

  it("when another secret signed it, then verification fails", () => {
    expect(verifyInternalContext(signInternalContext(ctx, "x".repeat(32)), secret)).toBeNull();
  });

  it("when it is older than its 30 s lifetime, then it is refused", () => {
    const signed = signInternalContext(ctx, secret, Date.now() - 31_000);
    expect(verifyInternalContext(signed, secret)).toBeNull();
  });

  it("when the value is garbage, then it is refused", () => {
    expect(verifyInternalContext("a.b.c", secret)).toBeNull();
    expect(verifyInternalContext("", secret)).toBeNull();
  });
});
