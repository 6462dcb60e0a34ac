/**
 * A note of the engine as a sentence: capitalised, with a full stop, unless it opens with the
 * path of its field (`connections[1] (F1).params.tag_interval_us: …`), which stays as the engine
 * writes it so that it names the field as the scenario file does.
 */
export function noteSentence(note: string): string {
  const first = note.split(/[\s:]/, 1)[0];
  const path = /[.[]/.test(first);
  return `${path ? note : note.charAt(0).toUpperCase() + note.slice(1)}.`;
}

/**
 * What the reader of the loaded scenario should know before running it (the engine's notes,
 * `LabState.scenarioNotes`), as soon as it is loaded and until an edit ends them. Not a
 * refusal: the scenario runs as it is. The reader may fold them away; a set of notes that
 * changes (an edit makes one or ends one) shows unfolded again. The Result tab says the same
 * notes with the run's figures, so the side panel leaves this out there.
 */
export function ScenarioNotes({ notes }: { notes: readonly string[] }) {
  if (notes.length === 0) return null;
  return (
    // Keyed by the notes: another set mounts open again, whatever the reader folded.
    <details key={notes.join('\n')} className="scenario-notes" open data-testid="scenario-notes">
      <summary>{notes.length === 1 ? 'A note on this scenario' : `${notes.length} notes on this scenario`}</summary>
      <ul>
        {notes.map((n) => (
          <li key={n} data-testid="scenario-note">
            {noteSentence(n)}
          </li>
        ))}
      </ul>
    </details>
  );
}
