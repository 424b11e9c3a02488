// The command line of `npm run mock`: our few flags, everything else passed on to Prism.
// The port is --port's, else MOCK_PORT's, else PORT's (as `npm start` reads it, so that
// `PORT=4101 npm run mock` and platforms that hand a process its PORT work), else 4010.
// MOCK_PORT comes before PORT: a shell that exports PORT for the service can still start
// the mock beside it with MOCK_PORT.
export interface MockArgs {
  port: number;
  /** Where the port came from, for the banner and for a port in use. */
  portFrom: '--port' | 'MOCK_PORT' | 'PORT' | 'default';
  host: string;
  dynamic: boolean;
  seed: string | undefined;
  help: boolean;
  prismArgs: string[];
}

export const defaultPort = 4010;

export function parseMockArgs(argv: string[], env: Record<string, string | undefined>): MockArgs {
  const fromEnv = (['MOCK_PORT', 'PORT'] as const).find((name) => env[name] !== undefined && env[name] !== '');
  const args: MockArgs = {
    port: fromEnv ? portFrom(env[fromEnv]!, fromEnv) : defaultPort,
    portFrom: fromEnv ?? 'default',
    host: env.MOCK_HOST ?? '127.0.0.1',
    dynamic: false,
    seed: undefined,
    help: false,
    prismArgs: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i]!.split(/=(.*)/s, 2) as [string, string | undefined];
    const value = () => inline ?? argv[++i] ?? '';
    if (flag === '--dynamic' || flag === '-d') args.dynamic = true;
    else if (flag === '--seed') args.seed = value();
    else if (flag === '--port' || flag === '-p') {
      args.port = portFrom(value(), '--port');
      args.portFrom = '--port';
    } else if (flag === '--host' || flag === '-h') args.host = value();
    else if (flag === '--help') args.help = true;
    else args.prismArgs.push(argv[i]!);
  }
  if (args.seed !== undefined && !args.seed) throw new MockUsageError('--seed needs a value');
  if (args.seed !== undefined) args.dynamic = true;
  return args;
}

/** A refused command line: said in one line, exit 1 (mock/start.ts). */
export class MockUsageError extends Error {}

function portFrom(text: string, name: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535)
    throw new MockUsageError(`${name} must be a port number from 0 to 65535 (0: any free port); got ${JSON.stringify(text)}`);
  return port;
}
