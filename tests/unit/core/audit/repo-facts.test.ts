import { describe, expect, it } from 'vitest'
import {
  definesMakeTarget,
  makePatternMakes,
  makeTargetTexts,
  parseMakeTargets,
  parsePackageScripts,
} from '../../../../src/core/audit/repo-facts'

describe('repository file parsers', () => {
  it('reads package.json scripts and Makefile targets', () => {
    expect(parsePackageScripts('{"scripts":{"build":"tsc","test:unit":"vitest"}}')).toEqual([
      'build',
      'test:unit',
    ])
    expect(parsePackageScripts('{ not json')).toEqual([])
    expect(
      parseMakeTargets(
        '.PHONY: a\nVAR := 1\nX ?= 2\nbuild test: dep\n\techo\n%.o: %.c\ndeploy::\n# c: d\n',
      ),
    ).toEqual(['build', 'test', 'deploy'])
  })

  it('reads pattern rules as making the targets their stem fits (blind set DY pm-t01)', () => {
    const text = 'server-%:\n\t$(MAKE) -C server $*\n%.o: %.c\n%:\n\t@true\nbuild:\n'
    expect(parseMakeTargets(text, true)).toEqual(['server-%', '%.o', 'build'])
    expect(makePatternMakes('server-%', 'server-build')).toBe(true)
    expect(makePatternMakes('server-%', 'server-')).toBe(false)
    expect(makePatternMakes('%', 'anything')).toBe(false)
    expect(makePatternMakes('%-up', 'docker-up')).toBe(true)
    expect(definesMakeTarget('server-% client-%: deps', 'client-lint')).toBe(true)
    // A line holding the target after another rule's colon defines nothing (CY ws-t03).
    expect(definesMakeTarget('%.asc: c', 'c')).toBe(false)
    expect(definesMakeTarget('formatc:', 'c')).toBe(false)
    // What fixed-string searches look for: the rule, or a pattern's text around its `%`.
    expect(makeTargetTexts('up')).toEqual(['up:', '%p:'])
    expect(makeTargetTexts('abc')).toEqual(['abc:', '%bc:', 'ab%', '%c:'])
  })
})
