// The header's status rules: ORT's default wasm thread count, the offline state, when to offer the
// reload that isolates the page, and when the update prompt's Reload may be pressed.
import { describe, expect, it } from 'vitest';
import { offerIsolationReload, offlineState, ortDefaultThreads, updatePromptState } from '../../../src/ui/site/site-status.ts';

describe('ortDefaultThreads (onnxruntime-web initializeFlags, numThreads unset)', () => {
  it('is one thread without cross-origin isolation, whatever the cores', () => {
    expect(ortDefaultThreads(false, 16)).toBe(1);
    expect(ortDefaultThreads(false, 2)).toBe(1);
  });

  it('is half the logical cores, rounded up, at most 4, when isolated', () => {
    expect(ortDefaultThreads(true, 1)).toBe(1);
    expect(ortDefaultThreads(true, 2)).toBe(1);
    expect(ortDefaultThreads(true, 3)).toBe(2);
    expect(ortDefaultThreads(true, 6)).toBe(3);
    expect(ortDefaultThreads(true, 7)).toBe(4);
    expect(ortDefaultThreads(true, 64)).toBe(4);
  });

  it('counts one core where the browser does not say', () => {
    expect(ortDefaultThreads(true, undefined)).toBe(1);
    expect(ortDefaultThreads(true, 0)).toBe(1);
  });
});

describe('offlineState', () => {
  const base = { controlled: false, offlineReady: false, unavailable: null };
  it('is ready once the precache is complete', () => {
    expect(offlineState({ ...base, controlled: true, offlineReady: true })).toBe('ready');
  });
  it('is saving while a controlling service worker fills its cache', () => {
    expect(offlineState({ ...base, controlled: true })).toBe('saving');
  });
  it('says why there is no service worker', () => {
    expect(offlineState({ ...base, unavailable: { code: 'x' } })).toBe('unavailable');
  });
  it('is not-yet on a first visit before the service worker starts', () => {
    expect(offlineState(base)).toBe('not-yet');
  });
});

describe('offerIsolationReload', () => {
  it('never when the page is isolated already', () => {
    expect(offerIsolationReload({ isolated: true, controlled: true, reloadForIsolation: true })).toBe(false);
  });
  it('when a service worker controls a page loaded without its headers', () => {
    expect(offerIsolationReload({ isolated: false, controlled: true })).toBe(true);
  });
  it('when the service worker says a reload will isolate the page', () => {
    expect(offerIsolationReload({ isolated: false, controlled: false, reloadForIsolation: true })).toBe(true);
  });
  it('not on a host with no service worker in control', () => {
    expect(offerIsolationReload({ isolated: false, controlled: false })).toBe(false);
    expect(offerIsolationReload({ isolated: false, controlled: false, reloadForIsolation: false })).toBe(false);
  });
});

describe('updatePromptState', () => {
  const none = new Set<string>();
  it('is hidden with no update waiting, or once dismissed', () => {
    expect(updatePromptState({ updateWaiting: false, dismissed: false, runningHere: false, heldRuns: none })).toBe('hidden');
    expect(updatePromptState({ updateWaiting: true, dismissed: true, runningHere: true, heldRuns: none })).toBe('hidden');
  });
  it('blocks the reload while a run executes in this tab', () => {
    expect(updatePromptState({ updateWaiting: true, dismissed: false, runningHere: true, heldRuns: none })).toBe('blocked');
    expect(updatePromptState({ updateWaiting: true, dismissed: false, runningHere: true, heldRuns: null })).toBe('blocked');
  });
  it('blocks it while another tab holds a run lock', () => {
    expect(updatePromptState({ updateWaiting: true, dismissed: false, runningHere: false, heldRuns: new Set(['run-1']) })).toBe('blocked');
  });
  it('is ready when no run is going on anywhere this page can see', () => {
    expect(updatePromptState({ updateWaiting: true, dismissed: false, runningHere: false, heldRuns: none })).toBe('ready');
    expect(updatePromptState({ updateWaiting: true, dismissed: false, runningHere: false, heldRuns: null })).toBe('ready');
  });
});
