/** Every bad input of issue 8 (and of the core and provenance issues), in one list. */
import type { BadInput } from './tree'
import { FILE_INPUTS } from './planted-files'
import { CONTENT_INPUTS } from './planted-contents'

/** Every bad input of issue 8 (and of the core and provenance issues), planted into a tree. */
export const BAD_INPUTS: readonly BadInput[] = [...FILE_INPUTS, ...CONTENT_INPUTS]
