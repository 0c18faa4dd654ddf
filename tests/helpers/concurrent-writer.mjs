#!/usr/bin/env node
/**
 * Another program changing a file while safeWrite runs, in a separate process.
 *
 *   node concurrent-writer.mjs <file> <mode> <rounds> <log.jsonl> [maxSleepMs]
 *
 * Modes: same-size (rewrite the head in place, size unchanged), truncate (truncate, pause,
 * rewrite), append (add a line at the end), rename-over (replace the file with a new one),
 * delete-recreate (remove, pause, create anew).
 *
 * It is an instrumented stand-in, not a blind one: it logs every version it wrote (`after`)
 * and every version it replaced (`before`, `captured`), so a test can tell whether a version
 * vanished because of safeWrite. In-place modes read and write through one handle, so they
 * replace only what they read; a write that landed in an inode already replaced by someone
 * else is logged `orphaned`. Replacing modes first move the file aside (capturing exactly
 * what they replace) and create the new one without overwriting (link / O_EXCL).
 */
import fs from 'node:fs'
import path from 'node:path'

const [file, mode, roundsArg, logPath, maxSleepArg] = process.argv.slice(2)
const MODES = ['same-size', 'truncate', 'append', 'rename-over', 'delete-recreate']
if (!file || !MODES.includes(mode) || !logPath) {
  process.stderr.write(
    `usage: concurrent-writer.mjs <file> <${MODES.join('|')}> <rounds> <log.jsonl> [maxSleepMs]\n`,
  )
  process.exit(2)
}
const rounds = Number(roundsArg)
const maxSleep = Number(maxSleepArg ?? 3)
const dir = path.dirname(file)
const sleeper = new Int32Array(new SharedArrayBuffer(4))
const sleep = (ms) => Atomics.wait(sleeper, 0, 0, ms)
const randomSleep = () => sleep(Math.random() * maxSleep)
const b64 = (buf) => Buffer.from(buf).toString('base64')
let seq = 0
const aside = () => path.join(dir, `.writer-aside-${process.pid}-${seq++}`)

function log(round, events) {
  fs.appendFileSync(logPath, `${JSON.stringify({ round, mode, events })}\n`)
}

function readFd(fd) {
  const size = fs.fstatSync(fd).size
  const buf = Buffer.alloc(size)
  let got = 0
  while (got < size) {
    const n = fs.readSync(fd, buf, got, size - got, got)
    if (n === 0) break
    got += n
  }
  return buf.subarray(0, got)
}

/** Move the file away and read what was there: the exact version we are about to replace. */
function capture() {
  const a = aside()
  try {
    fs.renameSync(file, a)
  } catch (err) {
    if (err.code === 'ENOENT') return null
    throw err
  }
  const bytes = fs.readFileSync(a)
  fs.unlinkSync(a)
  return bytes
}

/** Rewrite in place through one handle: we replace only what we read through it. */
function inPlace(round, change) {
  let fd
  try {
    fd = fs.openSync(file, 'r+')
  } catch (err) {
    if (err.code === 'ENOENT') return
    throw err
  }
  try {
    const before = readFd(fd)
    const after = change(fd, before)
    const orphaned = fs.fstatSync(fd).nlink === 0
    log(round, [
      { kind: 'before', b64: b64(before) },
      { kind: 'after', b64: b64(after), orphaned },
    ])
  } finally {
    fs.closeSync(fd)
  }
}

/** Create the file without overwriting; whatever got there first is captured and logged. */
function createExclusive(round, write, events) {
  for (;;) {
    // Monotonic times around the create, comparable with safeWrite's traced swap windows.
    const t0 = process.hrtime.bigint()
    try {
      write()
      return { t0: String(t0), t1: String(process.hrtime.bigint()) }
    } catch (err) {
      if (err.code !== 'EEXIST') throw err
      const got = capture()
      if (got !== null) events.push({ kind: 'captured', b64: b64(got) })
    }
  }
}

for (let round = 1; round <= rounds; round++) {
  const line = Buffer.from(`w${round}-${process.pid}\n`)
  if (mode === 'same-size') {
    inPlace(round, (fd, before) => {
      const tag = Buffer.from(`<w${round}>`)
      const after = Buffer.from(before)
      tag.copy(after, 0, 0, Math.min(tag.length, after.length))
      fs.writeSync(fd, after, 0, after.length, 0)
      return after
    })
  } else if (mode === 'truncate') {
    inPlace(round, (fd, before) => {
      fs.ftruncateSync(fd, 0)
      randomSleep()
      const after = Buffer.concat([before, line])
      fs.writeSync(fd, after, 0, after.length, 0)
      return after
    })
  } else if (mode === 'append') {
    inPlace(round, (fd, before) => {
      fs.writeSync(fd, line, 0, line.length, before.length)
      return Buffer.concat([before, line])
    })
  } else if (mode === 'rename-over') {
    const before = capture()
    if (before !== null) {
      const after = Buffer.concat([before, line])
      const tmp = aside()
      fs.writeFileSync(tmp, after)
      const events = [{ kind: 'before', b64: b64(before) }]
      const at = createExclusive(round, () => fs.linkSync(tmp, file), events)
      fs.unlinkSync(tmp)
      events.push({ kind: 'after', b64: b64(after), orphaned: false, ...at })
      log(round, events)
    }
  } else {
    const before = capture()
    if (before !== null) {
      const events = [{ kind: 'before', b64: b64(before) }]
      randomSleep()
      const after = Buffer.concat([Buffer.from(`recreated `), line, before])
      let orphaned = false
      const at = createExclusive(
        round,
        () => {
          const fd = fs.openSync(file, 'wx')
          try {
            fs.writeSync(fd, after, 0, after.length, 0)
            orphaned = fs.fstatSync(fd).nlink === 0
          } finally {
            fs.closeSync(fd)
          }
        },
        events,
      )
      events.push({ kind: 'after', b64: b64(after), orphaned, ...at })
      log(round, events)
    }
  }
  randomSleep()
}
