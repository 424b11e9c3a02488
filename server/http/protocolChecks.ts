// Requests node's parser lets through but HTTP does not allow, checked before routing and
// answered in the contract's error shape rather than node's empty bodies:
//   - HTTP/1.1 without Host (RFC 9112 §3.2): 400;
//   - Host, Authorization or Content-Type sent twice: 400. Node keeps the first and drops
//     the rest; a proxy in front may keep the last, and then the two disagree about which
//     site, which caller or which body this is (RFC 9110 §5.3 allows no list in these);
//   - a Transfer-Encoding whose last coding is not chunked: the body's length cannot be
//     known, so the request is refused and the connection closed (RFC 9112 §6.3): 400;
//   - an expectation other than 100-continue (RFC 9110 §10.1.1): 417.
// Each is answered like a malformed request: a bare {"error":"invalid_request"} (these come
// before routing, so on any path), and the connection closes after the answer.
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../errors.js';

/** Each header that may come once, in lower case and as usually spelled: those two compare without lower-casing. */
const SINGLE = [
  ['host', 'Host'],
  ['authorization', 'Authorization'],
  ['content-type', 'Content-Type'],
] as const;

export interface ProtocolViolation {
  error: ApiError;
  /** The status to send, when it is not the error code's own (417). */
  status?: number;
}

export function protocolViolation(req: IncomingMessage): ProtocolViolation | undefined {
  if (req.httpVersionMajor === 1 && req.httpVersionMinor >= 1 && req.headers.host === undefined) return refuse();
  const raw = req.rawHeaders;
  let seen = 0; // one bit per SINGLE header
  for (let i = 0; i < raw.length; i += 2) {
    const single = singleIndex(raw[i]!);
    if (single === -1) continue;
    if (seen & (1 << single)) return refuse();
    seen |= 1 << single;
  }
  const codings = req.headers['transfer-encoding'];
  if (codings !== undefined && !/(?:^|,)[ \t]*chunked[ \t]*$/i.test(codings)) return refuse();
  const expect = req.headers.expect;
  if (expect !== undefined && expect.trim().toLowerCase() !== '100-continue') return { ...refuse(), status: 417 };
  return undefined;
}

/** Which of SINGLE the header `name` is, in any case; -1 for none. */
function singleIndex(name: string): number {
  for (let i = 0; i < SINGLE.length; i++) {
    const [lower, usual] = SINGLE[i]!;
    if (name.length === lower.length && (name === lower || name === usual || name.toLowerCase() === lower)) return i;
  }
  return -1;
}

function refuse(): ProtocolViolation {
  return { error: new ApiError('invalid_request', undefined, { Connection: 'close' }) };
}
