// Child spans of a request for what it asks of PostgreSQL (on either engine) and Redis.
// A statement's text is recorded, never its parameters: every statement a request runs is
// parameterized, so the values (names, phones, ids) travel only as parameters. A Redis
// command is recorded by its name only: its keys hold credential ids and client addresses.
// Work outside a request makes no spans (migrations, housekeeping, the audit shipper),
// but for the webhook worker's deliveries: each is a root span of its own (jobSpans), its
// statements children of it.
import { context, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';
import type { Redis } from 'ioredis';
import type { Queryable } from '../../db/engines/database.js';

export function queryableSpans(tracer: Tracer, target: Queryable): Queryable {
  return {
    query(sql, params, options) {
      const parent = context.active();
      if (!trace.getSpan(parent)) return target.query(sql, params, options);
      const operation = operationOf(sql);
      const span = tracer.startSpan(
        operation,
        {
          kind: SpanKind.CLIENT,
          attributes: { 'db.system.name': 'postgresql', 'db.operation.name': operation, 'db.query.text': statementText(sql) },
        },
        parent,
      );
      return settle(span, target.query(sql, params, options));
    },
  };
}

/** A job's root span (Tracing.job): INTERNAL, its statements' spans its children. */
export function jobSpans(tracer: Tracer) {
  return <T>(
    name: string,
    attributes: Record<string, string | number>,
    work: (annotate: (attributes: Record<string, string | number>) => void) => Promise<T>,
  ) => {
    const span = tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes }, ROOT_CONTEXT);
    return context.with(trace.setSpan(ROOT_CONTEXT, span), () =>
      settle(
        span,
        work((more) => span.setAttributes(more)),
      ),
    );
  };
}

/** The part of ioredis's Command that a span needs. */
interface Command {
  name: string;
  promise: Promise<unknown>;
}

export function redisSpans(tracer: Tracer, client: Redis): void {
  // Every command goes through the client's sendCommand, those of a MULTI or a pipeline too.
  const send = client.sendCommand;
  const server = { 'server.address': client.options.host ?? 'localhost', 'server.port': client.options.port ?? 6379 };
  client.sendCommand = function (this: Redis, command: Command, ...rest: unknown[]) {
    const parent = context.active();
    if (trace.getSpan(parent)) {
      const operation = command.name.toUpperCase();
      const span = tracer.startSpan(
        operation,
        { kind: SpanKind.CLIENT, attributes: { 'db.system.name': 'redis', 'db.operation.name': operation, ...server } },
        parent,
      );
      void settle(span, command.promise).catch(() => {});
    }
    return (send as (...args: unknown[]) => unknown).call(this, command, ...rest);
  } as Redis['sendCommand'];
}

/** Ends `span` when `work` settles; a failure is marked by its code or type, never its message (which may quote values). */
function settle<T>(span: Span, work: Promise<T>): Promise<T> {
  return work.then(
    (result) => {
      span.end();
      return result;
    },
    (error: unknown) => {
      const code = (error as { code?: unknown })?.code;
      span.setAttribute('error.type', typeof code === 'string' ? code : ((error as Error)?.constructor?.name ?? 'Error'));
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      throw error;
    },
  );
}

/** Distinct statements are few (each is built from a handful of shapes): their recorded texts are kept. */
const STATEMENT_TEXTS_KEPT = 1_000;
const statementTexts = new Map<string, string>();

/**
 * The text recorded: runs of whitespace (the source's line breaks and indentation)
 * collapsed. Get person's statement is 4 kB as written; every character of it is paid for
 * again in each span's export.
 */
function statementText(sql: string): string {
  let text = statementTexts.get(sql);
  if (text === undefined) {
    text = sql.replace(/\s+/g, ' ').trim();
    if (statementTexts.size < STATEMENT_TEXTS_KEPT) statementTexts.set(sql, text);
  }
  return text;
}

/** The statement's first keyword (SELECT, WITH, INSERT…): its span's name. */
function operationOf(sql: string): string {
  const match = /^\s*(?:--[^\n]*\n\s*)*([A-Za-z]+)/.exec(sql);
  return match ? match[1]!.toUpperCase() : 'postgresql';
}
