// Types of fixtures.js, for the browser tests and for test/widget-fixtures.test.ts, which checks them against the contract.
import type { Detail, ListResponse, Problem, Summary } from '../../../shared/listing.ts';

export declare const API_KEY: string;
export declare const FACILITY: ListResponse['facility'];
export declare const fixtures: Record<'basic' | 'eur' | 'hostile' | 'many' | 'codes' | 'empty', Detail[]>;
export declare function listResponseOf(listings: readonly Detail[]): ListResponse;
export declare function problemOf(status: number, code: Problem['code']): Problem;
export declare function summaryOf(detail: Detail): Summary;
export declare function absolutize(detail: Detail, origin: string): Detail;
