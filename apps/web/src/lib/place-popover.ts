/**
 * Where a menu or popover opened from a button goes, in viewport coordinates (for `position:
 * fixed`): below the button, its right edge on the button's, moved left or right as far as it
 * must to stay `margin` px inside the viewport, and above the button when there is no room below.
 * A phone's job card has its Move button at the left: the menu used to start 75 px off-screen.
 * @example
 * const place = placePopover(button.getBoundingClientRect(), list.getBoundingClientRect());
 * list.style.left = `${place.left}px`;
 */
export function placePopover(
  trigger: Pick<DOMRect, 'top' | 'bottom' | 'right'>,
  popover: Pick<DOMRect, 'width' | 'height'>,
  viewport: { width: number; height: number } = { width: window.innerWidth, height: window.innerHeight },
  margin = 8,
): { top: number; left: number } {
  const gap = 4;
  const left = Math.max(margin, Math.min(trigger.right - popover.width, viewport.width - popover.width - margin));
  const below = trigger.bottom + gap;
  const fitsBelow = below + popover.height <= viewport.height - margin;
  const above = trigger.top - gap - popover.height;
  const top = fitsBelow || above < margin ? below : above;
  return { top, left };
}
