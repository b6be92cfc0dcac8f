// The schedule in real Chromium (issue 39): a week with a lane per person and the unscheduled jobs
// beside it; a quote dragged onto a day and a person; a job moved and lengthened with the keyboard
// (focus stays on it); in the day view a job dragged to another time and its end dragged longer;
// a job scheduled through the dialog by keyboard alone; overlaps and past open jobs flagged; the
// other tab follows; a phone's agenda. Every change is read back through the API. Screenshots at
// desktop and phone width after the data loaded.
import { jobSchema, type Job } from '@otto/api-contract';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { addDays, daysFrom, instantAt, mondayOf, dayOf } from '../src/features/schedule/schedule-time';
import { apiFetch, screenshot, useBrowserSession } from './harness';

const session = useBrowserSession({ warm: true });
const zone = 'Europe/Berlin';
const desktop = { viewport: { width: 1280, height: 900 }, timezoneId: zone, locale: 'en-GB' };

async function getJob(page: Page, id: string): Promise<Job> {
  const call = await apiFetch(page, `/api/jobs/${id}`);
  expect(call.status).toBe(200);
  return jobSchema.parse(call.json);
}

async function createJob(page: Page, fields: Record<string, unknown>): Promise<Job> {
  const call = await apiFetch(page, '/api/jobs', { method: 'POST', body: fields });
  expect(call.status, call.text).toBe(200);
  return jobSchema.parse(call.json);
}

/** Waits until the week or day grid shows its data (never a screenshot of "Loading…"). */
async function scheduleLoaded(page: Page): Promise<void> {
  await page.locator('.sched-grid, .sched-agenda').first().waitFor({ timeout: 30_000 });
  await page.getByText(/without a time|Every open job has a time/).waitFor();
  expect(await page.getByText('Loading the schedule…').count()).toBe(0);
}

/** Drags from the centre of one element to a point, in small steps, as a hand does. */
async function drag(page: Page, from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 8, from.y + 4, { steps: 2 });
  await page.mouse.move(to.x, to.y, { steps: 12 });
  await page.mouse.up();
}

async function centre(page: Page, selector: string): Promise<{ x: number; y: number }> {
  const box = await page.locator(selector).boundingBox();
  expect(box, selector).not.toBeNull();
  return { x: box!.x + box!.width / 2, y: box!.y + box!.height / 2 };
}

const cell = (lane: string, day: string) => `td[data-drop-lane="${lane}"][data-drop-day="${day}"]`;

describe('the schedule in Chromium', () => {
  it('schedules by drag and by keyboard, flags overlaps and late jobs, and the other tab follows', async () => {
    const tab = await session.open('/biz/schedule', desktop);
    const { page } = tab;
    await scheduleLoaded(page);
    const today = dayOf(Date.now(), zone);
    const monday = mondayOf(today);
    const [, tuesday, wednesday, thursday, friday] = daysFrom(monday, 5, zone).map((d) => d.key) as string[];
    const customer = (await apiFetch(page, '/api/customers', { method: 'POST', body: { full_name: 'Ada Schedule', email: 'ada@schedule.example', phone: '555 0199' } })).json as { id: string };
    const at = (day: string, hhmm: number) => instantAt(day, hhmm, zone);
    const quote = await createJob(page, { customer_id: customer.id, title: 'Drag me', assignee: 'Aaa Kit' });
    const dialogJob = await createJob(page, { customer_id: customer.id, title: 'Dialog me' });
    const keyed = await createJob(page, { customer_id: customer.id, title: 'Keyboard me', status: 'scheduled', scheduled_start_dt: at(tuesday!, 9 * 60), scheduled_end_dt: at(tuesday!, 10 * 60), assignee: 'Aaa Kit' });
    await createJob(page, { customer_id: customer.id, title: 'Overlap one', status: 'scheduled', scheduled_start_dt: at(thursday!, 10 * 60), scheduled_end_dt: at(thursday!, 12 * 60), assignee: 'Aab Kit' });
    await createJob(page, { customer_id: customer.id, title: 'Overlap two', status: 'scheduled', scheduled_start_dt: at(thursday!, 11 * 60), scheduled_end_dt: at(thursday!, 13 * 60), assignee: 'Aab Kit' });
    const lastWeek = addDays(monday, -6);
    await createJob(page, { customer_id: customer.id, title: 'Late job', status: 'scheduled', scheduled_start_dt: at(lastWeek, 9 * 60), scheduled_end_dt: at(lastWeek, 10 * 60), assignee: 'Aaa Kit' });
    // Seven jobs for one person on Monday: the week's cell shows six and says one more.
    for (let i = 0; i < 7; i++) {
      await createJob(page, { customer_id: customer.id, title: `Busy ${i + 1}`, status: 'scheduled', scheduled_start_dt: at(monday, (8 + i) * 60), scheduled_end_dt: at(monday, (8 + i) * 60 + 45), assignee: 'Aac Kit' });
    }
    const other = await session.openBeside(tab, '/biz/schedule');
    await scheduleLoaded(other.page);
    // The first tab in front again: a tab behind another draws one frame a second, and every
    // pointer move waits for a frame.
    await page.bringToFront();
    await page.reload();
    await scheduleLoaded(page);
    await page.locator(`${cell('Aaa Kit', tuesday!)} [data-job-id="${keyed.id}"]`).waitFor();
    await screenshot(page, 'schedule-week-1280');

    expect(await page.locator(`${cell('Aac Kit', monday)} .sched-job`).count()).toBe(6);
    await page.locator(cell('Aac Kit', monday)).getByRole('button', { name: /^1 more/ }).waitFor();

    // Overlapping jobs of one person say so; the late one (last week, still scheduled) too.
    for (const title of ['Overlap one', 'Overlap two']) {
      await expect.poll(() => page.locator('.sched-job', { hasText: title }).locator('.sched-tag--overlaps').count()).toBe(1);
    }

    // A quote dragged from the unscheduled list onto Wednesday, Aab Kit: 09:00 to 11:00, scheduled.
    await drag(page, await centre(page, `[data-unscheduled-id="${quote.id}"]`), await centre(page, cell('Aab Kit', wednesday!)));
    await page.locator(`${cell('Aab Kit', wednesday!)} [data-job-id="${quote.id}"]`).waitFor();
    await expect.poll(async () => (await getJob(page, quote.id)).status).toBe('scheduled');
    expect(await getJob(page, quote.id)).toMatchObject({ assignee: 'Aab Kit', scheduled_start_dt: at(wednesday!, 9 * 60), scheduled_end_dt: at(wednesday!, 11 * 60) });
    await expect.poll(() => page.locator(`[data-unscheduled-id="${quote.id}"]`).count()).toBe(0);

    // The keyboard: Right a day, Down a person, Shift+Right a quarter of an hour longer; focus stays on the job.
    const card = page.locator(`.sched-grid [data-job-id="${keyed.id}"]`);
    await card.focus();
    await page.keyboard.press('ArrowRight');
    await page.locator(`${cell('Aaa Kit', wednesday!)} [data-job-id="${keyed.id}"]`).waitFor();
    await expect.poll(async () => (await getJob(page, keyed.id)).scheduled_start_dt).toBe(at(wednesday!, 9 * 60));
    await page.keyboard.press('ArrowDown');
    await expect.poll(async () => (await getJob(page, keyed.id)).assignee).toBe('Aab Kit');
    await page.keyboard.press('Shift+ArrowRight');
    await expect.poll(async () => (await getJob(page, keyed.id)).scheduled_end_dt).toBe(at(wednesday!, 10 * 60 + 15));
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-job-id'))).toBe(keyed.id);
    // A burst of keys, each pressed before the last was saved: every one counts, in order.
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.locator(`${cell('Aab Kit', friday!)} [data-job-id="${keyed.id}"]`).waitFor();
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.locator(`${cell('Aab Kit', wednesday!)} [data-job-id="${keyed.id}"]`).waitFor();
    await expect.poll(async () => (await getJob(page, keyed.id)).scheduled_start_dt, { timeout: 10_000 }).toBe(at(wednesday!, 9 * 60));
    expect(await getJob(page, keyed.id)).toMatchObject({ assignee: 'Aab Kit', scheduled_end_dt: at(wednesday!, 10 * 60 + 15) });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-job-id'))).toBe(keyed.id);
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Keyboard me' }).textContent()).toContain('moved');

    // The other tab shows the job where it went, without a reload.
    await other.page.locator(`${cell('Aab Kit', wednesday!)} [data-job-id="${keyed.id}"]`).waitFor({ timeout: 10_000 });

    // The keyboard alone through the dialog: Enter on an unscheduled job, then the fields.
    await page.locator(`[data-unscheduled-id="${dialogJob.id}"]`).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Schedule “Dialog me”' });
    await dialog.waitFor();
    await dialog.getByLabel('Day').fill(friday!);
    await dialog.getByLabel('Start').fill('14:00');
    await dialog.getByLabel('Length').selectOption('60');
    await dialog.getByLabel('Person').fill('Aaa Kit');
    await dialog.getByRole('button', { name: 'Schedule' }).press('Enter');
    await page.locator(`${cell('Aaa Kit', friday!)} [data-job-id="${dialogJob.id}"]`).waitFor();
    // Drawn at once, saved after (an optimistic placement): wait for the save before reading it.
    await expect.poll(async () => (await getJob(page, dialogJob.id)).status).toBe('scheduled');
    expect(await getJob(page, dialogJob.id)).toMatchObject({ status: 'scheduled', assignee: 'Aaa Kit', scheduled_start_dt: at(friday!, 14 * 60), scheduled_end_dt: at(friday!, 15 * 60) });

    // The day view: the job dragged to 13:00, then its end dragged to 15:30.
    await page.getByRole('button', { name: 'Day', exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('view')).toBe('day');
    await page.goto(`/biz/schedule?view=day&date=${wednesday}`);
    await scheduleLoaded(page);
    const block = `.sched-grid--day [data-job-id="${keyed.id}"]`;
    await page.locator(block).waitFor();
    await screenshot(page, 'schedule-day-1280');
    const xAt = async (lane: string, minutes: number) =>
      page.evaluate(
        ({ lane, minutes, day }) => {
          const table = document.querySelector<HTMLElement>('.sched-grid--day')!;
          const track = table.querySelector<HTMLElement>(`td[data-drop-lane="${lane}"]`)!.getBoundingClientRect();
          const start = Number(table.dataset.axisStart);
          const end = Number(table.dataset.axisEnd);
          const dayStart = Number(day);
          return { x: track.left + ((dayStart + minutes * 60_000 - start) / (end - start)) * track.width, y: track.top + track.height / 2 };
        },
        { lane, minutes, day: String(instantAt(wednesday!, 0, zone)) },
      );
    // The day scrolls sideways: noon at the left edge, so 09:00 to 16:00 are in view.
    await page.evaluate((noon) => {
      const main = document.querySelector<HTMLElement>('.sched__main')!;
      const table = main.querySelector<HTMLElement>('.sched-grid--day')!;
      const track = table.querySelector<HTMLElement>('td[data-drop-lane]')!.getBoundingClientRect();
      const x = track.left + ((noon - Number(table.dataset.axisStart)) / (Number(table.dataset.axisEnd) - Number(table.dataset.axisStart))) * track.width;
      main.scrollLeft += x - track.left - 4.5 * 16 * 3;
    }, instantAt(wednesday!, 12 * 60, zone));
    const box = (await page.locator(block).boundingBox())!;
    const target = await xAt('Aab Kit', 13 * 60);
    await drag(page, { x: box.x + 3, y: box.y + box.height / 2 }, { x: target.x + 3, y: target.y });
    await expect.poll(async () => (await getJob(page, keyed.id)).scheduled_start_dt).toBe(at(wednesday!, 13 * 60));
    expect((await getJob(page, keyed.id)).scheduled_end_dt).toBe(at(wednesday!, 14 * 60 + 15));
    const moved = (await page.locator(block).boundingBox())!;
    const endTo = await xAt('Aab Kit', 15 * 60 + 30);
    await drag(page, { x: moved.x + moved.width - 2, y: moved.y + moved.height / 2 }, endTo);
    await expect.poll(async () => (await getJob(page, keyed.id)).scheduled_end_dt).toBe(at(wednesday!, 15 * 60 + 30));
    expect((await getJob(page, keyed.id)).scheduled_start_dt).toBe(at(wednesday!, 13 * 60));

    // A week's "1 more" opens that day, where all seven are.
    await page.goto('/biz/schedule');
    await scheduleLoaded(page);
    await page.locator(cell('Aac Kit', monday)).getByRole('button', { name: /^1 more/ }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('date')).toBe(monday);
    await expect.poll(() => page.locator('.sched-grid--day td[data-drop-lane="Aac Kit"] .sched-job').count()).toBe(7);

    // Last week: the job still open after its time is flagged.
    await page.goto(`/biz/schedule?date=${lastWeek}`);
    await scheduleLoaded(page);
    await expect.poll(() => page.locator('.sched-job', { hasText: 'Late job' }).getByText('Past, still open').count()).toBe(1);
  });

  it('shows a phone an agenda with a Move button per job', async () => {
    const tab = await session.open('/biz/schedule', { viewport: { width: 390, height: 844 }, timezoneId: zone, locale: 'en-GB', isMobile: true, hasTouch: true });
    const { page } = tab;
    const today = dayOf(Date.now(), zone);
    const customer = (await apiFetch(page, '/api/customers', { method: 'POST', body: { full_name: 'Pho Ne', email: 'pho@ne.example', phone: '555 0142' } })).json as { id: string };
    const job = await createJob(page, { customer_id: customer.id, title: 'On the phone', status: 'scheduled', scheduled_start_dt: instantAt(today, 8 * 60, zone), scheduled_end_dt: instantAt(today, 9 * 60, zone) });
    await page.reload();
    await scheduleLoaded(page);
    expect(await page.locator('.sched-grid').count()).toBe(0);
    await page.locator(`.sched-agenda [data-job-id="${job.id}"]`).waitFor();
    await screenshot(page, 'schedule-phone-390');
    await page.getByRole('button', { name: 'Move On the phone' }).click();
    const dialog = page.getByRole('dialog', { name: 'Move “On the phone”' });
    await dialog.getByLabel('Start').fill('11:30');
    await dialog.getByRole('button', { name: 'Move' }).click();
    await expect.poll(async () => (await getJob(page, job.id)).scheduled_start_dt).toBe(instantAt(today, 11 * 60 + 30, zone));
    expect((await getJob(page, job.id)).scheduled_end_dt).toBe(instantAt(today, 12 * 60 + 30, zone));
  });
});
