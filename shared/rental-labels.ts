// English words for the contract's vocabularies and days, for pages and structured data that speak English.
import type { Amenity, Day, Feature, UnitType } from './listing.ts';

export const FEATURE_LABELS: Record<Feature, string> = {
  climate_controlled: 'Climate controlled',
  heated: 'Heated',
  indoor: 'Indoor',
  outdoor: 'Outdoor',
  drive_up: 'Drive-up',
  ground_floor: 'Ground floor',
  elevator_access: 'Lift access',
  power: 'Power socket',
  lighting: 'Lighting',
  alarmed: 'Alarmed',
  shelving: 'Shelving',
  roll_up_door: 'Roll-up door',
};

export const AMENITY_LABELS: Record<Amenity, string> = {
  cctv: 'CCTV',
  gated: 'Gated',
  alarm: 'Alarm system',
  on_site_staff: 'Staff on site',
  loading_bay: 'Loading bay',
  trolleys: 'Trolleys',
  elevator: 'Lift',
  parking: 'Parking',
  packing_supplies: 'Packing supplies',
  wifi: 'Wi-Fi',
};

export const UNIT_TYPE_LABELS: Record<UnitType, string> = {
  locker: 'Locker',
  small: 'Small unit',
  medium: 'Medium unit',
  large: 'Large unit',
  xl: 'Extra large unit',
  parking: 'Parking space',
  container: 'Container',
  wine: 'Wine storage',
  archive: 'Archive storage',
};

/** Days as schema.org names them (DayOfWeek), which are also their English names. */
export const DAY_NAMES: Record<Day, string> = {
  mo: 'Monday',
  tu: 'Tuesday',
  we: 'Wednesday',
  th: 'Thursday',
  fr: 'Friday',
  sa: 'Saturday',
  su: 'Sunday',
};
