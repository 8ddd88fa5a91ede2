// The suite's Swagger UI configuration. Like upstream's end-to-end set-up, the page takes its
// configuration from the query string (queryConfigEnabled): `?url=/documents/…` names the
// document, and `deepLinking`, `filter`, `tryItOutEnabled`, … may be added the same way.
// The standalone layout (top bar included) is the one swagger-ui-dist's own page uses.
window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: "/documents/petstore.swagger.yaml",
    dom_id: "#swagger-ui",
    queryConfigEnabled: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: "StandaloneLayout",
  });
};
