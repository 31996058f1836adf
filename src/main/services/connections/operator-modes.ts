/**
 * Which connections each session has switched to operator mode. Memory only: a restart, a
 * new browser session or a new window starts read-only. A session's switches end with it, a
 * connection's with its removal. Checks nothing about the store (the service probes first).
 */
export class OperatorModes {
  private readonly bySession = new Map<string, Set<string>>();

  has(sessionId: string, connectionId: string): boolean {
    return this.bySession.get(sessionId)?.has(connectionId) ?? false;
  }

  set(sessionId: string, connectionId: string, operator: boolean): void {
    const connections = this.bySession.get(sessionId);
    if (operator) {
      if (connections === undefined) this.bySession.set(sessionId, new Set([connectionId]));
      else connections.add(connectionId);
      return;
    }
    connections?.delete(connectionId);
    if (connections?.size === 0) this.bySession.delete(sessionId);
  }

  endSession(sessionId: string): void {
    this.bySession.delete(sessionId);
  }

  forgetConnection(connectionId: string): void {
    for (const sessionId of [...this.bySession.keys()]) this.set(sessionId, connectionId, false);
  }
}
