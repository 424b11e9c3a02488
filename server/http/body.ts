// Reads a JSON request body within the size limit. Checks, in order: media type (415),
// size (413), JSON syntax and nesting depth (400).
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../errors.js';

export interface BodyLimits {
  maxBytes: number;
  maxDepth: number;
}

export async function readJsonBody(req: IncomingMessage, limits: BodyLimits): Promise<unknown> {
  const declared = req.headers['content-length'];
  const chunked = req.headers['transfer-encoding'] !== undefined;
  const hasBody = chunked || (declared !== undefined && declared !== '0');
  if (!hasBody) return undefined;

  const mediaType = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType !== 'application/json' && !mediaType.endsWith('+json')) throw new ApiError('unsupported_media_type');
  if (declared !== undefined && Number(declared) > limits.maxBytes) throw new ApiError('payload_too_large', undefined, { Connection: 'close' });

  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > limits.maxBytes) throw new ApiError('payload_too_large', undefined, { Connection: 'close' });
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    // The client went away mid-body (ECONNRESET, "aborted"): its fault, not the
    // database's, so not a 503 and not an error-level log line. Nobody reads the answer.
    throw new ApiError('invalid_request', [{ path: '/body', message: 'was not received completely' }]);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  if (jsonDepth(text) > limits.maxDepth) {
    throw new ApiError('invalid_request', [{ path: '/body', message: `nests deeper than ${limits.maxDepth} levels` }]);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError('invalid_request', [{ path: '/body', message: 'is not valid JSON' }]);
  }
}

/** Deepest nesting of objects and arrays, counted before parsing (strings skipped). */
function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) max = Math.max(max, ++depth);
    else if (c === 125 || c === 93) depth--;
  }
  return max;
}
