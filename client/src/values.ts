/**
 * `valuesOf<U>()([...])`: the members of the string union `U` as a value, checked against it
 * by the compiler: a member missing from the list, or one the union lacks, does not compile.
 * So a state or code the contract adds shows up here as a type error, in one obvious place.
 */
export const valuesOf =
  <U extends string>() =>
  <const L extends readonly U[]>(list: L & ([U] extends [L[number]] ? unknown : { missing: Exclude<U, L[number]> })): readonly U[] =>
    list;
