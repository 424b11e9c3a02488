// `npm run mock [-- --dynamic] [--seed <s>] [--port <n>] [--host <h>] [other prism mock flags]`:
// Prism on the full contract (drafts included) on --port, MOCK_PORT or PORT (4010 by default).
// A refused command line or a port in use is said in one line, exit 1.
import { defaultPort, type MockArgs, MockUsageError, parseMockArgs } from './args.js';
import { banner } from './banner.js';
import { defaultSeed, startPrism } from './prism.js';

let args: MockArgs;
try {
  args = parseMockArgs(process.argv.slice(2), process.env);
} catch (error) {
  if (!(error instanceof MockUsageError)) throw error;
  process.stderr.write(`npm run mock: ${error.message}\n`);
  process.exit(1);
}
if (args.help) {
  console.log(`npm run mock [-- --dynamic] [--seed <s>] [--port <n>] [--host <h>] [prism mock flags]
  port     --port, else MOCK_PORT, else PORT (as npm start reads it), else ${defaultPort}; 0 for any free port
  host     MOCK_HOST or --host (default 127.0.0.1; 0.0.0.0 to reach it from other machines or containers)
  dynamic  bodies generated from the schemas, deterministic per seed (default "${defaultSeed}")
  Prism's own flags (e.g. --errors) are passed on. Guide: mock/README.md`);
  process.exit(0);
}

const seed = args.seed ?? defaultSeed;
// Prism's own start-up lines (its route list; its usage text when it fails) give way to
// the banner below, or to one line saying why it did not start; its request log follows.
let started = false;
const mock = await startPrism({
  port: args.port,
  host: args.host,
  dynamic: args.dynamic,
  seed,
  extraArgs: args.prismArgs,
  onLog: (line) => started && console.log(line),
}).catch((error: Error) => {
  const inUse = /EADDRINUSE/.test(error.message);
  const from = args.portFrom === 'default' ? 'the default' : `from ${args.portFrom}`;
  process.stderr.write(
    inUse
      ? `npm run mock: port ${args.port} (${from}) is in use: set MOCK_PORT or --port to another, or 0 for any free port\n`
      : `npm run mock: ${error.message.split('\n')[0]}: ${error.message.trim().split('\n').at(-1)}\n`,
  );
  process.exit(1);
});
started = true;
console.log(banner(mock.url, { dynamic: args.dynamic, seed, portFrom: args.portFrom }));
void mock.exited.then((code) => process.exit(code ?? 1));
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void mock.stop().then(() => process.exit(0)));
}
