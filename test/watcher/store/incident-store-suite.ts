/**
 * The data incidents the watcher keeps (watcher/src/store/data-incidents.ts), on every engine behind
 * the `Database` seam: each change kept once however often the core's log is read, the log position
 * moved with it, the operator webhook's delivery state, the status page's window.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWatchStore, type Database, type IncidentChangeDraft, type WatchStore } from '../../../watcher/src/store/index.js';
import { fakeClock } from './store-suite.js';

const change = (at: string, to: IncidentChangeDraft['to'], coreSeq: number, marketplace = 'US'): IncidentChangeDraft => ({
  marketplace, kind: 'product', from: to === 'healthy' ? 'major' : 'healthy', to, fields: to === 'healthy' ? [] : ['price', 'isInStock'], at: new Date(at), coreSeq,
});

export function incidentStoreSuite(engine: string, openDatabase: () => Promise<Database>): void {
  describe(`data incident store (${engine})`, () => {
    const clock = fakeClock();
    let store: WatchStore;
    beforeAll(async () => {
      store = await openWatchStore(await openDatabase(), { clock: clock.now });
    });
    afterAll(async () => store?.close());

    it('keeps each change once, however often the log is read, and moves the log position with it', async () => {
      expect(await store.incidents.logPosition()).toBe(0);
      const opened = change('2026-03-01T10:00:00Z', 'major', 1, 'JP');
      const [stored] = await store.incidents.record([opened], 1, true);
      expect(stored).toMatchObject({ ...opened, webhookStatus: 'PENDING', recordedAt: clock.now() });
      // The same change again (a log read from its start after the core's Redis was lost) and a new one.
      const closed = change('2026-03-01T11:00:00Z', 'healthy', 1, 'JP');
      const again = await store.incidents.record([opened, closed], 7, true);
      expect(again.map((c) => c.to)).toEqual(['healthy']);
      expect(await store.incidents.logPosition()).toBe(7);
      expect((await store.incidents.since(new Date('2026-03-01T00:00:00Z'))).filter((c) => c.marketplace === 'JP').map((c) => c.to)).toEqual(['healthy', 'major']);
    });

    it('records the operator webhook once delivered, and never again', async () => {
      const [pending] = await store.incidents.record([change('2026-03-02T10:00:00Z', 'major', 9, 'MX')], 9, true);
      expect(await store.incidents.openWebhooks()).toContain(pending!.id);
      expect(await store.incidents.recordWebhookAttempt(pending!.id, { status: 'FAILED', error: 'HTTP 503' })).toBe(true);
      expect(await store.incidents.recordWebhookAttempt(pending!.id, { status: 'DELIVERED' })).toBe(true);
      expect(await store.incidents.recordWebhookAttempt(pending!.id, { status: 'DELIVERED' })).toBe(false);
      expect((await store.incidents.byId(pending!.id))?.webhookStatus).toBe('DELIVERED');
      expect(await store.incidents.openWebhooks()).not.toContain(pending!.id);
      // Kept without an operator webhook: nothing to deliver.
      const [quiet] = await store.incidents.record([change('2026-03-02T11:00:00Z', 'healthy', 10, 'MX')], 10, false);
      expect(quiet!.webhookStatus).toBeNull();
      expect(await store.incidents.openWebhooks()).not.toContain(quiet!.id);
    });

    it('lists the changes since a time, newest first', async () => {
      await store.incidents.record([change('2026-01-01T00:00:00Z', 'major', 11, 'PL')], 11, false);
      const recent = await store.incidents.since(new Date('2026-02-01T00:00:00Z'));
      expect(recent.some((c) => c.marketplace === 'PL')).toBe(false);
      const times = recent.map((c) => c.at.getTime());
      expect(times).toEqual([...times].sort((a, b) => b - a));
    });
  });
}
