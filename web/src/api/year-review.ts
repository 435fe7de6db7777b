import { useQuery } from '@tanstack/react-query';
import type { YearReviewAnswer } from '@reelstat/contract';
import { api, apiUrl, authHeaders, ApiError } from './client';

export interface YearReviewRequest {
  year: number;
  userId?: string;
}

/** The browser's own time zone: a year runs from the viewer's New Year to the next. */
export function browserTimeZone(): string | undefined {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
}

function query({ year, userId }: YearReviewRequest) {
  return { year, userId, timeZone: browserTimeZone() };
}

export function useYearReview(request: YearReviewRequest) {
  return useQuery({
    queryKey: ['year-review', request],
    queryFn: () => api<YearReviewAnswer>('/api/getYearInReview', { query: query(request) }),
  });
}

/** The PNG card as an object URL (the token is a header, so an <img src> cannot fetch it itself). */
export async function fetchYearReviewCard(request: YearReviewRequest): Promise<{ url: string; fileName: string }> {
  const response = await fetch(apiUrl('/api/getYearInReviewCard', query(request)), { headers: authHeaders() });
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { message?: string };
    throw new ApiError(response.status, body.message ?? `Error : ${response.status}`);
  }
  const fileName = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'reelstat-year.png';
  return { url: URL.createObjectURL(await response.blob()), fileName };
}
