() => {
  // Returns the document's changes token (see changes.js): the same as an observation of this
  // document returned says nothing observe.js reads has changed since. "" when the document
  // counts nothing (it was not prepared).
  return window[Symbol.for("observatory.changes")]?.token() ?? "";
}
