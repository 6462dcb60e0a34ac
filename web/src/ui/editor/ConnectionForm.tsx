// The connection inspector: the selected connection's kind (greedy ABR, misbehaving source,
// background, TCP; Ethernet arrivals), its settings, start/stop times and source parameters,
// every field with its unit, range, default and meaning from the engine's catalogue. Every
// field hands a pure edit (connectionEdits.ts) to the editor, which refuses it with its rule or
// commits it (the run restarts at t = 0); a rule across fields (stop after start, window at
// least the MSS) is the engine's, shown at the field once it refuses the edit. Beside it, the
// parameters every connection takes unless it sets its own (SourceDefaultsForm, `defaults.source`).

import { useRef, useState, type ReactNode } from 'react';
import { useHeldTyping, type HoldTyping } from '../useHeldTyping';
import type { Catalogue, ParamSpec, Problem } from '../../contract/engine';
import type { Scenario, ScenarioConnection } from '../../contract/scenario';
import { defaultText, describeRange, specOf } from '../../scenario/params';
import {
  connectionProblems,
  KIND_LABELS,
  kindFields,
  kindMeaning,
  kindOf,
  kindSettings,
  kindsFor,
  setKind,
  setKindField,
  setSourceDefault,
  setSourceParam,
  setTiming,
  sourceDefaultsProblems,
  sourceParamsFor,
  type ConnectionKind,
} from '../../scenario/connectionEdits';
import { loopFreePaths, routeOf, setPath, type EditResult } from '../../scenario/topologyEdits';
import { fieldWidth } from '../fieldWidth';
import type { DroppedTyping } from '../../lab/droppedTyping';

/** How the catalogue's TCP recoveries are written in the UI. */
const RECOVERY_LABELS: Record<string, string> = { newreno: 'NewReno', reno: 'Reno' };

export function ConnectionForm({
  scenario,
  conn,
  catalogue,
  problems = [],
  onEdit,
  hold: holdAll,
  paramsOpen = false,
}: {
  scenario: Scenario;
  conn: ScenarioConnection;
  /** The source parameters start unfolded (a scenario note named one of them). */
  paramsOpen?: boolean;
  catalogue: Catalogue;
  /** The engine's problems with the edit it refused last: each shown at its field. */
  problems?: readonly Problem[];
  onEdit: (r: EditResult, note: string) => void;
  /** Registers what gives a value typed and not applied yet to the lab (`Lab.holdTyping`). */
  hold?: HoldTyping;
}) {
  const engine = connectionProblems(scenario, conn.id, problems);
  const eth = !!scenario.ethernet;
  const params = sourceParamsFor(scenario, catalogue);
  const timing = catalogue.fields.connection;
  const kind = kindOf(conn, eth, catalogue.defaults);
  const settings = kindSettings(conn, eth, catalogue.defaults);
  const note = (what: string) => `${conn.id} ${what}: the run restarted at t = 0.`;
  const defaults = scenario.defaults?.source ?? {};
  // What a field refused when the page went is told as this connection's.
  const hold: HoldTyping | undefined = holdAll && ((give) => holdAll(() => {
    const dropped = give();
    return dropped ? { ...dropped, owner: conn.id } : undefined;
  }));
  // A field's edit goes to the editor; the field shows its rule when it is refused.
  const run = (r: EditResult, n: string) => {
    onEdit(r, n);
    return r;
  };
  // Source parameters whose edit the engine refused, with the text kept in their fields: the
  // next source parameter edit carries them, so that mending the rule at another field (PCR
  // 10 refused under ICR 25, then ICR 5) applies what was typed at both (QA: PCR was dropped).
  const refused = useRef(new Map<string, string>());
  const commitParam = (p: ParamSpec, text: string) => {
    let r = setSourceParam(scenario, conn.id, p, text);
    const carried: string[] = [];
    for (const [name, kept] of refused.current) {
      const spec = params.find((q) => q.name === name);
      if (!r.ok || name === p.name || !spec) continue;
      const next = setSourceParam(r.scenario, conn.id, spec, kept);
      if (next.ok) {
        r = next;
        carried.push(name);
      }
    }
    return run(r, note(`${[p.name, ...carried].join(' and ')} changed`));
  };
  return (
    <div className="editor-form conn-form" data-testid="conn-form">
      <strong>
        {conn.id}: {conn.from} → {conn.to}
      </strong>
      <PathPicker scenario={scenario} conn={conn} onEdit={onEdit} />
      <label>
        kind
        <select
          data-testid="conn-kind"
          value={kind}
          title={kindMeaning(catalogue.fields, kind) ?? undefined}
          onChange={(e) =>
            onEdit(
              setKind(scenario, conn.id, e.target.value as ConnectionKind, catalogue.fields),
              note(`is now “${KIND_LABELS[e.target.value as ConnectionKind]}”`),
            )
          }
        >
          {kindsFor(scenario, catalogue.fields).map((k) => (
            <option key={k} value={k}>
              {KIND_LABELS[k]}
            </option>
          ))}
        </select>
      </label>
      {kind === 'tcp' && (
        <>
          <Choice
            name="service"
            title="abr: rate-controlled by the ABR source; ubr: sent at PCR, no RM cells"
            value={String(settings.service ?? catalogue.defaults.service)}
            choices={catalogue.services}
            label={(id) => id.toUpperCase()}
            onPick={(id, shown) => onEdit(setKindField(scenario, conn.id, 'service', id, catalogue), note(`service ${shown}`))}
          />
          <Choice
            name="recovery"
            title="newreno: a partial acknowledgement retransmits the next hole and stays in fast recovery; reno: any new acknowledgement ends it"
            value={String(settings.recovery ?? catalogue.defaults.recovery)}
            choices={catalogue.recoveries}
            label={(id) => RECOVERY_LABELS[id] ?? id}
            onPick={(id, shown) => onEdit(setKindField(scenario, conn.id, 'recovery', id, catalogue), note(`recovery ${shown}`))}
          />
          <label title="LLC/SNAP encapsulation adds 8 bytes per packet">
            <input
              type="checkbox"
              data-testid="conn-llc"
              checked={settings.llc !== false}
              onChange={(e) =>
                onEdit(setKindField(scenario, conn.id, 'llc', e.target.checked, catalogue), note(`LLC/SNAP ${e.target.checked ? 'on' : 'off'}`))
              }
            />
            LLC/SNAP
          </label>
        </>
      )}
      {kindFields(catalogue.fields, kind).map((f) => (
        <Field
          hold={hold}
          key={`${kind}.${f.name}`}
          testId={`conn-field-${f.name}`}
          name={f.name}
          unit={f.unit}
          value={settings[f.name] as number | undefined}
          placeholder={defaultText(f)}
          help={hint(f)}
          engineRule={engine[f.name]}
          onCommit={(t) => run(setKindField(scenario, conn.id, f.name, t, catalogue), note(`${f.name} changed`))}
        />
      ))}
      {(['start_ms', 'stop_ms'] as const).map((name) => {
        const f = specOf(timing, name);
        return (
          <Field
            hold={hold}
            key={name}
            testId={`conn-${name}`}
            name={name}
            unit={f.unit}
            value={conn[name]}
            placeholder={defaultText(f)}
            help={hint(f)}
            engineRule={engine[name]}
            onCommit={(t) => run(setTiming(scenario, conn.id, name, t, timing), note(`${name} changed`))}
          />
        );
      })}
      {params.length > 0 && (
        <details className="conn-params" data-testid="conn-params" open={paramsOpen}>
          <summary>{eth ? 'Ethernet source parameters' : 'TM 4.0 source parameters'}</summary>
          {params.map((p) => (
            <Field
              hold={hold}
              key={p.name}
              testId={`conn-param-${p.name}`}
              name={p.name}
              unit={p.unit}
              value={conn.params?.[p.name]}
              placeholder={defaults[p.name] !== undefined ? String(defaults[p.name]) : defaultText(p)}
              help={hint(p)}
              detail={<ParamDetail p={p} />}
              engineRule={engine[`params.${p.name}`]}
              onRefusal={(kept) => (kept === null ? refused.current.delete(p.name) : refused.current.set(p.name, kept))}
              onCommit={(t) => commitParam(p, t)}
            />
          ))}
        </details>
      )}
    </div>
  );
}

/** A source parameter's range, default and meaning, beside its field. */
function ParamDetail({ p }: { p: ParamSpec }) {
  return (
    <>
      <span className="conn-range">
        {describeRange(p)}; default {p.default === null ? 'derived' : p.default}
      </span>
      <span className="conn-meaning">
        {p.meaning}
        {p.default === null && p.default_note ? ` (default: ${p.default_note})` : ''}
      </span>
    </>
  );
}

/**
 * The source parameters every connection takes unless it sets its own (`defaults.source`): the
 * same fields as a connection's, each empty for the catalogue's default. A change restarts the
 * run at t = 0; a value a connection cannot take (ICR above its PCR) is refused with the
 * engine's rule at the field. `open`: unfolded (a scenario note named one of them).
 */
export function SourceDefaultsForm({
  scenario,
  catalogue,
  problems = [],
  onEdit,
  hold,
  open = false,
}: {
  scenario: Scenario;
  catalogue: Catalogue;
  problems?: readonly Problem[];
  onEdit: (r: EditResult, note: string) => void;
  hold?: HoldTyping;
  open?: boolean;
}) {
  const params = sourceParamsFor(scenario, catalogue);
  if (params.length === 0) return null;
  const values = scenario.defaults?.source ?? {};
  const engine = sourceDefaultsProblems(problems);
  const set = Object.keys(values).length;
  return (
    <details className="editor-form conn-params source-defaults" data-testid="source-defaults" open={open}>
      <summary>
        Every source’s parameters <code>defaults.source</code>
        <span className="source-defaults-count">{set === 0 ? ' — all at their defaults' : ` — ${set} set here`}</span>
      </summary>
      <p className="source-defaults-note">
        What every connection takes unless its own form sets the parameter (its field then shows this value greyed).
      </p>
      {params.map((p) => (
        <Field
          hold={hold}
          key={p.name}
          testId={`default-param-${p.name}`}
          name={p.name}
          unit={p.unit}
          value={values[p.name]}
          placeholder={defaultText(p)}
          help={hint(p)}
          detail={<ParamDetail p={p} />}
          engineRule={engine[p.name]}
          onCommit={(t) => {
            const r = setSourceDefault(scenario, p, t);
            onEdit(r, `defaults.source.${p.name} changed for every source: the run restarted at t = 0.`);
            return r;
          }}
        />
      ))}
    </details>
  );
}

/** "When the source starts sending; range 0 – 600000 ms; default 0": a field's tooltip. */
/** One of a TCP setting's choices from the catalogue (its service, its recovery), as a select. */
function Choice({
  name,
  title,
  value,
  choices,
  label,
  onPick,
}: {
  name: string;
  title: string;
  value: string;
  choices: readonly string[];
  label: (id: string) => string;
  onPick: (id: string, shown: string) => void;
}) {
  return (
    <label title={title}>
      {name}
      <select data-testid={`conn-${name}`} value={value} onChange={(e) => onPick(e.target.value, label(e.target.value))}>
        {choices.map((id) => (
          <option key={id} value={id}>
            {label(id)}
          </option>
        ))}
      </select>
    </label>
  );
}

function hint(f: ParamSpec) {
  return `${f.meaning}; range ${describeRange(f)}; default ${defaultText(f)}`;
}

/** A number field that commits on Enter or blur, only when its text differs from the value. */
function Field({
  testId,
  name,
  unit,
  value,
  placeholder,
  help,
  detail,
  engineRule,
  onRefusal,
  onCommit,
  hold,
}: {
  testId: string;
  name: string;
  unit: string;
  value: number | undefined;
  placeholder: string;
  help: string;
  /** Range and meaning, shown beside the field (source parameters). */
  detail?: ReactNode;
  /** The rule the engine found this field breaking (after the value was sent). */
  engineRule?: string;
  /** Told the text kept after the engine refused its edit, and null once that is over. */
  onRefusal?: (kept: string | null) => void;
  onCommit: (text: string) => EditResult;
  hold?: HoldTyping;
}) {
  const shown = value === undefined ? '' : String(value);
  const [text, setText] = useState(shown);
  const [base, setBase] = useState(shown);
  const [rule, setRule] = useState<string | null>(null);
  // The engine's rule under which the text typed stays after the edit was refused.
  const [refusal, setRefusal] = useState<string | null>(null);
  if (base !== shown) {
    setBase(shown);
    if (engineRule) {
      // The engine refused the edit and the document went back: what was typed stays, with
      // the rule, to be mended.
      setRefusal(engineRule);
      onRefusal?.(text);
    } else {
      // The document changed under the field (undo, another edit): show the new value.
      setText(shown);
      setRule(null);
    }
  } else if (refusal !== null && engineRule !== refusal) {
    // The refusal is over (another edit went in): the field shows the document again.
    setRefusal(null);
    setText(shown);
    onRefusal?.(null);
  }
  // Returns what it refused (the rule the text breaks), for the lab to tell when the page goes.
  const send = (): DroppedTyping | undefined => {
    if (text.trim() === shown) {
      setRule(null);
      return;
    }
    const r = onCommit(text);
    setRule(r.ok ? null : r.rule);
    return r.ok ? undefined : { field: name, text: text.trim(), rule: r.rule };
  };
  // Typed and neither entered nor left: given as leaving the field would.
  useHeldTyping(hold, send);
  const broken = rule ?? engineRule ?? null;
  return (
    <>
    <label title={help} className={broken ? 'conn-invalid' : undefined}>
      {name}
      <input
        data-testid={testId}
        type="text"
        inputMode="decimal"
        value={text}
        placeholder={placeholder}
        style={{ width: fieldWidth(text) }}
        onChange={(e) => setText(e.target.value)}
        onBlur={send}
        onKeyDown={(e) => e.key === 'Enter' && send()}
      />
      <span className="unit">{unit}</span>
      {detail}
    </label>
    {broken && (
      <span className="field-error conn-field-error" role="alert" data-testid={`${testId}-error`}>
        {broken}
      </span>
    )}
    </>
  );
}


/** The connection's route: the shortest path (proposed, the default) or another loop-free one. */
function PathPicker({ scenario, conn, onEdit }: { scenario: Scenario; conn: ScenarioConnection; onEdit: (r: EditResult, note: string) => void }) {
  const paths = loopFreePaths(scenario, conn.from, conn.to);
  const current = routeOf(scenario, conn).join(' → ');
  const options = paths.map((p) => p.join(' → '));
  if (current && !options.includes(current)) options.push(current);
  return (
    <label title="The shortest path is proposed; pick another loop-free path through switches">
      path
      <select
        data-testid="conn-path"
        value={current}
        onChange={(e) => onEdit(setPath(scenario, conn.id, e.target.value.split(' → ')), `${conn.id} routed ${e.target.value}: the run restarted at t = 0.`)}
      >
        {options.map((o, i) => (
          <option key={o} value={o}>
            {o}
            {i === 0 ? ' (shortest)' : ''}
          </option>
        ))}
      </select>
    </label>
  );
}
