// Depot API reference in Swagger UI: the real swagger-ui-dist bundle (React, Redux,
// Immutable, highlight.js and the rest, about 1.7 MB minified) rendering openapi.json, an
// OpenAPI 3 document of 96 operations in 12 tags, every one behind an API key (a lock icon
// each). Collapsed, the page offers about 300 actions: each operation's summary, its copy
// button and its lock, each tag's heading and expand button, the models.
import SwaggerUIBundle from 'swagger-ui-dist/swagger-ui-bundle.js';

SwaggerUIBundle({
  url: 'openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: false,
  docExpansion: 'list',
  tryItOutEnabled: false,
});
