/** The page's reader of `serve`'s event stream (it uses fetch so that it can send the token header). */
import { describe, expect, it } from 'vitest'
import { takeEvents } from '../../../../src/renderer/state/event-stream'

describe('takeEvents', () => {
  it('returns complete events and keeps a partial one for the next chunk', () => {
    const first = takeEvents(
      ': connected\n\ndata: {"kind":"changed","paths":["/a"]}\n\ndata: {"kind":',
    )
    expect(first.data).toEqual(['{"kind":"changed","paths":["/a"]}'])
    const second = takeEvents(`${first.rest}"changed","paths":["/b"]}\n\n: ping\n\n`)
    expect(second.data).toEqual(['{"kind":"changed","paths":["/b"]}'])
    expect(second.rest).toBe('')
  })

  it('yields the same events however the stream is cut into chunks', () => {
    const stream = [': connected', 'data: {"n":1}', ': ping', 'data: {"n":2}', 'data: {"n":3}']
      .map((b) => `${b}\n\n`)
      .join('')
    for (let size = 1; size <= stream.length; size++) {
      let rest = ''
      const got: string[] = []
      for (let i = 0; i < stream.length; i += size) {
        const r = takeEvents(rest + stream.slice(i, i + size))
        got.push(...r.data)
        rest = r.rest
      }
      expect(got, `chunks of ${size}`).toEqual(['{"n":1}', '{"n":2}', '{"n":3}'])
      expect(rest).toBe('')
    }
  })

  it('joins multi-line data and accepts data: without a space', () => {
    expect(takeEvents('data:a\ndata: b\n\n').data).toEqual(['a\nb'])
  })
})
