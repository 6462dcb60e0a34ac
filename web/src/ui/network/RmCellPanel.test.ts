// The journey the Network view's panel tells of a cell, stop by stop (stopText).
import { describe, expect, it } from 'vitest';
import { journeyOf, neighboursOf, RmCellIndex } from '../../lab/rmCells';
import { ETHERNET_WORDS } from '../../lab/rmLog';
import { rmRecord } from '../../test/rmRecord';
import { stopText } from './RmCellPanel';

describe('stopText', () => {
  // QA (qcn-hotspot with a second switch before the hot spot): a notification's journey read
  // "backward at SW0", as if a destination had turned it around.
  it('a QCN notification passing another switch on its way to the source says so', () => {
    const index = new RmCellIndex(neighboursOf([
      { from: 'EP3', to: 'SW0' },
      { from: 'SW0', to: 'SW1' },
    ]));
    const note = { connection: 'F3', bn: true, er_in_mbps: null, er_out_mbps: null, ccr_mbps: null, feedback: 63 };
    index.add([
      rmRecord({ ...note, time_us: 5077, node: 'SW1', direction: 'notification' }),
      rmRecord({ ...note, time_us: 5081.3, node: 'SW0', direction: 'backward' }),
      rmRecord({ ...note, time_us: 5086.5, node: 'EP3', direction: 'received' }),
    ]);
    expect(index.cells).toHaveLength(1);
    const stops = journeyOf(index.cells[0]).stops.map((s) => stopText(s, (id) => id, { words: ETHERNET_WORDS, rate: { unit: 'Gbps', scale: 0.001 } }));
    expect(stops).toEqual(['sent by switch SW1 (feedback |Fb| 63)', 'passed switch SW0 on its way to the source', 'received by EP3: feedback |Fb| 63']);
  });
});
