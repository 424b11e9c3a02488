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

export function contractCall(baseUrl: string): Call {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    let body = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(baseUrl + path, { method, headers, body });
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
