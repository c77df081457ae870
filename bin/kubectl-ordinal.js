#!/usr/bin/env node
// The kubectl plugin: the same program as bin/ordinal.js, which it runs (src/cli/main.ts names the
// command after the file it was started as).
import './ordinal.js';
