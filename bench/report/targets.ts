// Each goal, what the run measured of it, and whether that meets it: hello against the bare
// handler, the person and employee operations on each engine, the access audit's cost,
// memory and cold start. (The import goals are `--imports` run's: imports/report.ts.)
import { type Engine, engineName, serviceName } from '../plan.js';
import type { RunResult } from '../run.js';
import { isEmployeeKind, type PersonKind } from '../scenarios.js';
import { median, round } from '../stats.js';
import { BARE_SEARCH } from '../targets.js';
import { auditCost, type CredentialName, cpuRatio, credentialNames, DIRECT, helloInstructionMedians, int, ms, orDash, pct } from './format.js';
import type { Row, TargetCheck } from './summary.js';

/** Issue #18: the service's rate over direct SQL's (findPersons alone), by filter kind. */
const DIRECT_SHARE_GOALS: { what: string; kinds: readonly PersonKind[]; share: number }[] = [
  { what: 'Get person, phone and personId', kinds: ['getPerson', 'phone', 'personId'], share: 0.6 },
  { what: 'name, range and offset searches', kinds: ['nameSubstring', 'firstLastName', 'companyName', 'createdRange', 'offset10k'], share: 0.8 },
];
/** The worst case's rate on PostgreSQL when issue #18 was filed (2026-11-23). */
const WORST_CASE_FILED_RPS = 16;
/** A scenario's filter kind: its id is `engine:kind:credential`. */
const kindOf = (r: Row) => r.scenario.split(':')[1] as PersonKind;
const lowestOf = <T>(items: T[], by: (item: T) => number) => items.reduce((a, b) => (by(b) < by(a) ? b : a));

export function evaluateTargets(raw: RunResult, summary: Row[]): TargetCheck[] {
  const engines = (['postgres', 'pglite'] as const).filter((engine) => summary.some((r) => r.group === engine));
  return [...helloTargets(raw, summary), ...engines.flatMap((engine) => engineTargets(raw, summary, engine))];
}

/** Hello against the bare node:http handler: by rate, by CPU per request (steadier on a shared host), by instructions (which its other work does not move). */
function helloTargets(raw: RunResult, summary: Row[]): TargetCheck[] {
  const service = summary.find((r) => r.group === 'hello' && r.target.startsWith('service'));
  const bare = summary.find((r) => r.group === 'hello' && r.target.startsWith('bare'));
  const instructions = helloInstructionMedians(raw);
  const serviceCpu = service?.cpuUsPerRequest;
  const bareCpu = bare?.cpuUsPerRequest;
  // Each a share of 80%: the service's rate over bare's, or bare's cost over the service's.
  const check = (goal: string, share: number, measured: string): TargetCheck => ({
    goal: `hello: ${goal}`,
    measured: `${pct(share)} (${measured})`,
    met: share >= 0.8,
  });
  const checks = [
    service && bare
      ? check('at least 80% of the bare node:http handler’s requests per second', service.rps / bare.rps, `${int(service.rps)} vs ${int(bare.rps)} req/s`)
      : { goal: 'hello: at least 80% of the bare node:http handler’s requests per second', measured: 'not measured', met: undefined },
  ];
  const cpuGoal = 'CPU time per request at most 1.25× the bare node:http handler’s (80% of its rate when CPU-bound)';
  if (serviceCpu && bareCpu) checks.push(check(cpuGoal, bareCpu / serviceCpu, `${ms(serviceCpu)} vs ${ms(bareCpu)} µs`));
  const counted = 'instructions per request at most 1.25× the bare node:http handler’s (callgrind)';
  if (instructions) checks.push(check(counted, instructions.bare / instructions.service, `${int(instructions.service)} vs ${int(instructions.bare)}`));
  return checks;
}

/** One engine's rows, named for its goals. */
interface EngineRows {
  engine: Engine;
  /** "PostgreSQL, 1,000,000 people" */
  at: string;
  rows: Row[];
  services: Row[];
  credentialName: CredentialName;
}

function engineTargets(raw: RunResult, summary: Row[], engine: Engine): TargetCheck[] {
  const rows = summary.filter((r) => r.group === engine);
  const people = raw.datasets.find((d) => d.engine === engine)?.people;
  const services = rows.filter((r) => r.target === serviceName(engine));
  const e: EngineRows = {
    engine,
    at: `${engineName[engine]}, ${people?.toLocaleString('en-US')} people`,
    rows,
    services,
    credentialName: credentialNames(raw),
  };
  return [
    ...getPersonLatency(e),
    ...(engine === 'postgres' ? DIRECT_SHARE_GOALS.flatMap((goal) => directShare(e, goal)) : []),
    ...employeeTargets(e),
    ...searchLatency(e),
    ...cursorPaging(e),
    ...narrowCredential(e),
    ...worstCase(e),
    ...auditTarget(e),
    ...memoryAndStart(raw, e),
  ];
}

const named = (e: EngineRows, r: Row) => `${r.label} (${e.credentialName(e.engine, r.credential)})`;
const beside = (e: EngineRows, r: Row, target: string) => e.rows.find((x) => x.scenario === r.scenario && x.target === target);

function getPersonLatency(e: EngineRows): TargetCheck[] {
  return e.services
    .filter((r) => r.scenario.includes(':getPerson:'))
    .map((r) => ({ goal: `Get person (${e.credentialName(e.engine, r.credential)}, ${e.at}): p99 < 10 ms`, measured: `${ms(r.p99)} ms`, met: r.p99 < 10 }));
}

/** Issue #18's goals, set on PostgreSQL: the service's rate as a share of direct SQL's, kind by kind; beside each, the node:http floor's own share. */
function directShare(e: EngineRows, { kinds, share, what }: (typeof DIRECT_SHARE_GOALS)[number]): TargetCheck[] {
  const measured = e.services.flatMap((r) => {
    const direct = kinds.includes(kindOf(r)) ? beside(e, r, DIRECT) : undefined;
    return direct ? [{ r, ratio: r.rps / direct.rps, floor: beside(e, r, BARE_SEARCH), direct }] : [];
  });
  if (!measured.length) return [];
  const each = measured.map(({ r, ratio, floor, direct }) => `${named(e, r)} ${pct(ratio)}${floor ? ` (floor ${pct(floor.rps / direct.rps)})` : ''}`);
  const goal = `${what} (${e.at}), every credential: at least ${pct(share)} of the direct-SQL rate`;
  return [{ goal, measured: `${each.join('; ')}; lowest ${pct(lowestOf(measured, (m) => m.ratio).ratio)}`, met: measured.every((m) => m.ratio >= share) }];
}

/** Search employees (issue 51): p99 under 50 ms and at least 85% of the node:http floor's rate, kind by kind. */
function employeeTargets(e: EngineRows): TargetCheck[] {
  const employees = e.services.filter((r) => isEmployeeKind(kindOf(r)));
  if (!employees.length) return [];
  const floorShare = (r: Row) => {
    const floor = beside(e, r, BARE_SEARCH);
    return floor ? r.rps / floor.rps : undefined;
  };
  const meets = (r: Row) => r.p99 < 50 && (floorShare(r) ?? 1) >= 0.85 && r.non2xx === 0;
  const each = employees.map((r) => `${named(e, r)} ${ms(r.p99)} ms${floorShare(r) === undefined ? '' : `, ${pct(floorShare(r)!)}`}`);
  const goal = `Search employees, every filter kind (${e.at}): p99 < 50 ms and at least 85% of the node:http floor's rate`;
  return [{ goal, measured: each.join('; '), met: employees.every(meets) }];
}

/** Issue 56: a cursor page deep in a large company costs about what the first page does (offset 10,000, the slowest page before cursors, beside them). */
function cursorPaging(e: EngineRows): TargetCheck[] {
  return e.services
    .filter((r) => kindOf(r) === 'cursorDeep')
    .flatMap((deep) => {
      const of = (kind: PersonKind) => e.services.find((r) => kindOf(r) === kind && r.credential === deep.credential);
      const [first, offset] = [of('firstPage'), of('offset10k')];
      if (!first) return [];
      const ratio = deep.p99 / first.p99;
      const beside = offset ? `; offset 10,000 ${ms(offset.p99)} ms (${round(offset.p99 / first.p99, 2)}×)` : '';
      return [
        {
          goal: `Search persons by cursor, deep in the company (${e.credentialName(e.engine, deep.credential)}, ${e.at}): p99 at most 1.2× the first page's`,
          measured: `${ms(deep.p99)} against ${ms(first.p99)} ms (${round(ratio, 2)}×)${beside}`,
          met: ratio <= 1.2 && deep.non2xx === 0,
        },
      ];
    });
}

/** Issue 57: the credential reading names and emails only, beside the full credential of the same company, kind by kind: at least its rate, and the bytes each sends. */
function narrowCredential(e: EngineRows): TargetCheck[] {
  const pairs = e.services
    .filter((r) => r.credential === 'nameEmail')
    .flatMap((narrow) => {
      const full = e.services.find((r) => r.credential === 'oneLarge' && kindOf(r) === kindOf(narrow));
      return full ? [{ narrow, full, ratio: narrow.rps / full.rps }] : [];
    });
  if (!pairs.length) return [];
  const bytes = (r: Row) => orDash(r.bytesPerResponse, int);
  const each = pairs.map(
    ({ narrow, full, ratio }) =>
      `${narrow.label} ${int(narrow.rps)} vs ${int(full.rps)} req/s (${pct(ratio)}), ${bytes(narrow)} vs ${bytes(full)} bytes per response`,
  );
  return [
    {
      goal: `a credential of names and emails (one large company, ${e.at}): at least the full credential's throughput, Get person and name search`,
      measured: each.join('; '),
      met: pairs.every((p) => p.ratio >= 1 && p.narrow.non2xx === 0),
    },
  ];
}

function searchLatency(e: EngineRows): TargetCheck[] {
  const searches = e.services.filter((r) => !r.scenario.includes(':getPerson:') && !r.scenario.includes(':worstCase:') && !isEmployeeKind(kindOf(r)));
  if (!searches.length) return [];
  const missed = searches.filter((r) => !(r.p99 < 50));
  const worst = lowestOf(searches, (r) => -r.p99);
  const over = missed.map((r) => `${named(e, r)} ${ms(r.p99)} ms`);
  const measured = missed.length
    ? `${missed.length} of ${searches.length} over: ${over.join('; ')}`
    : `all ${searches.length} under; slowest ${named(e, worst)} ${ms(worst.p99)} ms`;
  return [{ goal: `Search persons, every filter kind (${e.at}): p99 < 50 ms`, measured, met: missed.length === 0 }];
}

/** The worst case: on PostgreSQL against the rate when #18 was filed; on each engine its p99. */
function worstCase(e: EngineRows): TargetCheck[] {
  return e.services
    .filter((r) => r.scenario.includes(':worstCase:'))
    .flatMap((r) => {
      const failed = r.non2xx ? `, ${r.non2xx} non-2xx` : '';
      const filed: TargetCheck = {
        goal: `${r.label} (every company, ${e.at}): at least 3× the ${WORST_CASE_FILED_RPS} req/s measured when #18 was filed`,
        measured: `${int(r.rps)} req/s (${(r.rps / WORST_CASE_FILED_RPS).toFixed(1)}×)${failed}`,
        met: r.rps >= 3 * WORST_CASE_FILED_RPS && r.non2xx === 0,
      };
      const latency = {
        goal: `${r.label} (every company, ${e.at}): p99 < 50 ms`,
        measured: `${ms(r.p99)} ms, ${int(r.rps)} req/s${failed}`,
        met: r.p99 < 50 && r.non2xx === 0,
      };
      return e.engine === 'postgres' ? [filed, latency] : [latency];
    });
}

function auditTarget(e: EngineRows): TargetCheck[] {
  const audit = auditCost(e.rows, serviceName(e.engine));
  if (!audit.length) return [];
  const each = audit.map((c) => `${named(e, c.on)} ${pct(c.ratio)}${cpuRatio(c) ? ` (CPU ${pct(cpuRatio(c)!)})` : ''}`);
  const goal = `Access audit (${e.at}): costs at most 10% of search and Get person throughput (audit on / off)`;
  return [{ goal, measured: `${each.join('; ')}; lowest ${pct(lowestOf(audit, (c) => c.ratio).ratio)}`, met: audit.every((c) => c.ratio >= 0.9) }];
}

/** The service's peak RSS under load, and on PostgreSQL its cold start as built. */
function memoryAndStart(raw: RunResult, e: EngineRows): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const name = engineName[e.engine];
  const rss = e.services.filter((r) => r.rssPeakMb !== undefined).map((r) => r.rssPeakMb!);
  if (rss.length) checks.push({ goal: `service on ${name}: RSS under 150 MB at load`, measured: `peak ${Math.max(...rss)} MB`, met: Math.max(...rss) < 150 });
  const coldStart = raw.coldStarts[serviceName(e.engine)];
  if (e.engine === 'postgres' && coldStart?.length) {
    const started = median(coldStart);
    checks.push({ goal: `service on ${name}: cold start (spawn to first 200) at most 1 s, built`, measured: `${int(started)} ms`, met: started <= 1000 });
  }
  return checks;
}
