import type { JobStatus } from '@otto/api-contract';
import type { Faker } from '@faker-js/faker';
import type { Database } from '@otto/sqlite-store';

const hour = 3600_000;
const day = 24 * hour;

const services = [
  'Boiler service', 'Leaking tap repair', 'Bathroom refit', 'Gutter cleaning', 'Lawn care visit', 'Hedge trimming',
  'Window cleaning', 'Deep clean', 'End of tenancy clean', 'Kitchen sink unblock', 'Fence repair', 'Deck staining',
  'Interior painting', 'Exterior painting', 'Electrical safety check', 'Light fitting install', 'Socket replacement',
  'Roof tile repair', 'Chimney sweep', 'Carpet cleaning', 'Appliance install', 'Shelving install', 'Door rehang',
  'Tree pruning', 'Pressure washing', 'AC maintenance', 'Furnace tune-up', 'Water heater replacement',
];

type Stamps = Partial<Record<JobStatus, number>>;

/** Walks a job from its quote towards `target`, stamping each status it reaches, never past now. */
function history(faker: Faker, created: number, target: JobStatus, now: number) {
  const stamps: Stamps = { quote: created };
  let t = created;
  const step = (min: number, max: number) => (t = Math.min(now, t + faker.number.int({ min, max })));
  let start: number | null = null;
  let end: number | null = null;
  const path: JobStatus[] = ['scheduled', 'in_progress', 'completed', 'invoiced', 'paid'];
  const upTo = target === 'cancelled' ? faker.helpers.arrayElement(['quote', 'scheduled'] as const) : target;
  for (const status of path) {
    if (path.indexOf(status) > path.indexOf(upTo as (typeof path)[number])) break;
    if (status === 'scheduled') {
      stamps.scheduled = step(hour, 5 * day);
      start = Math.round((t + faker.number.int({ min: day, max: 21 * day })) / hour) * hour;
      end = start + faker.number.int({ min: 1, max: 8 }) * hour;
    } else if (status === 'in_progress') {
      stamps.in_progress = t = Math.min(now, start ?? t);
    } else if (status === 'completed') {
      stamps.completed = t = Math.min(now, end ?? t);
    } else {
      stamps[status] = step(hour, status === 'paid' ? 30 * day : 4 * day);
    }
  }
  if (target === 'cancelled') stamps.cancelled = step(hour, 7 * day);
  return { stamps, start, end, modified: Math.max(...Object.values(stamps)) };
}

/** Picks a status that fits a job's age: old jobs are mostly paid, recent ones still in play. */
function statusForAge(faker: Faker, ageDays: number): JobStatus {
  if (ageDays > 45) {
    return faker.helpers.weightedArrayElement([
      { value: 'paid', weight: 75 }, { value: 'cancelled', weight: 10 }, { value: 'invoiced', weight: 8 },
      { value: 'completed', weight: 4 }, { value: 'quote', weight: 3 },
    ]);
  }
  return faker.helpers.weightedArrayElement([
    { value: 'quote', weight: 25 }, { value: 'scheduled', weight: 30 }, { value: 'in_progress', weight: 15 },
    { value: 'completed', weight: 12 }, { value: 'invoiced', weight: 8 }, { value: 'cancelled', weight: 10 },
  ]);
}

/**
 * Gives each seeded customer a plausible history of 0 to 4 jobs across every status and date.
 * Runs inside the caller's transaction.
 */
export function seedJobs(db: Database, faker: Faker, now: number): number {
  const team = ['', '', ...Array.from({ length: 4 }, () => faker.person.firstName())];
  const customers = db.all<{ id: number; full_name: string; created_dt: number }>(
    'SELECT id, full_name, created_dt FROM customers ORDER BY id',
  );
  let count = 0;
  for (const customer of customers) {
    const jobs = faker.helpers.weightedArrayElement([
      { value: 0, weight: 2 }, { value: 1, weight: 4 }, { value: 2, weight: 3 }, { value: 3, weight: 2 }, { value: 4, weight: 1 },
    ]);
    const address = `${faker.location.streetAddress()}, ${faker.location.city()}`;
    for (let i = 0; i < jobs; i++) {
      const created = faker.number.int({ min: customer.created_dt, max: now });
      const status = statusForAge(faker, (now - created) / day);
      const { stamps, start, end, modified } = history(faker, created, status, now);
      db.run(
        `INSERT INTO jobs (customer_id, title, description, service_address, status, assignee, scheduled_start_dt,
           scheduled_end_dt, price_cents, created_dt, modified_dt, quote_dt, scheduled_dt, in_progress_dt,
           completed_dt, invoiced_dt, paid_dt, cancelled_dt)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          customer.id,
          faker.helpers.arrayElement(services),
          faker.datatype.boolean(0.6) ? faker.lorem.sentence({ min: 6, max: 16 }) : '',
          faker.datatype.boolean(0.8) ? address : '',
          status,
          faker.helpers.arrayElement(team),
          start,
          end,
          faker.number.int({ min: 16, max: 500 }) * 500,
          created,
          modified,
          stamps.quote ?? null,
          stamps.scheduled ?? null,
          stamps.in_progress ?? null,
          stamps.completed ?? null,
          stamps.invoiced ?? null,
          stamps.paid ?? null,
          stamps.cancelled ?? null,
        ],
      );
      count++;
    }
  }
  return count;
}
