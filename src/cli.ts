// `node dist/cli.js …` after `npm run build`; the same program as bin/ordinal.js.
import './cli/main.js';
