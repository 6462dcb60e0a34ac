// The browser is asked to persist the lab's storage once a page, whoever asks first (a kept
// scenario, a kept sweep), and not again when it already does.
import { describe, expect, it, vi } from 'vitest';
import { persistOnce } from './persist';

describe('persistOnce', () => {
  it('asks the browser once, however many times it is called', async () => {
    const storage = { persisted: vi.fn(async () => false), persist: vi.fn(async () => true) };
    const ask = persistOnce(storage);
    ask();
    ask();
    await vi.waitFor(() => expect(storage.persist).toHaveBeenCalledTimes(1));
    ask();
    await Promise.resolve();
    expect(storage.persisted).toHaveBeenCalledTimes(1);
    expect(storage.persist).toHaveBeenCalledTimes(1);
  });

  it('does not ask when the storage persists already, and says nothing without the API or on a refusal', async () => {
    const already = { persisted: vi.fn(async () => true), persist: vi.fn(async () => true) };
    persistOnce(already)();
    await vi.waitFor(() => expect(already.persisted).toHaveBeenCalled());
    await Promise.resolve();
    expect(already.persist).not.toHaveBeenCalled();
    expect(() => persistOnce(undefined)()).not.toThrow();
    expect(() => persistOnce({})()).not.toThrow();
    const refusing = { persisted: vi.fn(async () => false), persist: vi.fn(() => Promise.reject(new Error('no'))) };
    persistOnce(refusing)();
    await vi.waitFor(() => expect(refusing.persist).toHaveBeenCalled());
  });
});
