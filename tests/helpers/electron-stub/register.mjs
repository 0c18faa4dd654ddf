// `node --import ./register.mjs out/main/index.js`: the built main bundle runs under plain Node with
// `electron` mapped to a recording stand-in (docs/stack.md §2: the cheapest proof the app starts).
import { register } from 'node:module'

register('./hooks.mjs', import.meta.url)
