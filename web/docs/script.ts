/**
 * Starts Swagger UI on the reference page (served as /docs/assets/docs.js: the page's CSP allows no inline
 * script). A token the page was given is filled into the bearer scheme once the document has loaded.
 */
export const DOCS_SCRIPT = `'use strict';
window.addEventListener('DOMContentLoaded', function () {
  var root = document.getElementById('swagger-ui');
  if (!root || typeof window.SwaggerUIBundle !== 'function') return;
  var token = root.getAttribute('data-token');
  var ui = window.SwaggerUIBundle({
    url: root.getAttribute('data-document'),
    domNode: root,
    deepLinking: true,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    displayRequestDuration: true,
    filter: true,
    showExtensions: true,
    validatorUrl: null,
    onComplete: function () {
      if (token) ui.preauthorizeApiKey('bearer', token);
      document.documentElement.setAttribute('data-reference', 'ready');
    },
  });
});
`;
