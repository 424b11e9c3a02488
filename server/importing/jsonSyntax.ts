// Where and why a text is not JSON, for the operator to fix it: the parser's reason and the
// line and column where it stops. Only a text that failed to parse comes here, so this
// may take its time. V8's JSON.parse names a position for most errors but not for an
// unexpected token: that one is the end of the longest prefix that could still begin a
// JSON text, found by bisection. A streamed JSON array is parsed by stream-json, whose
// stop stopOf() finds by feeding it a character at a time.
import { jsonParser } from 'stream-json/core/parser.js';

export interface SyntaxPlace {
  /** 1-based, in the text given. */
  line: number;
  /** 1-based, in characters (code points) from the start of its line. */
  column: number;
}

/** Line and column of the UTF-16 index `at` in `text`. */
export function placeOf(text: string, at: number): SyntaxPlace {
  const before = text.slice(0, at);
  const lineStart = before.lastIndexOf('\n') + 1;
  let column = 1;
  for (const _ of before.slice(lineStart)) column++;
  let line = 1;
  for (let i = before.indexOf('\n'); i !== -1; i = before.indexOf('\n', i + 1)) line++;
  return { line, column };
}

/**
 * The UTF-16 index in `text` of the character stream-json's parser stops at, or its length
 * if it never does; `parse` may have been fed the text before.
 */
export function stopOf(text: string, parse: (chunk: string) => unknown = jsonParser()): number {
  let at = 0;
  for (const character of text) {
    try {
      parse(character);
    } catch {
      return at;
    }
    at += character.length;
  }
  return text.length;
}

/** Why JSON.parse refused `text` (its `error`), and where: column 12, "Expected ',' or '}' after property value". */
export function jsonLineProblem(text: string, error: unknown): { column: number; reason: string } {
  const message = String((error as Error)?.message ?? error);
  const position = /at position (\d+)/.exec(message);
  // V8's reason without its position and without the text it quotes (a record's data).
  const reason =
    message
      .replace(/ at position \d+.*$/s, '')
      .replace(/ in JSON$/, '')
      .replace(/, (\.\.\.)?".*"(\.\.\.)? is not valid JSON$/s, '')
      .replace(/^".*" is not valid JSON$/s, 'not JSON') || 'not JSON';
  const at = position ? Number(position[1]) : /end of JSON input/.test(message) ? text.length : firstUnviable(text);
  return { column: placeOf(text, Math.min(at, text.length)).column, reason };
}

/**
 * The index of the first character no JSON text can have there: a prefix is viable while
 * JSON.parse takes it or stops only at its end (it was cut short), and stays unviable once
 * it is not, so the boundary is found by bisection.
 */
function firstUnviable(text: string): number {
  const viable = (length: number): boolean => {
    try {
      JSON.parse(text.slice(0, length));
      return true;
    } catch (error) {
      const message = String((error as Error).message);
      const position = /at position (\d+)/.exec(message);
      return /end of JSON input/.test(message) || (position !== null && Number(position[1]) >= length);
    }
  };
  let low = 0; // viable
  let high = text.length; // not viable (JSON.parse refused the whole)
  while (high - low > 1) {
    const middle = (low + high) >>> 1;
    if (viable(middle)) low = middle;
    else high = middle;
  }
  return high - 1;
}
