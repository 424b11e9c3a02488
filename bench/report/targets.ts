// Each goal, what the run measured of it, and whether that meets it: hello against the bare
// handler, the person and employee operations on each engine, the access audit's cost,
// memory and cold start. (The import goals are `--imports` run's: imports/report.ts.)
import { isEmployeeKind } from '../employeeScenarios.js';
import type { Engine } from '../plan.js';
import type { RunResult } from '../run.js';
import type { PersonKind } from '../scenarios.js';
import { median } from '../stats.js';
import { BARE_SEARCH } from '../targets.js';
import { auditCost, cpuRatio, DIRECT, helloInstructionMedians } from './figures.js';
import { type CredentialName, credentialNames, engineName, int, ms, pct } from './format.js';
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

export function evaluateTargets(raw: RunResult, summary: Row[]): TargetCheck[] {
  const engines = (['postgres', 'pglite'] as const).filter((engine) => summary.some((r) => r.group === engine));
  return [...helloTargets(raw, summary), ...engines.flatMap((engine) => engineTargets(raw, summary, engine))];
}

/** Hello against the bare node:http handler: by rate, by CPU per request (steadier on a shared host), by instructions (which its other work does not move). */
function helloTargets(raw: RunResult, summary: Row[]): TargetCheck[] {
  const hello = summary.filter((r) => r.group === 'hello');
  const service = hello.find((r) => r.target.startsWith('service'));
  const bare = hello.find((r) => r.target.startsWith('bare'));
  const checks: TargetCheck[] = [
    {
      goal: 'hello: at least 80% of the bare node:http handler’s requests per second',
      measured: service && bare ? `${pct(service.rps / bare.rps)} (${int(service.rps)} vs ${int(bare.rps)} req/s)` : 'not measured',
      met: service && bare ? service.rps / bare.rps >= 0.8 : undefined,
    },
  ];
  if (service?.cpuUsPerRequest && bare?.cpuUsPerRequest) {
    const [s, b] = [service.cpuUsPerRequest, bare.cpuUsPerRequest];
    checks.push({
      goal: 'hello: CPU time per request at most 1.25× the bare node:http handler’s (80% of its rate when CPU-bound)',
      measured: `${pct(b / s)} (${ms(s)} vs ${ms(b)} µs)`,
      met: b / s >= 0.8,
    });
  }
  const instructions = helloInstructionMedians(raw);
  if (instructions) {
    checks.push({
      goal: 'hello: instructions per request at most 1.25× the bare node:http handler’s (callgrind)',
      measured: `${pct(instructions.bare / instructions.service)} (${int(instructions.service)} vs ${int(instructions.bare)})`,
      met: instructions.bare / instructions.service >= 0.8,
    });
  }
  return checks;
}

/** One engine's rows, named for its goals. */
interface EngineRows {
  engine: Engine;
  /** "PostgreSQL, 1,000,000 people" */
  at: string;
  rows: Row[];
  serviceName: string;
  services: Row[];
  credentialName: CredentialName;
}

function engineTargets(raw: RunResult, summary: Row[], engine: Engine): TargetCheck[] {
  const rows = summary.filter((r) => r.group === engine);
  const people = raw.datasets.find((d) => d.engine === engine)?.people;
  const serviceName = `service (${engineName[engine]})`;
  const e: EngineRows = {
    engine,
    at: `${engineName[engine]}, ${people?.toLocaleString('en-US')} people`,
    rows,
    serviceName,
    services: rows.filter((r) => r.target === serviceName),
    credentialName: credentialNames(raw),
  };
  return [
    ...getPersonLatency(e),
    ...(engine === 'postgres' ? DIRECT_SHARE_GOALS.flatMap((goal) => directShare(e, goal)) : []),
    ...employeeTargets(e),
    ...searchLatency(e),
    ...worstCase(e),
    ...auditTarget(e),
    ...memoryAndStart(raw, summary, e),
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
  const measured = e.services
    .filter((r) => kinds.includes(kindOf(r)))
    .map((r) => ({ r, d: beside(e, r, DIRECT) }))
    .filter((m): m is { r: Row; d: Row } => m.d !== undefined);
  if (!measured.length) return [];
  const ratio = ({ r, d }: { r: Row; d: Row }) => r.rps / d.rps;
  const floorOf = ({ r, d }: { r: Row; d: Row }) => {
    const floor = beside(e, r, BARE_SEARCH);
    return floor ? ` (floor ${pct(floor.rps / d.rps)})` : '';
  };
  const lowest = measured.reduce((a, b) => (ratio(b) < ratio(a) ? b : a));
  const each = measured.map((m) => `${named(e, m.r)} ${pct(ratio(m))}${floorOf(m)}`);
  return [
    {
      goal: `${what} (${e.at}), every credential: at least ${pct(share)} of the direct-SQL rate`,
      measured: `${each.join('; ')}; lowest ${pct(ratio(lowest))}`,
      met: measured.every((m) => ratio(m) >= share),
    },
  ];
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
  return [
    {
      goal: `Search employees, every filter kind (${e.at}): p99 < 50 ms and at least 85% of the node:http floor's rate`,
      measured: each.join('; '),
      met: employees.every(meets),
    },
  ];
}

function searchLatency(e: EngineRows): TargetCheck[] {
  const searches = e.services.filter((r) => !r.scenario.includes(':getPerson:') && !r.scenario.includes(':worstCase:') && !isEmployeeKind(kindOf(r)));
  if (!searches.length) return [];
  const missed = searches.filter((r) => !(r.p99 < 50));
  const worst = searches.reduce((a, b) => (b.p99 > a.p99 ? b : a));
  const over = missed.map((r) => `${named(e, r)} ${ms(r.p99)} ms`);
  return [
    {
      goal: `Search persons, every filter kind (${e.at}): p99 < 50 ms`,
      measured: missed.length
        ? `${missed.length} of ${searches.length} over: ${over.join('; ')}`
        : `all ${searches.length} under; slowest ${named(e, worst)} ${ms(worst.p99)} ms`,
      met: missed.length === 0,
    },
  ];
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
      const latency: TargetCheck = {
        goal: `${r.label} (every company, ${e.at}): p99 < 50 ms`,
        measured: `${ms(r.p99)} ms, ${int(r.rps)} req/s${failed}`,
        met: r.p99 < 50 && r.non2xx === 0,
      };
      return e.engine === 'postgres' ? [filed, latency] : [latency];
    });
}

function auditTarget(e: EngineRows): TargetCheck[] {
  const audit = auditCost(e.rows, e.serviceName);
  if (!audit.length) return [];
  const worst = audit.reduce((a, b) => (b.ratio < a.ratio ? b : a));
  const each = audit.map((c) => `${named(e, c.on)} ${pct(c.ratio)}${cpuRatio(c) ? ` (CPU ${pct(cpuRatio(c)!)})` : ''}`);
  return [
    {
      goal: `Access audit (${e.at}): costs at most 10% of search and Get person throughput (audit on / off)`,
      measured: `${each.join('; ')}; lowest ${pct(worst.ratio)}`,
      met: audit.every((c) => c.ratio >= 0.9),
    },
  ];
}

/** The service's peak RSS under load, and on PostgreSQL its cold start as built. */
function memoryAndStart(raw: RunResult, summary: Row[], e: EngineRows): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const name = engineName[e.engine];
  const rss = summary.filter((r) => r.target === e.serviceName && r.rssPeakMb !== undefined).map((r) => r.rssPeakMb!);
  if (rss.length) checks.push({ goal: `service on ${name}: RSS under 150 MB at load`, measured: `peak ${Math.max(...rss)} MB`, met: Math.max(...rss) < 150 });
  const coldStart = raw.coldStarts[e.serviceName];
  if (e.engine === 'postgres' && coldStart?.length) {
    const started = median(coldStart);
    checks.push({ goal: `service on ${name}: cold start (spawn to first 200) at most 1 s, built`, measured: `${int(started)} ms`, met: started <= 1000 });
  }
  return checks;
}
