// Types of first-months.js, the browser module the comparison page and demo:compare share.
import type { MoveIn, ScheduleRun } from '../../shared/listing.ts';

export declare const FIRST_PERIODS: 3;
export declare function periodGross(schedule: readonly ScheduleRun[], n: number): number;
export declare function firstPeriodsCost(terms: { schedule: readonly ScheduleRun[]; move_in: MoveIn }): number;
