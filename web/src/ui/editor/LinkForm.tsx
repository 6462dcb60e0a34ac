// The selected link's capacity (preset or free entry) and its length (distance or delay), with
// units, ranges and meanings from the engine's catalogue (`fields.link`, `delay_us_per_km`).

import { useState } from 'react';
import { FieldError } from '../FieldError';
import { fieldWidth } from '../fieldWidth';
import { useHeldTyping, type HoldTyping } from '../useHeldTyping';
import type { ParamSpec } from '../../contract/engine';
import type { ScenarioLink } from '../../contract/scenario';
import { describeRange, readNumber, sizeRule, specOf } from '../../scenario/params';
import { LINK_PRESETS, type LinkLength } from '../../scenario/topologyEdits';

/** "Capacity of each direction of the link; range 0.001 – 100000 Mbps": a field's tooltip. */
const hint = (f: ParamSpec) => `${f.meaning}; range ${describeRange(f)}`;

export function LinkForm({
  link,
  ethernet,
  fields,
  delayUsPerKm,
  onChange,
  hold,
}: {
  link: ScenarioLink;
  ethernet: boolean;
  /** The catalogue's `fields.link`: rate_mbps, delay_us, distance_km. */
  fields: readonly ParamSpec[];
  /** The catalogue's `delay_us_per_km`: what a kilometre of link adds to its delay. */
  delayUsPerKm: number;
  /** Applies a change; the rule it breaks when refused (shown at its field, which keeps what
   *  the user typed to correct), else null. */
  onChange: (patch: { rate_mbps?: number; length?: LinkLength }) => string | null;
  /** Registers what gives a value typed and not applied yet to the lab (`Lab.holdTyping`). */
  hold?: HoldTyping;
}) {
  const rateSpec = specOf(fields, 'rate_mbps');
  const distance = specOf(fields, 'distance_km');
  const delay = specOf(fields, 'delay_us');
  const presets = ethernet ? LINK_PRESETS.ethernet : LINK_PRESETS.atm;
  const preset = presets.find((p) => p.rate_mbps === link.rate_mbps);
  // Ethernet links are entered in Gbps, ATM links in Mbps; the scenario stores rate_mbps.
  const perUnit = ethernet ? 1000 : 1;
  const [rate, setRate] = useState(String(link.rate_mbps / perUnit));
  const byDelay = link.delay_us !== undefined;
  const [length, setLength] = useState(String(byDelay ? link.delay_us : (link.distance_km ?? 0)));
  const [lengthKind, setLengthKind] = useState<'distance_km' | 'delay_us'>(byDelay ? 'delay_us' : 'distance_km');
  const [rateRule, setRateRule] = useState<string | null>(null);
  const [lengthRule, setLengthRule] = useState<string | null>(null);
  // A number too large or too small to hold (1e400, 5e-400) is refused as typed, not as the
  // Infinity or 0 it reads as.
  // Each returns the rule the value breaks (null: none), which the field then shows.
  const sendRate = (): string | null => {
    const size = sizeRule('rate_mbps', rate);
    const rule = size ?? (readNumber(rate) * perUnit === link.rate_mbps ? null : onChange({ rate_mbps: readNumber(rate) * perUnit }));
    setRateRule(rule);
    return rule;
  };
  const sendLength = (kind = lengthKind): string | null => {
    const size = sizeRule(kind, length);
    const v = readNumber(length);
    const rule = size ?? onChange({ length: kind === 'distance_km' ? { distance_km: v } : { delay_us: v } });
    setLengthRule(rule);
    return rule;
  };
  // Typed and neither entered nor left: given as leaving the field would (the length only when
  // it changed, as the field's own blur would send it again unchanged).
  const lengthShown = String(byDelay ? link.delay_us : (link.distance_km ?? 0));
  // A value refused is given back for the lab to tell (lab/droppedTyping.ts).
  useHeldTyping(hold, () => {
    const rateRefused = rate !== String(link.rate_mbps / perUnit) ? sendRate() : null;
    const lengthRefused = length !== lengthShown ? sendLength() : null;
    if (rateRefused) return { field: 'rate_mbps', owner: link.id, text: rate.trim(), rule: rateRefused };
    if (lengthRefused) return { field: lengthKind, owner: link.id, text: length.trim(), rule: lengthRefused };
  });
  return (
    <div className="editor-form" data-testid="link-form">
      <strong>
        {link.id}: {link.from} – {link.to}
      </strong>
      <label>
        capacity
        <select
          data-testid="link-preset"
          value={preset ? String(preset.rate_mbps) : ''}
          onChange={(e) => e.target.value && setRateRule(onChange({ rate_mbps: Number(e.target.value) }))}
        >
          {!preset && <option value="">custom</option>}
          {presets.map((p) => (
            <option key={p.rate_mbps} value={p.rate_mbps}>
              {p.label}
            </option>
          ))}
        </select>
        <input
          data-testid="link-rate"
          type="number"
          min="0"
          step="any"
          title={hint(rateSpec)}
          aria-invalid={!!rateRule}
          value={rate}
          style={{ width: fieldWidth(rate, { spinner: true }) }}
          onChange={(e) => setRate(e.target.value)}
          onBlur={sendRate}
          onKeyDown={(e) => e.key === 'Enter' && sendRate()}
        />
        {/* Ethernet capacities are entered in Gbps (the scenario keeps rate_mbps). */}
        {ethernet ? 'Gbps' : rateSpec.unit}
      </label>
      <FieldError rule={rateRule} />
      <label>
        <select
          data-testid="link-length-kind"
          value={lengthKind}
          onChange={(e) => {
            const k = e.target.value as 'distance_km' | 'delay_us';
            setLengthKind(k);
            sendLength(k);
          }}
        >
          <option value="distance_km">distance</option>
          <option value="delay_us">delay</option>
        </select>
        <input
          data-testid="link-length"
          type="number"
          min="0"
          step="any"
          title={hint(lengthKind === 'distance_km' ? distance : delay)}
          aria-invalid={!!lengthRule}
          value={length}
          style={{ width: fieldWidth(length, { spinner: true }) }}
          onChange={(e) => setLength(e.target.value)}
          onBlur={() => sendLength()}
          onKeyDown={(e) => e.key === 'Enter' && sendLength()}
        />
        {lengthKind === 'distance_km' ? `${distance.unit} (${delayUsPerKm} ${delay.unit} per ${distance.unit})` : delay.unit}
      </label>
      <FieldError rule={lengthRule} />
    </div>
  );
}

