import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { LocalStorage } from "../src/adapters/local-storage";
import { PRESIGNED_URL_TTL_SECONDS, S3Storage } from "../src/adapters/s3-storage";
import type { MessageStore } from "../src/domain/message-store";
import { startS3 } from "./s3-server";

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

const as = { disposition: "attachment; filename=\"r_sum_.pdf\"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf", contentType: "application/pdf" };
const inboxId = "6c1f0000-0000-4000-8000-000000000001";
const emailA = "6c1f0000-0000-4000-8000-00000000000a";
const emailB = "6c1f0000-0000-4000-8000-00000000000b";

/** The behaviour every message store shares, whichever holds the bytes. */
function behavesAsAMessageStore(make: () => MessageStore) {
  let store: MessageStore;
  beforeAll(() => {
    store = make();
  });

  it("when an object is put, then it reads back byte-for-byte, whole and as a stream", async () => {
    const data = Buffer.from([0, 1, 2, 255, 13, 10, 46, 13, 10]);
    await store.put(`${inboxId}/${emailA}/message.eml`, data);
    expect((await store.get(`${inboxId}/${emailA}/message.eml`)).equals(data)).toBe(true);
    const stream = await store.open(`${inboxId}/${emailA}/message.eml`);
    expect(stream && (await bytesOf(stream)).equals(data)).toBe(true);
  });

  it("when an object does not exist, then open answers null", async () => {
    expect(await store.open(`${inboxId}/${emailA}/missing`)).toBeNull();
  });

  it("when one email's folder is removed, then its objects are gone and the inbox's others stay", async () => {
    await store.put(`${inboxId}/${emailA}/x`, Buffer.from("a"));
    await store.put(`${inboxId}/${emailB}/y`, Buffer.from("b"));
    await store.removeFolder(`${inboxId}/${emailA}`);
    expect(await store.open(`${inboxId}/${emailA}/x`)).toBeNull();
    expect((await store.get(`${inboxId}/${emailB}/y`)).toString()).toBe("b");
    await store.removeFolder(inboxId);
    expect(await store.open(`${inboxId}/${emailB}/y`)).toBeNull();
  });

  it("when objects are removed by their keys, then they are gone, an absent key is no error, and the others stay", async () => {
    const keys = Array.from({ length: 5 }, (_, i) => `${inboxId}/${emailA}/k${i}`);
    for (const k of keys) await store.put(k, Buffer.from(k));
    await store.put(`${inboxId}/${emailB}/kept`, Buffer.from("kept"));
    await store.removeKeys([...keys.slice(0, 4), `${inboxId}/${emailA}/never-stored`]);
    for (const k of keys.slice(0, 4)) expect(await store.open(k)).toBeNull();
    expect((await store.get(keys[4]!)).toString()).toBe(keys[4]);
    expect((await store.get(`${inboxId}/${emailB}/kept`)).toString()).toBe("kept");
    await store.removeKeys([]);
    await store.removeFolder(inboxId);
  });

  it("when the store is reachable, then its readiness check passes", async () => {
    await expect(store.check()).resolves.toBeUndefined();
  });
}

describe("LocalStorage", () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "bb-local-"));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  behavesAsAMessageStore(() => new LocalStorage(root));

  it("when a download is asked for, then there is no URL: the service streams the bytes itself", async () => {
    expect(await new LocalStorage(root).downloadUrl()).toBeNull();
  });

  it("when an object is put, then no temporary file is left beside it", async () => {
    const store = new LocalStorage(root);
    await store.put(`${inboxId}/${emailA}/z`, Buffer.from("z"));
    expect(await readdir(path.join(root, inboxId, emailA))).toEqual(["z"]);
  });

  it("when a key already holds an object, then a put replaces it whole and leaves no temporary file", async () => {
    const store = new LocalStorage(root);
    const emailC = "6c1f0000-0000-4000-8000-00000000000c";
    await store.put(`${inboxId}/${emailC}/r`, Buffer.from("first, longer"));
    await store.put(`${inboxId}/${emailC}/r`, Buffer.from("second"));
    expect((await store.get(`${inboxId}/${emailC}/r`)).toString()).toBe("second");
    expect(await readdir(path.join(root, inboxId, emailC))).toEqual(["r"]);
  });

  it("when many messages are put at once into one inbox (new folders, shared folder syncs), then every one is stored whole", async () => {
    const store = new LocalStorage(root);
    const inbox = "6c1f0000-0000-4000-8000-0000000000ff";
    const keys = Array.from({ length: 40 }, (_, i) => `${inbox}/6c1f0000-0000-4000-8000-${String(i).padStart(12, "0")}/message.eml`);
    const large = Buffer.alloc(600 * 1024, 7); // past the blocking-write size: written through the thread pool
    await Promise.all(keys.map((k, i) => store.put(k, i === 0 ? large : Buffer.from(`m${i}`))));
    const back = await Promise.all(keys.map((k) => store.get(k)));
    expect(back[0]?.equals(large)).toBe(true);
    expect(back.slice(1).map((b) => b.toString())).toEqual(keys.slice(1).map((_, i) => `m${i + 1}`));
    expect((await readdir(path.join(root, inbox))).length).toBe(40);
  });

  /** A store that records every directory it fsyncs, relative to the root ("" for the root). */
  function recording() {
    const synced: string[] = [];
    const store = new LocalStorage(root, { synced: (dir) => synced.push(path.relative(root, dir)) });
    return { store, synced, take: () => synced.splice(0).sort() };
  }

  it("when a put makes new folders, then each one's entry is fsynced into its parent, and a later put into the same folder fsyncs that folder only", async () => {
    const { store, take } = recording();
    const inbox = "6c1f0000-0000-4000-8000-0000000000d1";
    const email = "6c1f0000-0000-4000-8000-0000000000e1";
    await store.put(`${inbox}/${email}/message.eml`, Buffer.from("raw"));
    // the file's folder (its entry), the inbox's (the email's folder), the root (the inbox's folder)
    expect(take()).toEqual(["", inbox, `${inbox}/${email}`].sort());
    // an attachment after it: the folders are known made and durable, so no mkdir, and its own entry is still fsynced
    await store.put(`${inbox}/${email}/attachment`, Buffer.from("att"));
    expect(take()).toEqual([`${inbox}/${email}`]);
    // a new email's folder in the existing inbox: it and its parent
    const next = "6c1f0000-0000-4000-8000-0000000000e2";
    await store.put(`${inbox}/${next}/message.eml`, Buffer.from("raw 2"));
    expect(take()).toEqual([inbox, `${inbox}/${next}`].sort());
  });

  it("when a remembered folder was removed (by this store or another process), then a put makes it again and fsyncs it into its parent as new", async () => {
    const { store, take } = recording();
    const inbox = "6c1f0000-0000-4000-8000-0000000000d2";
    const email = "6c1f0000-0000-4000-8000-0000000000e3";
    await store.put(`${inbox}/${email}/message.eml`, Buffer.from("raw"));
    take();

    // the TTL cleanup of another replica removes the inbox's folder behind this store's back
    await rm(path.join(root, inbox), { recursive: true, force: true });
    await store.put(`${inbox}/${email}/attachment`, Buffer.from("after the cleanup"));
    expect((await store.get(`${inbox}/${email}/attachment`)).toString()).toBe("after the cleanup");
    expect(take()).toEqual(["", inbox, `${inbox}/${email}`].sort());

    // and the store's own removal of the email's folder
    await store.removeFolder(`${inbox}/${email}`);
    await store.put(`${inbox}/${email}/again`, Buffer.from("again"));
    expect(await readdir(path.join(root, inbox, email))).toEqual(["again"]);
    expect(take()).toEqual([inbox, `${inbox}/${email}`].sort());
  });

  it("when a key escapes the root, then it is refused", async () => {
    await expect(new LocalStorage(root).put("../outside", Buffer.from("x"))).rejects.toThrow("escapes");
  });
});

describe("S3Storage against a local S3 server", () => {
  let s3: Awaited<ReturnType<typeof startS3>>;
  let store: S3Storage;
  beforeAll(async () => {
    s3 = await startS3();
    store = new S3Storage(s3.settings);
  });
  afterAll(async () => {
    store.close();
    await s3.stop();
  });

  behavesAsAMessageStore(() => store);

  it("when a download URL is made, then it is presigned for 15 minutes and serves the bytes with the forced headers", async () => {
    const data = Buffer.from("%PDF-1.4 fake");
    await store.put(`${inboxId}/${emailA}/doc`, data);
    const url = await store.downloadUrl(`${inboxId}/${emailA}/doc`, as);
    expect(url).not.toBeNull();
    expect(new URL(url ?? "").searchParams.get("X-Amz-Expires")).toBe(String(PRESIGNED_URL_TTL_SECONDS));
    expect(PRESIGNED_URL_TTL_SECONDS).toBe(900);
    const res = await fetch(url ?? "");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe(as.disposition);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(Buffer.from(await res.arrayBuffer()).equals(data)).toBe(true);
  });

  it("when the bucket does not exist, then the readiness check fails", async () => {
    const missing = new S3Storage({ ...s3.settings, bucket: "no-such-bucket" });
    await expect(missing.check()).rejects.toBeDefined();
    missing.close();
  });
});
