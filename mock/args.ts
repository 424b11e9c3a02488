// The command line of `npm run mock`: our few flags, everything else passed on to Prism.
export interface MockArgs {
  port: number;
  host: string;
  dynamic: boolean;
  seed: string | undefined;
  help: boolean;
  prismArgs: string[];
}

export const defaultPort = 4010;

export function parseMockArgs(argv: string[], env: Record<string, string | undefined>): MockArgs {
  const args: MockArgs = {
    port: portFrom(env.MOCK_PORT ?? String(defaultPort), 'MOCK_PORT'),
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
    else if (flag === '--port' || flag === '-p') args.port = portFrom(value(), '--port');
    else if (flag === '--host' || flag === '-h') args.host = value();
    else if (flag === '--help') args.help = true;
    else args.prismArgs.push(argv[i]!);
  }
  if (args.seed !== undefined && !args.seed) throw new Error('--seed needs a value');
  if (args.seed !== undefined) args.dynamic = true;
  return args;
}

function portFrom(text: string, name: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${name} must be a port number, got ${JSON.stringify(text)}`);
  return port;
}
