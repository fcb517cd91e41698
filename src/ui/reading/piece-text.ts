// How the Reading page writes a token's text: a space and a newline made visible (␣, ⏎), so a class
// sees where a token starts with one, and an empty text as ∅.
export const shownPiece = (text: string): string => text.replace(/ /g, '␣').replace(/\n/g, '⏎') || '∅';
