import { describe, expect, it } from 'vitest';
import { LIBRARY } from '../scenario/library';
import { LAB_VERSION } from '../lab/version';
import { DEFAULT_SEED } from '../scenario/params';
import { exportStem, imageCaption, runExportName, runIdentity } from './caption';

// Issue: exported images named neither the scenario nor the seed, in the image or its file name.
describe('what an exported image says of its run', () => {
  const twoSources = LIBRARY.entries.find((e) => e.id === 'two-sources')!.scenario;

  it('names the scenario, its seed and the lab version in one line', () => {
    const seeded = { ...twoSources, run: { ...twoSources.run, seed: 7 } };
    expect(imageCaption(runIdentity(seeded, '0.1.0'))).toBe(`${twoSources.name} (two-sources) · seed 7 · ABR Lab 0.1.0`);
    // A scenario without run.seed runs with the engine's default, and says so.
    const { seed: _seed, ...run } = twoSources.run;
    expect(imageCaption(runIdentity({ ...twoSources, run }))).toBe(`${twoSources.name} (two-sources) · seed ${DEFAULT_SEED}`);
    // A name that is the id, or none, is not said twice.
    expect(imageCaption({ id: 'my-net', name: 'my-net', seed: 2 })).toBe('my-net · seed 2');
    expect(imageCaption(runIdentity({ id: 'x', name: '  ', run: { seed: 3 } }))).toBe('x · seed 3');
    expect(LAB_VERSION).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('a comparison names its variants after the run', () => {
    expect(imageCaption({ id: 'gfc1', name: 'GFC-1', seed: 1, version: '0.1.0' }, ['gfc1', 'SW1.algorithm = erica_plus'])).toBe(
      'GFC-1 (gfc1) · seed 1 · ABR Lab 0.1.0 · variants: gfc1; SW1.algorithm = erica_plus',
    );
  });

  it('file names hold the scenario id and the seed, then what the file is, safe for any file system', () => {
    expect(exportStem(runIdentity({ ...twoSources, run: { ...twoSources.run, seed: 12 } }), 'rate')).toBe('two-sources-seed12-rate');
    expect(exportStem({ id: 'my net/2', seed: 1 }, 'algorithm-fair share')).toBe('my-net-2-seed1-algorithm-fair-share');
    expect(exportStem({ id: 'gfc1' }, 'compare')).toBe(`gfc1-seed${DEFAULT_SEED}-compare`);
  });

  // QA: the series CSV and summary JSON were `<id>-series.csv` and `<id>-summary.json`: two
  // seeds' downloads took one name.
  it("names the whole run's downloads as the charts' files, with the seed", () => {
    const seeded = (seed: number) => runIdentity({ ...twoSources, run: { ...twoSources.run, seed } });
    expect(runExportName(seeded(1), 'series-csv')).toBe('two-sources-seed1-series.csv');
    expect(runExportName(seeded(1), 'summary-json')).toBe('two-sources-seed1-summary.json');
    expect(runExportName(seeded(2), 'series-csv')).not.toBe(runExportName(seeded(1), 'series-csv'));
    expect(runExportName({ id: 'my net' }, 'summary-json')).toBe(`my-net-seed${DEFAULT_SEED}-summary.json`);
  });
});
