// Turns a run's raw measurements into the report: medians over the rounds, ratios to the
// references, the targets (met / not met), as JSON and as Markdown.
import { CHANGE_ALONE, CHANGE_WHILE_SEARCHING } from './changes/labels.js';
import { isEmployeeKind } from './employeeScenarios.js';
import { nodeFlagsOf } from './nodeFlags.js';
import type { Engine } from './plan.js';
import type { RunResult } from './run.js';
import type { PersonKind } from './scenarios.js';
import { median } from './stats.js';
import { auditOffName, BARE_SEARCH } from './targets.js';

export interface Row {
  scenario: string;
  group: 'hello' | Engine;
  label: string;
  credential?: string;
  target: string;
  rounds: number;
  rps: number;
  p50: number;
  p99: number;
  rssPeakMb?: number;
  /** Median CPU time of the process under test per request (HTTP targets on Linux). */
  cpuUsPerRequest?: number;
  /** Median CPU time of its PostgreSQL backends per request (PostgreSQL person scenarios). */
  dbCpuUsPerRequest?: number;
  /** Median CPU time of the load generator per request (HTTP targets; the direct runner is its own load). */
  loadCpuUsPerRequest?: number;
  /** Median person ids per response the access audit recorded (the audited service's rows). */
  auditIdsPerResponse?: number;
  non2xx: number;
  errors: number;
}

export interface TargetCheck {
  goal: string;
  measured: string;
  met: boolean | undefined;
}

export interface Report {
  summary: Row[];
  coldStartMs: Record<string, number>;
  targets: TargetCheck[];
  raw: RunResult;
}

const DIRECT = 'direct SQL';
/** Issue #18: the service's rate over direct SQL's (findPersons alone), by filter kind. */
const DIRECT_SHARE_GOALS: { what: string; kinds: readonly PersonKind[]; share: number }[] = [
  { what: 'Get person, phone and personId', kinds: ['getPerson', 'phone', 'personId'], share: 0.6 },
  { what: 'name, range and offset searches', kinds: ['nameSubstring', 'firstLastName', 'companyName', 'createdRange', 'offset10k'], share: 0.8 },
];
/** The worst case's rate on PostgreSQL when issue #18 was filed (2026-11-23). */
const WORST_CASE_FILED_RPS = 16;
/** A scenario's filter kind: its id is `engine:kind:credential`. */
const kindOf = (r: Row) => r.scenario.split(':')[1] as PersonKind;
const engineName: Record<Engine, string> = { postgres: 'PostgreSQL', pglite: 'PGlite' };
/** "one large company", "100 companies" (as many as that dataset has), "every company". */
function credentialNames(raw: RunResult): (group: string, key: string | undefined) => string {
  return (group, key) => {
    const dataset = raw.datasets.find((d) => d.engine === group) ?? raw.datasets[0];
    return dataset?.credentials.find((c) => c.key === key)?.name.replace(/^bench: /, '') ?? key ?? '';
  };
}

export function buildReport(raw: RunResult): Report {
  const summary: Row[] = [];
  for (const scenario of raw.scenarios) {
    for (const target of scenario.targets) {
      const runs = raw.measurements.filter((m) => m.scenario === scenario.id && m.target === target).map((m) => m.measured);
      if (!runs.length) continue;
      const rss = runs.map((r) => r.rssPeakMb).filter((v): v is number => v !== undefined);
      const cpu = runs.map((r) => r.cpuUsPerRequest).filter((v): v is number => v !== undefined);
      const dbCpu = runs.map((r) => r.dbCpuUsPerRequest).filter((v): v is number => v !== undefined);
      const loadCpu = runs.map((r) => r.loadCpuUsPerRequest).filter((v): v is number => v !== undefined);
      const auditIds = runs.map((r) => r.auditIdsPerResponse).filter((v): v is number => v !== undefined);
      summary.push({
        scenario: scenario.id,
        group: scenario.group,
        label: scenario.label,
        credential: scenario.credential,
        target,
        rounds: runs.length,
        rps: median(runs.map((r) => r.rps)),
        p50: median(runs.map((r) => r.p50)),
        p99: median(runs.map((r) => r.p99)),
        rssPeakMb: rss.length ? Math.max(...rss) : undefined,
        cpuUsPerRequest: cpu.length ? median(cpu) : undefined,
        dbCpuUsPerRequest: dbCpu.length ? median(dbCpu) : undefined,
        loadCpuUsPerRequest: loadCpu.length ? median(loadCpu) : undefined,
        auditIdsPerResponse: auditIds.length ? median(auditIds) : undefined,
        non2xx: runs.reduce((a, r) => a + r.non2xx, 0),
        errors: runs.reduce((a, r) => a + r.errors, 0),
      });
    }
  }
  const coldStartMs = Object.fromEntries(
    Object.entries(raw.coldStarts)
      .filter(([, v]) => v.length)
      .map(([k, v]) => [k, median(v)]),
  );
  return { summary, coldStartMs, targets: evaluateTargets(raw, summary), raw };
}

function evaluateTargets(raw: RunResult, summary: Row[]): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const credentialName = credentialNames(raw);
  const hello = summary.filter((r) => r.group === 'hello');
  const service = hello.find((r) => r.target.startsWith('service'));
  const bare = hello.find((r) => r.target.startsWith('bare'));
  checks.push({
    goal: 'hello: at least 80% of the bare node:http handler’s requests per second',
    measured: service && bare ? `${pct(service.rps / bare.rps)} (${int(service.rps)} vs ${int(bare.rps)} req/s)` : 'not measured',
    met: service && bare ? service.rps / bare.rps >= 0.8 : undefined,
  });
  // The same goal in CPU time per request (bare's share of the service's), steadier on a shared host.
  if (service?.cpuUsPerRequest && bare?.cpuUsPerRequest) {
    checks.push({
      goal: 'hello: CPU time per request at most 1.25× the bare node:http handler’s (80% of its rate when CPU-bound)',
      measured: `${pct(bare.cpuUsPerRequest / service.cpuUsPerRequest)} (${ms(service.cpuUsPerRequest)} vs ${ms(bare.cpuUsPerRequest)} µs)`,
      met: bare.cpuUsPerRequest / service.cpuUsPerRequest >= 0.8,
    });
  }
  // And in instructions, a count the host's other work does not move.
  const instructions = helloInstructionMedians(raw);
  if (instructions) {
    checks.push({
      goal: 'hello: instructions per request at most 1.25× the bare node:http handler’s (callgrind)',
      measured: `${pct(instructions.bare / instructions.service)} (${int(instructions.service)} vs ${int(instructions.bare)})`,
      met: instructions.bare / instructions.service >= 0.8,
    });
  }

  for (const engine of ['postgres', 'pglite'] as const) {
    const rows = summary.filter((r) => r.group === engine);
    if (!rows.length) continue;
    const people = raw.datasets.find((d) => d.engine === engine)?.people;
    const at = `${engineName[engine]}, ${people?.toLocaleString('en-US')} people`;
    const serviceName = `service (${engineName[engine]})`;
    const services = rows.filter((r) => r.target === serviceName);
    const directOf = (r: Row) => rows.find((d) => d.scenario === r.scenario && d.target === DIRECT);

    for (const r of services.filter((r) => r.scenario.includes(':getPerson:')))
      checks.push({ goal: `Get person (${credentialName(engine, r.credential)}, ${at}): p99 < 10 ms`, measured: `${ms(r.p99)} ms`, met: r.p99 < 10 });
    // Issue #18's goals, set on PostgreSQL: the service's rate as a share of direct SQL's, kind by kind.
    for (const { kinds, share, what } of engine === 'postgres' ? DIRECT_SHARE_GOALS : []) {
      const measured = services
        .filter((r) => kinds.includes(kindOf(r)))
        .map((r) => ({ r, d: directOf(r) }))
        .filter((m): m is { r: Row; d: Row } => m.d !== undefined);
      if (!measured.length) continue;
      const ratio = ({ r, d }: { r: Row; d: Row }) => r.rps / d.rps;
      // Beside each, the bare node:http floor's own share of direct SQL, where it ran.
      const floorOf = ({ r, d }: { r: Row; d: Row }) => {
        const floor = rows.find((f) => f.scenario === r.scenario && f.target === BARE_SEARCH);
        return floor ? ` (floor ${pct(floor.rps / d.rps)})` : '';
      };
      const lowest = measured.reduce((a, b) => (ratio(b) < ratio(a) ? b : a));
      checks.push({
        goal: `${what} (${at}), every credential: at least ${pct(share)} of the direct-SQL rate`,
        measured: `${measured.map((m) => `${m.r.label} (${credentialName(engine, m.r.credential)}) ${pct(ratio(m))}${floorOf(m)}`).join('; ')}; lowest ${pct(ratio(lowest))}`,
        met: measured.every((m) => ratio(m) >= share),
      });
    }
    const searches = services.filter((r) => !r.scenario.includes(':getPerson:') && !r.scenario.includes(':worstCase:') && !isEmployeeKind(kindOf(r)));
    // Search employees (issue 51): p99 under 50 ms and at least 85% of the node:http floor's rate, kind by kind.
    const employees = services.filter((r) => isEmployeeKind(kindOf(r)));
    if (employees.length) {
      const floorShare = (r: Row) => {
        const floor = rows.find((f) => f.scenario === r.scenario && f.target === BARE_SEARCH);
        return floor ? r.rps / floor.rps : undefined;
      };
      const meets = (r: Row) => r.p99 < 50 && (floorShare(r) ?? 1) >= 0.85 && r.non2xx === 0;
      checks.push({
        goal: `Search employees, every filter kind (${at}): p99 < 50 ms and at least 85% of the node:http floor's rate`,
        measured: employees
          .map((r) => `${r.label} (${credentialName(engine, r.credential)}) ${ms(r.p99)} ms${floorShare(r) === undefined ? '' : `, ${pct(floorShare(r)!)}`}`)
          .join('; '),
        met: employees.every(meets),
      });
    }
    if (searches.length) {
      const missed = searches.filter((r) => !(r.p99 < 50));
      const worst = searches.reduce((a, b) => (b.p99 > a.p99 ? b : a));
      checks.push({
        goal: `Search persons, every filter kind (${at}): p99 < 50 ms`,
        measured: missed.length
          ? `${missed.length} of ${searches.length} over: ${missed.map((r) => `${r.label} (${credentialName(engine, r.credential)}) ${ms(r.p99)} ms`).join('; ')}`
          : `all ${searches.length} under; slowest ${worst.label} (${credentialName(engine, worst.credential)}) ${ms(worst.p99)} ms`,
        met: missed.length === 0,
      });
    }
    for (const r of services.filter((r) => r.scenario.includes(':worstCase:'))) {
      if (engine === 'postgres')
        checks.push({
          goal: `${r.label} (every company, ${at}): at least 3× the ${WORST_CASE_FILED_RPS} req/s measured when #18 was filed`,
          measured: `${int(r.rps)} req/s (${(r.rps / WORST_CASE_FILED_RPS).toFixed(1)}×)${r.non2xx ? `, ${r.non2xx} non-2xx` : ''}`,
          met: r.rps >= 3 * WORST_CASE_FILED_RPS && r.non2xx === 0,
        });
      checks.push({
        goal: `${r.label} (every company, ${at}): p99 < 50 ms`,
        measured: `${ms(r.p99)} ms, ${int(r.rps)} req/s${r.non2xx ? `, ${r.non2xx} non-2xx` : ''}`,
        met: r.p99 < 50 && r.non2xx === 0,
      });
    }
    const audit = auditCost(rows, serviceName);
    if (audit.length) {
      const worst = audit.reduce((a, b) => (b.ratio < a.ratio ? b : a));
      checks.push({
        goal: `Access audit (${at}): costs at most 10% of search and Get person throughput (audit on / off)`,
        measured: `${audit
          .map((c) => {
            const cpu = cpuRatio(c, mergeUsPerRequest(raw, c.on));
            return `${c.on.label} (${credentialName(engine, c.on.credential)}) ${pct(c.ratio)}${cpu ? ` (CPU with the index merge ${pct(cpu)})` : ''}`;
          })
          .join('; ')}; lowest ${pct(worst.ratio)}`,
        met: audit.every((c) => c.ratio >= 0.9),
      });
    }
    const rss = summary.filter((r) => r.target === serviceName && r.rssPeakMb !== undefined).map((r) => r.rssPeakMb!);
    if (rss.length)
      checks.push({ goal: `service on ${engineName[engine]}: RSS under 150 MB at load`, measured: `peak ${Math.max(...rss)} MB`, met: Math.max(...rss) < 150 });
    const coldStart = raw.coldStarts[serviceName];
    if (engine === 'postgres' && coldStart?.length) {
      const started = median(coldStart);
      checks.push({
        goal: `service on ${engineName[engine]}: cold start (spawn to first 200) at most 1 s, built`,
        measured: `${int(started)} ms`,
        met: started <= 1000,
      });
    }
  }
  checks.push(...changeTargets(raw));
  return checks;
}

/** The targets of the change phases (bench/changes/phases.ts), where they ran. */
function changeTargets(raw: RunResult): TargetCheck[] {
  const changes = raw.changes;
  if (!changes) return [];
  const checks: TargetCheck[] = [];
  const run = (label: string) => changes.imports.find((r) => r.label.startsWith(label));
  const initial = run('initial load');
  if (initial) {
    checks.push({
      goal: 'import streams: peak RSS at most 256 MB (whole dataset as one NDJSON file)',
      measured: `${initial.peakRssMb} MB (${changes.fileMb} MB file)`,
      met: initial.peakRssMb !== undefined && initial.peakRssMb <= 256,
    });
    checks.push({
      goal: 'initial load through npm run import: at least 25,000 records/s',
      measured: `${int(initial.recordsPerSecond)} records/s (${initial.seconds} s); raw COPY ${int(initial.copyRecordsPerSecond ?? NaN)} records/s (${pct(initial.recordsPerSecond / (initial.copyRecordsPerSecond ?? NaN))})`,
      met: initial.recordsPerSecond >= 25_000,
    });
  }
  const unchanged = run('re-applied unchanged') ?? run('change inverse re-applied');
  if (unchanged) {
    checks.push({
      goal: `re-applied unchanged file: at least 100,000 records/s (${unchanged.label})`,
      measured: `${int(unchanged.recordsPerSecond)} records/s (${int(unchanged.records)} records in ${unchanged.seconds} s)`,
      met: unchanged.recordsPerSecond >= 100_000,
    });
  }
  const change = changes.imports.find((r) => r.label === CHANGE_ALONE);
  if (change) {
    const searching = changes.imports.find((r) => r.label === CHANGE_WHILE_SEARCHING);
    checks.push({
      goal: 'change file touching 1% of the people: applied in under 10 s',
      measured: `${change.seconds} s alone (${int(change.records)} records; raw COPY of its rows ${change.copySeconds} s)${searching ? `; ${searching.seconds} s with searches running` : ''}`,
      met: change.seconds < 10,
    });
  }
  if (changes.searches) {
    const { idle, during } = changes.searches;
    checks.push({
      goal: 'searches while a change file is applied: p99 within 2× of idle',
      measured: `${ms(during.p99)} ms vs ${ms(idle.p99)} ms idle (${(during.p99 / idle.p99).toFixed(2)}×; ${int(during.requests)} searches during ${during.seconds} s)`,
      met: during.p99 <= 2 * idle.p99,
    });
  }
  return checks;
}

/** CPU per request (service and database) with the audit off over on, where both were measured; `merge` adds the deferred index upkeep to on. */
function cpuRatio({ on, off }: { on: Row; off: Row }, merge = 0): number | undefined {
  const total = (r: Row) => (r.cpuUsPerRequest !== undefined && r.dbCpuUsPerRequest !== undefined ? r.cpuUsPerRequest + r.dbCpuUsPerRequest : undefined);
  const [a, b] = [total(on), total(off)];
  return a && b ? b / (a + merge) : undefined;
}

/** The audit's person-index merge charged to one response of `on`: its ids times the merge's CPU per id (µs). */
function mergeUsPerRequest(raw: RunResult, on: Row): number | undefined {
  const merge = raw.auditIndexMerge;
  if (!merge?.ids || on.auditIdsPerResponse === undefined) return undefined;
  return (on.auditIdsPerResponse * merge.cpuMs * 1000) / merge.ids;
}

/** The service with its access audit on (as configured by default) and off, per scenario measured so. */
function auditCost(rows: Row[], serviceName: string): { on: Row; off: Row; ratio: number }[] {
  return rows
    .filter((r) => r.target === auditOffName(serviceName))
    .flatMap((off) => {
      const on = rows.find((r) => r.scenario === off.scenario && r.target === serviceName);
      return on ? [{ on, off, ratio: on.rps / off.rps }] : [];
    });
}

const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–');
const ms = (n: number) => (!Number.isFinite(n) ? '–' : n < 10 ? n.toFixed(2) : n < 100 ? n.toFixed(1) : Math.round(n).toLocaleString('en-US'));
const pct = (n: number) => (Number.isFinite(n) ? `${Math.round(n * 100)}%` : '–');
const mark = (met: boolean | undefined) => (met === undefined ? 'not measured' : met ? '**met**' : '**not met**');

export function renderMarkdown(report: Report): string {
  const credentialName = credentialNames(report.raw);
  const sections = [headerSection, targetsSection, helloSection, enginesSection, changesSection, datasetsSection, explainsSection, crashesSection];
  return sections.flatMap((section) => section(report, credentialName)).join('\n');
}

type CredentialName = ReturnType<typeof credentialNames>;

/** The title and how the run was made: machine, options, code, pinning, how the service ran. */
function headerSection(report: Report): string[] {
  const lines: string[] = [];
  const { raw } = report;
  const m = report.raw.machine;
  const date = report.raw.startedAt.slice(0, 10);
  lines.push(`# Benchmark report, ${date}`, '');
  lines.push(
    `Machine: ${m.nproc} CPU (${m.cpuModel}), ${m.memoryGb} GB, ${m.os}, Node ${m.node}${raw.postgresVersion ? `, ${raw.postgresVersion.split(' on ')[0]}` : ''}${raw.postgresSharedBuffers ? ` (shared_buffers ${raw.postgresSharedBuffers}; ${raw.postgresPrewarmed ? 'tables and indexes prewarmed with pg_prewarm before measuring' : 'not prewarmed: pg_prewarm unavailable'})` : ''}.`,
    `Run: ${raw.startedAt} → ${raw.finishedAt}; ${raw.options.durationS} s per measurement, ${raw.options.connections} concurrent connections, ` +
      `${raw.options.rounds} alternating rounds (figures are medians over the rounds), after ${raw.options.warmupS} s of warm-up of every scenario on every target; ${raw.budget.used} s of a ${raw.budget.seconds} s budget` +
      `${raw.budget.exhausted ? ` (**budget reached: ${raw.skipped.length} measurements skipped**)` : ''}. ` +
      `Load average (1 min) ${raw.loadAverage.start} at the start, ${raw.loadAverage.end} at the end: the machine is shared, other work ran alongside.`,
    `Code: commit ${raw.revision.commit}${raw.revision.uncommittedServerFiles.length ? ` plus uncommitted changes to ${raw.revision.uncommittedServerFiles.map((f) => `\`${f}\``).join(', ')}` : ''}.`,
    m.pinning
      ? `Load generator (autocannon) pinned to CPU ${m.pinning.loadCpu}, each process under test to CPU ${m.pinning.targetCpu} (taskset); PostgreSQL unpinned, on the same machine; loopback.`
      : 'No CPU pinning (taskset or a second core missing): load generator and target share the cores.',
    `The service runs as production runs it (\`npm run build\`, then \`${['node', ...nodeFlagsOf('start:prod'), 'dist/server/main.js'].join(' ')}\`), in its own process, with request logging at \`warn\` (no per-request log line) and the rate limit set far above the offered load (the bench measures throughput, not the limiter).`,
    '',
  );
  return lines;
}

/** Each goal, what was measured, and whether it was met. */
function targetsSection(report: Report): string[] {
  const lines: string[] = [];
  lines.push('## Targets', '', '| Goal | Measured | |', '|---|---|---|');
  for (const t of report.targets) lines.push(`| ${t.goal} | ${t.measured} | ${mark(t.met)} |`);
  lines.push('');
  return lines;
}

/** Hello beside its references: rates, CPU, latency, memory, cold start, instructions. */
function helloSection(report: Report, credentialName: CredentialName): string[] {
  const lines: string[] = [];
  const { raw, summary } = report;
  const hello = summary.filter((r) => r.group === 'hello');
  if (hello.length) {
    const bare = hello.find((r) => r.target.startsWith('bare'));
    lines.push(
      '## Hello (GET /v1/companies/{companyId}/hello)',
      '',
      'CPU µs/req: CPU time (user + system) of the process under test over the measurement, per request; "vs bare (CPU)" is bare’s CPU time per request over this one’s, the rate ratio a CPU-bound machine would show.',
      '',
      '| Target | req/s | vs bare node:http | CPU µs/req | vs bare (CPU) | p50 ms | p99 ms | peak RSS MB | cold start ms |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const r of hello) {
      const cpu = r.cpuUsPerRequest;
      lines.push(
        `| ${r.target} | ${int(r.rps)} | ${bare ? pct(r.rps / bare.rps) : '–'} | ${cpu !== undefined ? ms(cpu) : '–'} | ${cpu && bare?.cpuUsPerRequest ? pct(bare.cpuUsPerRequest / cpu) : '–'} | ${ms(r.p50)} | ${ms(r.p99)} | ${r.rssPeakMb ?? '–'} | ${int(report.coldStartMs[r.target] ?? NaN)} |`,
      );
    }
    lines.push('', ...helloInstructionLines(raw), ...problems(hello, credentialName));
  }
  return lines;
}

/** The person operations on each engine beside direct SQL and the floor; on PostgreSQL, CPU per request and the access audit's cost. */
function enginesSection(report: Report, credentialName: CredentialName): string[] {
  const lines: string[] = [];
  const { raw, summary } = report;
  for (const engine of ['postgres', 'pglite'] as const) {
    const rows = summary.filter((r) => r.group === engine);
    if (!rows.length) continue;
    const d = raw.datasets.find((x) => x.engine === engine)!;
    const floor = rows.some((r) => r.target === BARE_SEARCH);
    lines.push(
      `## Person operations on ${engineName[engine]} (${d.people.toLocaleString('en-US')} people)`,
      '',
      `Credentials: ${d.credentials.map((c) => `${credentialName(engine, c.key)} (${c.companies} ${c.companies === 1 ? 'company' : 'companies'}, ${c.people.toLocaleString('en-US')} people)`).join('; ')}. ` +
        `Each request draws its filter value from the data (a pool of up to ${raw.options.samples} per row). Direct SQL: \`findPersons\` on the same pool size (10) and concurrency, no HTTP.` +
        (floor
          ? ` ${BARE_SEARCH}: the same filter and query behind a bare node:http handler (bench/references/bareSearch.ts: bearer check, body parsed, no validation, limits or audit), under tsx; the floor of any HTTP service here, so "service / floor" is what the service's own work costs.`
          : ''),
      '',
      `| Operation / filter | Credential | service req/s | direct SQL req/s | service / direct |${floor ? ' floor req/s | floor / direct | service / floor |' : ''} service p50 ms | service p99 ms | direct p50 ms | direct p99 ms | peak RSS MB |`,
      `|---|---|---:|---:|---:|${floor ? '---:|---:|---:|' : ''}---:|---:|---:|---:|---:|`,
    );
    const serviceName = `service (${engineName[engine]})`;
    for (const s of rows.filter((r) => r.target === serviceName)) {
      const dr = rows.find((r) => r.scenario === s.scenario && r.target === DIRECT);
      const fr = rows.find((r) => r.scenario === s.scenario && r.target === BARE_SEARCH);
      const note = raw.scenarios.find((x) => x.id === s.scenario)?.note;
      const floorColumns = floor ? ` ${fr ? int(fr.rps) : '–'} | ${fr && dr ? pct(fr.rps / dr.rps) : '–'} | ${fr ? pct(s.rps / fr.rps) : '–'} |` : '';
      lines.push(
        `| ${s.label}${note ? ` (${note})` : ''} | ${credentialName(engine, s.credential)} | ${int(s.rps)} | ${dr ? int(dr.rps) : '–'} | ${dr ? pct(s.rps / dr.rps) : '–'} |${floorColumns} ${ms(s.p50)} | ${ms(s.p99)} | ${dr ? ms(dr.p50) : '–'} | ${dr ? ms(dr.p99) : '–'} | ${s.rssPeakMb ?? '–'} |`,
      );
    }
    lines.push('', ...problems(rows, credentialName), `Cold start (spawn → first successful response): ${int(report.coldStartMs[serviceName] ?? NaN)} ms.`, '');
    lines.push(...cpuPerRequestTable(rows, serviceName, engineName[engine], credentialName));
    const audit = auditCost(rows, serviceName);
    if (audit.length) {
      lines.push(
        `### Access audit cost on ${engineName[engine]}`,
        '',
        `The service as above (access audit on, as shipped: \`AUDIT_DURABILITY=spool\`, each response's entry appended to the instance's spool file by a synchronous write before the response is sent, and shipped into the audit table in batches) and the same service with \`AUDIT_ENABLED=false\`, measured side by side in the same alternating rounds.`,
        '',
        '| Operation / filter | Credential | audit on req/s | audit off req/s | on / off | on p50 ms | on p99 ms | off p50 ms | off p99 ms |',
        '|---|---|---:|---:|---:|---:|---:|---:|---:|',
        ...audit.map(
          ({ on, off, ratio }) =>
            `| ${on.label} | ${credentialName(engine, on.credential)} | ${int(on.rps)} | ${int(off.rps)} | ${pct(ratio)} | ${ms(on.p50)} | ${ms(on.p99)} | ${ms(off.p50)} | ${ms(off.p99)} |`,
        ),
        '',
        'CPU time per request (medians over the rounds), of the service process and of the bench database\'s PostgreSQL backends (which include the spool\'s shipping), measured around the same runs: steadier than req/s on a shared host. "off / on" is the throughput ratio a machine bound by these CPUs would show.',
        '',
        '| Operation / filter | Credential | on: service + database µs | ids per response | deferred index merge µs | off: service + database µs | CPU off / on | CPU off / (on + merge) |',
        '|---|---|---:|---:|---:|---:|---:|---:|',
        ...audit.map(({ on, off }) => {
          const total = (r: Row | undefined) =>
            r?.cpuUsPerRequest !== undefined && r.dbCpuUsPerRequest !== undefined ? r.cpuUsPerRequest + r.dbCpuUsPerRequest : undefined;
          const cell = (r: Row | undefined) => (total(r) === undefined ? '–' : `${ms(r!.cpuUsPerRequest!)} + ${ms(r!.dbCpuUsPerRequest!)} = ${ms(total(r)!)}`);
          const ratio = (r: Row | undefined, extra = 0) => (total(r) && total(off) ? pct(total(off)! / (total(r)! + extra)) : '–');
          const merge = mergeUsPerRequest(raw, on);
          return `| ${on.label} | ${credentialName(engine, on.credential)} | ${cell(on)} | ${on.auditIdsPerResponse === undefined ? '–' : ms(on.auditIdsPerResponse)} | ${merge === undefined ? '–' : ms(merge)} | ${cell(off)} | ${ratio(on)} | ${merge === undefined ? '–' : ratio(on, merge)} |`;
        }),
        '',
        ...(raw.auditIndexMerge
          ? [
              `The person index of the audit is merged in bulk, after the responses (its pending list): that work falls outside the measured windows, so it was measured apart and is charged back above. After the measurements, the ${int(raw.auditIndexMerge.ids)} person ids recorded since the start were merged in ${int(raw.auditIndexMerge.cpuMs)} ms of one backend's CPU (${int(raw.auditIndexMerge.wallMs)} ms wall): ${raw.auditIndexMerge.ids ? ms((raw.auditIndexMerge.cpuMs * 1000) / raw.auditIndexMerge.ids) : '–'} µs per id. "Deferred index merge" is that per id times the ids per response.`,
              '',
            ]
          : []),
      );
    }
  }
  return lines;
}

/** The data-that-changes phases: each file's rate beside a raw COPY, and searches while a change is applied. */
function changesSection(report: Report): string[] {
  const lines: string[] = [];
  const { raw } = report;
  if (raw.changes) {
    const c = raw.changes;
    lines.push(
      '## Data that changes (PostgreSQL)',
      '',
      `Phases: ${c.phases.join(', ')}; each file applied by \`npm run import\` in its own process (seconds as the import reports its transaction; peak RSS sampled from /proc). ` +
        `Raw COPY: the same rows (persons and employments as stored) copied into unindexed tables of the same columns, without constraints or derived data: the floor of landing them. Load average (1 min) ${c.loadAverage.join(' → ')}.`,
      '',
      ...c.notes.map((n) => `- ${n}`),
      '',
      '| File | records | seconds | records/s | raw COPY records/s | import / COPY | peak RSS MB |',
      '|---|---:|---:|---:|---:|---:|---:|',
      ...c.imports.map(
        (r) =>
          `| ${r.label} | ${int(r.records)} | ${r.seconds} | ${int(r.recordsPerSecond)} | ${r.copyRecordsPerSecond ? int(r.copyRecordsPerSecond) : '–'} | ${r.copyRecordsPerSecond ? pct(r.recordsPerSecond / r.copyRecordsPerSecond) : '–'} | ${r.peakRssMb ?? '–'} |`,
      ),
      '',
    );
    if (c.searches) {
      const { idle, during } = c.searches;
      lines.push(
        `Searches (${c.searches.filters}): idle ${int(idle.requests)} in 8 s, p50 ${ms(idle.p50)} ms, p99 ${ms(idle.p99)} ms; while the change file was applied ${int(during.requests)} in ${during.seconds} s, p50 ${ms(during.p50)} ms, p99 ${ms(during.p99)} ms.`,
        '',
      );
    }
    if (c.phases.includes('churn'))
      lines.push('The person operations above were measured after the churn file was applied (its inverse restored the data afterwards).', '');
  }
  return lines;
}

/** The datasets measured and how each was built. */
function datasetsSection(report: Report): string[] {
  const lines: string[] = [];
  const { raw } = report;
  lines.push('## Datasets', '');
  for (const d of raw.datasets) {
    const rows = Object.entries(d.load.rows)
      .map(([t, n]) => `${n.toLocaleString('en-US')} ${t}`)
      .join(', ');
    lines.push(
      `- ${engineName[d.engine]} \`${d.location}\`: ${d.people.toLocaleString('en-US')} people, ${d.companies.toLocaleString('en-US')} companies (Zipf-sized), seed ${d.seed}; ${rows}. ` +
        `Built ${d.builtAt}${d.builtNow ? ' (by this run)' : ''} at ${d.load.rowsPerSecond.toLocaleString('en-US')} rows/s (${d.load.totalRows.toLocaleString('en-US')} rows in ${d.load.seconds.total.toFixed(0)} s` +
        `: ${loadSteps(d.load.seconds)}, VACUUM ANALYZE ${d.load.seconds.analyze.toFixed(0)} s).`,
    );
  }
  lines.push('');
  return lines;
}

/** The query plans of the filter kinds that missed their latency target. */
function explainsSection(report: Report, credentialName: CredentialName): string[] {
  const lines: string[] = [];
  const { raw, summary } = report;
  const m = report.raw.machine;
  if (raw.explains.length) {
    lines.push(
      '## Query plans of the slow filter kinds (PostgreSQL)',
      '',
      'Every filter kind whose service p99 missed its target, and the worst case: `EXPLAIN (ANALYZE, BUFFERS)` of the first drawn filter value, run once after the measurements (one query alone, not under load).',
      '',
      '| Filter | Credential | planning ms | execution ms |',
      '|---|---|---:|---:|',
    );
    for (const e of raw.explains) {
      const time = (what: string) =>
        /^\s*(?:Planning|Execution) Time: ([\d.]+) ms/m.exec(
          e.plan
            .split('\n')
            .filter((l) => l.includes(what))
            .join('\n'),
        )?.[1] ?? '–';
      lines.push(`| ${e.label} | ${credentialName('postgres', e.credential)} | ${time('Planning Time')} | ${time('Execution Time')} |`);
    }
    lines.push('');
    for (const e of raw.explains) {
      lines.push(
        `<details><summary>${e.label} (${credentialName('postgres', e.credential)})</summary>`,
        '',
        '```json',
        JSON.stringify(e.filter),
        '```',
        '',
        '```',
        e.plan,
        '```',
        '',
        '</details>',
        '',
      );
    }
  }
  return lines;
}

/** Processes under test that ended during the run, measurements skipped, and where the raw figures are. */
function crashesSection(report: Report): string[] {
  const lines: string[] = [];
  const { raw } = report;
  if (raw.crashes?.length) {
    lines.push('## Crashes', '');
    for (const c of raw.crashes)
      lines.push(
        `- **${c.target} ${c.exit}** during ${c.during} (round ${c.round}); its measurements after that are skipped. Last stderr:`,
        '',
        '```',
        c.stderr,
        '```',
        '',
      );
  }
  if (raw.skipped.length) lines.push('## Skipped (budget or crash)', '', ...raw.skipped.map((s) => `- round ${s.round}: ${s.scenario} · ${s.target}`), '');
  lines.push(`Raw figures: [latest.json](latest.json). Reproduce: \`npm run bench\` (see docs/performance.md).`, '');
  return lines;
}

/** Median instructions per hello of the service and of the bare reference, when the run counted them. */
function helloInstructionMedians(raw: RunResult): { service: number; bare: number } | undefined {
  const counts = Object.entries(raw.helloInstructions ?? {});
  const of = (prefix: string) => {
    const counted = counts.find(([name]) => name.startsWith(prefix));
    return counted && median(counted[1].perRequest);
  };
  const service = of('service');
  const bare = of('bare');
  return service && bare ? { service, bare } : undefined;
}

function helloInstructionLines(raw: RunResult): string[] {
  const counts = Object.entries(raw.helloInstructions ?? {});
  const medians = helloInstructionMedians(raw);
  if (!counts.length || !medians) return [];
  const { batchRequests, warmupRequests, perRequest } = counts[0]![1];
  const each = counts.map(([name, c]) => `${name} ${int(median(c.perRequest))} (${c.perRequest.map(int).join(', ')})`).join('; ');
  return [
    `Instructions per request, counted by valgrind's callgrind in every thread of the process after ${int(warmupRequests)} requests of warm-up, median of ${perRequest.length} batches of ${int(batchRequests)} (each batch in brackets): ${each}. ` +
      `The bare handler's count is ${pct(medians.bare / medians.service)} of the service's. A batch's count moves by a few percent with where a garbage collection falls, not with the host's other work, as req/s and CPU time do.`,
    '',
  ];
}

/** CPU µs per request of each process a request passes through: the one under test, its database backends and the load generator. */
function cpuParts(r: Row | undefined): { parts: number[]; total: number } | undefined {
  if (r?.cpuUsPerRequest === undefined || r.dbCpuUsPerRequest === undefined) return undefined;
  const parts = [r.cpuUsPerRequest, r.dbCpuUsPerRequest, ...(r.loadCpuUsPerRequest === undefined ? [] : [r.loadCpuUsPerRequest])];
  return { parts, total: parts.reduce((a, b) => a + b, 0) };
}

/**
 * Where each request's CPU goes, for the service, the floor and direct SQL side by side: on
 * a host whose cores they all share, the totals' ratio is the rate ratio it can show.
 */
function cpuPerRequestTable(rows: Row[], serviceName: string, engine: string, credentialName: (group: string, key: string | undefined) => string): string[] {
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
  return [
    `### CPU time per request on ${engine}`,
    '',
    "Medians over the rounds, µs of CPU (user + system) per answered request: the process under test, then the bench database's PostgreSQL backends, then, for HTTP targets, the load generator (autocannon, in the bench's own process; the direct runner generates its own load, so its first figure holds it). Every process shares the same cores, so \"direct / service\" by CPU is the rate ratio a machine bound by them would show, and the load generator's part is a cost no HTTP target can avoid here.",
    '',
    `| Operation / filter | Credential | service | ${floor ? `${BARE_SEARCH} | ` : ''}direct SQL | direct / service (CPU) | ${floor ? 'direct / floor (CPU) | ' : ''}service / direct (req/s) |`,
    `|---|---|---:|${floor ? '---:|' : ''}---:|---:|${floor ? '---:|' : ''}---:|`,
    ...services.map((s) => {
      const direct = rows.find((r) => r.scenario === s.scenario && r.target === DIRECT);
      const bare = rows.find((r) => r.scenario === s.scenario && r.target === BARE_SEARCH);
      return `| ${s.label} | ${credentialName(s.group, s.credential)} | ${cell(s)} | ${floor ? `${cell(bare)} | ` : ''}${cell(direct)} | ${share(direct, s)} | ${floor ? `${share(direct, bare)} | ` : ''}${direct ? pct(s.rps / direct.rps) : '–'} |`;
    }),
    '',
  ];
}

/** Failed requests, listed under the table: their latencies are not in the percentiles. */
function problems(rows: Row[], credentialName: (group: string, key: string | undefined) => string): string[] {
  const failing = rows.filter((r) => r.non2xx || r.errors);
  if (!failing.length) return [];
  return [
    ...failing.map(
      (r) =>
        `- ⚠ ${r.label}${r.credential ? ` (${credentialName(r.group, r.credential)})` : ''} · ${r.target}: ${r.non2xx} non-2xx responses, ${r.errors} errors or timeouts (over all rounds)`,
    ),
    '',
  ];
}

/** How a dataset was loaded: through the import, or (a dataset built before the bench loaded by the import) COPY, then keys and indexes. */
function loadSteps(seconds: { import: number } | { copy: number; indexes: number }): string {
  if ('import' in seconds) return `the import ${seconds.import.toFixed(0)} s`;
  return `COPY ${seconds.copy.toFixed(0)} s, keys and indexes ${seconds.indexes.toFixed(0)} s`;
}
