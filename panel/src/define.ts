// The panel's script, the build entry and its only side effect: register the components the pages use, once.
import { PanelCopy } from './panel-copy.ts';
import { PanelEmbed } from './panel-embed.ts';
import { PanelKeyForm } from './panel-key-form.ts';
import { PanelListings } from './panel-listings.ts';
import { PanelRevoke } from './panel-revoke.ts';

const COMPONENTS = {
  'panel-copy': PanelCopy,
  'panel-embed': PanelEmbed,
  'panel-key-form': PanelKeyForm,
  'panel-listings': PanelListings,
  'panel-revoke': PanelRevoke,
} as const;

for (const [name, component] of Object.entries(COMPONENTS))
  if (!customElements.get(name)) customElements.define(name, component);

export { PanelCopy, PanelEmbed, PanelKeyForm, PanelListings, PanelRevoke };

declare global {
  interface HTMLElementTagNameMap {
    'panel-copy': PanelCopy;
    'panel-embed': PanelEmbed;
    'panel-key-form': PanelKeyForm;
    'panel-listings': PanelListings;
    'panel-revoke': PanelRevoke;
  }
}
