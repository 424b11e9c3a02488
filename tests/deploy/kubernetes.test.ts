// The Kubernetes manifests (deploy/kubernetes/): each rendered object is valid against the
// Kubernetes schemas (kubernetes-models' validators, and its types for a field the API does
// not have), and they agree with the code: every variable they set is one server/config.ts
// reads and their values pass its checks, the probe paths answer on the server, the port,
// user and spool are the image's, and the timings let a drain finish before the kubelet
// kills it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job } from 'kubernetes-models/batch/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, PersistentVolumeClaim, Secret, Service } from 'kubernetes-models/v1';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { containersOf, kustomize } from '../helpers/kustomize.js';
import { manifestTypeProblems } from '../helpers/manifestTypes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const root = new URL('../../', import.meta.url).pathname;
const deploy = join(root, 'deploy/kubernetes');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

/** Every environment variable server/config.ts reads (as tests/operating/operations-docs.test.ts finds them). */
const configVariables = (() => {
  const source = read('server/config.ts');
  return new Set([...source.matchAll(/\(env, '([A-Z][A-Z0-9_]+)'/g), ...source.matchAll(/env\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]!));
})();

/** What the Dockerfile's runtime stage says: ENV values, the user's uid (the node user, 1000), EXPOSE. */
const dockerfile = read('Dockerfile');
const imagePort = Number(dockerfile.match(/^EXPOSE (\d+)$/m)?.[1]);
const imageSpool = dockerfile.match(/AUDIT_SPOOL_DIR=(\S+)/)?.[1];

/** The schema validator of each kind the manifests hold; a kind not listed here fails the test. */
const models: Record<string, new (object: any) => { validate(): void }> = {
  'apps/v1 Deployment': Deployment,
  'autoscaling/v2 HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'batch/v1 Job': Job,
  'policy/v1 PodDisruptionBudget': PodDisruptionBudget,
  'v1 ConfigMap': ConfigMap,
  'v1 PersistentVolumeClaim': PersistentVolumeClaim,
  'v1 Secret': Secret,
  'v1 Service': Service,
};

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => (statSync(join(dir, entry)).isDirectory() ? files(join(dir, entry)) : [join(dir, entry)]));
}

const kustomizations = [join(deploy, 'base'), join(deploy, 'overlays/production')];

describe.each(kustomizations.map((dir) => [relative(root, dir), dir]))('%s', (_name, dir) => {
  const objects = kustomize(dir);
  const byKind = (kind: string) => objects.filter((o) => o.kind === kind);
  const configMap = byKind('ConfigMap').find((o) => o.metadata.name === 'lookup-config')!;
  const secrets = byKind('Secret');
  const deployment = byKind('Deployment')[0]!;
  const podTemplates = objects.filter((o) => containersOf(o).length);
  const environment = (): Record<string, string> => ({ ...configMap.data, ...Object.assign({}, ...secrets.map((s) => s.stringData ?? {})) });

  it('renders objects each valid against the Kubernetes schemas', () => {
    expect(objects.map((o) => o.kind).sort()).toEqual(
      expect.arrayContaining(['ConfigMap', 'Deployment', 'Job', 'PersistentVolumeClaim', 'PodDisruptionBudget', 'Service']),
    );
    for (const object of objects) {
      const Model = models[`${object.apiVersion} ${object.kind}`];
      if (!Model) throw new Error(`${object.apiVersion} ${object.kind}: add its model to the list above`);
      expect(() => new Model(object).validate(), `${object.kind}/${object.metadata.name}`).not.toThrow();
    }
    // The validators above ignore a field the API does not have; the API's types do not.
    expect(manifestTypeProblems(objects)).toEqual([]);
  });

  it('would refuse a field the Kubernetes API does not have (a misspelt probe)', () => {
    const misspelt = structuredClone(deployment);
    const container = misspelt.spec.template.spec.containers[0];
    container.livenesProbe = container.livenessProbe;
    delete container.livenessProbe;
    expect(manifestTypeProblems([misspelt])).toEqual([expect.stringMatching(/^Deployment\/\S+: .*'"livenesProbe"' does not exist in type 'IContainer'/)]);
  });

  it('sets only variables server/config.ts reads, with values it accepts', () => {
    const set = [
      ...Object.keys(configMap.data),
      ...secrets.flatMap((s) => Object.keys({ ...s.stringData, ...s.data })),
      ...podTemplates.flatMap(containersOf).flatMap((c) => (c.env ?? []).map((e: { name: string }) => e.name)),
    ];
    expect(set.filter((name) => !configVariables.has(name))).toEqual([]);
    // Without the Secret (the base), a placeholder database, as the overlay's Secret brings one.
    const env = { DATABASE_URL: 'postgres://lookup@postgres:5432/lookup', ...environment() };
    expect(() => loadConfig(env)).not.toThrow();
    expect(loadConfig(env).migrateOnStart).toBe(false);
  });

  it("runs every pod as the image's non-root user, read-only, without privileges, with envFrom the ConfigMap and Secret", () => {
    expect(podTemplates.length).toBeGreaterThanOrEqual(2);
    for (const object of podTemplates) {
      const pod = object.spec.template.spec;
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
      expect(pod.automountServiceAccountToken).toBe(false);
      for (const container of pod.containers) {
        expect(container.securityContext).toEqual({
          runAsNonRoot: true,
          readOnlyRootFilesystem: true,
          allowPrivilegeEscalation: false,
          capabilities: { drop: ['ALL'] },
        });
        expect(container.envFrom).toEqual([{ configMapRef: { name: 'lookup-config' } }, { secretRef: { name: 'lookup-secrets' } }]);
        expect(container.resources.requests.memory).toBeDefined();
        expect(container.resources.limits.memory).toBeDefined();
      }
    }
  });

  it("listens on the image's port, probes the server's health routes, and mounts the spool where AUDIT_SPOOL_DIR points", () => {
    const [container] = containersOf(deployment);
    expect(container.ports).toEqual([{ name: 'http', containerPort: imagePort }]);
    expect(Number(configMap.data.PORT)).toBe(imagePort);
    expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
    const service = byKind('Service')[0]!;
    expect(service.spec.ports[0].targetPort).toBe('http');
    expect(configMap.data.AUDIT_SPOOL_DIR).toBe(imageSpool);
    const mount = container.volumeMounts.find((m: { mountPath: string }) => m.mountPath === imageSpool);
    const volume = deployment.spec.template.spec.volumes.find((v: { name: string }) => v.name === mount?.name);
    expect(byKind('PersistentVolumeClaim').map((c) => c.metadata.name)).toContain(volume?.persistentVolumeClaim?.claimName);
  });

  it('gives a drain its time: the grace period covers the preStop pause and SHUTDOWN_TIMEOUT_MS', () => {
    const pod = deployment.spec.template.spec;
    const [container] = pod.containers;
    const pause = Number(container.lifecycle.preStop.exec.command.at(-1));
    expect(container.lifecycle.preStop.exec.command).toEqual(['sleep', String(pause)]);
    const shutdownMs = loadConfig({ DATABASE_URL: 'postgres://x@y/z', ...environment() }).shutdownTimeoutMs;
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(pause * 1000 + shutdownMs);
  });

  it('points the Service, the disruption budget and any autoscaler at the Deployment, and the Job at the migration', () => {
    const labels = deployment.spec.template.metadata.labels;
    expect(deployment.spec.selector.matchLabels).toEqual(labels);
    for (const object of [...byKind('Service'), ...byKind('PodDisruptionBudget')]) {
      const selector = object.spec.selector.matchLabels ?? object.spec.selector;
      expect(selector).toEqual(labels);
    }
    for (const hpa of byKind('HorizontalPodAutoscaler'))
      expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: deployment.metadata.name });
    const [job] = byKind('Job');
    expect(containersOf(job!)[0].command).toEqual(['node', 'dist/server/cli/migrate.js']);
    expect(read('server/cli/migrate.ts')).toMatch(/openMigratedCliDatabase/);
    expect(containersOf(job!)[0].image).toBe(containersOf(deployment)[0].image);
  });
});

describe('deploy/kubernetes as a whole', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('reads every file it holds: none is left out of a kustomization', () => {
    const readFiles = new Set<string>();
    for (const dir of kustomizations) kustomize(dir, readFiles);
    expect(files(deploy).filter((file) => !readFiles.has(file))).toEqual([]);
  });

  it('probes paths the server answers 200 on', async () => {
    for (const path of ['/healthz', '/readyz']) expect((await fetch(`${server.url}${path}`)).status, path).toBe(200);
  });

  it('sets the production image in the overlay', () => {
    const overlay = kustomize(join(deploy, 'overlays/production'));
    for (const container of overlay.flatMap(containersOf)) expect(container.image).toMatch(/^registry\.example\.com\/lookup:\S+$/);
  });
});
