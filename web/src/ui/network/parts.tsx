// The Network view's React Flow node and edge components (sources, switches with their port
// queue bars, destinations; a link as its two lanes), kept apart from the view so that the
// editor can share them. They draw the network's structure; the painter (painter.ts) writes
// the per-frame state into the elements they register.

import { Handle, Position, type Edge, type EdgeProps, type Node, type NodeProps } from '@xyflow/react';
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { barFraction, type CardRow, type PortGroup, type PortView } from '../../lab/networkPorts';
import { groupLine, markLabels, marksBeyond, marksOnBar, type CardLook, type InfoSide, type LabelSpot, type NetworkLink } from './geometry';
import { queueCount, type NetworkPainter } from './painter';
import { linkRateText } from '../editor/canvas';

/** `rows`: its ports, those toward many destinations maybe as one (lab/networkPorts: cardRows).
 *  `inspect`: a port clicked (or Enter on it) asks the inspector to explain it. `expand`: a
 *  group's row clicked shows its ports one by one (true) or together again (false); `grouped`:
 *  the rows can be folded (the collapse button, when they are shown one by one). `heightPx`:
 *  how tall the layout takes the card to be (geometry.ts: switchHalfSize; the tests hold the
 *  card to it). `markPx`: its marks' labels' type (px, before the card grows). */
export type SwitchData = {
  heightPx?: number;
  markPx?: number;
  /** The card's look (its width and type: what fits on a group's line); PAGE_CARD when absent. */
  look?: CardLook;
  id: string;
  ports: PortView[];
  rows: CardRow[];
  painter: NetworkPainter;
  inspect?: (switchId: string, port: string) => void;
  expand?: (switchId: string, open: boolean) => void;
  grouped?: PortGroup;
};
/** `label`: where its name is drawn (geometry.ts: endLabels); null: not drawn (crowded), kept
 *  as text for screen readers and as the tooltip. `connections` empty: no rate labels (the
 *  sources crowd; the rate chart has them); `info`: the side of the circle they hang on
 *  (geometry.ts: infoSide). */
export type EndData = { id: string; kind: 'source' | 'destination' | string; connections: string[]; info: InfoSide; rateWord: string; painter: NetworkPainter; label: LabelSpot };
export type LinkData = { link: NetworkLink; painter: NetworkPainter };

export type SwitchNode = Node<SwitchData, 'switch'>;
export type EndNode = Node<EndData, 'end'>;
export type LinkEdge = Edge<LinkData, 'link'>;

/** Edges join node centres: one hidden handle of each type at the centre (the editor's nodes
 *  use them too). */
export function CentreHandles() {
  const style = { left: '50%', top: '50%', opacity: 0, pointerEvents: 'none' as const };
  return (
    <>
      <Handle type="source" position={Position.Top} style={style} isConnectable={false} />
      <Handle type="target" position={Position.Top} style={style} isConnectable={false} />
    </>
  );
}

/** A queue bar with the algorithm's marks and its number, registered with the painter as `key`.
 *  The marks' labels go above the bar, clear of each other (geometry.ts: markLabels, given the
 *  bar's width as laid out and the labels' type). */
function QueueBar({
  port,
  what,
  painter,
  painterKey,
  testId,
  textId,
  markPx,
}: {
  port: PortView;
  what: string;
  painter: NetworkPainter;
  painterKey: string;
  testId: string;
  /** The id of the queue's number (a button names itself with it). */
  textId?: string;
  markPx: number;
}) {
  const bar = useRef<HTMLSpanElement>(null);
  const fill = useRef<HTMLSpanElement>(null);
  const text = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    if (fill.current && text.current) painter.queue(painterKey, { fill: fill.current, text: text.current });
    return () => painter.queue(painterKey, null);
  }, [painter, painterKey]);
  // The bar's width in the card (px; a transform that grows the card leaves it as it is).
  const [barPx, setBarPx] = useState(0);
  useLayoutEffect(() => {
    const el = bar.current;
    if (!el) return;
    const measure = () => setBarPx(el.clientWidth);
    measure();
    const seen = new ResizeObserver(measure);
    seen.observe(el);
    return () => seen.disconnect();
  }, []);
  const shown = marksOnBar(port);
  const beyond = marksBeyond(port);
  const labels = barPx > 0 ? markLabels(shown.map((m) => ({ label: m.label, param: m.param, fraction: barFraction(m.at, port.buffer) })), barPx, markPx) : [];
  const fmt = (v: number) => (v >= 10 ? v.toFixed(0) : v.toFixed(1));
  const title = [
    `${what}: queue against the buffer (${fmt(port.buffer)} ${port.unit})`,
    ...port.marks.map((m) => `${m.label} (${m.param}) = ${fmt(m.at)} ${port.unit}${m.at > port.buffer ? ', beyond the buffer' : ''}`),
  ].join('\n');
  return (
    <>
      <span className="nv-bar" title={title} ref={bar}>
        <span className="nv-fill" ref={fill} />
        {shown.map((m) => (
          <span key={m.param} className="nv-mark" data-mark={m.param} style={{ left: `${100 * barFraction(m.at, port.buffer)}%` }} />
        ))}
        {labels.map((l) => (
          <span key={l.params.join(' ')} className="nv-mark-label" data-marks={l.params.join(' ')} style={{ left: l.leftPx }}>
            {l.text}
          </span>
        ))}
      </span>
      <span className="nv-qtext" ref={text} data-testid={testId} id={textId} />
      {/* The buffer, on demand: in the queue's tooltip, and after it in the port's name. */}
      {textId && (
        <span id={`${textId}-buffer`} className="visually-hidden">
          {`(buffer ${queueCount(port.buffer)} ${port.unit})`}
        </span>
      )}
      {beyond.length > 0 && <span className="nv-beyond">{beyond.map((m) => m.label).join(', ')} beyond the buffer</span>}
    </>
  );
}

/** A switch's ports toward many destinations as one row: the largest of their queues; a click
 *  shows them one by one. */
function GroupRow({ group, painter, expand, markPx, look }: { group: PortGroup; painter: NetworkPainter; expand?: SwitchData['expand']; markPx: number; look?: CardLook }) {
  const n = group.ports.length;
  const line = groupLine(group, look);
  const id = useId();
  const row = (
    <>
      {/* One line, however many names (the card's height is the layout's): what fits of the
          names or their count (groupLine); every name is in the tooltip and the accessible name
          (group.names, never a count). */}
      <span className="nv-port-to" title={`${group.names} (${n})`}>
        →{' '}
        <span className="nv-group-label">{line.text}</span>
        {line.count && (
          <>
            {' '}
            <span className="nv-group-count">({n})</span>
          </>
        )}
      </span>
      {/* A screen reader hears the switch and where its ports lead, not "→ D1–D5 (5)" alone. */}
      <span id={`${id}-name`} className="visually-hidden">
        {`${group.switchId}'s ${n} ports toward ${group.names}, largest queue`}
      </span>
      <QueueBar
        port={group.ports[0]}
        what={`The largest of ${n} queues, ${group.switchId} toward ${group.names}`}
        painter={painter}
        painterKey={group.key}
        testId={`nv-queue-${group.key}`}
        textId={`${id}-queue`}
        markPx={markPx}
      />
    </>
  );
  const marked = marksOnBar(group.ports[0]).length > 0 ? ' nv-marked' : '';
  return expand ? (
    <button
      type="button"
      className={`nv-port nv-group nv-port-button nopan${marked}`}
      data-testid={`nv-group-${group.key}`}
      aria-labelledby={`${id}-name ${id}-queue ${id}-queue-buffer`}
      aria-expanded={false}
      title={`The largest queue of ${group.switchId}'s ${n} ports toward destinations ${group.names}: show them one by one`}
      onClick={() => expand(group.switchId, true)}
    >
      {row}
    </button>
  ) : (
    <div className={`nv-port nv-group${marked}`} data-testid={`nv-group-${group.key}`}>
      {row}
    </div>
  );
}

function PortRow({ port, painter, inspect, markPx }: { port: PortView; painter: NetworkPainter; inspect?: SwitchData['inspect']; markPx: number }) {
  const id = useId();
  const marked = marksOnBar(port).length > 0 ? ' nv-marked' : '';
  const row = (
    <>
      <span className="nv-port-to">→ {port.to}</span>
      {/* A screen reader hears the port (QA: "→ SW2 —", without the switch), then its queue. */}
      <span id={`${id}-name`} className="visually-hidden">
        {`Port ${port.port}, queue`}
      </span>
      <QueueBar port={port} what={port.port} painter={painter} painterKey={port.port} testId={`nv-queue-${port.port}`} textId={`${id}-queue`} markPx={markPx} />
    </>
  );
  // A button when the inspector can be asked: the port explains itself there.
  return inspect ? (
    <button
      type="button"
      className={`nv-port nv-port-button nopan${marked}`}
      data-testid={`nv-port-${port.port}`}
      aria-labelledby={`${id}-name ${id}-queue ${id}-queue-buffer`}
      title={`How ${port.switchId} computes its feedback at ${port.port} (in the side panel)`}
      onClick={() => inspect(port.switchId, port.port)}
    >
      {row}
    </button>
  ) : (
    <div className={`nv-port${marked}`} data-testid={`nv-port-${port.port}`}>
      {row}
    </div>
  );
}

export function SwitchCard({ data }: NodeProps<SwitchNode>) {
  // The short name ("UT", "FIFO") on the narrow card, the whole one in its tooltip.
  const algorithm = data.ports[0]?.algorithmName;
  const short = data.ports[0]?.algorithmShort;
  const markPx = data.markPx ?? 12;
  return (
    <div className="nv-switch" data-testid={`nv-node-${data.id}`} data-layout-height={data.heightPx?.toFixed(1)}>
      <CentreHandles />
      <div className="nv-switch-head">
        <strong>{data.id}</strong>
        {algorithm && (
          <span className="nv-algorithm" title={algorithm} data-testid={`nv-algorithm-${data.id}`}>
            {short}
          </span>
        )}
      </div>
      {data.rows.map((r) =>
        r.port ? (
          <PortRow key={r.port.port} port={r.port} painter={data.painter} inspect={data.inspect} markPx={markPx} />
        ) : (
          <GroupRow key={r.group.key} group={r.group} painter={data.painter} expand={data.expand} markPx={markPx} look={data.look} />
        ),
      )}
      {data.grouped && data.expand && (
        <button
          type="button"
          className="nv-collapse nopan"
          data-testid={`nv-collapse-${data.id}`}
          aria-expanded={true}
          title={`Show ${data.id}'s ports toward ${data.grouped.names} as one row again`}
          onClick={() => data.expand!(data.id, false)}
        >
          ▴ {data.grouped.label} as one row
        </button>
      )}
    </div>
  );
}

function AcrLine({ connection, word, painter }: { connection: string; word: string; painter: NetworkPainter }) {
  const ref = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    painter.acr(connection, ref.current);
    return () => painter.acr(connection, null);
  }, [painter, connection]);
  return (
    <div className="nv-acr" data-testid={`nv-acr-${connection}`}>
      {connection} {word} <span ref={ref} />
    </div>
  );
}

export function EndSystem({ data }: NodeProps<EndNode>) {
  return (
    <div className={`nv-end nv-${data.kind}`} data-testid={`nv-node-${data.id}`} title={`${data.kind} ${data.id}`}>
      <CentreHandles />
      <span className={data.label ? `nv-end-id nv-label-${data.label}` : 'visually-hidden'} data-testid={`nv-name-${data.id}`} data-spot={data.label ?? 'none'}>
        {data.id}
      </span>
      {data.connections.length > 0 && (
        <div className={`nv-end-info nv-info-${data.info}`} data-testid={`nv-info-${data.id}`}>
          {data.connections.map((c) => (
            <AcrLine key={c} connection={c} word={data.rateWord} painter={data.painter} />
          ))}
        </div>
      )}
    </div>
  );
}

/** A link as its two lanes (one per direction); their colour and width come from the painter. */
export function LinkLanes({ data }: EdgeProps<LinkEdge>) {
  const { link, painter } = data!;
  return (
    <>
      {link.lanes.map((lane) => (
        <path
          key={lane.port}
          className="nv-lane"
          data-port={lane.port}
          data-testid={`nv-lane-${lane.port}`}
          d={`M${lane.a.x},${lane.a.y} L${lane.b.x},${lane.b.y}`}
          ref={(el) => {
            painter.lane(lane.port, el);
            return () => painter.lane(lane.port, null);
          }}
        >
          <title>{`${lane.port} (${link.id}, ${linkRateText(link.rateMbps)})`}</title>
        </path>
      ))}
    </>
  );
}

export const NODE_TYPES = { switch: SwitchCard, end: EndSystem };
export const EDGE_TYPES = { link: LinkLanes };
