// `call`: HTTP to a running server (in-process, or one a test started as a process),
// checking every response against the contract.

import { expectContractResponse } from './contract.js';

export interface CallOptions {
  token?: string;
  body?: unknown;
  /** Sent as it is, without JSON encoding. */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface CallResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export type Call = <T = any>(method: string, path: string, options?: CallOptions) => Promise<CallResult<T>>;

/**
 * fetch, sent again once when the connection was reset before any answer came: a pooled
 * keep-alive connection that the server closed, as it may once idle, just as the request
 * went out (the request never reached the server). Under a heavily loaded machine the
 * client's and the server's idle timers can cross.
 */
async function fetchOnce(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if (code !== 'ECONNRESET' && code !== 'UND_ERR_SOCKET') throw error;
    return fetch(url, init);
  }
}

export function contractCall(baseUrl: string): Call {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    let body = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetchOnce(baseUrl + path, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: the contract check reports it
    }
    expectContractResponse(method, path, response.status, response.headers, parsed);
    return { status: response.status, headers: response.headers, body: parsed as any };
  };
}
