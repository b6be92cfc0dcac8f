import type { TestProject } from 'vitest/node';
export default function setup(project: TestProject): Promise<(() => Promise<void>) | undefined>;
