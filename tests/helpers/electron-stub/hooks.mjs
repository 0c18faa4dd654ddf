// Module-resolution hook: `electron` (from our bundle and from electron-store) resolves to the stand-in.
const stub = new URL('./electron.mjs', import.meta.url).href

export async function resolve(specifier, context, next) {
  if (specifier === 'electron') return { url: stub, shortCircuit: true }
  return next(specifier, context)
}
