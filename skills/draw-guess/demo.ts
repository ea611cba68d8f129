/**
 * 你画我猜's rules brain (演示脚本，无模型): the reader and the true lines of truth.ts, nothing else
 * (src/core/games/reader.ts). Deterministic; it reads only the request and learns an animal's name
 * only when a tool reveals it.
 */
import { rulesPolicy } from '../../src/core/games/reader.ts';
import { rules } from './reader.ts';

export const policy = rulesPolicy(rules);
