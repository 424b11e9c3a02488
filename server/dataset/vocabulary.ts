// The realistic vocabulary (the bench's and the demo's): names by origin, Zipf-ranked from
// faker's locale data (pools.ts), North American phones in E.164 with some households
// sharing a line, streets and cities, payroll ids for every employment and HRIS or
// benefits ids for some. The bench's targets depend on how selective these are: a change
// to a share here changes what its ratios compare (bump its GENERATOR_VERSION).
import { DAY, type Identity, type Vocabulary } from './generate.js';
import type { Pools } from './pools.js';
import type { Random } from './random.js';

export function realisticVocabulary(pools: Pools): Vocabulary {
  const recentPhones: string[] = [];
  const phone = (random: Random) => {
    if (recentPhones.length > 100 && random.chance(0.02)) return random.pick(recentPhones); // a shared household line
    const fresh = usPhone(random);
    if (recentPhones.length < 1_000) recentPhones.push(fresh);
    else recentPhones[random.int(0, 999)] = fresh;
    return fresh;
  };
  return {
    identity(random): Identity {
      const origin = pools.origins.draw(random);
      const sex = random.chance(0.5) ? 'female' : 'male';
      // Some people carry a name from another origin (families mix), a few a double name.
      const lastOrigin = random.chance(0.15) ? pools.origins.draw(random) : origin;
      let last = lastOrigin.lastNames[sex].draw(random);
      if (random.chance(0.03)) last = `${last}-${pools.origins.draw(random).lastNames[sex].draw(random)}`;
      const first = origin.firstNames[sex].draw(random);
      const number = phone(random);
      const gender = random.chance(0.88) ? sex : random.chance(0.8) ? null : 'nonbinary';
      return { first, last, phone: number, gender, dob: dateOnly(Date.UTC(1956, 0, 1) + random.int(0, 52 * 365) * DAY) };
    },
    // A later job sometimes comes with a new phone number.
    laterJob: (random, who) => (random.chance(0.1) ? { ...who, phone: usPhone(random) } : who),
    externalIds(random) {
      const ids: [string, string][] = [['payroll', `PR-${random.digits(7)}`]];
      if (random.chance(0.5)) ids.push(['hris', `EMP-${random.digits(6)}`]);
      if (random.chance(0.15)) ids.push(['benefits', `BEN-${random.digits(8)}`]);
      return ids;
    },
    address: (random) => ({
      line1: `${random.int(1, 9999)} ${random.pick(pools.streets)}`,
      line2: random.chance(0.3) ? random.pick(pools.streetSuffixes) : null,
      city: random.pick(pools.cities),
      state: random.pick(pools.states),
      postalCode: random.digits(5),
    }),
  };
}

/** A North American number in E.164: area code and exchange never start with 0/1 nor end in 11. */
export function usPhone(random: Random): string {
  return `+1${phonePart(random)}${phonePart(random)}${random.digits(4)}`;
}

function phonePart(random: Random): number {
  let p: number;
  do p = random.int(200, 999);
  while (p % 100 === 11);
  return p;
}

const dateOnly = (ms: number) => new Date(ms).toISOString().slice(0, 10);
