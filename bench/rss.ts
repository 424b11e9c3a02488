// Resident memory of a process, sampled from /proc while the load runs (Linux; elsewhere
// the sampler reports nothing rather than a wrong figure).
import { readFileSync } from 'node:fs';

export class RssSampler {
  private timer: NodeJS.Timeout | undefined;
  private readonly samples: number[] = [];

  constructor(
    private readonly pid: number,
    private readonly intervalMs = 100,
  ) {}

  start(): this {
    this.sample();
    this.timer = setInterval(() => this.sample(), this.intervalMs);
    return this;
  }

  /** Peak and mean resident set in MB, or undefined where /proc cannot be read. */
  stop(): { peakMb: number; meanMb: number } | undefined {
    clearInterval(this.timer);
    this.sample();
    if (!this.samples.length) return undefined;
    const mb = (kb: number) => Math.round(kb / 102.4) / 10;
    return { peakMb: mb(Math.max(...this.samples)), meanMb: mb(this.samples.reduce((a, b) => a + b, 0) / this.samples.length) };
  }

  private sample(): void {
    const kb = rssKb(this.pid);
    if (kb !== undefined) this.samples.push(kb);
  }
}

export function rssKb(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}
