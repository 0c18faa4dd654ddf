import { execFileSync } from 'node:child_process'
import { mkdtemp, rm, readdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { it } from 'vitest'
import { runProvenanceBench } from '../../scripts/bench-provenance'
import { streamTranscript } from '../../src/node/transcript-stream'

it('profile', { timeout: 600_000 }, async () => {
  const dir = await mkdtemp(join(tmpdir(), 'mc-prof-'))
  await runProvenanceBench({ bytes: 300 * 1024 * 1024, dir })
  const files: string[] = []
  for (const p of await readdir(join(dir, 'claude', 'projects'))) for (const f of await readdir(join(dir, 'claude', 'projects', p))) if (f.endsWith('.jsonl')) files.push(join(dir, 'claude', 'projects', p, f))
  for (let round = 0; round < 3; round++) {
    for (const needle of ['/memory/', null]) {
      const t = performance.now()
      for (const f of files) await streamTranscript(f, { pathNeedle: needle })
      console.log('needle', needle, Math.round(performance.now() - t))
    }
    let t = performance.now()
    execFileSync('grep', ['-c', '"tool_use"', ...files])
    console.log('grep', Math.round(performance.now() - t))
    t = performance.now()
    execFileSync('cat', files, { stdio: ['ignore', 'ignore', 'ignore'] })
    console.log('cat', Math.round(performance.now() - t))
  }
  await rm(dir, { recursive: true, force: true })
})
