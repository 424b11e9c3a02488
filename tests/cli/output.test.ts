// An operator's pipe that stops reading early (`npm run demo:export | head`): the command
// ends as a program killed by SIGPIPE does, exit 141 with nothing on stderr, not a stack.
import { spawn } from 'node:child_process';
import { expect, it } from 'vitest';

it('ends with exit 141 and says nothing when its reader closes the pipe', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli/demo.ts', '20000'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.stdout.once('data', () => child.stdout.destroy());
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  expect(stderr).toBe('');
  expect(code).toBe(141);
}, 60_000);
