// Types of fixtures.js, for the browser tests and for test/widget-fixtures.test.ts, which checks them against the contract.
import type { Detail, FacilityInfo, ListResponse, Problem, Summary } from '../../../shared/listing.ts';

export declare const API_KEY: string;
export declare const PARTNER_REF: string;
export declare const FACILITY: FacilityInfo;
export declare const TERMS_FACILITY: FacilityInfo;
/** The test runner's start: the `terms` promotions' times are relative to it. */
export declare const T0: number;
export declare const fixtures: Record<'basic' | 'eur' | 'hostile' | 'many' | 'codes' | 'terms' | 'empty', Detail[]>;
export declare function snapshotTermsListings(generatedAt: number): Detail[];
export declare function listResponseOf(listings: readonly Detail[], facility?: FacilityInfo): ListResponse;
export declare function problemOf(status: number, code: Problem['code']): Problem;
export declare function summaryOf(detail: Detail): Summary;
export declare function absolutize(detail: Detail, origin: string): Detail;
