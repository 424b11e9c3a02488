// Reads a JSON request body within the size limit. Checks, in order: media type and
// content coding (415), declared size (413, before anything is read), size as it arrives
// (413, reading stops at the limit), JSON syntax and nesting depth (400). Whatever is left
// of a refused body is the lingering close's (lingeringClose.ts), never read here.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, fieldProblem } from '../errors.js';
import { isBodyBroken, whenBodyBroken } from './brokenBodies.js';

export interface BodyLimits {
  maxBytes: number;
  maxDepth: number;
}

export async function readJsonBody(req: IncomingMessage, res: ServerResponse, limits: BodyLimits): Promise<unknown> {
  const declared = req.headers['content-length'];
  const chunked = req.headers['transfer-encoding'] !== undefined;
  const hasBody = chunked || (declared !== undefined && declared !== '0');
  if (!hasBody) return undefined;

  const mediaType = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType !== 'application/json' && !mediaType.endsWith('+json')) throw new ApiError('unsupported_media_type');
  // A compressed body is refused rather than read as if it were JSON (RFC 9110 §12.5.3).
  const coding = req.headers['content-encoding']?.trim().toLowerCase();
  if (coding && coding !== 'identity') throw new ApiError('unsupported_media_type', undefined, { 'Accept-Encoding': 'identity' });
  if (declared !== undefined && Number(declared) > limits.maxBytes) throw new ApiError('payload_too_large');
  if (isBodyBroken(req)) throw new ApiError('invalid_request');

  // The client waits for this before it sends the body; anything refused above never got it.
  if (req.headers.expect !== undefined && !res.headersSent) res.writeContinue();
  const text = (await readUpTo(req, limits.maxBytes)).toString('utf8');
  if (text.trim() === '') return undefined;
  if (jsonDepth(text) > limits.maxDepth) {
    throw new ApiError('invalid_request', [fieldProblem('/body', `nests deeper than ${limits.maxDepth} levels`)]);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError('invalid_request', [fieldProblem('/body', 'is not valid JSON')]);
  }
}

/** The whole body, or payload_too_large as soon as it passes `maxBytes` (the stream is paused there). */
function readUpTo(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (error?: ApiError) => {
      req.off('data', onData).off('end', onEnd).off('error', onBroken).off('close', onBroken);
      stopWaiting();
      if (error) reject(error);
      else resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) return void chunks.push(chunk);
      req.pause();
      stop(new ApiError('payload_too_large'));
    };
    const onEnd = () => stop();
    // The client went away mid-body (ECONNRESET, "aborted"): its fault, not the database's,
    // so not a 503 and not an error-level log line. Nobody reads the answer.
    const onBroken = () => stop(new ApiError('invalid_request', [fieldProblem('/body', 'was not received completely')]));
    // The parser refused the body's framing: it will never end (brokenBodies.ts).
    const stopWaiting = whenBodyBroken(req, () => stop(new ApiError('invalid_request')));
    req.on('data', onData).once('end', onEnd).once('error', onBroken).once('close', onBroken);
  });
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
