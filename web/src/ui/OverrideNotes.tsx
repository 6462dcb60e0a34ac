/**
 * What overrides took away beyond what they name (the engine's notes: a switch given another
 * algorithm drops its recorded changes of parameters the new one lacks). Not a refusal: the
 * runs go on. Shown above the Compare and Sweep tables.
 */
export function OverrideNotes({ notes, intro, testId }: { notes: readonly string[]; intro: string; testId: string }) {
  if (notes.length === 0) return null;
  return (
    <div className="override-notes" role="note" data-testid={testId}>
      <p>{intro}</p>
      <ul>
        {notes.map((n, i) => (
          <li key={i}>{n}</li>
        ))}
      </ul>
    </div>
  );
}
