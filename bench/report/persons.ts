// The report's measurement sections: hello beside the bare handler, and on each engine the
// person and employee operations beside direct SQL and the node:http floor, by rate and by CPU
// per request, then the access audit's cost.
import type { Engine } from '../plan.js';
import { median } from '../stats.js';
import { BARE_SEARCH } from '../targets.js';
import { auditCost, cpuParts, cpuRatio, DIRECT, helloInstructionMedians, serviceAndDatabaseCpu } from './figures.js';
import { type CredentialName, credentialNames, engineName, int, ms, orDash, pct, table } from './format.js';
import type { Report, Row } from './summary.js';

export function helloSection(report: Report): string[] {
  const hello = report.summary.filter((r) => r.group === 'hello');
  if (!hello.length) return [];
  const bare = hello.find((r) => r.target.startsWith('bare'));
  const versus = (theirs: number | undefined, ours: number | undefined) => (theirs && ours ? pct(theirs / ours) : '–');
  const rows = hello.map((r) => [
    r.target,
    int(r.rps),
    bare ? pct(r.rps / bare.rps) : '–',
    orDash(r.cpuUsPerRequest, ms),
    versus(bare?.cpuUsPerRequest, r.cpuUsPerRequest),
    ms(r.p50),
    ms(r.p99),
    orDash(r.rssPeakMb),
    int(report.coldStartMs[r.target] ?? Number.NaN),
  ]);
  const header = ['Target', 'req/s', 'vs bare node:http', 'CPU µs/req', 'vs bare (CPU)', 'p50 ms', 'p99 ms', 'peak RSS MB', 'cold start ms'];
  return [
    '## Hello (GET /v1/companies/{companyId}/hello)',
    '',
    ...table(header, rows),
    '',
    ...helloInstructionLines(report),
    ...problems(hello, credentialNames(report.raw)),
  ];
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

/** Each engine's section: the operations, their CPU per request, the audit's cost. */
export function enginesSection(report: Report): string[] {
  const credentialName = credentialNames(report.raw);
  return (['postgres', 'pglite'] as const).flatMap((engine) => {
    const rows = report.summary.filter((r) => r.group === engine);
    if (!rows.length) return [];
    const serviceName = `service (${engineName[engine]})`;
    return [
      ...operationsTable(report, engine, rows, credentialName),
      ...cpuPerRequestTable(rows, serviceName, engineName[engine], credentialName),
      ...auditTable(engine, rows, credentialName),
    ];
  });
}

function operationsTable(report: Report, engine: Engine, rows: Row[], credentialName: CredentialName): string[] {
  const { raw } = report;
  const d = raw.datasets.find((x) => x.engine === engine)!;
  const floor = rows.some((r) => r.target === BARE_SEARCH);
  const serviceName = `service (${engineName[engine]})`;
  const credentials = d.credentials.map((c) => {
    const companies = `${c.companies} ${c.companies === 1 ? 'company' : 'companies'}`;
    return `${credentialName(engine, c.key)} (${companies}, ${c.people.toLocaleString('en-US')} people)`;
  });
  const header = ['Operation / filter', 'Credential', 'service req/s', 'direct SQL req/s', 'service / direct'];
  if (floor) header.push('floor req/s', 'floor / direct', 'service / floor');
  header.push('service p50 ms', 'service p99 ms', 'direct p50 ms', 'direct p99 ms', 'peak RSS MB');
  const lines = rows
    .filter((r) => r.target === serviceName)
    .map((s) => {
      const dr = rows.find((r) => r.scenario === s.scenario && r.target === DIRECT);
      const fr = rows.find((r) => r.scenario === s.scenario && r.target === BARE_SEARCH);
      const note = raw.scenarios.find((x) => x.id === s.scenario)?.note;
      const floorCells = floor ? [fr ? int(fr.rps) : '–', fr && dr ? pct(fr.rps / dr.rps) : '–', fr ? pct(s.rps / fr.rps) : '–'] : [];
      const direct = [dr ? int(dr.rps) : '–', dr ? pct(s.rps / dr.rps) : '–'];
      const latencies = [ms(s.p50), ms(s.p99), dr ? ms(dr.p50) : '–', dr ? ms(dr.p99) : '–'];
      const label = `${s.label}${note ? ` (${note})` : ''}`;
      return [label, credentialName(engine, s.credential), int(s.rps), ...direct, ...floorCells, ...latencies, orDash(s.rssPeakMb)];
    });
  return [
    `## Person operations on ${engineName[engine]} (${d.people.toLocaleString('en-US')} people)`,
    '',
    `Credentials: ${credentials.join('; ')}. Each request draws its filter value from the data (a pool of up to ${raw.options.samples} per row).`,
    '',
    ...table(header, lines, 2),
    '',
    ...problems(rows, credentialName),
    `Cold start (spawn → first successful response): ${int(report.coldStartMs[serviceName] ?? Number.NaN)} ms.`,
    '',
  ];
}

/** Where each request's CPU goes, for the service, the floor and direct SQL side by side. */
function cpuPerRequestTable(rows: Row[], serviceName: string, engine: string, credentialName: CredentialName): string[] {
  const services = rows.filter((r) => r.target === serviceName && cpuParts(r));
  if (!services.length) return [];
  const floor = rows.some((r) => r.target === BARE_SEARCH);
  const cell = (r: Row | undefined) => {
    const cpu = cpuParts(r);
    return cpu ? `${cpu.parts.map(ms).join(' + ')} = **${ms(cpu.total)}**` : '–';
  };
  const share = (direct: Row | undefined, other: Row | undefined) => {
    const [d, o] = [cpuParts(direct), cpuParts(other)];
    return d && o ? pct(d.total / o.total) : '–';
  };
  const header = ['Operation / filter', 'Credential', 'service', ...(floor ? [BARE_SEARCH] : []), 'direct SQL', 'direct / service (CPU)'];
  header.push(...(floor ? ['direct / floor (CPU)'] : []), 'service / direct (req/s)');
  const lines = services.map((s) => {
    const direct = rows.find((r) => r.scenario === s.scenario && r.target === DIRECT);
    const bare = rows.find((r) => r.scenario === s.scenario && r.target === BARE_SEARCH);
    const floorCells = floor ? [cell(bare)] : [];
    const floorShare = floor ? [share(direct, bare)] : [];
    return [
      s.label,
      credentialName(s.group, s.credential),
      cell(s),
      ...floorCells,
      cell(direct),
      share(direct, s),
      ...floorShare,
      direct ? pct(s.rps / direct.rps) : '–',
    ];
  });
  return [`### CPU time per request on ${engine}`, '', ...table(header, lines, 2), ''];
}

/** The service with its audit on beside off: by rate and latency, then by CPU per request of the service and its database. */
function auditTable(engine: Engine, rows: Row[], credentialName: CredentialName): string[] {
  const audit = auditCost(rows, `service (${engineName[engine]})`);
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
