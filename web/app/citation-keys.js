// The BibTeX keys a result cites. Apart from bibliography.js, whose entries load only when a BibTeX
// export asks for them: the page's first answer needs the keys, not the entries.

/** The keys a result cites (its `citation_key`: a string or a list), as a list. */
export const keysOf = (citationKey) => (citationKey === undefined ? [] : [citationKey].flat());
