import type { UserConfig } from 'vitest/config';

export declare const sourceCondition: '@otto/source';
export declare const ottoVitestConfig: UserConfig;
