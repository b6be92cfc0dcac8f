/**
 * Where the mock backend reports what happens.
 * @example
 * const silent: Logger = { debug() {}, info() {}, warn() {}, error() {} };
 * const api = await createMockApi({ logger: silent });
 */
export interface Logger {
  debug(message: string, ...details: unknown[]): void;
  info(message: string, ...details: unknown[]): void;
  warn(message: string, ...details: unknown[]): void;
  error(message: string, ...details: unknown[]): void;
}

/**
 * Options of `createLogger`.
 * @example
 * const logger = createLogger({ tag: 'my-app', debug: true });
 */
export interface LoggerOptions {
  /**
   * Prefix of every line, as `[otto]`.
   * @default 'otto'
   */
  tag?: string;
  /**
   * Whether debug lines are printed.
   * @default false
   */
  debug?: boolean;
  /**
   * Where lines go.
   * @default console
   */
  sink?: Pick<Console, 'debug' | 'info' | 'warn' | 'error'>;
}

/**
 * A tagged logger (spec section 9: tag `otto`, debug disabled).
 * @example
 * const logger = createLogger({ debug: true });
 * logger.warn('Invalid filterJson param'); // prints "[otto] Invalid filterJson param"
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const prefix = `[${options.tag ?? 'otto'}]`;
  const sink = options.sink ?? console;
  return {
    debug: (message, ...details) => {
      if (options.debug) sink.debug(prefix, message, ...details);
    },
    info: (message, ...details) => sink.info(prefix, message, ...details),
    warn: (message, ...details) => sink.warn(prefix, message, ...details),
    error: (message, ...details) => sink.error(prefix, message, ...details),
  };
}
