/** The WatchService's structured (pino-style) log written onto the watcher's one-line log. */
import type { ServiceLog } from '../service/index.js';

export function serviceLogOf(log: (line: string) => void): ServiceLog {
  const line = (level: string) => (fields: object, message: string) => log(`${level === 'info' ? '' : `${level}: `}${message} ${JSON.stringify(fields)}`);
  return { info: line('info'), warn: line('warn'), error: line('error') };
}
