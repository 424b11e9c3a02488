// The machine's own account of a period (bench/hostCpu.ts): the shares of the cores' time
// that /proc/stat gives, set beside the searches' stalls in the import bench's report.
import { expect, it } from 'vitest';
import { hostCpuOf, hostTicks, parseHostTicks, ticksBetween } from '../../bench/hostCpu.js';

const stat = (ticks: number[]) => `cpu  ${ticks.join(' ')} 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\nintr 1\n`;

it('reads the cores time by state from the first line of /proc/stat', () => {
  expect(parseHostTicks(stat([10, 0, 5, 70, 10, 0, 5, 0]))).toEqual([10, 0, 5, 70, 10, 0, 5, 0]);
  expect(parseHostTicks('intr 1 2 3\n')).toBeUndefined();
  expect(parseHostTicks('cpu 1 2 x 4 5 6 7 8\n')).toBeUndefined();
});

it('gives each state its share of the periods together, and nothing where a period is unknown', () => {
  const first = ticksBetween([0, 0, 0, 0, 0, 0, 0, 0], [10, 0, 5, 70, 10, 0, 5, 0]);
  const second = ticksBetween([10, 0, 5, 70, 10, 0, 5, 0], [20, 0, 10, 140, 20, 0, 5, 5]);
  expect(hostCpuOf([first, second])).toEqual({ busy: 0.2, idle: 0.7, waitingForDisk: 0.1, softInterrupts: 0.025, stolen: 0.025 });
  expect(hostCpuOf([first, undefined])).toBeUndefined();
  expect(hostCpuOf([])).toBeUndefined();
});

it.runIf(process.platform === 'linux')('reads this machine, its shares adding up to the whole', () => {
  const before = hostTicks();
  const until = performance.now() + 50;
  while (performance.now() < until) {
    // busy, so that the period has ticks
  }
  const shares = hostCpuOf([ticksBetween(before, hostTicks())])!;
  expect(shares.busy).toBeGreaterThan(0);
  expect(shares.busy + shares.idle + shares.waitingForDisk).toBeCloseTo(1, 2);
});
