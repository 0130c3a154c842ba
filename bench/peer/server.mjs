// PostGraphile v5 over the bench database: the peer `npm run bench` compares orgraph's graph with.
// Amber preset with simplify inflection, production settings, one pool of the size orgraph's server uses.
// Started by bench/peer.ts (`npx -p node@24 node bench/peer/server.mjs`); listens on 127.0.0.1:$PORT.
import { createServer } from 'node:http';
import { PgSimplifyInflectionPreset } from '@graphile/simplify-inflection';
import { postgraphile } from 'postgraphile';
import { makePgService } from 'postgraphile/adaptors/pg';
import { grafserv } from 'postgraphile/grafserv/node';
import { PostGraphileAmberPreset } from 'postgraphile/presets/amber';

const connectionString = process.env.DATABASE_URL;
const port = Number(process.env.PORT);
const poolMax = Number(process.env.DATABASE_POOL_MAX || 10);
if (!connectionString || !port) throw new Error('DATABASE_URL and PORT are required');

/** @type {GraphileConfig.Preset} */
const preset = {
  extends: [PostGraphileAmberPreset, PgSimplifyInflectionPreset],
  pgServices: [makePgService({ connectionString, schemas: ['public'], poolConfig: { max: poolMax } })],
  grafserv: { port, host: '127.0.0.1', graphiql: false, watch: false },
  grafast: { explain: false },
};

const pgl = postgraphile(preset);
const serv = pgl.createServ(grafserv);
const server = createServer();
server.on('error', (error) => {
  console.error(error);
  process.exit(1);
});
await serv.addTo(server);
await pgl.getSchemaResult();
server.listen(port, '127.0.0.1', () => process.stdout.write(`ready ${port} ${process.pid}\n`));

const stop = async () => {
  server.close();
  await pgl.release();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
