import type { EditTarget } from './editor/NetworkEditor';

/**
 * Where a note of the engine opens with the path of its field
 * (`connections[1] (F1).params.tag_interval_us: …`): that path, as the engine writes it, which
 * names the field as the scenario file does (null: the note opens with words).
 */
export function notePath(note: string): string | null {
  const colon = note.indexOf(': ');
  const head = colon < 0 ? '' : note.slice(0, colon);
  return /^[a-z_]+(\[\d+\]( \([^)]*\))?)?\.[\w.]+$/.test(head) ? head : null;
}

/** The connection whose field a note names (`connections[1] (F1).params…` → F1), or null. */
export function noteConnection(note: string): string | null {
  return /^connections\[\d+\] \(([^)]*)\)\./.exec(notePath(note) ?? '')?.[1] ?? null;
}

/** Where the editor shows the field a note names: its connection, or the parameters every
 *  source takes (a note on `defaults.source.…`, or one that proposes a value there, as the
 *  binary-feedback note does for `rif`); null when the note names no field the editor has. */
export function noteTarget(note: string): EditTarget | null {
  const connection = noteConnection(note);
  if (connection !== null) return { connection };
  return note.includes('defaults.source.') ? { sourceDefaults: true } : null;
}

/** A note as a sentence: capitalised with a full stop, but a leading path stays as it is. */
export function noteSentence(note: string): string {
  return `${notePath(note) !== null ? note : note.charAt(0).toUpperCase() + note.slice(1)}.`;
}

/** A note as the page shows it: its field's path, if it opens with one, set as code. */
export function NoteText({ note }: { note: string }) {
  const path = notePath(note);
  if (path === null) return <>{noteSentence(note)}</>;
  return (
    <>
      <code>{path}</code>
      {noteSentence(note).slice(path.length)}
    </>
  );
}

/**
 * What the reader of the loaded scenario should know before running it (the engine's notes,
 * `LabState.scenarioNotes`), as soon as it is loaded and until an edit ends them. Not a
 * refusal: the scenario runs as it is. The reader may fold them away; a set of notes that
 * changes (an edit makes one or ends one) shows unfolded again. The Result tab says the same
 * notes with the run's figures, so the side panel leaves this out there. A note on a
 * connection's field, or on one every source takes, offers to open it in the network editor
 * (`onEditField`, when the editor may be used). `folded`: shown as its heading alone until opened (where the side
 * panel is away, embedded or hidden, and the box sits over the charts).
 */
export function ScenarioNotes({ notes, onEditField, folded = false }: { notes: readonly string[]; onEditField?: (target: EditTarget) => void; folded?: boolean }) {
  if (notes.length === 0) return null;
  return (
    // Keyed by the notes: another set mounts open again, whatever the reader folded.
    <details key={notes.join('\n')} className={folded ? 'scenario-notes over-charts' : 'scenario-notes'} open={!folded} data-testid="scenario-notes">
      <summary>{notes.length === 1 ? 'A note on this scenario' : `${notes.length} notes on this scenario`}</summary>
      <ul>
        {notes.map((n) => (
          <li key={n} data-testid="scenario-note">
            <NoteText note={n} />
            <EditField target={noteTarget(n)} onEdit={onEditField} />
          </li>
        ))}
      </ul>
    </details>
  );
}

function EditField({ target, onEdit }: { target: EditTarget | null; onEdit?: (target: EditTarget) => void }) {
  if (target === null || !onEdit) return null;
  const [id, what, title] =
    'connection' in target
      ? [target.connection, target.connection, `Open ${target.connection} in the network editor, with its source parameters`]
      : ['defaults', 'every source', 'Open the parameters every source takes (defaults.source) in the network editor'];
  return (
    <>
      {' '}
      <button className="btn small" data-testid={`scenario-note-edit-${id}`} title={title} onClick={() => onEdit(target)}>
        Edit {what}
      </button>
    </>
  );
}

/**
 * The notes said to a screen reader as they come (a scenario loaded, an edit that makes or ends
 * one), whichever tab shows: a live region always on the page, its text the notes. The box
 * itself comes and goes with the tab, and a region that appears with its text is not read.
 */
export function ScenarioNotesAnnouncer({ notes }: { notes: readonly string[] }) {
  const text = notes.length === 0 ? '' : `${notes.length === 1 ? 'A note on this scenario' : `${notes.length} notes on this scenario`}: ${notes.map(noteSentence).join(' ')}`;
  return (
    <div className="visually-hidden" aria-live="polite" data-testid="scenario-notes-announcer">
      {text}
    </div>
  );
}
