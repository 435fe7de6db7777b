import { useQuery } from '@tanstack/react-query';
import type { WebhookAnswer, WebhookBody, WebhookDeliveryAnswer } from '@reelstat/contract';
import { api } from './client';

/** SPEC.md §9: the webhooks table refreshes every 10 s. */
export function useWebhooks() {
  return useQuery({ queryKey: ['webhooks'], queryFn: () => api<WebhookAnswer[]>('/webhooks'), refetchInterval: 10_000 });
}

export function useWebhookDeliveries(id: number | null, page: number) {
  return useQuery({
    queryKey: ['webhook-deliveries', id, page],
    queryFn: () =>
      api<{ results: WebhookDeliveryAnswer[]; pages: number; current_page: number }>(`/webhooks/${id}/deliveries`, {
        query: { page, size: 10 },
      }),
    enabled: id !== null,
    refetchInterval: 10_000,
  });
}

export const saveWebhook = (body: WebhookBody) => api<WebhookAnswer & { generated_secret?: string }>('/webhooks', { method: 'POST', body });
export const updateWebhook = (id: number, body: WebhookBody) => api<WebhookAnswer>(`/webhooks/${id}`, { method: 'PUT', body });
export const deleteWebhook = (id: number) => api<{ message: string }>(`/webhooks/${id}`, { method: 'DELETE' });
export const testWebhook = (id: number) => api<{ message: string }>(`/webhooks/${id}/test`, { method: 'POST' });
export const retryDelivery = (id: number, deliveryId: number) =>
  api<{ message: string }>(`/webhooks/${id}/deliveries/${deliveryId}/retry`, { method: 'POST' });
export const previewSchedule = (schedule: string, signal?: AbortSignal) =>
  api<{ next_runs: string[]; time_zone: string }>('/webhooks/schedule-preview', { method: 'POST', body: { schedule }, signal });
