/**
 * The benchmark as a vitest "test" (vitest is the TypeScript runner the project has): run by
 * scripts/bench.mjs with `vitest run --config vitest.bench.config.ts`, options in BENCH_ARGS
 * (a JSON array of command-line words), the table written to BENCH_TEXT_OUT.
 */
import { writeFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { parseBenchArgs } from './options'
import { runBench } from './run'

const HOURS = 3_600_000

it('npm run bench', { timeout: 3 * HOURS }, async () => {
  const args = JSON.parse(process.env.BENCH_ARGS ?? '[]') as string[]
  const opts = parseBenchArgs(args, process.env)
  const out = await runBench(opts, (line) => process.stderr.write(`${line}\n`))
  if (process.env.BENCH_TEXT_OUT)
    writeFileSync(process.env.BENCH_TEXT_OUT, `${out.text}\n\nJSON: ${out.jsonPath}\n`)
  else process.stdout.write(`${out.text}\n`)
  expect(out.report.rows.length).toBeGreaterThan(0)
})
