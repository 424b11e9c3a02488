// Requests node's HTTP parser rejects (bad Content-Length, oversized headers, smuggling
// attempts, garbage): node would answer an empty 400; this answers the contract's shape,
// {"error":"invalid_request"}, so every client sees one error format.
//
// On a keep-alive connection the malformed request may follow valid ones still being
// answered (pipelining): each of those gets its own answer first, then the 400, then the
// connection closes the lingering way (lingeringClose.ts): half-closed, and what the client
// still sends is discarded (the parser rejects it again, chunk by chunk) up to LINGER_BYTES
// or LINGER_MS.
// A request whose headers were fine but whose body framing is not (an unknown transfer
// coding, an overflowing chunk size, a bare LF) is already in the pipeline: its answer is
// the pipeline's, 400 in its turn among the connection's answers (brokenBodies.ts).
// A client too slow to send its request (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS) is simply
// disconnected: there is nobody listening worth answering.
// CONNECT, which asks a proxy for a tunnel, is answered 404 not_found (this is no proxy)
// where node would close the connection without a word.
import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError } from '../errors.js';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import { markBodyBroken } from './brokenBodies.js';
import { LINGER_BYTES, LINGER_MS } from './lingeringClose.js';
import { newRequestId } from './requestId.js';

type Socket = Duplex & { bytesRead?: number };

/** The last response created on each connection, to answer a malformed request after it. */
const latestResponse = new WeakMap<object, ServerResponse>();
/** Connections already answered 400, with the bytes read when they were. */
const refused = new WeakMap<object, number>();

export function rememberResponse(socket: object, res: ServerResponse): void {
  latestResponse.set(socket, res);
}

export function clientErrorHandler(logger: Logger, metrics: Metrics) {
  return (error: Error & { code?: string }, socket: Socket): void => {
    const refusedAt = refused.get(socket);
    if (refusedAt !== undefined) {
      // More of what followed the malformed request: discarded, within bounds.
      if ((socket.bytesRead ?? 0) - refusedAt > LINGER_BYTES) socket.destroy();
      return;
    }
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      // Never log error.rawPacket: it holds the request as sent, Authorization included.
      logger.info({ code: error.code }, 'request not received in time; connection closed');
      metrics.observe('timed_out', 'unknown', 408, 0);
      socket.destroy();
      return;
    }
    refused.set(socket, socket.bytesRead ?? 0);
    const latest = latestResponse.get(socket);
    if (latest && !latest.req.complete) {
      // The parser was reading this request's body: the pipeline answers it 400 (or has
      // already answered it, and the connection is closing after that answer).
      logger.info({ code: error.code }, 'malformed request body');
      markBodyBroken(latest.req);
      return;
    }
    const requestId = newRequestId();
    const status = new ApiError('invalid_request').status;
    logger.info({ requestId, code: error.code, status }, 'malformed request');
    metrics.observe('malformed', 'unknown', status, 0);
    const answer = () => answerRaw(socket, new ApiError('invalid_request'), 'Bad Request', requestId);
    // Responses on a connection go out in order: once the latest is out, all earlier ones are.
    if (latest && !latest.writableFinished && !latest.destroyed) {
      latest.once('finish', answer);
      latest.once('close', () => latest.writableFinished || socket.destroy());
    } else answer();
  };
}

export function connectHandler(logger: Logger, metrics: Metrics) {
  return (_req: unknown, socket: Socket): void => {
    const requestId = newRequestId();
    logger.info({ requestId, method: 'CONNECT', status: 404 }, 'request');
    metrics.observe('unmatched', 'CONNECT', 404, 0);
    answerRaw(socket, new ApiError('not_found'), 'Not Found', requestId);
  };
}

/** Writes an error answer straight to the socket and closes it the lingering way. */
function answerRaw(socket: Socket, error: ApiError, reason: string, requestId: string): void {
  if (!socket.writable) return void socket.destroy();
  const body = JSON.stringify(error.body);
  socket.end(
    `HTTP/1.1 ${error.status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
  socket.once('end', () => socket.destroy());
}
