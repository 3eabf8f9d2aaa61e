/** Normalises BASE_PATH ("sillon", "/sillon/", "") to "/sillon/" or "/". */
export function basePath(raw: string | undefined): string {
  const trimmed = (raw ?? "/").trim().replace(/^\/+|\/+$/g, "");
  return trimmed ? `/${trimmed}/` : "/";
}
