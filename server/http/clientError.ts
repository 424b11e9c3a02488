// Requests node:http cannot parse (bad Content-Length, headers over the size limit, garbage)
// never reach the pipeline. Node's own answer is a bare 400 or 431 without a body; this one
// is the contract's {"error": "invalid_request"} so every client sees one error format.
// A client too slow to send its request (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS) is simply
// disconnected: there is nobody listening worth answering.
import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { ApiError } from '../errors.js';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';

export function clientErrorHandler(logger: Logger, metrics: Metrics) {
  return (error: Error & { code?: string }, socket: Duplex): void => {
    const responseStarted = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
    if (error.code === 'ECONNRESET' || !socket.writable || responseStarted) {
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
    const requestId = randomUUID();
    const status = new ApiError('invalid_request').status;
    const body = JSON.stringify(new ApiError('invalid_request').body);
    logger.info({ requestId, code: error.code, status }, 'malformed request');
    metrics.observe('malformed', 'unknown', status, 0);
    socket.end(
      `HTTP/1.1 ${status} Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  };
}
