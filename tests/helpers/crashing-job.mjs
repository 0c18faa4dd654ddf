/**
 * A job script for src/node/jobs/isolated.ts whose jobs fail in every way a heavy job can: the old
 * replay's doubling (V8 aborts the whole process: "Fatal JavaScript invalid size error"), a
 * heap exhausted, an exception, process.exit, a hang. `echo` answers; `provenance` aborts the
 * process as a fatal V8 error does, so a back end pointed at this script sees its heavy method die.
 */
process.once('message', ({ job, args }) => {
  const reply = (r) => process.send(r, () => process.exit(0))
  switch (job) {
    case 'echo':
      return reply({ ok: true, value: args })
    case 'provenance':
      return process.abort()
    case 'replay-bomb': {
      // What replay did before issue 11: 40 replace_all x→xx edits, each built in full.
      let text = 'x\n'
      for (let i = 0; i < 40; i++) text = text.split('x').join('xx')
      return reply({ ok: true, value: text.length })
    }
    case 'heap': {
      const keep = []
      for (;;) keep.push(new Array(1_000_000).fill(keep.length))
    }
    case 'throw':
      throw new Error('a bug in the job')
    case 'exit':
      return process.exit(7)
    case 'hang':
      for (;;);
    default:
      return reply({ ok: false, reason: `unknown job ${job}` })
  }
})
