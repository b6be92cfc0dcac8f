import { describe, expect, it } from 'vitest';
import { placePopover } from './place-popover';

const phone = { width: 375, height: 740 };
const menu = { width: 176, height: 120 };

describe('placePopover', () => {
  it('puts the menu below the button, right edges together, when it fits', () => {
    expect(placePopover({ top: 100, bottom: 132, right: 360 }, menu, phone)).toEqual({ top: 136, left: 184 });
  });

  it('keeps a menu opened from a button at the left inside the viewport (a phone card’s Move button)', () => {
    // Right edge at 101 px: right-aligned, the menu would start at -75 px.
    expect(placePopover({ top: 100, bottom: 132, right: 101 }, menu, phone).left).toBe(8);
  });

  it('keeps it inside on the right too, and opens above the button near the bottom', () => {
    expect(placePopover({ top: 680, bottom: 712, right: 400 }, menu, phone)).toEqual({ top: 556, left: 191 });
  });
});
