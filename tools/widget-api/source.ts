// Where the widget's API is declared (widget/src/), and where what is made from it goes.
import { fileURLToPath } from 'node:url';

export const ELEMENT = 'widget/src/storage-listings.ts';
export const DEFINE = 'widget/src/define.ts';
export const EVENTS = 'widget/src/events.ts';
export const CLASS = 'StorageListings';
export const EVENT_MAP = 'StorageListingsEventMap';
export const MANIFEST = 'widget/custom-elements.json';
export const TYPES = 'widget/types/storage-listings.d.ts';
export const DOCS = 'docs/widget.md';

/** A file of the repository, by its path there, as an absolute path. */
export const path = (file: string) => fileURLToPath(new URL(`../../${file}`, import.meta.url));
