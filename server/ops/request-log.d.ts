import type { RequestHandler } from "express";
export function enabled(configured: string, level: string): boolean;
export function requestLine(r: { time: Date; method: string; path: string; status: number; ms: number; userId: number | null }): string;
export function requestLog(configured: string, write?: (line: string) => void): RequestHandler;
