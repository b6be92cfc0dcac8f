import { describe, expect, it } from 'vitest';
import { invoiceInputSchema, invoiceLineInputSchema, invoiceReference, invoiceTotals, priceLine } from './invoice';

const line = (fields: Record<string, unknown>) => priceLine(invoiceLineInputSchema.parse({ description: 'x', ...fields }));

describe('the one rounding rule', () => {
  it('rounds each line figure to a cent once, half a cent up, and the totals are the sums of the lines', () => {
    expect(line({ quantity: 1.5, unit_price_cents: 4_999, tax_rate_bp: 2_000 })).toMatchObject({ amount_cents: 7_499, tax_cents: 1_500, total_cents: 8_999 });
    // 0.5 cents exactly rounds up; 0.4999… down.
    expect(line({ quantity: 0.5, unit_price_cents: 1 }).amount_cents).toBe(1);
    expect(line({ quantity: 0.001, unit_price_cents: 499 }).amount_cents).toBe(0);
    expect(line({ quantity: 0.001, unit_price_cents: 500 }).amount_cents).toBe(1);
    // The discount is of the amount, the tax of what is left.
    expect(line({ quantity: 3, unit_price_cents: 1_250, tax_rate_bp: 2_000, discount_bp: 1_000 })).toMatchObject({
      amount_cents: 3_750, discount_cents: 375, tax_cents: 675, total_cents: 4_050,
    });
    const lines = [line({ quantity: 1, unit_price_cents: 333, tax_rate_bp: 1_750 }), line({ quantity: 1, unit_price_cents: 333, tax_rate_bp: 1_750 })];
    expect(invoiceTotals(lines)).toEqual({ subtotal_cents: 666, discount_cents: 0, tax_cents: 116, total_cents: 782 });
  });

  it('stays exact where a product passes 2^53', () => {
    const big = line({ quantity: 99_999.999, unit_price_cents: 999_999_999, tax_rate_bp: 9_999 });
    expect(big.amount_cents).toBe(Number((99_999_999n * 999_999_999n + 500n) / 1000n));
    expect(Number.isSafeInteger(big.total_cents)).toBe(true);
  });

  it('keeps a quantity to three decimals and refuses a fourth', () => {
    expect(line({ quantity: 0.1 + 0.2, unit_price_cents: 1 }).quantity).toBe(0.3);
    expect(invoiceLineInputSchema.safeParse({ description: 'x', quantity: 1.0005, unit_price_cents: 1 }).success).toBe(false);
  });
});

describe('an invoice input', () => {
  it('needs a line, real days and a due date not before the issue date', () => {
    const base = { customer_id: '1', issue_date: '2026-11-27', due_date: '2026-12-27', lines: [{ description: 'Work', unit_price_cents: 100 }] };
    expect(invoiceInputSchema.safeParse(base).success).toBe(true);
    expect(invoiceInputSchema.safeParse({ ...base, lines: [] }).success).toBe(false);
    expect(invoiceInputSchema.safeParse({ ...base, issue_date: '2026-02-30' }).success).toBe(false);
    expect(invoiceInputSchema.safeParse({ ...base, due_date: '2026-11-26' }).error?.issues[0]?.path).toEqual(['due_date']);
    expect(invoiceInputSchema.safeParse({ ...base, job_ids: ['1', '1'] }).success).toBe(false);
  });

  it('is printed with its prefix and at least four digits', () => {
    expect(invoiceReference('INV-', 42)).toBe('INV-0042');
    expect(invoiceReference('', 123_456)).toBe('123456');
  });
});
