// The scenario's virtual paths: the list (each deletable) and a form that makes a new one from
// chosen connections between two edge switches. It reads the lab state and calls Lab methods;
// the engine says whether a path is valid, and its rules are shown at the form's fields.

import { useState } from 'react';
import type { Lab, LabState } from '../lab/lab';
import type { Service } from '../contract/generated/Service';
import { specOf } from '../scenario/params';
import { servicesFor } from '../scenario/virtualPathEdits';
import { ProblemList } from './Notices';
import { FieldError } from './FieldError';
import { isHidden, isLocked } from '../lab/teacher';
import { useTeacher } from './teacherContext';

export function VirtualPathsPanel({ lab, state }: { lab: Lab; state: LabState }) {
  const scenario = state.current?.scenario;
  const switches = scenario?.nodes.filter((n) => n.kind === 'switch').map((n) => n.id) ?? [];
  // View state only: the form's choices.
  const [chosen, setChosen] = useState<string[]>([]);
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  const [chosenService, setService] = useState<Service | null>(null);
  const teacher = useTeacher();
  // A teacher's link that hides or locks the network editor fixes the network: its virtual
  // paths are shown, not edited (QA: they could still be added and deleted here).
  const fixed = isHidden(teacher, 'editor') || isLocked(teacher, 'editor');
  if (!scenario || !state.catalogue) return null;
  const catalogue = state.catalogue;
  const services = servicesFor(catalogue.services);
  // The first service the engine offers until one is chosen.
  const service = chosenService ?? services[0]?.id;
  const edgeBuffer = specOf(state.catalogue.fields.virtual_path, 'buffer_cells');
  const paths = scenario.virtual_paths ?? [];
  const fb = state.virtualPathFeedback;
  const fromId = from !== null && switches.includes(from) ? from : (switches[0] ?? '');
  const toId = to !== null && switches.includes(to) ? to : (switches[switches.length - 1] ?? '');
  const connections = scenario.connections.map((c) => c.id);
  const picked = chosen.filter((c) => connections.includes(c));

  return (
    <section className="inspector" data-testid="virtual-paths">
      {fixed ? (
        <p className="inspector-help" data-testid="vp-fixed">
          This lesson's link keeps the network as it is: its virtual paths are shown here, not edited.
        </p>
      ) : (
        <p className="inspector-warn">Adding or deleting a virtual path restarts the run at t = 0.</p>
      )}
      {paths.length === 0 ? (
        <p className="inspector-help">This scenario has no virtual paths.</p>
      ) : (
        <ul className="vp-list" data-testid="vp-list">
          {paths.map((vp) => (
            <li key={vp.id} data-testid={`vp-${vp.id}`}>
              <strong>{vp.id}</strong> {(vp.service ?? catalogue.defaults.service).toUpperCase()} {vp.from} → {vp.to}: {vp.connections.join(', ')}
              {vp.buffer_cells !== undefined && ` (edge buffer ${vp.buffer_cells} ${edgeBuffer.unit})`}{' '}
              {!fixed && (
                <button className="btn ghost small" data-testid={`vp-delete-${vp.id}`} onClick={() => lab.virtualPaths.delete(vp.id)}>
                  Delete
                </button>
              )}
            </li>
          ))}
        </ul>
      )}

      {!fixed && (
        <>
          <h2 className="inspector-subhead">New virtual path</h2>
          <fieldset className="vp-connections" data-testid="vp-connections" aria-invalid={!!fb?.fields.connections}>
            <legend className="inspector-label">connections</legend>
            {connections.map((id) => (
              <label key={id} className="vp-connection">
                <input
                  type="checkbox"
                  data-testid={`vp-conn-${id}`}
                  checked={picked.includes(id)}
                  onChange={(e) => setChosen(e.target.checked ? [...picked, id] : picked.filter((c) => c !== id))}
                />
                {id}
              </label>
            ))}
          </fieldset>
          <FieldError rule={fb?.fields.connections} />
          <label className="inspector-row">
            <span className="inspector-label">from</span>
            <select data-testid="vp-from" value={fromId} onChange={(e) => setFrom(e.target.value)} aria-invalid={!!fb?.fields.from}>
              {switches.map((id) => (
                <option key={id}>{id}</option>
              ))}
            </select>
          </label>
          <FieldError rule={fb?.fields.from} />
          <label className="inspector-row">
            <span className="inspector-label">to</span>
            <select data-testid="vp-to" value={toId} onChange={(e) => setTo(e.target.value)} aria-invalid={!!fb?.fields.to}>
              {switches.map((id) => (
                <option key={id}>{id}</option>
              ))}
            </select>
          </label>
          <FieldError rule={fb?.fields.to} />
          <label className="inspector-row">
            <span className="inspector-label">service</span>
            <select data-testid="vp-service" value={service} onChange={(e) => setService(e.target.value as Service)}>
              {services.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.label}
                </option>
              ))}
            </select>
          </label>
          <FieldError rule={fb?.fields.service} />
          <FieldError rule={fb?.fields.id ?? fb?.fields.buffer_cells} />
          <button
            className="btn"
            data-testid="vp-add"
            disabled={picked.length === 0 || !service}
            onClick={() => service && lab.virtualPaths.add({ connections: picked, from: fromId, to: toId, service })}
          >
            Add virtual path
          </button>
          {fb?.note && (
            <p className="inspector-note" data-testid="vp-note">
              {fb.note}
            </p>
          )}
          {fb && fb.other.length > 0 && (
            <ProblemList problems={fb.other} testId="vp-problems" />
          )}
        </>
      )}
    </section>
  );
}
