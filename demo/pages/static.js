// Lagerfinder: tells the visitor what the widget verified (from its events) and shows the snapshot's dates beside it.
const widget = document.querySelector('storage-listings');
const state = document.getElementById('verify-state');
const meta = document.getElementById('snapshot-meta');

const when = new Intl.DateTimeFormat('de-DE', { dateStyle: 'medium', timeStyle: 'short' });

function show(kind, text) {
  state.dataset.state = kind;
  state.textContent = text;
}

async function showMetadata() {
  // The widget has verified these exact bytes; this second read only displays their dates (a file of the same URL).
  const res = await fetch(widget.getAttribute('src'));
  if (!res.ok) return;
  const s = await res.json();
  const values = {
    version: `Version ${s.version}`,
    generated_at: when.format(new Date(s.generated_at)),
    expires_at: when.format(new Date(s.expires_at)),
    kid: s.kid,
  };
  for (const dd of meta.querySelectorAll('dd[data-meta]')) dd.textContent = values[dd.dataset.meta] ?? '';
  meta.hidden = false;
}

widget.addEventListener('storage-listings-load', (event) => {
  const n = event.detail.listings.length;
  show('verified', `Signatur geprüft (Ed25519) · ${n} Angebote`);
  showMetadata().catch(() => {});
});

widget.addEventListener('storage-listings-error', (event) => {
  show('failed', `Nicht verifiziert: ${event.detail.code}`);
});
