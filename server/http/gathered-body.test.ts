import { describe, expect, it } from "vitest";
import { GatheredBody } from "./gathered-body";

const bytes = (s: string) => new TextEncoder().encode(s);

describe("GatheredBody (issue 10: the document passed on once per React flush)", () => {
  it("passes the pieces written before a flush on as one chunk, then the rest at the end", async () => {
    let finished = 0;
    const body = new GatheredBody(() => finished++);
    const chunks: string[] = [];
    body.on("data", (c: Buffer) => chunks.push(c.toString()));
    const ended = new Promise((resolve) => body.on("end", resolve));
    body.write(bytes("<html>"));
    body.write(bytes("<body>"));
    body.flush();
    body.write(bytes("</body>"));
    body.write(bytes("</html>"));
    body.end();
    await ended;
    expect(chunks).toEqual(["<html><body>", "</body></html>"]);
    expect(finished).toBe(1);
  });

  it("passes nothing on for a flush without new pieces", async () => {
    const body = new GatheredBody(() => {});
    const chunks: string[] = [];
    body.on("data", (c: Buffer) => chunks.push(c.toString()));
    const ended = new Promise((resolve) => body.on("end", resolve));
    body.flush();
    body.write(bytes("a"));
    body.flush();
    body.flush();
    body.end();
    await ended;
    expect(chunks).toEqual(["a"]);
  });
});
