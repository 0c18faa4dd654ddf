/**
 * What one note offers prose-then.ts to check (issue 12, recall): its identifier-shaped names and
 * name-value pairs (src/core/audit/prose-names.ts), the names a line places in the one file it
 * names, paths outside the repository as text code would hold, globs, values only code holds, and
 * (when history cannot be read) its paths. The matchers both passes use are in tree-match.ts.
 */
import { mcpServers } from '../../core/audit/mcp-tools'
import { rootedFile } from '../../core/audit/repo-paths'
import type { Note } from '../../core/memory/notes'
import type { Reference } from '../../core/audit/reference'
import { importedNames } from '../../core/audit/fence-imports'
import { declaringBlocks, type DeclaringBlocks } from '../../core/audit/example-blocks'
import { cutFences } from '../../core/audit/note-fences'
import { productNames } from '../../core/audit/product-names'
import { fencePrograms } from '../../core/audit/fence-programs'
import {
  boldEntries,
  kindMembers,
  labelMembers,
  sectionMembers,
} from '../../core/audit/section-members'
import { bareLists } from '../../core/audit/bare-lists'
import { contactLiterals } from '../../core/audit/contact-literals'
import {
  elidedQualifier,
  fencedLiterals,
  pinsAndMessages,
  urlBase,
} from '../../core/audit/fenced-literals'
import { cliSubcommands, SUBCOMMAND_FOLDERS } from '../../core/audit/cli-subcommands'
import { localPorts, memberLists, settingLiterals } from '../../core/audit/stated-values'
import { hexValues } from '../../core/audit/hex-values'
import { stateLicenses } from '../../core/audit/license-claims'
import { acronymNames, quotedPhrases } from '../../core/audit/quoted-phrases'
import { declaredTexts, httpRoutes, routeSpans } from '../../core/audit/command-texts'
import {
  classSpans,
  folderMembers,
  proseLines,
  stateVersions,
  proseNames,
  type ProsePair,
} from '../../core/audit/prose-names'
import {
  binPackages,
  boldNames,
  packageNamesOf,
  phasedOutNames,
  tickedScopes,
  tickedWords,
} from '../../core/audit/manifest-names'
import { globOf, SHARED_HOME_DIRS } from '../../core/audit/reference-paths'
import type { Prepared } from './prepare-notes'
import { goneFileName } from '../../core/audit/repo-facts'
import { samePlaceholders } from '../../core/audit/placeholder-paths'
import { NOTE_CHECK_MAX_CHARS } from '../../core/limits'
import { aliasPair, namesThisRepository, OWNER_NAME_RE } from '../../core/audit/owner-names'
import type { StringCandidate } from './candidate-lines'

/** The part of a note that is checked, as its references are (prepare-notes.ts). */
const checkedText = (note: Note): string => note.checkText.slice(0, NOTE_CHECK_MAX_CHARS)

export interface Candidates {
  readonly names: readonly string[]
  /** Names only an example in one language gives: held only by that language's files. */
  readonly fencedIn: ReadonlyMap<string, RegExp>
  readonly pairs: readonly ProsePair[]
  /** Paths outside the repository, and the literal string code may hold. */
  readonly strings: readonly StringCandidate[]
  /** Path references with wildcards or placeholders, and their glob. */
  readonly globs: readonly {
    readonly ref: Reference
    readonly glob: string
    readonly same: RegExp | null
  }[]
  /** Names a line places in the files it names (`src/models/types.ts` — CardInfo). */
  readonly located: readonly Located[]
  /** Paths asked of the tree then, when history is not known (see ProseFinding.absentThen). */
  readonly paths: readonly { readonly ref: Reference; readonly path: string }[]
  /** Bold package names (`**pandas**`), vouched for only by a manifest's dependency line. */
  readonly deps: readonly string[]
  /** Those of `deps` a note names as a product in prose (`Redis`, `**Redis**`), not as a package:
   * a package of another name that holds it (`ioredis`) still vouches for them. */
  readonly products: readonly string[]
  /** Members a line lists for a folder (`lib/utils/` — currency, auto-categorize). */
  readonly members: readonly Member[]
  /** Quoted blocks that declare types: examples when the code had none of them then. */
  readonly blocks: DeclaringBlocks
}

/** A name and the files (one or more, as tracked now) a note's line places it in. */
export interface Located {
  readonly name: string
  readonly files: readonly string[]
  /** The other names the line gives (`SortableTaskCard` beside `useSortable`). */
  readonly beside: readonly string[]
}

/** One member a note lists for a folder: a file or folder of that name (any extension) in it. */
export interface Member {
  readonly ref: Reference
  readonly folder: string
  readonly item: string
  /**
   * The whole list, where a label only implies the folder (section-members.ts `labelMembers`):
   * the member counts only when most of the list was in such a folder when the note was written.
   */
  readonly siblings?: readonly string[]
  /** Other folders that hold it as well as `folder` does (a command moved into a skill). */
  readonly also?: readonly string[]
  /** A bare list's name (bare-lists.ts): its folder is the one the tree shows for `siblings`. */
  readonly anyFolder?: true
}

/** Whether the repository tracks a folder of this name now, at any depth. */
function toolFolder(p: Prepared, name: string): boolean {
  const dirs = p.state?.trackedDirs
  if (!dirs) return false
  for (const d of dirs) if (d === name || d.endsWith(`/${name}`)) return true
  return false
}

/** The identifier-shaped names a note gives in plain prose (prose-names.ts). */
export function proseNamesOf(note: Note): readonly string[] {
  return proseNames(checkedText(note)).names
}

export function candidatesOf(p: Prepared, note: Note, refs: readonly Reference[]): Candidates {
  const noHistory = p.facts?.history === null
  const prose = proseNames(checkedText(note))
  // A name the note also back-ticks is checked as a symbol already.
  const ticked = new Set(refs.flatMap((r) => (r.kind === 'symbol' ? r.terms : [])))
  const names = prose.names.filter((n) => !ticked.has(n))
  const pairs = prose.pairs
  const strings: StringCandidate[] = []
  const globs: { ref: Reference; glob: string; same: RegExp | null }[] = []
  const paths: { ref: Reference; path: string }[] = []
  const packages: string[] = []
  for (const r of refs) {
    const elided = r.kind === 'snippet' && !r.fenced ? elidedQualifier(r.code) : null
    if (elided) strings.push({ ref: r, text: elided.prefix, qualified: elided.re })
    // A URL's fixed part is text a code line held (a base URL constant; fenced-literals.ts).
    const base = r.kind === 'url' ? urlBase(r.url) : null
    if (base)
      strings.push({
        ref: { kind: 'symbol', text: r.text, name: base, terms: [base] },
        text: base,
        bounded: true,
        uncommented: true,
      })
    const named = r.kind === 'path' && r.prose === true && !r.dir ? packageNamesOf(r.path) : []
    packages.push(...named)
    // The module the code imported by that name (`require('sql.js')`): the manifest may keep
    // listing a package the code no longer loads (blind set AB: `sql.js` listed still, and
    // no import of it left after the move to another driver).
    if (named.length > 0) strings.push({ ref: r, text: named[0], imported: true })
    const path =
      r.kind === 'path' ? r.path : r.kind === 'command' && r.runner === 'file' ? r.target : null
    if (path === null) continue
    packages.push(...binPackages(path))
    const glob = r.kind === 'path' ? globOf(path) : null
    // A folder pattern (`batch-NN/`) matches the files inside such folders.
    if (glob !== null && r.kind === 'path' && !glob.startsWith('/') && !glob.startsWith('..'))
      globs.push({ ref: r, glob: r.dir ? `${glob}/**` : glob, same: samePlaceholders(path, r.dir) })
    // A path outside the repository is checked as text only code would hold.
    else if (
      glob === null &&
      /^(?:\.\.\/|\/)[^\s]*[A-Za-z]{3}/.test(path) &&
      !(p.facts && rootedFile(path, r.kind === 'path' && r.dir, p.facts))
    )
      strings.push({ ref: r, text: path })
    else if (glob === null && noHistory && !/^(?:\.\.?\/|\/|~)/.test(path))
      paths.push({ ref: r, path })
    // `log/slog`, read as another repository's `owner/name`: a package the code imports is
    // text the code holds; held when the note was written and by no code now, it is gone
    // (blind set N: a logger the code dropped).
    else if (
      glob === null &&
      r.kind === 'path' &&
      !r.dir &&
      OWNER_NAME_RE.test(path) &&
      !namesThisRepository(path, p.facts?.root)
    ) {
      strings.push({ ref: r, text: path, bounded: true, uncommented: true })
      // `gpson/gon`: a command and its alias, each a value the code quoted (a registered
      // command's name); held then and quoted by no code now, the command went (blind set BI).
      for (const word of aliasPair(path))
        if (!strings.some((x) => x.text === word))
          strings.push({
            ref: { kind: 'symbol', text: word, name: word, terms: [word] },
            text: word,
            quoted: true,
          })
    }
    // A file no tree has now, by a name the code wrote: text the code holds; held then and by
    // none now, the output moved (blind set AR: `NIGHTYTIDY-REPORT.md`, now in `audit-reports/`).
    // A bare one the code holds now is a file it makes at run time (`registry.json` in the home;
    // blind set BJ): no claim about tracked files (ProseFinding.runtimeFiles).
    else if (glob === null && r.kind === 'path' && !r.dir && p.facts && goneFileName(p.facts, path))
      strings.push({
        ref: r,
        text: goneFileName(p.facts, path)!,
        bounded: true,
        uncommented: true,
        ...(path.includes('/') ? {} : { runtimeFile: true as const }),
      })
    // The app's own folder in the home (`~/.clawdis/credentials/`) is text its code holds (a
    // `".clawdis"` joined to the home); held then and by no code now, it moved (blind set Z2).
    const home = /^~\/(\.[A-Za-z][\w-]{2,})(?:\/|$)/.exec(path)
    if (home && !SHARED_HOME_DIRS.has(home[1].toLowerCase()))
      strings.push({ ref: r, text: home[1], bounded: true, uncommented: true })
  }
  // Values only code holds: a setting's quoted literal, a hexadecimal value (stated-values.ts).
  const routes = routeSpans(checkedText(note)).filter((t) => !strings.some((x) => x.text === t))
  for (const text of [
    ...settingLiterals(checkedText(note)),
    ...fencedLiterals(checkedText(note)),
    ...pinsAndMessages(checkedText(note)),
    ...hexValues(checkedText(note)),
    ...routes,
    ...declaredTexts(checkedText(note)),
  ])
    strings.push({
      ref: { kind: 'symbol', text, name: text, terms: [text] },
      text,
      bounded: true,
      uncommented: true,
    })
  for (const r of httpRoutes(checkedText(note)))
    if (!strings.some((x) => x.text === r.tail))
      strings.push({
        ref: { kind: 'symbol', text: r.written, name: r.tail, terms: [r.tail] },
        text: r.tail,
        bounded: true,
        uncommented: true,
      })
  for (const { written, port } of localPorts(checkedText(note)))
    strings.push({
      ref: { kind: 'symbol', text: written, name: port, terms: [port] },
      text: port,
      bounded: true,
      uncommented: true,
      portKey: true,
    })
  // A back-ticked union (`owner | admin | sales`), looked up by its members (stringsIn).
  for (const members of memberLists(checkedText(note))) {
    const text = members.join(' | ')
    strings.push({ ref: { kind: 'symbol', text, name: text, terms: members }, text, members })
  }
  for (const text of classSpans(checkedText(note)))
    strings.push({ ref: { kind: 'symbol', text, name: text, terms: [text] }, text })
  for (const text of [...quotedPhrases(checkedText(note)), ...acronymNames(checkedText(note))])
    strings.push({
      ref: { kind: 'symbol', text: `"${text}"`, name: text, terms: [text] },
      text,
      phrase: true,
    })
  // A back-ticked plain word the code held as a quoted value (`nsis` in `"target": "nsis"`; set BD).
  for (const text of [...tickedWords(checkedText(note)), ...tickedScopes(checkedText(note))])
    if (!strings.some((x) => x.text === text))
      strings.push({ ref: { kind: 'symbol', text, name: text, terms: [text] }, text, quoted: true })
  // An MCP server's quoted name in the project's settings (mcp-tools.ts).
  for (const { written, server } of mcpServers(checkedText(note)))
    strings.push({
      ref: { kind: 'symbol', text: written, name: server, terms: [server] },
      text: `"${server}"`,
      mcpServer: true,
    })
  // A phone number or e-mail address the code holds (contact-literals.ts).
  for (const text of contactLiterals(checkedText(note)))
    if (!strings.some((x) => x.text === text))
      strings.push({
        ref: { kind: 'symbol', text, name: text, terms: [text] },
        text,
        bounded: true,
      })
  // The version or license a note gives as the current one (`2.8.3+28`, "License: MIT").
  for (const v of [...stateVersions(checkedText(note)), ...stateLicenses(checkedText(note))])
    strings.push({
      ref: { kind: 'symbol', text: v.written, name: v.version, terms: [v.version] },
      text: v.version,
      bounded: true,
      ...('license' in v ? { licenseKey: true as const } : { versionKey: true as const }),
    })
  const products = [...boldNames(checkedText(note)), ...productNames(checkedText(note))]
  const deps = [
    ...new Set([
      ...products,
      ...phasedOutNames(checkedText(note)),
      ...tickedWords(checkedText(note)),
      // A back-ticked scoped package (`@ngrok/ngrok`) a manifest dropped (blind set BK).
      ...tickedScopes(checkedText(note)),
      // The programs its shell blocks run (`black .`), which a manifest dropped (blind set CG).
      ...fencePrograms(checkedText(note)),
      ...packages,
    ]),
  ].filter((d) => !ticked.has(d))
  const member =
    (labelled: boolean, anyFolder = false) =>
    ({ folder, items, also }: { folder: string; items: string[]; also?: readonly string[] }) =>
      items.map((item): Member => {
        const dir = folder.replace(/\/+$/, '')
        const text = `${dir}/${item}`
        return {
          ref: { kind: 'path', text, path: text, line: null, dir: false },
          folder: dir,
          item,
          ...(labelled ? { siblings: items } : {}),
          ...(also ? { also } : {}),
          ...(anyFolder ? { anyFolder: true as const } : {}),
        }
      })
  const members = [
    ...[
      ...folderMembers(checkedText(note)),
      ...sectionMembers(checkedText(note)),
      ...kindMembers(checkedText(note)),
      ...boldEntries(checkedText(note)),
    ].flatMap(member(false)),
    ...labelMembers(checkedText(note)).flatMap(member(true)),
    ...bareLists(checkedText(note)).flatMap((items) => member(true, true)({ folder: '', items })),
    // Only a tool with a folder of its name now: `git pull` in a repository without one asks nothing.
    ...cliSubcommands(checkedText(note))
      .filter(({ tool }) => toolFolder(p, tool))
      .flatMap(({ tool, sub }) =>
        SUBCOMMAND_FOLDERS.flatMap((f) => member(false)({ folder: `${tool}/${f}`, items: [sub] })),
      ),
  ]
  return {
    names,
    fencedIn: prose.fencedIn,
    pairs,
    strings,
    globs,
    paths,
    located: [...located(p, note, refs), ...importedFrom(p, note)],
    deps,
    products: products.filter((d) => !ticked.has(d)),
    members,
    blocks: declaringBlocks(checkedText(note)),
  }
}

/**
 * The names each prose line places in the files it names (each resolved now: as written, or the
 * one tracked file ending with it). Plain-prose names, and back-ticked ones too: a symbol that
 * is still somewhere in the code says nothing of the files the note puts it in (blind set M:
 * "`tray.py`/`splitter.py` call `clear()`", which both did then and neither does now).
 */
function located(p: Prepared, note: Note, refs: readonly Reference[]): Located[] {
  const facts = p.facts
  if (!facts) return []
  const files = refs.flatMap((r) => (r.kind === 'path' && !r.dir && !r.pattern ? [r] : []))
  const symbols = refs.flatMap((r) => (r.kind === 'symbol' ? [r] : []))
  const out: Located[] = []
  const seen = new Set<string>()
  for (const { line, names } of proseLines(checkedText(note))) {
    // A file no tracked path is (`LEARNINGS.md`, made at run time) places nothing (set DO an-t01).
    const found = files
      .filter((r) => line.includes(r.text))
      .map((r) =>
        facts.exists(r.path) && !facts.isDir(r.path) ? [r.path] : facts.bySuffix(r.path),
      )
      .filter((f) => f.length > 0)
    if (found.length === 0 || found.some((f) => f.length !== 1)) continue
    const inLine = symbols.filter((r) => line.includes(`\`${r.text}\``)).map((r) => r.name)
    // A platform (`iOS`, `macOS`) is a product in prose, not a name the file holds (set BC).
    const all = [...names, ...inLine]
    for (const name of all.filter((n) => !/^(?:[a-z]+|iPad)OS$/.test(n))) {
      if (seen.has(name) || !/^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(name)) continue
      seen.add(name)
      const beside = all.filter((n) => n !== name)
      out.push({ name, files: [...new Set(found.map((f) => f[0]))], beside })
    }
  }
  return out
}

/**
 * The names a quoted block imports from a module of the repository (`from specify_cli.merge
 * import run_preflight`), placed in that module's files now: its `.py` file, or every file of its
 * package folder, at the root or under `src/` (fence-imports.ts `importedNames`).
 */
function importedFrom(p: Prepared, note: Note): Located[] {
  const tracked = p.state?.tracked
  if (!tracked) return []
  const out: Located[] = []
  for (const f of cutFences(checkedText(note)).fences) {
    for (const imp of importedNames(f.code)) {
      const path = imp.module.split('.').join('/')
      const files = ['', 'src/'].flatMap((at) =>
        [...tracked].filter((t) => t === `${at}${path}.py` || t.startsWith(`${at}${path}/`)),
      )
      if (files.length === 0) continue
      for (const name of imp.names)
        if (!out.some((x) => x.name === name)) out.push({ name, files, beside: [] })
    }
  }
  return out
}
