import { describe, expect, it } from 'vitest'
import { parseMakeTargets, parsePackageScripts } from '../../../../src/core/audit/repo-facts'

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
})
