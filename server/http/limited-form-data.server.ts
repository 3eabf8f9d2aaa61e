/**
 * The request's form, refused (`tooLarge`) as soon as its body passes `limit` bytes, whatever its headers say:
 * for the uploads (plot import, attached files), so that a large body is never read whole.
 */
export async function limitedFormData(request: Request, limit: number, tooLarge: () => Error): Promise<FormData> {
  if (!request.body) return request.formData();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return new Response(new Blob(chunks as BlobPart[]), { headers: { "content-type": request.headers.get("content-type") ?? "" } }).formData();
}
