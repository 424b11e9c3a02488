// What `kubectl kustomize` makes of deploy/kubernetes/, for the features those
// kustomizations use (resources, namespace, images, replicas, JSON 6902 patches): no
// kubectl on these machines. Any other field is refused, so a kustomization that outgrows
// this renderer fails its test rather than being half-read.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: any;
}

const understood = new Set(['apiVersion', 'kind', 'resources', 'namespace', 'images', 'replicas', 'patches']);

/** The YAML documents of a file, each an object. */
export function readManifests(file: string): Manifest[] {
  return parseAllDocuments(readFileSync(file, 'utf8')).map((doc) => {
    if (doc.errors.length) throw new Error(`${file}: ${doc.errors[0]!.message}`);
    return doc.toJS() as Manifest;
  });
}

/** The objects the kustomization in `dir` renders, and every file it read (to find the ones nothing reads). */
export function kustomize(dir: string, read: Set<string> = new Set()): Manifest[] {
  const file = join(dir, 'kustomization.yaml');
  read.add(file);
  const k = readManifests(file)[0] as any;
  const unknown = Object.keys(k).filter((key) => !understood.has(key));
  if (unknown.length) throw new Error(`${file}: this renderer does not know ${unknown.join(', ')}`);
  const objects: Manifest[] = [];
  for (const entry of k.resources ?? []) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) objects.push(...kustomize(path, read));
    else {
      read.add(path);
      objects.push(...readManifests(path));
    }
  }
  for (const object of objects) if (k.namespace) object.metadata.namespace = k.namespace;
  for (const image of k.images ?? []) {
    for (const container of objects.flatMap(containersOf)) {
      if (container.image === image.name) container.image = `${image.newName ?? image.name}${image.newTag ? `:${image.newTag}` : ''}`;
    }
  }
  for (const { name, count } of k.replicas ?? []) {
    const target = objects.find((o) => o.metadata.name === name && o.spec?.replicas !== undefined);
    if (!target) throw new Error(`${file}: replicas names ${name}, which has no replicas`);
    target.spec.replicas = count;
  }
  for (const { target, patch } of k.patches ?? []) {
    const object = objects.find((o) => o.kind === target.kind && o.metadata.name === target.name);
    if (!object) throw new Error(`${file}: a patch targets ${target.kind}/${target.name}, which is not there`);
    for (const op of parseAllDocuments(patch)[0]!.toJS() as { op: string; path: string; value: unknown }[]) applyOperation(object, op, file);
  }
  return objects;
}

/** The containers of a pod template (Deployment, Job), or none. */
export function containersOf(object: Manifest): any[] {
  return object.spec?.template?.spec?.containers ?? [];
}

function applyOperation(object: any, { op, path, value }: { op: string; path: string; value: unknown }, file: string): void {
  if (op !== 'add' && op !== 'replace') throw new Error(`${file}: this renderer does not know the patch op ${op}`);
  const keys = path
    .split('/')
    .slice(1)
    .map((key) => key.replace(/~1/g, '/').replace(/~0/g, '~'));
  const last = keys.pop()!;
  const parent = keys.reduce((at, key) => at?.[key], object);
  if (parent === undefined || (op === 'replace' && !(last in parent))) throw new Error(`${file}: patch path ${path} is not there`);
  parent[last] = value;
}
