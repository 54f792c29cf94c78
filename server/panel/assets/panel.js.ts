// The panel's only script: copy buttons (the page works without it; the buttons stay hidden then).
export const PANEL_JS = `
for (const button of document.querySelectorAll('button[data-copy]')) {
  const field = document.getElementById(button.dataset.copy);
  if (!field || !navigator.clipboard) continue;
  button.hidden = false;
  const label = button.textContent;
  button.addEventListener('click', async () => {
    await navigator.clipboard.writeText(field.value);
    button.textContent = 'Copied';
    setTimeout(() => (button.textContent = label), 2000);
  });
}
`;
