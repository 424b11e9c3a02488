// Everything a pino logger writes, kept in memory as text and as parsed lines.
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../server/observability/logger.js';

export interface LogCapture {
  logger: Logger;
  text(): string;
  lines(): Record<string, any>[];
}

export function captureLogs(level = 'info'): LogCapture {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return {
    logger: createLogger(level, stream),
    text: () => chunks.join(''),
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
  };
}
