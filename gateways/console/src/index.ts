export { createConsole } from './console.js';
export { DEFAULT_LIMITS, SIGNUP_MODES, type ConsoleLimits, type ConsoleOptions, type SignupMode } from './context.js';
export { createMemoryUserStore } from './memory-store.js';
export { createRedisUserStore, type RedisUserStoreOptions } from './redis-store.js';
export type { ConsoleUser, SessionRecord, UserStore } from './store.js';
export { DEFAULT_PASSWORD_COST, hashPassword, verifyPassword, type PasswordCost } from './passwords.js';
export { ConsoleConfigError, loadConsoleConfig, type ConsoleConfig } from './config.js';
export { createConsoleFromEnv, type ConsoleDeployment, type ConsoleFromEnvOptions } from './from-env.js';
export { CSRF_HEADER, SESSION_COOKIE } from './sessions.js';
