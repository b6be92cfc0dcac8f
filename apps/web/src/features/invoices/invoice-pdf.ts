// The invoice as a PDF, drawn with pdf-lib (loaded only when asked for: it stays out of the main
// bundle) in the standard Helvetica font, so every PDF reader shows it the same and its text can be
// searched and copied.
import { paymentMethodLabels, type Invoice } from '@otto/api-contract';
import type { PDFFont, PDFPage } from 'pdf-lib';
import { formatMoney } from '../../lib/format';
import { formatDay, formatQuantity, percentText } from './invoice-words';

// The characters of Windows-1252 beyond Latin-1 that the standard fonts can write.
const winAnsiExtras = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/**
 * Text the standard fonts can write (WinAnsi): the narrow and other spaces some locales put in
 * numbers become plain spaces, the minus sign a hyphen, anything else not in the font "?".
 * @example
 * pdfText('1 234,50\u202f€'); // '1 234,50 €'
 */
export function pdfText(text: string): string {
  return [...text.replace(/[\u2000-\u200a\u202f\u205f]/g, ' ').replace(/\u2212/g, '-')]
    .map((c) => {
      const code = c.codePointAt(0) ?? 0;
      if (c === '\n' || c === '\t') return ' ';
      return (code >= 0x20 && code < 0x7f) || (code >= 0xa0 && code <= 0xff) || winAnsiExtras.has(c) ? c : '?';
    })
    .join('');
}

/** Splits text into lines no wider than `width` at `size` (words longer than a line are cut). */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let line = '';
    for (const word of pdfText(paragraph).split(' ')) {
      const next = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(next, size) <= width) {
        line = next;
        continue;
      }
      if (line) lines.push(line);
      let rest = word;
      while (font.widthOfTextAtSize(rest, size) > width && rest.length > 1) {
        let cut = rest.length - 1;
        while (cut > 1 && font.widthOfTextAtSize(rest.slice(0, cut), size) > width) cut--;
        lines.push(rest.slice(0, cut));
        rest = rest.slice(cut);
      }
      line = rest;
    }
    lines.push(line);
  }
  return lines;
}

/**
 * The invoice as PDF bytes (A4): the seller, the customer, reference and dates, every line, the
 * subtotal, discount, tax, total, payments and balance due, all as text.
 * @example
 * downloadFile(await invoicePdf(invoice, 'EUR'), 'INV-0042.pdf', 'application/pdf');
 */
export async function invoicePdf(invoice: Invoice, currency: string): Promise<Uint8Array> {
  const { PDFDocument, StandardFonts, rgb } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  doc.setTitle(`Invoice ${invoice.reference}`);
  doc.setAuthor(invoice.seller.name || 'Otto');
  doc.setCreator('Otto');
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const money = (cents: number) => formatMoney(cents, currency);
  const [pageWidth, pageHeight] = [595.28, 841.89];
  const margin = 50;
  const right = pageWidth - margin;
  const grey = rgb(0.35, 0.35, 0.38);
  let page: PDFPage = doc.addPage([pageWidth, pageHeight]);
  let y = pageHeight - margin;

  const text = (value: string, x: number, options: { size?: number; font?: PDFFont; align?: 'left' | 'right'; color?: ReturnType<typeof rgb> } = {}) => {
    const size = options.size ?? 10;
    const font = options.font ?? regular;
    const clean = pdfText(value);
    const at = options.align === 'right' ? x - font.widthOfTextAtSize(clean, size) : x;
    page.drawText(clean, { x: at, y, size, font, color: options.color ?? rgb(0.1, 0.1, 0.12) });
  };
  /** Room for `height` more points, or a new page. */
  const room = (height: number) => {
    if (y - height >= margin) return;
    page = doc.addPage([pageWidth, pageHeight]);
    y = pageHeight - margin;
  };
  const rule = () => {
    page.drawLine({ start: { x: margin, y: y + 4 }, end: { x: right, y: y + 4 }, thickness: 0.5, color: rgb(0.75, 0.75, 0.78) });
  };

  // Seller (left) and the invoice's reference and dates (right).
  const top = y;
  text(invoice.seller.name || 'Invoice', margin, { size: 14, font: bold });
  y -= 16;
  for (const line of wrap(invoice.seller.address, regular, 10, 250)) {
    if (!line) continue;
    text(line, margin, { color: grey });
    y -= 13;
  }
  if (invoice.seller.tax_number) {
    text(`Tax number: ${invoice.seller.tax_number}`, margin, { color: grey });
    y -= 13;
  }
  const leftBottom = y;
  y = top;
  text('INVOICE', right, { size: 18, font: bold, align: 'right' });
  y -= 20;
  text(invoice.reference, right, { size: 12, font: bold, align: 'right' });
  y -= 16;
  text(`Issued ${formatDay(invoice.issue_date)}`, right, { align: 'right' });
  y -= 13;
  text(`Due ${formatDay(invoice.due_date)}`, right, { align: 'right' });
  y -= 13;
  if (invoice.status !== 'open') {
    text(invoice.status === 'paid' ? 'PAID' : 'VOID', right, { size: 12, font: bold, align: 'right', color: invoice.status === 'paid' ? rgb(0.1, 0.5, 0.2) : rgb(0.7, 0.1, 0.1) });
    y -= 13;
  }
  y = Math.min(y, leftBottom) - 20;

  text('Billed to', margin, { size: 9, color: grey });
  y -= 14;
  text(invoice.customer_name, margin, { size: 11, font: bold });
  y -= 30;

  // The lines.
  const cols = { qty: 330, unit: 410, tax: 460, amount: right };
  const header = () => {
    text('Description', margin, { font: bold, size: 9 });
    text('Qty', cols.qty, { font: bold, size: 9, align: 'right' });
    text('Unit price', cols.unit, { font: bold, size: 9, align: 'right' });
    text('Tax', cols.tax, { font: bold, size: 9, align: 'right' });
    text('Amount', cols.amount, { font: bold, size: 9, align: 'right' });
    y -= 8;
    rule();
    y -= 10;
  };
  header();
  for (const line of invoice.lines) {
    const described = wrap(line.description, regular, 10, cols.qty - margin - 50);
    if (line.discount_bp > 0) described.push(`Less ${percentText(line.discount_bp)} % discount: -${money(line.discount_cents)}`);
    room(described.length * 13 + 6);
    if (y === pageHeight - margin) header();
    text(line.quantity ? formatQuantity(line.quantity) : '', cols.qty, { align: 'right' });
    text(money(line.unit_price_cents), cols.unit, { align: 'right' });
    text(`${percentText(line.tax_rate_bp)} %`, cols.tax, { align: 'right' });
    text(money(line.amount_cents), cols.amount, { align: 'right' });
    described.forEach((d, i) => {
      text(d, margin, i === 0 ? {} : { color: grey, size: 9 });
      y -= 13;
    });
    y -= 4;
  }
  rule();
  y -= 12;

  // The totals.
  const total = (label: string, value: string, strong = false) => {
    room(16);
    text(label, 400, strong ? { font: bold } : {});
    text(value, right, { align: 'right', ...(strong ? { font: bold } : {}) });
    y -= 15;
  };
  total('Subtotal', money(invoice.subtotal_cents));
  if (invoice.discount_cents > 0) total('Discount', `-${money(invoice.discount_cents)}`);
  total('Tax', money(invoice.tax_cents));
  total('Total', money(invoice.total_cents), true);
  if (invoice.paid_cents > 0) total('Paid', `-${money(invoice.paid_cents)}`);
  if (invoice.status !== 'void') total('Balance due', money(invoice.balance_cents), true);

  if (invoice.payments.length > 0) {
    y -= 12;
    room(30);
    text('Payments received', margin, { font: bold });
    y -= 15;
    for (const p of invoice.payments) {
      room(14);
      text(`${formatDay(p.paid_on)}  ${paymentMethodLabels[p.method]}${p.note ? `  ${p.note}` : ''}`, margin);
      text(money(p.amount_cents), right, { align: 'right' });
      y -= 14;
    }
  }
  if (invoice.note) {
    y -= 12;
    for (const line of wrap(invoice.note, regular, 10, right - margin)) {
      room(14);
      text(line, margin, { color: grey });
      y -= 13;
    }
  }
  return doc.save();
}
