// Types of the part of terms.js that test/rental-page-bidi.test.ts reads.
/** The fields of the import an operator writes as free text: names, titles, terms, captions and the address's lines. */
export declare const FREE_TEXT: ReadonlySet<string>;
