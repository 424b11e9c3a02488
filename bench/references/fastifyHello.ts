// Reference: hello on fastify 5 (its router, schema-validated params, compiled response
// serializer), with the same bearer check: "what if the HTTP layer were fastify".
import Fastify from 'fastify';
import { bearerCheck, statusOf } from './bearer.js';

const { check } = bearerCheck();
const app = Fastify({ logger: false });

app.get<{ Params: { companyId: string } }>(
  '/v1/companies/:companyId/hello',
  {
    schema: {
      params: { type: 'object', required: ['companyId'], properties: { companyId: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$' } } },
      response: {
        200: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } },
        '4xx': { type: 'object', required: ['error'], properties: { error: { type: 'string' } } },
      },
    },
  },
  async (request, reply) => {
    const outcome = check(request.headers.authorization, request.params.companyId);
    if (outcome !== 'ok') return reply.code(statusOf[outcome]).send({ error: outcome });
    return { message: `Hello, ${request.params.companyId}!` };
  },
);

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
