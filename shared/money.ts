// Money and periods as every answer writes them: the price object and ISO 8601 durations.
import { z } from 'zod';

export const IsoDuration = z
  .string()
  .regex(
    /^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?$/,
    'must be an ISO 8601 duration of whole years, months, weeks or days (P1M, P14D, P1W)',
  );

export const Price = z
  .object({
    gross: z.int().describe('Price including VAT, in minor units (cents, grosze).'),
    net: z.int().describe('Price excluding VAT, in minor units: round(gross * 100 / (100 + vat_rate)).'),
    vat_rate: z.number().min(0).max(100).describe('VAT as a percentage (23, 8.1, 0).'),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .describe('ISO 4217 currency code.'),
    period: IsoDuration.describe('Billing period as an ISO 8601 duration (P1M = per month).'),
  })
  .meta({ id: 'Price' });
export type Price = z.infer<typeof Price>;

export const CurrencyCode = z
  .string()
  .regex(/^[A-Z]{3}$/)
  .describe('ISO 4217 currency code.');
