// Requests node's parser lets through but HTTP does not allow, checked before routing and
// answered in the contract's error shape rather than node's empty bodies:
//   - HTTP/1.1 without Host (RFC 9112 §3.2): 400;
//   - Host, Authorization or Content-Type sent twice: 400. Node keeps the first and drops
//     the rest; a proxy in front may keep the last, and then the two disagree about which
//     site, which caller or which body this is (RFC 9110 §5.3 allows no list in these);
//   - an expectation other than 100-continue (RFC 9110 §10.1.1): 417.
// Each is answered like a malformed request: a bare {"error":"invalid_request"} (these come
// before routing, so on any path), and the connection closes after the answer.
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../errors.js';

const SINGLE = ['host', 'authorization', 'content-type'];
const SINGLE_LENGTHS = new Set(SINGLE.map((name) => name.length)); // skips most names without lower-casing them

export interface ProtocolViolation {
  error: ApiError;
  /** The status to send, when it is not the error code's own (417). */
  status?: number;
}

export function protocolViolation(req: IncomingMessage): ProtocolViolation | undefined {
  if (req.httpVersionMajor === 1 && req.httpVersionMinor >= 1 && req.headers.host === undefined) return refuse();
  const raw = req.rawHeaders;
  let seen: string[] | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    if (!SINGLE_LENGTHS.has(raw[i]!.length)) continue;
    const name = raw[i]!.toLowerCase();
    if (!SINGLE.includes(name)) continue;
    if (seen?.includes(name)) return refuse();
    (seen ??= []).push(name);
  }
  const expect = req.headers.expect;
  if (expect !== undefined && expect.trim().toLowerCase() !== '100-continue') return { ...refuse(), status: 417 };
  return undefined;
}

function refuse(): ProtocolViolation {
  return { error: new ApiError('invalid_request', undefined, { Connection: 'close' }) };
}
