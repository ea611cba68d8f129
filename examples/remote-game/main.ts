/**
 * `npm run remote-game` (from the repository root) or `npm start` (in this folder): starts the
 * reference remote game agent and prints the address to add in the arcade (设置 → 远程游戏).
 *
 *   --port 8787            the port (0: any free one)
 *   --host 127.0.0.1       listen on this computer only; 0.0.0.0 for the home network
 *   --public-url URL       the https address the tablet uses (a reverse proxy in front of this server)
 *   --base-path /animal-sounds   serve the game under a folder named by its id
 *   --allow-origin URL     allow only this arcade origin (CORS); default any origin
 *   --seed N               a fixed question order
 */
import { parseArgs } from 'node:util';
import { startRemoteGameServer } from './server.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8787' },
    host: { type: 'string', default: '127.0.0.1' },
    'public-url': { type: 'string' },
    'base-path': { type: 'string' },
    'allow-origin': { type: 'string', multiple: true },
    seed: { type: 'string' },
  },
});

const server = await startRemoteGameServer({
  port: Number(values.port),
  host: values.host,
  publicUrl: values['public-url'],
  basePath: values['base-path'],
  allowOrigin: values['allow-origin'],
  seed: values.seed === undefined ? undefined : Number(values.seed),
});
console.log(`猜动物叫声 is serving desktop-game/5 at ${server.url}`);
console.log(`Agent Card: ${server.url}/.well-known/agent-card.json`);
console.log('Add this address in the arcade: 设置 → 远程游戏. Ctrl+C stops it.');
const stop = () => void server.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
