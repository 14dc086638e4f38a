/**
 * Starts Swagger UI on the reference page (served as /docs/assets/docs.js: the page's CSP allows no inline
 * script). A token the page was given is filled into the bearer scheme once the document has loaded. The
 * document's title is drawn as an h2 (Swagger UI's own is an h1): the page has one h1, its own.
 */
export const DOCS_SCRIPT = `'use strict';
function titleAsH2(system) {
  var h = system.React.createElement;
  return function (props) {
    var info = props.info;
    var Markdown = props.getComponent('Markdown', true);
    var VersionStamp = props.getComponent('VersionStamp');
    var version = info.get('version');
    return h('div', { className: 'info' },
      h('hgroup', { className: 'main' }, h('h2', { className: 'title' }, info.get('title'), h('span', null, version ? h(VersionStamp, { version: version }) : null))),
      h('div', { className: 'description' }, h(Markdown, { source: info.get('description') })));
  };
}
window.addEventListener('DOMContentLoaded', function () {
  var root = document.getElementById('swagger-ui');
  if (!root || typeof window.SwaggerUIBundle !== 'function') return;
  var token = root.getAttribute('data-token');
  var ui = window.SwaggerUIBundle({
    plugins: [function (system) { return { wrapComponents: { info: function () { return titleAsH2(system); } } }; }],
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
