// Preloaded into a job process the stand-in `utilityProcess.fork` starts: Electron's utility
// processes talk through `process.parentPort`; here it rides on Node's IPC channel.
process.parentPort = {
  once(event, listener) {
    process.once(event, (data) => listener({ data }))
  },
  postMessage(message) {
    process.send(message)
  },
}
