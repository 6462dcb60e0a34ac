// An RM-cell trace record for tests: a forward cell of C1 at SW1 with ER 100 Mbps, each field
// replaced where a test says.
import type { RmRecord } from '../contract/engine';

export function rmRecord(over: Partial<RmRecord> = {}): RmRecord {
  return {
    time_us: 0,
    connection: 'C1',
    rm_seq: 0,
    node: 'SW1',
    direction: 'forward',
    er_in_mbps: 100,
    er_out_mbps: 100,
    ccr_mbps: 25,
    ci: false,
    ni: false,
    bn: false,
    by: '',
    vp: '',
    feedback: null,
    acr_before_mbps: null,
    acr_after_mbps: null,
    ...over,
  };
}
