import { api, type Query } from './client';
import { apiBase } from './api-base';
import type { HistoryQuery, HistoryScope } from './history';

/**
 * Saves a CSV export to disk without holding it in memory: an authenticated POST asks for a single-use ticket
 * (valid 60 s) for this export and query, then the browser follows the ticket's link, which answers with the
 * file as an attachment, so it streams straight to the downloads (the token is a header, which a navigation
 * cannot send; docs/security.md, "Download tickets").
 */
async function downloadCsv(path: string, query: Query): Promise<void> {
  const { url } = await api<{ url: string }>(`${path}/ticket`, { method: 'POST', query });
  const link = document.createElement('a');
  link.href = `${apiBase}${url}`;
  link.rel = 'noopener';
  link.click();
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
