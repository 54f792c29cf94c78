// The widget and the rental page say a unit's terms, features and amenities in the same words in every language.
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../shared/languages.ts';
import { Amenity, Feature } from '../shared/listing.ts';
import { SHARED_TEXTS } from '../shared/rental-words.ts';
import { speechIn } from '../server/http/pages/rental-texts.ts';
import { translator } from '../widget/src/i18n.ts';

describe('the words the widget and the rental page share', () => {
  for (const language of LANGUAGES) {
    it(`are the same in ${language}`, () => {
      const t = translator(language, undefined);
      const page = speechIn(language);
      for (const key of Object.keys(SHARED_TEXTS) as (keyof typeof SHARED_TEXTS)[])
        expect(t(key), key).toBe(page.t[key]);
      for (const feature of Feature.options)
        expect(t.word('featureNames', feature)).toBe(page.labels.features[feature]);
      for (const amenity of Amenity.options)
        expect(t.word('amenityNames', amenity)).toBe(page.labels.amenities[amenity]);
      expect(page.t.groundFloor).toBe(t.word('featureNames', 'ground_floor'));
    });
  }
});
