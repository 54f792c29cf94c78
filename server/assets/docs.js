// Starts Swagger UI on /docs from the served OpenAPI document (a file, not inline, so the page keeps a strict CSP).
window.addEventListener('DOMContentLoaded', () => {
  window.SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true, defaultModelsExpandDepth: 2, docExpansion: 'list' });
});
