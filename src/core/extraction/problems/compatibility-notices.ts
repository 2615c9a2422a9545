/**
 * Warnings about the toolchain's or a library's compatibility rather than the
 * project's behaviour: a library's deprecation, a change due in a future release, one
 * version's artefact read by another, a setup the library says it does not
 * test. Every project that uses the same versions prints them; they are not
 * problems the session met, and they crowded out those it did. A notice that
 * names a security vulnerability stays: it asks for an upgrade of this project.
 */

/** Key prefix of a warning one of whose continuation lines is a compatibility notice. */
export const NOTICE_KEY = 'notice:';

/** A change due in a future release, one version's artefact read by another, a setup the library does not test. */
const COMPATIBILITY =
  /\b(?:in|with) (?:a )?future (?:release|version)s?\b|\bwill (?:no longer (?:work|be supported)|be (?:removed|disallowed|dropped))\b|\bno longer supported\b|\bare not tested\b|\bnot officially supported\b|\bfrom version \S+ when using version\b|(?:in|mit) (?:einer )?zukünftigen version|dans une (?:future|prochaine) version|en (?:una )?(?:versión|versiones) futuras?|将来的版本|未来版本/iu;
/** A deprecation: a notice only when a library or a package manager prints it about itself, not the project's own code. */
const DEPRECATION = /\bdeprecat|veraltet|obsolète|obsoleto|descontinuad|已弃用|已废弃|不推荐使用|非推奨/iu;
const SECURITY = /vulnerab|\bCVE-\d{4}-\d+|vulnerabilidad|sicherheitslücke|漏洞|脆弱性/iu;

/**
 * Whether a warning's text is a compatibility notice (see the module comment).
 *
 * @param text - the warning's text, or one line of it.
 * @param fromLibrary - whether a library or a package manager printed it about itself: only then is a
 *   deprecation one (the project's compiler saying one of the project's own functions is deprecated is not).
 */
export function isCompatibilityNotice(text: string, fromLibrary = false): boolean {
  const head = text.slice(0, 400);
  return (COMPATIBILITY.test(head) || (fromLibrary && DEPRECATION.test(head))) && !SECURITY.test(head);
}
