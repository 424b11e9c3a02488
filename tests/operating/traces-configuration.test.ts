// The OTEL_* variables as config.ts reads them: traces off unless an OTLP endpoint is set,
// the specification's defaults, and each mistake refused in one line (at start too, as a
// process). The traces themselves: traces.slow.test.ts.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';

const run = promisify(execFile);

describe('traces configuration (OTEL_* variables)', () => {
  const endpoint = 'http://collector:4318';

  it('is off unless an endpoint is set, and off again when disabled', () => {
    expect(loadConfig({}).tracing).toBeUndefined();
    expect(loadConfig({ OTEL_SERVICE_NAME: 'x', OTEL_TRACES_SAMPLER: 'always_on' }).tracing).toBeUndefined();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SDK_DISABLED: 'true' }).tracing).toBeUndefined();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_TRACES_EXPORTER: 'none' }).tracing).toBeUndefined();
  });

  it('reads the standard variables, with the specification defaults', () => {
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: `${endpoint}/` }).tracing).toMatchObject({
      url: `${endpoint}/v1/traces`,
      protocol: 'http/protobuf',
      sampler: 'parentbased_always_on',
      serviceName: 'person-lookup',
      continueTraces: true,
      batch: { scheduleDelayMs: 5_000 },
    });
    const tracing = loadConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example.com/otlp/traces',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_HEADERS: 'api-key=s%3Dcret,tenant=a',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=staging',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
      OTEL_PROPAGATORS: 'none',
    }).tracing;
    expect(tracing).toMatchObject({
      url: 'https://traces.example.com/otlp/traces',
      protocol: 'http/json',
      headers: { 'api-key': 's=cret', tenant: 'a' },
      resourceAttributes: { 'deployment.environment.name': 'staging' },
      samplerRatio: 0.25,
      continueTraces: false,
    });
  });

  it.each([
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, 'OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL'],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'grpc://collector:4317' }, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be an http:// or https:// URL'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/xml' }, 'OTEL_EXPORTER_OTLP_PROTOCOL must be one of http/protobuf, http/json'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, 'OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_TRACES_SAMPLER: 'sometimes' }, 'OTEL_TRACES_SAMPLER must be one of always_on'],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '2' },
      'OTEL_TRACES_SAMPLER_ARG must be a number in 0..1',
    ],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_HEADERS: 'secret-without-name' }, 'OTEL_EXPORTER_OTLP_HEADERS must list key=value pairs'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_PROPAGATORS: 'b3' }, 'OTEL_PROPAGATORS may hold tracecontext, baggage or none'],
  ])('refuses %o in one line', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('a malformed endpoint stops the service at start with one line, exit 1', async () => {
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0', OTEL_EXPORTER_OTLP_ENDPOINT: 'localhost:4318' };
    const { code, stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'server/main.ts'], { env }).then(
      (done) => ({ code: 0, ...done }),
      (error) => ({ code: error.code as number, stdout: error.stdout as string, stderr: error.stderr as string }),
    );
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'configuration error: OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL such as http://otel-collector:4318; got "localhost:4318"\n',
    );
  });
});
