/**
 * The folders a shell line moves to or makes: `cd apps/cli`, `git clone <url> [folder]`
 * (reference-commands.ts, shell-blocks.ts).
 */

/** The folder `git clone <url> [folder]` makes (`SuperClaude_Framework` of `…/SuperClaude_Framework.git`). */
export function clonedFolder(words: readonly string[]): string | null {
  if (words[0] !== 'git' || words[1] !== 'clone') return null
  const [url, folder] = words.slice(2).filter((w) => !w.startsWith('-'))
  return (
    folder ??
    url
      ?.replace(/\/+$/, '')
      .split(/[/:]/)
      .pop()
      ?.replace(/\.git$/, '') ??
    null
  )
}

/** The folder `cd` goes to (`cd apps/cli` → `apps/cli`, `cd ~/app/mobile` kept as written); null: no `cd` to one. */
export function cdTarget(tool: string | undefined, words: readonly string[]): string | null {
  const w = words[0] ?? ''
  const one = tool === 'cd' && words.length === 1 && /^(?:~\/)?[\w@+-][\w@.+/-]*$/.test(w)
  return one && !/^\.+$/.test(w) && /[A-Za-z]/.test(w) ? w.replace(/\/+$/, '') : null
}
