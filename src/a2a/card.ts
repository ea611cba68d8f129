/**
 * Agent Cards of game agents (seed 000 §A2A 映射): streaming=true, one skill whose id is the game id,
 * tags `desktop-game/5` + `capability:<c>`, examples = the game's aliases. Built from the game's
 * declaration (SKILL.md frontmatter), so listing games needs no running worker.
 */
import { A2A_PROTOCOL_VERSION, type AgentCard } from '@a2a-js/sdk';
import { PROTOCOL } from '../core/protocol/game-protocol.ts';
import type { GameDeclaration } from '../core/protocol/declaration.ts';
import { JSON_MEDIA } from './game-parts.ts';

/** Custom A2A protocol binding (a URI, as the spec asks of custom bindings): JSON-RPC frames on a MessagePort. */
export const MESSAGEPORT_BINDING = 'urn:x-a2a-binding:messageport';
const CAPABILITY_TAG_PREFIX = 'capability:';

function gameAgentUrl(gameId: string): string {
  return `worker://game/${encodeURIComponent(gameId)}`;
}

export function agentCardFor(decl: GameDeclaration, url: string = gameAgentUrl(decl.id)): AgentCard {
  return {
    name: decl.title,
    description: decl.description,
    supportedInterfaces: [{ url, protocolBinding: MESSAGEPORT_BINDING, tenant: '', protocolVersion: A2A_PROTOCOL_VERSION }],
    provider: undefined,
    version: '1.0.0',
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: [JSON_MEDIA],
    defaultOutputModes: [JSON_MEDIA],
    skills: [
      {
        id: decl.id,
        name: decl.title,
        description: decl.description,
        tags: [PROTOCOL, ...decl.capabilities.map((c) => CAPABILITY_TAG_PREFIX + c)],
        examples: [...decl.aliases],
        inputModes: [JSON_MEDIA],
        outputModes: [JSON_MEDIA],
        securityRequirements: [],
      },
    ],
    signatures: [],
  };
}
