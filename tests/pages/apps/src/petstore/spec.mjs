// The pet store's OpenAPI 3 document: 34 operations in 6 tags (pets, the store, users, vets,
// supplies, adoptions), written one by one as a third-party API reference is: enum query
// parameters (a select in "Try it out"), arrays, path and header parameters, JSON request
// bodies with examples, and nested models. Every server answer is the app zoo's server.py.
const ref = (name) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema) => ({ content: { 'application/json': { schema } } });
const path = (name, type = 'integer') => ({ name, in: 'path', required: true, schema: { type } });
const query = (name, schema, description) => ({ name, in: 'query', schema, description });
const body = (name) => ({ required: true, ...json(ref(name)) });
const ok = (schema, description = 'successful operation') => ({
  200: { description, ...(schema ? json(schema) : {}) },
  400: { description: 'Invalid input', ...json(ref('Error')) },
  404: { description: 'Not found', ...json(ref('Error')) },
});
const list = (name) => ({ type: 'array', items: ref(name) });
const op = (tag, operationId, summary, extra = {}) => ({ tags: [tag], operationId, summary, ...extra });

const paths = {
  '/pet': {
    post: op('pet', 'addPet', 'Add a new pet to the store', { requestBody: body('Pet'), responses: ok(ref('Pet')) }),
    put: op('pet', 'updatePet', 'Update an existing pet', { requestBody: body('Pet'), responses: ok(ref('Pet')) }),
  },
  '/pet/findByStatus': {
    get: op('pet', 'findPetsByStatus', 'Finds pets by status', {
      description: 'Multiple status values can be provided with comma separated strings.',
      parameters: [query('status', { type: 'string', enum: ['available', 'pending', 'sold'], default: 'available' },
        'Status values that need to be considered for filter')],
      responses: ok(list('Pet')),
    }),
  },
  '/pet/findByTags': {
    get: op('pet', 'findPetsByTags', 'Finds pets by tags', {
      parameters: [query('tags', { type: 'array', items: { type: 'string' } }, 'Tags to filter by')],
      responses: ok(list('Pet')),
    }),
  },
  '/pet/{petId}': {
    get: op('pet', 'getPetById', 'Find pet by ID', { parameters: [path('petId')], responses: ok(ref('Pet')) }),
    post: op('pet', 'updatePetWithForm', 'Updates a pet in the store with form data', {
      parameters: [path('petId'), query('name', { type: 'string' }, 'Name of the pet'),
        query('status', { type: 'string', enum: ['available', 'pending', 'sold'] }, 'Status of the pet')],
      responses: ok(ref('Pet')),
    }),
    delete: op('pet', 'deletePet', 'Deletes a pet', {
      parameters: [{ name: 'api_key', in: 'header', schema: { type: 'string' } }, path('petId')],
      responses: ok(ref('ApiResponse')),
    }),
  },
  '/pet/{petId}/photos': {
    post: op('pet', 'addPetPhoto', 'Adds a photo URL to a pet', {
      parameters: [path('petId'), query('additionalMetadata', { type: 'string' }, 'Additional metadata')],
      requestBody: { ...json({ type: 'object', properties: { url: { type: 'string', example: 'https://example.org/rex.jpg' } } }) },
      responses: ok(ref('ApiResponse')),
    }),
  },
  '/store/inventory': {
    get: op('store', 'getInventory', 'Returns pet inventories by status', {
      responses: ok({ type: 'object', additionalProperties: { type: 'integer' } }),
    }),
  },
  '/store/order': {
    post: op('store', 'placeOrder', 'Place an order for a pet', { requestBody: body('Order'), responses: ok(ref('Order')) }),
  },
  '/store/orders': {
    get: op('store', 'listOrders', 'Lists orders by status', {
      parameters: [query('status', { type: 'string', enum: ['placed', 'approved', 'delivered'] }, 'Order status'),
        query('limit', { type: 'integer', default: 20 }, 'How many orders at most')],
      responses: ok(list('Order')),
    }),
  },
  '/store/order/{orderId}': {
    get: op('store', 'getOrderById', 'Find purchase order by ID', { parameters: [path('orderId')], responses: ok(ref('Order')) }),
    delete: op('store', 'deleteOrder', 'Delete purchase order by ID', { parameters: [path('orderId')], responses: ok(ref('ApiResponse')) }),
  },
  '/user': {
    post: op('user', 'createUser', 'Create user', { requestBody: body('User'), responses: ok(ref('User')) }),
  },
  '/user/createWithList': {
    post: op('user', 'createUsersWithListInput', 'Creates list of users with given input array', {
      requestBody: { required: true, ...json(list('User')) }, responses: ok(list('User')),
    }),
  },
  '/user/login': {
    get: op('user', 'loginUser', 'Logs user into the system', {
      parameters: [query('username', { type: 'string' }, 'The user name for login'),
        query('password', { type: 'string', format: 'password' }, 'The password for login in clear text')],
      responses: ok({ type: 'string' }),
    }),
  },
  '/user/logout': {
    get: op('user', 'logoutUser', 'Logs out current logged in user session', { responses: ok(null) }),
  },
  '/user/{username}': {
    get: op('user', 'getUserByName', 'Get user by user name', { parameters: [path('username', 'string')], responses: ok(ref('User')) }),
    put: op('user', 'updateUser', 'Update user', {
      parameters: [path('username', 'string')], requestBody: body('User'), responses: ok(ref('User')),
    }),
    delete: op('user', 'deleteUser', 'Delete user', { parameters: [path('username', 'string')], responses: ok(ref('ApiResponse')) }),
  },
  '/vet': {
    get: op('vet', 'listVets', 'Lists the clinic\'s vets', {
      parameters: [query('specialty', { type: 'string', enum: ['dentistry', 'surgery', 'radiology'] }, 'Only vets of this specialty')],
      responses: ok(list('Vet')),
    }),
  },
  '/vet/{vetId}': {
    get: op('vet', 'getVet', 'Find vet by ID', { parameters: [path('vetId')], responses: ok(ref('Vet')) }),
  },
  '/vet/{vetId}/visits': {
    get: op('vet', 'listVisits', 'Lists a vet\'s visits', { parameters: [path('vetId')], responses: ok(list('Visit')) }),
    post: op('vet', 'bookVisit', 'Books a visit with a vet', {
      parameters: [path('vetId')], requestBody: body('Visit'), responses: ok(ref('Visit')),
    }),
  },
  '/vet/{vetId}/visits/{visitId}': {
    delete: op('vet', 'cancelVisit', 'Cancels a visit', { parameters: [path('vetId'), path('visitId')], responses: ok(ref('ApiResponse')) }),
  },
  '/supplies': {
    get: op('supplies', 'listSupplies', 'Lists supplies by category', {
      parameters: [query('category', { type: 'string', enum: ['food', 'toys', 'bedding'] }, 'Supply category')],
      responses: ok(list('Supply')),
    }),
  },
  '/supplies/{sku}': {
    get: op('supplies', 'getSupply', 'Find supply by SKU', { parameters: [path('sku', 'string')], responses: ok(ref('Supply')) }),
    patch: op('supplies', 'updateSupply', 'Updates a supply', {
      parameters: [path('sku', 'string')], requestBody: body('Supply'), responses: ok(ref('Supply')),
    }),
  },
  '/supplies/{sku}/restock': {
    post: op('supplies', 'restockSupply', 'Restocks a supply', {
      parameters: [path('sku', 'string'), query('quantity', { type: 'integer', default: 10 }, 'How many to add')],
      responses: ok(ref('Supply')),
    }),
  },
  '/adoption/applications': {
    get: op('adoption', 'listApplications', 'Lists adoption applications', {
      parameters: [query('status', { type: 'string', enum: ['open', 'approved', 'rejected'] }, 'Application status')],
      responses: ok(list('Application')),
    }),
    post: op('adoption', 'applyForAdoption', 'Applies to adopt a pet', { requestBody: body('Application'), responses: ok(ref('Application')) }),
  },
  '/adoption/applications/{applicationId}': {
    get: op('adoption', 'getApplication', 'Find adoption application by ID', {
      parameters: [path('applicationId')], responses: ok(ref('Application')),
    }),
  },
  '/adoption/applications/{applicationId}/approve': {
    post: op('adoption', 'approveApplication', 'Approves an application', {
      parameters: [path('applicationId')], responses: ok(ref('Application')),
    }),
  },
  '/adoption/applications/{applicationId}/reject': {
    post: op('adoption', 'rejectApplication', 'Rejects an application', {
      parameters: [path('applicationId'), query('reason', { type: 'string' }, 'Why it is rejected')],
      responses: ok(ref('Application')),
    }),
  },
};

const schemas = {
  Category: { type: 'object', properties: { id: { type: 'integer', example: 1 }, name: { type: 'string', example: 'Dogs' } } },
  Tag: { type: 'object', properties: { id: { type: 'integer', example: 1 }, name: { type: 'string', example: 'friendly' } } },
  Pet: {
    type: 'object', required: ['name', 'photoUrls'],
    properties: {
      id: { type: 'integer', example: 10 }, name: { type: 'string', example: 'doggie' }, category: ref('Category'),
      photoUrls: { type: 'array', items: { type: 'string' } }, tags: list('Tag'),
      status: { type: 'string', description: 'pet status in the store', enum: ['available', 'pending', 'sold'] },
    },
  },
  Order: {
    type: 'object',
    properties: {
      id: { type: 'integer', example: 10 }, petId: { type: 'integer', example: 198772 }, quantity: { type: 'integer', example: 7 },
      shipDate: { type: 'string', format: 'date-time' }, status: { type: 'string', enum: ['placed', 'approved', 'delivered'] },
      complete: { type: 'boolean' },
    },
  },
  User: {
    type: 'object',
    properties: {
      id: { type: 'integer', example: 10 }, username: { type: 'string', example: 'theUser' },
      firstName: { type: 'string', example: 'John' }, lastName: { type: 'string', example: 'James' },
      email: { type: 'string', example: 'john@email.com' }, phone: { type: 'string', example: '12345' },
      userStatus: { type: 'integer', description: 'User Status', example: 1 },
    },
  },
  Vet: {
    type: 'object',
    properties: { id: { type: 'integer', example: 3 }, name: { type: 'string', example: 'Dr. Linda Ortega' },
      specialties: { type: 'array', items: { type: 'string', enum: ['dentistry', 'surgery', 'radiology'] } } },
  },
  Visit: {
    type: 'object',
    properties: { id: { type: 'integer', example: 41 }, petId: { type: 'integer', example: 10 },
      date: { type: 'string', format: 'date' }, reason: { type: 'string', example: 'annual check-up' } },
  },
  Supply: {
    type: 'object',
    properties: { sku: { type: 'string', example: 'FD-0042' }, name: { type: 'string', example: 'Kibble, 5 kg' },
      category: { type: 'string', enum: ['food', 'toys', 'bedding'] }, stock: { type: 'integer', example: 12 } },
  },
  Application: {
    type: 'object',
    properties: { id: { type: 'integer', example: 7 }, petId: { type: 'integer', example: 10 }, applicant: ref('User'),
      status: { type: 'string', enum: ['open', 'approved', 'rejected'] }, note: { type: 'string' } },
  },
  ApiResponse: { type: 'object', properties: { code: { type: 'integer' }, type: { type: 'string' }, message: { type: 'string' } } },
  Error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } },
};

export function spec() {
  const tags = [['pet', 'Everything about your pets'], ['store', 'Access to the pet store\'s orders'],
    ['user', 'Operations about users'], ['vet', 'The clinic\'s vets and visits'],
    ['supplies', 'Food, toys and bedding'], ['adoption', 'Adoption applications']];
  return {
    openapi: '3.0.3',
    info: { title: 'Pet Store', version: '1.0.0', description: 'A pet store with a clinic, supplies and adoptions.' },
    servers: [{ url: '/petstore/api' }],
    tags: tags.map(([name, description]) => ({ name, description })),
    paths,
    components: { schemas, securitySchemes: { api_key: { type: 'apiKey', in: 'header', name: 'api_key' } } },
    security: [{ api_key: [] }],
  };
}
