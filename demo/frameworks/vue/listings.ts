// Vue 3: the element is a GlobalComponent in templates (with compilerOptions.isCustomElement: (tag) => tag ===
// 'storage-listings'); the same element from a render function, with a typed rent listener.
import { defineComponent, h, type GlobalComponents } from 'vue';
import type { StorageListingsRentDetail } from 'storage-listings/widget';

/** Templates see `<storage-listings api-key="..." />` with these props. */
export type StorageListingsInTemplates = GlobalComponents['storage-listings'];

export const Listings = defineComponent({
  props: { apiKey: { type: String, required: true }, apiBase: { type: String, required: true } },
  emits: { rent: (detail: StorageListingsRentDetail) => Boolean(detail.id) },
  setup(props, { emit }) {
    return () =>
      h('storage-listings', {
        'api-key': props.apiKey,
        'api-base': props.apiBase,
        'onStorage-listings-rent': (event: CustomEvent<StorageListingsRentDetail>) => emit('rent', event.detail),
      });
  },
});
