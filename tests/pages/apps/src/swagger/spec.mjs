// The API reference's OpenAPI 3 document: 12 tags of 8 operations, each with a summary,
// parameters, a request body for writes and a response schema, all behind one API key.
const TAGS = ['customers', 'orders', 'shipments', 'invoices', 'carriers', 'inventory',
  'warehouses', 'returns', 'suppliers', 'payments', 'webhooks', 'reports'];
const OPERATIONS = [
  ['get', '', 'list', 'List'], ['post', '', 'create', 'Create'],
  ['get', '/{id}', 'get', 'Get'], ['put', '/{id}', 'replace', 'Replace'],
  ['patch', '/{id}', 'update', 'Update'], ['delete', '/{id}', 'delete', 'Delete'],
  ['get', '/{id}/history', 'history', 'History of'], ['post', '/{id}/archive', 'archive', 'Archive'],
];

const singular = (tag) => tag.replace(/ies$/, 'y').replace(/s$/, '');
const title = (word) => word[0].toUpperCase() + word.slice(1);

export function spec() {
  const paths = {};
  const schemas = {};
  for (const tag of TAGS) {
    const model = title(singular(tag));
    schemas[model] = {
      type: 'object',
      properties: {
        id: { type: 'string' }, name: { type: 'string' }, created: { type: 'string', format: 'date-time' },
        address: { $ref: '#/components/schemas/Address' }, note: { type: 'string' },
      },
    };
    for (const [method, suffix, verb, words] of OPERATIONS) {
      const path = `/${tag}${suffix}`;
      const params = suffix ? [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }]
        : [{ name: 'limit', in: 'query', schema: { type: 'integer' } },
          { name: 'cursor', in: 'query', schema: { type: 'string' } }];
      const ref = { $ref: `#/components/schemas/${model}` };
      paths[path] ??= {};
      paths[path][method] = {
        tags: [tag],
        operationId: `${verb}${model}`,
        summary: `${words} ${suffix ? `a ${singular(tag)}` : tag}`,
        parameters: params,
        ...(method === 'post' || method === 'put' || method === 'patch'
          ? { requestBody: { content: { 'application/json': { schema: ref } } } } : {}),
        responses: { 200: { description: 'OK', content: { 'application/json': { schema: ref } } } },
      };
    }
  }
  schemas.Address = { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } };
  return {
    openapi: '3.0.3',
    info: { title: 'Depot API', version: '1.0.0', description: 'Warehouses, orders and shipments.' },
    servers: [{ url: '/api' }],
    tags: TAGS.map((name) => ({ name, description: `Everything about ${name}` })),
    paths,
    components: {
      schemas,
      securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
    },
    security: [{ key: [] }],
  };
}
