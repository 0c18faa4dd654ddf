/** An error the caller caused: transports map `code` to a status and show `message`. */
export class BackendError extends Error {
  constructor(
    readonly code: 'bad-request' | 'forbidden' | 'not-found',
    message: string,
  ) {
    super(message)
    this.name = 'BackendError'
  }
}
