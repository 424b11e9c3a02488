// What kubernetes-models' validators let through: a field the Kubernetes API does not
// have (a misspelt `livenesProbe` is simply ignored by them, and by a lenient cluster).
// Each manifest is written out as an object literal typed with the package's own
// interface for its kind (`IDeployment` for apps/v1 Deployment) and type-checked:
// TypeScript refuses a property an object literal's type does not declare, at any depth.
import { join } from 'node:path';
import ts from 'typescript';
import type { Manifest } from './kustomize.js';

const root = new URL('../../', import.meta.url).pathname;

/** The type checker's complaints about `objects`, one line each naming the object; none when every field is the API's. */
export function manifestTypeProblems(objects: readonly Manifest[]): string[] {
  const file = join(root, 'tests', '__manifests__.ts');
  // One declaration per object; `firstLines[i]` is where object i's begins, to name it in a complaint.
  const declarations = objects.map(
    (object, i) =>
      `import type { I${object.kind} as T${i} } from 'kubernetes-models/${object.apiVersion}/${object.kind}';\nexport const m${i}: T${i} = ${JSON.stringify(object, null, 1)};\n`,
  );
  const firstLines = declarations.map((_, i) => declarations.slice(0, i).join('').split('\n').length - 1);
  const source = declarations.join('');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (name) => (name === file ? source : readFile(name));
  host.fileExists = (
    (exists) => (name: string) =>
      name === file || exists(name)
  )(host.fileExists.bind(host));
  host.getSourceFile = (name, version, ...rest) => (name === file ? ts.createSourceFile(name, source, version, true) : getSourceFile(name, version, ...rest));
  const program = ts.createProgram([file], options, host);
  const sourceFile = program.getSourceFile(file)!;
  return ts.getPreEmitDiagnostics(program, sourceFile).map((d) => {
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : 0;
    const object = objects[firstLines.filter((first) => first <= line).length - 1];
    const name = object ? `${object.kind}/${object.metadata.name}` : 'manifests';
    return `${name}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
}
