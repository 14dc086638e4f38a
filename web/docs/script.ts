/**
 * Starts Swagger UI on the reference page (served as /docs/assets/docs.js: the page's CSP allows no inline
 * script). A token the page was given is filled into the bearer scheme once the document has loaded. The
 * document's title is drawn as an h2 (Swagger UI's own is an h1): the page has one h1, its own.
 */
export const DOCS_SCRIPT = `'use strict';
function titleAsH2(system) {
  var h = system.React.createElement;
  return function (props) {
    var current = props && typeof props.getSystem === 'function' ? props.getSystem() : system;
    var info = current.specSelectors.info();
    if (!info || !info.get) return null;
    var Markdown = current.getComponent('Markdown', true);
    var version = info.get('version');
    return h('div', { className: 'info' },
      h('hgroup', { className: 'main' }, h('h2', { className: 'title' }, info.get('title'), version ? h('span', null, h('small', null, h('pre', { className: 'version' }, version))) : null)),
      h('div', { className: 'description' }, h(Markdown, { source: info.get('description') })));
  };
}
window.addEventListener('DOMContentLoaded', function () {
  var root = document.getElementById('swagger-ui');
  if (!root || typeof window.SwaggerUIBundle !== 'function') return;
  var token = root.getAttribute('data-token');
  var ui = window.SwaggerUIBundle({
    plugins: [function (system) {
      var info = titleAsH2(system);
      return { components: { OAS31Info: info }, wrapComponents: { info: function () { return info; } } };
    }],
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
