/**
 * 测试连接 for the home computer: the connection test (the server's models, or what went wrong in
 * plain words), then the server's structured-output mode found with one real request.
 */
import { describeModelError } from './describe.ts';
import { toModelError } from './errors.ts';
import type { RemoteSettings } from './settings-store.ts';
import type { OutputMode } from '../core/llm/output-modes.ts';
import type { ConnectionReport } from './connection-test.ts';

export interface RemoteTest {
  testing: boolean;
  /** The address and key the test was run with (`remoteFieldsKey`): a result says nothing about other ones. */
  fields?: string;
  /** The model the output mode was found for (the one typed, or the server's first chat model). */
  model?: string;
  /** What the connection test found, in plain words (the server's models when it answered). */
  report?: ConnectionReport;
  mode?: OutputMode;
  /** Why the output mode could not be found (the server answered the model list). */
  modeError?: string;
}

/** The fields a connection test's answer belongs to: the address and the key. */
export function remoteFieldsKey(r: Pick<RemoteSettings, 'baseUrl' | 'apiKey'>): string {
  return `${r.baseUrl.trim()}|${r.apiKey.trim()}`;
}

export interface RemoteTestHooks {
  /** The server was reached or not (`code`: the error's catalogue code). */
  noteContact(ok: boolean, code?: string): void;
  /** The mode found for these fields with this model. */
  found(probed: RemoteSettings, mode: OutputMode): Promise<void>;
}

/** Runs the test on `remote` (the fields as typed). */
export async function runRemoteTest(remote: RemoteSettings, hooks: RemoteTestHooks): Promise<RemoteTest> {
  const fields = remoteFieldsKey(remote);
  const { testConnection, failureReport } = await import('./connection-test.ts');
  const report = await testConnection(remote);
  hooks.noteContact(report.ok, report.code);
  // The model typed, or with none typed the server's first chat model: one real request finds its mode.
  const model = remote.model.trim() || report.models[0] || '';
  const test: RemoteTest = { testing: false, fields, report, ...(model ? { model } : {}) };
  if (report.ok && model) {
    const probed = { ...remote, model };
    try {
      const { probeOutputMode } = await import('./dialect-probe.ts');
      test.mode = (await probeOutputMode(probed)).mode;
      await hooks.found(probed, test.mode);
    } catch (err) {
      const me = toModelError(err);
      // A server that lists its models to anyone but answers only with a key: the test failed.
      if (me.code === 'model_remote_auth') {
        test.report = { ...failureReport(me, remote), models: report.models, other: report.other };
        hooks.noteContact(false, me.code);
      } else {
        const e = describeModelError(me);
        test.modeError = `${e.short}。${e.parent}`;
      }
    }
  }
  return test;
}
