import { yearReviewAnswer, yearReviewQuery } from '@reelstat/contract';
import { route } from '../http/api-routes.js';

const tag = 'statistics';

/*
 * Access 'own-user': administrators read any user's year or the server's; a viewer reads their own year only
 * (userId = their media-server user; the server's averages it is compared with name nobody).
 */
export const yearReviewRoutes = [
  route({
    method: 'get',
    path: '/api/getYearInReview',
    tag,
    summary:
      "A user's year (userId) or the whole server's: watch time, plays, top titles, series and genres, busiest day and hour, longest binge, " +
      "first and last play, and the server's average per viewer; in timeZone (default: the server's)",
    access: 'own-user',
    userOf: ({ query }) => query.userId,
    servers: 'one',
    query: yearReviewQuery,
    response: yearReviewAnswer,
    handle: ({ query, runtime, serverId }) => runtime.services.yearReview.review(query, serverId),
  }),
  route({
    method: 'get',
    path: '/api/getYearInReviewCard',
    tag,
    summary: 'The year in review as a shareable 1200×630 PNG card (same query as getYearInReview)',
    access: 'own-user',
    userOf: ({ query }) => query.userId,
    servers: 'one',
    query: yearReviewQuery,
    produces: 'image/png',
    handle: async ({ query, runtime, serverId, res }) => {
      const { png, fileName } = await runtime.services.yearReview.card(query, serverId);
      res.status(200);
      res.setHeader('content-type', 'image/png');
      res.setHeader('content-disposition', `inline; filename="${fileName}"`);
      res.setHeader('cache-control', 'no-store');
      res.end(png);
    },
  }),
];
