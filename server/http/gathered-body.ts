import { Transform, type TransformCallback } from "node:stream";

/**
 * The document's bytes, passed on once per flush of React instead of once per 4 KB piece. Each piece used to
 * cross the web-stream adapter, the response and the compression one by one, and React Router's adapter flushes
 * the compression after each write: some 30 deflate calls and socket writes per page (bench/load.mjs, issue 10).
 * React calls `flush()` after each pass of writing, so streaming (a suspended part sent later) is kept.
 */
export class GatheredBody extends Transform {
  private parts: Uint8Array[] = [];
  constructor(private readonly onFinal: () => void) {
    super();
  }
  override _transform(chunk: Uint8Array, _encoding: BufferEncoding, callback: TransformCallback) {
    this.parts.push(chunk);
    callback();
  }
  flush() {
    if (this.parts.length === 0) return;
    const parts = this.parts;
    this.parts = [];
    this.push(parts.length === 1 ? parts[0] : Buffer.concat(parts));
  }
  override _flush(callback: TransformCallback) {
    this.flush();
    this.onFinal();
    callback();
  }
}
