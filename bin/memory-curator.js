#!/usr/bin/env node
// The installed command: runs the built CLI (npm run build first in a checkout).
import '../out/cli/index.js'
