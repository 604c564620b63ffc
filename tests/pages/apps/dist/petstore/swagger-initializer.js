// swagger-ui-dist's own initializer, as its index.html loads it, pointed at the pet store's
// document instead of the public pet store: deep links, the standalone layout (its top bar
// with the document's URL and "Explore") and the plugin that downloads the document.
window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: 'openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'StandaloneLayout',
  });
};
