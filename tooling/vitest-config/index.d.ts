import type { UserConfig } from 'vitest/config';

export declare const sourceCondition: '@otto/source';
export declare function ottoReporters(name?: string): NonNullable<NonNullable<UserConfig['test']>['reporters']>;
export declare const ottoVitestConfig: UserConfig;
export declare const sharedModules: { isolate: false };
export declare const nativeTestFiles: string[];
export declare function nativeModuleReady(): Promise<void>;
export declare const nativeModuleWaitMs: number;
