// `npm run mock [-- --dynamic] [--seed <s>] [--port <n>] [--host <h>] [other prism mock flags]`:
// Prism on the full contract (drafts included) on MOCK_PORT (4010 by default).
import { defaultPort, parseMockArgs } from './args.js';
import { banner } from './banner.js';
import { defaultSeed, startPrism } from './prism.js';

const args = parseMockArgs(process.argv.slice(2), process.env);
if (args.help) {
  console.log(`npm run mock [-- --dynamic] [--seed <s>] [--port <n>] [--host <h>] [prism mock flags]
  port     MOCK_PORT or --port (default ${defaultPort})
  host     MOCK_HOST or --host (default 127.0.0.1; 0.0.0.0 to reach it from other machines or containers)
  dynamic  bodies generated from the schemas, deterministic per seed (default "${defaultSeed}")
  Prism's own flags (e.g. --errors) are passed on. Guide: mock/README.md`);
  process.exit(0);
}

const seed = args.seed ?? defaultSeed;
const mock = await startPrism({
  port: args.port,
  host: args.host,
  dynamic: args.dynamic,
  seed,
  extraArgs: args.prismArgs,
  onLog: (line) => console.log(line),
});
console.log(banner(mock.url, { dynamic: args.dynamic, seed }));
void mock.exited.then((code) => process.exit(code ?? 1));
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void mock.stop().then(() => process.exit(0)));
}
