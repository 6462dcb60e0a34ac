import type { Problem } from '../contract/engine';
import { problemPlace } from '../contract/problem';
import type { Lab, LabState } from '../lab/lab';
import { jsonFileName, SHARED_ORIGIN } from '../lab/sharing';
import { runUpdate } from './appUpdate';
import { saveBlob } from './download';
import { editedScenario } from './editor/canvas';

/** Problems the engine found, each with its JSON path and rule (shared by every panel). */
export function ProblemList({ problems, testId }: { problems: readonly Problem[]; testId?: string }) {
  return (
    <ul className="problems" data-testid={testId}>
      {problems.map((p, i) => (
        <li key={i}>
          <code className="problem-path">{problemPlace(p) || '(document)'}</code>
          <span className="problem-rule">{p.rule}</span>
        </li>
      ))}
    </ul>
  );
}

/** Validation problems of a rejected scenario, engine notices (crash, errors), typed values
 *  their fields refused (beside any other notice, stacked), and a load that takes long (with a
 *  Cancel button). */
export function Notices({ lab, state }: { lab: Lab; state: LabState }) {
  const loading = state.loading;
  return (
    <>
      {loading && (
        <div className="notice notice-info" role="status" data-testid="loading">
          <div className="notice-head">
            <span className="notice-text">
              Loading “{loading.name}”: the engine is checking its {loading.connections.toLocaleString('en-US')} connection
              {loading.connections === 1 ? '' : 's'} and building the network…
              {loading.queued > 0 ? ` (${loading.queued} more waiting)` : ''}
              {state.current ? ` “${state.current.scenario.name || state.current.id}” stays open until it is in.` : ''}
            </span>
            <button className="btn small" data-testid="cancel-load" onClick={() => lab.cancelLoad()}>
              Cancel
            </button>
          </div>
        </div>
      )}
      {state.problems && (
        <div className="notice notice-error" role="alert" data-testid="problems">
          <div className="notice-head">
            {state.problems.said ? (
              <span className="notice-text">
                <strong>{state.problems.said.head}</strong> <span className="notice-sub">{state.problems.said.sub}</span>
              </span>
            ) : (
              <>
                <strong>
                  {editedScenario(state.problems.origin) === null
                    ? `Could not load ${state.problems.origin}`
                    : `Your edit of ${editedScenario(state.problems.origin)} was not applied`}
                  : {state.problems.problems.length} problem
                  {state.problems.problems.length === 1 ? '' : 's'}.
                </strong>
                <span className="notice-sub">
                  {state.current ? `Still showing “${state.current.scenario.name || state.current.id}”.` : ''}
                </span>
              </>
            )}
            {state.problems.kept !== undefined && (
              <button
                className="btn small"
                data-testid="save-refused"
                title={`${state.problems.origin === SHARED_ORIGIN ? "The link's scenario" : 'Your scenario as it is kept'}, as a file: mend it (the problems above say where) and Import it`}
                onClick={() => saveBlob(new Blob([state.problems!.kept!], { type: 'application/json' }), jsonFileName(state.problems!.origin))}
              >
                Save its file
              </button>
            )}
            <button className="btn ghost small" onClick={() => lab.dismissProblems()}>
              Dismiss
            </button>
          </div>
          <ProblemList problems={state.problems.problems} />
        </div>
      )}
      {state.deleted && (
        <div className="notice notice-info" role="status" data-testid="deleted">
          <div className="notice-head">
            <span className="notice-text">
              Deleted “{state.deleted.name}” from your scenarios.
              {state.deleted.open ? ' It stays open, no longer kept: change it to keep it again as your own.' : ''}
            </span>
            <button className="btn small" data-testid="undo-delete" onClick={() => void lab.undoDelete()}>
              Undo
            </button>
            <button className="btn ghost small" onClick={() => lab.dismissDeleted()}>
              Dismiss
            </button>
          </div>
        </div>
      )}
      {state.typingNotice && (
        <div className="notice notice-info" role="status" data-testid="typing-notice">
          <div className="notice-head">
            <span className="notice-text">{state.typingNotice}</span>
            <button className="btn ghost small" onClick={() => lab.dismissTypingNotice()}>
              Dismiss
            </button>
          </div>
        </div>
      )}
      {state.notice && (
        <div className={`notice notice-${state.notice.kind}`} role="status" data-testid="notice">
          <div className="notice-head">
            <span className="notice-text">{state.notice.text}</span>
            {state.notice.link && (
              <input
                className="notice-link"
                data-testid="share-link"
                aria-label="scenario link"
                readOnly
                value={state.notice.link}
                onFocus={(e) => e.target.select()}
              />
            )}
            {state.notice.reopen && (
              <button
                className="btn small"
                data-testid="notice-reopen"
                title="Open it as it is kept now, with the other tab's change (this tab's own version was kept before it)"
                onClick={() => {
                  const id = state.notice!.reopen!;
                  lab.dismissNotice();
                  void lab.openMine(id);
                }}
              >
                Show the other tab's version
              </button>
            )}
            {state.notice.update && state.notice.update.stage !== 'updating' && (
              <button
                className="btn small"
                data-testid="notice-update"
                title="Fetch the newest ABR Lab from its server and open the link in it (your work is kept)"
                onClick={() => void runUpdate(lab, state.notice!.update!)}
              >
                Update ABR Lab
              </button>
            )}
            <button className="btn ghost small" onClick={() => lab.dismissNotice()}>
              Dismiss
            </button>
          </div>
          {state.notice.problems && <ProblemList problems={state.notice.problems} testId="notice-problems" />}
          {state.notice.details && (
            <details className="notice-details">
              <summary>Technical details</summary>
              <pre data-testid="notice-details">{state.notice.details}</pre>
            </details>
          )}
        </div>
      )}
    </>
  );
}
