import type { RequestHandler } from "express";
export const COMPRESS_FROM_BYTES: number;
export function isDataRequest(path: string): boolean;
export function acceptedEncoding(header: string | string[] | undefined): "gzip" | "deflate" | null;
export function wholeDataAnswers(options?: { level?: number }): RequestHandler;
