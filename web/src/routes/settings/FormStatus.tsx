/** Success or Failed banner of a settings form (SPEC.md §4). */
export function FormStatus({ status }: { status: { ok: boolean; text: string } | null }) {
  if (!status) return null;
  return (
    <p
      role={status.ok ? 'status' : 'alert'}
      className={`rounded-md px-3 py-2 text-sm ${status.ok ? 'bg-emerald-950 text-emerald-300' : 'bg-red-950 text-red-300'}`}
    >
      {status.text}
    </p>
  );
}
