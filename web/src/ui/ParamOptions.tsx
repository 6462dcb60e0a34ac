// The options of a list of parameters (the Sweep tab's form, a Compare variant's pick): one
// group per part of the network, in the order sweepChoices gives them. Each option says what it
// sets on which part (its `name`), since a closed list shows the option alone, not its group.

import type { SweepChoice } from '../lab/sweepBuilder';

export function ParamOptions({ choices }: { choices: SweepChoice[] }) {
  const groups = [...new Set(choices.map((c) => c.group))];
  return (
    <>
      {groups.map((g) => (
        <optgroup key={g} label={g}>
          {choices
            .filter((c) => c.group === g)
            .map((c) => (
              <option key={c.path} value={c.path}>
                {c.name}
              </option>
            ))}
        </optgroup>
      ))}
    </>
  );
}
