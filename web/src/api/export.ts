import { apiUrl, authHeaders, ApiError, type Query } from './client';
import type { HistoryQuery, HistoryScope } from './history';

/** The file name the server chose (Content-Disposition), or a fallback. */
function fileNameOf(response: Response, fallback: string): string {
  return /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallback;
}

/**
 * Downloads a CSV export through fetch (the token is a header, not a cookie), then hands the file to the
 * browser. The server streams it; the browser keeps the finished file until it is saved.
 */
async function downloadCsv(path: string, query: Query): Promise<void> {
  const response = await fetch(apiUrl(path, query), { headers: authHeaders() });
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { message?: string };
    throw new ApiError(response.status, body.message ?? `Error : ${response.status}`);
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileNameOf(response, 'reelstat.csv');
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The history view in force (search, sort, filters; no paging) as CSV. */
export function exportHistory(scope: HistoryScope, q: Omit<HistoryQuery, 'page' | 'size'>): Promise<void> {
  const scoped =
    scope.kind === 'user'
      ? { userId: scope.id }
      : scope.kind === 'library'
        ? { libraryId: scope.id }
        : scope.kind === 'item'
          ? { itemId: scope.id }
          : {};
  return downloadCsv('/api/exportHistory', {
    search: q.search || undefined,
    sort: q.sort,
    desc: q.desc,
    filters: JSON.stringify(q.filters),
    ...scoped,
  });
}

/** The users table with its search and sort as CSV. */
export function exportUsers(q: { search: string; sort: string; desc: boolean }): Promise<void> {
  return downloadCsv('/api/exportUsers', { search: q.search || undefined, sort: q.sort, desc: q.desc });
}
