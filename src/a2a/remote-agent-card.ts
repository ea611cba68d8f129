/**
 * A remote game as the arcade knows it: the SDK's Agent Card of a card the validator
 * (src/core/protocol/remote-card.ts) accepted. Apart from the remote client (./remote-host.ts), so
 * the list of remote games does not load the SDK's client code.
 */
import { AgentCard } from '@a2a-js/sdk';
import type { RemoteGameCard } from '../core/protocol/remote-card.ts';

export interface RemoteGame {
  id: string;
  /** Where it lives, for messages (`games.example.org`). */
  host: string;
  /** The SDK card, with only the interfaces the validator accepted (absolute URLs). */
  card: AgentCard;
}

/** The SDK AgentCard of a raw card JSON the validator accepted. */
export function remoteAgentCard(raw: unknown, checked: RemoteGameCard): AgentCard {
  const card = AgentCard.fromJSON(raw);
  return {
    ...card,
    supportedInterfaces: checked.interfaces.map((i) => ({ url: i.url, protocolBinding: i.binding, tenant: i.tenant, protocolVersion: i.protocolVersion })),
  };
}
