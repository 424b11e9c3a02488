// The report's measurement sections: hello beside the bare handler, and on each engine the
// person and employee operations beside direct SQL and the node:http floor, then the access
// audit's cost.
import { type Engine, serviceName } from '../plan.js';
import { median } from '../stats.js';
import { BARE_SEARCH } from '../targets.js';
import {
  auditCost,
  type Column,
  type CredentialName,
  columns,
  cpuRatio,
  credentialNames,
  DIRECT,
  engineName,
  helloInstructionMedians,
  int,
  ms,
  orDash,
  pct,
  serviceAndDatabaseCpu,
  share,
  table,
} from './format.js';
import type { Report, Row } from './summary.js';

export function helloSection(report: Report): string[] {
  const hello = report.summary.filter((r) => r.group === 'hello');
  if (!hello.length) return [];
  const bare = hello.find((r) => r.target.startsWith('bare'));
  const columnsOf: Column<Row>[] = [
    ['Target', (r) => r.target],
    ['req/s', (r) => int(r.rps)],
    ['vs bare node:http', (r) => share(r.rps, bare?.rps)],
    ['CPU µs/req', (r) => orDash(r.cpuUsPerRequest, ms)],
    ['vs bare (CPU)', (r) => share(bare?.cpuUsPerRequest, r.cpuUsPerRequest)],
    ['p50 ms', (r) => ms(r.p50)],
    ['p99 ms', (r) => ms(r.p99)],
    ['peak RSS MB', (r) => orDash(r.rssPeakMb)],
    ['cold start ms', (r) => int(report.coldStartMs[r.target] ?? Number.NaN)],
  ];
  const problemLines = problems(hello, credentialNames(report.raw));
  return ['## Hello (GET /v1/companies/{companyId}/hello)', '', ...columns(columnsOf, hello), '', ...helloInstructionLines(report), ...problemLines];
}

function helloInstructionLines({ raw }: Report): string[] {
  const counts = Object.entries(raw.helloInstructions ?? {});
  const medians = helloInstructionMedians(raw);
  if (!counts.length || !medians) return [];
  const { batchRequests, warmupRequests, perRequest } = counts[0]![1];
  const each = counts.map(([name, c]) => `${name} ${int(median(c.perRequest))} (${c.perRequest.map(int).join(', ')})`).join('; ');
  return [
    `Instructions per request (callgrind, every thread, after ${int(warmupRequests)} requests of warm-up; ` +
      `median of ${perRequest.length} batches of ${int(batchRequests)}, each batch in brackets): ${each}. ` +
      `The bare handler's count is ${pct(medians.bare / medians.service)} of the service's.`,
    '',
  ];
}

/** Each engine's section: the operations, then the audit's cost. */
export function enginesSection(report: Report): string[] {
  const credentialName = credentialNames(report.raw);
  return (['postgres', 'pglite'] as const).flatMap((engine) => {
    const rows = report.summary.filter((r) => r.group === engine);
    if (!rows.length) return [];
    return [...operationsTable(report, engine, rows, credentialName), ...auditTable(engine, rows, credentialName)];
  });
}

/** The service's row of a scenario, with the same scenario's direct-SQL and node:http floor rows. */
type Beside = { s: Row; direct?: Row; floor?: Row };
const besides = (rows: Row[], service: string): Beside[] => {
  const of = (s: Row, target: string) => rows.find((r) => r.scenario === s.scenario && r.target === target);
  return rows.filter((r) => r.target === service).map((s) => ({ s, direct: of(s, DIRECT), floor: of(s, BARE_SEARCH) }));
};

function operationsTable(report: Report, engine: Engine, rows: Row[], credentialName: CredentialName): string[] {
  const { raw } = report;
  const d = raw.datasets.find((x) => x.engine === engine)!;
  const credentials = d.credentials.map((c) => {
    const companies = `${c.companies} ${c.companies === 1 ? 'company' : 'companies'}`;
    return `${credentialName(engine, c.key)} (${companies}, ${c.people.toLocaleString('en-US')} people)`;
  });
  const note = (s: Row) => raw.scenarios.find((x) => x.id === s.scenario)?.note;
  const floorColumns: Column<Beside>[] = [
    ['floor req/s', ({ floor }) => orDash(floor?.rps, int)],
    ['floor / direct', ({ floor, direct }) => share(floor?.rps, direct?.rps)],
    ['service / floor', ({ s, floor }) => share(s.rps, floor?.rps)],
  ];
  const columnsOf: Column<Beside>[] = [
    ['Operation / filter', ({ s }) => `${s.label}${note(s) ? ` (${note(s)})` : ''}`],
    ['Credential', ({ s }) => credentialName(engine, s.credential)],
    ['service req/s', ({ s }) => int(s.rps)],
    ['direct SQL req/s', ({ direct }) => orDash(direct?.rps, int)],
    ['service / direct', ({ s, direct }) => share(s.rps, direct?.rps)],
    ...(rows.some((r) => r.target === BARE_SEARCH) ? floorColumns : []),
    ['service p50 ms', ({ s }) => ms(s.p50)],
    ['service p99 ms', ({ s }) => ms(s.p99)],
    ['service bytes per response', ({ s }) => orDash(s.bytesPerResponse, int)],
    ['direct p50 ms', ({ direct }) => orDash(direct?.p50, ms)],
    ['direct p99 ms', ({ direct }) => orDash(direct?.p99, ms)],
    ['peak RSS MB', ({ s }) => orDash(s.rssPeakMb)],
  ];
  return [
    `## Person operations on ${engineName[engine]} (${d.people.toLocaleString('en-US')} people)`,
    '',
    `Credentials: ${credentials.join('; ')}. Each request draws its filter value from the data (a pool of up to ${raw.options.samples} per row).`,
    '',
    ...columns(columnsOf, besides(rows, serviceName(engine)), 2),
    '',
    ...problems(rows, credentialName),
    `Cold start (spawn → first successful response): ${int(report.coldStartMs[serviceName(engine)] ?? Number.NaN)} ms.`,
    '',
  ];
}

/** The service with its audit on beside off: by rate and latency, then by CPU per request of the service and its database. */
function auditTable(engine: Engine, rows: Row[], credentialName: CredentialName): string[] {
  const audit = auditCost(rows, serviceName(engine));
  if (!audit.length) return [];
  const cpu = (r: Row) =>
    serviceAndDatabaseCpu(r) === undefined ? '–' : `${ms(r.cpuUsPerRequest!)} + ${ms(r.dbCpuUsPerRequest!)} = ${ms(serviceAndDatabaseCpu(r)!)}`;
  const lines = audit.map((c) => {
    const { on, off, ratio } = c;
    const latencies = [ms(on.p50), ms(on.p99), ms(off.p50), ms(off.p99)];
    return [on.label, credentialName(engine, on.credential), int(on.rps), int(off.rps), pct(ratio), ...latencies, cpu(on), cpu(off), orDash(cpuRatio(c), pct)];
  });
  const header = ['Operation / filter', 'Credential', 'audit on req/s', 'audit off req/s', 'on / off', 'on p50 ms', 'on p99 ms', 'off p50 ms', 'off p99 ms'];
  header.push('on: service + database µs', 'off: service + database µs', 'CPU off / on');
  return [`### Access audit cost on ${engineName[engine]}`, '', ...table(header, lines, 2), ''];
}

/** Failed requests, listed under the table: their latencies are not in the percentiles. */
function problems(rows: Row[], credentialName: CredentialName): string[] {
  const failing = rows.filter((r) => r.non2xx || r.errors);
  if (!failing.length) return [];
  const line = (r: Row) => {
    const credential = r.credential ? ` (${credentialName(r.group, r.credential)})` : '';
    return `- ⚠ ${r.label}${credential} · ${r.target}: ${r.non2xx} non-2xx responses, ${r.errors} errors or timeouts (over all rounds)`;
  };
  return [...failing.map(line), ''];
}
