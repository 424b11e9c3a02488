// The words the employment's declaration (employment.ts) is written in: a field of an
// import record with the column it is stored in and its JSON Schema, which carries the
// field's TypeScript type, so the record types follow from the fields; where the contract's
// Employee shows it; and a search filter with the column it reads. Nothing here is SQL:
// db/ builds its statements from these declarations.

export type SqlType = 'uuid' | 'text' | 'date' | 'timestamptz' | 'jsonb' | 'boolean';

declare const valueType: unique symbol;
/** A JSON Schema of the import's records; `T` is the type of the values it accepts (a type only). */
export type Schema<T> = { readonly [key: string]: unknown; readonly [valueType]?: T };

export const uuid: Schema<string> = { type: 'string', format: 'uuid' };
export const date: Schema<string> = { type: 'string', format: 'date' };
export const dateTime: Schema<string> = { type: 'string', format: 'date-time' };
/** Text of 1 to `max` characters. */
export const text = (max = 200): Schema<string> => ({ type: 'string', minLength: 1, maxLength: max });
/** Text of at most `max` characters, empty allowed. */
export const anyText = (max: number): Schema<string> => ({ type: 'string', maxLength: max });
export const nullable = <T>(schema: Schema<T>): Schema<T | null> => ({ anyOf: [schema, { type: 'null' }] });
export const oneOf = <const V extends string | null>(...values: V[]): Schema<V> => ({ enum: values });
/** A company id: 1-64 of A-Z a-z 0-9 _ -, starting with a letter or digit. */
export const companyIdPattern = '^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$';
export const companyIdSchema: Schema<string> = { type: 'string', pattern: companyIdPattern };

export interface FieldOptions {
  /** May be absent from a record, and is then stored as null (a field added after files were written without it). */
  readonly optional?: boolean;
  /**
   * The column holding the value folded (names.ts foldName), written beside it: what a
   * `contains` filter on the field reads.
   */
  readonly folded?: string;
}

export interface Field<
  Name extends string = string,
  Column extends string = string,
  T = unknown,
  Folded extends string | undefined = string | undefined,
  Optional extends boolean = boolean,
> {
  /** Where the value sits in the record: 'address.line1' is record.address.line1. */
  readonly name: Name;
  readonly path: readonly string[];
  readonly column: Column;
  readonly type: SqlType;
  /** JSON Schema of the field (nullable fields say so here). */
  readonly schema: Schema<T>;
  readonly optional: Optional;
  readonly folded: Folded;
}

type FoldedOf<Options> = Options extends { folded: infer Folded extends string } ? Folded : undefined;
type OptionalOf<Options> = Options extends { optional: true } ? true : false;

export function field<const Name extends string, const Column extends string, T, const Options extends FieldOptions = Record<never, never>>(
  name: Name,
  column: Column,
  type: SqlType,
  schema: Schema<T>,
  options?: Options,
): Field<Name, Column, T, FoldedOf<Options>, OptionalOf<Options>> {
  return {
    name,
    path: name.split('.'),
    column,
    type,
    schema,
    optional: (options?.optional === true) as OptionalOf<Options>,
    folded: options?.folded as FoldedOf<Options>,
  };
}

/** The value at `path` in a record. */
export function valueAt(record: unknown, path: readonly string[]): unknown {
  let value = record as any;
  for (const key of path) value = value?.[key];
  return value;
}

/** Every column the fields are stored in: their own and their folded copies'. */
export type ColumnsOf<Fields extends readonly Field[]> = Fields[number]['column'] | Exclude<Fields[number]['folded'], undefined>;

// The record a list of fields describes: 'address.line1' of type string becomes
// { address: { line1: string } }, an optional field an optional key.
type FieldValue<F> = F extends Field<string, string, infer T> ? T : never;
type Nest<Path extends string, Value, Optional extends boolean> = Path extends `${infer Head}.${infer Rest}`
  ? { [K in Head]: Nest<Rest, Value, Optional> }
  : Optional extends true
    ? { [K in Path]?: Value }
    : { [K in Path]: Value };
type FieldObject<F> = F extends Field<infer Name, string, unknown, string | undefined, infer Optional> ? Nest<Name, FieldValue<F>, Optional> : never;
type Intersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
/** An intersection of object types written out as one object type (what an editor shows). */
export type Expand<T> = T extends readonly unknown[] ? T : T extends object ? { [K in keyof T]: Expand<T[K]> } : T;
export type RecordOf<Fields extends readonly Field[]> = Intersection<FieldObject<Fields[number]>>;

/** A per-employment record shown as an object of its fields, null where the employment has none. */
export interface RecordNode<Kind extends string = string> {
  readonly $record: Kind;
}
/** A value the query derives from several columns (its SQL is db/reads/employeeJson.ts's). */
export interface DerivedNode {
  readonly $derived: 'membershipStatus';
}
/**
 * Where the contract's object `T` (the Employee) takes each of its values, key by key in
 * the contract's order: an employee field (by name), a per-employment record, a derived
 * value, or an object of such. Typed by the contract, so a key it lacks or adds fails to
 * compile.
 */
export type JsonLayout<T, FieldName extends string, Kind extends string> = {
  readonly [K in keyof T]-?: NonNullable<T[K]> extends readonly unknown[]
    ? FieldName
    : NonNullable<T[K]> extends object
      ? JsonLayout<NonNullable<T[K]>, FieldName, Kind> | RecordNode<Kind>
      : FieldName | DerivedNode;
};

/**
 * A search filter: the request field of the same name, turned into a value and compared
 * with one column of an employment. The column is typed by the declaration's columns, so a
 * filter cannot name one that is not stored.
 */
export interface FilterRule<Column extends string = string> {
  /** The employees column it reads: a query route whose table lacks it is not taken (db/reads/persons/nameRoutes.ts). */
  readonly column: Column;
  /**
   * How: `column = value`, `column >= value`, `column < value`, or the value folded
   * (names.ts foldName) anywhere in the folded column (`%`, `_` and `\` literal).
   */
  readonly match: 'equals' | 'atLeast' | 'below' | 'contains';
  /** The SQL type the value is read as (else text). */
  readonly cast?: 'uuid' | 'timestamptz';
  /** The request's phone normalized to E.164 (one that cannot be parsed is invalid_request). */
  readonly value?: 'e164';
  /** A lookup key: it picks out a handful of employments by an index of its own (db/reads/personsByKey/). */
  readonly lookup?: true;
  /**
   * Whether the people rollups (kept per company and UTC day of person creation) can count
   * a listing under this filter, and by which: a filter they cannot count makes the query
   * count its matches one by one (db/reads/persons/listing.ts).
   */
  readonly rollups: 'company' | 'creation day' | 'cannot';
}
