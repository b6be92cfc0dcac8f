export declare const preparedFile: string;
export declare const cleanEnv: Record<string, string>;
export declare function thirdPartyPackages(): { dependencies: Record<string, string>; devDependencies: Record<string, string> };
export declare function installProject(dir: string, extra?: Record<string, string>): Promise<{ stderr: string; ms: number }>;
export declare function waitForPrepared(dir: string, timeoutMs?: number): Promise<{ stderr: string; ms: number }>;
