/** Fans events out from services to every transport that subscribed. */
import type { ApiEvent } from '../../shared/contract';

export type EventListener = (event: ApiEvent) => void;

export class EventBus {
  private readonly listeners = new Set<EventListener>();

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(event: ApiEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
