import { describe, expect, it } from 'vitest';
import { foldName } from '../../server/domain/names.js';
import { toE164 } from '../../server/domain/phone.js';

describe('phone normalization to E.164', () => {
  it.each([
    ['(415) 555-0132', 'US', '+14155550132'],
    ['415.555.0132', 'US', '+14155550132'],
    ['+1 415 555 0132', 'US', '+14155550132'],
    ['+44 20 7946 0958', 'US', '+442079460958'],
    ['020 7946 0958', 'GB', '+442079460958'],
  ])('%s in %s is %s', (input, region, expected) => {
    expect(toE164(input, region)).toBe(expected);
  });

  it.each(['abc', '', '12', '+', '555-01'])('%j is not a phone number', (input) => {
    expect(toE164(input, 'US')).toBeUndefined();
  });
});

describe('name folding', () => {
  it('is Unicode-aware and normalization-insensitive', () => {
    expect(foldName('ÉMILE')).toBe('émile');
    expect(foldName('E\u0301mile')).toBe('émile');
    expect(foldName('ZOË')).toBe(foldName('zoë'));
  });

  // The misses an outside probe found, and the rule of DECISIONS.md behind them:
  // compatibility normalization, then full case folding, not locale-specific.
  it.each([
    ['ΟΔΥΣ', 'ΟΔΥΣΣΕΥΣ'],
    ['strasse', 'Straße'],
    ['STRASSE', 'STRAẞE'],
    ['fiona', 'ﬁona'],
    ['maria', 'Ｍａｒｉａ'],
    ['σ', 'ς'],
  ])('folds %j into a part of %j', (query, name) => {
    expect(foldName(name)).toContain(foldName(query));
  });

  it('keeps accents, and folds the same whatever the composition', () => {
    expect(foldName('Émile')).not.toContain(foldName('Emile'));
    expect(foldName('E\u0301MILE')).toBe(foldName('émile'));
    // Not Turkish: dotless ı stays itself, İ folds to i with a combining dot.
    expect(foldName('ı')).toBe('ı');
    expect(foldName('İ')).toBe('i\u0307');
  });
});
