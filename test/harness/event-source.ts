/**
 * The `eventsource` package (a WHATWG EventSource for Node, nobody's here), imported by a specifier
 * TypeScript does not follow: its package.json's "source" export condition would point the type
 * check, which resolves our own "source" condition, at its TypeScript sources, which do not compile
 * under this repository's settings. The types below are the part of the standard EventSource the
 * tests use.
 */

export interface TestEventSource {
  readonly readyState: number;
  addEventListener(type: string, listener: (event: MessageEvent) => void): void;
  onerror: ((event: Event & { message?: string }) => void) | null;
  close(): void;
}

export interface TestEventSourceConstructor {
  new (url: string, init?: { fetch?: (url: string | URL, init?: RequestInit & { headers?: Record<string, string> }) => Promise<Response> }): TestEventSource;
  readonly CLOSED: number;
}

const PACKAGE: string = 'eventsource';

export const EventSource = ((await import(PACKAGE)) as { EventSource: TestEventSourceConstructor }).EventSource;
