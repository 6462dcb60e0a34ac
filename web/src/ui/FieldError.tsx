// The rule a field breaks, shown under it (nothing when it breaks none).

export function FieldError({ rule }: { rule: string | undefined | null }) {
  return rule ? (
    <div className="field-error" role="alert">
      {rule}
    </div>
  ) : null;
}
