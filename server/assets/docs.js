// The /docs page's own script (the CSP allows no inline one): Redoc draws /openapi.json, the curl samples take the typed key.
/* global Redoc */
const field = document.getElementById('api-key');
const placeholders = document.querySelectorAll('.sample .key');

// The samples quote the key in double quotes: a character the shell reads there is escaped.
function shellSafe(key) {
  return key.replace(/["$`\\]/g, '\\$&');
}

// The key lives only in the field and the samples' text: no request, cookie or storage ever sees it.
field.addEventListener('input', () => {
  const text = field.value === '' ? '$LISTINGS_KEY' : shellSafe(field.value);
  for (const span of placeholders) span.textContent = text;
});

// Search would need a blob: worker; the document has two paths, all in the side menu.
Redoc.init(
  '/openapi.json',
  {
    disableSearch: true,
    expandResponses: '200',
    hideDownloadButton: false,
    theme: { colors: { primary: { main: '#0a66c2' } } },
  },
  document.getElementById('reference'),
);
